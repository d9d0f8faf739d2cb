package pkgdir

import (
	"os"
	"path/filepath"

	"github.com/code2skill/code2skill/internal/canonjson"
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
	if p := declaredProfile(dir); p != ProfileUnknown {
		return p
	}
	for _, f := range []string{"canonical-contract.json", "export-profile.json"} {
		if fi, err := os.Lstat(filepath.Join(dir, f)); err == nil && fi.Mode().IsRegular() {
			return ProfileStrict
		}
	}
	return ProfileUnknown
}

// declaredProfile returns package.json's code2skill.profile, or
// ProfileUnknown when the file is unreadable, is not strict JSON (canonjson
// rejects a repeated member) or declares none. Members are matched by their
// exact names: "CODE2SKILL" or "Profile" is another member.
func declaredProfile(dir string) Profile {
	b, err := readSmall(filepath.Join(dir, "package.json"))
	if err != nil {
		return ProfileUnknown
	}
	v, err := canonjson.Decode(b)
	if err != nil {
		return ProfileUnknown
	}
	root, _ := v.(*canonjson.Object)
	if root == nil {
		return ProfileUnknown
	}
	c2s, _ := root.At("code2skill").(*canonjson.Object)
	if c2s == nil {
		return ProfileUnknown
	}
	s, _ := c2s.At("profile").(canonjson.String)
	return Profile(s)
}

// readSmall reads a regular file (not a symlink) of at most MaxFileSize bytes.
func readSmall(path string) ([]byte, error) { return ReadFile(path, MaxFileSize) }
