package jsmod

import (
	"crypto/sha256"
	"slices"
	"sync"

	"github.com/code2skill/code2skill/internal/diag"
)

// cacheBytes bounds the sources the parse cache keeps.
const cacheBytes = 32 << 20

// parses remembers recent parses by file name and content, so that the
// steps of one run that read the same module (the strict validator, the
// probe, finalize's validator) parse it once: the MCP runtime bundle alone
// is some 700 KB. A Module is read-only once parsed (its lazily computed
// facts are guarded by sync.Once), so callers may share one.
var parses = &parseCache{max: cacheBytes}

type parseKey struct {
	file string
	sum  [sha256.Size]byte
}

type parseResult struct {
	m    *Module
	ds   []diag.Diagnostic
	size int
}

// parseCache is a small least-recently-used cache, bounded by source bytes.
type parseCache struct {
	mu    sync.Mutex
	max   int
	size  int
	order []parseKey // least recently used first
	items map[parseKey]parseResult
}

func (c *parseCache) get(k parseKey) (parseResult, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.items[k]
	if ok {
		c.touch(k)
	}
	return r, ok
}

func (c *parseCache) put(k parseKey, r parseResult) {
	if r.size > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items == nil {
		c.items = map[parseKey]parseResult{}
	}
	if _, ok := c.items[k]; ok {
		c.touch(k)
		return
	}
	for c.size+r.size > c.max && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.size -= c.items[old].size
		delete(c.items, old)
	}
	c.items[k] = r
	c.order = append(c.order, k)
	c.size += r.size
}

// touch moves k to the most recently used end.
func (c *parseCache) touch(k parseKey) {
	if i := slices.Index(c.order, k); i >= 0 {
		c.order = append(slices.Delete(c.order, i, i+1), k)
	}
}

// ForgetParses empties the parse cache, for benchmarks that measure what a
// command pays in a process of its own.
func ForgetParses() {
	parses.mu.Lock()
	defer parses.mu.Unlock()
	parses.items, parses.order, parses.size = nil, nil, 0
}
