package attest

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// TestDefaultPath: the key lives in the user's configuration directory,
// which tests point elsewhere.
func TestDefaultPath(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("HOME", dir)
	p, err := DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p) != KeyFile || filepath.Base(filepath.Dir(p)) != "code2skill" || !strings.HasPrefix(p, dir) {
		t.Errorf("default path %s", p)
	}
}

// TestCreateOnFirstUse: the key is created once, mode 0600 in a 0700
// directory, and read back the same.
func TestCreateOnFirstUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config", "code2skill", KeyFile)
	if _, err := Load(path); !errors.Is(err, ErrNoKey) {
		t.Fatalf("Load of a missing key: %v", err)
	}
	k1, err := LoadOrCreate(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	di, _ := os.Stat(filepath.Dir(path))
	if runtime.GOOS != "windows" && (fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700) {
		t.Errorf("key mode %v, directory mode %v", fi.Mode().Perm(), di.Mode().Perm())
	}
	data, _ := os.ReadFile(path)
	if len(data) != 65 || data[64] != '\n' {
		t.Errorf("key file %q", data)
	}
	k2, err := LoadOrCreate(path)
	if err != nil {
		t.Fatal(err)
	}
	if k1.ID() != k2.ID() || k1.Sign(DomainRecord, []byte("x")) != k2.Sign(DomainRecord, []byte("x")) {
		t.Error("a second LoadOrCreate made another key")
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

// TestConcurrentCreation: commands creating the key at once agree on it.
func TestConcurrentCreation(t *testing.T) {
	path := filepath.Join(t.TempDir(), KeyFile)
	ids := make([]string, 8)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if k, err := LoadOrCreate(path); err == nil {
				ids[i] = k.ID()
			}
		}()
	}
	wg.Wait()
	for _, id := range ids {
		if id == "" || id != ids[0] {
			t.Fatalf("keys %v", ids)
		}
	}
}

// TestUnsafeKeyRefused: a key others can read, a link, a directory or a
// file that is not a key is refused, and never replaced.
func TestUnsafeKeyRefused(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.key")
	if _, err := LoadOrCreate(good); err != nil {
		t.Fatal(err)
	}
	readable := filepath.Join(dir, "readable.key")
	data, _ := os.ReadFile(good)
	os.WriteFile(readable, data, 0o644)
	os.Chmod(readable, 0o644)
	link := filepath.Join(dir, "link.key")
	os.Symlink(good, link)
	short := filepath.Join(dir, "short.key")
	os.WriteFile(short, []byte("abcd\n"), 0o600)
	notKey := filepath.Join(dir, "text.key")
	os.WriteFile(notKey, []byte(strings.Repeat("z", 64)+"\n"), 0o600)
	sub := filepath.Join(dir, "dir.key")
	os.Mkdir(sub, 0o700)
	cases := map[string]string{link: "symbolic link", short: "not an evidence key", notKey: "not an evidence key", sub: "not a regular file"}
	if runtime.GOOS != "windows" {
		cases[readable] = "chmod 600"
	}
	for path, want := range cases {
		for name, load := range map[string]func(string) (*Key, error){"Load": Load, "LoadOrCreate": LoadOrCreate} {
			_, err := load(path)
			var ke *KeyError
			if !errors.As(err, &ke) || !strings.Contains(err.Error(), want) {
				t.Errorf("%s(%s): %v, want a KeyError saying %q", name, filepath.Base(path), err, want)
			}
		}
	}
	if after, _ := os.ReadFile(readable); string(after) != string(data) {
		t.Error("a refused key was rewritten")
	}
}

// TestTags: a tag verifies for its key, domain and content only.
func TestTags(t *testing.T) {
	k := testKey(t, 1)
	other := testKey(t, 2)
	tag := k.Sign(DomainRecord, []byte("content"))
	for _, tt := range []struct {
		name   string
		key    *Key
		domain string
		data   string
		tag    string
		want   Status
	}{
		{"as made", k, DomainRecord, "content", tag, Valid},
		{"edited content", k, DomainRecord, "content!", tag, Invalid},
		{"another domain", k, DomainFinalization, "content", tag, Invalid},
		{"another key", other, DomainRecord, "content", tag, OtherKey},
		{"no tag", k, DomainRecord, "content", "", Missing},
		{"not a tag", k, DomainRecord, "content", "sha256:abc", Invalid},
		{"a forged mac", k, DomainRecord, "content", tag[:len(tag)-1] + "0", Invalid},
	} {
		if got := tt.key.Verify(tt.domain, []byte(tt.data), tt.tag); got != tt.want && !(tt.name == "a forged mac" && tag[len(tag)-1] == '0') {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	if KeyIDOf(tag) != k.ID() || KeyIDOf("x") != "" {
		t.Error("KeyIDOf")
	}
	// Values are tagged in canonical form: member order does not matter.
	a, _ := canonjson.Decode([]byte(`{"a": 1, "b": [true]}`))
	b, _ := canonjson.Decode([]byte(`{"b":[true],"a":1}`))
	if k.VerifyValue(DomainFinalCheck, b, k.SignValue(DomainFinalCheck, a)) != Valid {
		t.Error("a re-ordered value does not verify")
	}
}

// TestRecords: a record's tag covers every member, the evidence hash and
// the live digests included, and the stage that wrote it.
func TestRecords(t *testing.T) {
	k := testKey(t, 1)
	yes := true
	rec := &Record{CheckID: "bypass-guard", Name: "bypass-guard", Phase: PhaseBypass, WorkflowID: "submit", Command: "code2skill vectors x",
		Status: "passed", EvidencePath: "vectors/x.json", EvidenceHash: strings.Repeat("a", 64), ZeroExternalWrites: &yes,
		Stage: "verify", ContractID: "c", CandidateDigest: strings.Repeat("b", 64)}
	if err := k.SignRecord(rec); err != nil {
		t.Fatal(err)
	}
	if k.VerifyRecord(rec) != Valid {
		t.Fatal("a signed record does not verify")
	}
	edits := map[string]func(r *Record){
		"evidence hash": func(r *Record) { r.EvidenceHash = strings.Repeat("c", 64) },
		"command":       func(r *Record) { r.Command += " --other" },
		"stage":         func(r *Record) { r.Stage = "runtime-verify" },
		"package":       func(r *Record) { r.CandidateDigest = strings.Repeat("d", 64) },
		"zero writes":   func(r *Record) { no := false; r.ZeroExternalWrites = &no },
		"live input":    func(r *Record) { r.InputHash = strings.Repeat("e", 64) },
	}
	for name, edit := range edits {
		c := *rec
		edit(&c)
		if k.VerifyRecord(&c) != Invalid {
			t.Errorf("a record with an edited %s still verifies", name)
		}
	}
	data, err := encode(rec)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeRecord(data)
	if err != nil || k.VerifyRecord(back) != Valid {
		t.Fatalf("decoded record: %v", err)
	}
	if _, err := DecodeRecord([]byte(`{"schemaVersion": "producer-checks/v2", "extra": 1}`)); err == nil {
		t.Error("a record with an unknown member decodes")
	}
	if StageOf(PhaseRuntime) != "runtime-verify" || StageOf(PhaseBehavior) != "verify" {
		t.Error("StageOf")
	}
	if rec.Scope() != "workflow:submit" {
		t.Errorf("scope %s", rec.Scope())
	}
}

func testKey(t *testing.T, b byte) *Key {
	t.Helper()
	secret := make([]byte, 32)
	for i := range secret {
		secret[i] = b
	}
	k, err := NewKey(secret)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func encode(r *Record) ([]byte, error) {
	data, err := r.content()
	if err != nil {
		return nil, err
	}
	v, _ := canonjson.Decode(data)
	o := v.(*canonjson.Object)
	o.Set("attestation", canonjson.String(r.Attestation))
	return canonjson.Encode(o), nil
}
