// Package functioncore is the Function core of the seed-library package:
// one exported function per capability. Each builds the request the seed
// library's own client sends, calls the service whose base URL the host
// configured, and passes the HTTP result through unchanged (httpStatus +
// bodyText): deciding what a status or body means is left to the agent.
//
// Two services: the catalog, which anyone may read, and the reservation
// service, which knows the member by the token the host injects
// (Authorization: Token <token>).
//
// Every function takes the MCP request's context (a call the host cancels
// stops its request), the Tool input as the agent sent it, and a Runtime:
//
//	Runtime.HTTP     the client that sends (default http.DefaultClient)
//	Runtime.Getenv   the environment to read (default os.Getenv)
//	Runtime.Timeout  the time limit of one request (default 30 s)
package functioncore

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"seed-library/agentresult"
)

// The variables the host sets: the two services' base URLs and the member's token.
const (
	CatalogBaseURL      = "CODE2SKILL_SEED_LIBRARY_CATALOG_BASE_URL"
	ReservationsBaseURL = "CODE2SKILL_SEED_LIBRARY_RESERVATIONS_BASE_URL"
	ReservationsToken   = "CODE2SKILL_SEED_LIBRARY_RESERVATIONS_TOKEN"
)

// DryRun is the variable that, set to "1", makes a write return the
// request it would send instead of sending it.
const DryRun = "CODE2SKILL_DRY_RUN"

// RequestTimeout is the time limit of one request, body included, unless
// Runtime.Timeout says otherwise.
const RequestTimeout = 30 * time.Second

// NotShown is what a dry run shows instead of the member's token.
const NotShown = "[credential, not shown]"

// Runtime is what a Function gets from where it runs rather than from
// the agent.
type Runtime struct {
	HTTP    *http.Client
	Getenv  func(string) string
	Timeout time.Duration
}

func (rt Runtime) getenv(name string) string {
	if rt.Getenv != nil {
		return rt.Getenv(name)
	}
	return os.Getenv(name)
}

func (rt Runtime) client() *http.Client {
	if rt.HTTP != nil {
		return rt.HTTP
	}
	return http.DefaultClient
}

func (rt Runtime) timeout() time.Duration {
	if rt.Timeout > 0 {
		return rt.Timeout
	}
	return RequestTimeout
}

// MissingConfigurationError stops a call before any request when the host
// has not configured a variable the call needs. There is no default
// environment and no default token.
type MissingConfigurationError struct {
	Variable string
	What     string
}

func (e *MissingConfigurationError) Error() string {
	return e.Variable + " is not set: the host must configure " + e.What + " before this Tool can run"
}

// ErrorName and ErrorCode are what the Tool error shows of it.
func (e *MissingConfigurationError) ErrorName() string { return "MissingConfigurationError" }
func (e *MissingConfigurationError) ErrorCode() string { return "MISSING_CONFIGURATION" }

// MissingInputError stops a call before any request when an input that
// names what the request acts on is missing.
type MissingInputError struct{ Input string }

func (e *MissingInputError) Error() string {
	return e.Input + " is missing: the call needs it to know what to act on"
}

// ErrorName and ErrorCode are what the Tool error shows of it.
func (e *MissingInputError) ErrorName() string { return "MissingInputError" }
func (e *MissingInputError) ErrorCode() string { return "MISSING_INPUT" }

// serviceURL resolves path against the base URL held by a variable,
// keeping the base URL's own path ("https://host/v2" + "reservations" is
// "https://host/v2/reservations").
func serviceURL(rt Runtime, variable, path string) (*url.URL, error) {
	base := strings.TrimSpace(rt.getenv(variable))
	if base == "" {
		return nil, &MissingConfigurationError{Variable: variable, What: "the service's base URL"}
	}
	b, err := url.Parse(strings.TrimRight(base, "/") + "/")
	if err != nil {
		return nil, err
	}
	ref, err := url.Parse(path)
	if err != nil {
		return nil, err
	}
	return b.ResolveReference(ref), nil
}

// Values arrive from agents loosely typed ("3" or 3, null for "not
// given"); these helpers normalise them without rejecting anything the
// backend might accept: the backend stays the authority on what is valid.

// text is a value as trimmed text; "" when it is absent or blank.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return strings.TrimSpace(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case map[string]any:
		return "[object Object]"
	default:
		b, _ := json.Marshal(x)
		return strings.TrimSpace(string(b))
	}
}

// optional is text(v), nil when blank: a JSON field left out.
func optional(v any) any {
	if s := text(v); s != "" {
		return s
	}
	return nil
}

// count is a value as a number when it reads as one; otherwise the value
// as it came, nil when it is absent.
func count(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		if x == "" {
			return nil
		}
		if n, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
			return n
		}
		return x
	default:
		return x
	}
}

// encodeComponent percent-encodes everything but the unreserved marks of
// encodeURIComponent, so that an id is one path segment or one value.
func encodeComponent(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteString("%" + strings.ToUpper(strconv.FormatUint(uint64(c)>>4, 16)+strconv.FormatUint(uint64(c)&15, 16)))
	}
	return b.String()
}

// PathSegment returns an input as one encoded URL path segment, or stops
// the call when it is missing: DELETE reservations/ is not "the
// reservation".
func PathSegment(v any, input string) (string, error) {
	s := text(v)
	if s == "" {
		return "", &MissingInputError{Input: input}
	}
	return encodeComponent(s), nil
}

// PickupTimestamp is the pickup slot as the reservation client sends it:
// the chosen date and time joined into one local ISO timestamp,
// "2026-04-03" + "9:30" → "2026-04-03T09:30:00"; nil without a date.
func PickupTimestamp(date, clock any) any {
	day := text(date)
	if day == "" {
		return nil
	}
	c := text(clock)
	if c == "" {
		c = "00:00"
	}
	parts := strings.Split(c, ":")
	for len(parts) < 3 {
		parts = append(parts, "0")
	}
	pad := func(p string) string {
		for len(p) < 2 {
			p = "0" + p
		}
		return p
	}
	return day + "T" + pad(parts[0]) + ":" + pad(parts[1]) + ":" + pad(parts[2])
}

// DryRunRequest is what a write under CODE2SKILL_DRY_RUN=1 returns: the
// request it would send, the token not shown.
type DryRunRequest struct {
	DryRun  bool         `json:"dryRun"`
	Request ShownRequest `json:"request"`
}

// ShownRequest is a request as a dry run shows it.
type ShownRequest struct {
	Method  string            `json:"method"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Body    json.RawMessage   `json:"body,omitempty"`
}

// send sends one request and reads its answer, within the time limit and
// until ctx ends.
func send(ctx context.Context, rt Runtime, req *http.Request) (any, error) {
	ctx, cancel := context.WithTimeout(ctx, rt.timeout())
	defer cancel()
	resp, err := rt.client().Do(req.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	return agentresult.ReadHTTPResponse(resp)
}

// reservations sends one request to the reservation service as the member
// the host's token names. A write under CODE2SKILL_DRY_RUN=1 is not sent.
func reservations(ctx context.Context, rt Runtime, method, path string, body any) (any, error) {
	u, err := serviceURL(rt, ReservationsBaseURL, path)
	if err != nil {
		return nil, err
	}
	token := strings.TrimSpace(rt.getenv(ReservationsToken))
	if token == "" {
		return nil, &MissingConfigurationError{Variable: ReservationsToken, What: "the member's reservation token"}
	}
	headers := map[string]string{"accept": "application/json", "authorization": "Token " + token}
	var payload []byte
	if body != nil {
		headers["content-type"] = "application/json"
		if payload, err = json.Marshal(body); err != nil {
			return nil, err
		}
	}
	if method != http.MethodGet && rt.getenv(DryRun) == "1" {
		shown := map[string]string{}
		for k, v := range headers {
			shown[k] = v
		}
		shown["authorization"] = NotShown
		return DryRunRequest{DryRun: true, Request: ShownRequest{Method: method, URL: u.String(), Headers: shown, Body: payload}}, nil
	}
	req, err := http.NewRequest(method, u.String(), bytes.NewReader(payload))
	if err != nil {
		return nil, err
	}
	if payload == nil {
		req.Body = http.NoBody
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	return send(ctx, rt, req)
}

// CredentialFields are the credential fields of the reservation service's
// answers.
var CredentialFields = [][]string{{"member", "sessionToken"}}

// WithoutFields removes fields from a JSON body passed through: the
// reservation service repeats the member's session token in its answers,
// and a credential never reaches the agent. The order of the other fields
// is kept; a body that is not a JSON object stays as it was.
func WithoutFields(result any, paths [][]string) any {
	r, ok := result.(agentresult.HTTPResult)
	if !ok {
		return result
	}
	body := []byte(r.BodyText)
	removed := false
	for _, path := range paths {
		if next, ok := removeField(body, path); ok {
			body, removed = next, true
		}
	}
	if removed {
		r.BodyText = string(body)
	}
	return r
}

// removeField removes the member path leads to from the JSON object doc,
// keeping everything else in order.
func removeField(doc []byte, path []string) ([]byte, bool) {
	members, ok := objectMembers(doc)
	if !ok || len(path) == 0 {
		return nil, false
	}
	var out bytes.Buffer
	out.WriteByte('{')
	removed, first := false, true
	for _, m := range members {
		value := m.value
		if m.key == path[0] {
			if len(path) == 1 {
				removed = true
				continue
			}
			if inner, ok := removeField(value, path[1:]); ok {
				value, removed = inner, true
			}
		}
		if !first {
			out.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(m.key)
		out.Write(k)
		out.WriteByte(':')
		var compact bytes.Buffer
		if json.Compact(&compact, value) != nil {
			return nil, false
		}
		out.Write(compact.Bytes())
	}
	out.WriteByte('}')
	return out.Bytes(), removed
}

type member struct {
	key   string
	value json.RawMessage
}

// objectMembers decodes a JSON object into its members, in order.
func objectMembers(doc []byte) ([]member, bool) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, false
		}
		out = append(out, member{key, value})
	}
	if _, err := dec.Token(); err != nil {
		return nil, false
	}
	return out, true
}

// SearchSeedVarieties lists the varieties of the catalog, optionally
// filtered by a search phrase and by the month they are sown in.
// Read-only.
func SearchSeedVarieties(ctx context.Context, input map[string]any, rt Runtime) (any, error) {
	u, err := serviceURL(rt, CatalogBaseURL, "varieties")
	if err != nil {
		return nil, err
	}
	q := u.Query()
	if s := text(input["query"]); s != "" {
		q.Set("q", s)
	}
	if m := count(input["sowingMonth"]); m != nil {
		q.Set("sowing_month", text(m))
	}
	u.RawQuery = q.Encode()
	req, err := http.NewRequest(http.MethodGet, u.String(), http.NoBody)
	if err != nil {
		return nil, err
	}
	req.Header.Set("accept", "application/json")
	return send(ctx, rt, req)
}

// reservation is the body the reservation service reads, in the order
// its client writes it.
type reservation struct {
	VarietyID   any `json:"variety_id,omitempty"`
	LotCode     any `json:"lot_code,omitempty"`
	PacketCount any `json:"packet_count,omitempty"`
	PickupAt    any `json:"pickup_at,omitempty"`
	MemberNote  any `json:"member_note,omitempty"`
}

// ReserveSeedPackets reserves seed packets of the variety the member
// selected from a search result. The selected record is passed whole: its
// id and lot both go into the request, and nothing from an earlier
// selection is kept. The service reads the reservation under a
// "reservation" key.
func ReserveSeedPackets(ctx context.Context, input map[string]any, rt Runtime) (any, error) {
	selected, _ := input["selectedVariety"].(map[string]any)
	varietyID := text(selected["varietyId"])
	if varietyID == "" {
		return nil, &MissingInputError{Input: "selectedVariety.varietyId"}
	}
	body := map[string]reservation{"reservation": {
		VarietyID:   varietyID,
		LotCode:     optional(selected["lotCode"]),
		PacketCount: count(input["packetCount"]),
		PickupAt:    PickupTimestamp(input["pickupDate"], input["pickupTime"]),
		MemberNote:  optional(input["note"]),
	}}
	return reservations(ctx, rt, http.MethodPost, "reservations", body)
}

// ListMyReservations lists the member's own reservations, optionally only
// those in one state. Read-only. The member's session token the service
// repeats is removed.
func ListMyReservations(ctx context.Context, input map[string]any, rt Runtime) (any, error) {
	path := "members/me/reservations"
	if s := text(input["status"]); s != "" {
		path += "?status=" + encodeComponent(s)
	}
	result, err := reservations(ctx, rt, http.MethodGet, path, nil)
	if err != nil {
		return nil, err
	}
	return WithoutFields(result, CredentialFields), nil
}

// CancelReservation cancels one of the member's reservations. The packets
// go back to the shelf for anyone to reserve; a cancelled reservation
// cannot be restored.
func CancelReservation(ctx context.Context, input map[string]any, rt Runtime) (any, error) {
	id, err := PathSegment(input["reservationId"], "reservationId")
	if err != nil {
		return nil, err
	}
	return reservations(ctx, rt, http.MethodDelete, "reservations/"+id, nil)
}
