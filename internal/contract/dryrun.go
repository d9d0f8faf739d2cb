package contract

import "regexp"

// DefaultDryRunVariable is the environment variable that turns a package's
// writes into dry runs when its export profile names none (and always for
// a core package, which has no export profile).
const DefaultDryRunVariable = "CODE2SKILL_DRY_RUN"

// DryRunVariable returns the profile's dryRunEnvironmentVariable, or
// DefaultDryRunVariable when p is nil or names none.
func (p *ExportProfile) DryRunVariable() string {
	if p != nil && p.DryRunEnvironmentVariable != "" {
		return p.DryRunEnvironmentVariable
	}
	return DefaultDryRunVariable
}

// variableName is the form of the environment variables an export profile
// names: 3 to 81 upper-case letters, digits and underscores, starting with
// a letter.
var variableName = regexp.MustCompile(`^[A-Z][A-Z0-9_]{2,80}$`)

// ValidVariableName reports whether name has the form of the environment
// variables an export profile names (the dry-run variable, the host
// runtime's variables): 3 to 81 upper-case letters, digits and
// underscores, starting with a letter.
func ValidVariableName(name string) bool { return variableName.MatchString(name) }
