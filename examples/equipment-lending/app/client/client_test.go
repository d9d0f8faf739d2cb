package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/examples/equipment-lending/app/client"
	"github.com/code2skill/code2skill/examples/equipment-lending/app/server"
)

const token = "token-alice"

// startDesk serves a fresh desk on a loopback port.
func startDesk(t *testing.T) (*server.Server, *client.Client) {
	t.Helper()
	desk := server.New(server.Config{Members: map[string]string{token: "member-alice"}})
	ts := httptest.NewServer(desk)
	t.Cleanup(ts.Close)
	return desk, client.New(ts.URL, token, ts.Client())
}

// TestBorrowThroughTheScreen runs the borrowing screen against a real desk:
// open, select, quote, borrow, and the same quote a second time.
func TestBorrowThroughTheScreen(t *testing.T) {
	ctx := context.Background()
	desk, c := startDesk(t)
	screen := client.NewScreen(c)
	items, err := screen.Open(ctx, "power-tools")
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || items[0].ItemID != "eq-drill-02" {
		t.Fatalf("power tools: %+v", items)
	}
	if err := screen.Select("eq-drill-02"); err != nil {
		t.Fatal(err)
	}
	note := "shelves"
	q, err := screen.RequestQuote(ctx, client.Terms{Days: 2, Note: &note})
	if err != nil {
		t.Fatal(err)
	}
	if q.Quote.ItemID != "eq-drill-02" || q.Quote.PayloadDigest != server.TermsDigest(server.Terms{Days: 2, Note: &note}) {
		t.Fatalf("quote %+v", q)
	}
	loan, err := screen.Borrow(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if loan.ItemID != "eq-drill-02" || loan.Status != "active" || loan.LoanID == "" {
		t.Fatalf("loan %+v", loan)
	}
	if len(desk.Loans()) != 1 {
		t.Fatalf("the desk holds %d loans", len(desk.Loans()))
	}
	if _, err := screen.Borrow(ctx); err == nil {
		t.Fatal("the screen borrowed twice with one quote")
	}
	_, err = c.CreateLoan(ctx, q.Quote, client.Terms{Days: 2, Note: &note})
	if !client.IsCode(err, server.CodeQuoteConsumed) {
		t.Fatalf("reusing the quote: %v, want %s", err, server.CodeQuoteConsumed)
	}
	var e *client.Error
	if !errors.As(err, &e) || e.Status != http.StatusConflict || e.Details["grantId"] != q.Quote.GrantID {
		t.Fatalf("the desk's error is not decoded: %#v", err)
	}
	if err := screen.Select("eq-mower-05"); err == nil {
		t.Fatal("the screen selected an item that is not on it")
	}
}

// recorded is one request the recording desk received.
type recorded struct {
	method, path, query, auth, contentType string
	body                                   map[string]any
}

// recordingDesk answers like the desk but records what it was sent.
func recordingDesk(t *testing.T) (*[]recorded, *client.Client) {
	t.Helper()
	desk := server.New(server.Config{Members: map[string]string{token: "member-alice"}})
	var got []recorded
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		rec := recorded{method: r.Method, path: r.URL.Path, query: r.URL.RawQuery,
			auth: r.Header.Get("Authorization"), contentType: r.Header.Get("Content-Type")}
		if len(data) > 0 {
			if err := json.Unmarshal(data, &rec.body); err != nil {
				t.Errorf("%s %s: body is not JSON: %s", r.Method, r.URL.Path, data)
			}
		}
		got = append(got, rec)
		r.Body = io.NopCloser(strings.NewReader(string(data)))
		desk.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return &got, client.New(ts.URL+"/", token, ts.Client())
}

// TestRequestsFollowTheSelection switches the selected row between two
// items: each quote carries the current row's itemId and the entered terms,
// nothing of the row before, and the loan carries the quote unaltered.
func TestRequestsFollowTheSelection(t *testing.T) {
	ctx := context.Background()
	got, c := recordingDesk(t)
	screen := client.NewScreen(c)
	if _, err := screen.Open(ctx, ""); err != nil {
		t.Fatal(err)
	}
	var quotes []client.QuoteResult
	for i, id := range []string{"eq-ladder-01", "eq-tent-04"} {
		if err := screen.Select(id); err != nil {
			t.Fatal(err)
		}
		q, err := screen.RequestQuote(ctx, client.Terms{Days: i + 1})
		if err != nil {
			t.Fatal(err)
		}
		quotes = append(quotes, q)
	}
	if _, err := screen.Borrow(ctx); err != nil {
		t.Fatal(err)
	}

	want := []struct {
		method, path, query string
		body                string
	}{
		{"GET", "/api/equipment", "", ""},
		{"POST", "/api/loans/quotes", "", `{"itemId":"eq-ladder-01","terms":{"days":1}}`},
		{"POST", "/api/loans/quotes", "", `{"itemId":"eq-tent-04","terms":{"days":2}}`},
		{"POST", "/api/loans", "", `{"quote":` + mustJSON(t, quotes[1].Quote) + `,"terms":{"days":2}}`},
	}
	if len(*got) != len(want) {
		t.Fatalf("the desk received %d requests, want %d: %+v", len(*got), len(want), *got)
	}
	for i, w := range want {
		r := (*got)[i]
		if r.method != w.method || r.path != w.path || r.query != w.query || r.auth != "Bearer "+token {
			t.Errorf("request %d: %s %s?%s auth %q; want %s %s?%s with the member's token", i, r.method, r.path, r.query, r.auth, w.method, w.path, w.query)
		}
		if w.body == "" {
			if r.body != nil {
				t.Errorf("request %d has a body: %v", i, r.body)
			}
			continue
		}
		if r.contentType != "application/json" {
			t.Errorf("request %d: Content-Type %q", i, r.contentType)
		}
		var wantBody map[string]any
		json.Unmarshal([]byte(w.body), &wantBody)
		if mustJSON(t, r.body) != mustJSON(t, wantBody) {
			t.Errorf("request %d body\n got %s\nwant %s", i, mustJSON(t, r.body), mustJSON(t, wantBody))
		}
	}

	*got = nil
	if _, err := c.ListEquipment(ctx, "garden"); err != nil {
		t.Fatal(err)
	}
	if r := (*got)[0]; r.query != "category=garden" {
		t.Errorf("a category filter is sent as %q", r.query)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFromEnv(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if _, err := client.FromEnv(getenv, nil); err == nil || !strings.Contains(err.Error(), client.TokenVariable) {
		t.Fatalf("without a token: %v", err)
	}
	var auth []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = append(auth, r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"items":[]}`)
	}))
	defer ts.Close()
	env[client.TokenVariable] = "token-from-env"
	env[client.BaseURLVariable] = ts.URL
	c, err := client.FromEnv(getenv, ts.Client())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListEquipment(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if len(auth) != 1 || auth[0] != "Bearer token-from-env" {
		t.Fatalf("FromEnv's client sent Authorization %q", auth)
	}
}

func TestErrorsWithoutTheEnvelope(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "upstream proxy failure", http.StatusBadGateway)
	}))
	defer ts.Close()
	_, err := client.New(ts.URL, token, ts.Client()).ListEquipment(context.Background(), "")
	if err == nil || !strings.Contains(err.Error(), "502") {
		t.Fatalf("a 502 without the envelope: %v", err)
	}
	if client.IsCode(err, "") {
		t.Error("a failure without the envelope is reported as a desk error")
	}
}

// TestNewSelectionDropsTheQuote: a quote belongs to the row it was asked
// for; selecting another row, or reopening the catalogue, drops it, so
// Borrow cannot lend the old row by accident.
func TestNewSelectionDropsTheQuote(t *testing.T) {
	ctx := context.Background()
	desk, c := startDesk(t)
	screen := client.NewScreen(c)
	for _, reset := range []func() error{
		func() error { return screen.Select("eq-tent-04") },
		func() error { _, err := screen.Open(ctx, ""); return err },
	} {
		if _, err := screen.Open(ctx, ""); err != nil {
			t.Fatal(err)
		}
		if err := screen.Select("eq-ladder-01"); err != nil {
			t.Fatal(err)
		}
		if _, err := screen.RequestQuote(ctx, client.Terms{Days: 1}); err != nil {
			t.Fatal(err)
		}
		if err := reset(); err != nil {
			t.Fatal(err)
		}
		if loan, err := screen.Borrow(ctx); err == nil {
			t.Fatalf("borrowed %+v with the quote of a row no longer selected", loan)
		}
	}
	if n := len(desk.Loans()); n != 0 {
		t.Fatalf("the desk holds %d loans", n)
	}
}

// TestReturnAsksFirst: the Return button sends nothing unless the member
// confirms, and then ends the loan.
func TestReturnAsksFirst(t *testing.T) {
	ctx := context.Background()
	desk, c := startDesk(t)
	screen := client.NewScreen(c)
	loan := borrowTent(t, ctx, screen)
	var asked []string
	declined := func(prompt string) bool { asked = append(asked, prompt); return false }
	if _, err := screen.Return(ctx, loan.LoanID, declined); err == nil {
		t.Fatal("a declined return was sent")
	}
	if got := desk.Loans(); got[0].Status != "active" || len(asked) != 1 || !strings.Contains(asked[0], loan.LoanID) {
		t.Fatalf("after declining: loans %+v, asked %q", got, asked)
	}
	receipt, err := screen.Return(ctx, loan.LoanID, func(string) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if receipt.Status != "returned" || receipt.LoanID != loan.LoanID || desk.Loans()[0].Status != "returned" {
		t.Errorf("receipt %+v, loans %+v", receipt, desk.Loans())
	}
	if _, err := c.ReturnLoan(ctx, loan.LoanID); !errors.As(err, new(*client.Error)) {
		t.Errorf("a second return: %v", err)
	}
}

// TestRemoveAfterReturn: the Remove button of a returned loan's receipt
// removes that loan at once, and the desk answers without a body; an
// active loan cannot be removed.
func TestRemoveAfterReturn(t *testing.T) {
	ctx := context.Background()
	desk, c := startDesk(t)
	screen := client.NewScreen(c)
	loan := borrowTent(t, ctx, screen)
	if err := c.RemoveLoan(ctx, loan.LoanID); !client.IsCode(err, "LOAN_ACTIVE") {
		t.Fatalf("removing an active loan: %v", err)
	}
	receipt, err := screen.Return(ctx, loan.LoanID, func(string) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if err := screen.Remove(ctx, receipt); err != nil {
		t.Fatal(err)
	}
	if n := len(desk.Loans()); n != 0 {
		t.Fatalf("the desk still holds %d loans", n)
	}
	if err := screen.Remove(ctx, receipt); !client.IsCode(err, "LOAN_NOT_FOUND") {
		t.Errorf("a second removal: %v", err)
	}
}

// borrowTent borrows the tent for two days through the screen, as a member
// does: open the camping catalogue, select it, quote, borrow.
func borrowTent(t *testing.T, ctx context.Context, screen *client.Screen) client.Loan {
	t.Helper()
	if _, err := screen.Open(ctx, "camping"); err != nil {
		t.Fatal(err)
	}
	if err := screen.Select("eq-tent-04"); err != nil {
		t.Fatal(err)
	}
	if _, err := screen.RequestQuote(ctx, client.Terms{Days: 2}); err != nil {
		t.Fatal(err)
	}
	loan, err := screen.Borrow(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return loan
}
