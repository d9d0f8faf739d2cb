// The seed-library MCP server: one literal mcp.AddTool per capability,
// each calling its Function and projecting the obtained result unchanged.
//
// Input schemas are open on purpose: they describe the known fields to the
// agent without rejecting a number sent as a string, a null, a missing
// field or an extra one. The seed library's backend remains the authority
// on what is valid, and its answer reaches the agent as httpStatus +
// bodyText.

package main

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"seed-library/agentresult"
	functioncore "seed-library/function-core"
)

// function is the shape of every Function of the core.
type function func(context.Context, map[string]any, functioncore.Runtime) (any, error)

// call runs a Function and turns what it obtained, or the failure to
// obtain anything, into a Tool result. The MCP request's context reaches
// the Function, so a call the host cancels stops its request.
func call(ctx context.Context, fn function, input map[string]any, rt functioncore.Runtime) (*mcp.CallToolResult, any, error) {
	if input == nil {
		input = map[string]any{}
	}
	value, err := fn(ctx, input, rt)
	if err != nil {
		return agentresult.ToAgentError(err), nil, nil
	}
	return agentresult.ToAgentResult(value), nil, nil
}

// looseText and looseCount describe a loosely typed business value.
func looseText(description string) map[string]any {
	return map[string]any{"description": description, "type": []string{"string", "number", "null"}}
}

func looseCount(description string) map[string]any {
	return map[string]any{"description": description, "type": []string{"number", "string", "null"}}
}

// openObject is an object schema that accepts properties it does not list.
func openObject(properties map[string]any) json.RawMessage {
	b, err := json.Marshal(map[string]any{"type": "object", "properties": properties, "additionalProperties": map[string]any{}})
	if err != nil {
		panic(err) // the schemas are fixed maps of strings
	}
	return b
}

func hint(b bool) *bool { return &b }

// newServer creates the server. rt is passed to every Function (tests
// inject the HTTP client and the environment through it; main passes the
// zero Runtime).
func newServer(rt functioncore.Runtime) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "seed-library", Version: "1.0.0"}, nil)

	mcp.AddTool(server, &mcp.Tool{
		Name:  "search_seed_varieties",
		Title: "Search seed varieties",
		Description: "Lists the seed varieties of the community seed library catalog, optionally filtered by a search phrase and a sowing month. " +
			"Read-only. Returns the catalog service answer unchanged as httpStatus and bodyText; each variety record in the body " +
			"(varietyId, lotCode, name, packetsAvailable …) can be passed whole as selectedVariety to reserve_seed_packets.",
		InputSchema: openObject(map[string]any{
			"query":       looseText(`Words to look for in variety names and descriptions, e.g. "tomato" or "early pea". Optional.`),
			"sowingMonth": looseCount("Month the seeds are sown in, 1–12. Optional."),
		}),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: hint(false), IdempotentHint: true, OpenWorldHint: hint(true)},
	}, func(ctx context.Context, _ *mcp.CallToolRequest, input map[string]any) (*mcp.CallToolResult, any, error) {
		return call(ctx, functioncore.SearchSeedVarieties, input, rt)
	})

	mcp.AddTool(server, &mcp.Tool{
		Name:  "reserve_seed_packets",
		Title: "Reserve seed packets",
		Description: "Reserves packets of one seed variety for pickup at the seed library. Pass the variety record the member selected from " +
			"search_seed_varieties whole as selectedVariety (its varietyId and lotCode both go into the reservation), the number of " +
			"packets and the pickup date and time. Creates a reservation for the member the host signed in unless CODE2SKILL_DRY_RUN=1, " +
			"in which case it returns the request it would send (the token not shown). Returns the reservation service answer unchanged " +
			"as httpStatus and bodyText: 201 with the reservation, 409 when fewer packets are left than asked, 401 without a valid token.",
		InputSchema: openObject(map[string]any{
			"selectedVariety": map[string]any{
				"description": "The variety record the member selected from search_seed_varieties, passed whole.",
				"anyOf": []any{
					map[string]any{
						"type": "object",
						"properties": map[string]any{
							"varietyId": looseText("Identifier of the selected variety, from its search record."),
							"lotCode":   looseText("Seed lot of the selected variety, from its search record."),
						},
						"additionalProperties": map[string]any{},
					},
					map[string]any{"type": "null"},
				},
			},
			"packetCount": looseCount("Number of packets to reserve."),
			"pickupDate":  looseText("Pickup day, YYYY-MM-DD."),
			"pickupTime":  looseText("Pickup time of day, HH:MM (24-hour). Optional; midnight when left out."),
			"note":        looseText("A note for the volunteers preparing the packets. Optional."),
		}),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: hint(false), IdempotentHint: false, OpenWorldHint: hint(true)},
	}, func(ctx context.Context, _ *mcp.CallToolRequest, input map[string]any) (*mcp.CallToolResult, any, error) {
		return call(ctx, functioncore.ReserveSeedPackets, input, rt)
	})

	mcp.AddTool(server, &mcp.Tool{
		Name:  "list_my_reservations",
		Title: "List my reservations",
		Description: "Lists the reservations of the member the host signed in, newest first, optionally only those in one state. Read-only. " +
			"Returns the reservation service answer as httpStatus and bodyText; each reservation (reservationId, varietyName, " +
			"packetCount, pickupAt, status) can be passed by its reservationId to cancel_reservation. The member session token the " +
			"service repeats in its answer (member.sessionToken) is removed; everything else is unchanged. A 401 means the host has " +
			"no valid token for the member.",
		InputSchema: openObject(map[string]any{
			"status": looseText("Only reservations in this state: active, collected or cancelled. Optional; all when left out."),
		}),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: hint(false), IdempotentHint: true, OpenWorldHint: hint(true)},
	}, func(ctx context.Context, _ *mcp.CallToolRequest, input map[string]any) (*mcp.CallToolResult, any, error) {
		return call(ctx, functioncore.ListMyReservations, input, rt)
	})

	mcp.AddTool(server, &mcp.Tool{
		Name:  "cancel_reservation",
		Title: "Cancel a reservation",
		Description: "Cancels one of the member's active reservations by its reservationId (from list_my_reservations): the packets go back " +
			"on the shelf for anyone to reserve, and a cancelled reservation cannot be restored. Unless CODE2SKILL_DRY_RUN=1, in which " +
			"case it returns the request it would send. Returns the reservation service answer unchanged as httpStatus and bodyText " +
			"(404 when the reservation is not the member's or does not exist, 409 when it was already collected).",
		InputSchema: openObject(map[string]any{
			"reservationId": looseText("Identifier of the reservation to cancel, from list_my_reservations."),
		}),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: hint(true), IdempotentHint: true, OpenWorldHint: hint(true)},
	}, func(ctx context.Context, _ *mcp.CallToolRequest, input map[string]any) (*mcp.CallToolResult, any, error) {
		return call(ctx, functioncore.CancelReservation, input, rt)
	})

	return server
}
