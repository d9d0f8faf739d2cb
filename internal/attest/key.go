// Package attest makes verification evidence tamper-evident: an evidence
// key that lives outside every package and state directory, and the
// HMAC-SHA-256 tags code2skill puts on what it records, so that a check
// record, a finalization or a final matrix's check that anyone could edit
// proves something only while its tag still verifies.
//
// The key is 32 random bytes, written as 64 hexadecimal digits and a
// newline, in the user's configuration directory
// (os.UserConfigDir()/code2skill/evidence.key: ~/.config/code2skill on
// Linux, ~/Library/Application Support/code2skill on macOS) unless a
// command names another with --evidence-key. The commands that write
// evidence create it on first use, mode 0600 in a 0700 directory; every
// command refuses a key file that is a symbolic link, not a regular file,
// readable or writable by its group or others, or not 64 hexadecimal
// digits. It never leaves this machine and is never part of a package or a
// state directory: whoever holds it can vouch for evidence, so a CI job
// that checks attestations is given it as a secret file. A command that
// loads it hides it from every child it starts (sandbox.Hide): package
// code never reads it.
//
//	key, err := attest.LoadOrCreate(path)     // pipeline run, finalize
//	key, err := attest.Load(path)             // validate, pipeline status
//	tag := key.Sign(attest.DomainRecord, data)
//	key.Verify(attest.DomainRecord, data, tag) // Valid, OtherKey, Invalid, Missing
//
// A tag reads "hmac-sha256:<key id>:<mac>": the key ID (the first 16 hex
// digits of an HMAC of a fixed label) says which key made it without
// revealing the key, so that a tag made on another machine is reported as
// such rather than as forged. Every tag is made over a domain label and
// the canonical JSON of what it covers (keys sorted, no insignificant
// white space), so that a tag of one kind of document never verifies as
// another and re-indenting a file does not break it.
package attest

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/code2skill/code2skill/internal/pkgdir"
)

// KeyFile is the key's file name in the configuration directory.
const KeyFile = "evidence.key"

// keySize is the key's length in bytes.
const keySize = 32

// Key is an evidence key.
type Key struct {
	secret []byte
	id     string
	// Path is the file the key was read from.
	Path string
}

// ErrNoKey: the key file does not exist.
var ErrNoKey = errors.New("no evidence key")

// KeyError is a key file code2skill refuses to use.
type KeyError struct {
	Path string
	Msg  string
}

func (e *KeyError) Error() string { return "evidence key " + e.Path + ": " + e.Msg }

// DefaultPath returns where the evidence key lives unless a command is told
// otherwise: code2skill/evidence.key in the user's configuration directory.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("locating the evidence key: %w; name one with --evidence-key", err)
	}
	return filepath.Join(dir, "code2skill", KeyFile), nil
}

// Load reads the key at path. A missing file is ErrNoKey (wrapped); a file
// that is not a safe key is a *KeyError.
func Load(path string) (*Key, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w at %s", ErrNoKey, path)
	}
	if err != nil {
		return nil, fmt.Errorf("evidence key %s: %w", path, err)
	}
	if err := safe(path, fi); err != nil {
		return nil, err
	}
	data, err := pkgdir.ReadFile(path, 1024)
	if err != nil {
		return nil, &KeyError{path, err.Error()}
	}
	text := strings.TrimSuffix(string(data), "\n")
	secret, err := hex.DecodeString(text)
	if err != nil || len(secret) != keySize {
		return nil, &KeyError{path, fmt.Sprintf("not an evidence key: want %d hexadecimal digits and a newline", 2*keySize)}
	}
	return newKey(secret, path), nil
}

// safe refuses a key file others could read or replace.
func safe(path string, fi fs.FileInfo) error {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return &KeyError{path, "is a symbolic link; the key must be a regular file of its own"}
	case !fi.Mode().IsRegular():
		return &KeyError{path, "is not a regular file"}
	case runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0:
		return &KeyError{path, fmt.Sprintf("is accessible to its group or others (mode %04o); run chmod 600 %s", fi.Mode().Perm(), path)}
	}
	return nil
}

// LoadOrCreate reads the key at path, creating it first when there is none:
// 32 random bytes in a file of mode 0600, its directory created with mode
// 0700. Two commands creating it at once end up with the same key.
func LoadOrCreate(path string) (*Key, error) {
	key, err := Load(path)
	if !errors.Is(err, ErrNoKey) {
		return key, err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the evidence key: %w", err)
	}
	secret := make([]byte, keySize)
	if _, err := rand.Read(secret); err != nil {
		return nil, fmt.Errorf("creating the evidence key: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".evidence-key-*")
	if err != nil {
		return nil, fmt.Errorf("creating the evidence key: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.WriteString(hex.EncodeToString(secret) + "\n")
	if werr == nil {
		werr = tmp.Chmod(0o600)
	}
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return nil, fmt.Errorf("creating the evidence key: %w", werr)
	}
	// A link fails where a key already exists: whoever came first wins,
	// and both read the winner's key.
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("creating the evidence key %s: %w", path, err)
	}
	return Load(path)
}

// NewKey returns a key of the given secret, for tests and for keys held
// elsewhere than in a file. The secret must be 32 bytes.
func NewKey(secret []byte) (*Key, error) {
	if len(secret) != keySize {
		return nil, fmt.Errorf("an evidence key is %d bytes, not %d", keySize, len(secret))
	}
	return newKey(append([]byte(nil), secret...), ""), nil
}

func newKey(secret []byte, path string) *Key {
	k := &Key{secret: secret, Path: path}
	k.id = k.mac("key-id", nil)[:16]
	return k
}

// ID identifies the key in tags without revealing it.
func (k *Key) ID() string { return k.id }
