package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkBorrow measures one member's whole borrowing: the catalogue, a
// quote and the loan, served in-process. Each round lends from a fresh desk.
func BenchmarkBorrow(b *testing.B) {
	b.ReportAllocs()
	serve := func(s *Server, method, target, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, target, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer token-bench")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		return w
	}
	for b.Loop() {
		s := New(Config{Members: map[string]string{"token-bench": "member-bench"}})
		if w := serve(s, "GET", "/api/equipment", ""); w.Code != http.StatusOK {
			b.Fatal(w.Body)
		}
		w := serve(s, "POST", "/api/loans/quotes", `{"itemId":"eq-drill-02","terms":{"days":3,"note":"bench"}}`)
		if w.Code != http.StatusOK {
			b.Fatal(w.Body)
		}
		quote := w.Body.String()
		quote = quote[strings.Index(quote, `{"grantId"`):strings.Index(quote, `,"dueDate"`)]
		if w := serve(s, "POST", "/api/loans", `{"quote":`+quote+`,"terms":{"days":3,"note":"bench"}}`); w.Code != http.StatusCreated {
			b.Fatal(w.Body)
		}
	}
}
