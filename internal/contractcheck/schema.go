package contractcheck

import (
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
)

// effective returns the schema of a value declared with type typ and the
// schema declared (nil when none): the declared schema, or just the type.
func effective(declared canonjson.Value, typ string) canonjson.Value {
	if declared != nil {
		return declared
	}
	return canonjson.NewObject(canonjson.Member{Key: "type", Value: canonjson.String(typ)})
}

// schemaAt returns the part of schema s that path addresses: "*" descends
// into an array's items, any other segment into an object's properties.
func schemaAt(s canonjson.Value, path []string) (canonjson.Value, bool) {
	for _, seg := range path {
		o, ok := s.(*canonjson.Object)
		if !ok {
			return nil, false
		}
		if seg == "*" {
			if s, ok = o.Get("items"); !ok {
				return nil, false
			}
			continue
		}
		props, ok := member[*canonjson.Object](o, "properties")
		if !ok {
			return nil, false
		}
		if s, ok = props.Get(seg); !ok {
			return nil, false
		}
	}
	return s, true
}

// member returns o's member key as a T.
func member[T canonjson.Value](o *canonjson.Object, key string) (T, bool) {
	var zero T
	if o == nil {
		return zero, false
	}
	v, ok := o.Get(key)
	if !ok {
		return zero, false
	}
	t, ok := v.(T)
	return t, ok
}

// schemaTypes returns the types a schema allows, or nil when it declares
// none (or is not a schema object).
func schemaTypes(s canonjson.Value) []string {
	o, ok := s.(*canonjson.Object)
	if !ok {
		return nil
	}
	switch t, _ := o.Get("type"); t := t.(type) {
	case canonjson.String:
		return []string{string(t)}
	case canonjson.Array:
		var out []string
		for _, e := range t {
			if s, ok := e.(canonjson.String); ok {
				out = append(out, string(s))
			}
		}
		return out
	}
	return nil
}

// annotations are schema keywords that describe without constraining:
// schemas that differ only in them are the same contract.
var annotations = []string{"description", "title", "examples", "default"}

// SameSchema reports whether two schemas constrain values the same way
// (sameSchema): what a mapping, a derived value or a nested output needs
// of two schemas, whatever their descriptions say.
func SameSchema(a, b canonjson.Value) bool { return sameSchema(a, b) }

// sameSchema reports whether two schemas constrain values the same way:
// equal JSON once annotations are dropped, with type, required and enum
// lists compared as sets. Property names are data, not keywords: a property named
// "description" counts.
func sameSchema(a, b canonjson.Value) bool {
	ao, okA := a.(*canonjson.Object)
	bo, okB := b.(*canonjson.Object)
	if !okA || !okB {
		return canonjson.Equal(a, b)
	}
	n := 0
	for k, av := range ao.All() {
		if slices.Contains(annotations, k) {
			continue
		}
		n++
		bv, ok := bo.Get(k)
		if !ok {
			return false
		}
		var same bool
		switch k {
		case "type", "required", "enum":
			same = sameSet(av, bv)
		case "properties":
			same = sameProperties(av, bv)
		case "items":
			same = sameSchema(av, bv)
		default:
			same = canonjson.Equal(av, bv)
		}
		if !same {
			return false
		}
	}
	for k := range bo.All() {
		if !slices.Contains(annotations, k) {
			n--
		}
	}
	return n == 0
}

// sameSet compares two lists as sets (their order means nothing: a type
// list, the required properties, the values of an enum); a value that is
// not a list is compared as it is.
func sameSet(a, b canonjson.Value) bool {
	al, okA := a.(canonjson.Array)
	bl, okB := b.(canonjson.Array)
	if !okA || !okB {
		return canonjson.Equal(a, b)
	}
	if len(al) != len(bl) {
		return false
	}
	for _, x := range al {
		if !slices.ContainsFunc(bl, func(y canonjson.Value) bool { return canonjson.Equal(x, y) }) {
			return false
		}
	}
	return true
}

// sameProperties compares two "properties" objects by name.
func sameProperties(a, b canonjson.Value) bool {
	ao, okA := a.(*canonjson.Object)
	bo, okB := b.(*canonjson.Object)
	if !okA || !okB {
		return canonjson.Equal(a, b)
	}
	if ao.Len() != bo.Len() {
		return false
	}
	for name, av := range ao.All() {
		bv, ok := bo.Get(name)
		if !ok || !sameSchema(av, bv) {
			return false
		}
	}
	return true
}

// compatible says whether a value at sourcePath with the source schema can
// feed a target of the target schema by the mapping kind, and why not:
// direct needs equal schemas; select-one picks one element of an array
// ("*" in the path) of the target's schema; append-to-array adds one value
// (no "*") to a target array of such values.
func compatible(kind string, sourcePath []string, source, target canonjson.Value) string {
	star := slices.Contains(sourcePath, "*")
	switch kind {
	case "direct":
		if !sameSchema(source, target) {
			return "a direct mapping needs equal schemas; the source's and the target's differ"
		}
	case "select-one":
		if !star {
			return `select-one picks one element of a list: the source path must pass through an array ("*")`
		}
		if !sameSchema(source, target) {
			return "select-one needs the selected element's schema to equal the target's; they differ"
		}
	case "append-to-array":
		if star {
			return `append-to-array adds one value to a list: the source path must not pass through an array ("*")`
		}
		items, ok := schemaAt(target, []string{"*"})
		if !slices.Contains(schemaTypes(target), "array") || !ok {
			return "append-to-array needs an array target with an items schema"
		}
		if !sameSchema(source, items) {
			return "append-to-array needs the source's schema to equal the target's items; they differ"
		}
	}
	return ""
}

// output returns the output a capability declares at exactly path.
func output(cp *contract.Capability, path []string) (*contract.Output, bool) {
	for i := range cp.Outputs {
		if slices.Equal(cp.Outputs[i].Path, path) {
			return &cp.Outputs[i], true
		}
	}
	return nil, false
}

// outputSchema returns the schema of the output declared at path.
func outputSchema(cp *contract.Capability, path []string) (canonjson.Value, bool) {
	o, ok := output(cp, path)
	if !ok {
		return nil, false
	}
	return effective(o.Schema, o.Type), true
}

// inputSchema returns the schema of an input.
func inputSchema(in *contract.Input) canonjson.Value { return effective(in.Schema, in.Type) }
