package server

import (
	"fmt"
	"net/http"
	"time"
)

// LoanRequest is the body of POST /api/loans: the quote grant exactly as the
// desk issued it, and the terms it was issued for.
type LoanRequest struct {
	Quote Quote `json:"quote"`
	Terms Terms `json:"terms"`
}

// Loan statuses.
const (
	LoanActive   = "active"
	LoanReturned = "returned"
)

// Loan is a loan the desk created.
type Loan struct {
	LoanID   string `json:"loanId"`
	ItemID   string `json:"itemId"`
	MemberID string `json:"-"`
	DueDate  string `json:"dueDate"` // YYYY-MM-DD
	Status   string `json:"status"`  // "active", then "returned"
}

// createLoan answers POST /api/loans: it redeems the member's quote grant
// and lends the item, answering 201 with the loan.
func (s *Server) createLoan(w http.ResponseWriter, r *http.Request, memberID string) {
	var req LoanRequest
	if err := decodeBody(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if err := validateTerms(req.Terms); err != nil {
		writeError(w, err)
		return
	}
	loan, err := s.redeemQuote(memberID, req)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, loan)
}

// checkQuote checks that a presented quote grant may be redeemed by this
// member for these terms now: it is one the desk issued to this member,
// presented unaltered, not yet used, not expired, and the terms are the ones
// quoted (their digest equals the grant's). The caller holds s.mu.
func (s *Server) checkQuote(memberID string, req LoanRequest, now time.Time) (*quote, *APIError) {
	grantID := req.Quote.GrantID
	q := s.quotes[grantID]
	if q == nil || q.memberID != memberID {
		// Another member's grant is not revealed to exist.
		return nil, errQuote(http.StatusNotFound, CodeQuoteNotFound, "no quote grant "+grantID+" was issued to this member", grantID)
	}
	if q.consumed {
		return nil, errQuote(http.StatusConflict, CodeQuoteConsumed, "quote grant "+grantID+" was already used for a loan", grantID)
	}
	if !now.Before(q.expires) {
		return nil, errQuote(http.StatusGone, CodeQuoteExpired, "quote grant "+grantID+" expired at "+q.ExpiresAt, grantID)
	}
	if req.Quote != q.Quote {
		return nil, errQuote(http.StatusConflict, CodeQuoteMismatch, "the presented quote differs from the one the desk issued", grantID)
	}
	if TermsDigest(req.Terms) != q.PayloadDigest {
		return nil, errQuote(http.StatusConflict, CodeQuoteMismatch, "the terms differ from the quoted terms", grantID)
	}
	return q, nil
}

// redeemQuote creates the loan a quote grant promises. Checking the grant,
// consuming it and lending the item happen under one lock, so one grant
// creates at most one loan, however often the request is sent.
func (s *Server) redeemQuote(memberID string, req LoanRequest) (Loan, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now().UTC()
	q, err := s.checkQuote(memberID, req, now)
	if err != nil {
		return Loan{}, err
	}
	e := s.find(q.ItemID)
	if e == nil || e.onLoan {
		return Loan{}, errItemUnavailable(q.ItemID)
	}
	q.consumed = true
	e.onLoan = true
	s.lent++
	loan := &Loan{
		LoanID:   fmt.Sprintf("loan-%04d", s.lent),
		ItemID:   e.id,
		MemberID: memberID,
		DueDate:  dueDate(now, req.Terms.Days),
		Status:   LoanActive,
	}
	s.loans = append(s.loans, loan)
	return *loan, nil
}

// Loans returns the loans the desk holds (those created and not removed),
// oldest first.
func (s *Server) Loans() []Loan {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Loan, len(s.loans))
	for i, l := range s.loans {
		out[i] = *l
	}
	return out
}
