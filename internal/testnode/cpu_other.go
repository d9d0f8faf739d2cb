//go:build !unix

package testnode

import "testing"

// ReportCPU reports nothing where getrusage is not available.
func ReportCPU(b *testing.B) func() { return func() {} }
