package pkgdir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/code2skill/code2skill/internal/diag"
)

// MaxInputSize is how many bytes code2skill reads from one input file (a
// contract, a profile, a case file, a report) unless a command is told
// otherwise.
const MaxInputSize = 16 << 20

// Errors of ReadFile, for errors.Is.
var (
	// ErrNotRegular: the path is a FIFO, a device, a socket, a directory or
	// a symbolic link. Reading a FIFO or a device could block or never end.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: the file holds more bytes than the limit.
	ErrTooLarge = errors.New("file too large")
)

// Rules for input files that ReadFile refuses.
var (
	RuleInputNotRegular = diag.Register("PKG_INPUT_NOT_REGULAR", diag.Error, "an input file is a FIFO, device, socket, directory or symbolic link instead of a regular file")
	RuleInputTooLarge   = diag.Register("PKG_INPUT_TOO_LARGE", diag.Error, "an input file is larger than code2skill reads")
)

// CheckWrite refuses a file code2skill is about to write into a package
// that no command would read back: one larger than MaxInputSize.
func CheckWrite(path string, data []byte) error {
	if len(data) > MaxInputSize {
		return fmt.Errorf("%s would be %d bytes, more than the %d (16 MiB) every command reads of a file: %w", path, len(data), MaxInputSize, ErrTooLarge)
	}
	return nil
}

// ReadFile reads the regular file at name, at most limit bytes (MaxInputSize
// when limit <= 0). It never blocks on a FIFO or a device and never follows
// a symbolic link in the last component: those are ErrNotRegular. A file
// larger than the limit, or one that grows past it while being read, is
// ErrTooLarge. Errors carry no path: the caller names the file.
func ReadFile(name string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = MaxInputSize
	}
	fi, err := os.Lstat(name)
	if err != nil {
		return nil, unwrapPath(err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w (%s)", ErrNotRegular, kindOf(fi.Mode()))
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%w: %d bytes, more than the %d code2skill reads", ErrTooLarge, fi.Size(), limit)
	}
	f, err := openNoBlock(name)
	if err != nil {
		return nil, unwrapPath(err)
	}
	defer f.Close()
	// The file may have been swapped between Lstat and open.
	if fi2, err := f.Stat(); err != nil {
		return nil, unwrapPath(err)
	} else if !fi2.Mode().IsRegular() || !os.SameFile(fi, fi2) {
		return nil, fmt.Errorf("%w (replaced while being opened)", ErrNotRegular)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, unwrapPath(err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: grew past the %d bytes code2skill reads", ErrTooLarge, limit)
	}
	return b, nil
}

// ReadFinding turns a ReadFile error about file into a finding when the
// error is about the input itself (not a regular file, too large); ok is
// false for other errors, which are failures of the tool (permissions, I/O).
func ReadFinding(file string, err error) (d diag.Diagnostic, ok bool) {
	switch {
	case errors.Is(err, ErrNotRegular):
		return RuleInputNotRegular.New(file, "%v; code2skill reads only regular files", err), true
	case errors.Is(err, ErrTooLarge):
		return RuleInputTooLarge.New(file, "%v", err), true
	}
	return diag.Diagnostic{}, false
}

// kindOf names a file mode's type for messages.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file"
}
