package contamination

// publicNames are compound names that public specifications define, in
// their normal form (see compound): every application that speaks those
// protocols uses them, so a source using one says nothing private about
// itself, and a package may use it (an example value `access-token`, a
// header `Content-Type`).
var publicNames = map[string]bool{}

func init() {
	for _, n := range []string{
		// OAuth 2.0 (RFC 6749, 7009, 7636, 7662) and OpenID Connect.
		"access-token", "refresh-token", "id-token", "token-type", "expires-in", "grant-type", "client-id",
		"client-secret", "redirect-uri", "response-type", "code-verifier", "code-challenge",
		"code-challenge-method", "token-type-hint", "authorization-code", "client-credentials",
		// HTTP fields (RFC 9110, 9111, 6265, 6585, 7034) and CORS (Fetch).
		"content-type", "content-length", "content-encoding", "content-disposition", "content-language",
		"user-agent", "retry-after", "last-modified", "if-match", "if-none-match", "if-modified-since",
		"if-unmodified-since", "cache-control", "www-authenticate", "set-cookie", "accept-language",
		"accept-encoding", "transfer-encoding", "x-request-id", "x-forwarded-for", "x-forwarded-proto",
		"x-content-type-options", "x-frame-options", "access-control-allow-origin",
		"access-control-allow-methods", "access-control-allow-headers", "x-ratelimit-limit",
		"x-ratelimit-remaining", "x-ratelimit-reset",
		// Media types (RFC 6838 registry) and form encodings.
		"octet-stream", "form-data", "x-www-form-urlencoded",
	} {
		publicNames[n] = true
	}
}
