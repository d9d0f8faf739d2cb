//go:build !unix

package pkgdir

const oNoFollow = 0
