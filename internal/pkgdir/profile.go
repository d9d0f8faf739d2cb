package pkgdir

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// Profile names the package format a directory holds.
type Profile string

const (
	ProfileUnknown Profile = ""
	ProfileCore    Profile = "core-export-v1"   // the default compact package
	ProfileStrict  Profile = "strict-export-v1" // the opt-in audit package
)

// DetectProfile reports the profile a package declares: package.json's
// code2skill.profile when it names one, otherwise strict-export-v1 when a
// canonical-contract.json or export-profile.json is present (spec 000: a
// package declares vNext by including canonical-contract.json). It reads
// only those small files and never fails: an unreadable or malformed
// package.json is left to the validators to report.
func DetectProfile(dir string) Profile {
	if b, err := readSmall(filepath.Join(dir, "package.json")); err == nil {
		var pj struct {
			Code2skill struct {
				Profile string `json:"profile"`
			} `json:"code2skill"`
		}
		if json.Unmarshal(b, &pj) == nil && pj.Code2skill.Profile != "" {
			return Profile(pj.Code2skill.Profile)
		}
	}
	for _, f := range []string{"canonical-contract.json", "export-profile.json"} {
		if fi, err := os.Lstat(filepath.Join(dir, f)); err == nil && fi.Mode().IsRegular() {
			return ProfileStrict
		}
	}
	return ProfileUnknown
}

// readSmall reads a regular file (not a symlink) of at most MaxFileSize bytes.
func readSmall(path string) ([]byte, error) { return ReadFile(path, MaxFileSize) }
