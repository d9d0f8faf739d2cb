//go:build !unix

package pkgdir

import "os"

// openNoBlock opens name for reading; ReadFile has already refused anything
// but a regular file.
func openNoBlock(name string) (*os.File, error) { return os.Open(name) }
