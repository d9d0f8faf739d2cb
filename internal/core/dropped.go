package core

import "fmt"

// checkDroppedCalls reports the calls of a Tool's Function, and of an MCP
// client's callTool, that a test drops: a statement that is the call
// alone. A Function answers through a promise; a test that does not await
// it ends before the answer arrives, and passes whatever the Function
// makes of it. A synchronous mock answers anyway, so the coverage shows
// the request answered (CORE_TESTS_REQUEST_NOT_ANSWERED stays quiet):
// only the test's own code tells.
func (c *checker) checkDroppedCalls() {
	functions := map[[2]string]string{} // module and local name -> the Tool
	for f := range c.toolFunctions() {
		functions[[2]string{f.module, f.local}] = f.tool
	}
	for _, file := range sortedKeys(c.tests) {
		for _, d := range c.tests[file].DroppedCalls() {
			what := ""
			if d.Callee == "callTool" {
				what = "callTool(…), the MCP client's call of a Tool,"
			} else if d.Import.Local != "" {
				module, local := c.toolFunction(file, d.Import)
				if tool, ok := functions[[2]string{module, local}]; ok {
					what = fmt.Sprintf("%s(…), tool %q's Function,", d.Callee, tool)
				}
			}
			if what == "" {
				continue
			}
			c.add(RuleTestsResultDropped.New(file, "the test calls %s without awaiting it: the test ends before the request's answer arrives, so nothing checks what the Function makes of it; "+
				"await the call (or return it) and assert on the result", what).At(d.Pos.Line, d.Pos.Column))
		}
	}
}
