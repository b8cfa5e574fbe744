// Delivery of events to webhook subscriptions: signed attempts, retries with
// backoff, and the delivery log shown in GET /_emulator/stats.

package emulator

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/webhooksig"
)

// deliveryLogSize bounds the delivery log kept for GET /_emulator/stats.
const deliveryLogSize = 200

// delivery is one event sent (or being sent) to a subscription.
type delivery struct {
	WebhookID      string `json:"webhook_id"`
	Project        string `json:"project"`
	SubscriptionID string `json:"subscription_id"`
	EventType      string `json:"event_type"`
	Version        string `json:"version"`
	URL            string `json:"url"`
	Attempts       int    `json:"attempts"`
	State          string `json:"state"` // pending | delivered | failed
	LastStatus     int    `json:"last_status"`
	LastError      string `json:"last_error,omitempty"`
	QueuedAt       string `json:"queued_at"`
	FinishedAt     string `json:"finished_at,omitempty"`
}

// webhookSender delivers events asynchronously with retries and backoff.
type webhookSender struct {
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
	logMu       sync.Mutex
	deliveries  []*delivery // newest last, at most deliveryLogSize
}

func newWebhookSender(opts Options, log *slog.Logger) *webhookSender {
	ctx, cancel := context.WithCancel(context.Background())
	ws := &webhookSender{
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

func (ws *webhookSender) close() {
	ws.cancel()
	ws.wg.Wait()
}

// enqueue starts delivery of body (event eventType, message id msgID) to
// the subscription sub; it returns false once the sender is closed.
func (ws *webhookSender) enqueue(sub WebhookSubscription, eventType, msgID string, body []byte) bool {
	if ws.ctx.Err() != nil {
		return false
	}
	d := &delivery{
		WebhookID: msgID, Project: sub.Project, SubscriptionID: sub.ID, EventType: eventType, Version: sub.Version,
		URL: sub.WebhookURL, State: "pending", QueuedAt: time.Now().UTC().Format(time.RFC3339Nano),
	}
	ws.logMu.Lock()
	ws.deliveries = append(ws.deliveries, d)
	if n := len(ws.deliveries) - deliveryLogSize; n > 0 {
		ws.deliveries = append([]*delivery(nil), ws.deliveries[n:]...)
	}
	ws.logMu.Unlock()
	ws.wg.Add(1)
	go func() {
		defer ws.wg.Done()
		ws.deliver(d, sub.Secret, body)
	}()
	return true
}

// deliveryLog returns a copy of the delivery log, oldest first.
func (ws *webhookSender) deliveryLog() []delivery {
	ws.logMu.Lock()
	defer ws.logMu.Unlock()
	out := make([]delivery, len(ws.deliveries))
	for i, d := range ws.deliveries {
		out[i] = *d
	}
	return out
}

func (ws *webhookSender) record(d *delivery, f func(d *delivery)) {
	ws.logMu.Lock()
	f(d)
	ws.logMu.Unlock()
}

func (ws *webhookSender) finish(d *delivery, state string) {
	if state == "delivered" {
		ws.delivered.Add(1)
	} else {
		ws.failed.Add(1)
	}
	ws.record(d, func(d *delivery) { d.State, d.FinishedAt = state, time.Now().UTC().Format(time.RFC3339Nano) })
}

func (ws *webhookSender) deliver(d *delivery, secret string, body []byte) {
	delay := ws.backoff
	for attempt := 1; attempt <= ws.maxAttempts; attempt++ {
		ws.attempts.Add(1)
		status, err := ws.post(d, secret, attempt, body)
		ws.record(d, func(d *delivery) {
			d.Attempts, d.LastStatus, d.LastError = attempt, status, ""
			if err != nil {
				d.LastError = err.Error()
			}
		})
		if err == nil && status >= 200 && status < 300 {
			ws.log.Info("webhook delivered", "webhook_id", d.WebhookID, "attempt", attempt, "status", status)
			ws.finish(d, "delivered")
			return
		}
		ws.log.Warn("webhook delivery failed", "webhook_id", d.WebhookID, "attempt", attempt, "status", status, "err", err)
		if attempt == ws.maxAttempts {
			break
		}
		select {
		case <-time.After(delay):
		case <-ws.ctx.Done():
			ws.finish(d, "failed")
			return
		}
		delay *= 2
	}
	ws.finish(d, "failed")
}

// post sends one signed attempt and returns the receiver's status.
func (ws *webhookSender) post(d *delivery, secret string, attempt int, body []byte) (int, error) {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	req, err := http.NewRequestWithContext(ws.ctx, http.MethodPost, d.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "service-emulator-webhooks/1")
	h.Set("webhook-id", d.WebhookID)
	h.Set("webhook-timestamp", ts)
	h.Set("webhook-signature", webhooksig.Sign(secret, d.WebhookID, ts, body))
	h.Set("x-composio-webhook-version", d.Version)
	h.Set("x-composio-delivery-attempt", strconv.Itoa(attempt))
	resp, err := ws.client.Do(req)
	if err != nil {
		return 0, err
	}
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}
