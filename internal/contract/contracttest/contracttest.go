// Package contracttest helps tests build variants of vNext inputs: it reads
// the reference inputs and applies JSON Pointer edits to them, keeping the
// rest of each document byte-for-byte in the established format.
//
//	data := contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile),
//		contracttest.Set("/capabilities/0/toolName", `"Bad-Name"`),
//		contracttest.Remove("/capabilities/1/runtimeProtection"))
package contracttest

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// Reference returns one of the reference inputs (canonical-contract.json,
// source-topology.json, host-profile.json, export-profile.json): a complete,
// valid synthetic package that derives to the published views. For
// capability-bundle.json, the input of a legacy package, it returns the
// published bundle derived from those inputs, which internal/derive keeps
// as a fixed expectation.
func Reference(tb testing.TB, name string) []byte {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "testdata", "reference")
	if name == "capability-bundle.json" {
		dir = filepath.Join(filepath.Dir(file), "..", "..", "derive", "testdata", "example", "want")
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// Op is one edit of a JSON document.
type Op struct {
	kind  string // "set", "remove" or "append"
	path  string // JSON Pointer
	value string // JSON text
}

// Set sets the member or array element at path to the JSON value, adding a
// missing object member at the end.
func Set(path, value string) Op { return Op{"set", path, value} }

// Remove removes the member or array element at path.
func Remove(path string) Op { return Op{"remove", path, ""} }

// Append appends the JSON value to the array at path.
func Append(path, value string) Op { return Op{"append", path, value} }

// Patch applies ops in order to the JSON document data and returns it in the
// file form. A path that does not resolve fails the test.
func Patch(tb testing.TB, data []byte, ops ...Op) []byte {
	tb.Helper()
	root, err := canonjson.Decode(data)
	if err != nil {
		tb.Fatalf("patching: %v", err)
	}
	for _, op := range ops {
		var v canonjson.Value
		if op.kind != "remove" {
			if v, err = canonjson.Decode([]byte(op.value)); err != nil {
				tb.Fatalf("patching %s: value %s: %v", op.path, op.value, err)
			}
		}
		if op.kind == "append" {
			target, ok := canonjson.Resolve(root, op.path)
			a, isArray := target.(canonjson.Array)
			if !ok || !isArray {
				tb.Fatalf("patching: %s is not an array", op.path)
			}
			root = replace(tb, root, op.path, append(a, v))
			continue
		}
		i := strings.LastIndexByte(op.path, '/')
		if i < 0 {
			tb.Fatalf("patching: %q is not a JSON Pointer below the root", op.path)
		}
		parent, ok := canonjson.Resolve(root, op.path[:i])
		if !ok {
			tb.Fatalf("patching: %s does not resolve", op.path[:i])
		}
		key := strings.NewReplacer("~1", "/", "~0", "~").Replace(op.path[i+1:])
		switch p := parent.(type) {
		case *canonjson.Object:
			if op.kind == "remove" {
				if !p.Has(key) {
					tb.Fatalf("patching: %s does not resolve", op.path)
				}
				p.Delete(key)
			} else {
				p.Set(key, v)
			}
		case canonjson.Array:
			n, err := strconv.Atoi(key)
			if err != nil || n < 0 || n >= len(p) {
				tb.Fatalf("patching: %s does not resolve", op.path)
			}
			if op.kind == "remove" {
				p = append(p[:n:n], p[n+1:]...)
				root = replace(tb, root, op.path[:i], p)
			} else {
				p[n] = v
			}
		default:
			tb.Fatalf("patching: %s is neither an object nor an array", op.path[:i])
		}
	}
	return canonjson.Encode(root)
}

// Findings renders findings one per line, as the text report prints them,
// for test failure messages.
func Findings(l *diag.List) string {
	var b strings.Builder
	for _, d := range l.Sorted() {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// replace sets the value at path, which must exist, and returns the root.
func replace(tb testing.TB, root canonjson.Value, path string, v canonjson.Value) canonjson.Value {
	tb.Helper()
	if path == "" {
		return v
	}
	i := strings.LastIndexByte(path, '/')
	parent, _ := canonjson.Resolve(root, path[:i])
	key := strings.NewReplacer("~1", "/", "~0", "~").Replace(path[i+1:])
	switch p := parent.(type) {
	case *canonjson.Object:
		p.Set(key, v)
	case canonjson.Array:
		n, _ := strconv.Atoi(key)
		p[n] = v
	}
	return root
}

// Small returns the reference contract cut down to its backend-protected
// write (save-sample-draft, one goal, no handoff, workflow or conflict): a
// complete, valid contract of about 12 KB, small enough to seed a fuzzer
// that makes progress.
func Small(tb testing.TB) []byte {
	tb.Helper()
	return Patch(tb, Reference(tb, "canonical-contract.json"),
		Remove("/capabilities/4"), Remove("/capabilities/2"), Remove("/capabilities/1"), Remove("/capabilities/0"),
		Set("/handoffs", `[]`), Set("/conflicts", `[]`), Set("/workflows", `[]`),
		Set("/capabilityGraph", `{"nodes": [{"capabilityId": "save-sample-draft", "independentValue": "Save a draft."}], "edges": []}`),
		Remove("/goals/2"), Remove("/goals/0"))
}
