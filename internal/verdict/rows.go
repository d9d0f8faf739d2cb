package verdict

import (
	"fmt"
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// A rowSet is how a report or matrix lists the records of one kind: the
// member key ("capabilities"), the member that names each record's subject
// ("capabilityId"), the subjects the contract declares, in contract order,
// and the phases their records have.
type rowSet struct {
	key, idKey string
	ids        []string
	phases     [3]string
}

// rowSets returns the two kinds of record the baseline declares.
func (b *Baseline) rowSets() (capabilities, workflows rowSet) {
	capabilities = rowSet{key: "capabilities", idKey: "capabilityId", phases: CapabilityPhases}
	for _, c := range b.Capabilities {
		capabilities.ids = append(capabilities.ids, c.ID)
	}
	workflows = rowSet{key: "workflows", idKey: "workflowId", phases: WorkflowPhases}
	for _, w := range b.Workflows {
		workflows.ids = append(workflows.ids, w.ID)
	}
	return capabilities, workflows
}

// A rowProblem says why a listed row is not taken: its subject is missing
// (the row is not an object or does not name one), undeclared, or declared
// by an earlier row, whose index is first.
type rowProblem struct {
	kind  rowProblemKind
	id    string
	first int
}

type rowProblemKind int

const (
	rowUnnamed rowProblemKind = iota
	rowUndeclared
	rowRepeated
)

// match places the rows of arr under the declared subjects: found[i] is the
// index in arr of the row of ids[i], or -1 when no row names it. Each row it
// does not take is passed to stray with its index.
func (s rowSet) match(arr canonjson.Array, stray func(k int, p rowProblem)) (found []int) {
	found = make([]int, len(s.ids))
	for i := range found {
		found[i] = -1
	}
	for k, v := range arr {
		row, _ := v.(*canonjson.Object)
		id := stringMember(row, s.idKey)
		switch i := slices.Index(s.ids, id); {
		case row == nil || id == "":
			stray(k, rowProblem{kind: rowUnnamed})
		case i < 0:
			stray(k, rowProblem{kind: rowUndeclared, id: id})
		case found[i] >= 0:
			stray(k, rowProblem{kind: rowRepeated, id: id, first: found[i]})
		default:
			found[i] = k
		}
	}
	return found
}

// at is the JSON Pointer of row k.
func (s rowSet) at(k int) string { return fmt.Sprintf("/%s/%d", s.key, k) }
