package server

import (
	"net/http"
	"slices"
)

// removeLoan answers DELETE /api/loans/{loanId}: it removes one of the
// member's returned loans from the desk's records and answers 204 No
// Content, with no body. The request has no body. A loan is removed once
// and only after it was returned: an active loan is rejected (the item is
// still out), and a loan removed before is not found. The desk asks
// nobody before removing.
func (s *Server) removeLoan(w http.ResponseWriter, r *http.Request, memberID string) {
	if err := s.forgetLoan(memberID, r.PathValue("loanId")); err != nil {
		writeError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// forgetLoan removes the member's returned loan: finding it and removing it
// happen under one lock, so a loan is removed at most once.
func (s *Server) forgetLoan(memberID, loanID string) *APIError {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.loans, func(l *Loan) bool { return l.LoanID == loanID && l.MemberID == memberID })
	if i < 0 {
		// Another member's loan is not revealed to exist.
		return errLoanNotFound(loanID)
	}
	if s.loans[i].Status != LoanReturned {
		return errLoanActive(loanID)
	}
	s.loans = slices.Delete(s.loans, i, i+1)
	return nil
}
