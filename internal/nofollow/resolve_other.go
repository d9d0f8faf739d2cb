//go:build unix && !linux

package nofollow

import "errors"

// oSearch: outside Linux, directories on the way are opened for reading.
const oSearch = 0

var errUnsupported = errors.New("openat2 is not available")

var useOpenat2 = false

func openResolved(string, int) (int, error) { return -1, errUnsupported }
