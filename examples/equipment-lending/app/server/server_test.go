package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	aliceToken = "token-alice"
	bobToken   = "token-bob"
)

// clock is a settable time source.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// counter is a randomness source whose bytes count up, so that grant IDs
// differ and tests are repeatable.
type counter struct {
	mu sync.Mutex
	n  byte
}

func (c *counter) Read(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range p {
		c.n++
		p[i] = c.n
	}
	return len(p), nil
}

type desk struct {
	t     *testing.T
	s     *Server
	clock *clock
}

func newDesk(t *testing.T) *desk {
	c := &clock{now: time.Date(2030, 5, 6, 9, 30, 0, 0, time.UTC)}
	s := New(Config{
		Members: map[string]string{aliceToken: "member-alice", bobToken: "member-bob"},
		Now:     c.Now,
		Random:  &counter{},
	})
	return &desk{t: t, s: s, clock: c}
}

// call sends one request as the member with the given token ("" for none)
// and returns the status and the decoded JSON answer.
func (d *desk) call(token, method, target, body string) (int, map[string]any) {
	d.t.Helper()
	var r *http.Request
	if body == "" {
		r = httptest.NewRequest(method, target, nil)
	} else {
		r = httptest.NewRequest(method, target, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	d.s.ServeHTTP(w, r)
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		d.t.Fatalf("%s %s: Content-Type %q, want application/json", method, target, ct)
	}
	var v map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		d.t.Fatalf("%s %s: answer is not a JSON object: %v\n%s", method, target, err, w.Body)
	}
	return w.Code, v
}

// wantError checks that an answer is the error envelope with this status
// and code: exactly code, message, details (an object) and retryable.
func wantError(t *testing.T, status int, v map[string]any, wantStatus int, wantCode string) {
	t.Helper()
	if status != wantStatus || v["code"] != wantCode {
		t.Fatalf("got %d %v, want %d %s", status, v, wantStatus, wantCode)
	}
	if len(v) != 4 {
		t.Errorf("envelope has members %v, want code, message, details, retryable", v)
	}
	if m, _ := v["message"].(string); m == "" {
		t.Errorf("envelope has no message: %v", v)
	}
	if _, ok := v["details"].(map[string]any); !ok {
		t.Errorf("details is not an object: %v", v)
	}
	if _, ok := v["retryable"].(bool); !ok {
		t.Errorf("retryable is not a boolean: %v", v)
	}
}

func TestEveryEndpointNeedsAMember(t *testing.T) {
	d := newDesk(t)
	for _, c := range []struct{ method, target, body string }{
		{"GET", "/api/equipment", ""},
		{"POST", "/api/loans/quotes", `{"itemId":"eq-drill-02","terms":{"days":2}}`},
		{"POST", "/api/loans", `{}`},
		{"POST", "/api/loans/loan-0001/return", ""},
		{"DELETE", "/api/loans/loan-0001", ""},
	} {
		for _, auth := range []string{"", "Bearer", "Bearer token-mallory", "Basic " + aliceToken, aliceToken} {
			r := httptest.NewRequest(c.method, c.target, strings.NewReader(c.body))
			r.Header.Set("Content-Type", "application/json")
			if auth != "" {
				r.Header.Set("Authorization", auth)
			}
			w := httptest.NewRecorder()
			d.s.ServeHTTP(w, r)
			var v map[string]any
			json.Unmarshal(w.Body.Bytes(), &v)
			wantError(t, w.Code, v, http.StatusUnauthorized, CodeUnauthenticated)
			if strings.Contains(w.Body.String(), "token-") {
				t.Errorf("%s %s: the answer repeats a token: %s", c.method, c.target, w.Body)
			}
		}
	}
	if len(d.s.quotes) != 0 || len(d.s.Loans()) != 0 {
		t.Fatal("an unauthenticated request changed the desk")
	}
}

func TestListEquipment(t *testing.T) {
	d := newDesk(t)
	status, v := d.call(aliceToken, "GET", "/api/equipment", "")
	if status != http.StatusOK {
		t.Fatalf("status %d: %v", status, v)
	}
	items := v["items"].([]any)
	if len(items) != 5 {
		t.Fatalf("got %d items, want the 5 of the inventory", len(items))
	}
	first := items[0].(map[string]any)
	if len(first) != 4 || first["itemId"] != "eq-ladder-01" || first["category"] != "access" || first["available"] != true {
		t.Errorf("first item %v", first)
	}
	if mower := items[4].(map[string]any); mower["itemId"] != "eq-mower-05" || mower["available"] != false {
		t.Errorf("the mower on loan is listed as %v", mower)
	}

	status, v = d.call(aliceToken, "GET", "/api/equipment?category=power-tools", "")
	if status != http.StatusOK {
		t.Fatalf("status %d: %v", status, v)
	}
	var ids []string
	for _, it := range v["items"].([]any) {
		ids = append(ids, it.(map[string]any)["itemId"].(string))
	}
	if strings.Join(ids, ",") != "eq-drill-02,eq-jigsaw-03" {
		t.Errorf("power-tools lists %v", ids)
	}

	status, v = d.call(aliceToken, "GET", "/api/equipment?category=boats", "")
	wantError(t, status, v, http.StatusBadRequest, CodeInvalidCategory)
	if v["details"].(map[string]any)["category"] != "boats" {
		t.Errorf("details do not name the category: %v", v)
	}
}

func TestUnknownEndpoint(t *testing.T) {
	d := newDesk(t)
	status, v := d.call(aliceToken, "DELETE", "/api/loans", "")
	wantError(t, status, v, http.StatusNotFound, CodeNotFound)
}

// quote asks for a quote as alice and returns the answer.
func (d *desk) quote(itemID, terms string) QuoteResponse {
	d.t.Helper()
	status, v := d.call(aliceToken, "POST", "/api/loans/quotes", `{"itemId":"`+itemID+`","terms":`+terms+`}`)
	if status != http.StatusOK {
		d.t.Fatalf("quote %s %s: %d %v", itemID, terms, status, v)
	}
	b, _ := json.Marshal(v)
	var q QuoteResponse
	if err := json.Unmarshal(b, &q); err != nil {
		d.t.Fatal(err)
	}
	return q
}

func TestQuoteIssuesAGrantBoundToTheTerms(t *testing.T) {
	d := newDesk(t)
	q := d.quote("eq-drill-02", `{"days":3,"note":"back by Friday"}`)
	note := "back by Friday"
	if q.Quote.ItemID != "eq-drill-02" || q.DueDate != "2030-05-09" || q.Quote.ExpiresAt != "2030-05-06T09:40:00Z" {
		t.Errorf("quote %+v", q)
	}
	if want := TermsDigest(Terms{Days: 3, Note: &note}); q.Quote.PayloadDigest != want {
		t.Errorf("payloadDigest %s, want the digest of the terms %s", q.Quote.PayloadDigest, want)
	}
	if !strings.HasPrefix(q.Quote.GrantID, "qg-") || len(q.Quote.GrantID) != 3+32 {
		t.Errorf("grantId %q is not a 128-bit grant ID", q.Quote.GrantID)
	}
	other := d.quote("eq-drill-02", `{"days":3,"note":"back by Friday"}`)
	if other.Quote.GrantID == q.Quote.GrantID {
		t.Error("two quotes share a grant ID")
	}
	if d.s.find("eq-drill-02").onLoan {
		t.Error("a quote reserved the item")
	}
}

func TestQuoteRejections(t *testing.T) {
	long := strings.Repeat("é", MaxNoteLength+1)
	for name, c := range map[string]struct {
		body   string
		status int
		code   string
	}{
		"zero days":          {`{"itemId":"eq-drill-02","terms":{"days":0}}`, 400, CodeInvalidTerms},
		"too many days":      {`{"itemId":"eq-drill-02","terms":{"days":15}}`, 400, CodeInvalidTerms},
		"fractional days":    {`{"itemId":"eq-drill-02","terms":{"days":1.5}}`, 400, CodeInvalidRequest},
		"note too long":      {`{"itemId":"eq-drill-02","terms":{"days":1,"note":"` + long + `"}}`, 400, CodeInvalidTerms},
		"unknown member":     {`{"itemId":"eq-drill-02","terms":{"days":1},"extra":1}`, 400, CodeInvalidRequest},
		"two values":         {`{"itemId":"eq-drill-02","terms":{"days":1}} {}`, 400, CodeInvalidRequest},
		"unknown item":       {`{"itemId":"eq-kayak-09","terms":{"days":1}}`, 404, CodeItemNotFound},
		"item on loan":       {`{"itemId":"eq-mower-05","terms":{"days":1}}`, 409, CodeItemUnavailable},
		"terms not a object": {`{"itemId":"eq-drill-02","terms":3}`, 400, CodeInvalidRequest},
	} {
		t.Run(name, func(t *testing.T) {
			d := newDesk(t)
			status, v := d.call(aliceToken, "POST", "/api/loans/quotes", c.body)
			wantError(t, status, v, c.status, c.code)
			if len(d.s.quotes) != 0 {
				t.Error("a rejected quote issued a grant")
			}
		})
	}
	t.Run("not JSON", func(t *testing.T) {
		d := newDesk(t)
		r := httptest.NewRequest("POST", "/api/loans/quotes", strings.NewReader(`itemId=eq-drill-02`))
		r.Header.Set("Authorization", "Bearer "+aliceToken)
		w := httptest.NewRecorder()
		d.s.ServeHTTP(w, r)
		var v map[string]any
		json.Unmarshal(w.Body.Bytes(), &v)
		wantError(t, w.Code, v, http.StatusBadRequest, CodeInvalidRequest)
	})
}

// lend quotes the item on the terms and borrows it as alice, and returns
// the loan's answer.
func (d *desk) lend(itemID, terms string) map[string]any {
	d.t.Helper()
	q := d.quote(itemID, terms)
	status, v := d.call(aliceToken, "POST", "/api/loans", loanBody(q.Quote, terms))
	if status != http.StatusCreated {
		d.t.Fatalf("status %d: %v", status, v)
	}
	return v
}

func loanBody(q Quote, terms string) string {
	b, _ := json.Marshal(q)
	return `{"quote":` + string(b) + `,"terms":` + terms + `}`
}

func TestLoanRedeemsTheQuoteOnce(t *testing.T) {
	d := newDesk(t)
	q := d.quote("eq-tent-04", `{"days":4}`)
	status, v := d.call(aliceToken, "POST", "/api/loans", loanBody(q.Quote, `{"days":4}`))
	if status != http.StatusCreated {
		t.Fatalf("status %d: %v", status, v)
	}
	if v["loanId"] != "loan-0001" || v["itemId"] != "eq-tent-04" || v["dueDate"] != "2030-05-10" || v["status"] != "active" || len(v) != 4 {
		t.Errorf("loan %v", v)
	}
	if loans := d.s.Loans(); len(loans) != 1 || loans[0].MemberID != "member-alice" {
		t.Errorf("the desk holds loans %+v", loans)
	}
	_, list := d.call(aliceToken, "GET", "/api/equipment?category=camping", "")
	if tent := list["items"].([]any)[0].(map[string]any); tent["available"] != false {
		t.Errorf("the borrowed tent is listed as %v", tent)
	}

	status, v = d.call(aliceToken, "POST", "/api/loans", loanBody(q.Quote, `{"days":4}`))
	wantError(t, status, v, http.StatusConflict, CodeQuoteConsumed)
	if len(d.s.Loans()) != 1 {
		t.Error("a used quote created a second loan")
	}
}

func TestLoanRejections(t *testing.T) {
	note := `{"days":2,"note":"for the shelves"}`
	for name, c := range map[string]struct {
		change func(d *desk, q *Quote) (token, terms string)
		status int
		code   string
	}{
		"expired": {func(d *desk, q *Quote) (string, string) {
			d.clock.advance(DefaultQuoteTTL)
			return aliceToken, note
		}, http.StatusGone, CodeQuoteExpired},
		"another member's quote": {func(d *desk, q *Quote) (string, string) {
			return bobToken, note
		}, http.StatusNotFound, CodeQuoteNotFound},
		"unknown grant": {func(d *desk, q *Quote) (string, string) {
			q.GrantID = "qg-00000000000000000000000000000000"
			return aliceToken, note
		}, http.StatusNotFound, CodeQuoteNotFound},
		"other days": {func(d *desk, q *Quote) (string, string) {
			return aliceToken, `{"days":3,"note":"for the shelves"}`
		}, http.StatusConflict, CodeQuoteMismatch},
		"note dropped": {func(d *desk, q *Quote) (string, string) {
			return aliceToken, `{"days":2}`
		}, http.StatusConflict, CodeQuoteMismatch},
		"unknown terms member": {func(d *desk, q *Quote) (string, string) {
			return aliceToken, `{"days":2,"note":"for the shelves","extra":true}`
		}, http.StatusBadRequest, CodeInvalidRequest},
		"grant altered": {func(d *desk, q *Quote) (string, string) {
			q.ItemID = "eq-ladder-01"
			return aliceToken, note
		}, http.StatusConflict, CodeQuoteMismatch},
		"digest altered to match other terms": {func(d *desk, q *Quote) (string, string) {
			q.PayloadDigest = TermsDigest(Terms{Days: 9})
			return aliceToken, `{"days":9}`
		}, http.StatusConflict, CodeQuoteMismatch},
		"invalid terms": {func(d *desk, q *Quote) (string, string) {
			return aliceToken, `{"days":20}`
		}, http.StatusBadRequest, CodeInvalidTerms},
	} {
		t.Run(name, func(t *testing.T) {
			d := newDesk(t)
			q := d.quote("eq-jigsaw-03", note).Quote
			token, terms := c.change(d, &q)
			status, v := d.call(token, "POST", "/api/loans", loanBody(q, terms))
			wantError(t, status, v, c.status, c.code)
			if len(d.s.Loans()) != 0 || d.s.find("eq-jigsaw-03").onLoan {
				t.Error("a rejected loan changed the desk")
			}
		})
	}
}

func TestLoanOfAnItemBorrowedSinceTheQuote(t *testing.T) {
	d := newDesk(t)
	first := d.quote("eq-ladder-01", `{"days":1}`)
	second := d.quote("eq-ladder-01", `{"days":2}`)
	if status, v := d.call(aliceToken, "POST", "/api/loans", loanBody(first.Quote, `{"days":1}`)); status != http.StatusCreated {
		t.Fatalf("first loan: %d %v", status, v)
	}
	status, v := d.call(aliceToken, "POST", "/api/loans", loanBody(second.Quote, `{"days":2}`))
	wantError(t, status, v, http.StatusConflict, CodeItemUnavailable)
	if d.s.quotes[second.Quote.GrantID].consumed {
		t.Error("a loan that was not created used up its quote")
	}
	status, v = d.call(aliceToken, "POST", "/api/loans/quotes", `{"itemId":"eq-ladder-01","terms":{"days":1}}`)
	wantError(t, status, v, http.StatusConflict, CodeItemUnavailable)
}

// TestConcurrentRedemption sends the same loan request many times at once:
// exactly one creates the loan.
func TestConcurrentRedemption(t *testing.T) {
	d := newDesk(t)
	q := d.quote("eq-drill-02", `{"days":1}`)
	body := loanBody(q.Quote, `{"days":1}`)
	const n = 16
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := httptest.NewRequest("POST", "/api/loans", strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Authorization", "Bearer "+aliceToken)
			w := httptest.NewRecorder()
			d.s.ServeHTTP(w, r)
			statuses[i] = w.Code
		}()
	}
	wg.Wait()
	created := 0
	for _, s := range statuses {
		switch s {
		case http.StatusCreated:
			created++
		case http.StatusConflict:
		default:
			t.Errorf("unexpected status %d", s)
		}
	}
	if created != 1 || len(d.s.Loans()) != 1 {
		t.Fatalf("%d requests created a loan (%d loans); want exactly one", created, len(d.s.Loans()))
	}
}

func TestReturnEndsTheLoanOnce(t *testing.T) {
	d := newDesk(t)
	d.lend("eq-tent-04", `{"days":4}`)
	// Another member's loan is not found, and stays active.
	status, v := d.call(bobToken, "POST", "/api/loans/loan-0001/return", "")
	wantError(t, status, v, http.StatusNotFound, CodeLoanNotFound)
	status, v = d.call(aliceToken, "POST", "/api/loans/loan-0009/return", "")
	wantError(t, status, v, http.StatusNotFound, CodeLoanNotFound)
	if loans := d.s.Loans(); loans[0].Status != LoanActive {
		t.Fatalf("a refused return changed the loan: %+v", loans)
	}

	status, v = d.call(aliceToken, "POST", "/api/loans/loan-0001/return", "")
	if status != http.StatusOK {
		t.Fatalf("status %d: %v", status, v)
	}
	if v["loanId"] != "loan-0001" || v["itemId"] != "eq-tent-04" || v["status"] != "returned" || v["returnedOn"] != "2030-05-06" || len(v) != 4 {
		t.Errorf("receipt %v", v)
	}
	_, list := d.call(aliceToken, "GET", "/api/equipment?category=camping", "")
	if tent := list["items"].([]any)[0].(map[string]any); tent["available"] != true {
		t.Errorf("the returned tent is listed as %v", tent)
	}
	status, v = d.call(aliceToken, "POST", "/api/loans/loan-0001/return", "")
	wantError(t, status, v, http.StatusConflict, CodeLoanReturned)
	if loans := d.s.Loans(); len(loans) != 1 || loans[0].Status != LoanReturned {
		t.Errorf("the desk holds loans %+v", loans)
	}
}

func TestRemoveAReturnedLoanOnce(t *testing.T) {
	d := newDesk(t)
	d.lend("eq-tent-04", `{"days":4}`)
	// An active loan cannot be removed: the item is still out.
	status, v := d.call(aliceToken, "DELETE", "/api/loans/loan-0001", "")
	wantError(t, status, v, http.StatusConflict, CodeLoanActive)
	if status, v := d.call(aliceToken, "POST", "/api/loans/loan-0001/return", ""); status != http.StatusOK {
		t.Fatalf("status %d: %v", status, v)
	}
	// Another member's loan is not found, and stays.
	status, v = d.call(bobToken, "DELETE", "/api/loans/loan-0001", "")
	wantError(t, status, v, http.StatusNotFound, CodeLoanNotFound)
	if len(d.s.Loans()) != 1 {
		t.Fatalf("a refused removal changed the desk: %+v", d.s.Loans())
	}

	r := httptest.NewRequest("DELETE", "/api/loans/loan-0001", nil)
	r.Header.Set("Authorization", "Bearer "+aliceToken)
	w := httptest.NewRecorder()
	d.s.ServeHTTP(w, r)
	if w.Code != http.StatusNoContent || w.Body.Len() != 0 || w.Header().Get("Content-Type") != "" {
		t.Fatalf("removal answered %d %q (Content-Type %q), want 204 without a body", w.Code, w.Body, w.Header().Get("Content-Type"))
	}
	if n := len(d.s.Loans()); n != 0 {
		t.Fatalf("the desk still holds %d loans", n)
	}
	status, v = d.call(aliceToken, "DELETE", "/api/loans/loan-0001", "")
	wantError(t, status, v, http.StatusNotFound, CodeLoanNotFound)

	// A loan created after a removal gets a new identifier.
	if v := d.lend("eq-tent-04", `{"days":2}`); v["loanId"] != "loan-0002" {
		t.Fatalf("%v, want loan-0002", v)
	}
}
