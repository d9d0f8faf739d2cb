package client

import (
	"context"
	"errors"
	"fmt"
)

// Screen is the borrowing screen: the member opens the catalogue, selects a
// row, enters the terms and asks for a quote, reads the due date, and
// presses Borrow; later, the member presses Return on a loan and confirms
// it in a dialog, and may then press Remove on the returned loan's receipt.
// Screen holds what the screen shows; each method is what one of those
// actions does.
type Screen struct {
	client   *Client
	items    []Item
	selected int // index into items, or -1
	terms    Terms
	quote    *QuoteResult
}

// NewScreen returns a closed screen that talks to the desk through c.
func NewScreen(c *Client) *Screen {
	return &Screen{client: c, selected: -1}
}

// Open shows the catalogue, or one category of it. Any selection and quote
// are dropped: they belong to the rows shown before.
func (s *Screen) Open(ctx context.Context, category string) ([]Item, error) {
	items, err := s.client.ListEquipment(ctx, category)
	if err != nil {
		return nil, err
	}
	s.items, s.selected, s.quote = items, -1, nil
	return items, nil
}

// Select selects the row with the given item ID. Only an available item can
// be selected; a new selection drops the quote on display.
func (s *Screen) Select(itemID string) error {
	for i, it := range s.items {
		if it.ItemID == itemID {
			if !it.Available {
				return fmt.Errorf("%s is on loan and cannot be selected", it.Name)
			}
			s.selected, s.quote = i, nil
			return nil
		}
	}
	return fmt.Errorf("no row %q on the screen", itemID)
}

// RequestQuote asks the desk to quote the selected row on the terms the
// member entered, and shows the quote and its due date.
func (s *Screen) RequestQuote(ctx context.Context, terms Terms) (QuoteResult, error) {
	if s.selected < 0 {
		return QuoteResult{}, errors.New("select an item first")
	}
	q, err := s.client.QuoteLoan(ctx, s.items[s.selected], terms)
	if err != nil {
		return QuoteResult{}, err
	}
	s.terms, s.quote = terms, &q
	return q, nil
}

// Borrow is the Borrow button: it creates the loan the quote on display
// promises, sending that quote and the very terms it was issued for. The
// quote is used up either way; a new loan needs a new quote.
func (s *Screen) Borrow(ctx context.Context) (Loan, error) {
	if s.quote == nil {
		return Loan{}, errors.New("ask for a quote first")
	}
	q, terms := s.quote.Quote, s.terms
	s.quote = nil
	return s.client.CreateLoan(ctx, q, terms)
}

// Confirm is the screen's confirmation dialog: it shows the member what is
// about to happen and reports whether the member pressed Confirm. Nothing
// the screen sends depends on anything but that answer.
type Confirm func(prompt string) bool

// Return is the Return button of a loan: a return ends the loan and lends
// the item to the next member, so the screen asks the member to confirm it
// first and sends nothing unless the member does.
func (s *Screen) Return(ctx context.Context, loanID string, confirm Confirm) (ReturnReceipt, error) {
	if !confirm(fmt.Sprintf("Return loan %s? The item goes back to the desk and the loan ends.", loanID)) {
		return ReturnReceipt{}, errors.New("the member did not confirm the return")
	}
	return s.client.ReturnLoan(ctx, loanID)
}

// Remove is the Remove button of a returned loan's receipt: it removes that
// loan from the desk's records, sending the receipt's loanId as it is. The
// screen asks nothing first; the desk refuses a loan that is still active.
func (s *Screen) Remove(ctx context.Context, receipt ReturnReceipt) error {
	return s.client.RemoveLoan(ctx, receipt.LoanID)
}
