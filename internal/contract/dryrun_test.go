package contract

import "testing"

func TestDryRunVariable(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    *ExportProfile
		want string
	}{
		{"no profile", nil, DefaultDryRunVariable},
		{"profile names none", &ExportProfile{}, DefaultDryRunVariable},
		{"profile names one", &ExportProfile{DryRunEnvironmentVariable: "DESK_DRY_RUN"}, "DESK_DRY_RUN"},
	} {
		if got := tc.p.DryRunVariable(); got != tc.want {
			t.Errorf("%s: DryRunVariable() = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestValidVariableName(t *testing.T) {
	for name, want := range map[string]bool{
		"CODE2SKILL_DRY_RUN": true,
		"ABC":                true,
		"AB":                 false, // too short
		"lower_case":         false,
		"1ABC":               false,
		"ABC-D":              false,
		"A23456789012345678901234567890123456789012345678901234567890123456789012345678901":  true,
		"A234567890123456789012345678901234567890123456789012345678901234567890123456789012": false,
	} {
		if got := ValidVariableName(name); got != want {
			t.Errorf("ValidVariableName(%q) = %v, want %v", name, got, want)
		}
	}
}
