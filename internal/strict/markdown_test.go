package strict

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseDocument(t *testing.T) {
	d := parseDocument("x.md", []byte("# Title #\r\n"+
		"intro\n"+
		"\n"+
		"## One\n"+
		"```md\n"+
		"## not a heading\n"+
		"```\n"+
		"### Sub\n"+
		"text\n"+
		"#not a heading\n"+
		"~~~~\n"+
		"```\n"+
		"~~~~\n"+
		"## Two\n"+
		"last\n"))
	var got []heading
	got = append(got, d.headings...)
	want := []heading{{1, "Title", 0}, {2, "One", 3}, {3, "Sub", 7}, {2, "Two", 13}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(heading{})); diff != "" {
		t.Errorf("headings (-want +got):\n%s", diff)
	}
	if b := d.section(1); b != (block{3, 13}) {
		t.Errorf("section of One = %v, want [3,13)", b)
	}
	if b := d.section(2); b != (block{7, 13}) {
		t.Errorf("section of Sub = %v, want [7,13)", b)
	}
	if got := d.body(d.section(3)); got != "last\n" {
		t.Errorf("body of Two = %q", got)
	}
	wantParas := []block{{1, 2}, {8, 10}, {14, 15}}
	if diff := cmp.Diff(wantParas, d.paragraphs(), cmp.AllowUnexported(block{})); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
	for i, fenced := range []bool{false, false, false, false, true, true, true, false, false, false, true, true, true, false, false} {
		if d.fenced[i] != fenced {
			t.Errorf("line %d fenced = %t, want %t", i+1, d.fenced[i], fenced)
		}
	}
}

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
