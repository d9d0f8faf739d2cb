package cli

import (
	"fmt"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pipeline"
)

// pipelineInit is code2skill pipeline init.
func pipelineInit(c *command, stdio *Stdio, args []string) int {
	pf := newPipelineFlags(c, false, false)
	sources := &sourcesFlags{}
	addSourceMapFlag(pf.fs, &sources.sources)
	ack := pf.fs.Bool("acknowledge-migration", false, "accept that a legacy package is migrated")
	pc, code, ok := pf.open(stdio, args, false)
	if !ok {
		return code
	}
	return pc.init(pipeline.InitOptions{SourceMaps: sources.sources.Map, AcknowledgeMigration: *ack})
}

func (pc *pipelineCommand) init(opts pipeline.InitOptions) int {
	res, err := pc.p.Init(opts)
	if err != nil {
		return pc.fail(err)
	}
	summary := struct {
		Mode                  string                `json:"mode"`
		StateDir              string                `json:"stateDir"`
		Created               bool                  `json:"created"`
		MigrationAcknowledged bool                  `json:"migrationAcknowledged"`
		ModeSummary           *pipeline.ModeSummary `json:"modeSummary"`
	}{res.Mode, pc.stateName(), res.Created, res.MigrationAcknowledged, res.Summary}
	if *pc.format == formatJSON {
		return printReport(pc.stdio, pc.format, &diag.Report{Command: "pipeline init", Status: diag.StatusPassed, Summary: summary})
	}
	w := pc.stdio.Out
	fmt.Fprintf(w, "MODE %s\n", res.Mode)
	fmt.Fprintf(w, "STATE-DIR %s\n", pc.stateName())
	s := res.Summary
	switch res.Mode {
	case pipeline.ModeChangedOnly:
		fmt.Fprintf(w, "CHANGE-SUMMARY added=%d removed=%d changed=%d unchanged=%d\n", len(s.Added), len(s.Removed), len(s.Changed), len(s.Unchanged))
		for _, group := range []struct {
			word string
			ids  []string
		}{{"added", s.Added}, {"removed", s.Removed}, {"changed", s.Changed}} {
			for _, id := range group.ids {
				fmt.Fprintf(w, "  %s %s\n", group.word, id)
			}
		}
	case pipeline.ModeMigrate:
		ack := "no"
		if res.MigrationAcknowledged {
			ack = "yes"
		}
		fmt.Fprintf(w, "MIGRATION-SUMMARY files=%d actions=%d acknowledged=%s (see %s)\n", len(s.Files), len(s.RequiredActions), ack, pipeline.ModeSummaryFile)
		for _, a := range s.RequiredActions {
			fmt.Fprintf(w, "  action: %s\n", a)
		}
	}
	for _, n := range s.NextSteps {
		fmt.Fprintf(w, "NEXT %s\n", n)
	}
	return ExitPassed
}
