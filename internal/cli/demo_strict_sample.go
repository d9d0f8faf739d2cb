package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"time"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/examples/equipment-lending/app/server"
)

// equipmentLendingSample is the bundled strict sample: the fictional
// equipment lending desk of examples/equipment-lending. Each demo run makes
// up a member's bearer token, known only to the backend it serves and to
// the trusted host of runtime verification (the live cases' headers), never
// to a Tool.
func equipmentLendingSample() *strictSample {
	token := demoToken()
	cases := map[string][]byte{}
	err := fs.WalkDir(examples.StrictSampleLiveCases(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(examples.StrictSampleLiveCases(), p)
		if err != nil {
			return err
		}
		withHeader, err := withBearer(data, token)
		cases[p[:len(p)-len(".json")]] = withHeader
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
		Origin:    examples.StrictSampleOrigin,
		Writes:    []string{examples.StrictSampleWrite},
		LiveCases: cases,
		// The write's live case redeems a quote the running desk issues,
		// so it is made once the backend serves.
		PrepareLive: func(ctx context.Context, base string) (map[string][]byte, error) {
			hc := &http.Client{Timeout: 10 * time.Second}
			loan, err := examples.StrictSampleLoan(ctx, base, token, hc)
			if err != nil {
				return nil, err
			}
			data, err := json.Marshal(map[string]any{
				"name":      "create_equipment_loan",
				"arguments": loan.Arguments,
				"trusted": map[string]any{
					"protectedValues": loan.Expected,
					"expiresAt":       loan.ExpiresAt,
					"singleUse":       true,
					"headers":         map[string]any{"authorization": "Bearer " + token},
				},
			})
			if err != nil {
				return nil, err
			}
			return map[string][]byte{examples.StrictSampleWrite: data}, nil
		},
	}
}

// withBearer adds the member's token to a live case as the trusted host's
// authorization header.
func withBearer(data []byte, token string) ([]byte, error) {
	var c map[string]any
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("reading a live case of the sample: %w", err)
	}
	c["trusted"] = map[string]any{"headers": map[string]any{"authorization": "Bearer " + token}}
	return json.Marshal(c)
}

// demoToken makes up a member token for one demo run.
func demoToken() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return "demo-" + hex.EncodeToString(b)
}
