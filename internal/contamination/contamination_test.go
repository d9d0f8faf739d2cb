package contamination_test

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contamination"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/verdict/verdicttest"
)

// Tokens below are assembled at run time so that this file itself holds no
// string a secret scanner would flag.
var (
	ghToken   = "gh" + "p_" + strings.Repeat("A1b2", 9)
	awsKey    = "AK" + "IA" + "ABCDEFGHIJKLMNOP"
	jwt       = "ey" + "JhbGciOiJIUzI1NiJ9.ey" + "JzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	bearer    = "Bea" + "rer 9f8e7d6c5b4a39281706f5e4d3c2b1a0"
	pemBlock  = "-----BEGIN RSA " + "PRIVATE KEY-----"
	awsSecret = "Wk7rPq2LmN9xTz4B" + "vC8dYh3JsF6gKa1E0uQiRo5S"
)

func TestDetectors(t *testing.T) {
	s, _ := contamination.NewScanner(contamination.Options{
		Contract:     verdicttest.Inputs(t).Contract,
		MachinePaths: []string{"/srv/build/pkg-under-test"},
	})
	for _, tc := range []struct {
		name, text string
		rule       *diag.Rule // nil: nothing may be found
	}{
		{"private key block", pemBlock + "\nMIIB\n", contamination.RuleCredential},
		{"GitHub token", "token = " + ghToken, contamination.RuleCredential},
		{"AWS key", "key " + awsKey + " here", contamination.RuleCredential},
		{"JSON Web Token", `{"grant": "` + jwt + `"}`, contamination.RuleCredential},
		{"bearer token", `Authorization: ` + bearer, contamination.RuleCredential},
		{"bearer placeholder", `Authorization: Bearer <access-token-goes-here>`, nil},
		{"bearer prose", `send a Bearer token in the Authorization header`, nil},
		{"basic authentication", `"authorization": "Basic dXNlcjpwYXNzd29yZDEyMw=="`, contamination.RuleCredential},
		{"cookie value", `Cookie: sessionid=4f9a8b7c6d5e4f3a2b1c`, contamination.RuleCredential},
		{"cookie as a word", `authentication is cookie_session; the Host injects the cookie`, nil},
		{"password assigned", `{"password": "hunter2hunter2"}`, contamination.RuleCredential},
		{"api key assigned", `API_KEY="k3y-9f8e7d6c5b4a"`, contamination.RuleCredential},
		{"example password", `{"password": "example-password"}`, nil},
		{"password in a URL", `postgres://app:s3cr3tPa55@db.example.com/app`, contamination.RuleCredential},
		{"URL with a placeholder password", `postgres://app:<password>@db.example.com/app`, nil},
		{"home directory", `"root": "/home/alice/work/app"`, contamination.RuleHomePath},
		{"macOS home", `see /Users/bob/src/app/client.ts`, contamination.RuleHomePath},
		{"Windows home", `C:\Users\carol\app`, contamination.RuleHomePath},
		{"escaped Windows home", `"C:\\Users\\carol\\app"`, contamination.RuleHomePath},
		{"a URL path is not a home", `https://application.example/home/page`, nil},
		{"file URI", `import "file:///opt/app/lib.mjs"`, contamination.RuleMachinePath},
		{"temporary path", `wrote /tmp/go-build123/out.json`, contamination.RuleMachinePath},
		{"this machine's directory", `cd /srv/build/pkg-under-test && node x`, contamination.RuleMachinePath},
		{"a longer sibling is not this machine's directory", `/srv/build/pkg-under-test-2`, nil},
		{"private address", `http://10.1.2.3:8080/api`, contamination.RulePrivateHost},
		{"internal host", `https://billing.corp/api`, contamination.RulePrivateHost},
		{"loopback is not private", `node mcp-tool/index.mjs, then http://127.0.0.1:8080/health`, nil},
		{"a declared origin", `https://application.example/api/sample-request/kinds`, nil},
		{"prose", "返回 `options`，供 `validate_sample_request` 使用。", nil},
		{"an unquoted secret access key", "aws_secret_access_key = " + awsSecret, contamination.RuleCredential},
		{"an unquoted password", "DB_PASSWORD=hunter2hunter2", contamination.RuleCredential},
		{"a password in a query string", "https://application.example/login?user=amy&password=s3cr3t-Pw&next=1", contamination.RuleCredential},
		{"a password described", "password: required, at least 12 characters", nil},
		{"a password read in code", "const password = input.password;", nil},
		{"a credentials file in the home directory", "cat ~/.aws/credentials", contamination.RuleHomePath},
		{"a path under $HOME", "node $HOME/work/app/server.mjs", contamination.RuleHomePath},
		{"a path under ${HOME}", `"cwd": "${HOME}/apps/desk"`, contamination.RuleHomePath},
		{"a Windows profile path", `%USERPROFILE%\apps\desk`, contamination.RuleHomePath},
		{"a tilde in code is not a home", `text.replace(/~/g, "~0").replace(/\//g, "~1")`, nil},
		{"an installed application", "the server runs from /opt/desk/bin/server", contamination.RuleMachinePath},
		{"a state directory", "data lives in /var/lib/desk/state.db", contamination.RuleMachinePath},
		{"a file URI under /opt is one finding", `import "file:///opt/app/lib.mjs"`, contamination.RuleMachinePath},
		{"a bare private address", "the database is at 10.1.2.3, port 5432", contamination.RulePrivateHost},
		{"a bare private address ending a sentence", "it answers on 192.168.40.7.", contamination.RulePrivateHost},
		{"a bare unique local IPv6 address", "or on fd12:3456:789a::1 inside", contamination.RulePrivateHost},
		{"a bare internal build host", "built on build-01.corp every night", contamination.RulePrivateHost},
		{"a bare internal service", "the records live in db.internal.", contamination.RulePrivateHost},
		{"a bare mDNS printer", "labels go to printer.local", contamination.RulePrivateHost},
		{"a token split by a zero-width space", "token = " + ghToken[:10] + "\u200b" + ghToken[10:], contamination.RuleCredential},
		{"a token in full-width letters", "token = " + fullWidth(ghToken), contamination.RuleCredential},
		{"a token in base64", "config: " + base64.StdEncoding.EncodeToString([]byte("token = "+ghToken)), contamination.RuleCredential},
		{"a password in URL-safe base64", "blob " + base64.RawURLEncoding.EncodeToString([]byte(`{"password": "hunter2hunter2"}`)), contamination.RuleCredential},
		{"a public specification", "errors follow RFC 9457 (problem details) and dates ISO 8601", nil},
		{"node_modules", "npm ci installs node_modules/zod and node_modules/@modelcontextprotocol/sdk", nil},
		{"an RFC about .local names", "RFC 6762 reserves the .local suffix for multicast DNS", nil},
		{"documentation addresses", "e.g. 192.0.2.10, 198.51.100.7, 203.0.113.5 or 2001:db8::1", nil},
		{"a public address", "the resolver 8.8.8.8 answers", nil},
		{"a dotted number longer than an address", "the OID 1.3.6.1.4.1.311 and version 10.0.0.1.2", nil},
		{"base64 of no text", "sha512-" + base64.StdEncoding.EncodeToString([]byte{0x9f, 0x00, 0x12, 0xfe, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d}), nil},
		{"base64 of harmless text", base64.StdEncoding.EncodeToString([]byte("a harmless sentence about seeds")), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := s.ScanText("doc.md", []byte(tc.text), true)
			if tc.rule == nil {
				if len(ds) > 0 {
					t.Errorf("found %v", ds)
				}
				return
			}
			if len(ds) != 1 || ds[0].Rule != tc.rule.ID || ds[0].Line != 1 || ds[0].Column == 0 {
				t.Fatalf("want one %s, got %v", tc.rule.ID, ds)
			}
			// A finding never repeats the credential it found.
			for _, secret := range []string{ghToken, awsKey, jwt, "9f8e7d6c5b4a39281706f5e4d3c2b1a0", "hunter2hunter2", "s3cr3tPa55"} {
				if strings.Contains(ds[0].Message, secret) {
					t.Errorf("the finding repeats the secret: %s", ds[0].Message)
				}
			}
		})
	}
}

// fullWidth writes s in the full-width forms of its ASCII characters.
func fullWidth(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r - 0x21 + 0xFF01)
	}
	return b.String()
}

// TestBareHostsInCode: in code a name with a private suffix is a property
// ("this.local"), not a host; a private address is one anywhere.
func TestBareHostsInCode(t *testing.T) {
	s, _ := contamination.NewScanner(contamination.Options{Contract: verdicttest.Inputs(t).Contract})
	if ds := s.ScanText("function-core/index.mjs", []byte("const v = this.local ?? options.internal;\n"), false); len(ds) != 0 {
		t.Errorf("a property read as a host: %v", ds)
	}
	if ds := s.ScanText("function-core/index.mjs", []byte("const db = '10.1.2.3';\n"), false); len(ds) != 1 || ds[0].Rule != contamination.RulePrivateHost.ID {
		t.Errorf("a private address in code: %v", ds)
	}
	if ds := s.ScanText("canonical-contract.json", []byte(`{"description": "reads from db.internal"}`), false); len(ds) != 1 || ds[0].Rule != contamination.RulePrivateHost.ID {
		t.Errorf("an internal host in a JSON description: %v", ds)
	}
}

func TestPositions(t *testing.T) {
	s, _ := contamination.NewScanner(contamination.Options{})
	ds := s.ScanText("doc.md", []byte("line one\n  two /home/dave/x\n"), false)
	if len(ds) != 1 || ds[0].Line != 2 || ds[0].Column != 7 {
		t.Errorf("got %v", ds)
	}
}

func TestScanValue(t *testing.T) {
	s, _ := contamination.NewScanner(contamination.Options{})
	v, err := canonjson.Decode([]byte(`{"checks": [{"command": "curl -H 'Authorization: ` + bearer + `' x"}, {"command": "node /home/erin/pkg/x.mjs"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	ds := s.ScanValue("report.json", v)
	var got []string
	for _, d := range ds {
		got = append(got, d.Rule+" "+d.Pointer)
	}
	want := []string{"CONTAMINATION_CREDENTIAL /checks/0/command", "CONTAMINATION_HOME_PATH /checks/1/command"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// referencePackage writes the reference example's inputs and derived views
// into a directory, with its runtime assets and the bundled MCP runtime.
func referencePackage(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	in := verdicttest.Inputs(t)
	write := func(rel string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{contract.ContractFile, contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile} {
		data, err := os.ReadFile(filepath.Join("..", "contract", "testdata", "reference", name))
		if err != nil {
			t.Fatal(err)
		}
		write(name, data)
	}
	for _, v := range derive.Views(in) {
		write(v.Path, v.Data)
	}
	for _, a := range assets.Runtime() {
		write(a.Name(), a.Bytes())
	}
	// The bundled SDK and zod: a megabyte of third-party code that must
	// not trip the gate.
	write("mcp-tool/runtime.mjs", assets.MCPRuntime.Bytes())
	return dir
}

func scanPackage(t *testing.T, dir string, opts contamination.Options) []diag.Diagnostic {
	t.Helper()
	pkg, ds, err := pkgdir.Open(dir)
	if err != nil || len(ds) > 0 {
		t.Fatal(err, ds)
	}
	s, ds := contamination.NewScanner(opts)
	out, err := s.ScanPackage(pkg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return append(ds, out...)
}

func TestScanPackage(t *testing.T) {
	dir := referencePackage(t)
	in := verdicttest.Inputs(t)
	opts := contamination.Options{Contract: in.Contract, Export: in.Export, MachinePaths: []string{dir}}
	if ds := scanPackage(t, dir, opts); len(ds) > 0 {
		t.Fatalf("the reference package is clean, got %v", ds)
	}
	os.WriteFile(filepath.Join(dir, ".env.local"), []byte("MODE=dev\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "references", "notes.md"), []byte("built in "+dir+"\n"), 0o644)
	var got []string
	for _, d := range scanPackage(t, dir, opts) {
		got = append(got, d.File+" "+d.Rule)
	}
	want := []string{".env.local CONTAMINATION_SECRET_FILE", "references/notes.md CONTAMINATION_MACHINE_PATH"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestSourceDerived locates the reference topology's sources in a
// directory and checks that what only they contain is caught.
func TestSourceDerived(t *testing.T) {
	dir := referencePackage(t)
	in := verdicttest.Inputs(t)
	base := t.TempDir()
	src := func(rel, text string) {
		p := filepath.Join(base, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
	}
	// Files the contract's evidence cites, and one it does not.
	for _, e := range in.Contract.EvidenceCatalog {
		for _, s := range in.Topology.Sources {
			if s.ID == e.SourceID {
				loc := strings.SplitN(strings.SplitN(e.Locator, "#", 2)[0], ":", 2)[0]
				src(s.Root+"/"+loc, "// synthetic\n")
			}
		}
	}
	src("sources/client/src/billing/invoiceLines.ts", `
		// private billing client
		const base = "https://billing-gateway.acme-internal-payments.com/v2";
		export function fetchInvoiceLineItems(customerAccountNumber) {}
	`)
	src("sources/client/node_modules/lib/vendorHelperName.js", `export const vendorOnlyHelperName = 1`)
	opts := contamination.Options{Contract: in.Contract, Export: in.Export, Topology: in.Topology,
		Sources: contract.Sources{Base: base}, MachinePaths: []string{dir}}

	if ds := scanPackage(t, dir, opts); len(ds) > 0 {
		t.Fatalf("the reference package repeats nothing from the sources, got %v", ds)
	}
	doc := "# 说明\n\n调用 `fetchInvoiceLineItems` 之前先读取 src/billing/invoiceLines.ts，" +
		"地址 https://billing-gateway.acme-internal-payments.com/v2。\n" +
		"`list_sample_request_kinds` 返回 `selectionGrant`；vendorOnlyHelperName 不是业务名。\n"
	os.WriteFile(filepath.Join(dir, "references", "feature-context.md"), []byte(doc), 0o644)
	var got []string
	for _, d := range scanPackage(t, dir, opts) {
		got = append(got, d.Rule)
	}
	want := []string{"CONTAMINATION_SOURCE_NAME", "CONTAMINATION_SOURCE_FILE", "CONTAMINATION_SOURCE_HOST"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}

	// The source root itself is a path of this machine.
	os.WriteFile(filepath.Join(dir, "references", "feature-context.md"), []byte("root "+base+"/sources/client\n"), 0o644)
	ds := scanPackage(t, dir, opts)
	if len(ds) != 1 || ds[0].Rule != contamination.RuleMachinePath.ID {
		t.Errorf("got %v", ds)
	}
}

func TestUnreadableSource(t *testing.T) {
	in := verdicttest.Inputs(t)
	s, ds := contamination.NewScanner(contamination.Options{Contract: in.Contract, Topology: in.Topology,
		Sources: contract.Sources{Base: filepath.Join(t.TempDir(), "absent")}})
	if len(ds) == 0 || ds[0].Rule != contamination.RuleSourceUnreadable.ID || ds[0].Severity != diag.Warning {
		t.Errorf("got %v", ds)
	}
	if len(s.SourcesScanned()) != 0 {
		t.Errorf("scanned %v", s.SourcesScanned())
	}
}

// TestSourceSecrets: a literal the sources keep secret may not appear in
// the package, whatever it looks like there; literals the sources do not
// keep secret may.
func TestSourceSecrets(t *testing.T) {
	dir := referencePackage(t)
	in := verdicttest.Inputs(t)
	base := t.TempDir()
	src := func(rel, text string) {
		p := filepath.Join(base, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
	}
	for _, s := range in.Topology.Sources {
		os.MkdirAll(filepath.Join(base, filepath.FromSlash(s.Root)), 0o755)
	}
	signing := "k1-Zr8vQ2mN7" + "pL4xW9tB6cY3"
	hmac := "Qm9vdHN0cmFwLXNp" + "Z25pbmctbWF0ZXJpYWw1"
	jwtSecret := "ZmFrZS1qd3Qtc2Vj" + "cmV0LTQ4Mg"
	marked := "Tq8Lz3Wv9Rb2Nx" + "7Kc4Hm6Pd1"
	src("sources/client/src/keys.ts", `
		export const signingKey = "`+signing+`";
		const cacheKey = "orders:list:v2";
		const privateRoute = "/account/settings";
		const API_KEY_HEADER = "x-api-key";
		const password = "example-password";
		const label = "`+marked+`"; // secret: rotated monthly
	`)
	src("sources/client/src/Signer.java", `class Signer {
		private static final String HMAC_MATERIAL = "`+hmac+`";
		private final String greeting = "Hello there";
	}`)
	src("sources/client/.env", "JWT_SECRET="+jwtSecret+"\nMODE=development-mode\n")
	opts := contamination.Options{Contract: in.Contract, Export: in.Export, Topology: in.Topology,
		Sources: contract.Sources{Base: base}, MachinePaths: []string{dir}}
	if ds := scanPackage(t, dir, opts); len(ds) > 0 {
		t.Fatalf("the reference package repeats nothing from the sources, got %v", ds)
	}
	for _, secret := range []string{signing, hmac, jwtSecret, marked} {
		os.WriteFile(filepath.Join(dir, "references", "notes.md"), []byte("# 说明\n\n签名材料 "+secret+"。\n"), 0o644)
		ds := scanPackage(t, dir, opts)
		if len(ds) != 1 || ds[0].Rule != contamination.RuleSourceSecret.ID || strings.Contains(ds[0].Message, secret) {
			t.Errorf("a source secret in the package: %v", ds)
		}
		// Anywhere in the package, code included.
		os.Remove(filepath.Join(dir, "references", "notes.md"))
		os.WriteFile(filepath.Join(dir, "extra.mjs"), []byte("export const k = '"+secret+"';\n"), 0o644)
		if ds := scanPackage(t, dir, opts); !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Rule == contamination.RuleSourceSecret.ID }) {
			t.Errorf("a source secret in code: %v", ds)
		}
		os.Remove(filepath.Join(dir, "extra.mjs"))
	}
	os.WriteFile(filepath.Join(dir, "references", "notes.md"),
		[]byte("# 说明\n\n`orders:list:v2`、`/account/settings`、`x-api-key`、Hello there 都不是秘密。\n"), 0o644)
	if ds := scanPackage(t, dir, opts); len(ds) > 0 {
		t.Errorf("literals the sources do not keep secret: %v", ds)
	}
}

// TestSourceNamesArePrivateOnly: a name the sources only cite (in a URL, on
// a line citing a public specification) or only list as tooling (an
// ignore file, a lockfile) is not a private name of theirs; the same name
// used in their own code is.
func TestSourceNamesArePrivateOnly(t *testing.T) {
	dir := referencePackage(t)
	in := verdicttest.Inputs(t)
	for _, tt := range []struct {
		name, file, text string
		flagged          bool
	}{
		{"a build-tool name from .gitignore", ".gitignore", "node_modules/\nbuild-output-cache/\n", false},
		{"a package from a lockfile", "package-lock.json", `{"packages": {"node_modules/left-pad-helpers": {}}}`, false},
		{"a specification cited by its RFC", "src/errors.ts", "// Errors follow RFC 9457 Problem-Details for HTTP APIs.\nexport const x = 1;\n", false},
		{"a specification cited by its URL", "src/patch.ts", "// see https://spec.example.org/json-merge-patch\nexport const x = 1;\n", false},
		{"the same name in the source's code", "src/patch.ts", "// see https://spec.example.org/json-merge-patch\nexport function jsonMergePatch() {}\n", true},
		{"a name in code", "src/build.ts", "export const buildOutputCache = new Map();\n", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			for _, s := range in.Topology.Sources {
				os.MkdirAll(filepath.Join(base, filepath.FromSlash(s.Root)), 0o755)
			}
			p := filepath.Join(base, "sources", "client", filepath.FromSlash(tt.file))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte(tt.text), 0o644)
			opts := contamination.Options{Contract: in.Contract, Export: in.Export, Topology: in.Topology,
				Sources: contract.Sources{Base: base}, MachinePaths: []string{dir}}
			doc := "# 说明\n\n依赖 node_modules、build-output-cache、left-pad-helpers、Problem-Details 与 json-merge-patch。\n"
			os.WriteFile(filepath.Join(dir, "references", "notes.md"), []byte(doc), 0o644)
			ds := scanPackage(t, dir, opts)
			if got := len(ds) > 0; got != tt.flagged {
				t.Errorf("flagged %v, want %v: %v", got, tt.flagged, ds)
			}
			for _, d := range ds {
				if d.Rule != contamination.RuleSourceName.ID {
					t.Errorf("unexpected %v", d)
				}
			}
		})
	}
}

// TestPublicNamesAndDescribedHosts: a name a public specification defines
// (OAuth's access_token) is not a private name of the source that uses it,
// and a public host the contract names (an output's description of the
// avatar service its URLs point to) is declared; a private name and an
// undeclared host of the sources stay findings.
func TestPublicNamesAndDescribedHosts(t *testing.T) {
	const avatarHost = "img.avatar-service.com"
	described := []contracttest.Op{contracttest.Set("/capabilities/0/outputs/0/description",
		`"The request kinds; each picture is a URL of https://`+avatarHost+`/."`)}
	for _, tt := range []struct {
		name string
		ops  []contracttest.Op
		doc  string
		want []string
	}{
		{"an OAuth name as an example value", nil, "示例值 `access-token`。\n", nil},
		{"a private name of the source", nil, "示例值 `account-ledger-entry`。\n", []string{"CONTAMINATION_SOURCE_NAME"}},
		{"a host the contract names", described, "返回 `https://" + avatarHost + "/u/1.png`。\n", nil},
		{"a host the contract does not name", nil, "返回 `https://" + avatarHost + "/u/1.png`。\n", []string{"CONTAMINATION_SOURCE_HOST"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := referencePackage(t)
			in := verdicttest.PatchedInputs(t, tt.ops, nil)
			base := t.TempDir()
			for _, s := range in.Topology.Sources {
				os.MkdirAll(filepath.Join(base, filepath.FromSlash(s.Root)), 0o755)
			}
			os.WriteFile(filepath.Join(base, "sources", "client", "app.py"), []byte(
				"def login():\n    return {\"access_token\": issue(), \"account_ledger_entry\": 1}\n"+
					"AVATAR = \"https://"+avatarHost+"/{digest}\"\n"), 0o644)
			opts := contamination.Options{Contract: in.Contract, Export: in.Export, Topology: in.Topology,
				Sources: contract.Sources{Base: base}, MachinePaths: []string{dir}}
			os.WriteFile(filepath.Join(dir, "references", "notes.md"), []byte("# 说明\n\n"+tt.doc), 0o644)
			var got []string
			for _, d := range scanPackage(t, dir, opts) {
				got = append(got, d.Rule)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
