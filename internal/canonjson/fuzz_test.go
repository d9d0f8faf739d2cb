package canonjson

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecode cross-checks the decoder against encoding/json and checks that
// the file form and the digest form read back to the same value.
func FuzzDecode(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/format/*.json")
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{`{"a":[1,2.0,-0,"\u2028"]}`, `[1e400]`, `{"a":1,"a":2}`, `"\ud800"`, "\xef\xbb\xbf{}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		v, err := Decode(data)
		if err != nil {
			se, ok := err.(*SyntaxError)
			if !ok {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			if se.Offset < 0 || se.Offset > len(data) || se.Line < 1 || se.Column < 1 || se.Msg == "" {
				t.Fatalf("bad error position %+v for %d bytes", se, len(data))
			}
			return
		}
		// Anything accepted is JSON by the standard library's reading.
		if !json.Valid(data) {
			t.Fatalf("Decode accepted %q, which encoding/json rejects", data)
		}
		file := Encode(v)
		v2, err := Decode(file)
		if err != nil {
			t.Fatalf("Decode(Encode(v)): %v\n%s", err, file)
		}
		if again := Encode(v2); !bytes.Equal(file, again) {
			t.Fatalf("Encode is not a fixed point:\n%s\n%s", file, again)
		}
		digest := DigestForm(v)
		v3, err := Decode(digest)
		if err != nil {
			t.Fatalf("Decode(DigestForm(v)): %v\n%s", err, digest)
		}
		if !bytes.Equal(DigestForm(v3), digest) {
			t.Fatalf("DigestForm is not a fixed point: %s", digest)
		}
		if !json.Valid(digest) {
			t.Fatalf("DigestForm wrote invalid JSON: %s", digest)
		}
	})
}
