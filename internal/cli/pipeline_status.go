package cli

// pipelineStatus is code2skill pipeline status.
func pipelineStatus(c *command, stdio *Stdio, args []string) int {
	pf := newPipelineFlags(c, false, true)
	pc, code, ok := pf.open(stdio, args, false)
	if !ok {
		return code
	}
	return pc.status()
}

func (pc *pipelineCommand) status() int {
	rep, err := pc.p.Status()
	if err != nil {
		return pc.fail(err)
	}
	pc.printPipeline(rep, nil)
	return ExitPassed
}
