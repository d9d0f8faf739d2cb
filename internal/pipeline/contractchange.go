package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contractdiff"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

// A package is re-finalized only for the interpretation that was reviewed.
// After each finalization the pipeline keeps a copy of the finalized
// contract in the state directory (never in the package). Before the next
// finalization it compares the current contract with that copy
// (internal/contractdiff): when the meaning changed, finalize stops, shows
// the diff and names its digest; it runs again once the run acknowledges
// that digest (--acknowledge-contract-change), and the acknowledgement is
// recorded in the state. Every other stage runs as usual; like any failed
// finalize, the stop puts back the package files the run wrote.

// FinalizedContractFile is the copy of the last finalized contract, in the
// state directory.
const FinalizedContractFile = "finalized/" + contract.ContractFile

// RuleContractChange is the finding of a stopped finalization.
var RuleContractChange = diag.Register("PIPELINE_CONTRACT_CHANGE", diag.Error,
	"the contract means something else than the one last finalized: finalize waits until the run acknowledges the diff's digest (--acknowledge-contract-change)")

// ContractChange is what the state knows of the contract's meaning since
// the last finalization.
type ContractChange struct {
	// Baseline is the SHA-256 of FinalizedContractFile.
	Baseline string `json:"baseline"`
	// Pending is the semantic diff that stopped the last finalize; nil when
	// none did.
	Pending *DiffDigest `json:"pending,omitempty"`
	// Acknowledged are the diffs against the baseline runs acknowledged.
	Acknowledged []Acknowledgement `json:"acknowledged,omitempty"`
}

// DiffDigest identifies a semantic diff and says how large it is.
type DiffDigest struct {
	Digest     string `json:"digest"`
	Breaking   int    `json:"breaking"`
	Compatible int    `json:"compatible"`
}

// Acknowledgement is one acknowledged diff.
type Acknowledgement struct {
	DiffDigest
	At string `json:"at"`
}

// digestPattern is the form of a diff's digest.
var digestPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// checkAcknowledgement refuses an acknowledgement that cannot apply to
// this run.
func checkAcknowledgement(opts RunOptions, selected []string) error {
	switch ack := opts.AcknowledgeContractChange; {
	case ack == "":
		return nil
	case !digestPattern.MatchString(ack):
		return usagef("--acknowledge-contract-change %q: want the 64-digit digest the stopped finalize printed", ack)
	case !slices.Contains(selected, StageFinalize):
		return usagef("--acknowledge-contract-change acknowledges a change for finalize, which this run does not select")
	}
	return nil
}

// contractChanged compares the contract with the last finalized one. It
// returns true when finalize must stop: the meaning changed and the diff
// is not acknowledged (out then holds the finding and the failure).
func (r *runner) contractChanged(in *derive.Inputs, out *stageOutcome) (bool, error) {
	old, err := r.p.finalizedContract()
	if old == nil || err != nil {
		return false, err
	}
	d, err := contractdiff.Compare(old, in.Contract)
	var mismatch *contractdiff.MismatchError
	var dd DiffDigest
	var detail bytes.Buffer
	switch {
	case errors.As(err, &mismatch):
		// Another feature in the same package: all of it changed.
		dd = DiffDigest{Digest: canonjson.Digest(canonjson.Strings([]string{mismatch.Old, mismatch.New})), Breaking: 1}
		fmt.Fprintf(&detail, "%v\n", err)
	case err != nil:
		return false, err
	case !d.Semantic():
		r.contractState().Pending = nil
		return false, nil
	default:
		b, c, _ := d.Counts()
		dd = DiffDigest{Digest: d.Digest(), Breaking: b, Compatible: c}
		if err := d.WriteText(&detail); err != nil {
			return false, err
		}
	}
	cc := r.contractState()
	for _, a := range cc.Acknowledged {
		if a.Digest == dd.Digest {
			cc.Pending = nil
			return false, nil
		}
	}
	if r.opts.AcknowledgeContractChange == dd.Digest {
		cc.Acknowledged = append(cc.Acknowledged, Acknowledgement{DiffDigest: dd, At: r.p.now()})
		cc.Pending = nil
		r.p.progress("pipeline: contract change %s acknowledged", dd.Digest)
		return false, nil
	}
	cc.Pending = &dd
	msg := fmt.Sprintf("the contract means something else than the one last finalized (%d breaking, %d compatible change(s)); review the diff, then run code2skill pipeline run --acknowledge-contract-change %s",
		dd.Breaking, dd.Compatible, dd.Digest)
	if ack := r.opts.AcknowledgeContractChange; ack != "" {
		msg += fmt.Sprintf(" (the digest given, %s, is not this diff's: the contract changed again)", ack)
	}
	out.findings.Add(RuleContractChange.New(contract.ContractFile, "%s", msg).WithDetail(detail.String()))
	out.fail("the contract changed semantically since the last finalization: acknowledge diff %s to finalize it", dd.Digest)
	return true, nil
}

// contractState returns the state's record of contract changes.
func (r *runner) contractState() *ContractChange {
	if r.st.ContractChange == nil {
		r.st.ContractChange = &ContractChange{}
	}
	return r.st.ContractChange
}

// finalizedContract reads the copy of the last finalized contract; nil
// when there is none (the package was never finalized by this pipeline).
func (p *Pipeline) finalizedContract() (*contract.Contract, error) {
	data, err := readRegular(p.statePath(FinalizedContractFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &StateError{FinalizedContractFile, err}
	}
	c, l := contract.DecodeContract(FinalizedContractFile, data)
	if c == nil || l.HasErrors() {
		return nil, &StateError{FinalizedContractFile, errors.New("not a contract code2skill finalized")}
	}
	return c, nil
}

// keepFinalized stages the copy of the contract just finalized: the
// baseline of the next finalization, whose acknowledgements concerned the
// previous one.
func (r *runner) keepFinalized() error {
	data, err := readRegular(r.p.pkgPath(contract.ContractFile))
	if err != nil {
		return err
	}
	r.stage(FinalizedContractFile, data)
	r.st.ContractChange = &ContractChange{Baseline: canonjson.SHA256(data)}
	return nil
}

// contractChangeStep is the next step a pending contract change asks for.
func contractChangeStep(st *State, stateDir string) (string, bool) {
	cc := st.ContractChange
	if cc == nil || cc.Pending == nil {
		return "", false
	}
	return fmt.Sprintf("the contract means something else than the one last finalized (%d breaking, %d compatible change(s)): review the diff (code2skill diff %s/%s <pkg>), explain each breaking change, then run code2skill pipeline run <pkg> --acknowledge-contract-change %s",
		cc.Pending.Breaking, cc.Pending.Compatible, stateDir, FinalizedContractFile, cc.Pending.Digest), true
}

// withContractChange puts the step a pending contract change asks for
// first, in place of the generic step of a failed finalize and of the
// stages its stop put back: the acknowledged run redoes them.
func withContractChange(steps []string, st *State, stateDir string) []string {
	step, ok := contractChangeStep(st, stateDir)
	if !ok {
		return steps
	}
	out := []string{step}
	for _, s := range steps {
		if !strings.HasPrefix(s, "fix "+StageFinalize+" ") && !strings.Contains(s, restoredReason) {
			out = append(out, s)
		}
	}
	return out
}
