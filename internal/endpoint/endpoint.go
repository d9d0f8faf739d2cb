// Package endpoint judges the fixed endpoints of public third-party
// protocols a core package declares.
//
// Spec 003 keeps a business service's address out of the code: the host
// configures it through the environment, and a Function never falls back to
// an address the source happened to hold. The fixed endpoint of a public
// protocol (a standard's token or discovery endpoint, a public API whose
// address is part of its specification) is not such a default, so a
// package may call it at its literal address — provided it says so, where
// a reviewer and a deployer read it: package.json's
// code2skill.publicEndpoints lists each one, and MCP-SETUP.md names it.
// Whatever is not declared stays a literal service address.
package endpoint

import (
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

// List is the declared public endpoints, each an https URL without
// credentials, query or fragment; a request is under an endpoint when its
// URL is the endpoint or continues it after "/" or "?".
type List []string

// Parse checks one declared endpoint and returns it as written.
func Parse(raw string) (string, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return "", fmt.Errorf("%q is not a URL: %v", raw, err)
	case u.Scheme != "https":
		return "", fmt.Errorf("%q is not an https URL: a public protocol's fixed endpoint is served over TLS", raw)
	case u.Host == "" || u.Hostname() == "":
		return "", fmt.Errorf("%q names no host", raw)
	case u.User != nil:
		return "", fmt.Errorf("%q carries credentials", raw)
	case u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(raw, "?#"):
		return "", fmt.Errorf("%q has a query or fragment; declare the endpoint's address alone", raw)
	case local(u.Hostname()):
		return "", fmt.Errorf("%q is a local or reserved address, not a public endpoint", raw)
	}
	return raw, nil
}

// local reports host names no public protocol is served at.
func local(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	for _, suffix := range []string{"localhost", ".localhost", ".invalid", ".test", ".example", ".local", ".internal"} {
		if h == strings.TrimPrefix(suffix, ".") || strings.HasSuffix(h, suffix) {
			return true
		}
	}
	if ip, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil {
		return !ip.IsGlobalUnicast() || ip.IsPrivate()
	}
	return strings.Count(h, ".") == 0
}

// Covers reports whether a URL, or the literal start of one (a template's
// text before its first substitution), is under a declared endpoint.
func (l List) Covers(raw string) bool {
	for _, e := range l {
		base := strings.TrimSuffix(e, "/")
		if raw == base || strings.HasPrefix(raw, base+"/") || strings.HasPrefix(raw, base+"?") {
			return true
		}
	}
	return false
}
