package sandbox

import (
	"fmt"

	"github.com/code2skill/code2skill/internal/diag"
)

// RuleNotConfined is reported by every command that ran a package's code
// without a confined file system.
var RuleNotConfined = diag.Register("SANDBOX_NOT_CONFINED", diag.Warning,
	"the package's code ran without a confined file system: it could read and write the user's files")

// Findings returns what a report must say about a run's isolation: nothing
// when it was confined.
func Findings(iso Isolation) []diag.Diagnostic {
	if iso.Level == "" || iso.FileSystem {
		return nil
	}
	return []diag.Diagnostic{RuleNotConfined.New("",
		"the package's code ran at isolation level %q (%s): it could read and write whatever the user can", iso.Level, iso.Detail)}
}

// Summary describes the isolation in a few words for a report's summary
// line: "sandbox confined", or the level and what was missing.
func (i Isolation) Summary() string {
	if i.Level == LevelConfined {
		return "sandbox confined"
	}
	return fmt.Sprintf("sandbox %s: %s", i.Level, i.Detail)
}
