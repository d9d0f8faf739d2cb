//go:build unix

package pipeline

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lock takes the state directory's lock for the duration of a command, so
// that two pipelines never write one state. The lock is the kernel's
// (flock): a crashed run leaves none behind.
func (p *Pipeline) lock() (unlock func(), err error) {
	if err := os.MkdirAll(p.stateAbs, 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(p.statePath(lockFile), os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking the state: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, usagef("another code2skill pipeline command is using %s; wait for it to finish", p.StateDir)
		}
		return nil, fmt.Errorf("locking the state: %w", err)
	}
	return func() { f.Close() }, nil
}
