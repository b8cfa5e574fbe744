package emulator

// Tests added to kill mutants that survived `make mutate-emulator`
// (CONTRIBUTING.md, "Mutation testing"); each names the code it guards.

import (
	"context"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// request.go, rateSubject: the rate-limit window is per organization (it
// replaced credentialKey, whose `v != ""` test this first guarded): keys of
// two organizations each start with a full window, two project keys of one
// organization share theirs with its organization key, and an unknown key
// counts on its own.
func TestMutantRateLimitWindowIsPerOrganization(t *testing.T) {
	e := newEnv(t, Options{APIKeys: map[string]string{"k1": "a", "k2": "b"}, OrgAPIKeys: map[string]string{"ok1": "org-1", "ok2": "org-2"}})
	remaining := func(h map[string]string) string {
		return e.doHeaders(h, "GET", "/api/v3.1/auth_configs", nil).header.Get("X-RateLimit-Remaining")
	}
	for i, tc := range []struct {
		headers map[string]string
		want    string
	}{
		{map[string]string{"x-api-key": "k1"}, "9999"},      // org-1 (the configured projects' organization)
		{map[string]string{"x-api-key": "k2"}, "9998"},      // org-1 again
		{map[string]string{"x-org-api-key": "ok1"}, "9997"}, // org-1 with its own key (401 on this route)
		{map[string]string{"x-org-api-key": "ok2"}, "9999"}, // org-2
		{map[string]string{"x-api-key": "unknown"}, "9999"}, // a key of no organization
		{map[string]string{"x-api-key": "unknown"}, "9998"},
	} {
		if got := remaining(tc.headers); got != tc.want {
			t.Errorf("request %d with %v: X-RateLimit-Remaining %q, want %s (a window per organization)", i+1, tc.headers, got, tc.want)
		}
	}
}

// request.go, writeError: a 409 tells clients not to retry; other errors
// say nothing (the `e.Status == http.StatusConflict` test).
func TestMutantOnlyConflictsSayDoNotRetry(t *testing.T) {
	e := newEnv(t, Options{})
	body := map[string]any{"webhook_url": "https://hooks.example.com/x", "enabled_events": []string{"composio.trigger.message"}}
	e.must(201, "POST", "/api/v3.1/webhook_subscriptions", body)
	if r := e.do("POST", "/api/v3.1/webhook_subscriptions", body); r.status != 409 || r.header.Get("x-should-retry") != "false" {
		t.Errorf("second subscription: %d, x-should-retry %q; want 409 with x-should-retry false", r.status, r.header.Get("x-should-retry"))
	}
	if r := e.do("GET", "/api/v3.1/auth_configs/ac_missing", nil); r.status != 404 || r.header.Get("x-should-retry") != "" {
		t.Errorf("unknown auth config: %d, x-should-retry %q; want 404 without the header", r.status, r.header.Get("x-should-retry"))
	}
}

// levelRecorder keeps the level of each "request failed" record.
type levelRecorder struct {
	mu     sync.Mutex
	levels map[int64]slog.Level // by status
}

func (h *levelRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (h *levelRecorder) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *levelRecorder) WithGroup(string) slog.Handler            { return h }
func (h *levelRecorder) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "request failed" {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "status" {
			h.mu.Lock()
			h.levels[a.Value.Int64()] = r.Level
			h.mu.Unlock()
		}
		return true
	})
	return nil
}

// request.go, writeError: a server error (from 500 on) is logged as a
// warning, a client error at debug level (the `e.Status >= 500` test).
func TestMutantServerErrorsLogAsWarnings(t *testing.T) {
	rec := &levelRecorder{levels: map[int64]slog.Level{}}
	e := newEnv(t, Options{Logger: slog.New(rec)})
	e.do("GET", "/api/v3.1/auth_configs/ac_missing", nil)
	e.must(200, "PUT", "/_emulator/faults", "status=500:1")
	e.do("GET", "/api/v3.1/auth_configs", nil)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if lvl, ok := rec.levels[404]; !ok || lvl != slog.LevelDebug {
		t.Errorf("404 logged at %v (logged: %v), want DEBUG", lvl, ok)
	}
	if lvl, ok := rec.levels[500]; !ok || lvl != slog.LevelWarn {
		t.Errorf("500 logged at %v (logged: %v), want WARN", lvl, ok)
	}
}

// store.go, openStore: a data file another emulator holds is refused after
// the lock timeout instead of waiting for ever (the bolt Options Timeout).
func TestMutantLockedDataFileIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	first, err := New(Options{DataPath: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = first.Close() })
	done := make(chan error, 1)
	go func() {
		second, err := New(Options{DataPath: path})
		if err == nil {
			_ = second.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a second emulator opened a data file the first one holds")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("opening a locked data file still waits after 20s; want a refusal after the lock timeout")
	}
}

// store.go, load: the sequence that orders objects by creation is restored
// from the data file (the `v != nil` test), so objects created after a
// restart sort after the earlier ones.
func TestMutantSequenceSurvivesReopening(t *testing.T) {
	var seq int64
	again := reopenAfter(t, filepath.Join(t.TempDir(), "data.db"), func(st *store) error {
		st.nextSeq()
		seq = st.nextSeq()
		return st.commit()
	})
	if again.st.seq < seq {
		t.Fatalf("sequence after reopening = %d, want at least %d (restored from the data file)", again.st.seq, seq)
	}
}
