package sandbox

import (
	"errors"
	"sync"
)

// ErrInterrupted reports a child not started because the command was
// interrupted (Interrupt).
var ErrInterrupted = errors.New("the command was interrupted")

// running tracks the children running, so that Interrupt can stop them all.
var running = struct {
	sync.Mutex
	stopped  bool
	children map[*child]bool
}{children: map[*child]bool{}}

// track records a child that started; once Interrupt has run, the child is
// stopped at once instead. It is forgotten when it exits.
func track(c *child) {
	running.Lock()
	stopped := running.stopped
	if !stopped {
		running.children[c] = true
	}
	running.Unlock()
	if stopped {
		c.kill()
		return
	}
	go func() {
		<-c.exited
		running.Lock()
		delete(running.children, c)
		running.Unlock()
	}()
}

// interrupted reports whether Interrupt has run.
func interrupted() bool {
	running.Lock()
	defer running.Unlock()
	return running.stopped
}

// Interrupt stops every child the sandbox is running, and everything they
// started, at once, and makes every later Run and Start fail with
// ErrInterrupted: for a command told to stop (SIGINT, SIGTERM). It returns
// once every child has been stopped, within a few seconds. The children's
// temporary HOMEs are removed by their Run and Close, or, should those not
// get to it, by scratch.RemoveAll.
func Interrupt() {
	running.Lock()
	running.stopped = true
	cs := make([]*child, 0, len(running.children))
	for c := range running.children {
		cs = append(cs, c)
	}
	running.Unlock()
	var wg sync.WaitGroup
	for _, c := range cs {
		wg.Go(c.kill)
	}
	wg.Wait()
}
