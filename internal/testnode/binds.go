package testnode

import (
	"testing"

	"github.com/code2skill/code2skill/internal/sandbox"
)

// Binds returns what a sandboxed cross-check tool sees besides its working
// directory: the pinned npm install and the given paths, read-only. A
// confined child sees nothing else of the host.
func Binds(t testing.TB, paths ...string) []sandbox.Bind {
	t.Helper()
	bs := []sandbox.Bind{{Source: Modules(t)}}
	for _, p := range paths {
		bs = append(bs, sandbox.Bind{Source: p})
	}
	return bs
}
