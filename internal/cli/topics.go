package cli

import (
	"fmt"
	"slices"
	"strings"
)

// A topic is a page of the help that several commands refer to, shown by
// "code2skill help <topic>".
type topic struct {
	name    string
	summary string
	page    string
}

func (t *topic) text() string {
	return fmt.Sprintf("%s\n\n%s\n", t.summary, strings.TrimSpace(t.page))
}

// topics lists the help topics in the order the help shows them.
func topics() []*topic {
	return []*topic{
		{
			name:    "formats",
			summary: "output formats: text, json and sarif",
			page: `Every command prints human text by default: one line per finding,
"file:line:col: severity: message [RULE_ID]" ("file#/json/pointer: …" for a
JSON file; the parts that are unknown are left out), then one summary line
that says how far the package was checked. Progress goes to stderr, never
into reports or files.

--format json prints one versioned document instead:
{"schemaVersion": 1, "command", "status", "diagnostics": [...], "summary": {...}}.
Each command's document has a published JSON Schema in docs/schemas/; a
document with "schemaVersion": 1 only gains fields within that version.

--format sarif, on the commands that report findings, prints them as a
SARIF 2.1.0 log for code scanning: one run per command, one rule per rule
ID with a link to its entry in docs/rules.md, one result per finding with
its file, line and column (a JSON file's finding at its JSON Pointer), and
fingerprints that survive an edit moving the finding.

Rule IDs are stable and never renamed or reused: "code2skill rules" lists
them. docs/output.md says more.`,
		},
		{
			name:    "sandbox",
			summary: "how the code of a package runs, and how far it is isolated",
			page: `code2skill runs code it did not write (a package's MCP server and tests,
npm for the demo) in a sandbox: an allowlisted environment without
credentials, a private HOME and /tmp, a time limit and an output cap, and
everything the child started killed when it ends. Where the OS allows it,
the child also sees only the package (read-only), node and the system
libraries, has no network and a PID namespace of its own.

code2skill tries the strongest level first and every report names the
level reached: confined (all of the above), partial (namespaces, but no
confined root) or none (the host refuses namespaces). A run below confined
warns (SANDBOX_NOT_CONFINED) and its verdict says "run without full
isolation"; below confined a package's code can read and write whatever you
can, so do not run code you do not trust there.

--require-isolation (validate, probe) exits 3 rather than run a package's
code below confined: use it in CI. The environment variable
CODE2SKILL_SANDBOX_LEVEL=partial or none caps the level code2skill tries,
to see how a package behaves on a host that refuses namespaces.
docs/sandbox.md says what each level lets the child see and do.`,
		},
		{
			name:    "case-files",
			summary: "the case files probe calls Tools with",
			page: `A case file (probe --call, --error-call, --dry-run-call) holds one
{"name": "<tool>", "arguments": {...}} object or an array of them. A case
may add

  "expect": {"httpStatus": 404}   a status other than 2xx that is the right
                                  answer (or a list: [404, 410])
  "equals": {"/pointer": value}   the value at the JSON Pointer into the
                                  result's structuredContent equals value
  "contains": {"/pointer": "t"}   the string there (or the JSON text of
                                  another value) contains t

A pointer goes on into a string holding JSON, as /bodyText/id. A dry-run
case takes assertions but no httpStatus. A case naming a tool the package
does not have is a usage error, and a strict package's case must satisfy
the tool's inputSchema; both are named by file and index.

Credentials stay off the command line: give the server its variables with
--env-file, a file of KEY=VALUE lines ("#" comments, optional quotes).`,
		},
		{
			name:    "evidence-key",
			summary: "the key that makes the strict flow's evidence tamper-evident",
			page: `code2skill tags the evidence of the strict flow (every check record
pipeline run writes, the finalization the pipeline remembers, and in the
package's verification-attestation.json every check finalize found such a
record for) with HMAC-SHA-256 under an evidence key that lives outside
every package and state directory: code2skill/evidence.key in your
configuration directory (~/.config/code2skill/evidence.key on Linux,
~/Library/Application Support/code2skill/evidence.key on macOS), or the
file --evidence-key names. pipeline run, finalize and demo --strict create it on first use: 64
hexadecimal digits, mode 0600. A key file that is a symbolic link, not a
regular file, accessible to its group or others, or inside the package or
its state directory is refused (exit 3).

The key proves that this machine's code2skill recorded a piece of evidence
and that nobody changed it since; whoever can read it can vouch for
evidence too. Keep it private, and give CI its own copy as a secret file
when CI runs "code2skill validate --require-attested --evidence-key FILE".
docs/evidence.md says more.`,
		},
	}
}

func lookupTopic(name string) *topic {
	ts := topics()
	if i := slices.IndexFunc(ts, func(t *topic) bool { return t.name == name }); i >= 0 {
		return ts[i]
	}
	return nil
}
