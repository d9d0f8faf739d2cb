package tests

import (
	"context"
	"errors"
	"testing"
	"time"

	functioncore "seed-library/function-core"
)

func TestSearchSendsThePhraseAndMonthAsQueryParameters(t *testing.T) {
	rt, rec := recording(env, 200, `{"varieties":[]}`)
	result, err := functioncore.SearchSeedVarieties(background, map[string]any{"query": " early pea ", "sowingMonth": "3"}, rt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.calls) != 1 || rec.calls[0].Method != "GET" ||
		rec.calls[0].URL != "https://catalog.seed-library.invalid/api/varieties?q=early+pea&sowing_month=3" {
		t.Fatalf("requests: %+v", rec.calls)
	}
	if got := asJSON(t, result); got != `{"httpStatus":200,"bodyText":"{\"varieties\":[]}"}` {
		t.Errorf("result %s", got)
	}
}

func TestSearchLeavesOutFiltersThatWereNotGiven(t *testing.T) {
	rt, rec := recording(env, 200, "{}")
	if _, err := functioncore.SearchSeedVarieties(background, map[string]any{"query": nil, "sowingMonth": ""}, rt); err != nil {
		t.Fatal(err)
	}
	if rec.calls[0].URL != "https://catalog.seed-library.invalid/api/varieties" {
		t.Errorf("url %s", rec.calls[0].URL)
	}
}

func TestSearchPassesAnErrorStatusThrough(t *testing.T) {
	rt, _ := recording(env, 503, "catalog is being restocked")
	result, err := functioncore.SearchSeedVarieties(background, map[string]any{}, rt)
	if err != nil {
		t.Fatal(err)
	}
	if got := asJSON(t, result); got != `{"httpStatus":503,"bodyText":"catalog is being restocked"}` {
		t.Errorf("result %s", got)
	}
}

func TestSearchWithoutABaseURLStopsBeforeAnyRequest(t *testing.T) {
	_, err := functioncore.SearchSeedVarieties(background, map[string]any{"query": "bean"}, runtime(nil, forbidden{t}))
	var missing *functioncore.MissingConfigurationError
	if !errors.As(err, &missing) || missing.Variable != functioncore.CatalogBaseURL {
		t.Fatalf("error %v", err)
	}
}

func TestSearchThatTakesTooLongIsStopped(t *testing.T) {
	h := newHanging()
	rt := runtime(env, h)
	rt.Timeout = 20 * time.Millisecond
	_, err := functioncore.SearchSeedVarieties(background, map[string]any{}, rt)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v", err)
	}
	if got := <-h.aborted; !errors.Is(got, context.DeadlineExceeded) {
		t.Errorf("the request ended with %v", got)
	}
}

func TestSearchStopsWhenTheCallerCancels(t *testing.T) {
	h := newHanging()
	ctx, cancel := context.WithCancel(background)
	done := make(chan error, 1)
	go func() {
		_, err := functioncore.SearchSeedVarieties(ctx, map[string]any{}, runtime(env, h))
		done <- err
	}()
	<-h.started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v", err)
	}
	if got := <-h.aborted; !errors.Is(got, context.Canceled) {
		t.Errorf("the request ended with %v", got)
	}
}
