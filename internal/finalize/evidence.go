package finalize

import (
	"bytes"
	"path"
	"path/filepath"

	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/verdict"
)

// Rules about the evidence a verification report's checks hash.
var (
	RuleEvidenceMissing = diag.Register("FINALIZE_EVIDENCE_MISSING", diag.Error, "a passed check's evidence is not in the evidence directory: edited after it was hashed, moved away, or never captured")
	RuleEvidenceEscapes = diag.Register("FINALIZE_EVIDENCE_ESCAPES", diag.Error, "a symbolic link in the evidence directory leads outside it; evidence must live inside")
	RuleEvidenceInside  = diag.Register("FINALIZE_EVIDENCE_INSIDE", diag.Error, "the verification report, its evidence or the live evidence lies inside the package; evidence stays outside the portable package")
)

// evidenceIndex maps the SHA-256 of every regular file of the evidence
// directory to its path.
type evidenceIndex struct {
	dir    string // as given, for findings
	byHash map[string]string
	// records holds the files that may be check records, by path.
	records map[string][]byte
}

// indexEvidence hashes every regular file under dir. Symbolic links are never
// followed: one that stays inside adds nothing (its target is indexed
// itself), one that leaves the directory is a finding.
func indexEvidence(dir string) (*evidenceIndex, []diag.Diagnostic, error) {
	x := &evidenceIndex{dir: filepath.ToSlash(dir), byHash: map[string]string{}, records: map[string][]byte{}}
	p, ds, err := pkgdir.Open(dir)
	if err != nil {
		return nil, nil, err
	}
	var out []diag.Diagnostic
	for _, d := range ds {
		if d.Rule == pkgdir.RuleSymlinkEscape.ID {
			d = RuleEvidenceEscapes.New(d.File, "a symbolic link that leaves the evidence directory; it is not followed, and evidence behind it does not count")
		}
		d.File = x.name(d.File)
		out = append(out, d)
	}
	if p == nil {
		return x, out, nil
	}
	for _, f := range p.Files() {
		data, err := p.ReadFile(f.Path)
		if err != nil {
			return nil, nil, err
		}
		x.byHash[canonjson.SHA256(data)] = f.Path
		if path.Ext(f.Path) == ".json" && bytes.Contains(data, []byte(attest.RecordSchemaVersion)) {
			x.records[f.Path] = data
		}
	}
	return x, out, nil
}

// name returns a path of the evidence directory as findings show it.
func (x *evidenceIndex) name(rel string) string {
	if rel == "" {
		return x.dir
	}
	return path.Join(x.dir, rel)
}

// checkEvidence checks that every passed check of the report has its
// evidence in the index. An attachment runtime check is its own evidence:
// its evidenceHash is the digest of the proof it carries, which
// verdict.CheckEvidence verifies. It returns how many checks it found
// evidence for.
func (x *evidenceIndex) checkEvidence(rep *verdict.Report, file string) (int, []diag.Diagnostic) {
	var out []diag.Diagnostic
	found := 0
	check := func(c *verdict.Check) {
		if !c.Passed() || c.AttachmentProof != nil {
			return
		}
		if _, ok := x.byHash[c.EvidenceHash]; ok {
			found++
			return
		}
		out = append(out, RuleEvidenceMissing.New(file,
			"no file in %s has the SHA-256 %s of check %q; its evidence was changed after it was hashed, moved away, or never captured",
			x.dir, c.EvidenceHash, c.ID()).AtPointer(c.At+"/evidenceHash"))
	}
	for i, g := range rep.GlobalChecks {
		if o, ok := g.(*canonjson.Object); ok {
			c := verdict.DecodeCheck(o, diag.Pointer("checks", i))
			check(&c)
		}
	}
	ev := rep.Evidence
	for _, records := range [][]verdict.Record{ev.Capabilities, ev.Workflows} {
		for i := range records {
			for k := range records[i].Phases {
				for ci := range records[i].Phases[k].Checks {
					check(&records[i].Phases[k].Checks[ci])
				}
			}
		}
	}
	return found, out
}
