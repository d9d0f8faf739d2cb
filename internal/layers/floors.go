// Package layers holds, as data, the floors code2skill's packages stand on
// and checks a source tree against them:
//
//   - a package may import a package of the module on its own floor or on a
//     floor below, never one above, so that dependencies point downwards
//     (Go already forbids cycles);
//   - the test-support packages (golden files, the pinned node, reference
//     packages) are imported only by tests and by each other;
//   - only internal/sandbox starts child processes: no other package's code
//     imports os/exec or calls os.StartProcess, syscall's or x/sys/unix's
//     fork and exec, except the few named as exceptions, each with its
//     reason;
//   - only internal/canonjson reads JSON text: no other package's code uses
//     encoding/json's decoding (Unmarshal, a Decoder, Valid, Compact,
//     Indent), except code that is compiled outside code2skill (the sample
//     applications, the reviewed Go asset packages carry, the recorder
//     compiled into a package's server), each named with its reason.
//
// Every package of the module must stand on exactly one floor, so that a
// new package is placed deliberately. Test files (_test.go) may import
// anything: nothing imports a test. docs/layout.md describes
// the same floors, from the top down.
package layers

// Rules are the floors and the process rule a tree is checked against.
type Rules struct {
	// Floors lists the floors from the bottom up: a package may import the
	// packages of its own floor and of every floor before it.
	Floors []Floor
	// TestSupport lists the packages only tests import. They may import
	// any package; no package but another of them may import one.
	TestSupport []string
	// ProcessStarter is the one package whose code starts child processes.
	ProcessStarter string
	// ProcessExceptions lists the other packages whose non-test code may
	// use os/exec, each with the reason.
	ProcessExceptions map[string]string
	// JSONCodec is the one package whose code decodes JSON with
	// encoding/json; the others go through it.
	JSONCodec string
	// JSONExceptions lists the other packages, or single files, whose
	// non-test code may decode JSON with encoding/json, each with the
	// reason.
	JSONExceptions map[string]string
}

// A Floor is a set of packages, named by their import path relative to the
// module ("internal/sandbox", "" for the module's root package).
type Floor struct {
	Name     string
	Packages []string
}

// Code2skill is code2skill's own house.
var Code2skill = Rules{
	Floors:            floors,
	TestSupport:       testSupport,
	ProcessStarter:    "internal/sandbox",
	ProcessExceptions: processExceptions,
	JSONCodec:         "internal/canonjson",
	JSONExceptions:    jsonExceptions,
}

var floors = []Floor{
	{
		// Embedded files and the fictional sample application; they import
		// nothing of code2skill.
		Name: "embedded data",
		Packages: []string{
			"", // the Producer Skills
			"assets",
			"assets/gocore/agentresult", // the reviewed Go asset; it imports the Go MCP SDK only
			"examples",
			"examples/equipment-lending/app/client",
			"examples/equipment-lending/app/server",
			"examples/notice-comments/app/server",
		},
	},
	{
		// Knows nothing of packages or contracts: findings, the JSON codec,
		// the Markdown scanner, safe file primitives.
		Name: "foundation",
		Packages: []string{
			"internal/anchored",
			"internal/atomicfile",
			"internal/buildinfo",
			"internal/canonjson",
			"internal/diag",
			"internal/endpoint",
			"internal/markdown",
			"internal/nofollow",
			"internal/scratch",
			"internal/spelling",
			"internal/symbol",
		},
	},
	{
		// A package on disk and the processes that run on it.
		Name: "system",
		Packages: []string{
			"internal/gitrev",
			"internal/npm",
			"internal/owned",
			"internal/pkgdir",
			"internal/sandbox",
		},
	},
	{
		// The documents code2skill reads and writes, and the static facts it
		// draws from them: no judgement of a whole package.
		Name: "formats and facts",
		Packages: []string{
			"internal/assetcopy",
			"internal/attest",
			"internal/condition",
			"internal/contract",
			"internal/credential",
			"internal/goalstate",
			"internal/jsmod",
			"internal/jsonschema",
			"internal/mcpruntime",
			"internal/portableschema",
			"internal/sample",
			"internal/sarif",
			"internal/skillmd",
			"internal/toolresult",
		},
	},
	{
		// Rules over a contract or a package, the generator, and MCP sessions
		// with a package's server.
		Name: "checks and sessions",
		Packages: []string{
			"internal/compile",
			"internal/contamination",
			"internal/contractcheck",
			"internal/contractdiff",
			"internal/derive",
			"internal/finalcheck",
			"internal/hostruntime",
			"internal/mcpcheck",
			"internal/reach",
			"internal/strictjs",
			"internal/tsclient",
			"internal/verdict",
		},
	},
	{
		// What one command does, end to end.
		Name: "commands",
		Packages: []string{
			"internal/core",
			"internal/finalize",
			"internal/hostverify",
			"internal/livecall",
			"internal/probe",
			"internal/scaffold",
			"internal/skillinstall",
			"internal/strict",
			"internal/vectors",
		},
	},
	{
		// The strict flow as resumable stages over the commands.
		Name:     "flow",
		Packages: []string{"internal/pipeline"},
	},
	{
		// Flags, output formats and exit codes.
		Name:     "command line",
		Packages: []string{"internal/cli"},
	},
	{
		Name: "programs",
		Packages: []string{
			"cmd/code2skill",
			"internal/assetcopy/gencopies",
			"internal/mcpruntime/genruntime",
		},
	},
}

var testSupport = []string{
	"internal/contract/contracttest",
	"internal/finalize/finalizetest",
	"internal/golden",
	"internal/layers",
	"internal/reftest",
	"internal/sarif/sariftest",
	"internal/testgo",
	"internal/testnode",
	"internal/testtier",
	"internal/vectors/vectorstest",
	"internal/verdict/verdicttest",
}

var processExceptions = map[string]string{
	"internal/testgo":   "test support: downloads a Go package's modules with the user's go mod download, as the user would before validating it",
	"internal/testnode": "test support: finds node on PATH and asks a tools node its version, outside any package",
}

var jsonExceptions = map[string]string{
	"assets/gocore/agentresult":             "copied into go-stdio packages, which cannot import code2skill",
	"examples/equipment-lending/app/client": "a sample application: it stands for the application's own code",
	"examples/equipment-lending/app/server": "a sample application: it stands for the application's own code",
	"examples/notice-comments/app/server":   "a sample application: it stands for the application's own code",
	"internal/reach/gorecorder.go":          "compiled into a go-stdio package's server, outside this module",
}
