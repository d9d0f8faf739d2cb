package canonjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// Unmarshal decodes the one JSON document in data into the Go value v, the
// way encoding/json does (an object member v has no field for is ignored).
// It is the decoder of what other programs write: a server's messages, a
// test runner's events, a tool's output. A syntax error is a *SyntaxError
// naming the line and column.
func Unmarshal(data []byte, v any) error {
	return located(data, json.Unmarshal(data, v))
}

// UnmarshalStrict decodes the document in data into v under the rules of
// the formats code2skill owns: the document must pass Decode (no repeated
// key, no invalid UTF-8, no byte-order mark), and every object member must
// have a field in v.
func UnmarshalStrict(data []byte, v any) error {
	if _, err := Decode(data); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return located(data, dec.Decode(v))
}

// UnmarshalFirst decodes the first JSON value in data into v, as Unmarshal
// does, and ignores whatever follows it: for a value found inside a larger
// text.
func UnmarshalFirst(data []byte, v any) error {
	err := json.NewDecoder(bytes.NewReader(data)).Decode(v)
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return located(data, err)
}

// located turns encoding/json's syntax error into a *SyntaxError with the
// line and column of its offset in data; other errors are returned as
// they are.
func located(data []byte, err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	offset := int(se.Offset)
	// encoding/json reports the offset after the byte it choked on.
	if offset > 0 {
		offset--
	}
	offset = min(offset, len(data))
	return newError(data, offset, KindSyntax, se.Error())
}
