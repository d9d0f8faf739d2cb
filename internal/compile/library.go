package compile

// CoreLibrary returns the helper code every compiled Function core ends
// with: what a Function does to validate its input, send its steps and
// reject an answer, and so every error code a compiled Function raises
// itself (the copied assets raise the others).
func CoreLibrary() []byte { return []byte(corelib) }
