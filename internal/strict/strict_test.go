package strict_test

import (
	"context"
	"testing"

	"github.com/code2skill/code2skill/internal/strict"
)

// The reference example with its documents passes every stage that runs
// before finalization, and the stages that do not run say why.
func TestReferencePassesPreFinalize(t *testing.T) {
	dir := referencePackage(t)
	res := strict.Validate(context.Background(), dir, strict.Options{PreFinalize: true})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	for _, d := range res.Diagnostics.Sorted() {
		if d.Rule != "EVIDENCE_NOT_CHECKED" {
			t.Errorf("unexpected finding: %s", d)
		}
	}
	want := map[string]strict.Status{
		strict.StageFiles: strict.Passed, strict.StageExportProfile: strict.Passed, strict.StagePortableCore: strict.Passed,
		strict.StageViews: strict.Passed, strict.StageRuntime: strict.Passed, strict.StageGenerated: strict.NotRun,
		strict.StageDocuments: strict.Passed, strict.StageForbidden: strict.Passed, strict.StageContamination: strict.Passed,
		strict.StageMatrix: strict.Passed, strict.StageFinal: strict.NotRun,
	}
	if len(res.Stages) != len(want) {
		t.Fatalf("got %d stages, want %d: %+v", len(res.Stages), len(want), res.Stages)
	}
	for _, s := range res.Stages {
		if s.Status != want[s.ID] {
			t.Errorf("stage %s: %s (%s), want %s", s.ID, s.Status, s.Note, want[s.ID])
		}
		if s.Status == strict.NotRun && s.Note == "" {
			t.Errorf("stage %s did not run and does not say why", s.ID)
		}
	}
	if res.Capabilities != 5 {
		t.Errorf("Capabilities = %d, want 5", res.Capabilities)
	}
}
