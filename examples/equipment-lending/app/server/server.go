// Package server is the backend of a fictional community workshop's
// equipment lending desk: members browse the equipment the workshop lends,
// ask the desk for a loan quote, and borrow an item with that quote.
//
// The API speaks JSON over HTTP and authenticates every request with a
// member's bearer token:
//
//	GET    /api/equipment[?category=C]  the catalogue, with availability
//	POST   /api/loans/quotes            quote a loan; issues a quote grant
//	POST   /api/loans                   borrow an item with a quote grant
//	POST   /api/loans/{loanId}/return   return a borrowed item; ends the loan
//	DELETE /api/loans/{loanId}          remove a returned loan; 204, no body
//
// A loan can only be created with a quote grant: the desk issues it for one
// member, one item and the exact loan terms (bound by their digest), it
// expires after QuoteTTL and it is consumed by the loan it creates, so a
// loan is created at most once per quote. A member returns an item with the
// loan's ID; only the member who borrowed it can, and only once. A returned
// loan can then be removed from the desk's records, once, and the desk
// answers 204 with no body. Failures are JSON error objects with a code, a
// message, details and whether a retry may help.
//
// State lives in memory; New seeds the workshop's inventory.
package server

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// DefaultAddr is the address the desk serves on unless deployed elsewhere.
const DefaultAddr = "127.0.0.1:8390"

// DefaultQuoteTTL is how long a quote grant stays valid.
const DefaultQuoteTTL = 10 * time.Minute

// maxBody bounds a request body.
const maxBody = 64 << 10

// Config configures a desk.
type Config struct {
	// Members maps each member's bearer token to the member's ID.
	Members map[string]string
	// Now returns the current time; time.Now when nil.
	Now func() time.Time
	// QuoteTTL is how long a quote grant stays valid; DefaultQuoteTTL
	// when zero.
	QuoteTTL time.Duration
	// Random is the source of quote grant IDs; crypto/rand when nil.
	Random io.Reader
}

// Server is a lending desk. It is an http.Handler and safe for concurrent
// use.
type Server struct {
	members  map[string]string
	now      func() time.Time
	quoteTTL time.Duration
	random   io.Reader
	mux      *http.ServeMux

	mu        sync.Mutex
	inventory []*equipment // catalogue order
	quotes    map[string]*quote
	loans     []*Loan
	lent      int // loans ever created, removed ones included
}

// New returns a desk with the workshop's inventory and no loans.
func New(cfg Config) *Server {
	s := &Server{
		members:   cfg.Members,
		now:       cfg.Now,
		quoteTTL:  cfg.QuoteTTL,
		random:    cfg.Random,
		inventory: seedInventory(),
		quotes:    map[string]*quote{},
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.quoteTTL <= 0 {
		s.quoteTTL = DefaultQuoteTTL
	}
	if s.random == nil {
		s.random = rand.Reader
	}
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /api/equipment", s.member(s.listEquipment))
	s.mux.HandleFunc("POST /api/loans/quotes", s.member(s.quoteLoan))
	s.mux.HandleFunc("POST /api/loans", s.member(s.createLoan))
	s.mux.HandleFunc("POST /api/loans/{loanId}/return", s.member(s.returnLoan))
	s.mux.HandleFunc("DELETE /api/loans/{loanId}", s.member(s.removeLoan))
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, errNotFound(r.Method, r.URL.Path))
	})
	return s
}

// ServeHTTP serves the desk's API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mux.ServeHTTP(w, r)
}

// memberHandler serves a request on behalf of an authenticated member.
type memberHandler func(w http.ResponseWriter, r *http.Request, memberID string)

// member authenticates a request before its handler runs.
func (s *Server) member(h memberHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		memberID, err := s.authenticate(r)
		if err != nil {
			writeError(w, err)
			return
		}
		h(w, r, memberID)
	}
}

// authenticate returns the member whose bearer token the request carries.
// Every endpoint requires one; the token never appears in a response.
func (s *Server) authenticate(r *http.Request) (string, *APIError) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", errUnauthenticated()
	}
	for known, memberID := range s.members {
		if subtle.ConstantTimeCompare([]byte(known), []byte(token)) == 1 {
			return memberID, nil
		}
	}
	return "", errUnauthenticated()
}

// decodeBody reads a JSON request body into v: one object, no unknown
// members, nothing after it.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) *APIError {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return errInvalidRequest("the body must be JSON (Content-Type: application/json)", map[string]any{"contentType": ct})
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errInvalidRequest("the body is not a valid request: "+err.Error(), map[string]any{})
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errInvalidRequest("the body holds more than one JSON value", map[string]any{})
	}
	return nil
}

// writeJSON answers with status and v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// newGrantID returns an unguessable quote grant ID.
func (s *Server) newGrantID() (string, error) {
	var b [16]byte
	if _, err := io.ReadFull(s.random, b[:]); err != nil {
		return "", fmt.Errorf("reading randomness: %w", err)
	}
	return fmt.Sprintf("qg-%x", b), nil
}
