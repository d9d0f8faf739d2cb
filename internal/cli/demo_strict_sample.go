package cli

import (
	"crypto/rand"
	"encoding/hex"
	"io/fs"
	"net/http"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/examples/equipment-lending/app/server"
)

// equipmentLendingSample is the bundled strict sample: the fictional
// equipment lending desk of examples/equipment-lending. Each demo run makes
// up a member's bearer token, known only to the backend it serves and to
// the package's host runtime (through its variable, as a host's MCP
// configuration would set it), never to a Tool.
func equipmentLendingSample() *strictSample {
	token := demoToken()
	cases := map[string][]byte{}
	err := fs.WalkDir(examples.StrictSampleLiveCases(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(examples.StrictSampleLiveCases(), p)
		cases[p[:len(p)-len(".json")]] = data
		return err
	})
	if err != nil {
		panic(err) // the embedded live cases are fixed at build time
	}
	return &strictSample{
		Name:    examples.StrictSampleName,
		Package: examples.StrictSample(),
		Source:  examples.StrictSampleSource(),
		Backend: func() http.Handler {
			return server.New(server.Config{Members: map[string]string{token: "member-demo"}})
		},
		Origin:          examples.StrictSampleOrigin,
		BaseURLVariable: examples.StrictSampleBaseURLVariable,
		Writes:          examples.StrictSampleWrites(),
		LiveCases:       cases,
		Env:             map[string]string{examples.StrictSampleTokenVariable: token},
		HostVerify:      true,
	}
}

// demoToken makes up a member token for one demo run.
func demoToken() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return "demo-" + hex.EncodeToString(b)
}
