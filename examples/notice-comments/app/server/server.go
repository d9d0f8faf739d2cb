// Package server is the backend of a fictional allotment society's notice
// board: anyone reads the comments under a notice, a member adds one, and
// the member who wrote a comment deletes it.
//
// The API speaks JSON over HTTP; there is no client in this source tree,
// only the routes:
//
//	GET    /api/notices/{noticeId}/comments  public: the notice's comments, oldest first
//	POST   /api/notices/{noticeId}/comments  bearer token: add a comment
//	DELETE /api/comments/{commentId}         bearer token: delete one's own comment
//
// Failures are JSON error objects with a code, a message, details and
// whether a retry may help. State lives in memory; New seeds the notices.
package server

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// DefaultAddr is the address the board serves on unless deployed elsewhere.
const DefaultAddr = "127.0.0.1:8391"

// MaxCommentLength is the most characters (code points) a comment's body
// holds.
const MaxCommentLength = 1024

// maxBody bounds a request body.
const maxBody = 16 << 10

// Config configures a board.
type Config struct {
	// Members maps each member's bearer token to the member's name.
	Members map[string]string
	// Now returns the current time; time.Now when nil.
	Now func() time.Time
}

// Comment is one comment under a notice.
type Comment struct {
	CommentID string `json:"commentId"`
	NoticeID  string `json:"noticeId"`
	Author    string `json:"author"`
	Body      string `json:"body"`
	PostedAt  string `json:"postedAt"`
}

// Server is a notice board. It is an http.Handler and safe for concurrent
// use.
type Server struct {
	members map[string]string
	now     func() time.Time
	mux     *http.ServeMux

	mu       sync.Mutex
	notices  map[string]bool
	comments []*Comment // posting order
	next     int
}

// New returns a board with the society's notices and no comments.
func New(cfg Config) *Server {
	s := &Server{members: cfg.Members, now: cfg.Now, mux: http.NewServeMux(),
		notices: map[string]bool{"water-rota": true, "seed-swap": true, "shed-repairs": true}}
	if s.now == nil {
		s.now = time.Now
	}
	s.mux.HandleFunc("GET /api/notices/{noticeId}/comments", s.ListComments)
	s.mux.HandleFunc("POST /api/notices/{noticeId}/comments", s.authenticated(s.AddComment))
	s.mux.HandleFunc("DELETE /api/comments/{commentId}", s.authenticated(s.DeleteComment))
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// authenticated lets a request with a member's bearer token through and
// answers any other with 401 AUTH_REQUIRED.
func (s *Server) authenticated(next func(w http.ResponseWriter, r *http.Request, member string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if ok {
			for t, member := range s.members {
				if subtle.ConstantTimeCompare([]byte(t), []byte(token)) == 1 {
					next(w, r, member)
					return
				}
			}
		}
		writeError(w, &APIError{Status: http.StatusUnauthorized, Code: CodeAuthRequired, Message: "a member's bearer token is required"})
	}
}

// ListComments answers the comments of a notice, oldest first. Anyone may
// read them.
func (s *Server) ListComments(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("noticeId")
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.notices[id] {
		writeError(w, &APIError{Status: http.StatusNotFound, Code: CodeNoticeNotFound, Message: fmt.Sprintf("no notice %q", id), Details: map[string]any{"noticeId": id}})
		return
	}
	out := []*Comment{}
	for _, c := range s.comments {
		if c.NoticeID == id {
			out = append(out, c)
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"comments": out})
}

// AddComment adds the member's comment under a notice: a body of 1 to
// MaxCommentLength characters. Each call adds one more comment.
func (s *Server) AddComment(w http.ResponseWriter, r *http.Request, member string) {
	id := r.PathValue("noticeId")
	var req struct {
		Body *string `json:"body"`
	}
	dec := json.NewDecoder(io.LimitReader(r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil || req.Body == nil {
		writeError(w, &APIError{Status: http.StatusUnprocessableEntity, Code: CodeInvalidComment, Message: "the request must be {\"body\": string}"})
		return
	}
	if n := utf8.RuneCountInString(strings.TrimSpace(*req.Body)); n == 0 || utf8.RuneCountInString(*req.Body) > MaxCommentLength {
		writeError(w, &APIError{Status: http.StatusUnprocessableEntity, Code: CodeInvalidComment,
			Message: fmt.Sprintf("a comment holds 1 to %d characters", MaxCommentLength), Details: map[string]any{"maxLength": MaxCommentLength}})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.notices[id] {
		writeError(w, &APIError{Status: http.StatusNotFound, Code: CodeNoticeNotFound, Message: fmt.Sprintf("no notice %q", id), Details: map[string]any{"noticeId": id}})
		return
	}
	s.next++
	c := &Comment{CommentID: fmt.Sprintf("cmt-%04d", s.next), NoticeID: id, Author: member, Body: *req.Body,
		PostedAt: s.now().UTC().Format(time.RFC3339)}
	s.comments = append(s.comments, c)
	writeJSON(w, http.StatusCreated, c)
}

// DeleteComment deletes a comment its author asks to delete. A comment
// that does not exist (or was deleted already) is 404 COMMENT_NOT_FOUND,
// another member's comment 403 NOT_COMMENT_AUTHOR.
func (s *Server) DeleteComment(w http.ResponseWriter, r *http.Request, member string) {
	id := r.PathValue("commentId")
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, c := range s.comments {
		if c.CommentID != id {
			continue
		}
		if c.Author != member {
			writeError(w, &APIError{Status: http.StatusForbidden, Code: CodeNotCommentAuthor, Message: "only the comment's author may delete it", Details: map[string]any{"commentId": id}})
			return
		}
		s.comments = append(s.comments[:i], s.comments[i+1:]...)
		writeJSON(w, http.StatusOK, map[string]any{"commentId": id, "deleted": true})
		return
	}
	writeError(w, &APIError{Status: http.StatusNotFound, Code: CodeCommentNotFound, Message: fmt.Sprintf("no comment %q", id), Details: map[string]any{"commentId": id}})
}
