// Command gencopies writes the copies of the reviewed runtime assets kept
// outside assets/ (see internal/assetcopy) from the assets. The repository
// root runs it through go generate:
//
//	go generate .
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/code2skill/code2skill/internal/assetcopy"
)

func main() {
	root := flag.String("root", ".", "the repository root")
	flag.Parse()
	wrote, err := assetcopy.Generate(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencopies:", err)
		os.Exit(1)
	}
	for _, c := range wrote {
		fmt.Fprintf(os.Stderr, "gencopies: wrote %s from assets/%s\n", c.Path, c.Asset.Source())
	}
	fmt.Fprintf(os.Stderr, "gencopies: %d of %d copies written\n", len(wrote), len(assetcopy.Copies()))
}
