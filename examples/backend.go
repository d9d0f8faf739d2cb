package examples

import (
	"embed"
	"io/fs"
)

// The backend-only strict sample is a fictional allotment society's notice
// board and the strict-export-v1 package a Producer would author for its
// comments, a feature with no client at all:
//
//	notice-comments/app/server   the board's backend (Go, net/http, JSON)
//	notice-comments/package      the authored package inputs
//
// Its feature boundary is an explicitly scoped service feature: the three
// routes (public list, authenticated add, authenticated delete) are the
// surface, and every fact comes from the backend. The generate Skill's
// references/strict-backend-example.md walks through it.
var (
	//go:embed notice-comments/package
	backendPackage embed.FS
	//go:embed notice-comments/app
	backendSource embed.FS
)

// BackendSampleName is the name of the backend-only sample's package, the
// directory it must be written to.
const BackendSampleName = "notice-comments"

// BackendSampleSourceID is the topology's source ID of the board's backend.
const BackendSampleSourceID = "notice-board-service"

// BackendSample returns the authored inputs of the backend-only sample:
// source-topology.json, canonical-contract.json, export-profile.json,
// host-profile.json, authoring/tool-docs.json and the four documents.
func BackendSample() fs.FS { return sub(backendPackage, BackendSampleName+"/package") }

// BackendSampleSource returns the board's source tree: app/server,
// relative to the tree's root.
func BackendSampleSource() fs.FS { return sub(backendSource, BackendSampleName) }
