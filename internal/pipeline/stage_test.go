package pipeline

import "testing"

// Every stage is a value complete in itself: a name of its own, what its
// fingerprint reads and its work. An optional stage names the flag that
// enables it and why a run without it skips it; a stage that makes live
// records (and so carries them to the package as it is) is optional, since
// no stage may need one upstream.
func TestStagesAreComplete(t *testing.T) {
	seen := map[string]bool{}
	for i, s := range stages {
		switch {
		case s.name == "" || seen[s.name]:
			t.Errorf("stage %d has no name of its own (%q)", i, s.name)
		case s.inputs == nil || s.run == nil:
			t.Errorf("%s lacks its inputs or its work", s.name)
		case s.optional() != (s.enable != "") || s.optional() != (s.disabled != ""):
			t.Errorf("%s: an optional stage, and only one, names its flag and why it is skipped", s.name)
		case s.phase != "" && !s.optional():
			t.Errorf("%s makes live records but every run runs it", s.name)
		}
		seen[s.name] = true
		if Stages[i] != s.name || stageNamed(s.name) != s {
			t.Errorf("Stages[%d] = %q, want %q", i, Stages[i], s.name)
		}
	}
	if len(Stages) != len(stages) {
		t.Errorf("Stages lists %d stages, the list holds %d", len(Stages), len(stages))
	}
}
