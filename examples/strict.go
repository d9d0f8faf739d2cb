package examples

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/http"

	"github.com/code2skill/code2skill/examples/equipment-lending/app/client"
)

// The strict sample is a fictional application, a community workshop's
// equipment lending desk, and the strict-export-v1 package a Producer would
// author for its borrowing feature:
//
//	equipment-lending/app/server   the desk's backend (Go, net/http, JSON)
//	equipment-lending/app/client   the borrowing screen's requests
//	equipment-lending/package      the authored package inputs
//	equipment-lending/live-cases   the live calls of its read Tools
//
// The package inputs are what a Producer writes by hand: the Portable Core
// (source topology, canonical contract, Host and export profiles), the Tool
// prose of authoring/tool-docs.json, and the four documents. Everything
// else (derived views, compiled runtime, verification) is produced by
// code2skill from them.
var (
	//go:embed equipment-lending/package
	strictPackage embed.FS
	//go:embed equipment-lending/app
	strictSource embed.FS
	//go:embed equipment-lending/live-cases
	strictLiveCases embed.FS
)

// StrictSampleName is the name of the strict sample's package. Its Skill is
// named after it, so the package must be written to a directory of this
// name.
const StrictSampleName = "equipment-lending"

// Facts of the strict sample that a runner needs.
const (
	// StrictSampleOrigin is the only origin of the contract's requests:
	// the desk's default address, as its client declares it
	// (client.DefaultBaseURL). A desk served elsewhere, such as on a free
	// loopback port, is reached through StrictSampleBaseURLVariable: the
	// Host's dispatcher sends each request for this origin to that base
	// URL, with method, path, query, headers and body unchanged.
	StrictSampleOrigin = client.DefaultBaseURL
	// StrictSampleBaseURLVariable names the desk's base URL for the
	// Host's dispatcher (scheme, host and port).
	StrictSampleBaseURLVariable = client.BaseURLVariable
	// StrictSampleTokenVariable holds the member's bearer token, which
	// the Host's dispatcher sends with every request
	// (Authorization: Bearer …). Tools never see it.
	StrictSampleTokenVariable = client.TokenVariable
	// StrictSampleWrite is the capability ID of the sample's only write,
	// the one a runtime verification must be authorised to call.
	StrictSampleWrite = "create-equipment-loan"
	// StrictSampleWorkflow is the ID of the deterministic workflow that
	// guards StrictSampleWrite.
	StrictSampleWorkflow = "create-equipment-loan"
)

// StrictSample returns the authored inputs of the strict sample package:
// source-topology.json, canonical-contract.json, export-profile.json,
// host-profile.json, authoring/tool-docs.json, SKILL.md, MCP.zh-CN.md,
// MCP-SETUP.md and references/feature-context.md. Write them to a
// directory named StrictSampleName, then derive and compile it.
func StrictSample() fs.FS {
	return sub(strictPackage, StrictSampleName+"/package")
}

// StrictSampleSource returns the sample application's source tree, the
// sources the package's topology authorises: app/server and app/client,
// relative to the tree's root (give that root as --source-root, or map each
// source ID to its directory with --source-map).
func StrictSampleSource() fs.FS {
	return sub(strictSource, StrictSampleName)
}

// StrictSampleLiveCases returns the live calls of the sample's read Tools,
// one file per capability (<capabilityId>.json, {"name", "arguments"}).
// They hold against the desk's seeded inventory. The write's call depends on
// a quote the desk issues at run time: see StrictSampleLoan.
func StrictSampleLiveCases() fs.FS {
	return sub(strictLiveCases, StrictSampleName+"/live-cases")
}

func sub(fsys fs.FS, dir string) fs.FS {
	s, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return s
}

// SampleLoan is a create_equipment_loan call that redeems a quote the desk
// really issued, and what the trusted side must protect for it.
type SampleLoan struct {
	// Arguments are the Tool's arguments: the quote exactly as issued and
	// the terms it was issued for.
	Arguments map[string]any
	// Expected holds the expected values of the workflow's
	// protected-runtime-state bindings, by binding name: "quote" (the
	// issued quote) and "payloadDigest" (the quote's digest of the terms).
	// They come from the desk's answer, never from the arguments.
	Expected map[string]any
	// ExpiresAt is when the quote, and with it the protected operation,
	// expires (RFC 3339).
	ExpiresAt string
}

// StrictSampleLoan prepares a loan on the sample desk at baseURL the way the
// borrowing screen does: it lists the catalogue, selects the first available
// item and asks for a quote on fixed terms, as the member whose token is
// given. The quote is issued by the desk and is valid for one loan until it
// expires; nothing is borrowed yet.
func StrictSampleLoan(ctx context.Context, baseURL, token string, hc *http.Client) (*SampleLoan, error) {
	c := client.New(baseURL, token, hc)
	items, err := c.ListEquipment(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("listing the sample desk's equipment: %w", err)
	}
	var selected *client.Item
	for i := range items {
		if items[i].Available {
			selected = &items[i]
			break
		}
	}
	if selected == nil {
		return nil, errors.New("the sample desk has no available equipment to quote")
	}
	note := "demo loan"
	terms := client.Terms{Days: 2, Note: &note}
	q, err := c.QuoteLoan(ctx, *selected, terms)
	if err != nil {
		return nil, fmt.Errorf("quoting a loan of %s: %w", selected.ItemID, err)
	}
	issued := func() map[string]any {
		return map[string]any{
			"grantId":       q.Quote.GrantID,
			"itemId":        q.Quote.ItemID,
			"payloadDigest": q.Quote.PayloadDigest,
			"expiresAt":     q.Quote.ExpiresAt,
		}
	}
	return &SampleLoan{
		Arguments: map[string]any{"quote": issued(), "terms": map[string]any{"days": terms.Days, "note": note}},
		Expected:  map[string]any{"quote": issued(), "payloadDigest": q.Quote.PayloadDigest},
		ExpiresAt: q.Quote.ExpiresAt,
	}, nil
}
