package pkgdir

import "testing"

// TestDetectProfileExactKeys checks that package.json's code2skill.profile
// is found by its exact member names: members that differ only in case
// are other members, and never declare the profile.
func TestDetectProfileExactKeys(t *testing.T) {
	for name, tc := range map[string]struct {
		manifest string
		want     Profile
	}{
		"upper-case copy after":  {`{"code2skill":{"profile":"core-export-v1"},"CODE2SKILL":{"PROFILE":"strict-export-v1"}}`, ProfileCore},
		"upper-case copy before": {`{"CODE2SKILL":{"PROFILE":"strict-export-v1"},"code2skill":{"profile":"core-export-v1"}}`, ProfileCore},
		"upper-case member":      {`{"code2skill":{"profile":"core-export-v1","PROFILE":"strict-export-v1"}}`, ProfileCore},
		"only upper-case":        {`{"CODE2SKILL":{"PROFILE":"strict-export-v1"}}`, ProfileUnknown},
		"mixed case":             {`{"Code2Skill":{"Profile":"core-export-v1"}}`, ProfileUnknown},
		"duplicate member":       {`{"code2skill":{"profile":"core-export-v1"},"code2skill":{"profile":"strict-export-v1"}}`, ProfileUnknown},
		"profile not a string":   {`{"code2skill":{"profile":1}}`, ProfileUnknown},
		"code2skill not object":  {`{"code2skill":"core-export-v1"}`, ProfileUnknown},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, map[string]string{"package.json": tc.manifest})
			if got := DetectProfile(root); got != tc.want {
				t.Errorf("DetectProfile = %q, want %q", got, tc.want)
			}
		})
	}
}
