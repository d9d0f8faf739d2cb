package cli

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/code2skill/code2skill/internal/pkgdir"
)

// maxEnvFile bounds an environment file, in bytes.
const maxEnvFile = 1 << 20

var envKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// readEnvFile reads KEY=VALUE lines for the server's environment, so that
// secrets need not be written on the command line (where other users and
// the shell history see them). Blank lines and lines starting with # are
// skipped; "export " before a key is allowed; a value in matching single or
// double quotes is taken without them (double quotes understand \n, \" and
// \\); any other value is taken as written, trimmed, with no comment or
// substitution. Errors name the file and line, never a value.
func readEnvFile(flagName, file string) ([]string, error) {
	data, err := pkgdir.ReadFile(file, maxEnvFile)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v", flagName, file, err)
	}
	var env []string
	for i, line := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
		key = strings.TrimSpace(key)
		if !ok || !envKey.MatchString(key) {
			return nil, fmt.Errorf("%s %s:%d: want KEY=VALUE with a KEY of letters, digits and underscores", flagName, file, i+1)
		}
		value, err := envValue(strings.TrimSpace(value))
		if err != nil {
			return nil, fmt.Errorf("%s %s:%d: %s: %v", flagName, file, i+1, key, err)
		}
		env = append(env, key+"="+value)
	}
	return env, nil
}

// envValue unquotes a value written in single or double quotes.
func envValue(v string) (string, error) {
	if v == "" || (v[0] != '"' && v[0] != '\'') {
		return v, nil
	}
	q := v[0]
	if len(v) < 2 || v[len(v)-1] != q {
		return "", fmt.Errorf("the value's closing %c is missing", q)
	}
	inner := v[1 : len(v)-1]
	if q == '\'' {
		return inner, nil
	}
	var b strings.Builder
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		if c != '\\' || i+1 == len(inner) {
			b.WriteByte(c)
			continue
		}
		i++
		switch inner[i] {
		case 'n':
			b.WriteByte('\n')
		case '"', '\\':
			b.WriteByte(inner[i])
		default:
			b.WriteByte('\\')
			b.WriteByte(inner[i])
		}
	}
	return b.String(), nil
}

// mergeEnv joins environment lists, a later value of a key replacing an
// earlier one in its place.
func mergeEnv(lists ...[]string) []string {
	var out []string
	at := map[string]int{}
	for _, list := range lists {
		for _, kv := range list {
			k, _, _ := strings.Cut(kv, "=")
			if i, ok := at[k]; ok {
				out[i] = kv
				continue
			}
			at[k] = len(out)
			out = append(out, kv)
		}
	}
	return out
}
