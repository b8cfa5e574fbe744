package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestParseKeys(t *testing.T) {
	keys, err := parseKeys([]string{"k1", "proj=k2", "proj=k3"})
	if err != nil || keys["k1"] != "k1" || keys["k2"] != "proj" || keys["k3"] != "proj" {
		t.Fatalf("%v %v", keys, err)
	}
	for _, bad := range []string{"=k", "p=", ""} {
		if _, err := parseKeys([]string{bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestCLIContract builds the binary and checks the first stdout line, the
// API key flag, structured logs on stderr and a clean SIGTERM shutdown.
func TestCLIContract(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "service-emulator")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	record := filepath.Join(dir, "requests.jsonl")
	cmd := exec.CommandContext(ctx, bin, "--listen", "127.0.0.1:0", "--data", filepath.Join(dir, "d.db"), "--api-key", "team=secret-key",
		"--catalog", "../../examples/emulator-catalog")
	cmd.Env = append(os.Environ(), "SERVICE_LOG_LEVEL=debug", "SERVICE_EMULATOR_RECORD="+record)
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	first, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^listening on http://127\.0\.0\.1:\d+\n$`).MatchString(first) {
		t.Fatalf("first line %q", first)
	}
	base := strings.TrimSpace(strings.TrimPrefix(first, "listening on "))
	get := func(key string) int { return getStatus(ctx, t, base+"/api/v3.1/toolkits/github", key) }
	if s := getStatus(ctx, t, base+"/api/v3.1/toolkits/acme", "secret-key"); s != 200 {
		t.Fatalf("toolkit acme of --catalog: %d", s)
	}
	if s := getStatus(ctx, t, base+"/api/v3.1/tools/ACME_CREATE_TICKET", "secret-key"); s != 200 {
		t.Fatalf("tool ACME_CREATE_TICKET of --catalog: %d", s)
	}
	if s := get("secret-key"); s != 200 {
		t.Fatalf("configured key: %d", s)
	}
	if s := get("emulator-key"); s != 401 {
		t.Fatalf("default key still accepted with --api-key: %d", s)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v\nstderr:\n%s", err, stderr.String())
	}
	logs := stderr.String()
	if !strings.Contains(logs, "level=INFO msg=\"emulator started\"") || !strings.Contains(logs, "msg=stopped") || !strings.Contains(logs, "level=DEBUG") {
		t.Fatalf("stderr logs:\n%s", logs)
	}
	// $SERVICE_EMULATOR_RECORD (--record): one JSON line per API request, in order
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	want := []string{"/api/v3.1/toolkits/acme", "/api/v3.1/tools/ACME_CREATE_TICKET", "/api/v3.1/toolkits/github", "/api/v3.1/toolkits/github"}
	if len(lines) != len(want) {
		t.Fatalf("recorded %d requests, want %d:\n%s", len(lines), len(want), b)
	}
	for i, l := range lines {
		if l != `{"method":"GET","path":"`+want[i]+`"}` {
			t.Errorf("recorded request %d: %s, want GET %s", i, l, want[i])
		}
	}
}

func TestPrintOperations(t *testing.T) {
	var buf strings.Builder
	if err := printOperations(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 111 {
		t.Fatalf("%d lines, want 111 (104 operations of the client's types + 7 documented: the session configs' two among them)", len(lines))
	}
	for _, want := range []string{
		"emulated  GET     /auth_configs",
		"501       GET     /logs/tool_execution/{id}",
		"getApiV31LogsToolExecutionById",
		"customToolkits.upsert (documented, not in the client's types)",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, buf.String())
		}
	}
}

func getStatus(ctx context.Context, t *testing.T, url, key string) int {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	req.Header.Set("x-api-key", key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// TestBadCatalogStops: a bad --catalog file stops the start with an error
// naming the file and the field.
func TestBadCatalogStops(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.json"), []byte(`{"slug": "x", "name": "X"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	err := run([]string{"--listen", "127.0.0.1:0", "--catalog", dir})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "x.json")+": base_url: is required") {
		t.Fatalf("run with a bad catalog: %v", err)
	}
}
