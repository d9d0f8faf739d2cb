package code2skill

// The copies of the runtime assets outside assets/ are generated from them.
//go:generate go run ./internal/assetcopy/gencopies -root .
