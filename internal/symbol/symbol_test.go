package symbol_test

import (
	"os"
	"slices"
	"testing"

	"github.com/code2skill/code2skill/internal/symbol"
)

type want struct {
	symbol string
	status symbol.Status
	spans  []symbol.Span
}

func check(t *testing.T, path, src string, cases []want) {
	t.Helper()
	for _, w := range cases {
		got := symbol.Locate(path, []byte(src), w.symbol)
		if got.Status != w.status || !slices.Equal(got.Spans, w.spans) {
			t.Errorf("%s: Locate(%q) = %v %v, want %v %v", path, w.symbol, got.Status, got.Spans, w.status, w.spans)
		}
	}
}

const goSource = `package desk

// DefaultBaseURL is where the desk serves.
const DefaultBaseURL = "http://127.0.0.1:8390"

const (
	A = 1
	B = 2
)

type Screen struct {
	client *Client
	items  []Item
}

// Open opens.
func (s *Screen) Open(category string) error {
	items := s.client.List(category)
	s.items = items
	return nil
}

func New() *Screen {
	return &Screen{}
}

type Lister interface {
	List(category string) []Item
}
`

func TestGo(t *testing.T) {
	check(t, "screen.go", goSource, []want{
		{"DefaultBaseURL", symbol.Declared, []symbol.Span{{4, 4}}},
		{"B", symbol.Declared, []symbol.Span{{8, 8}}},
		{"Screen", symbol.Declared, []symbol.Span{{11, 14}}},
		{"Screen.Open", symbol.Declared, []symbol.Span{{17, 21}}},
		{"Screen.items", symbol.Declared, []symbol.Span{{13, 13}}},
		{"New", symbol.Declared, []symbol.Span{{23, 25}}},
		{"Lister.List", symbol.Declared, []symbol.Span{{28, 28}}},
		// Referenced but not declared: a parsed Go file is exact.
		{"Client", symbol.Missing, nil},
		{"Open", symbol.Missing, nil},         // a method, not a function
		{"Other.Open", symbol.Missing, nil},   // another receiver
		{"Screen.Close", symbol.Missing, nil}, // gone
		{"a.b.c", symbol.Missing, nil},
		{"renders the catalogue", symbol.NotASymbol, nil},
	})
}

// A Go file that does not parse is read like any other language.
func TestGoThatDoesNotParse(t *testing.T) {
	check(t, "broken.go", "package x\n\nfunc Open( {\n  return\n}\n", []want{
		{"Open", symbol.Declared, []symbol.Span{{3, 5}}},
	})
}

const jsSource = `import { dispatch } from "./http.mjs";

export const BASE = "https://x.example";

export class Api {
  constructor(token) {
    this.token = token;
  }

  async listKinds(detail) {
    // don't forget the query
    const url = BASE + "/kinds?detail=" + detail;
    return dispatch(url, { method: "GET" });
  }
}

export function saveDraft(data) {
  return dispatch(BASE + "/draft", {
    method: "PUT",
    body: JSON.stringify({ data, note: "}" }),
  });
}

const handlers = {
  submit: async (payload) => {
    return saveDraft(payload);
  },
};

Api.prototype.reset = function () {
  this.token = null;
};
`

func TestJavaScript(t *testing.T) {
	check(t, "api.mjs", jsSource, []want{
		{"BASE", symbol.Declared, []symbol.Span{{3, 3}}},
		{"Api", symbol.Declared, []symbol.Span{{5, 15}}},
		{"Api.listKinds", symbol.Declared, []symbol.Span{{10, 14}}},
		{"saveDraft", symbol.Declared, []symbol.Span{{17, 22}}},
		{"handlers.submit", symbol.Declared, []symbol.Span{{25, 27}}},
		{"Api.reset", symbol.Declared, []symbol.Span{{30, 32}}},
		{"dispatch", symbol.Unrecognised, nil}, // imported, declared elsewhere
		{"uploadAttachment", symbol.Missing, nil},
	})
}

const pySource = `import json


class Client:
    """Talks to the desk."""

    def quote(self, item, terms):
        body = {"item": item, "terms": terms}
        return self._post("/quotes", body)

    def _post(self, path, body):
        return json.dumps(body)


LIMIT = 5
`

func TestPython(t *testing.T) {
	check(t, "client.py", pySource, []want{
		{"Client", symbol.Declared, []symbol.Span{{4, 12}}},
		{"Client.quote", symbol.Declared, []symbol.Span{{7, 9}}},
		{"LIMIT", symbol.Declared, []symbol.Span{{15, 15}}},
		{"json", symbol.Unrecognised, nil},
	})
}

const javaSource = `package desk;

public class LoanService {
    private final Store store;

    public Loan createLoan(LoanRequest request)
    {
        Loan loan = store.save(request);
        return loan;
    }

    public void check() {
        return createLoan(null);
    }
}
`

func TestJava(t *testing.T) {
	check(t, "LoanService.java", javaSource, []want{
		{"LoanService", symbol.Declared, []symbol.Span{{3, 15}}},
		{"LoanService.createLoan", symbol.Declared, []symbol.Span{{6, 10}}},
		{"LoanService::check", symbol.Declared, []symbol.Span{{12, 14}}},
	})
}

func TestKeys(t *testing.T) {
	check(t, "contract.json", "{\n  \"listKinds\": {\n    \"get\": \"/kinds\"\n  },\n  \"other\": 1\n}\n", []want{
		{"listKinds", symbol.Declared, []symbol.Span{{2, 4}}},
	})
}

// The strict sample's locators name symbols its sources declare.
func TestStrictSampleSources(t *testing.T) {
	for file, cases := range map[string][]want{
		"../../examples/equipment-lending/app/client/screen.go": {
			{"Screen.Open", symbol.Declared, []symbol.Span{{30, 37}}},
			{"Screen.Borrow", symbol.Declared, []symbol.Span{{71, 78}}},
			{"Screen.Return", symbol.Declared, []symbol.Span{{88, 93}}},
		},
		"../../examples/equipment-lending/app/client/client.go": {
			{"DefaultBaseURL", symbol.Declared, []symbol.Span{{24, 24}}},
		},
	} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		check(t, file, string(src), cases)
	}
}
