package sandbox

// Level summarises how far a child was isolated from the host.
type Level string

// Isolation levels, strongest first.
const (
	// LevelConfined: the child saw only what the sandbox mounted (its
	// working directory, the node installation and system libraries
	// read-only, a private HOME and /tmp, a fresh /proc), ran in a PID
	// namespace of its own, and had no network unless the run asked for it.
	LevelConfined Level = "confined"
	// LevelPartial: network and PID namespaces, but the host's file
	// system was visible to the child. Where a mount namespace could be
	// had, the child got a /proc of its own (fresh, or empty where the
	// kernel refuses a fresh one) and a HOME on a capped tmpfs; where not,
	// the Detail says that it saw the host's processes in /proc.
	LevelPartial Level = "partial"
	// LevelNone: no namespace at all. The environment is still scrubbed,
	// code2skill is not dumpable (its environment cannot be read through
	// /proc) and every descendant is killed at the end, but the child can
	// read and write whatever the user can and reach the network.
	LevelNone Level = "none"
)

// rank orders levels from the weakest (0) up.
func (l Level) rank() int {
	switch l {
	case LevelConfined:
		return 2
	case LevelPartial:
		return 1
	}
	return 0
}

// Isolation describes the isolation a child actually got.
type Isolation struct {
	Level Level `json:"level"`
	// FileSystem: the child saw only the sandbox's mounts.
	FileSystem bool `json:"fileSystem"`
	// NetworkDenied: the child ran in a network namespace of its own with
	// no usable interface.
	NetworkDenied bool `json:"networkDenied"`
	// NetworkAllowed: the run asked for the network (npm install, a
	// business call the user authorised); its absence of a network
	// namespace is then no missing isolation.
	NetworkAllowed bool `json:"networkAllowed"`
	// Processes: the child ran in a PID namespace of its own, so it could
	// signal only its own descendants (and see only them, unless the
	// Detail says it saw the host's /proc).
	Processes bool `json:"pidNamespace"`
	// Detail says what was applied, or why the stronger levels were not
	// possible.
	Detail string `json:"detail"`
}

// Weakest returns the less isolated of a and b; a zero Isolation counts as
// absent.
func Weakest(a, b Isolation) Isolation {
	switch {
	case a.Level == "":
		return b
	case b.Level == "":
		return a
	case b.Level.rank() < a.Level.rank():
		return b
	}
	return a
}

// Missing reports whether the child got less than LevelConfined.
func (i Isolation) Missing() bool { return i.Level != LevelConfined }
