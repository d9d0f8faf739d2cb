package testnode

import (
	"regexp"
	"strconv"
)

// TAPCount reads a "# pass N" style summary line (key "pass", "fail", …)
// of a node --test TAP report; -1 when it is missing.
func TAPCount(out, key string) int {
	m := regexp.MustCompile(`(?m)^# ` + regexp.QuoteMeta(key) + ` (\d+)$`).FindStringSubmatch(out)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
