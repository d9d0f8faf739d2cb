package compile

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// compiledSlices compiles in and returns its slices, failing the test when
// the runtime does not compile.
func compiledSlices(t *testing.T, in *Inputs) *Slices {
	t.Helper()
	res, list := Compile(in)
	if !res.Compiled() || res.Slices == nil {
		t.Fatalf("the inputs do not compile: %v", list.Sorted())
	}
	return res.Slices
}

func TestSlicesCoverTheModules(t *testing.T) {
	in := load(t, referencePackage)
	res, _ := Compile(in)
	s := res.Slices
	if len(s.Capabilities) != len(in.Core.Contract.Capabilities) {
		t.Fatalf("slices of %d capabilities, want %d", len(s.Capabilities), len(in.Core.Contract.Capabilities))
	}
	// The sections are disjoint, lie inside their module and each holds
	// its capability's ID or Tool name.
	p := plan(in, &diag.List{})
	p.files()
	for path, secs := range p.sections {
		var data []byte
		for _, f := range res.Files {
			if f.Path == path {
				data = f.Data
			}
		}
		end := 0
		for _, sec := range secs {
			if sec.start < end || sec.end > len(data) || sec.start >= sec.end {
				t.Fatalf("%s: section %+v overlaps or leaves the module (%d bytes)", path, sec, len(data))
			}
			end = sec.end
			if !bytes.Contains(data[sec.start:sec.end], []byte(sec.capabilityID)) && !bytes.Contains(data[sec.start:sec.end], []byte("registerTool(")) {
				t.Errorf("%s: the section of %s does not hold its code: %q", path, sec.capabilityID, data[sec.start:sec.end])
			}
		}
	}
}

func TestSlicesChangeOnlyWithTheirCapability(t *testing.T) {
	in := load(t, referencePackage)
	before := compiledSlices(t, in)
	cp := in.Core.Contract.Capabilities[0]
	docs := maps.Clone(in.ToolDocs)
	d := docs[cp.ToolName]
	d.Description += " Now with one more word."
	docs[cp.ToolName] = d
	in.ToolDocs = docs
	after := compiledSlices(t, in)
	if after.Shared != before.Shared {
		t.Error("a Tool description changed the shared runtime")
	}
	for id, digest := range before.Capabilities {
		changed := after.Capabilities[id] != digest
		if changed != (id == cp.ID) {
			t.Errorf("capability %s: slice changed = %v after the description of %s changed", id, changed, cp.ID)
		}
	}

	data, err := os.ReadFile(filepath.Join(referencePackage.core, contract.ContractFile))
	if err != nil {
		t.Fatal(err)
	}
	renamed := bytes.Replace(data, []byte(`"name": "sample-request-capabilities"`), []byte(`"name": "another-server-name"`), 1)
	if bytes.Equal(renamed, data) {
		t.Fatal("the reference contract no longer names its server as the test expects")
	}
	in = withContract(t, renamed, nil)
	if compiledSlices(t, in).Shared == before.Shared {
		t.Error("the server name is shared by every capability, and the shared slice did not change with it")
	}
}
