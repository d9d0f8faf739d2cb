package toolresult

import (
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
)

func decode(t *testing.T, raw string) *Result {
	t.Helper()
	r, err := Decode([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestReadError(t *testing.T) {
	for _, tc := range []struct {
		name, raw, code, from string
	}{
		{"the JSON of the text", `{"content": [{"type": "text", "text": "{\"code\":\"HOST_CREDENTIAL_MISSING\",\"message\":\"m\",\"details\":{},\"retryable\":false}"}], "isError": true}`,
			"HOST_CREDENTIAL_MISSING", FromText},
		{"an older package's structuredContent", `{"structuredContent": {"code": "UNKNOWN_DISPATCH_OUTCOME"}, "content": [{"type": "text", "text": "not JSON"}], "isError": true}`,
			"UNKNOWN_DISPATCH_OUTCOME", FromStructured},
		{"the text before structuredContent", `{"structuredContent": {"code": "OLD"}, "content": [{"type": "text", "text": "{\"code\":\"NEW\"}"}], "isError": true}`,
			"NEW", FromText},
		{"the SDK's plain text", `{"content": [{"type": "text", "text": "MCP error -32602: Tool x not found"}], "isError": true}`, "", ""},
		{"a success", `{"structuredContent": {"code": "X"}, "content": [{"type": "text", "text": "{\"code\":\"X\"}"}], "isError": false}`, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := decode(t, tc.raw)
			e, from := r.ReadError()
			if from != tc.from || r.ErrorCode() != tc.code || (e == nil) != (tc.from == "") {
				t.Errorf("from %q code %q, want %q %q", from, r.ErrorCode(), tc.from, tc.code)
			}
			if got := ErrorCodeOf([]byte(tc.raw)); got != tc.code {
				t.Errorf("ErrorCodeOf = %q, want %q", got, tc.code)
			}
		})
	}
}

func TestData(t *testing.T) {
	ok := decode(t, `{"structuredContent": {"status": 200, "data": {"a": 1}}, "content": [], "isError": false}`)
	if d, found := ok.Data(); !found || !canonjson.Equal(d, canonjson.NewObject(canonjson.Member{Key: "a", Value: canonjson.Int(1)})) {
		t.Errorf("data %v %v", d, found)
	}
	for _, raw := range []string{
		`{"structuredContent": {"status": 200, "data": {}}, "content": []}`,
		`{"structuredContent": {"status": 200, "data": {}}, "content": [], "isError": true}`,
		`{"structuredContent": {"status": 200}, "content": [], "isError": false}`,
	} {
		if _, found := decode(t, raw).Data(); found {
			t.Errorf("%s: data found", raw)
		}
	}
}

func TestDecodeRefusesMalformedResults(t *testing.T) {
	for _, raw := range []string{`[]`, `{"content": {}}`, `{"content": [], "isError": "yes"}`, `{`} {
		if _, err := Decode([]byte(raw)); err == nil {
			t.Errorf("%s: decoded", raw)
		}
	}
}

func TestDryRunOutputSchemaIsAnObjectSchema(t *testing.T) {
	s := DryRunOutputSchema()
	if p := CheckOutputSchema(s); p != nil {
		t.Fatal(p)
	}
	envelope, _ := canonjson.Decode([]byte(`{"dryRun": true, "validatedInput": {}, "operationPolicy": {}, "operationSummary": {}}`))
	if ps := Judge(s, &Result{HasIsError: true, Structured: envelope, Content: canonjson.Array{}}); len(ps) != 0 {
		t.Errorf("the envelope breaks its own schema: %v", ps)
	}
}

// TestJudge: one result of each kind a client fails its caller on, and the
// results every client returns.
func TestJudge(t *testing.T) {
	schema, _ := canonjson.Decode([]byte(`{"type": "object", "additionalProperties": false,
		"properties": {"status": {"type": "integer"}, "data": {"type": "object"}}, "required": ["status", "data"]}`))
	errorText := `{"type": "text", "text": "{\"code\":\"X\",\"message\":\"m\",\"details\":{},\"retryable\":false}"}`
	for _, tc := range []struct {
		name   string
		schema canonjson.Value
		raw    string
		want   []Kind
	}{
		{"a success", schema, `{"structuredContent": {"status": 200, "data": {}}, "content": [], "isError": false}`, nil},
		{"a success of a Tool without output schema", nil, `{"content": [{"type": "text", "text": "done"}]}`, nil},
		{"an error as text", schema, `{"content": [` + errorText + `], "isError": true}`, nil},
		{"a success without structuredContent", schema, `{"content": [{"type": "text", "text": "{}"}], "isError": false}`, []Kind{SuccessUnstructured}},
		{"a success breaking the schema", schema, `{"structuredContent": {"status": "ok", "data": {}}, "content": [], "isError": false}`, []Kind{SuccessBreaksSchema}},
		{"an error with structuredContent", schema, `{"structuredContent": {"code": "X"}, "content": [` + errorText + `], "isError": true}`, []Kind{ErrorBreaksSchema}},
		{"an error with structuredContent like a success", schema, `{"structuredContent": {"status": 200, "data": {}}, "content": [` + errorText + `], "isError": true}`, []Kind{ErrorLooksLikeSuccess}},
		{"an error without text", schema, `{"content": [], "isError": true}`, []Kind{ErrorWithoutText}},
		{"an error with blank text", nil, `{"content": [{"type": "text", "text": " "}], "isError": true}`, []Kind{ErrorWithoutText}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []Kind
			for _, p := range Judge(tc.schema, decode(t, tc.raw)) {
				got = append(got, p.Kind)
				if len(p.Clients) == 0 || !strings.Contains(p.String(), p.Clients[0]) {
					t.Errorf("%v names no client", p)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("kinds %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCheckOutputSchema(t *testing.T) {
	for _, tc := range []struct {
		raw string
		ok  bool
	}{
		{`{"type": "object"}`, true},
		{`{"type": "array", "items": {}}`, false},
		{`{"properties": {}}`, false},
		{`{"type": ["object"]}`, false},
		{`"object"`, false},
	} {
		v, _ := canonjson.Decode([]byte(tc.raw))
		p := CheckOutputSchema(v)
		if (p == nil) != tc.ok {
			t.Errorf("%s: %v", tc.raw, p)
		}
		if p != nil && (p.Kind != OutputSchemaNotObject || !slices.Contains(p.Clients, ClientTypeScript)) {
			t.Errorf("%s: %+v", tc.raw, p)
		}
	}
	if CheckOutputSchema(nil) != nil {
		t.Error("no output schema is a finding")
	}
}
