package cli

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"code2skill": func() { os.Exit(Main()) },
		// The pipeline with compile, the vectors and finalize faked
		// (pipeline_fakes_test.go), for the scripts that test the
		// pipeline's own semantics.
		"code2skill-fakesteps": func() {
			pipelineSteps = fakePipelineSteps
			os.Exit(Main())
		},
	})
}

// TestScript runs the CLI scripts in testdata/script. Run one with
// go test ./internal/cli -run 'TestScript/^validate_layout$'; keep its work
// directory with -testwork. CODE2SKILL_UPDATE=1 rewrites failing cmp
// expectations in place.
func TestScript(t *testing.T) {
	testscript.Run(t, scriptParams(t))
}
