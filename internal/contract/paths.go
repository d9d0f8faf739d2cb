package contract

import (
	"net/url"
	"strings"
)

// PortablePath reports whether p is a portable relative path: not empty,
// not absolute, no "..", no backslash, no NUL and no URI scheme or drive
// letter. Source roots and the paths of evidence locators must be portable,
// so that a contract means the same on every machine.
func PortablePath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\\\x00") {
		return false
	}
	if i := strings.IndexByte(p, ':'); i > 0 && isScheme(p[:i]) {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return false
		}
	}
	return true
}

// LocatorPath returns the path part of an evidence locator: what precedes
// the symbol ("#") and the line (":"). A locator that starts with a URI
// scheme or drive ("file:///", "C:\\") has no portable path, and yields "".
func LocatorPath(locator string) string {
	p, _, _ := strings.Cut(locator, "#")
	if scheme, rest, ok := strings.Cut(p, ":"); ok && isScheme(scheme) &&
		(strings.HasPrefix(rest, "/") || strings.HasPrefix(rest, "\\")) {
		return ""
	}
	p, _, _ = strings.Cut(p, ":")
	return p
}

// isScheme reports whether s has the form of a URI scheme (RFC 3986), which
// also covers a drive letter such as C.
func isScheme(s string) bool {
	for i, r := range s {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
		case i > 0 && ('0' <= r && r <= '9' || r == '+' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return s != ""
}

// Origin returns scheme://host[:port] of an absolute http(s) URL: the
// origin an HTTP step calls, as views list it and the export profile must
// allow it. The scheme is lower-cased; the host is kept as written.
func Origin(rawURL string) (string, bool) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false
	}
	return u.Scheme + "://" + u.Host, true
}
