//go:build unix

package pkgdir

import "syscall"

// oNoFollow makes an open fail on a symbolic link.
const oNoFollow = syscall.O_NOFOLLOW
