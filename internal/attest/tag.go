package attest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// Domains separate what tags cover: a tag made for one never verifies for
// another.
const (
	// DomainRecord: a check record the pipeline wrote in its state.
	DomainRecord = "record"
	// DomainFinalization: the finalization the pipeline remembers.
	DomainFinalization = "finalization"
	// DomainFinalCheck: a check finalize records in a final matrix.
	DomainFinalCheck = "final-check"
)

// tagPrefix starts every tag.
const tagPrefix = "hmac-sha256:"

// Status is what verifying a tag found.
type Status uint8

const (
	// Missing: there is no tag.
	Missing Status = iota
	// Valid: the tag was made by this key over exactly this content.
	Valid
	// OtherKey: the tag was made by another key (another machine's, or a
	// key since replaced); it proves nothing here.
	OtherKey
	// Invalid: the tag is this key's but the content changed since, or the
	// tag is malformed.
	Invalid
)

// String says what became of a tag, as in "the record's tag is missing".
func (s Status) String() string {
	switch s {
	case Valid:
		return "verifies"
	case OtherKey:
		return "was made with another evidence key"
	case Invalid:
		return "does not verify: the content changed after it was tagged"
	}
	return "is missing"
}

// mac returns the hex HMAC-SHA-256 of a domain and data.
func (k *Key) mac(domain string, data []byte) string {
	h := hmac.New(sha256.New, k.secret)
	h.Write([]byte("code2skill evidence v1\x00"))
	h.Write([]byte(domain))
	h.Write([]byte{0})
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// Sign returns the tag of data in a domain.
func (k *Key) Sign(domain string, data []byte) string {
	return tagPrefix + k.id + ":" + k.mac(domain, data)
}

// Verify checks the tag of data in a domain.
func (k *Key) Verify(domain string, data []byte, tag string) Status {
	if tag == "" {
		return Missing
	}
	rest, ok := strings.CutPrefix(tag, tagPrefix)
	id, sum, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 {
		return Invalid
	}
	if id != k.id {
		return OtherKey
	}
	want := k.mac(domain, data)
	if !hmac.Equal([]byte(sum), []byte(want)) {
		return Invalid
	}
	return Valid
}

// SignValue returns the tag of a JSON value in a domain: of its canonical
// form, keys sorted.
func (k *Key) SignValue(domain string, v canonjson.Value) string {
	return k.Sign(domain, canonjson.DigestForm(v))
}

// VerifyValue checks the tag of a JSON value in a domain.
func (k *Key) VerifyValue(domain string, v canonjson.Value, tag string) Status {
	return k.Verify(domain, canonjson.DigestForm(v), tag)
}

// KeyIDOf returns the key ID a tag names, "" when it is not a tag.
func KeyIDOf(tag string) string {
	rest, ok := strings.CutPrefix(tag, tagPrefix)
	if !ok {
		return ""
	}
	id, _, _ := strings.Cut(rest, ":")
	return id
}
