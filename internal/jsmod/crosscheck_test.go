package jsmod

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

// knownDisagreements are corpus files on which Parse and node disagree,
// with the reason. The test fails if one of them starts to agree, so that
// the list stays true.
var knownDisagreements = map[string]string{
	// V8 accepts an assignment to a call for web compatibility and throws
	// a ReferenceError when it runs; esbuild rejects it while parsing.
	"valid-assign-to-call.mjs": "node accepts f() = 1",
	// Neither parser validates the pattern of a regular expression literal.
	"invalid-lone-surrogate-regex-v.mjs": "regex pattern early error",
	"invalid-regex-v-invalid.mjs":        "regex pattern early error",
}

// TestNodeAgrees checks Parse's verdict against node's on a corpus of
// valid and invalid modules (testdata/crosscheck, plus the benchmark
// module). Node compiles every file in one process (testdata/node-verdict.mjs).
// File names say what node is expected to decide, which keeps the node
// side honest too.
func TestNodeAgrees(t *testing.T) {
	node := testnode.Node(t)
	corpus, err := filepath.Glob("testdata/crosscheck/*")
	if err != nil {
		t.Fatal(err)
	}
	corpus = append(corpus, benchModule)
	slices.Sort(corpus)

	script, err := filepath.Abs("testdata/node-verdict.mjs")
	if err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testtier.Budget(t))
	defer cancel()
	res, err := sandbox.Run(ctx, append([]string{node, "--experimental-vm-modules", script}, corpus...),
		sandbox.Options{Dir: wd, Timeout: testtier.Budget(t), Binds: testnode.Binds(t)})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("node exited with %d:\n%s", res.ExitCode, res.Stderr)
	}

	verdicts := map[string]bool{}
	messages := map[string]string{}
	for line := range bytes.Lines(res.Stdout) {
		var v struct {
			File    string `json:"file"`
			OK      bool   `json:"ok"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatalf("node printed %q: %v", line, err)
		}
		verdicts[v.File], messages[v.File] = v.OK, v.Message
	}
	if len(verdicts) != len(corpus) {
		t.Fatalf("node judged %d files, want %d", len(verdicts), len(corpus))
	}

	var valid, invalid int
	for _, file := range corpus {
		base := filepath.Base(file)
		nodeOK := verdicts[file]
		if nodeOK {
			valid++
		} else {
			invalid++
		}
		if strings.HasPrefix(base, "invalid-") == nodeOK {
			t.Errorf("%s: node says valid=%v (%s), contrary to its name", file, nodeOK, messages[file])
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m, diags := Parse(base, src)
		ours := m != nil
		_, known := knownDisagreements[base]
		switch {
		case ours != nodeOK && !known:
			t.Errorf("%s: Parse says valid=%v %v, node says valid=%v %s", file, ours, diags, nodeOK, messages[file])
		case ours == nodeOK && known:
			t.Errorf("%s: listed as a known disagreement but Parse and node now agree (valid=%v)", file, ours)
		}
	}
	// A corpus node judged all one way would prove nothing.
	if valid < 20 || invalid < 40 {
		t.Errorf("corpus has %d valid and %d invalid modules; want at least 20 and 40", valid, invalid)
	}
}
