package contractcheck

import (
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family T: conflicts between pieces of evidence. Structure checks conflict
// identities and the capabilities they affect.
var (
	RuleConflict = diag.Register("CONTRACT_CONFLICT", diag.Error, "a conflict is resolved without a resolution, or cites fewer than two pieces of evidence")
)

func (k *checker) conflicts() {
	for _, cf := range k.c.Conflicts {
		if cf.Status == "resolved" && !hasResolution(cf.Resolution) {
			k.contractf(RuleConflict, cf.At,
				"resolved conflict %q must state its resolution: a text, or an object citing authoritativeEvidenceRefs", cf.ID)
		}
		if len(cf.EvidenceRefs) < 2 {
			k.contractf(RuleConflict, child(cf.At, "evidenceRefs"),
				"conflict %q must cite at least two pieces of evidence, one for each side", cf.ID)
		}
	}
}

// hasResolution reports whether a resolution is a non-empty text or an
// object citing authoritative evidence.
func hasResolution(v canonjson.Value) bool {
	switch v := v.(type) {
	case canonjson.String:
		return strings.TrimSpace(string(v)) != ""
	case *canonjson.Object:
		refs, _ := member[canonjson.Array](v, "authoritativeEvidenceRefs")
		return len(refs) > 0
	}
	return false
}
