package pipeline

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
)

var ruleDiagnoseFixture = diag.Register("PIPELINE_TEST_DIAGNOSE", diag.Error, "a validation error the diagnose tests group")

// diagnoseFindings are errors of every category, as the strict validator
// would report them on the voucher package.
func diagnoseFindings() []diag.Diagnostic {
	e := func(file, pointer, msg string) diag.Diagnostic {
		return ruleDiagnoseFixture.New(file, "%s", msg).AtPointer(pointer)
	}
	return []diag.Diagnostic{
		e("source-topology.json", "/sources/0/root", "root is not portable"),
		e("canonical-contract.json", "/capabilities/1/inputs/0", "input quote has no evidence"),
		e("canonical-contract.json", "/goals/0", "goal has no needs"),
		e("capability-bundle.json", "/capabilities/0/description", "differs from the derivation"),
		e("consumer-requirements.json", "/requirements", "differs from the derivation"),
		e("SKILL.md", "", "the Tool redeem_voucher has no section"),
		e("SKILL.md", "", "the twelve headings are missing"),
		e("mcp-tool/index.mjs", "", "a registration is not literal"),
		e("verification-matrix.json", "/delivery", "is not the baseline"),
		e("quote-voucher.txt", "", "about quote-voucher-extended and nothing else"),
	}
}

func categories(d *Diagnosis) []string {
	var out []string
	for _, c := range d.Categories {
		out = append(out, c.Category+":"+strings.Repeat("*", c.Count))
	}
	return out
}

func TestDiagnoseGroupsByRootCause(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.f.validation = diagnoseFindings()
	diagnose := func(opts DiagnoseOptions) *Diagnosis {
		t.Helper()
		d, err := fx.pipeline().Diagnose(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}

	// Root causes suppress everything downstream.
	d := diagnose(DiagnoseOptions{})
	if got, want := categories(d), []string{"source/topology:*", "canonical:**"}; !slices.Equal(got, want) {
		t.Errorf("categories %q, want %q", got, want)
	}
	if d.Errors != 10 || d.SuppressedDownstream == nil || d.SuppressedDownstream.Errors != 7 || !d.PreFinalize || !fx.f.preFinalize {
		t.Errorf("errors %d, suppressed %+v, preFinalize %v", d.Errors, d.SuppressedDownstream, d.PreFinalize)
	}

	// --full shows every category, capabilities by the pointer of a view
	// or the longest name a message uses.
	d = diagnose(DiagnoseOptions{Full: true})
	want := []string{"source/topology:*", "canonical:**", "derived:*", "capability:quote-voucher:*",
		"capability:redeem-voucher:*", "function/mcp:*", "documentation:*", "verification:*", "other:*"}
	if got := categories(d); !slices.Equal(got, want) {
		t.Errorf("--full categories\n got %q\nwant %q", got, want)
	}
	if d.SuppressedDownstream != nil {
		t.Errorf("--full suppressed %+v", d.SuppressedDownstream)
	}

	// --stage keeps the categories of one stage; without a root among
	// them nothing is suppressed.
	d = diagnose(DiagnoseOptions{Stage: StageVerify})
	if got, want := categories(d), []string{"capability:quote-voucher:*", "capability:redeem-voucher:*", "function/mcp:*", "verification:*"}; !slices.Equal(got, want) {
		t.Errorf("--stage verify: %q, want %q", got, want)
	}
	d = diagnose(DiagnoseOptions{Capability: "redeem-voucher"})
	if got := categories(d); !slices.Equal(got, []string{"capability:redeem-voucher:*"}) {
		t.Errorf("--capability: %q", got)
	}
	d = diagnose(DiagnoseOptions{MaxErrors: 1})
	if c := d.Categories[1]; c.Count != 2 || len(c.Errors) != 1 {
		t.Errorf("--max-errors 1: %d shown of %d", len(c.Errors), c.Count)
	}

	for _, opts := range []DiagnoseOptions{{Stage: "compile"}, {Capability: "no-such"}, {MaxErrors: -1}} {
		_, err := fx.pipeline().Diagnose(context.Background(), opts)
		var usage *UsageError
		if !errors.As(err, &usage) {
			t.Errorf("Diagnose(%+v) = %v, want a usage error", opts, err)
		}
	}
}

func TestDiagnoseClean(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	d, err := fx.pipeline().Diagnose(context.Background(), DiagnoseOptions{})
	if err != nil || d.Errors != 0 || len(d.Categories) != 0 {
		t.Errorf("a clean package: %+v, %v", d, err)
	}
}

func TestContainsToken(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s, token string
		want     bool
	}{
		{"about quote-voucher here", "quote-voucher", true},
		{"quote-voucher-extended", "quote-voucher", false},
		{"re-quote-voucher", "quote-voucher", false},
		{"`quote_voucher`", "quote_voucher", true},
		{"quote-voucher-x and quote-voucher", "quote-voucher", true},
	} {
		if got := containsToken(tc.s, tc.token); got != tc.want {
			t.Errorf("containsToken(%q, %q) = %v", tc.s, tc.token, got)
		}
	}
}
