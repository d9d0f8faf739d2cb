//go:build !unix

package finalize_test

import "errors"

func mkfifo(string) error { return errors.New("FIFOs are a Unix feature") }
