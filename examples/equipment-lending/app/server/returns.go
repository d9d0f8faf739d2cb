package server

import (
	"net/http"
)

// ReturnReceipt is the answer of POST /api/loans/{loanId}/return: the loan,
// now returned, and the day it was.
type ReturnReceipt struct {
	LoanID     string `json:"loanId"`
	ItemID     string `json:"itemId"`
	Status     string `json:"status"`     // "returned"
	ReturnedOn string `json:"returnedOn"` // YYYY-MM-DD
}

// returnLoan answers POST /api/loans/{loanId}/return: it ends the member's
// active loan and makes the item available again, answering 200 with the
// receipt. The request has no body. A loan is returned once: a second
// return is rejected and changes nothing.
func (s *Server) returnLoan(w http.ResponseWriter, r *http.Request, memberID string) {
	receipt, err := s.endLoan(memberID, r.PathValue("loanId"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, receipt)
}

// endLoan returns the member's loan: checking it and releasing the item
// happen under one lock, so a loan is returned at most once.
func (s *Server) endLoan(memberID, loanID string) (ReturnReceipt, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var loan *Loan
	for _, l := range s.loans {
		if l.LoanID == loanID && l.MemberID == memberID {
			loan = l
		}
	}
	if loan == nil {
		// Another member's loan is not revealed to exist.
		return ReturnReceipt{}, errLoanNotFound(loanID)
	}
	if loan.Status == LoanReturned {
		return ReturnReceipt{}, errLoanReturned(loanID)
	}
	loan.Status = LoanReturned
	if e := s.find(loan.ItemID); e != nil {
		e.onLoan = false
	}
	return ReturnReceipt{LoanID: loan.LoanID, ItemID: loan.ItemID, Status: LoanReturned,
		ReturnedOn: s.now().UTC().Format("2006-01-02")}, nil
}
