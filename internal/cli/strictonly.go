package cli

import "github.com/code2skill/code2skill/internal/pkgdir"

// strictPackage reports whether the commands of the strict flow (check-contract,
// derive, compile, vectors, finalize, pipeline) may run on dir. A
// core-export-v1 package has no Portable Core: rather than reporting the
// strict inputs it lacks, which would send the user to write them, the
// command stops with a usage error that names the commands of its own flow.
func strictPackage(stdio *Stdio, c *command, dir string) (code int, ok bool) {
	if pkgdir.DetectProfile(dir) != pkgdir.ProfileCore && !pkgdir.DetectCoreGo(dir) {
		return 0, true
	}
	return usageError(stdio, c, "%s is a core-export-v1 package, and code2skill %s works on strict-export-v1 packages: "+
		"check it with code2skill validate %s, and its server with code2skill probe %s", dir, c.name, dir, dir), false
}
