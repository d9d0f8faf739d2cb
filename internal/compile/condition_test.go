package compile

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/condition"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

// agreementConditions and agreementArguments are crossed: every condition
// is decided for every set of arguments, by internal/condition in Go and
// by the compiled expression under node.
var (
	agreementConditions = []string{
		`{"path": ["sel", "needs"], "operator": "equals", "value": true}`,
		`{"path": ["sel", "needs"], "operator": "not-equals", "value": true}`,
		`{"path": ["count"], "operator": "equals", "value": 2}`,
		`{"path": ["count"], "operator": "equals", "value": 2.0}`,
		`{"path": ["sel"], "operator": "equals", "value": {"n": 3, "needs": true, "tags": ["a", "b"], "note": "", "nothing": null}}`,
		`{"path": ["sel", "tags"], "operator": "equals", "value": ["b", "a"]}`,
		`{"path": ["sel", "n"], "operator": "in", "value": [1, 3]}`,
		`{"path": ["sel", "n"], "operator": "not-in", "value": [1, 3]}`,
		`{"path": ["sel", "tags"], "operator": "in", "value": [["a", "b"], "x"]}`,
		`{"path": ["sel", "n"], "operator": "gt", "value": 2}`,
		`{"path": ["sel", "n"], "operator": "gte", "value": 3}`,
		`{"path": ["sel", "n"], "operator": "lt", "value": 3}`,
		`{"path": ["sel", "n"], "operator": "lte", "value": 2.5}`,
		`{"path": ["sel", "note"], "operator": "gt", "value": 0}`,
		`{"path": ["sel", "tags"], "operator": "non-empty"}`,
		`{"path": ["sel", "note"], "operator": "empty"}`,
		`{"path": ["sel", "n"], "operator": "empty"}`,
		`{"path": ["sel", "n"], "operator": "non-empty"}`,
		`{"path": ["sel"], "operator": "non-empty"}`,
		`{"path": ["word"], "operator": "non-empty"}`,
		`{"path": ["sel", "note"], "operator": "present"}`,
		`{"path": ["sel", "nothing"], "operator": "present"}`,
		`{"path": ["sel", "nothing"], "operator": "absent"}`,
		`{"path": ["sel", "missing"], "operator": "absent"}`,
		`{"path": ["sel", "missing"], "operator": "not-equals", "value": 1}`,
		`{"path": ["sel", "missing"], "operator": "not-in", "value": [1]}`,
		`{"path": ["sel", "missing"], "operator": "lt", "value": 1}`,
		`{"path": ["sel", "tags", "*"], "operator": "equals", "value": "b"}`,
		`{"path": ["sel", "tags", "*"], "operator": "not-equals", "value": "b"}`,
		`{"path": ["items", "*", "id"], "operator": "present"}`,
		`{"path": ["items", "*", "id"], "operator": "absent"}`,
		`{"path": ["items", "*", "id"], "operator": "gte", "value": 2}`,
		`{"path": ["items", "0"], "operator": "present"}`,
		`{"path": ["word"], "operator": "equals", "value": "ünï"}`,
		`{"operator": "and", "conditions": [
			{"path": ["sel", "needs"], "operator": "equals", "value": true},
			{"path": ["count"], "operator": "gt", "value": 1}]}`,
		`{"operator": "or", "operands": [
			{"path": ["sel", "needs"], "operator": "equals", "value": false},
			{"path": ["word"], "operator": "absent"}]}`,
		`{"operator": "not", "condition": {"path": ["sel", "needs"], "operator": "present"}}`,
		`{"operator": "and", "condition": {"path": ["count"], "operator": "present"}}`,
		`{"operator": "or", "conditions": [
			{"operator": "not", "condition": {"operator": "and", "operands": [
				{"path": ["count"], "operator": "lte", "value": 2},
				{"path": ["sel", "tags", "*"], "operator": "in", "value": ["a"]}]}},
			{"path": ["items"], "operator": "empty"}]}`,
	}
	agreementArguments = []string{
		`{}`,
		`{"sel": {"needs": true, "n": 3, "tags": ["a", "b"], "note": "", "nothing": null}, "count": 2.0}`,
		`{"sel": {"nothing": null, "note": "", "tags": ["a", "b"], "needs": true, "n": 3}, "count": 2, "word": "ünï"}`,
		`{"sel": {"needs": false, "n": 2.5, "tags": [], "note": "x"}, "count": 1, "word": ""}`,
		`{"sel": null, "count": null, "word": null, "items": null}`,
		`{"sel": {"tags": ["b", "a"]}, "items": [{"id": 1}, {"id": null}, {}, null, {"id": 2}]}`,
		`{"sel": {"tags": "ab", "n": "3"}, "items": [{"id": 3}], "word": "ab"}`,
		`{"sel": [1, 2], "items": {"0": 1}, "count": 3, "word": 7}`,
		`{"sel": {"needs": "true", "n": 3.5, "tags": [["a", "b"]]}, "items": []}`,
	}
)

// TestConditionsAgreeWithGo decides every condition of a table for every
// set of arguments in Go (internal/condition, the one definition of what a
// condition means) and with the compiled expression under node, and wants
// the same answer everywhere: true exactly when Go finds the condition True.
func TestConditionsAgreeWithGo(t *testing.T) {
	testnode.Node(t)
	var exprs, args []string
	var want []bool
	for _, cs := range agreementConditions {
		cond := decodeValue(t, cs)
		expr, err := conditionJS(cond, "input")
		if err != nil {
			t.Fatalf("conditionJS(%s): %v", cs, err)
		}
		exprs = append(exprs, "(input) => "+expr)
		for _, as := range agreementArguments {
			a := decodeValue(t, as).(*canonjson.Object)
			want = append(want, condition.Eval(cond, condition.Values(a)) == condition.True)
		}
	}
	args = append(args, agreementArguments...)
	script := corelib + "\nconst conditions = [\n" + strings.Join(exprs, ",\n") + "\n];\nconst args = [\n" + strings.Join(args, ",\n") +
		"\n];\nprocess.stdout.write(JSON.stringify(conditions.flatMap((c) => args.map((a) => c(a)))));\n"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agree.mjs"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := sandbox.Run(context.Background(), []string{"node", "agree.mjs"}, sandbox.Options{Dir: dir, Timeout: testtier.Budget(t)})
	if err != nil {
		t.Fatal(err)
	}
	var got []bool
	if err := json.Unmarshal(r.Stdout, &got); err != nil || r.ExitCode != 0 {
		t.Fatalf("node: exit %d, %v:\n%s%s", r.ExitCode, err, r.Stdout, r.Stderr)
	}
	if len(got) != len(want) {
		t.Fatalf("node decided %d cases, want %d", len(got), len(want))
	}
	trues := 0
	for i := range want {
		if want[i] {
			trues++
		}
		if got[i] != want[i] {
			c, a := i/len(agreementArguments), i%len(agreementArguments)
			t.Errorf("condition %s over %s: node says %v, Go says %v (expression %s)",
				agreementConditions[c], agreementArguments[a], got[i], want[i], exprs[c])
		}
	}
	// The table must exercise both answers broadly, or agreement is cheap.
	if trues < len(want)/4 || trues > 3*len(want)/4 {
		t.Errorf("%d of %d cases are true: the table does not decide both ways often enough", trues, len(want))
	}
}

// TestConditionRefusals: a condition that would be Unknown under any
// arguments, or whose operand does not fit its operator, has no compiled
// form.
func TestConditionRefusals(t *testing.T) {
	for _, tt := range []struct{ cond, why string }{
		{`"equals"`, "must be an object"},
		{`{"operator": "and", "conditions": []}`, "at least one child"},
		{`{"operator": "or"}`, "at least one child"},
		{`{"operator": "not", "operands": [{"path": ["a"], "operator": "present"}]}`, `under "condition"`},
		{`{"operator": "equals", "value": 1}`, "has no path"},
		{`{"path": [], "operator": "present"}`, "has no path"},
		{`{"path": ["a", 1], "operator": "present"}`, "has no path"},
		{`{"path": ["a"], "operator": "matches", "value": "x"}`, "not one of the condition operators"},
		{`{"path": ["a"], "operator": "equals"}`, "needs a JSON value"},
		{`{"path": ["a"], "operator": "in", "value": 1}`, "needs an array"},
		{`{"path": ["a"], "operator": "gt", "value": "1"}`, "needs a number"},
		{`{"operator": "or", "conditions": [{"path": ["a"], "operator": "present"}, {"operator": "and", "conditions": []}]}`, "at least one child"},
		{deepCondition(maxConditionDepth + 2), "nest more than"},
	} {
		_, err := conditionJS(decodeValue(t, tt.cond), "input")
		if err == nil || !strings.Contains(err.Error(), tt.why) {
			t.Errorf("conditionJS(%.60s): %v, want an error saying %q", tt.cond, err, tt.why)
		}
	}
	if _, err := conditionJS(decodeValue(t, deepCondition(maxConditionDepth)), "input"); err != nil {
		t.Errorf("a condition %d deep: %v", maxConditionDepth, err)
	}
}

// deepCondition nests "not" depth times around a leaf.
func deepCondition(depth int) string {
	return strings.Repeat(`{"operator": "not", "condition": `, depth) + `{"path": ["a"], "operator": "present"}` + strings.Repeat("}", depth)
}

func decodeValue(tb testing.TB, s string) canonjson.Value {
	tb.Helper()
	v, err := canonjson.Decode([]byte(s))
	if err != nil {
		tb.Fatalf("decoding %s: %v", s, err)
	}
	return v
}
