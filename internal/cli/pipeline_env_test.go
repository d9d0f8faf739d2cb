package cli

import (
	"strings"
	"testing"
)

// TestPipelineEnvValues: --env KEY=VALUE gives the value, --env KEY passes
// code2skill's own, and --env KEY for a variable code2skill's environment
// does not set is a usage error naming it.
func TestPipelineEnvValues(t *testing.T) {
	t.Setenv("CODE2SKILL_TEST_TOKEN", "own-value")
	got, err := envValues([]string{"CODE2SKILL_TEST_TOKEN", "BASE_URL=http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	if got["CODE2SKILL_TEST_TOKEN"] != "own-value" || got["BASE_URL"] != "http://127.0.0.1:1" {
		t.Errorf("values %v", got)
	}
	_, err = envValues([]string{"CODE2SKILL_TEST_UNSET_VARIABLE"})
	if err == nil || !strings.Contains(err.Error(), "--env CODE2SKILL_TEST_UNSET_VARIABLE: the variable is not set") {
		t.Errorf("an unset variable: %v", err)
	}
}
