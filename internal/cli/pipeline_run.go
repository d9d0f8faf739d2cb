package cli

import (
	"context"
	"strings"

	"github.com/code2skill/code2skill/internal/livecall"
	"github.com/code2skill/code2skill/internal/pipeline"
)

// pipelineRun is code2skill pipeline run.
func pipelineRun(ctx context.Context, c *command, stdio *Stdio, args []string) int {
	pf := newPipelineFlags(c, true, true)
	fs := pf.fs
	only := fs.String("only", "", "run only the stages `STAGE,...`; every stage upstream must be completed and unchanged")
	rerun := fs.Bool("rerun", false, "run the selected stages even when their inputs are unchanged")
	enable := fs.Bool("enable-runtime-verify", false, "run runtime-verify in this run")
	enableHost := fs.Bool("enable-host-verify", false, "run host-verify in this run")
	hostEnvFile := fs.String("host-env-file", "", "host-verify: a `FILE` of KEY=VALUE lines, the values your host's MCP configuration "+
		"gives the variables MCP-SETUP.md names")
	var authorize, origins, env stringsFlag
	fs.Var(&authorize, "authorize-write", "let runtime and host verification call the write capability `ID` in this run (repeatable)")
	fs.Var(&origins, "runtime-origin", "serve an allowed runtime origin of the contract elsewhere for this run, `ORIGIN=URL` (repeatable)")
	addEnvFlag(fs, &env)
	ackChange := fs.String("acknowledge-contract-change", "", "finalize although the contract changed semantically since the last "+
		"finalization: the `DIGEST` of that diff, as the stopped finalize printed it")
	fs.deprecate("force", "rerun")
	requestTimeout := addDurationFlag(fs, "request-timeout", livecall.DefaultRequestTimeout, "each MCP request")
	pc, code, ok := pf.open(stdio, args, true)
	if !ok {
		return code
	}
	if *requestTimeout <= 0 {
		return usageError(stdio, c, "time limits must be positive")
	}
	opts := pipeline.RunOptions{Force: *rerun, EnableRuntimeVerify: *enable, AuthorizeWrites: authorize,
		EnableHostVerify: *enableHost, AcknowledgeContractChange: *ackChange, RequestTimeout: *requestTimeout}
	if flagGiven(fs, "only") {
		opts.Only = splitList(*only)
	}
	var err error
	if opts.Origins, err = pairs(origins, "--runtime-origin", "ORIGIN=URL"); err != nil {
		return usageError(stdio, c, "%v", err)
	}
	if opts.Env, err = envValues(env); err != nil {
		return usageError(stdio, c, "%v", err)
	}
	if flagGiven(fs, "host-env-file") {
		kvs, err := readEnvFile("--host-env-file", *hostEnvFile)
		if err != nil {
			return usageError(stdio, c, "%v", err)
		}
		opts.HostEnv, opts.HostEnvFile = map[string]string{}, *hostEnvFile
		for _, kv := range kvs {
			k, v, _ := strings.Cut(kv, "=")
			opts.HostEnv[k] = v
		}
	}
	return pc.run(ctx, opts)
}

func (pc *pipelineCommand) run(ctx context.Context, opts pipeline.RunOptions) int {
	rep, err := pc.p.Run(ctx, opts)
	if rep == nil {
		return pc.fail(err)
	}
	code := pc.printPipeline(rep, err)
	if err != nil {
		pc.fail(err)
		return ExitFailure
	}
	return code
}

// envValues parses --env: KEY=VALUE, or KEY for code2skill's own value.
func envValues(values []string) (map[string]string, error) {
	kvs, err := serverEnv(values)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, kv := range kvs {
		k, v, _ := strings.Cut(kv, "=")
		out[k] = v
	}
	return out, nil
}
