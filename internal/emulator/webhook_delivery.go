// Delivery of fired trigger events to the configured webhook receiver.

package emulator

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// SignWebhook returns the webhook-signature header value "v1,<base64 HMAC>"
// over "<id>.<timestamp>.<body>", keyed with the secret's raw UTF-8 bytes.
func SignWebhook(secret, id, timestamp string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(id + "." + timestamp + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// webhookSender delivers events asynchronously with retries and backoff.
type webhookSender struct {
	mu          sync.RWMutex
	url, secret string
	maxAttempts int
	backoff     time.Duration
	client      *http.Client
	log         *slog.Logger
	ctx         context.Context
	cancel      context.CancelFunc
	wg          sync.WaitGroup
	delivered   atomic.Int64
	failed      atomic.Int64
	attempts    atomic.Int64
}

func newWebhookSender(opts Options, log *slog.Logger) *webhookSender {
	ctx, cancel := context.WithCancel(context.Background())
	ws := &webhookSender{
		url: opts.WebhookURL, secret: opts.WebhookSecret,
		maxAttempts: opts.WebhookMaxAttempts, backoff: opts.WebhookBackoff,
		client: &http.Client{Timeout: 10 * time.Second},
		log:    log, ctx: ctx, cancel: cancel,
	}
	if ws.maxAttempts <= 0 {
		ws.maxAttempts = 6
	}
	if ws.backoff <= 0 {
		ws.backoff = 250 * time.Millisecond
	}
	return ws
}

func (ws *webhookSender) configure(url, secret string) {
	ws.mu.Lock()
	ws.url, ws.secret = url, secret
	ws.mu.Unlock()
}

func (ws *webhookSender) target() (string, string) {
	ws.mu.RLock()
	defer ws.mu.RUnlock()
	return ws.url, ws.secret
}

func (ws *webhookSender) close() {
	ws.cancel()
	ws.wg.Wait()
}

// enqueue starts delivery of body with message id msgID; it returns false
// when no webhook URL is configured.
func (ws *webhookSender) enqueue(msgID string, body []byte) bool {
	url, secret := ws.target()
	if url == "" || ws.ctx.Err() != nil {
		return false
	}
	ws.wg.Add(1)
	go func() {
		defer ws.wg.Done()
		ws.deliver(url, secret, msgID, body)
	}()
	return true
}

func (ws *webhookSender) deliver(url, secret, msgID string, body []byte) {
	delay := ws.backoff
	for attempt := 1; attempt <= ws.maxAttempts; attempt++ {
		ws.attempts.Add(1)
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		req, err := http.NewRequestWithContext(ws.ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			ws.log.Error("webhook request", "err", err)
			ws.failed.Add(1)
			return
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("User-Agent", "service-emulator-webhooks/1")
		req.Header.Set("webhook-id", msgID)
		req.Header.Set("webhook-timestamp", ts)
		req.Header.Set("webhook-signature", SignWebhook(secret, msgID, ts, body))
		req.Header.Set("x-composio-webhook-version", "V3")
		resp, err := ws.client.Do(req)
		status := 0
		if err == nil {
			status = resp.StatusCode
			_ = resp.Body.Close()
			if status >= 200 && status < 300 {
				ws.delivered.Add(1)
				ws.log.Info("webhook delivered", "webhook_id", msgID, "attempt", attempt, "status", status)
				return
			}
		}
		ws.log.Warn("webhook delivery failed", "webhook_id", msgID, "attempt", attempt, "status", status, "err", err)
		if attempt == ws.maxAttempts {
			break
		}
		select {
		case <-time.After(delay):
		case <-ws.ctx.Done():
			ws.failed.Add(1)
			return
		}
		delay *= 2
	}
	ws.failed.Add(1)
}
