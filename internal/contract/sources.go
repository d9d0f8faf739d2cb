package contract

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Sources says where on this machine the topology's authorised sources are,
// for the checks that resolve evidence locators to files. A source named in
// Map lives at that directory; any other source at Base joined with its
// portable root. Nothing is resolved when neither is given: evidence
// resolution is then reported as not checked, never as passed.
type Sources struct {
	Base string            // --source-root: the base of relative source roots; "" when not given
	Map  map[string]string // --source-map ID=PATH: one authorised root per declared source
}

// Given reports whether any source location was given.
func (s Sources) Given() bool { return s.Base != "" || len(s.Map) > 0 }

// IDs returns the mapped source IDs, sorted.
func (s Sources) IDs() []string {
	ids := make([]string, 0, len(s.Map))
	for id := range s.Map {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Dir returns the directory of a topology source on this machine: its
// mapped path, or Base joined with its root. ok is false when the source is
// neither mapped nor resolvable against a Base.
func (s Sources) Dir(src *SourceRoot) (dir string, ok bool) {
	if d, mapped := s.Map[src.ID]; mapped {
		return d, true
	}
	if s.Base == "" {
		return "", false
	}
	return filepath.Join(s.Base, filepath.FromSlash(src.Root)), true
}

// sourceMapID is the form of a source ID in --source-map.
var sourceMapID = regexp.MustCompile(`^[a-z][a-z0-9-]{1,80}$`)

// AddMapping parses one "ID=PATH" mapping and adds it. The ID must have the
// form of a source ID and not be mapped yet; the path must be absolute, so
// that the result does not depend on where the command is run.
func (s *Sources) AddMapping(arg string) error {
	id, path, ok := strings.Cut(arg, "=")
	switch {
	case !ok || id == "" || path == "":
		return fmt.Errorf("source map %q: want ID=PATH", arg)
	case !sourceMapID.MatchString(id):
		return fmt.Errorf("source map %q: ID must be 2 to 81 lower-case letters, digits and hyphens, starting with a letter", arg)
	case !filepath.IsAbs(path):
		return fmt.Errorf("source map %q: PATH must be absolute", arg)
	}
	if _, dup := s.Map[id]; dup {
		return fmt.Errorf("source map %q: %s is mapped twice", arg, id)
	}
	if s.Map == nil {
		s.Map = map[string]string{}
	}
	s.Map[id] = filepath.Clean(path)
	return nil
}
