//go:build !unix

package sandbox

import "os/exec"

func setProcessGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd)      { cmd.Process.Kill() }
func terminateGroup(cmd *exec.Cmd) { cmd.Process.Kill() }
