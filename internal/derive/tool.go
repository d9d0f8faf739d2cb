package derive

import (
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
)

// ToolContract is the schema-contract projection of one capability, as
// schema-contract.json holds it: what the Function and the MCP Tool are
// checked against.
type ToolContract struct {
	InputSchema      *canonjson.Object
	OutputSchema     *canonjson.Object
	ConditionalRules *canonjson.Object // input name -> {requiredWhen, forbiddenWhen}
	OperationSummary *canonjson.Object
}

// Tool returns the schema-contract projection of a capability. Like Views,
// it is meaningful only for inputs Check accepts.
func Tool(cp *contract.Capability) *ToolContract {
	return &ToolContract{
		InputSchema:      inputSchema(cp),
		OutputSchema:     outputSchema(cp),
		ConditionalRules: conditionalRules(cp),
		OperationSummary: operationSummary(cp),
	}
}

// MinimumChecks returns the verification checks the contract requires of a
// capability whatever it declares (spec §8.1): behaviour checks and runtime
// checks, each sorted. Declared checks only add to them.
func MinimumChecks(c *contract.Contract, cp *contract.Capability) (behavior, runtime []string) {
	return minimumChecks(c, cp)
}
