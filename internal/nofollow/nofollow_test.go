//go:build unix

package nofollow

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// Every way of reaching a file through a link is refused, by openat2 and
// by the walk that stands in for it alike; plain paths open.
func TestOpen(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.MkdirAll(filepath.Join(root, "real", "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "real", "sub", "f"), []byte("x"), 0o644))
	must(t, os.Symlink("real", filepath.Join(root, "dirlink")))
	must(t, os.Symlink("sub/f", filepath.Join(root, "real", "filelink")))
	for _, tc := range []struct {
		path  string
		flags int
		link  bool
	}{
		{"real/sub/f", unix.O_RDONLY, false},
		{"real/sub", unix.O_RDONLY | unix.O_DIRECTORY, false},
		{"real/sub", oSearch | unix.O_DIRECTORY, false},
		{"dirlink/sub/f", unix.O_RDONLY, true},
		{"dirlink", unix.O_RDONLY | unix.O_DIRECTORY, true},
		{"real/filelink", unix.O_RDONLY, true},
		{"real/filelink", oSearch, true},
	} {
		for _, openat2 := range []bool{true, false} {
			saved := useOpenat2
			useOpenat2 = openat2
			fd, err := Open(filepath.Join(root, tc.path), tc.flags)
			useOpenat2 = saved
			name := "walk"
			if openat2 {
				name = "openat2"
			}
			if err == nil {
				unix.Close(fd)
			}
			if got := errors.Is(err, ErrLink); got != tc.link || (!tc.link && err != nil) {
				t.Errorf("%s(%s, %#x) = %v; want a link refused: %v", name, tc.path, tc.flags, err, tc.link)
			}
		}
	}
	if _, err := Open("relative/path", unix.O_RDONLY); err == nil {
		t.Error("a relative path was opened")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
