// Package contractdiff compares two canonical contracts of the same feature
// field by field and classifies every difference for the consumers of the
// package: breaking (a call, a result, a protection or a proof a consumer
// relies on may no longer hold), compatible (something was added or
// relaxed) or cosmetic (prose, presentation order, where evidence lives).
// A re-generation that changes nothing but what carries no meaning gives
// no change at all.
//
//	d, err := contractdiff.Compare(old, new)
//	if d.Semantic() { … d.Changes, d.Digest() … }
//
// Elements are matched by identity, never by position: capabilities by
// capabilityId, inputs by name, outputs by path, steps by stepId, goals by
// goalId, needs by informationId, evidence by evidenceId, and so on
// (contract.ContractShape says which member identifies what). A reorder is
// no change where order means nothing (object members, sets), cosmetic
// where it is presentation (the order Tools or questions are listed in),
// and breaking only for a sequence (HTTP steps). Evidence is identified by
// source, path and symbol: a locator whose line hint alone drifted is
// unchanged; one whose path or symbol changed has moved.
//
// A capability whose ID changed is renamed, not removed and added, when
// exactly one removed capability has the same Tool name and Function
// export and, its ID aside, no semantic difference from it; references to
// the old ID elsewhere in the old contract (goals, handoffs, workflows, the
// graph) are read as references to the new one.
//
// Every change is classified by the first row of Rules that matches it;
// the table is also the documentation (RulesTable). The package is pure:
// it reads decoded contracts and returns values.
package contractdiff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
)

// Class says what a change means for a consumer of the package.
type Class string

// Classes, from the most to the least serious.
const (
	Breaking   Class = "breaking"
	Compatible Class = "compatible"
	Cosmetic   Class = "cosmetic"
)

func (c Class) rank() int { return slices.Index([]Class{Breaking, Compatible, Cosmetic}, c) }

// Kind says what happened to the value a change is about.
type Kind string

// Kinds of change.
const (
	Added     Kind = "added"
	Removed   Kind = "removed"
	Changed   Kind = "changed"
	Renamed   Kind = "renamed"   // a capability's ID
	Moved     Kind = "moved"     // an evidence locator's path or symbol
	Reordered Kind = "reordered" // a list whose order is presentation or sequence
)

// Change is one difference between two contracts.
type Change struct {
	Class Class `json:"class"`
	Kind  Kind  `json:"kind"`
	// Rule is the ID of the row of Rules that classified the change; Why
	// is its reason.
	Rule string `json:"rule"`
	Why  string `json:"why"`
	// Where names the changed value for people: capability "submit" ›
	// input "note" › required.
	Where string `json:"where"`
	// Shape is the value's place in the format: capabilities[].inputs[].required.
	Shape string `json:"shape"`
	// Pointer is the JSON Pointer of the value in the new contract, or in
	// the old one when it was removed.
	Pointer string `json:"pointer"`
	// InOld says that Pointer points into the old contract.
	InOld bool `json:"inOld,omitempty"`
	// CapabilityID is the capability the change belongs to, if any.
	CapabilityID string `json:"capabilityId,omitempty"`
	// Before and After are the value as it was and as it is; nil when
	// absent.
	Before canonjson.Value `json:"-"`
	After  canonjson.Value `json:"-"`

	// output says the value is a capability's output (or inside one):
	// what widens an input's domain narrows what a consumer may receive.
	output bool
	// path is the place by identities (see Digest).
	path []string
}

// Semantic reports whether the change alters the contract's meaning.
func (c *Change) Semantic() bool { return c.Class != Cosmetic }

// Diff is the comparison of two contracts of one feature.
type Diff struct {
	ContractID string
	// Changes are in class order (breaking first), each class in the
	// order of the new contract.
	Changes []Change
}

// Counts returns how many changes of each class the diff holds.
func (d *Diff) Counts() (breaking, compatible, cosmetic int) {
	for _, c := range d.Changes {
		switch c.Class {
		case Breaking:
			breaking++
		case Compatible:
			compatible++
		default:
			cosmetic++
		}
	}
	return breaking, compatible, cosmetic
}

// Semantic reports whether any change alters the contract's meaning.
func (d *Diff) Semantic() bool {
	return slices.ContainsFunc(d.Changes, func(c Change) bool { return c.Semantic() })
}

// Digest identifies the diff's semantic content: the SHA-256 of its
// semantic changes, each by its class, kind, place (by identities: member
// names, element identities, never positions or wording) and values. It
// is "" when nothing semantic changed. Acknowledging a contract change
// means acknowledging this digest.
func (d *Diff) Digest() string {
	if !d.Semantic() {
		return ""
	}
	list := canonjson.Array{}
	for _, c := range d.Changes {
		if !c.Semantic() {
			continue
		}
		o := canonjson.NewObject(
			canonjson.Member{Key: "class", Value: canonjson.String(c.Class)},
			canonjson.Member{Key: "kind", Value: canonjson.String(c.Kind)},
			canonjson.Member{Key: "path", Value: canonjson.Strings(c.path)},
		)
		if c.Before != nil {
			o.Set("before", c.Before)
		}
		if c.After != nil {
			o.Set("after", c.After)
		}
		list = append(list, o)
	}
	// The order of the changes follows the new contract's presentation
	// order, which means nothing here.
	slices.SortFunc(list, func(a, b canonjson.Value) int {
		return strings.Compare(string(canonjson.DigestForm(a)), string(canonjson.DigestForm(b)))
	})
	return canonjson.Digest(canonjson.NewObject(
		canonjson.Member{Key: "contractId", Value: canonjson.String(d.ContractID)},
		canonjson.Member{Key: "changes", Value: list},
	))
}

// MismatchError reports two contracts of different features.
type MismatchError struct{ Old, New string }

func (e *MismatchError) Error() string {
	return fmt.Sprintf("the contracts are of different features: contractId %q and %q", e.Old, e.New)
}

// Compare compares the old contract with the new one. Both must have
// decoded; they must be contracts of the same feature (the same
// contractId), or the error is a *MismatchError.
func Compare(old, new *contract.Contract) (*Diff, error) {
	if old.ContractID != new.ContractID {
		return nil, &MismatchError{old.ContractID, new.ContractID}
	}
	w := newWalker()
	oldRoot := w.renameCapabilities(old.Raw, new.Raw)
	w.renames(oldRoot, new.Raw)
	w.value(oldRoot, new.Raw, contract.ContractShape, &place{})
	slices.SortStableFunc(w.changes, func(a, b Change) int { return a.Class.rank() - b.Class.rank() })
	return &Diff{ContractID: new.ContractID, Changes: w.changes}, nil
}
