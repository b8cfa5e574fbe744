package emulator

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// chromiumPath finds Chromium as .ci/run does: the chromium command on PATH
// (Debian's package), else chromium-browser.
func chromiumPath() (string, error) {
	p, err := exec.LookPath("chromium")
	if err != nil {
		p, err = exec.LookPath("chromium-browser")
	}
	return p, err
}

// cdp is a minimal Chrome DevTools Protocol client over one websocket.
type cdp struct {
	conn    *websocket.Conn
	nextID  atomic.Int64
	mu      sync.Mutex
	pending map[int64]chan map[string]any
	events  chan map[string]any
}

func dialCDP(ctx context.Context, wsURL string) (*cdp, error) {
	conn, res, err := websocket.DefaultDialer.DialContext(ctx, wsURL, nil)
	if res != nil && res.Body != nil {
		_ = res.Body.Close()
	}
	if err != nil {
		return nil, err
	}
	c := &cdp{conn: conn, pending: map[int64]chan map[string]any{}, events: make(chan map[string]any, 256)}
	go func() {
		for {
			var msg map[string]any
			if err := conn.ReadJSON(&msg); err != nil {
				close(c.events)
				return
			}
			if id, ok := msg["id"].(float64); ok {
				c.mu.Lock()
				ch := c.pending[int64(id)]
				delete(c.pending, int64(id))
				c.mu.Unlock()
				if ch != nil {
					ch <- msg
				}
				continue
			}
			select {
			case c.events <- msg:
			default:
			}
		}
	}()
	return c, nil
}

func (c *cdp) call(ctx context.Context, sessionID, method string, params map[string]any) (map[string]any, error) {
	id := c.nextID.Add(1)
	ch := make(chan map[string]any, 1)
	c.mu.Lock()
	c.pending[id] = ch
	c.mu.Unlock()
	msg := map[string]any{"id": id, "method": method, "params": params}
	if sessionID != "" {
		msg["sessionId"] = sessionID
	}
	c.mu.Lock()
	err := c.conn.WriteJSON(msg)
	c.mu.Unlock()
	if err != nil {
		return nil, err
	}
	select {
	case res := <-ch:
		if e, ok := res["error"]; ok {
			return nil, fmt.Errorf("%s: %v", method, e)
		}
		r, _ := res["result"].(map[string]any)
		return r, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

func (c *cdp) waitEvent(ctx context.Context, method string) error {
	for {
		select {
		case ev, ok := <-c.events:
			if !ok {
				return fmt.Errorf("connection closed waiting for %s", method)
			}
			if ev["method"] == method {
				return nil
			}
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", method, ctx.Err())
		}
	}
}

// TestConsentPageChromiumApprove opens the OAuth redirect_url in headless
// Chromium and clicks the Approve button with real mouse events.
func TestConsentPageChromiumApprove(t *testing.T) {
	chromium, err := chromiumPath()
	if err != nil {
		t.Skip("chromium is not on PATH (apt-get install -y chromium; .ci/run installs it): headless consent-page click test not run")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	e := newEnv(t, Options{})
	rec, cb := newCallback(t)
	ac := e.createManagedAC("github")
	id, redirect := e.oauthAccount(ac, "chrome-user", cb.URL+"/done")

	// Chromium's helper processes can outlive the browser process for a
	// moment and keep writing to the profile, so the profile is not a
	// t.TempDir (whose cleanup fails on a non-empty directory): the whole
	// process group is killed and the profile removed with a few retries.
	profile, err := os.MkdirTemp("", "consent-chromium-") //nolint:usetesting // see above: t.TempDir cleanup races chromium helpers
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
		"--disable-extensions", "--remote-debugging-port=0", "--user-data-dir="+profile, "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		for i := 0; i < 20; i++ {
			if err := os.RemoveAll(profile); err == nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Logf("could not remove chromium profile %s", profile)
	}()
	wsURL := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if i := strings.Index(sc.Text(), "ws://"); i >= 0 && strings.Contains(sc.Text(), "DevTools listening") {
				wsURL <- strings.TrimSpace(sc.Text()[i:])
			}
		}
	}()
	var browserWS string
	select {
	case browserWS = <-wsURL:
	case <-ctx.Done():
		t.Fatal("chromium did not report a DevTools endpoint")
	}
	c, err := dialCDP(ctx, browserWS)
	if err != nil {
		t.Fatal(err)
	}
	defer c.conn.Close()
	target, err := c.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"})
	if err != nil {
		t.Fatal(err)
	}
	att, err := c.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target["targetId"], "flatten": true})
	if err != nil {
		t.Fatal(err)
	}
	sid, _ := att["sessionId"].(string)
	if _, err := c.call(ctx, sid, "Page.enable", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.call(ctx, sid, "Page.navigate", map[string]any{"url": redirect}); err != nil {
		t.Fatal(err)
	}
	if err := c.waitEvent(ctx, "Page.loadEventFired"); err != nil {
		t.Fatal(err)
	}
	res, err := c.call(ctx, sid, "Runtime.evaluate", map[string]any{"returnByValue": true,
		"expression": `(() => { const b = document.getElementById('approve'); if (!b) return null; const r = b.getBoundingClientRect(); return JSON.stringify({x: r.x + r.width/2, y: r.y + r.height/2, text: b.textContent}); })()`})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := res["result"].(map[string]any)["value"].(string)
	var pos struct {
		X, Y float64
		Text string
	}
	if err := json.Unmarshal([]byte(raw), &pos); err != nil || pos.Text != "Approve" {
		t.Fatalf("approve button not found: %q %v", raw, err)
	}
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		if _, err := c.call(ctx, sid, "Input.dispatchMouseEvent", map[string]any{
			"type": typ, "x": pos.X, "y": pos.Y, "button": "left", "clickCount": 1}); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case q := <-rec.event:
		if q.Get("status") != "success" || q.Get("connected_account_id") != id {
			t.Fatalf("callback query %v", q)
		}
	case <-ctx.Done():
		t.Fatal("browser never reached the callback URL after clicking Approve")
	}
	a := e.must(200, "GET", v+"/connected_accounts/"+id, nil)
	if a.str("status") != "ACTIVE" || a.str("state", "val", "access_token") == "" {
		t.Fatalf("after click: %s", a.raw)
	}
}
