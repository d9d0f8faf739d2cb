package credential

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/anchored"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// Redacted replaces a credential in sanitised data.
const Redacted = "[redacted]"

// IsRedacted reports whether a value is a redaction marker rather than data:
// empty, "[redacted]", "<redacted>", "***"…
func IsRedacted(s string) bool {
	t := strings.Trim(strings.ToLower(strings.TrimSpace(s)), "[]<>()*")
	switch {
	case t == "" || t == "redacted" || t == "removed" || t == "omitted" || strings.Trim(s, "*x") == "":
		return true
	case len(t) <= 40 && redactionPhrase.MatchString(t):
		// A phrase saying so: "[credential, not shown]", "<token redacted>".
		return true
	}
	return false
}

// redactionPhrase is a few words of which one says the value is withheld.
var redactionPhrase = regexp.MustCompile(`^[a-z ,;:-]*\b(?:not shown|redacted|masked|hidden|omitted|removed)\b[a-z ,;:-]*$`)

// A Finding is a credential in a JSON value.
type Finding struct {
	// Pointer is the JSON pointer, relative to the value, of the member
	// value or string that holds the credential.
	Pointer string
	// What says what it is without repeating it.
	What string
}

// FindInValue returns the credentials in a JSON value, in document order,
// one finding per member value or string:
//
//   - the value of a member Key calls a credential (authorization, cookie,
//     token, password, API key…), unless it is null or a redaction marker;
//   - a credential Find finds in a string;
//   - in a string that holds a JSON document (an MCP result's text block
//     repeats its structuredContent), the credentials of that document.
//
// Member names are not judged as text.
func FindInValue(v canonjson.Value) []Finding {
	w := walker{report: true}
	w.value(v, "")
	return w.found
}

// Sanitize returns a copy of a JSON value with every credential
// FindInValue reports replaced by Redacted: a credential member's whole
// value, or the credential inside a string (with the words that introduce
// it, as "Bearer …"). A string holding a JSON document is sanitised as
// JSON, so that it still parses to the sanitised document; it is rewritten,
// compactly, only when something in it was redacted. A value FindInValue
// finds nothing in is returned equal to itself, and the sanitised value
// holds nothing FindInValue finds.
//
// The same secret under an innocent name, in a string no pattern
// recognises, cannot be found.
func Sanitize(v canonjson.Value) canonjson.Value {
	var w walker
	out, _ := w.value(v, "")
	return out
}

// walker is the one walk behind FindInValue and Sanitize.
type walker struct {
	report bool // collect findings
	found  []Finding
}

func (w *walker) add(at, format string, args ...any) {
	if w.report {
		w.found = append(w.found, Finding{Pointer: at, What: fmt.Sprintf(format, args...)})
	}
}

// value returns a sanitised copy of v and whether it differs from v.
func (w *walker) value(v canonjson.Value, at string) (canonjson.Value, bool) {
	switch v := v.(type) {
	case canonjson.String:
		return w.string(string(v), at)
	case canonjson.Array:
		out, changed := make(canonjson.Array, len(v)), false
		for i, e := range v {
			var c bool
			out[i], c = w.value(e, at+"/"+strconv.Itoa(i))
			changed = changed || c
		}
		return out, changed
	case *canonjson.Object:
		out, changed := &canonjson.Object{}, false
		for k, e := range v.All() {
			p := at + "/" + diag.EscapeToken(k)
			if Key(k) && !isMarker(e) {
				w.add(p, "%q holds a credential value", k)
				out.Set(k, canonjson.String(Redacted))
				changed = true
				continue
			}
			c, ch := w.value(e, p)
			out.Set(k, c)
			changed = changed || ch
		}
		return out, changed
	}
	return v, false
}

// isMarker reports whether a credential member's value holds nothing to
// redact: null or a redaction marker.
func isMarker(v canonjson.Value) bool {
	switch v := v.(type) {
	case canonjson.Null:
		return true
	case canonjson.String:
		return IsRedacted(string(v))
	}
	return false
}

func (w *walker) string(s, at string) (canonjson.Value, bool) {
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		if doc, err := canonjson.Decode([]byte(s)); err == nil {
			inner := walker{report: w.report}
			clean, changed := inner.value(doc, "")
			if !changed {
				return canonjson.String(s), false
			}
			if len(inner.found) > 0 {
				f := inner.found[0]
				w.add(at, "%s (in the JSON document the string holds, at %q)", f.What, f.Pointer)
			}
			return canonjson.String(canonjson.DigestForm(clean)), true
		}
	}
	b := []byte(s)
	ms := findAll(anchored.NewText(b))
	if len(ms) == 0 {
		return canonjson.String(s), false
	}
	w.add(at, "%s", ms[0].Describe(b))
	return canonjson.String(redact(s, ms)), true
}

// FindInValueWith is FindInValue that also reports every occurrence of
// one of the given values in a string of v (member names aside): the
// credentials a caller injected, which are credentials wherever they
// appear, however they are named. A finding of such a value describes it
// by its first characters only.
func FindInValueWith(v canonjson.Value, secrets []string) []Finding {
	out := FindInValue(v)
	at := map[string]bool{}
	for _, f := range out {
		at[f.Pointer] = true
	}
	walkStrings(v, "", func(ptr, s string) {
		for _, secret := range secrets {
			if secret != "" && strings.Contains(s, secret) && !at[ptr] {
				at[ptr] = true
				out = append(out, Finding{Pointer: ptr, What: fmt.Sprintf("the value of a credential variable, %s", Redact(secret))})
			}
		}
	})
	return out
}

// SanitizeWith is Sanitize that also replaces every occurrence of one of
// the given values in a string of v with Redacted. It reports whether
// anything was replaced.
func SanitizeWith(v canonjson.Value, secrets []string) (canonjson.Value, bool) {
	out := Sanitize(v)
	changed := !canonjson.Equal(out, v)
	out = replaceStrings(out, func(s string) string {
		for _, secret := range secrets {
			if secret != "" && strings.Contains(s, secret) {
				s = strings.ReplaceAll(s, secret, Redacted)
				changed = true
			}
		}
		return s
	})
	return out, changed
}

// walkStrings calls f with every string of v (member names aside) and its
// JSON Pointer.
func walkStrings(v canonjson.Value, at string, f func(ptr, s string)) {
	switch v := v.(type) {
	case *canonjson.Object:
		for k, e := range v.All() {
			walkStrings(e, at+"/"+diag.EscapeToken(k), f)
		}
	case canonjson.Array:
		for i, e := range v {
			walkStrings(e, at+"/"+strconv.Itoa(i), f)
		}
	case canonjson.String:
		f(at, string(v))
	}
}

// replaceStrings returns a copy of v with every string (member names
// aside) replaced by f's answer.
func replaceStrings(v canonjson.Value, f func(string) string) canonjson.Value {
	switch v := v.(type) {
	case *canonjson.Object:
		out := &canonjson.Object{}
		for k, e := range v.All() {
			out.Set(k, replaceStrings(e, f))
		}
		return out
	case canonjson.Array:
		out := make(canonjson.Array, len(v))
		for i, e := range v {
			out[i] = replaceStrings(e, f)
		}
		return out
	case canonjson.String:
		return canonjson.String(f(string(v)))
	}
	return v
}
