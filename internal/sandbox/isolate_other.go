//go:build !linux

package sandbox

import "os/exec"

var levels []struct{}

func startIsolated(mk func() *exec.Cmd, network Network) (*exec.Cmd, Isolation, error) {
	cmd := mk()
	detail := "network allowed for this run"
	if network == DenyNetwork {
		detail = "network not isolated: namespaces are only available on Linux"
	}
	return cmd, Isolation{NetworkDenied: false, Detail: detail}, cmd.Start()
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}

func terminate(cmd *exec.Cmd) { killGroup(cmd) }
