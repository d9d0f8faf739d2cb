// Package npm prepares the one npm command code2skill runs itself, the
// dependency install of "code2skill demo", and explains its failures.
//
// npm runs sandboxed with the network allowed, and sees only what it needs
// of the user's setup: their npm configuration file (registry, proxies,
// certificates, and the auth tokens it holds or names through ${VAR}), the
// variables that configure npm or the proxy, and their npm cache, which it
// may write.
//
// npm itself gives up on an unreachable registry only after every one of
// the hundred-odd requests of an install has timed out. The install is
// therefore tried from the cache first; only when the cache lacks something
// is the registry asked, after Reachable has checked within a few seconds
// that it answers at all.
package npm

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
)

// passed lists the variables passed to npm as they are: where the registry
// is, how to reach it, and which certificates to trust.
var passed = []string{
	"npm_config_registry", "NPM_CONFIG_REGISTRY",
	"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy",
	"npm_config_proxy", "npm_config_https_proxy", "npm_config_noproxy",
	"NODE_EXTRA_CA_CERTS", "npm_config_cafile", "npm_config_strict_ssl",
}

// DefaultRegistry is npm's registry unless configured otherwise.
const DefaultRegistry = "https://registry.npmjs.org/"

// Install is how to run npm for the user.
type Install struct {
	Env      []string       // variables npm gets besides the sandbox's allowlist
	Binds    []sandbox.Bind // what of the user's files it sees
	Cache    string         // the npm cache it writes
	Registry string         // the registry npm asks
	Proxy    string         // the proxy npm's configuration names, if any
}

// Prepare reads the user's npm setup: lookup is os.LookupEnv, home the
// user's home directory ("" when unknown).
func Prepare(lookup func(string) (string, bool), home string) (*Install, error) {
	in := &Install{}
	get := func(k string) string {
		v, _ := lookup(k)
		return v
	}
	for _, k := range passed {
		if v, ok := lookup(k); ok {
			in.Env = append(in.Env, k+"="+v)
		}
	}
	for _, k := range []string{"NODE_EXTRA_CA_CERTS", "npm_config_cafile"} {
		in.bindFile(get(k))
	}

	userconfig := firstNonEmpty(get("npm_config_userconfig"), get("NPM_CONFIG_USERCONFIG"))
	if userconfig == "" && home != "" {
		userconfig = filepath.Join(home, ".npmrc")
	}
	settings := map[string]string{}
	if b, err := pkgdir.ReadFile(userconfig, 1<<20); err == nil {
		in.Env = append(in.Env, "npm_config_userconfig="+userconfig)
		in.Binds = append(in.Binds, sandbox.Bind{Source: userconfig})
		settings = parse(b)
		// Values such as _authToken=${NPM_TOKEN} name variables npm must see.
		for _, name := range referenced(b) {
			if v, ok := lookup(name); ok {
				in.Env = append(in.Env, name+"="+v)
			}
		}
		in.bindFile(settings["cafile"])
	}

	in.Registry = firstNonEmpty(get("npm_config_registry"), get("NPM_CONFIG_REGISTRY"), settings["registry"], DefaultRegistry)
	in.Proxy = firstNonEmpty(get("npm_config_https_proxy"), settings["https-proxy"], get("npm_config_proxy"), settings["proxy"])
	in.Cache = firstNonEmpty(get("npm_config_cache"), get("NPM_CONFIG_CACHE"), expand(settings["cache"], home))
	if in.Cache == "" && home != "" {
		in.Cache = filepath.Join(home, ".npm")
	}
	if in.Cache == "" {
		return nil, fmt.Errorf("no npm cache: set npm_config_cache or HOME")
	}
	if err := os.MkdirAll(in.Cache, 0o700); err != nil {
		return nil, fmt.Errorf("npm cache: %w", err)
	}
	in.Env = append(in.Env, "npm_config_cache="+in.Cache,
		"npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false")
	in.Binds = append(in.Binds, sandbox.Bind{Source: in.Cache, Writable: true})
	return in, nil
}

func (in *Install) bindFile(p string) {
	if p == "" {
		return
	}
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
		in.Binds = append(in.Binds, sandbox.Bind{Source: p})
	}
}

// parse reads the key=value lines of an npmrc.
func parse(b []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == ';' || line[0] == '#' {
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok {
			out[strings.TrimSpace(k)] = strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return out
}

var reference = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// referenced returns the variables an npmrc names as ${VAR}, in order.
func referenced(b []byte) []string {
	var names []string
	seen := map[string]bool{}
	for _, m := range reference.FindAllSubmatch(b, -1) {
		if n := string(m[1]); !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	return names
}

func expand(p, home string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
		return filepath.Join(home, rest)
	}
	return p
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// Reachable checks that the registry answers an HTTP request within
// timeout, through the proxy npm would use. Any answer will do: it is a
// probe, nothing of the response is used, and npm verifies the registry's
// certificate itself (a private CA the user configured for npm need not be
// known here).
func (in *Install) Reachable(ctx context.Context, timeout time.Duration) error {
	proxy := http.ProxyFromEnvironment
	if in.Proxy != "" {
		u, err := url.Parse(in.Proxy)
		if err != nil {
			return fmt.Errorf("the proxy %q of the npm configuration: %w", in.Proxy, err)
		}
		proxy = http.ProxyURL(u)
	}
	client := &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			Proxy:           proxy,
			TLSClientConfig: &tls.Config{InsecureSkipVerify: true},
		},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, in.Registry, nil)
	if err != nil {
		return fmt.Errorf("the registry %q: %w", in.Registry, err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// NotCached reports whether npm failed because an offline install found
// something missing from the cache.
func NotCached(output []byte) bool { return notCached.Match(output) }

var notCached = regexp.MustCompile(`(?m)^npm (?:ERR!|error) code ENOTCACHED$`)

// networkCodes are npm's error codes for a registry it could not reach.
var networkCodes = regexp.MustCompile(`(?m)^npm (?:ERR!|error) code (ECONNREFUSED|ECONNRESET|ETIMEDOUT|ESOCKETTIMEDOUT|ERR_SOCKET_TIMEOUT|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN)$`)

var requestURL = regexp.MustCompile(`request to (\S+) failed`)

// Unreachable explains an npm failure to reach the registry: the error
// code and, when npm names it, the URL it asked for. ok is false for other
// failures.
func Unreachable(output []byte) (code, url string, ok bool) {
	m := networkCodes.FindSubmatch(output)
	if m == nil {
		return "", "", false
	}
	if u := requestURL.FindSubmatch(output); u != nil {
		url = strings.TrimSuffix(string(u[1]), ",")
	}
	return string(m[1]), url, true
}
