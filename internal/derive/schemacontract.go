package derive

import (
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
)

// SchemaContract returns the schema contract of c: the value that
// function-core/schema-contract.json and mcp-tool/schema-contract.json hold,
// computed exactly as Views computes it. Its capabilities list follows the
// contract's order, one entry per capability, each with capabilityId,
// toolName, functionExport, inputSchema, outputSchema, annotations,
// conditionalRules, constraints, errorContract, operationPolicy and
// operationSummary. Runtimes are built from it and checked against it.
//
// The result is a fresh value that shares subtrees with c: read it, do not
// change it. Call it only when Check reports no error.
func SchemaContract(c *contract.Contract) *canonjson.Object { return schemaContract(c.Canonical()) }
