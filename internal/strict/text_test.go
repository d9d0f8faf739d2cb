package strict

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMentions(t *testing.T) {
	line := []rune("`requestData`、requestDataDraft 与 myrequestData；requestData.subject")
	got := mentions(line, "requestData")
	want := []span{{1, 12}, {47, 58}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(span{})); diff != "" {
		t.Errorf("mentions (-want +got):\n%s", diff)
	}
	if got := string(maskCode([]rune("a `b c` d `e"))); got != "a `   ` d `e" {
		t.Errorf("maskCode = %q", got)
	}
}
