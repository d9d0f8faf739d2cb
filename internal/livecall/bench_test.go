package livecall

import "testing"

// BenchmarkDeclaredVariables measures reading the variables a package's
// modules declare: two module parses, which the pipeline repeats only when
// the modules changed.
func BenchmarkDeclaredVariables(b *testing.B) {
	b.ReportAllocs()
	dir := itemsPackage(b)
	for b.Loop() {
		if _, err := DeclaredVariables(dir, "ITEMS_DRY_RUN"); err != nil {
			b.Fatal(err)
		}
	}
}
