package server

import (
	"fmt"
	"net/http"
)

// APIError is the desk's error envelope. Every failure answers with it:
//
//	{"code": "QUOTE_EXPIRED", "message": "…", "details": {…}, "retryable": false}
//
// code is stable and machine-readable, details is always an object, and
// retryable says whether the same request may succeed later. A rejected
// request changed nothing.
type APIError struct {
	Status    int            `json:"-"`
	Code      string         `json:"code"`
	Message   string         `json:"message"`
	Details   map[string]any `json:"details"`
	Retryable bool           `json:"retryable"`
}

func (e *APIError) Error() string { return e.Code + ": " + e.Message }

// writeError answers with the error envelope.
func writeError(w http.ResponseWriter, e *APIError) {
	details := e.Details
	if details == nil {
		details = map[string]any{}
	}
	writeJSON(w, e.Status, &APIError{Code: e.Code, Message: e.Message, Details: details, Retryable: e.Retryable})
}

// The desk's error codes.
const (
	CodeUnauthenticated = "UNAUTHENTICATED"
	CodeNotFound        = "NOT_FOUND"
	CodeInvalidRequest  = "INVALID_REQUEST"
	CodeInvalidCategory = "INVALID_CATEGORY"
	CodeInvalidTerms    = "INVALID_TERMS"
	CodeItemNotFound    = "ITEM_NOT_FOUND"
	CodeItemUnavailable = "ITEM_UNAVAILABLE"
	CodeQuoteNotFound   = "QUOTE_NOT_FOUND"
	CodeQuoteExpired    = "QUOTE_EXPIRED"
	CodeQuoteConsumed   = "QUOTE_CONSUMED"
	CodeQuoteMismatch   = "QUOTE_MISMATCH"
	CodeLoanNotFound    = "LOAN_NOT_FOUND"
	CodeLoanReturned    = "LOAN_ALREADY_RETURNED"
	CodeLoanActive      = "LOAN_ACTIVE"
	CodeInternal        = "INTERNAL"
)

func errUnauthenticated() *APIError {
	return &APIError{Status: http.StatusUnauthorized, Code: CodeUnauthenticated,
		Message: "a member's bearer token is required"}
}

func errNotFound(method, path string) *APIError {
	return &APIError{Status: http.StatusNotFound, Code: CodeNotFound,
		Message: fmt.Sprintf("no endpoint %s %s", method, path), Details: map[string]any{"method": method, "path": path}}
}

func errInvalidRequest(message string, details map[string]any) *APIError {
	return &APIError{Status: http.StatusBadRequest, Code: CodeInvalidRequest, Message: message, Details: details}
}

func errInvalidCategory(category string) *APIError {
	return &APIError{Status: http.StatusBadRequest, Code: CodeInvalidCategory,
		Message: fmt.Sprintf("unknown category %q", category),
		Details: map[string]any{"category": category, "allowed": Categories()}}
}

func errInvalidTerms(field, reason string) *APIError {
	return &APIError{Status: http.StatusBadRequest, Code: CodeInvalidTerms,
		Message: fmt.Sprintf("terms.%s %s", field, reason), Details: map[string]any{"field": field, "reason": reason}}
}

func errItemNotFound(itemID string) *APIError {
	return &APIError{Status: http.StatusNotFound, Code: CodeItemNotFound,
		Message: fmt.Sprintf("no item %q in the catalogue", itemID), Details: map[string]any{"itemId": itemID}}
}

func errItemUnavailable(itemID string) *APIError {
	return &APIError{Status: http.StatusConflict, Code: CodeItemUnavailable,
		Message: fmt.Sprintf("item %q is on loan", itemID), Details: map[string]any{"itemId": itemID}}
}

func errQuote(status int, code, message, grantID string) *APIError {
	return &APIError{Status: status, Code: code, Message: message, Details: map[string]any{"grantId": grantID}}
}

func errLoanNotFound(loanID string) *APIError {
	return &APIError{Status: http.StatusNotFound, Code: CodeLoanNotFound,
		Message: fmt.Sprintf("no loan %q of this member", loanID), Details: map[string]any{"loanId": loanID}}
}

func errLoanReturned(loanID string) *APIError {
	return &APIError{Status: http.StatusConflict, Code: CodeLoanReturned,
		Message: fmt.Sprintf("loan %q was already returned", loanID), Details: map[string]any{"loanId": loanID}}
}

func errLoanActive(loanID string) *APIError {
	return &APIError{Status: http.StatusConflict, Code: CodeLoanActive,
		Message: fmt.Sprintf("loan %q is still active; return it first", loanID), Details: map[string]any{"loanId": loanID}}
}

func errInternal() *APIError {
	return &APIError{Status: http.StatusInternalServerError, Code: CodeInternal,
		Message: "the desk could not complete the request", Details: map[string]any{}, Retryable: true}
}
