package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// DefaultReconcileWindow bounds how long a reconciliation keeps retrying its
// list when the context carries no deadline (a resource's create timeout
// becomes the context deadline and bounds it instead).
const DefaultReconcileWindow = 2 * time.Minute

// ReconcileClockSkew is subtracted from the time a create was sent before
// comparing it with the service's created_at, so that a service clock a
// little behind ours still matches its own object.
const ReconcileClockSkew = 2 * time.Second

// maxCreateRounds bounds how many times createReconciled sends a create that
// keeps failing ambiguously with nothing found afterwards.
const maxCreateRounds = 4

// reconcile describes one create for createReconciled: how to send it, how to
// recognise the object it made, and how to find candidates by natural key.
type reconcile[T any] struct {
	// What names the object kind in logs and errors, e.g. "auth config".
	What string
	// Key renders the natural key for logs and errors, e.g.
	// `toolkit "github", name "ci"`.
	Key string
	// Create sends the create once (the transport applies the write policy).
	Create func(ctx context.Context) (T, error)
	// ID returns the id of a created or found object.
	ID func(T) string
	// Find lists the objects matching the natural key created at or after
	// since. Its reads use the normal read retries; createReconciled repeats
	// it while the service is unreachable.
	Find func(ctx context.Context, since time.Time) ([]T, error)
	// Discard, when set, is called for a single match that cannot be adopted
	// (its create response cannot be rebuilt from a listing, e.g. a hosted
	// link's token); the create is then sent again. When nil the match is
	// adopted as the create's result.
	Discard func(ctx context.Context, found T) error
}

// createReconciled sends rc.Create and, after an ambiguous failure (see the
// write policy in transport.go), reconciles before anything else: it lists
// candidates with rc.Find (retrying until the context deadline or
// DefaultReconcileWindow while the service is down), adopts a single match
// not already created by this client, creates again when there is none, and
// fails naming the candidates when there are several.
func createReconciled[T any](ctx context.Context, c *Client, rc reconcile[T]) (T, error) {
	var zero T
	ctx = c.logContext(ctx)
	for round := 1; ; round++ {
		v, err := rc.Create(ctx)
		if err == nil {
			c.claim(rc.ID(v))
			return v, nil
		}
		var amb *AmbiguousWriteError
		if !errors.As(err, &amb) {
			return zero, err
		}
		since := amb.SentAt.Add(-ReconcileClockSkew)
		c.logReconcile(ctx, "service API reconciling an ambiguous create", rc.What, rc.Key, map[string]any{
			"round": round, "created_since": since.UTC().Format(time.RFC3339Nano), "error": err.Error(),
		})
		found, ferr := findPatiently(ctx, c, rc, since)
		if ferr != nil {
			c.logReconcile(ctx, "service API reconciliation failed", rc.What, rc.Key, map[string]any{"error": ferr.Error()})
			return zero, fmt.Errorf("%w; reconciling it failed: listing %ss by %s: %w. The %s may exist on the service: "+
				"check for it and import it, or delete it, before applying again", err, rc.What, rc.Key, ferr, rc.What)
		}
		var ids []string
		var cands []T
		for _, f := range found {
			if id := rc.ID(f); !c.claimed(id) {
				ids = append(ids, id)
				cands = append(cands, f)
			}
		}
		switch {
		case len(cands) == 1 && rc.Discard == nil:
			c.claim(ids[0])
			c.logReconcile(ctx, "service API reconciliation adopted the object the ambiguous create made", rc.What, rc.Key, map[string]any{"id": ids[0]})
			return cands[0], nil
		case len(cands) == 1:
			c.logReconcile(ctx, "service API reconciliation found the object; discarding it and creating again", rc.What, rc.Key, map[string]any{"id": ids[0]})
			if derr := rc.Discard(ctx, cands[0]); derr != nil {
				return zero, fmt.Errorf("%w; reconciling it found %s %s, which could not be removed: %w", err, rc.What, ids[0], derr)
			}
		case len(cands) > 1:
			c.logReconcile(ctx, "service API reconciliation found several candidates", rc.What, rc.Key, map[string]any{"ids": strings.Join(ids, ",")})
			return zero, fmt.Errorf("%w; reconciling it found %d %ss matching %s created since the request was sent (%s), "+
				"so the provider cannot tell which one it made: import the right one and delete the others",
				err, len(ids), rc.What, rc.Key, strings.Join(ids, ", "))
		default:
			c.logReconcile(ctx, "service API reconciliation found nothing; creating again", rc.What, rc.Key, map[string]any{"round": round})
		}
		if round >= maxCreateRounds {
			return zero, fmt.Errorf("%w; it was sent %d times, each time failing without an answer, and no %s was made", err, round, rc.What)
		}
	}
}

// findPatiently runs rc.Find until it succeeds, fails with an error that is
// not transient, or the reconcile window (the context deadline, else
// DefaultReconcileWindow) ends.
func findPatiently[T any](ctx context.Context, c *Client, rc reconcile[T], since time.Time) ([]T, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultReconcileWindow)
		defer cancel()
	}
	for attempt := 0; ; attempt++ {
		found, err := rc.Find(ctx, since)
		if err == nil || !isTransient(err) || ctx.Err() != nil {
			return found, err
		}
		wait, _ := c.backoff(min(attempt, 4), nil)
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return nil, err
		}
		c.logReconcile(ctx, "service API reconciliation list failed; the service may be restarting, trying again", rc.What, rc.Key, map[string]any{
			"retry_in_ms": wait.Milliseconds(), "error": err.Error(),
		})
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, err
		case <-t.C:
		}
	}
}

// isTransient reports an error a later attempt may not have: a transport
// failure, a per-attempt timeout, 429, 502, 503 or 504.
func isTransient(err error) bool {
	var ae *APIError
	if errors.As(err, &ae) {
		switch ae.StatusCode {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true
		}
		return false
	}
	return !errors.Is(err, context.Canceled)
}

func (c *Client) logReconcile(ctx context.Context, msg, what, key string, fields map[string]any) {
	if !tflog.IsDebug(ctx) {
		return
	}
	f := map[string]any{"object": what, "natural_key": key}
	for k, v := range fields {
		f[k] = v
	}
	tflog.Debug(ctx, msg, f)
}

// claim records an id this client created (or adopted), so that a later
// reconciliation never adopts the same object for another create.
func (c *Client) claim(id string) {
	if id != "" {
		c.created.Store(id, struct{}{})
	}
}

func (c *Client) claimed(id string) bool {
	_, ok := c.created.Load(id)
	return ok
}

// createdSince reports whether a service timestamp is at or after since. An
// unreadable timestamp counts as a match: the rest of the natural key already
// matched, and several candidates make the reconciliation fail rather than guess.
func createdSince(createdAt string, since time.Time) bool {
	t, err := time.Parse(time.RFC3339Nano, createdAt)
	if err != nil {
		return true
	}
	return !t.Before(since)
}
