package server

import (
	"encoding/json"
	"net/http"
)

// APIError is the board's error envelope. Every failure answers with it:
//
//	{"code": "COMMENT_NOT_FOUND", "message": "…", "details": {…}, "retryable": false}
//
// A rejected request changed nothing.
type APIError struct {
	Status    int            `json:"-"`
	Code      string         `json:"code"`
	Message   string         `json:"message"`
	Details   map[string]any `json:"details"`
	Retryable bool           `json:"retryable"`
}

func (e *APIError) Error() string { return e.Code + ": " + e.Message }

// The board's error codes.
const (
	CodeAuthRequired     = "AUTH_REQUIRED"
	CodeNoticeNotFound   = "NOTICE_NOT_FOUND"
	CodeInvalidComment   = "INVALID_COMMENT"
	CodeCommentNotFound  = "COMMENT_NOT_FOUND"
	CodeNotCommentAuthor = "NOT_COMMENT_AUTHOR"
)

// writeError answers with the error envelope.
func writeError(w http.ResponseWriter, e *APIError) {
	details := e.Details
	if details == nil {
		details = map[string]any{}
	}
	writeJSON(w, e.Status, &APIError{Code: e.Code, Message: e.Message, Details: details, Retryable: e.Retryable})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
