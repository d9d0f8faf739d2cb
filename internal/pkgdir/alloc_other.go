//go:build !unix

package pkgdir

import "io/fs"

func allocated(fi fs.FileInfo) int64 { return fi.Size() }
