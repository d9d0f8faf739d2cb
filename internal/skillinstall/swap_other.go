//go:build !linux

package skillinstall

// swap exchanges the directory entries a and b; without an atomic exchange
// on this system it uses two renames.
func swap(a, b string) error { return swapByRenames(a, b) }
