// Package nofollow opens files by absolute paths in which no component may
// be a symbolic link. A path checked once (resolved, judged to lie inside
// what a child may see) can then be opened later without a directory that
// was swapped for a link in between redirecting the open: such an open
// fails with ErrLink instead.
package nofollow

import "errors"

// ErrLink reports a path one of whose components is a symbolic link.
var ErrLink = errors.New("a component of the path is a symbolic link")
