package cli

import (
	"errors"
	"fmt"

	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/sandbox"
)

// evidenceKeyFlag is --evidence-key: the file of the evidence key.
type evidenceKeyFlag struct {
	path string
}

func addEvidenceKeyFlag(fs *flagSet) *evidenceKeyFlag {
	k := &evidenceKeyFlag{}
	fs.StringVar(&k.path, "evidence-key", "", "the `FILE` of the evidence key that tags and verifies evidence "+
		"(default: code2skill/evidence.key in your configuration directory; code2skill help evidence-key)")
	return k
}

// keyError is an evidence key the command cannot use; usage says whether
// it is the user's request that is wrong (a named key that does not
// exist).
type keyError struct {
	err   error
	usage bool
}

func (e *keyError) Error() string { return e.err.Error() }

// load returns the evidence key, creating it when create is set and there
// is none. Without create, a missing default key is no key (nil) and a
// missing named key is a usage error. A key loaded is hidden from every
// child the command starts (sandbox.Hide): where the sandbox cannot hide
// it, the command runs no package code while it holds it.
func (k *evidenceKeyFlag) load(create bool) (*attest.Key, error) {
	key, err := k.read(create)
	if key != nil && key.Path != "" {
		sandbox.Hide(key.Path, "the evidence key")
	}
	return key, err
}

func (k *evidenceKeyFlag) read(create bool) (*attest.Key, error) {
	path := k.path
	if path == "" {
		p, err := attest.DefaultPath()
		if err != nil {
			return nil, &keyError{err: err}
		}
		path = p
	}
	if create {
		key, err := attest.LoadOrCreate(path)
		if err != nil {
			return nil, &keyError{err: err}
		}
		return key, nil
	}
	key, err := attest.Load(path)
	switch {
	case errors.Is(err, attest.ErrNoKey) && k.path == "":
		return nil, nil
	case errors.Is(err, attest.ErrNoKey):
		return nil, &keyError{err: fmt.Errorf("--evidence-key %s: no such file", k.path), usage: true}
	case err != nil:
		return nil, &keyError{err: err}
	}
	return key, nil
}

// keyFailure reports a key the command cannot use and returns its exit
// code: usage for a named key that does not exist, failure otherwise.
func keyFailure(stdio *Stdio, c *command, err error) int {
	var ke *keyError
	if errors.As(err, &ke) && ke.usage {
		return usageError(stdio, c, "%v", ke.err)
	}
	fmt.Fprintf(stdio.Err, "code2skill %s: %v\n", c.name, err)
	return ExitFailure
}
