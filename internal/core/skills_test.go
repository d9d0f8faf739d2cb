package core

import (
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/skillmd"
)

func TestRootSkillNamedAfterThePackageFolder(t *testing.T) {
	const skill = "---\nname: reserve-plot\ndescription: Reserves a plot.\n---\n# Reserve a plot\n"
	for _, tc := range []struct {
		folder string
		want   []*diag.Rule
	}{
		{"reserve-plot", nil},
		{"plots", []*diag.Rule{skillmd.RuleNamePackageFolder}},
	} {
		t.Run(tc.folder, func(t *testing.T) {
			c := newCheckerIn(t, tc.folder, map[string]string{"SKILL.md": skill})
			c.checkSkills([]skillFile{{Path: "SKILL.md"}})
			wantRules(t, c, tc.want...)
		})
	}
}
