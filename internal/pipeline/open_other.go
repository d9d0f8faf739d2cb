//go:build !unix

package pipeline

import "os"

// openNoFollow opens a file for reading. Callers have checked with Lstat
// that it is a regular file and check again on the open file.
func openNoFollow(path string) (*os.File, error) {
	return os.Open(path)
}
