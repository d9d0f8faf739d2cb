package cli

import (
	"io"
	"time"

	"github.com/code2skill/code2skill/internal/core"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/vectors"
)

// limitFloor raises every default time limit of the commands (never one a
// flag sets); it is zero but in the CLI's tests, which set it to what
// their own deadline leaves, so that a busy machine slows a script down
// instead of failing it (script_test.go).
var limitFloor time.Duration

// defaultLimit is the time limit d a command applies when no flag sets one.
func defaultLimit(d time.Duration) time.Duration {
	return max(d, limitFloor)
}

// demoValidation is how demo validates the package it wrote: with the
// default time limits, and stage lines on progress.
func demoValidation(progress io.Writer) core.Options {
	return core.Options{Progress: progress, TestTimeout: defaultLimit(core.DefaultTestTimeout), RequestTimeout: defaultLimit(core.DefaultRequestTimeout)}
}

// The default time limits of the pipeline's offline probe and vectors.
func probeRequestLimit() time.Duration { return defaultLimit(mcpcheck.DefaultRequestTimeout) }
func vectorsCallLimit() time.Duration  { return defaultLimit(vectors.DefaultTimeout) }
