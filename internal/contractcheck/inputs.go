package contractcheck

import (
	"strings"
	"unicode"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family F: inputs, their types and schemas. Decoding checks the type and
// class vocabularies and the strategy list; Structure checks unique names.
var (
	RuleInputSchema    = diag.Register("CONTRACT_INPUT_SCHEMA", diag.Error, "an object or array input declares no schema, or its schema's type differs from the input's type")
	RuleInputLocalPath = diag.Register("CONTRACT_INPUT_LOCAL_PATH", diag.Error, "an input is named like a local file path (…path, local_path, file_path): a Tool must never take a path on the caller's machine")
)

func (k *checker) inputs(cp *contract.Capability) {
	for i := range cp.Inputs {
		in := &cp.Inputs[i]
		what := "input " + in.Name + " of " + cp.ID
		switch s := in.Schema.(type) {
		case nil:
			if in.Type == "object" || in.Type == "array" {
				k.contractf(RuleInputSchema, in.At, "%s is an %s: declare its schema", what, in.Type)
			}
		case *canonjson.Object:
			if t, ok := s.Get("type"); ok && in.Type != "" && !canonjson.Equal(t, canonjson.String(in.Type)) {
				k.contractf(RuleInputSchema, ptr(in.At, "schema", "type"), "the schema of %s has the type %s; the input is a %s", what, show(t), in.Type)
			}
		default:
			k.contractf(RuleInputSchema, child(in.At, "schema"), "the schema of %s must be an object", what)
		}
		if localPathName(in.Name) {
			k.contractf(RuleInputLocalPath, child(in.At, "name"),
				"input %q of %q is named like a local file path; take a Host-approved attachment or bounded content instead", in.Name, cp.ID)
		}
		k.facts(in.At, in.EvidenceRefs, what)
	}
}

// localPathName reports whether an input name says it holds a local path:
// its last word is "path" (filePath, local_path, path), split at
// underscores, hyphens and lower-to-upper case changes.
func localPathName(name string) bool {
	words := splitWords(name)
	return len(words) > 0 && words[len(words)-1] == "path"
}

// splitWords splits an identifier into lower-case words.
func splitWords(name string) []string {
	var words []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			words = append(words, strings.ToLower(cur.String()))
			cur.Reset()
		}
	}
	prevLower := false
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || unicode.IsSpace(r):
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		cur.WriteRune(r)
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	flush()
	return words
}
