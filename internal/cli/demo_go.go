package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/internal/core"
	"github.com/code2skill/code2skill/internal/owned"
	"github.com/code2skill/code2skill/internal/sandbox"
)

// goDemoTimeout is the demo's validate --test-timeout.
const goDemoTimeout = 10 * time.Minute

// runGoDemo writes the Go twin of the bundled example, fetches its modules
// and validates it.
func runGoDemo(ctx context.Context, stdio *Stdio, c *command, format *formatFlag, dir string, force bool) int {
	if _, err := sandbox.LookPath("go"); err != nil {
		fmt.Fprintf(stdio.Err, "code2skill demo: %v; nothing was written\n", core.ErrGoMissing)
		return ExitFailure
	}
	files, err := filesOf(examples.SeedLibraryGo())
	if err != nil {
		fmt.Fprintf(stdio.Err, "code2skill demo: %v\n", err)
		return ExitFailure
	}
	var conflict *owned.ConflictError
	switch err := owned.Write(dir, demoManifest, files, force); {
	case errors.Is(err, owned.ErrNotEmpty):
		return usageError(stdio, c, "%s exists and is not empty; choose another directory, or pass --force to refresh a previous demo there", dir)
	case errors.As(err, &conflict):
		return usageError(stdio, c, "%v; nothing was written", err)
	case err != nil:
		fmt.Fprintf(stdio.Err, "code2skill demo: %v\n", err)
		return ExitFailure
	}
	fmt.Fprintf(stdio.Err, "wrote the Go example package to %s\n", dir)
	fmt.Fprintln(stdio.Err, "fetching the pinned modules with go mod download")
	if err := core.GoModDownload(ctx, dir); err != nil {
		fmt.Fprintf(stdio.Err, "code2skill demo: %v\n", err)
		return ExitFailure
	}
	fmt.Fprintf(stdio.Err, "validating %s\n", dir)
	// The first build of a machine compiles the SDK and every module it
	// needs into an empty build cache: it gets longer than validate's
	// default.
	opts := demoValidation(stdio.Progress)
	opts.TestTimeout = defaultLimit(goDemoTimeout)
	return runValidate(ctx, stdio, format, dir, opts, isolationFlag{new(bool)})
}
