package contract

import (
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// Inputs are the decoded Portable Core inputs of a package: what derive
// derives views from and check-contract judges.
type Inputs struct {
	Contract *Contract
	Topology *Topology
	Host     *HostProfile
	// Export is optional: no view depends on it. check-contract judges it.
	Export *ExportProfile

	// Deferred holds what reading the inputs noticed that does not keep
	// views from being derived: the export profile's findings, and format
	// findings of the other inputs that views do not depend on. derive does
	// not report them; check-contract does.
	Deferred diag.List
}

// Root returns the decoded document of one of the input files, or nil when
// it is absent or unreadable.
func (in *Inputs) Root(file string) canonjson.Value {
	var o *canonjson.Object
	switch file {
	case ContractFile:
		if in.Contract != nil {
			o = in.Contract.Raw
		}
	case TopologyFile:
		if in.Topology != nil {
			o = in.Topology.Raw
		}
	case HostProfileFile:
		if in.Host != nil {
			o = in.Host.Raw
		}
	case ExportProfileFile:
		if in.Export != nil {
			o = in.Export.Raw
		}
	}
	if o == nil {
		return nil
	}
	return o
}
