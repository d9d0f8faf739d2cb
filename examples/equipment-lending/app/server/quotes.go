package server

import (
	"net/http"
	"time"
	"unicode/utf8"
)

// Limits of the loan terms.
const (
	MinDays       = 1
	MaxDays       = 14
	MaxNoteLength = 200 // characters
)

// Terms are what a member asks for: how many days to borrow the item, and an
// optional note for the desk. A note that is present, even empty, is part of
// the terms and of their digest.
type Terms struct {
	Days int     `json:"days"`
	Note *string `json:"note,omitempty"`
}

// QuoteRequest is the body of POST /api/loans/quotes.
type QuoteRequest struct {
	ItemID string `json:"itemId"`
	Terms  Terms  `json:"terms"`
}

// Quote is a quote grant: the desk's promise that the member may borrow the
// item on exactly these terms until ExpiresAt, once. PayloadDigest is
// TermsDigest of the quoted terms.
type Quote struct {
	GrantID       string `json:"grantId"`
	ItemID        string `json:"itemId"`
	PayloadDigest string `json:"payloadDigest"`
	ExpiresAt     string `json:"expiresAt"` // RFC 3339, UTC
}

// QuoteResponse is the answer of POST /api/loans/quotes.
type QuoteResponse struct {
	Quote   Quote  `json:"quote"`
	DueDate string `json:"dueDate"` // YYYY-MM-DD, if borrowed today
}

// quote is an issued grant and what it is bound to.
type quote struct {
	Quote
	memberID string
	expires  time.Time
	consumed bool
}

// quoteLoan answers POST /api/loans/quotes: it checks the terms and that
// the item can be borrowed, and issues a quote grant for this member, item
// and terms. Nothing is reserved: the item stays available to others until
// a loan is created.
func (s *Server) quoteLoan(w http.ResponseWriter, r *http.Request, memberID string) {
	var req QuoteRequest
	if err := decodeBody(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if err := validateTerms(req.Terms); err != nil {
		writeError(w, err)
		return
	}
	resp, err := s.issueQuote(memberID, req)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

// validateTerms checks the loan terms the desk accepts.
func validateTerms(t Terms) *APIError {
	if t.Days < MinDays || t.Days > MaxDays {
		return errInvalidTerms("days", "must be a whole number of days from 1 to 14")
	}
	if t.Note != nil && utf8.RuneCountInString(*t.Note) > MaxNoteLength {
		return errInvalidTerms("note", "must not exceed 200 characters")
	}
	return nil
}

// issueQuote issues a quote grant bound to the member, the item and the
// digest of the terms, valid for the desk's quote TTL and usable once.
func (s *Server) issueQuote(memberID string, req QuoteRequest) (QuoteResponse, *APIError) {
	grantID, err := s.newGrantID()
	if err != nil {
		return QuoteResponse{}, errInternal()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.find(req.ItemID)
	if e == nil {
		return QuoteResponse{}, errItemNotFound(req.ItemID)
	}
	if e.onLoan {
		return QuoteResponse{}, errItemUnavailable(req.ItemID)
	}
	now := s.now().UTC()
	q := &quote{
		Quote: Quote{
			GrantID:       grantID,
			ItemID:        e.id,
			PayloadDigest: TermsDigest(req.Terms),
			ExpiresAt:     now.Add(s.quoteTTL).Format(time.RFC3339),
		},
		memberID: memberID,
		expires:  now.Add(s.quoteTTL),
	}
	s.quotes[grantID] = q
	return QuoteResponse{Quote: q.Quote, DueDate: dueDate(now, req.Terms.Days)}, nil
}

// dueDate is the day a loan taken at now on these terms is due back.
func dueDate(now time.Time, days int) string {
	return now.AddDate(0, 0, days).Format(time.DateOnly)
}
