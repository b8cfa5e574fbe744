package emulator

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestPersistenceAcrossRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "emu.db")
	opts := Options{DataPath: path, APIKeys: map[string]string{"ka": "a", "kb": "b"}}
	srv, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	e := &testEnv{t: t, srv: srv, ts: ts, key: "ka"}
	ac := e.createCustomAC("stripe", "API_KEY", nil)
	ca := e.apiKeyAccount(ac, "u1")
	ti := e.must(200, "POST", v+"/trigger_instances/STRIPE_CHARGE_SUCCEEDED_TRIGGER/upsert", map[string]any{"connected_account_id": ca, "trigger_config": map[string]any{"min_amount": 7}}).str("trigger_id")
	e.must(200, "PATCH", v+"/trigger_instances/manage/"+ti, map[string]any{"status": "disable"})
	gone := e.createManagedAC("github")
	e.must(200, "DELETE", v+"/auth_configs/"+gone, nil)
	sess := e.must(201, "POST", v+"/tool_router/session", map[string]any{"user_id": "u1"}).str("session_id")
	before := e.must(200, "GET", v+"/auth_configs/"+ac, nil).raw
	ts.Close()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}

	e2 := newEnv(t, opts)
	e2.key = "ka"
	after := e2.must(200, "GET", v+"/auth_configs/"+ac, nil).raw
	if before != after {
		t.Fatalf("auth config changed across restart:\n%s\n%s", before, after)
	}
	if a := e2.must(200, "GET", v+"/connected_accounts/"+ca, nil); a.str("status") != "ACTIVE" {
		t.Fatal(a.raw)
	}
	it := e2.must(200, "GET", v+"/trigger_instances/active?show_disabled=true", nil).items()
	if len(it) != 1 || it[0]["disabled_at"] == nil || it[0]["trigger_config"].(map[string]any)["min_amount"] != 7.0 {
		t.Fatalf("trigger after restart: %v", it)
	}
	e2.mustErr(404, "not found", "GET", v+"/auth_configs/"+gone, nil)
	e2.must(200, "GET", v+"/tool_router/session/"+sess, nil)
	// new ids keep ordering after restart (sequence persisted)
	ac2 := e2.createCustomAC("stripe", "API_KEY", nil)
	if items := e2.must(200, "GET", v+"/auth_configs", nil).items(); items[0]["id"] != ac2 {
		t.Fatalf("newest first after restart: %v", items[0]["id"])
	}
	e2.key = "kb"
	e2.mustErr(404, "not found", "GET", v+"/connected_accounts/"+ca, nil)
}

func TestKill9Durability(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a process")
	}
	path := filepath.Join(t.TempDir(), "emu.db")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The child is this test binary serving path (see TestMain).
	cmd := exec.CommandContext(ctx, os.Args[0])
	cmd.Env = append(os.Environ(), helperDataEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "listening on ") {
				line <- strings.TrimPrefix(sc.Text(), "listening on ")
				return
			}
		}
		close(line)
	}()
	var base string
	select {
	case base = <-line:
	case <-time.After(10 * time.Second):
		t.Fatal("child did not start")
	}
	post := func(p string, body any) map[string]any {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequestWithContext(context.Background(), "POST", base+p, bytes.NewReader(b))
		req.Header.Set("x-api-key", testKey)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(res.Body).Decode(&m)
		if res.StatusCode != 201 {
			t.Fatalf("%s: %d %v", p, res.StatusCode, m)
		}
		return m
	}
	ac := post(v+"/auth_configs", map[string]any{"toolkit": map[string]any{"slug": "stripe"},
		"auth_config": map[string]any{"type": "use_custom_auth", "authScheme": "API_KEY"}})["auth_config"].(map[string]any)["id"].(string)
	var ids []string
	for i := 0; i < 20; i++ {
		m := post(v+"/connected_accounts", map[string]any{"auth_config": map[string]any{"id": ac},
			"connection": map[string]any{"user_id": fmt.Sprint("u", i), "state": map[string]any{"authScheme": "API_KEY", "val": map[string]any{"status": "ACTIVE", "api_key": "k"}}}})
		ids = append(ids, m["id"].(string))
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	_ = cmd.Wait()

	e := newEnv(t, Options{DataPath: path})
	e.must(200, "GET", v+"/auth_configs/"+ac, nil)
	for _, id := range ids {
		e.must(200, "GET", v+"/connected_accounts/"+id, nil)
	}
}

func TestDataFileErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := New(Options{DataPath: filepath.Join(dir, "missing", "x.db")}); err == nil {
		t.Fatal("opened a data file in a missing directory")
	}
	bad := filepath.Join(dir, "bad.db")
	if err := os.WriteFile(bad, []byte("not a bbolt file at all, definitely not"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{DataPath: bad}); err == nil {
		t.Fatal("opened a corrupt data file")
	}
}
