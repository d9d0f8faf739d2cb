package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// InitOptions are the flags of init.
type InitOptions struct {
	// SourceMaps locate declared sources on this machine (source ID to
	// absolute directory); they are merged into the stored ones.
	SourceMaps map[string]string
	// AcknowledgeMigration accepts that a package found in migrate mode is
	// migrated by the pipeline.
	AcknowledgeMigration bool
}

// ModeSummary is mode-summary.json: what init found in the package.
type ModeSummary struct {
	Mode string `json:"mode"`
	// Files lists every file of a package to migrate, with its SHA-256.
	Files []FileHash `json:"files,omitempty"`
	// RequiredActions are what a migration needs before the pipeline can
	// run.
	RequiredActions []string `json:"requiredActions,omitempty"`
	// Added, Removed, Changed and Unchanged compare the contract's
	// capabilities with those the pipeline last analyzed (changed-only).
	Added     []string `json:"added,omitempty"`
	Removed   []string `json:"removed,omitempty"`
	Changed   []string `json:"changed,omitempty"`
	Unchanged []string `json:"unchanged,omitempty"`
	NextSteps []string `json:"nextSteps"`
}

// FileHash is a file of the package and its SHA-256.
type FileHash struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// InitResult is what init found and recorded.
type InitResult struct {
	Mode    string
	Summary *ModeSummary
	// Created is true when init created the (fresh) package directory.
	Created bool
	// MigrationAcknowledged is the stored acknowledgement.
	MigrationAcknowledged bool
}

// Init detects how the package starts (fresh, changed-only or migrate),
// records it in the state with the source maps, and writes
// mode-summary.json. It never modifies a file of the package; for a fresh
// package it creates the (empty) directory.
func (p *Pipeline) Init(opts InitOptions) (*InitResult, error) {
	if err := p.resolve(); err != nil {
		return nil, err
	}
	if prof := pkgdir.DetectProfile(p.Dir); prof == pkgdir.ProfileCore {
		return nil, usagef("%s is a %s package; the pipeline runs the strict flow (strict-export-v1) only", p.Dir, pkgdir.ProfileCore)
	}
	for id, dir := range opts.SourceMaps {
		abs, err := absolute(dir)
		if err != nil {
			return nil, err
		}
		if within(abs, p.stateAbs) {
			return nil, usagef("source %s maps to the state directory; map the source's own root", id)
		}
	}
	res := &InitResult{}
	empty, exists, err := pkgdir.IsEmptyDir(p.Dir)
	if err != nil {
		return nil, err
	}
	switch {
	case !exists || empty:
		res.Mode = ModeFresh
		if !exists {
			if err := os.MkdirAll(p.Dir, 0o755); err != nil {
				return nil, err
			}
			res.Created = true
			if err := p.resolve(); err != nil { // the package now exists: resolve its real path
				return nil, err
			}
		}
	case fileExists(p.pkgPath(contract.ContractFile)):
		res.Mode = ModeChangedOnly
	default:
		res.Mode = ModeMigrate
	}

	unlock, err := p.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	st, err := readState(p.stateAbs)
	switch {
	case errors.Is(err, errNoState):
		st = newState(p.FeatureID(), relPath(p.stateAbs, p.abs), p.now())
	case err != nil:
		return nil, err
	default:
		if want := relPath(p.stateAbs, p.abs); st.CandidateDir != want {
			return nil, usagef("the state directory %s belongs to the package %s; use another --state-dir", p.StateDir, st.CandidateDir)
		}
	}
	recoverInterrupted(st)
	for id, dir := range opts.SourceMaps {
		st.SourceMaps[id] = dir
	}
	caps, err := p.capabilityDigests()
	if err != nil {
		return nil, err
	}
	sum := &ModeSummary{Mode: res.Mode, NextSteps: []string{}}
	switch res.Mode {
	case ModeFresh:
		sum.NextSteps = []string{
			"author source-topology.json, canonical-contract.json, export-profile.json, host-profile.json and authoring/tool-docs.json",
			"write SKILL.md, MCP.<documentationLanguage>.md (MCP.zh-CN.md, MCP.en.md), MCP-SETUP.md and references/feature-context.md",
			"run code2skill pipeline run",
		}
	case ModeChangedOnly:
		diffCapabilities(st.Capabilities, caps, sum)
		sum.NextSteps = []string{"run code2skill pipeline run: only the stages whose inputs changed run again"}
	case ModeMigrate:
		if err := p.migration(sum); err != nil {
			return nil, err
		}
		if opts.AcknowledgeMigration {
			sum.NextSteps = append(sum.NextSteps, "run code2skill pipeline run")
		} else {
			sum.NextSteps = append(sum.NextSteps, "review mode-summary.json, then run code2skill pipeline init --acknowledge-migration")
		}
	}
	if len(st.Capabilities) == 0 {
		st.Capabilities = caps // first sight
	}
	st.Mode = res.Mode
	st.ModeSummary = sum
	st.MigrationAcknowledged = res.Mode == ModeMigrate && (opts.AcknowledgeMigration || st.MigrationAcknowledged)
	st.UpdatedAt = p.now()
	data, err := stateBytes(sum)
	if err != nil {
		return nil, err
	}
	if err := writeStateFile(p.statePath(ModeSummaryFile), data); err != nil {
		return nil, err
	}
	if err := writeState(p.stateAbs, st); err != nil {
		return nil, err
	}
	res.Summary, res.MigrationAcknowledged = sum, st.MigrationAcknowledged
	return res, nil
}

// migration lists the files of a package made before the Portable Core
// and what must change before the pipeline can run it.
func (p *Pipeline) migration(sum *ModeSummary) error {
	pkg, _, err := pkgdir.Open(p.abs)
	if err != nil {
		return err
	}
	if pkg != nil {
		for _, f := range pkg.Files() {
			d, err := fileDigest(p.pkgPath(f.Path))
			if err != nil {
				return err
			}
			sum.Files = append(sum.Files, FileHash{Path: f.Path, SHA256: d})
		}
	}
	sum.RequiredActions = []string{
		"author canonical-contract.json (the single business authority), source-topology.json and host-profile.json",
	}
	if fileExists(p.pkgPath("PAGE.md")) {
		sum.RequiredActions = append(sum.RequiredActions, "move PAGE.md's background into references/feature-context.md and remove PAGE.md")
	}
	if fileExists(p.pkgPath("workflow.json")) {
		sum.RequiredActions = append(sum.RequiredActions, "express workflow.json's hard workflows in canonical-contract.json and remove workflow.json")
	}
	if data, err := readRegular(p.pkgPath(contract.ExportProfileFile)); err == nil {
		if doc, err := canonjson.Decode(data); err == nil {
			if o, ok := doc.(*canonjson.Object); ok && o.Has("pageRoute") {
				sum.RequiredActions = append(sum.RequiredActions, "replace pageRoute in export-profile.json with featureSurface")
			}
		}
	}
	return nil
}

// capabilityDigests returns the digest of every capability of the
// contract in canonical form, keyed by ID; none when the contract is absent or unreadable (analyze
// reports why).
func (p *Pipeline) capabilityDigests() (map[string]string, error) {
	out := map[string]string{}
	data, err := readRegular(p.pkgPath(contract.ContractFile))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, pkgdir.ErrNotRegular) || errors.Is(err, pkgdir.ErrTooLarge) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", contract.ContractFile, err)
	}
	doc, err := canonjson.Decode(data)
	if err != nil {
		return out, nil
	}
	return capabilityDigestsOf(doc), nil
}

// capabilityDigestsOf returns the digest of each capability of a decoded
// contract document, by capability ID.
func capabilityDigestsOf(doc canonjson.Value) map[string]string {
	out := map[string]string{}
	if doc == nil {
		return out
	}
	// The canonical form: a capability whose sets were merely reordered
	// is unchanged.
	doc, _ = contract.CanonicalDocument(doc)
	caps, _ := canonjson.Resolve(doc, "/capabilities")
	arr, _ := caps.(canonjson.Array)
	for _, c := range arr {
		o, ok := c.(*canonjson.Object)
		if !ok {
			continue
		}
		if id, ok := o.Get("capabilityId"); ok {
			if s, ok := id.(canonjson.String); ok {
				out[string(s)] = canonjson.Digest(o)
			}
		}
	}
	return out
}

// diffCapabilities compares the capabilities last analyzed with the
// current ones.
func diffCapabilities(before, now map[string]string, sum *ModeSummary) {
	for _, id := range sortedKeys(now) {
		switch old, ok := before[id]; {
		case !ok:
			sum.Added = append(sum.Added, id)
		case old != now[id]:
			sum.Changed = append(sum.Changed, id)
		default:
			sum.Unchanged = append(sum.Unchanged, id)
		}
	}
	for _, id := range sortedKeys(before) {
		if _, ok := now[id]; !ok {
			sum.Removed = append(sum.Removed, id)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
