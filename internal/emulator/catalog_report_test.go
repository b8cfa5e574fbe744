package emulator

import (
	"bytes"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestCatalogLoggedAndMissingToolkitsWarned: the emulator logs the catalog
// files it read at start, and an emulator restarted on its data without its
// --catalog warns, per toolkit, that the data holds objects the catalog
// lacks; restarted with the catalog it says nothing of the kind.
func TestCatalogLoggedAndMissingToolkitsWarned(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data.db")
	first := &syncBuffer{}
	e := newEnv(t, Options{DataPath: data, CatalogDir: exampleCatalog, Logger: slog.New(slog.NewTextHandler(first, nil))})
	if log := first.String(); !strings.Contains(log, "catalog loaded") ||
		!strings.Contains(log, "catalog_dir="+exampleCatalog) ||
		!strings.Contains(log, "catalog_files="+exampleCatalog+"/acme.json,"+exampleCatalog+"/categories.json") {
		t.Fatalf("the start log does not name the catalog files:\n%s", log)
	}
	ac := e.createCustomAC("acme", "API_KEY", map[string]any{})
	acct := e.must(201, "POST", v+"/connected_accounts", map[string]any{
		"auth_config": map[string]any{"id": ac},
		"connection":  map[string]any{"user_id": "u1", "state": map[string]any{"authScheme": "API_KEY", "val": map[string]any{"status": "ACTIVE", "api_key": "k", "workspace": "ops"}}},
	})
	e.must(200, "POST", v+"/trigger_instances/ACME_TICKET_CREATED/upsert", map[string]any{
		"connected_account_id": acct.str("id"), "trigger_config": map[string]any{"queue": "OPS"},
	})
	e.createManagedAC("github") // a built-in toolkit: never missing
	e.ts.Close()
	if err := e.srv.Close(); err != nil {
		t.Fatal(err)
	}

	restart := func(catalog string) string {
		t.Helper()
		buf := &syncBuffer{}
		srv, err := New(Options{DataPath: data, CatalogDir: catalog, Logger: slog.New(slog.NewTextHandler(buf, nil))})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	log := restart("")
	if !strings.Contains(log, `catalog="built-in only (no --catalog)"`) {
		t.Errorf("the start log does not say no catalog directory was given:\n%s", log)
	}
	var warn string
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, "level=WARN") && strings.Contains(line, "toolkit=acme") {
			warn = line
		}
	}
	for _, want := range []string{`the data holds objects of toolkit \"acme\", which the catalog lacks`, "--catalog",
		"auth_configs=1", "connected_accounts=1", "trigger_instances=1"} {
		if !strings.Contains(warn, want) {
			t.Errorf("the warning %q lacks %q; log:\n%s", warn, want, log)
		}
	}
	if strings.Contains(log, "toolkit=github") {
		t.Errorf("a built-in toolkit is reported missing:\n%s", log)
	}
	if log := restart(exampleCatalog); strings.Contains(log, "level=WARN") {
		t.Errorf("restarted with its catalog, the emulator still warns:\n%s", log)
	}
}
