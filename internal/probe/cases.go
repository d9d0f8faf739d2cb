package probe

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// Kind is the kind of a case: what its call must prove.
type Kind uint8

const (
	Success Kind = iota + 1 // --call: the tool succeeds
	Failure                 // --error-call: the handler returns a structured Tool error
	DryRun                  // --dry-run-call: the dry-run branch answers without dispatching
)

// flag returns the command-line flag that supplies cases of this kind.
func (k Kind) flag() string {
	switch k {
	case Success:
		return "--call"
	case Failure:
		return "--error-call"
	}
	return "--dry-run-call"
}

// maxCaseFile bounds a case file, in bytes.
const maxCaseFile = 4 << 20

// Case is one tools/call the probe makes on a caller's behalf.
type Case struct {
	Kind      Kind
	File      string // the case file as given
	Index     int    // position in the file's array; 0 for a lone object
	Name      string
	Arguments *canonjson.Object
	// ExpectStatus lists the HTTP statuses the case expects the result's
	// httpStatus to be ("expect": {"httpStatus": 404} or [404, 410]); nil
	// means any 2xx for a --call and any error for an --error-call.
	ExpectStatus []int
	// Assertions are the case's "equals" and "contains" on its result.
	Assertions []Assertion
	// Generated marks a dry-run case the probe made from the contract.
	Generated bool
}

// where names the case in messages: "cases.json[2]", or "generated case"
// for one the probe made.
func (c *Case) where() string {
	if c.Generated {
		return "generated case"
	}
	return fmt.Sprintf("%s[%d]", c.File, c.Index)
}

// UsageError is a problem with what the caller asked for (a malformed case
// file, a case the package cannot take, flags that contradict each other);
// the command exits with its usage code.
type UsageError struct {
	Msg string
}

func (e *UsageError) Error() string { return e.Msg }

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// readCases reads a case file: one {"name", "arguments", "expect"} object
// or an array of them, "expect" optional. Any problem is a *UsageError
// naming the file and index.
func readCases(kind Kind, file string) ([]*Case, error) {
	// The user named the file: a symbolic link to it is followed, but
	// only a regular file is read (a FIFO or a device could block or never
	// end), and at most maxCaseFile bytes of it.
	real, err := filepath.EvalSymlinks(file)
	if err != nil {
		return nil, usagef("%s %s: %v", kind.flag(), file, unwrapPath(err))
	}
	data, err := pkgdir.ReadFile(real, maxCaseFile)
	if errors.Is(err, pkgdir.ErrTooLarge) {
		return nil, usagef("%s %s: more than a case file may hold (%d bytes)", kind.flag(), file, maxCaseFile)
	}
	if err != nil {
		return nil, usagef("%s %s: %v", kind.flag(), file, err)
	}
	v, err := canonjson.Decode(data)
	if err != nil {
		return nil, usagef("%s %s:%v", kind.flag(), file, err)
	}
	items := canonjson.Array{v}
	if arr, ok := v.(canonjson.Array); ok {
		if len(arr) == 0 {
			return nil, usagef("%s %s: the array holds no case", kind.flag(), file)
		}
		items = arr
	}
	cases := make([]*Case, 0, len(items))
	for i, item := range items {
		c := &Case{Kind: kind, File: file, Index: i}
		o, ok := item.(*canonjson.Object)
		if !ok {
			return nil, usagef("%s %s: case must be an object {\"name\", \"arguments\"}, found %s", kind.flag(), c.where(), canonjson.TypeName(item))
		}
		for _, k := range o.Keys() {
			if k != "name" && k != "arguments" && k != "expect" {
				return nil, usagef("%s %s: unknown key %q (a case has \"name\", \"arguments\" and, optionally, \"expect\")", kind.flag(), c.where(), k)
			}
		}
		if e, ok := o.Get("expect"); ok {
			if c.ExpectStatus, c.Assertions, err = readExpect(kind, e); err != nil {
				return nil, usagef("%s %s: %v", kind.flag(), c.where(), err)
			}
		}
		name, _ := field(o, "name").(canonjson.String)
		if strings.TrimSpace(string(name)) == "" {
			return nil, usagef("%s %s: \"name\" must be a non-empty string", kind.flag(), c.where())
		}
		args, ok := field(o, "arguments").(*canonjson.Object)
		if !ok {
			return nil, usagef("%s %s: \"arguments\" must be an object, found %s", kind.flag(), c.where(), canonjson.TypeName(field(o, "arguments")))
		}
		c.Name, c.Arguments = string(name), args
		cases = append(cases, c)
	}
	return cases, nil
}

// readExpect reads a case's "expect": the statuses of {"httpStatus": 404}
// or {"httpStatus": [404, 410]}, and the assertions of "equals" and
// "contains" (see assert.go).
func readExpect(kind Kind, v canonjson.Value) ([]int, []Assertion, error) {
	o, ok := v.(*canonjson.Object)
	if !ok {
		return nil, nil, fmt.Errorf(`"expect" must be an object such as {"httpStatus": 404}, found %s`, canonjson.TypeName(v))
	}
	var assertions []Assertion
	for _, k := range o.Keys() {
		switch k {
		case "httpStatus":
			if kind == DryRun {
				return nil, nil, errors.New(`a dry-run case sends nothing, so it expects no "httpStatus"`)
			}
		case "equals", "contains":
			as, err := readAssertions(k, o.At(k))
			if err != nil {
				return nil, nil, err
			}
			assertions = append(assertions, as...)
		default:
			return nil, nil, fmt.Errorf(`unknown key %q in "expect" (it has "httpStatus", "equals" and "contains")`, k)
		}
	}
	if !o.Has("httpStatus") {
		return nil, assertions, nil
	}
	statuses, err := expectedStatuses(o.At("httpStatus"))
	return statuses, assertions, err
}

// expectedStatuses reads the HTTP status, or list of them, a case expects.
func expectedStatuses(raw canonjson.Value) ([]int, error) {
	items, isList := raw.(canonjson.Array)
	if !isList {
		items = canonjson.Array{raw}
	}
	var out []int
	for _, item := range items {
		n, ok := item.(canonjson.Number)
		code, exact := n.Int64()
		if !ok || !exact || code < 100 || code > 599 {
			return nil, fmt.Errorf(`"expect": "httpStatus" must be an HTTP status (100-599) or a non-empty list of them, found %s`, show(item))
		}
		out = append(out, int(code))
	}
	if len(out) == 0 {
		return nil, errors.New(`"expect": "httpStatus" must not be an empty list`)
	}
	return out, nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
