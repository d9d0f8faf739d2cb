package toolresult

import "github.com/code2skill/code2skill/internal/canonjson"

// DryRunOutputSchemaJSON is the outputSchema every Tool of a strict package
// lists while its server runs with the dry-run variable set to "1". Every
// call of such a server answers with the dry-run envelope instead of the
// Function's {status, data}, so the envelope is what the Tool's results
// are then, and what a client checks them against: a client that
// validates structuredContent (the TypeScript SDK Client, the Inspector
// CLI) returns a dry-run result only when the listed schema admits it.
// compile writes it into every adapter; the probe expects it.
const DryRunOutputSchemaJSON = `{
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "dryRun": {"type": "boolean", "const": true, "description": "Always true: the call was validated and not executed."},
    "validatedInput": {"type": "object", "description": "The arguments the call was validated with, unchanged."},
    "operationPolicy": {"type": "object", "description": "The Tool's operation policy from the contract."},
    "operationSummary": {"type": "object", "description": "What the call would do, from the contract."}
  },
  "required": ["dryRun", "validatedInput", "operationPolicy", "operationSummary"]
}`

// DryRunOutputSchema returns DryRunOutputSchemaJSON decoded; each call
// returns a fresh value.
func DryRunOutputSchema() canonjson.Value {
	v, err := canonjson.Decode([]byte(DryRunOutputSchemaJSON))
	if err != nil {
		panic("toolresult: DryRunOutputSchemaJSON: " + err.Error())
	}
	return v
}
