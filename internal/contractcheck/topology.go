package contractcheck

import (
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family A: the source topology. Structure checks the authorisation boundary,
// unique source IDs, portable roots and missing sources; resolve.go checks
// the roots on this machine.
var (
	RuleNotSearched = diag.Register("TOPOLOGY_NOT_SEARCHED", diag.Error, "a source the topology declares available was not searched")
)

// topology checks what the topology claims about its sources.
func (k *checker) topology() {
	for _, s := range k.topo.Sources {
		if (s.Availability == "available" || s.Availability == "partially-available") && !s.Searched {
			k.report(RuleNotSearched, contract.TopologyFile, child(s.At, "searched"),
				"source %q is %s but was not searched; search it, or declare what kept it from being searched", s.ID, s.Availability)
		}
	}
}
