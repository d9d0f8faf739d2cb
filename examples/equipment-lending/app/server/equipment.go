package server

import (
	"net/http"
	"slices"
)

// Item is one piece of equipment as the catalogue lists it.
type Item struct {
	ItemID    string `json:"itemId"`
	Name      string `json:"name"`
	Category  string `json:"category"`
	Available bool   `json:"available"`
}

// equipment is an item and whether it is out on loan.
type equipment struct {
	id, name, category string
	onLoan             bool
}

// Categories returns the catalogue's categories, in order.
func Categories() []string {
	return []string{"access", "camping", "garden", "power-tools"}
}

// seedInventory is what the workshop lends. The push mower is out on loan.
func seedInventory() []*equipment {
	return []*equipment{
		{id: "eq-ladder-01", name: "Folding ladder, 2 m", category: "access"},
		{id: "eq-drill-02", name: "Cordless drill", category: "power-tools"},
		{id: "eq-jigsaw-03", name: "Jigsaw", category: "power-tools"},
		{id: "eq-tent-04", name: "Tent for two", category: "camping"},
		{id: "eq-mower-05", name: "Push mower", category: "garden", onLoan: true},
	}
}

// EquipmentList is the answer of GET /api/equipment.
type EquipmentList struct {
	Items []Item `json:"items"`
}

// listEquipment answers GET /api/equipment: the whole catalogue, or one
// category of it, with each item's current availability. Reading the
// catalogue changes nothing.
func (s *Server) listEquipment(w http.ResponseWriter, r *http.Request, _ string) {
	category := r.URL.Query().Get("category")
	if category != "" && !slices.Contains(Categories(), category) {
		writeError(w, errInvalidCategory(category))
		return
	}
	s.mu.Lock()
	list := EquipmentList{Items: []Item{}}
	for _, e := range s.inventory {
		if category == "" || e.category == category {
			list.Items = append(list.Items, e.item())
		}
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, list)
}

func (e *equipment) item() Item {
	return Item{ItemID: e.id, Name: e.name, Category: e.category, Available: !e.onLoan}
}

// find returns the equipment with the given ID, or nil. The caller holds
// s.mu.
func (s *Server) find(itemID string) *equipment {
	for _, e := range s.inventory {
		if e.id == itemID {
			return e
		}
	}
	return nil
}
