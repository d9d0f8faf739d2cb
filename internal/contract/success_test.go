package contract_test

import (
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
)

// A success rule that accepts an empty body at 204 takes null data at 204
// only; one that does not takes no null data at all. Data is otherwise an
// object or an array.
func TestSuccessDataProblem(t *testing.T) {
	withBody := &contract.SuccessRule{OutputRequired: true}
	emptyBody := &contract.SuccessRule{EmptyBodyStatusCodes: []int64{204}}
	object, null := &canonjson.Object{}, canonjson.Null{}
	for _, tc := range []struct {
		name   string
		rule   *contract.SuccessRule
		status canonjson.Value
		data   canonjson.Value
		ok     bool
	}{
		{"object", withBody, canonjson.Int(200), object, true},
		{"array", withBody, canonjson.Int(200), canonjson.Array{}, true},
		{"null without an empty-body status", withBody, canonjson.Int(204), null, false},
		{"a string", emptyBody, canonjson.Int(204), canonjson.String("ok"), false},
		{"null at the empty-body status", emptyBody, canonjson.Int(204), null, true},
		{"null at another status", emptyBody, canonjson.Int(200), null, false},
		{"null at a status written as text", emptyBody, canonjson.String("204"), null, false},
		{"an object at the empty-body status", emptyBody, canonjson.Int(204), object, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			why := tc.rule.SuccessDataProblem(tc.status, tc.data)
			if (why == "") != tc.ok {
				t.Errorf("SuccessDataProblem = %q, want ok %v", why, tc.ok)
			}
		})
	}
}

// Text is counted per language: Chinese characters, or English words.
func TestTextUnits(t *testing.T) {
	for _, tc := range []struct {
		language, text string
		want           int
	}{
		{contract.LanguageChinese, "器材借用：列出 items 3 件", 7},
		{contract.LanguageEnglish, "器材借用：列出 items 3 件", 1},
		{contract.LanguageEnglish, "The member's loan is well-known; return_equipment_loan (v2) ends it.", 11},
		{contract.LanguageEnglish, "- '' -- x", 1},
	} {
		if got := contract.TextUnits(tc.language, tc.text); got != tc.want {
			t.Errorf("TextUnits(%s, %q) = %d, want %d", tc.language, tc.text, got, tc.want)
		}
	}
}
