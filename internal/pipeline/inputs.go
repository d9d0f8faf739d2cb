package pipeline

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/strict"
	"github.com/code2skill/code2skill/internal/verdict"
)

// Files the stages read from the package.
var (
	// authoringFiles are the Portable Core inputs the author writes.
	authoringFiles = []string{contract.ContractFile, contract.TopologyFile, contract.ExportProfileFile, contract.HostProfileFile}
	// toolDocsFile holds the Tools' authored prose, a compile input.
	toolDocsFile = "authoring/tool-docs.json"
	// documents are the hand-written documents of every documentation
	// language (strict.Documents names those of one): a fingerprint reads
	// them all, so that switching the language changes it too.
	documents = strict.AnyLanguageDocuments()
	// finalFiles are the files finalize writes; they are finalize's
	// output, never another stage's input.
	finalFiles = verdict.FinalFiles
)

// Labels of fingerprint inputs that are not files.
const (
	labelVersion          = "code2skill"
	labelSourceMaps       = "source-maps"
	labelCandidate        = "tree:candidate-without-final-files"
	labelDryRunCases      = "tree:" + DryRunCasesDir
	labelLiveCases        = "tree:" + LiveCasesDir
	labelResults          = "tree:" + ResultsDir
	labelLogs             = "tree:" + LogsDir
	labelVectors          = "tree:" + VectorsDir
	labelLive             = "tree:" + LiveDir
	labelRuntimeEnabled   = "runtime-verify:enabled"
	labelRuntimeWrites    = "runtime-verify:authorized-writes"
	labelRuntimeHost      = "runtime-verify:host"
	labelFilePrefix       = "file:"
	labelDocumentPrefix   = "document:"
	labelSourceTreePrefix = "source:"
)

// inputs returns the fingerprint inputs of a stage, read now: the
// code2skill version and what the stage reads.
func (r *runner) inputs(stg *stage) ([]input, error) {
	in, err := stg.inputs(r)
	return append([]input{{labelVersion, stringDigest(r.p.Version)}}, in...), err
}

// files digests package files.
func (r *runner) files(paths []string) ([]input, error) {
	var out []input
	for _, f := range paths {
		d, err := fileDigest(r.p.pkgPath(f))
		if err != nil {
			return nil, err
		}
		out = append(out, input{labelFilePrefix + f, d})
	}
	return out, nil
}

// documents digests the hand-written documents with their markers
// normalized.
func (r *runner) documents() ([]input, error) {
	var out []input
	for _, f := range documents {
		d, err := documentDigest(r.p.pkgPath(f))
		if err != nil {
			return nil, err
		}
		out = append(out, input{labelDocumentPrefix + f, d})
	}
	return out, nil
}

// cached returns the digest under key, computing it when no stage has
// run since it was last computed.
func (r *runner) cached(key string, compute func() (string, error)) (string, error) {
	if d, ok := r.digests[key]; ok {
		return d, nil
	}
	d, err := compute()
	if err != nil {
		return "", err
	}
	if r.digests == nil {
		r.digests = map[string]string{}
	}
	r.digests[key] = d
	return d, nil
}

// candidate digests the package without its final files.
func (r *runner) candidate() ([]input, error) {
	d, err := r.cached(labelCandidate, func() (string, error) {
		return treeDigest(r.p.abs, nil, func(rel string) bool { return slices.Contains(finalFiles, rel) })
	})
	return []input{{labelCandidate, d}}, err
}

// stateTree digests a directory of the state.
func (r *runner) stateTree(label, rel string) ([]input, error) {
	d, err := r.cached(label, func() (string, error) { return treeDigest(r.p.statePath(rel), nil, nil) })
	return []input{{label, d}}, err
}

// sources digests the source maps and every mapped source tree, leaving
// out the package and the state directory where a source contains them.
func (r *runner) sources() ([]input, error) {
	var lines []string
	var out []input
	for _, id := range sortedKeys(r.st.SourceMaps) {
		dir := r.st.SourceMaps[id]
		lines = append(lines, id+"="+dir)
		d, err := r.cached(labelSourceTreePrefix+id, func() (string, error) {
			return treeDigest(dir, []string{r.p.abs, r.p.stateAbs}, nil)
		})
		if err != nil {
			return nil, err
		}
		out = append(out, input{labelSourceTreePrefix + id, d})
	}
	return append(out, input{labelSourceMaps, stringDigest(strings.Join(lines, "\n"))}), nil
}

// runtimeAuthority digests what this run authorises runtime verification to
// do: that it is enabled, the writes it may call, and where and with what
// environment the host reaches the backend.
func (r *runner) runtimeAuthority() ([]input, error) {
	host, err := r.hostDigest()
	if err != nil {
		return nil, err
	}
	return []input{
		{labelRuntimeEnabled, "true"},
		{labelRuntimeWrites, writesDigest(r.opts.AuthorizeWrites)},
		{labelRuntimeHost, host},
	}, nil
}

func writesDigest(ids []string) string {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	return stringDigest(strings.Join(slices.Compact(sorted), "\n"))
}

// hostDigest digests the origin bindings and the environment the server
// gets. Values are hashed, never stored.
func (r *runner) hostDigest() (string, error) {
	var lines []string
	for _, o := range sortedKeys(r.opts.Origins) {
		lines = append(lines, "origin "+o+"="+r.opts.Origins[o])
	}
	env, err := r.serverEnv()
	if err != nil {
		return "", err
	}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		lines = append(lines, "env "+k+"="+stringDigest(v))
	}
	return stringDigest(strings.Join(lines, "\n")), nil
}
