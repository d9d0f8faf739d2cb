package vectors

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/scratch"
)

//go:embed driver.mjs
var driverJS []byte

// Module names of the driver's job, and the package files they load.
var moduleFiles = []struct{ name, file string }{
	{"normalizer", "portable-error-normalizer.mjs"},
	{"guard", "portable-workflow-guard.mjs"},
	{"functionCore", "function-core/index.mjs"},
	{"adapter", "mcp-tool/index.mjs"},
}

// moduleLoad is what became of one module.
type moduleLoad struct {
	file   string
	status string // loaded, absent, failed, timeout, crashed
	detail string
	tools  []string // adapter: the registered Tool names
}

// runner runs calls in node, in a detached copy of the package.
type runner struct {
	root   string // the detached copy
	driver string // the driver file, outside the copy
	// binds are the files outside the copy the driver needs: itself, and
	// the package's real runtime the shim imports for its zod.
	binds       []sandbox.Bind
	timeout     time.Duration
	dryRun      string // the package's dry-run variable
	modules     map[string]string
	load        map[string]*moduleLoad
	loaded      bool // load holds a complete report
	processes   int
	nodeTime    time.Duration // wall time from starting node to its exit, summed
	maxRestarts int
}

// runtimeShim stands in for mcp-tool/runtime.mjs in the detached copy: the
// package's own zod (re-exported from its real runtime, moved aside), and a
// server that records each registerTool instead of serving stdio, so that
// the driver can call the Tool callbacks in its own process.
const runtimeShim = `// code2skill vectors: stands in for mcp-tool/runtime.mjs; the package's
// runtime is %s.
%s
const registry = (globalThis[Symbol.for('code2skill.vectors.adapter')] ??= { tools: new Map() });
registry.z = real.z;
export const z = real.z;
export class McpServer {
  constructor(serverInfo, options) {
    this.serverInfo = serverInfo;
    this.options = options;
  }
  registerTool(name, config, callback) {
    registry.tools.set(name, { config, callback });
    return { enabled: true, enable() {}, disable() {}, update() {}, remove() { registry.tools.delete(name); } };
  }
  async connect() {}
  async close() {}
  isConnected() { return true; }
}
export class StdioServerTransport {
  async start() {}
  async send() {}
  async close() {}
}
`

// detach copies the package into a fresh temporary directory (without
// node_modules) and prepares it for the driver. The caller removes tmp.
func detach(pkg *pkgdir.Package, tmpDir string) (r *runner, tmp string, err error) {
	tmp, err = scratch.Dir(tmpDir, "code2skill-vectors-")
	if err != nil {
		return nil, "", fmt.Errorf("making the detached copy: %w", err)
	}
	defer func() {
		if err != nil {
			scratch.Remove(tmp)
		}
	}()
	root := filepath.Join(tmp, "package")
	if err := pkg.CopyTo(root, pkgdir.CopyOptions{}); err != nil {
		return nil, "", fmt.Errorf("making the detached copy: %w", err)
	}
	r = &runner{root: root, driver: filepath.Join(tmp, "vector-driver.mjs"), modules: map[string]string{}}
	r.binds = []sandbox.Bind{{Source: r.driver}}
	if err := os.WriteFile(r.driver, driverJS, 0o644); err != nil {
		return nil, "", fmt.Errorf("writing the vector driver: %w", err)
	}
	for _, m := range moduleFiles {
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(m.file))); err == nil && fi.Mode().IsRegular() {
			r.modules[m.name] = m.file
		}
	}
	if _, ok := r.modules["adapter"]; ok {
		runtime := filepath.Join(root, "mcp-tool", "runtime.mjs")
		moved := filepath.Join(tmp, "package-runtime.mjs")
		importLine := "const real = {};"
		what := "absent"
		if err := os.Rename(runtime, moved); err == nil {
			u := url.URL{Scheme: "file", Path: filepath.ToSlash(moved)}
			importLine = "import * as real from " + quoteJS(u.String()) + ";"
			what = "imported for its zod"
			r.binds = append(r.binds, sandbox.Bind{Source: moved})
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, "", fmt.Errorf("preparing the detached copy: %w", err)
		}
		if err := os.WriteFile(runtime, fmt.Appendf(nil, runtimeShim, what, importLine), 0o644); err != nil {
			return nil, "", fmt.Errorf("preparing the detached copy: %w", err)
		}
	}
	return r, tmp, nil
}

// quoteJS quotes a string as a JavaScript string literal (JSON's form is
// valid JavaScript).
func quoteJS(s string) string {
	return string(canonjson.DigestForm(canonjson.String(s)))
}

// execute runs the calls, restarting node when the package ends the
// process, and fills in each call's runs. err means node could not be run at
// all (not installed, the driver itself broke) or ctx ended.
func (r *runner) execute(ctx context.Context, calls []*call) error {
	pending := calls
	for restarts := 0; ; restarts++ {
		st, err := r.once(ctx, pending)
		switch {
		case err != nil:
			return err
		case st.done:
			return nil
		case st.loading == "" && !st.loaded:
			return fmt.Errorf("the vector driver stopped before loading the package%s", st.why())
		}
		var culprit string
		if st.inflight != nil {
			outcome := outcomeCrashed
			detail := "the node process ended during this call" + st.why()
			if st.timedOut {
				outcome, detail = outcomeTimeout, fmt.Sprintf("the call did not finish within %s; the node process was stopped", r.timeout)
			}
			st.inflight.runs = []*run{{outcome: outcome, detail: detail}}
			culprit = st.inflight.scope
		}
		// The rest of the capability that ended the process is not run (it
		// would likely end it again); every other capability's calls are.
		var rest []*call
		for _, c := range pending {
			switch {
			case c.runs != nil:
			case culprit != "" && c.scope == culprit:
				c.runs = []*run{{outcome: outcomeNotRun, detail: "not run: an earlier call of " + culprit + " ended the node process"}}
			default:
				rest = append(rest, c)
			}
		}
		pending = rest
		if len(pending) == 0 && r.loaded {
			return nil
		}
		if restarts >= r.maxRestarts {
			for _, c := range pending {
				c.runs = []*run{{outcome: outcomeNotRun, detail: fmt.Sprintf("not run: the package ended the node process %d times", restarts+1)}}
			}
			return nil
		}
	}
}

// onceState is how one node process ended.
type onceState struct {
	done     bool
	loaded   bool   // the process reported its modules loaded
	loading  string // the module being imported when the process ended
	inflight *call
	timedOut bool
	exitCode int
	stderr   string
}

func (s *onceState) why() string {
	var b strings.Builder
	if s.exitCode != 0 {
		fmt.Fprintf(&b, " (exit code %d)", s.exitCode)
	}
	if s.stderr != "" {
		b.WriteString(": ")
		b.WriteString(lastLines(s.stderr, 5))
	}
	return b.String()
}

// slowReader, when set (by tests), wraps the stdout of each node process
// before it is read, to reproduce a reader that drains the pipe slower than
// node writes into it.
var slowReader func(io.Reader) io.Reader

// once runs one node process over calls.
func (r *runner) once(ctx context.Context, calls []*call) (*onceState, error) {
	marker := newMarker()
	job := r.job(marker, calls)
	began := time.Now()
	defer func() { r.nodeTime += time.Since(began) }()
	// The driver and the real runtime live outside the copy, so that the
	// package cannot replace them; a confined child sees them read-only.
	p, err := sandbox.Start([]string{"node", r.driver}, sandbox.Options{Dir: r.root, Binds: r.binds})
	if err != nil {
		return nil, err
	}
	r.processes++
	defer p.Stdout.Close()
	go func() {
		p.Stdin.Write(canonjson.DigestForm(job))
		p.Stdin.Close()
	}()
	lines := make(chan []byte)
	go func() {
		defer close(lines)
		var stdout io.Reader = p.Stdout
		if slowReader != nil {
			stdout = slowReader(stdout)
		}
		br := bufio.NewReaderSize(stdout, 64<<10)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				lines <- line
			}
			if err != nil {
				return
			}
		}
	}()

	byID := make(map[int]*call, len(calls))
	for _, c := range calls {
		byID[c.id] = c
	}
	st := &onceState{}
	callLimit := r.timeout + 2*time.Second
	loadLimit := 2*r.timeout + 10*time.Second
	timer := time.NewTimer(loadLimit)
	defer timer.Stop()
	killed := false
	prefix := []byte(marker)
	for {
		var line []byte
		var ok bool
		select {
		case line, ok = <-lines:
		case <-timer.C:
			if !killed {
				st.timedOut = true
				killed = true
				p.Kill()
			}
			continue
		case <-ctx.Done():
			p.Kill()
			for range lines {
			}
			p.Close(time.Second)
			return nil, ctx.Err()
		}
		if !ok {
			break
		}
		if !bytes.HasPrefix(line, prefix) {
			continue // the package's own output
		}
		v, err := canonjson.Decode(r.sanitize(bytes.TrimSpace(line[len(prefix):])))
		if err != nil {
			continue
		}
		report, _ := v.(*canonjson.Object)
		switch {
		case report.Has("loading"):
			st.loading = str(report.At("loading"))
			timer.Reset(loadLimit)
		case report.Has("load"):
			r.recordLoad(report.At("load"))
			st.loading, st.loaded = "", true
			timer.Reset(callLimit)
		case report.Has("start"):
			st.inflight = byID[intOf(report.At("start"))]
			timer.Reset(callLimit)
		case report.Has("runs"):
			if c := byID[intOf(report.At("id"))]; c != nil {
				runs, _ := report.At("runs").(canonjson.Array)
				for _, rv := range runs {
					ro, _ := rv.(*canonjson.Object)
					c.runs = append(c.runs, decodeRun(ro))
				}
			}
			st.inflight = nil
			timer.Reset(callLimit)
		case report.Has("done"):
			st.done = true
		}
	}
	p.Close(2 * time.Second)
	st.exitCode = p.ExitCode()
	// Node prefixes its warnings with its process ID: leave it out, so that
	// the same failure gives the same evidence.
	st.stderr = nodePID.ReplaceAllString(string(r.sanitize(p.Stderr())), "(node)")
	if !st.done && st.loading != "" {
		// The package ended node while one of its modules was imported:
		// run again without it.
		detail := "importing it ended the node process" + st.why()
		if st.timedOut {
			detail = fmt.Sprintf("importing it did not finish within %s", loadLimit)
		}
		if r.load == nil {
			r.load = map[string]*moduleLoad{}
		}
		r.load[st.loading] = &moduleLoad{file: r.modules[st.loading], status: "crashed", detail: detail}
		delete(r.modules, st.loading)
	}
	return st, nil
}

// job returns the driver's job for calls.
func (r *runner) job(marker string, calls []*call) *canonjson.Object {
	modules := &canonjson.Object{}
	for _, m := range moduleFiles {
		if f, ok := r.modules[m.name]; ok {
			modules.Set(m.name, canonjson.String(f))
		}
	}
	cs := make(canonjson.Array, len(calls))
	for i, c := range calls {
		cs[i] = c.encode()
	}
	o := &canonjson.Object{}
	o.Set("marker", canonjson.String(marker))
	o.Set("root", canonjson.String(filepath.ToSlash(r.root)))
	o.Set("modules", modules)
	o.Set("dryRunVariable", canonjson.String(r.dryRun))
	o.Set("callTimeoutMs", canonjson.Int(int(r.timeout/time.Millisecond)))
	o.Set("calls", cs)
	return o
}

// recordLoad keeps what the first process to load the modules reported;
// modules an earlier process crashed on stay recorded as crashed.
func (r *runner) recordLoad(v canonjson.Value) {
	if r.loaded {
		return
	}
	r.loaded = true
	if r.load == nil {
		r.load = map[string]*moduleLoad{}
	}
	o, _ := v.(*canonjson.Object)
	for _, m := range moduleFiles {
		if prev := r.load[m.name]; prev != nil && prev.status == "crashed" {
			continue
		}
		mo, _ := o.At(m.name).(*canonjson.Object)
		ml := &moduleLoad{file: m.file, status: str(mo.At("status"))}
		if e, ok := mo.At("error").(*canonjson.Object); ok {
			ml.detail = errorText(e)
		}
		if tools, ok := mo.At("tools").(canonjson.Array); ok {
			for _, t := range tools {
				ml.tools = append(ml.tools, str(t))
			}
		}
		r.load[m.name] = ml
	}
}

// sanitize replaces the detached copy's location with "<package>", so that
// no temporary path reaches evidence or reports.
func (r *runner) sanitize(b []byte) []byte {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(r.root)}
	b = bytes.ReplaceAll(b, []byte(u.String()), []byte("<package>"))
	return bytes.ReplaceAll(b, []byte(filepath.ToSlash(r.root)), []byte("<package>"))
}

var nodePID = regexp.MustCompile(`\(node:\d+\)`)

func newMarker() string {
	var b [12]byte
	rand.Read(b[:])
	return "@@code2skill-vectors-" + hex.EncodeToString(b[:]) + "@@"
}

func intOf(v canonjson.Value) int {
	n, _ := v.(canonjson.Number)
	i, _ := n.Int64()
	return int(i)
}

// lastLines returns the last n non-empty lines of s, joined with " | ".
func lastLines(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// errorText renders a described error: "name: message [code]".
func errorText(e *canonjson.Object) string {
	var b strings.Builder
	if n := str(e.At("name")); n != "" {
		b.WriteString(n)
		b.WriteString(": ")
	}
	b.WriteString(str(e.At("message")))
	if c := str(e.At("code")); c != "" {
		fmt.Fprintf(&b, " [%s]", c)
	}
	if b.Len() == 0 {
		return string(canonjson.DigestForm(e))
	}
	return b.String()
}
