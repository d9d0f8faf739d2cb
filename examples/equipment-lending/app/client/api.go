package client

import (
	"context"
	"net/http"
	"net/url"
)

// Item is one row of the catalogue.
type Item struct {
	ItemID    string `json:"itemId"`
	Name      string `json:"name"`
	Category  string `json:"category"`
	Available bool   `json:"available"`
}

// Terms are what the member enters: days, and an optional note for the
// desk. The screen sends them unchanged to the quote and to the loan.
type Terms struct {
	Days int     `json:"days"`
	Note *string `json:"note,omitempty"`
}

// Quote is the quote grant the desk issues. The screen keeps it as it is
// and hands it back, unaltered, when the member borrows.
type Quote struct {
	GrantID       string `json:"grantId"`
	ItemID        string `json:"itemId"`
	PayloadDigest string `json:"payloadDigest"`
	ExpiresAt     string `json:"expiresAt"`
}

// QuoteResult is what the screen shows after asking for a quote.
type QuoteResult struct {
	Quote   Quote  `json:"quote"`
	DueDate string `json:"dueDate"`
}

// Loan is a loan the desk created.
type Loan struct {
	LoanID  string `json:"loanId"`
	ItemID  string `json:"itemId"`
	DueDate string `json:"dueDate"`
	Status  string `json:"status"`
}

// ListEquipment loads the catalogue: GET /api/equipment, with
// ?category=C when the member filtered by a category.
func (c *Client) ListEquipment(ctx context.Context, category string) ([]Item, error) {
	query := url.Values{}
	if category != "" {
		query.Set("category", category)
	}
	var list struct {
		Items []Item `json:"items"`
	}
	if err := c.do(ctx, http.MethodGet, "/api/equipment", query, nil, http.StatusOK, &list); err != nil {
		return nil, err
	}
	return list.Items, nil
}

// QuoteLoan asks the desk to quote a loan of the selected item:
// POST /api/loans/quotes with the selected row's itemId and the terms.
func (c *Client) QuoteLoan(ctx context.Context, selected Item, terms Terms) (QuoteResult, error) {
	body := map[string]any{"itemId": selected.ItemID, "terms": terms}
	var res QuoteResult
	err := c.do(ctx, http.MethodPost, "/api/loans/quotes", nil, body, http.StatusOK, &res)
	return res, err
}

// CreateLoan borrows the quoted item: POST /api/loans with the quote grant
// as the desk issued it and the same terms; the desk answers 201.
func (c *Client) CreateLoan(ctx context.Context, quote Quote, terms Terms) (Loan, error) {
	body := map[string]any{"quote": quote, "terms": terms}
	var loan Loan
	err := c.do(ctx, http.MethodPost, "/api/loans", nil, body, http.StatusCreated, &loan)
	return loan, err
}

// ReturnReceipt is what the desk answers when a loan is returned.
type ReturnReceipt struct {
	LoanID     string `json:"loanId"`
	ItemID     string `json:"itemId"`
	Status     string `json:"status"`
	ReturnedOn string `json:"returnedOn"`
}

// ReturnLoan returns a borrowed item: POST /api/loans/{loanId}/return with
// no body; the desk answers 200 with the receipt.
func (c *Client) ReturnLoan(ctx context.Context, loanID string) (ReturnReceipt, error) {
	var receipt ReturnReceipt
	err := c.do(ctx, http.MethodPost, "/api/loans/"+url.PathEscape(loanID)+"/return", nil, nil, http.StatusOK, &receipt)
	return receipt, err
}

// RemoveLoan removes a returned loan from the desk's records:
// DELETE /api/loans/{loanId} with no body; the desk answers 204 with no
// body.
func (c *Client) RemoveLoan(ctx context.Context, loanID string) error {
	return c.do(ctx, http.MethodDelete, "/api/loans/"+url.PathEscape(loanID), nil, nil, http.StatusNoContent, nil)
}
