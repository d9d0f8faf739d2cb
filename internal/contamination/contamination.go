// Package contamination keeps private material out of a package: the gate
// finalize passes before it approves anything, and that the final
// validation runs again itself rather than trusting a manifest's
// "sanitized: true". A package carries generic, portable facts; it must
// not carry credentials, paths of the machine it was made on, private
// hosts, or anything the authorised sources keep private.
//
// Always checked, in every file of the package (and in any JSON value a
// caller is about to copy into it):
//
//   - files that hold secrets by convention (.env, private keys, keystores,
//     credentials.json);
//   - credentials in text, as internal/credential finds them (the judge
//     the pipeline's sanitiser and finalize's live-evidence gate ask too):
//     private key blocks, cloud and platform tokens, JSON Web Tokens,
//     bearer tokens, basic authentication, cookie values, passwords,
//     secret keys and API keys assigned to a value, quoted or not
//     (aws_secret_access_key = …, password=…), URLs with a password;
//   - home-directory paths (/home/<user>/, /Users/<user>/, C:\Users\…,
//     ~/…, $HOME/…, %USERPROFILE%\…), file:// URIs, absolute paths under
//     temporary, mount, installation and state directories (/tmp, /mnt,
//     /opt, /var/lib, /var/run, /var/log …), and the absolute paths of this
//     machine the caller names (the package directory, the working
//     directory, source roots);
//   - private network addresses and internal host names (.internal, .corp,
//     .local …) other than the contract's declared origins, in URLs and
//     written bare (hidden.go), and credentials hidden by zero-width or
//     full-width characters or base64.
//
// Checked when the authorised sources are located (--source-root,
// --source-map), against what those sources contain:
//
//   - the literals the sources keep secret (see sourceSecret): a constant
//     the source names or marks as a secret, key, password or private
//     value — wherever the package repeats it, code included;
//   - host names from the sources the contract does not declare;
//   - source file paths the contract's evidence locators do not cite;
//   - in the package's documents (Markdown and authoring/ files),
//     compound names ("orderLineItems", "order_line_items") that are
//     private names of the sources and appear nowhere in the contract.
//
// A name is a private name of a source only when the source uses it as its
// own. Names a source merely refers to are public: those of its tool
// metadata (ignore files and lockfiles, which list build tools, caches and
// third-party packages), and those it cites (a name inside a URL is the
// linked document's; a line citing a public specification by its
// identifier — RFC 9457, ISO 8601, ECMA-262, W3C, WHATWG, IETF, "the …
// specification" — uses that specification's names). A name the source
// also uses in its own code or prose stays private. Names in code2skill's
// own runtime assets and the package's bundled MCP runtime are generic.
// Single-word business names cannot be told apart from ordinary words and
// are not detected. docs/contamination.md says the same for users.
//
// Findings name what was found without repeating a credential or a secret.
package contamination

import (
	"bytes"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/anchored"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// Rules of the contamination gate.
var (
	RuleSecretFile       = diag.Register("CONTAMINATION_SECRET_FILE", diag.Error, "the package holds a file that conventionally holds secrets (.env, private key, keystore, credentials.json)")
	RuleCredential       = diag.Register("CONTAMINATION_CREDENTIAL", diag.Error, "text looks like a credential: a private key, token, API key, password, cookie value or URL with a password")
	RuleHomePath         = diag.Register("CONTAMINATION_HOME_PATH", diag.Error, "text holds a home-directory path (/home/<user>/, /Users/<user>/, C:\\Users\\…)")
	RuleMachinePath      = diag.Register("CONTAMINATION_MACHINE_PATH", diag.Error, "text holds an absolute path of a machine: a file:// URI, a temporary or mount path, or a directory of this machine")
	RulePrivateHost      = diag.Register("CONTAMINATION_PRIVATE_HOST", diag.Error, "text names a private network address or internal host the contract does not declare")
	RuleSourceHost       = diag.Register("CONTAMINATION_SOURCE_HOST", diag.Error, "text names a host from the authorised sources that the contract does not declare")
	RuleSourceFile       = diag.Register("CONTAMINATION_SOURCE_FILE", diag.Error, "text names a source file path that the contract's evidence does not cite")
	RuleSourceName       = diag.Register("CONTAMINATION_SOURCE_NAME", diag.Error, "a document uses a compound name from the authorised sources that the contract does not declare")
	RuleSourceSecret     = diag.Register("CONTAMINATION_SOURCE_SECRET", diag.Error, "text repeats a literal the authorised sources keep secret: a constant the source names or marks as a secret, key, password or private value")
	RuleSourceUnreadable = diag.Register("CONTAMINATION_SOURCE_UNREADABLE", diag.Warning, "an authorised source could not be scanned in full; the source-derived checks are incomplete")
)

// Options say what a package may contain.
type Options struct {
	Contract *contract.Contract
	// Export is optional; its allowedRuntimeOrigins are declared hosts.
	Export *contract.ExportProfile
	// Topology and Sources locate the authorised sources. Without a
	// location, the source-derived checks do not run.
	Topology *contract.Topology
	Sources  contract.Sources
	// MachinePaths are absolute paths of this machine that must not
	// appear: the package directory, the working directory and the like.
	MachinePaths []string
}

// Scanner checks text against what a package may contain.
type Scanner struct {
	declaredHosts map[string]bool
	declaredPaths map[string]bool // evidence locator paths
	contractNames map[string]bool
	generic       map[string]bool // names of code2skill's assets and the bundled runtime
	genericHosts  map[string]bool
	// contractHosts are the hosts of URLs anywhere in the contract (an
	// output's description naming the public avatar service its values
	// link to): declared for the source-host rule, not for the private-host
	// one.
	contractHosts map[string]bool
	machine       []string
	src           *sourceFacts // nil without located sources
	packagePaths  map[string]bool
}

// NewScanner prepares a scan. When sources are located it reads them
// (bounded); the findings say what could not be read.
func NewScanner(opts Options) (*Scanner, []diag.Diagnostic) {
	s := &Scanner{
		declaredHosts: map[string]bool{},
		declaredPaths: map[string]bool{},
		contractNames: map[string]bool{},
		generic:       map[string]bool{},
		genericHosts:  map[string]bool{},
		contractHosts: map[string]bool{},
		packagePaths:  map[string]bool{},
	}
	if c := opts.Contract; c != nil {
		for i := range c.Capabilities {
			for _, st := range c.Capabilities[i].Implementation.Steps {
				s.declareURL(st.URL)
			}
		}
		for _, e := range c.EvidenceCatalog {
			p := e.Locator
			if i := strings.IndexByte(p, '#'); i >= 0 {
				p = p[:i]
			}
			if i := strings.IndexByte(p, ':'); i >= 0 {
				p = p[:i]
			}
			s.declaredPaths[p] = true
		}
	}
	if e := opts.Export; e != nil {
		for _, o := range e.AllowedRuntimeOrigins {
			s.declareURL(o)
		}
	}
	for _, p := range opts.MachinePaths {
		if strings.Count(strings.Trim(p, "/"), "/") >= 1 && !slices.Contains(s.machine, p) {
			s.machine = append(s.machine, p)
		}
	}
	var ds []diag.Diagnostic
	if opts.Topology != nil && opts.Sources.Given() {
		// The names a package may use are needed only to judge names
		// from the sources.
		if opts.Contract != nil {
			valueCompounds(opts.Contract.Raw, s.contractNames)
			valueStrings(opts.Contract.Raw, "", func(_, str string) {
				for _, loc := range anchored.NewText([]byte(str)).FindAll(urlHost) {
					s.contractHosts[strings.ToLower(str[loc[2]:loc[3]])] = true
				}
			})
		}
		for _, a := range assets.Runtime() {
			s.addGeneric(a.Bytes())
		}
		s.src, ds = readSources(opts.Topology, opts.Sources)
		for _, r := range s.src.roots {
			if !slices.Contains(s.machine, r) {
				s.machine = append(s.machine, r)
			}
		}
	}
	// Longest first, so that a path inside another is reported as itself.
	slices.SortFunc(s.machine, func(a, b string) int { return len(b) - len(a) })
	return s, ds
}

// MachinePaths are the absolute paths of this machine a package must not
// name: the package directory as given (dir) and resolved (real), the
// working directory and the home directory.
func MachinePaths(dir, real string) []string {
	out := []string{real}
	if abs, err := filepath.Abs(dir); err == nil {
		out = append(out, abs)
	}
	if wd, err := os.Getwd(); err == nil {
		out = append(out, wd)
	}
	if home, err := os.UserHomeDir(); err == nil {
		out = append(out, home)
	}
	return out
}

func (s *Scanner) declareURL(raw string) {
	if u, err := url.Parse(raw); err == nil && u.Hostname() != "" {
		s.declaredHosts[strings.ToLower(u.Hostname())] = true
	}
}

func (s *Scanner) addGeneric(text []byte) {
	compounds(text, s.generic)
	for _, loc := range anchored.NewText(text).FindAll(urlHost) {
		s.genericHosts[strings.ToLower(string(text[loc[2]:loc[3]]))] = true
	}
}

// SourcesScanned returns the IDs of the sources the scan read, in topology
// order; nil when no source was located.
func (s *Scanner) SourcesScanned() []string {
	if s.src == nil {
		return nil
	}
	return s.src.scanned
}

// RuntimeBundle is the package's bundled MCP runtime: third-party code
// whose names and hosts are generic.
const RuntimeBundle = "mcp-tool/runtime.mjs"

// ScanPackage scans every file of the package except those skip names. err
// is for files that cannot be read.
func (s *Scanner) ScanPackage(pkg *pkgdir.Package, skip func(rel string) bool) ([]diag.Diagnostic, error) {
	var paths []string
	for _, f := range pkg.Files() {
		paths = append(paths, f.Path)
	}
	s.SetPackagePaths(paths)
	if pkg.Has(RuntimeBundle) {
		data, err := pkg.ReadFile(RuntimeBundle)
		if err != nil {
			return nil, err
		}
		s.UseRuntimeBundle(data)
	}
	var out []diag.Diagnostic
	for _, f := range pkg.Files() {
		if skip != nil && skip(f.Path) {
			continue
		}
		data, err := pkg.ReadFile(f.Path)
		if err != nil {
			return nil, err
		}
		out = append(out, s.ScanFile(f.Path, data)...)
	}
	return out, nil
}

// SetPackagePaths tells the scanner the paths of the package's files: a
// source path that is also a path of the package is the package's own.
// ScanPackage sets them; callers that scan file by file set them first.
func (s *Scanner) SetPackagePaths(paths []string) {
	for _, p := range paths {
		s.packagePaths[p] = true
	}
}

// UseRuntimeBundle tells the scanner the content of the package's bundled
// MCP runtime (RuntimeBundle), whose names and hosts are generic.
// ScanPackage does it; callers that scan file by file do it first.
func (s *Scanner) UseRuntimeBundle(data []byte) {
	if s.src != nil {
		s.addGeneric(data)
	}
}

// ScanFile scans one package file: its name, and its text unless it is
// binary.
func (s *Scanner) ScanFile(rel string, data []byte) []diag.Diagnostic {
	var out []diag.Diagnostic
	if why := secretFile(rel); why != "" {
		out = append(out, RuleSecretFile.New(rel, "%s is %s; keep secrets out of the package", path.Base(rel), why))
	}
	if bytes.IndexByte(data, 0) >= 0 || reviewedAsset(data) {
		return out // binary, or code2skill's own reviewed asset: no text of the package's to scan
	}
	return append(out, s.ScanText(rel, data, isDocument(rel))...)
}

// reviewedAsset reports whether data is, byte for byte, one of the runtime
// assets code2skill ships (the bundled MCP runtime included): fixed text
// that carries nothing of a machine or a source, which every package may
// hold and which would otherwise be scanned again in every package.
func reviewedAsset(data []byte) bool {
	for _, a := range append(assets.Runtime(), assets.MCPRuntime) {
		if a.Matches(data) {
			return true
		}
	}
	return false
}

// isDocument reports whether a package file is prose an author wrote, where
// source names must not leak: Markdown, and the authoring inputs.
func isDocument(rel string) bool {
	return path.Ext(rel) == ".md" || strings.HasPrefix(rel, "authoring/")
}

// ScanText scans one text file. docs says whether the file is a document,
// where compound source names are checked as well.
func (s *Scanner) ScanText(file string, data []byte, docs bool) []diag.Diagnostic {
	var out []diag.Diagnostic
	var lines []int
	for _, m := range s.scan(data, docs, docs || proseFile(file)) {
		if lines == nil {
			lines = lineStarts(data)
		}
		line, col := position(lines, m.Offset)
		out = append(out, m.Rule.New(file, "%s", message(m)).At(line, col))
	}
	return out
}

// ScanValue scans every key and string of a JSON value that is about to be
// copied into the package; findings point into file.
func (s *Scanner) ScanValue(file string, v canonjson.Value) []diag.Diagnostic {
	// One scan over all the strings, each on a line of its own, costs far
	// less than one scan per string; offsets map back to pointers.
	var text []byte
	var starts []int
	var pointers []string
	valueStrings(v, "", func(at, str string) {
		starts = append(starts, len(text))
		pointers = append(pointers, at)
		text = append(text, str...)
		text = append(text, '\n')
	})
	var out []diag.Diagnostic
	for _, m := range s.scan(text, false, true) {
		i, found := slices.BinarySearch(starts, m.Offset)
		if !found {
			i--
		}
		out = append(out, m.Rule.New(file, "%s", message(m)).AtPointer(pointers[i]))
	}
	return out
}

func message(m match) string {
	switch m.Rule {
	case RuleSourceName, RuleSourceFile:
		return m.What + "; name only what the contract declares"
	case RuleSourceHost:
		return m.What + "; name only hosts the contract declares (a step URL, or a public host an output's description names)"
	case RulePrivateHost:
		return m.What + "; only the contract's declared origins may appear"
	}
	return m.What + "; a package must not carry it"
}

// pathTokens calls f with the bounds of every slash-separated relative path
// of text: runs of letters, digits, "_", ".", "@", "-" and "/" that hold a
// "/" between two names.
func pathTokens(text []byte, f func(start, end int)) {
	isPath := func(c byte) bool {
		return isLetter(c) || isDigit(c) || c == '_' || c == '.' || c == '@' || c == '-' || c == '/'
	}
	for i := 0; i < len(text); {
		if !isPath(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isPath(text[j]) {
			j++
		}
		start, end := i, j
		for start < end && text[start] == '/' {
			start++
		}
		for end > start && text[end-1] == '/' {
			end--
		}
		if tok := text[start:end]; bytes.IndexByte(tok, '/') > 0 && !bytes.Contains(tok, []byte("//")) {
			f(start, end)
		}
		i = j
	}
}

// scan returns the matches in data, in offset order, without duplicates:
// docs says data is a document (compound source names are checked), prose
// that it is no code (bare internal host names are).
func (s *Scanner) scan(data []byte, docs, prose bool) []match {
	t := anchored.NewText(data)
	ms := credentials(data)
	ms = append(ms, hiddenCredentials(data, ms)...)
	ms = append(ms, bareAddresses(data, t, prose, s.declaredHosts)...)
	ms = append(ms, run(pathDetectors, t)...)
	for _, p := range s.machine {
		for off := 0; ; {
			i := bytes.Index(data[off:], []byte(p))
			if i < 0 {
				break
			}
			at := off + i
			end := at + len(p)
			if end == len(data) || !isPathByte(data[end]) || data[end] == '/' {
				ms = append(ms, match{Rule: RuleMachinePath, Offset: at, Len: len(p), What: "a directory of this machine (" + p + ")"})
			}
			off = end
		}
	}
	for _, loc := range t.FindAll(urlHost) {
		host := strings.ToLower(string(data[loc[2]:loc[3]]))
		switch {
		case s.declaredHosts[host]:
		case isPrivateHost(host):
			ms = append(ms, match{Rule: RulePrivateHost, Offset: loc[2], Len: loc[3] - loc[2], What: "the private host " + host})
		case s.src != nil && s.src.hosts[host] && !s.genericHosts[host] && !s.contractHosts[host]:
			ms = append(ms, match{Rule: RuleSourceHost, Offset: loc[2], Len: loc[3] - loc[2], What: "the source host " + host})
		}
	}
	if s.src != nil {
		for _, sec := range s.src.secrets {
			for off := 0; ; {
				i := bytes.Index(data[off:], []byte(sec.value))
				if i < 0 {
					break
				}
				ms = append(ms, match{Rule: RuleSourceSecret, Offset: off + i, Len: len(sec.value), What: sec.describe()})
				off += i + len(sec.value)
			}
		}
		pathTokens(data, func(start, end int) {
			if p := s.sourcePath(string(data[start:end])); p != "" {
				ms = append(ms, match{Rule: RuleSourceFile, Offset: start, Len: end - start, What: "the source file path " + p})
			}
		})
		if docs {
			identifiers(data, func(start, end int) {
				tok := data[start:end]
				if !mayBeCompound(tok) {
					return
				}
				c := compound(string(tok))
				if c != "" && s.src.names[c] && !s.contractNames[c] && !s.generic[c] && !publicNames[c] {
					ms = append(ms, match{Rule: RuleSourceName, Offset: start, Len: end - start, What: "the source name " + string(tok)})
				}
			})
		}
	}
	// A name inside a reported path or host is the same leak, and so is a
	// machine path inside a reported file URI.
	ms = slices.DeleteFunc(ms, func(m match) bool {
		return slices.ContainsFunc(ms, func(o match) bool {
			inside := o.Offset <= m.Offset && m.Offset+m.Len <= o.Offset+o.Len && o.Len > m.Len
			return m.Rule == RuleSourceName && o.Rule != RuleSourceName && o.Offset <= m.Offset && m.Offset < o.Offset+o.Len ||
				m.Rule == RuleMachinePath && o.Rule == RuleMachinePath && inside
		})
	})
	slices.SortFunc(ms, func(a, b match) int { return a.Offset - b.Offset })
	return slices.CompactFunc(ms, func(a, b match) bool { return a.Rule == b.Rule && a.Offset == b.Offset })
}

// sourcePath returns the source file path tok names (tok itself or a
// trailing part of it of two or more components) when the contract does not
// cite it and it is not a path of the package itself; else "".
func (s *Scanner) sourcePath(tok string) string {
	for p := tok; strings.Contains(p, "/"); p = p[strings.IndexByte(p, '/')+1:] {
		if s.src.paths[p] {
			if s.declaredPaths[p] || s.declaredPaths[tok] || s.packagePaths[p] || cited(s.declaredPaths, p) {
				return ""
			}
			return p
		}
	}
	return ""
}

// cited reports whether some declared locator path ends with p.
func cited(declared map[string]bool, p string) bool {
	for d := range declared {
		if strings.HasSuffix(d, "/"+p) || d == p {
			return true
		}
	}
	return false
}

func isPathByte(c byte) bool {
	return c == '/' || c == '.' || c == '_' || c == '-' || c == '~' ||
		(c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// lineStarts returns the offset of each line's first byte.
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// position converts a byte offset to a 1-based line and column (in bytes).
func position(starts []int, off int) (line, col int) {
	i, found := slices.BinarySearch(starts, off)
	if !found {
		i--
	}
	return i + 1, off - starts[i] + 1
}
