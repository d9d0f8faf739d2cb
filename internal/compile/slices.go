package compile

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// Slices split a compiled runtime into what each capability owns and what
// they all share, so that a caller can tell which capabilities a change
// of the runtime touches: a capability's own code is its entry in the
// Function core's CAPABILITIES table, its Function and its Tool
// registration; everything else (the modules' frames with their imports
// and helpers, the copied assets, the host binding) is shared.
type Slices struct {
	// Capabilities holds, by capability ID, the SHA-256 of the
	// capability's own code, module by module.
	Capabilities map[string]string
	// Shared is the SHA-256 of every file compile produces, with the
	// capabilities' own code cut out of the generated modules.
	Shared string
}

// mark records that [start, end) of the module at path is the own code of
// cp.
func (p *program) mark(path string, cp *capPlan, start, end int) {
	if p.sections == nil {
		p.sections = map[string][]section{}
	}
	p.sections[path] = append(p.sections[path], section{capabilityID: cp.cap.ID, start: start, end: end})
}

// slices splits files, as p.files produced them, into Slices.
func (p *program) slices(files []File) *Slices {
	own := map[string]*strings.Builder{}
	for _, cp := range p.caps {
		own[cp.cap.ID] = &strings.Builder{}
	}
	var shared strings.Builder
	for _, f := range files {
		secs := slices.Clone(p.sections[f.Path])
		slices.SortFunc(secs, func(a, b section) int { return a.start - b.start })
		var frame []byte
		at := 0
		for _, s := range secs {
			frame = append(frame, f.Data[at:s.start]...)
			b := own[s.capabilityID]
			b.WriteString(f.Path + "\x00" + canonjson.SHA256(f.Data[s.start:s.end]) + "\n")
			at = s.end
		}
		frame = append(frame, f.Data[at:]...)
		shared.WriteString(f.Path + "\x00" + canonjson.SHA256(frame) + "\n")
	}
	out := &Slices{Capabilities: map[string]string{}, Shared: canonjson.SHA256([]byte(shared.String()))}
	for id, b := range own {
		out.Capabilities[id] = canonjson.SHA256([]byte(b.String()))
	}
	return out
}
