package skillinstall

// A Location is one skills directory and how each Producer Skill stands
// there.
type Location struct {
	Dir    string
	Scope  Scope
	Agents []string // IDs of the agents that read this directory
	Skills []Installed
}

// Installed is one Skill's status in a Location.
type Installed struct {
	Name   string
	Status Status
}

// Any reports whether any of the Skills is present in the location, in
// whatever version.
func (l Location) Any() bool {
	for _, s := range l.Skills {
		if s.Status != Missing {
			return true
		}
	}
	return false
}

// List compares skills with what is installed in every known agent's
// skills directories: the project's under projectRoot, then the user's
// under home. A directory several agents read appears once, naming them
// all.
func List(skills []Skill, projectRoot, home string) ([]Location, error) {
	var locs []Location
	index := map[string]int{} // directory → position in locs
	for _, scope := range []struct {
		scope Scope
		root  string
	}{{Project, projectRoot}, {Global, home}} {
		for _, a := range Agents {
			dir := a.Dir(scope.scope, scope.root)
			if i, ok := index[dir]; ok {
				locs[i].Agents = append(locs[i].Agents, a.ID)
				continue
			}
			loc := Location{Dir: dir, Scope: scope.scope, Agents: []string{a.ID}}
			for _, s := range skills {
				st, err := s.StatusIn(dir)
				if err != nil {
					return nil, err
				}
				loc.Skills = append(loc.Skills, Installed{Name: s.Name, Status: st})
			}
			index[dir] = len(locs)
			locs = append(locs, loc)
		}
	}
	return locs, nil
}
