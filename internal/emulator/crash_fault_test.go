package emulator

import (
	"bytes"
	"context"
	"net/http"
	"sync/atomic"
	"testing"
)

// TestCrashAfterCommit: the second successful POST /auth_configs is committed
// and then the emulator "crashes" (Options.Crash runs, the connection is
// dropped unanswered); the first and third are answered normally.
func TestCrashAfterCommit(t *testing.T) {
	var crashed atomic.Int32
	e := newEnv(t, Options{Faults: "crash-after-commit=POST:/auth_configs:2", Crash: func() { crashed.Add(1) }})
	body := `{"toolkit":{"slug":"github"}}`
	e.must(201, "POST", v+"/auth_configs", body)
	req, _ := http.NewRequestWithContext(context.Background(), "POST", e.ts.URL+v+"/auth_configs", bytes.NewBufferString(body))
	req.Header.Set("x-api-key", testKey)
	req.Header.Set("Content-Type", "application/json")
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
		t.Fatalf("crashing create answered %d", res.StatusCode)
	}
	if crashed.Load() != 1 {
		t.Fatalf("Crash called %d times, want 1", crashed.Load())
	}
	e.must(201, "POST", v+"/auth_configs", body)
	if n := len(e.must(200, "GET", v+"/auth_configs", nil).items()); n != 3 {
		t.Fatalf("auth configs = %d, want 3 (the unanswered create was committed)", n)
	}
	if crashed.Load() != 1 {
		t.Fatalf("Crash called %d times, want 1", crashed.Load())
	}
}

func TestCrashFaultParsing(t *testing.T) {
	for _, ok := range []string{"crash-after-commit=POST:/auth_configs", "crash-after-commit=post:/connected_accounts:3"} {
		if _, err := parseFaults(ok); err != nil {
			t.Errorf("parseFaults(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"crash-after-commit=POST", "crash-after-commit=POST:auth_configs", "crash-after-commit=POST:/x:0", "crash-after-commit=:/x"} {
		if _, err := parseFaults(bad); err == nil {
			t.Errorf("parseFaults(%q) accepted", bad)
		}
	}
}
