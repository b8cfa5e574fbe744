package client

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// Pacer tests run in a synctest bubble: its clock is fake and moves only when
// every goroutine of the bubble is blocked, so waits of minutes take no time
// and every outcome is exact.

// noJitter makes the shared backoff deterministic: the whole backoff.
func noJitter(d time.Duration) time.Duration { return d }

// testPacer is a pacer with a cap (0: none) whose shared backoff starts
// at 1s and has no jitter.
func testPacer(capPerMinute int) *pacer {
	p := newPacer(capPerMinute, time.Second)
	p.jitter = noJitter
	return p
}

// rateHeaders are the service's rate-limit headers, for a one-minute window.
func rateHeaders(limit, remaining int) http.Header {
	h := http.Header{}
	h.Set("X-RateLimit", strconv.Itoa(limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Window-Size", "60s")
	return h
}

// answered is a response of the service with status and headers.
func answered(status int, h http.Header) *response {
	if h == nil {
		h = http.Header{}
	}
	return &response{status: status, header: h, sent: true}
}

// pacerRun tracks requests started in the bubble: when each was let
// through, by name.
type pacerRun struct {
	t     *testing.T
	p     *pacer
	start time.Time
	// answerAfter is how long the service takes to answer (0: at once).
	answerAfter time.Duration
	mu          sync.Mutex
	sent        map[string]time.Duration
}

func newPacerRun(t *testing.T, p *pacer) *pacerRun {
	return &pacerRun{t: t, p: p, start: time.Now(), sent: map[string]time.Duration{}}
}

// send starts a request named name that is answered res (nil: not sent)
// as soon as it is let through.
func (r *pacerRun) send(ctx context.Context, name string, res func() *response) {
	go func() {
		tk, err := r.p.acquire(ctx, nil)
		if err != nil {
			return
		}
		r.mu.Lock()
		r.sent[name] = time.Since(r.start)
		r.mu.Unlock()
		time.Sleep(r.answerAfter)
		r.p.done(tk, res())
	}()
	synctest.Wait() // it is let through or waits
}

// sentAt is when name was let through, and whether it was.
func (r *pacerRun) sentAt(name string) (time.Duration, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	d, ok := r.sent[name]
	return d, ok
}

func (r *pacerRun) wantSent(name string, at time.Duration) {
	r.t.Helper()
	if got, ok := r.sentAt(name); !ok || got != at {
		r.t.Errorf("%s: sent %v (sent=%v), want at %v", name, got, ok, at)
	}
}

func (r *pacerRun) wantWaiting(name string) {
	r.t.Helper()
	if got, ok := r.sentAt(name); ok {
		r.t.Errorf("%s was sent at %v, want it still waiting", name, got)
	}
}

// advance moves the fake clock by d and lets everything due run.
func advance(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

// TestPacerLearnsTheLimitFromHeaders: once answers say "5 per 60s", the
// sixth request within a minute waits until the first answer is a minute
// old, and is never sent early; answers without headers change nothing.
func TestPacerLearnsTheLimitFromHeaders(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newPacerRun(t, testPacer(0))
		ctx := context.Background()
		for i := range 5 {
			r.send(ctx, "r"+strconv.Itoa(i), func() *response { return answered(200, rateHeaders(5, 4-i)) })
			r.wantSent("r"+strconv.Itoa(i), time.Duration(i)*time.Second)
			advance(time.Second)
		}
		r.send(ctx, "r5", func() *response { return answered(200, rateHeaders(5, 4)) })
		r.send(ctx, "r6", func() *response { return answered(200, rateHeaders(5, 3)) })
		r.send(ctx, "r7", func() *response { return answered(200, nil) })
		advance(54 * time.Second) // 59 s after the first answer
		r.wantWaiting("r5")
		advance(time.Second)
		r.wantSent("r5", 60*time.Second)
		r.wantWaiting("r6") // the second answer was at 1 s
		advance(time.Second)
		r.wantSent("r6", 61*time.Second)
		r.wantWaiting("r7")
		advance(time.Second)
		r.wantSent("r7", 62*time.Second)
	})
}

// TestPacerCountsOtherRequestsOfTheOrganization: the service's remaining
// count includes requests this client did not make (another provider
// process, another pipeline); the pacer leaves them their share.
func TestPacerCountsOtherRequestsOfTheOrganization(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newPacerRun(t, testPacer(0))
		ctx := context.Background()
		// 10 per minute; the first answer says 2 remain: 7 were someone else's.
		r.send(ctx, "a", func() *response { return answered(200, rateHeaders(10, 2)) })
		r.send(ctx, "b", func() *response { return answered(200, rateHeaders(10, 1)) })
		r.send(ctx, "c", func() *response { return answered(200, rateHeaders(10, 0)) })
		r.send(ctx, "d", func() *response { return answered(200, rateHeaders(10, 9)) })
		r.wantSent("c", 0)
		advance(59 * time.Second)
		r.wantWaiting("d")
		advance(time.Second)
		r.wantSent("d", time.Minute)
	})
}

// TestPacerOthersFromAnswersOutOfOrder: answers may come back in another
// order than the service counted them; an older count read after a newer
// one must not make the pacer believe more is left than is.
func TestPacerOthersFromAnswersOutOfOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := testPacer(0)
		ctx := context.Background()
		used := 2 // someone else's requests in the service's window
		arrive := func() int { used++; return 10 - used }
		// Learn the limit, then two requests in flight, answered b then a
		// (a millisecond between events: the fake clock stands still).
		tk, _ := p.acquire(ctx, nil)
		p.done(tk, answered(200, rateHeaders(10, arrive())))
		time.Sleep(time.Millisecond)
		a, _ := p.acquire(ctx, nil)
		ra := arrive()
		time.Sleep(time.Millisecond)
		b, _ := p.acquire(ctx, nil)
		rb := arrive()
		time.Sleep(time.Millisecond)
		p.done(b, answered(200, rateHeaders(10, rb)))
		time.Sleep(time.Millisecond)
		p.done(a, answered(200, rateHeaders(10, ra)))
		// 5 are used (2 others', 3 ours): exactly 5 more may go now, all at
		// once (answered only afterwards).
		release := make(chan struct{})
		var mu sync.Mutex
		sent := 0
		for range 6 {
			go func() {
				tk, _ := p.acquire(ctx, nil)
				mu.Lock()
				sent++
				rem := arrive()
				mu.Unlock()
				<-release
				p.done(tk, answered(200, rateHeaders(10, rem)))
			}()
		}
		synctest.Wait()
		mu.Lock()
		if sent != 5 || used != 10 {
			t.Errorf("%d let through at once, the service counted %d in its window; want 5 and 10", sent, used)
		}
		mu.Unlock()
		close(release)
		advance(time.Minute)
		if sent != 6 {
			t.Errorf("%d let through after the window, want 6", sent)
		}
	})
}

// TestPacerCapFromTheStart: max_requests_per_minute holds before any answer
// says anything, in any minute of the run.
func TestPacerCapFromTheStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newPacerRun(t, testPacer(3))
		ctx := context.Background()
		for _, name := range []string{"a", "b", "c", "d", "e", "f", "g"} {
			r.send(ctx, name, func() *response { return answered(200, nil) })
		}
		for _, name := range []string{"a", "b", "c"} {
			r.wantSent(name, 0)
		}
		advance(time.Minute - time.Nanosecond)
		r.wantWaiting("d")
		advance(time.Nanosecond)
		for _, name := range []string{"d", "e", "f"} {
			r.wantSent(name, time.Minute)
		}
		r.wantWaiting("g")
		advance(time.Minute)
		r.wantSent("g", 2*time.Minute)
	})
}

// TestPacerRetryAfterHoldsEveryRequest: after a 429 with Retry-After every
// request waits that long, those sent before it included, and all go when
// it is over; a request not sent (connection refused) counts nowhere.
func TestPacerRetryAfterHoldsEveryRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := testPacer(0)
		r := newPacerRun(t, p)
		ctx := context.Background()
		h := http.Header{}
		h.Set("Retry-After", "5")
		tk, _ := p.acquire(ctx, nil)
		out := p.done(tk, answered(429, h))
		if !out.newBlock || !out.serverAsked || out.wait != 5*time.Second {
			t.Fatalf("outcome of the 429: %+v; want a new block of 5s asked by the service", out)
		}
		for _, name := range []string{"a", "b", "c"} {
			r.send(ctx, name, func() *response { return answered(200, nil) })
		}
		if d := p.blockedFor(); d != 5*time.Second {
			t.Errorf("blockedFor = %v, want 5s", d)
		}
		advance(5*time.Second - time.Nanosecond)
		r.wantWaiting("a")
		advance(time.Nanosecond)
		for _, name := range []string{"a", "b", "c"} {
			r.wantSent(name, 5*time.Second)
		}
		tk, _ = p.acquire(ctx, nil)
		p.done(tk, &response{sent: false})
		if len(p.log) != 4 || p.inFlight != 0 {
			t.Errorf("log %d entries, %d in flight; want 4 answered (the refused one not counted), 0", len(p.log), p.inFlight)
		}
	})
}

// TestPacer429WithoutHeadersSharedBackoff: a 429 without Retry-After holds
// every request for a shared backoff; 429s of requests already in flight do
// not lengthen it; then one request goes alone, a 429 on it doubles the
// backoff, and the others follow once it is accepted.
func TestPacer429WithoutHeadersSharedBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := testPacer(0)
		r := newPacerRun(t, p)
		ctx := context.Background()
		var inFlight []*pacerTicket
		for range 3 {
			tk, _ := p.acquire(ctx, nil)
			inFlight = append(inFlight, tk)
		}
		if out := p.done(inFlight[0], answered(429, nil)); !out.newBlock || out.serverAsked || out.wait != time.Second {
			t.Fatalf("first 429: %+v; want a new shared backoff of 1s", out)
		}
		for _, tk := range inFlight[1:] {
			if out := p.done(tk, answered(429, nil)); out.newBlock || out.wait != time.Second {
				t.Fatalf("429 of a request sent before: %+v; want the same block, not a longer one", out)
			}
		}
		status := 429
		var mu sync.Mutex
		answer := func() *response { mu.Lock(); defer mu.Unlock(); return answered(status, nil) }
		r.answerAfter = 10 * time.Millisecond
		for _, name := range []string{"probe1", "x", "y"} {
			r.send(ctx, name, answer)
		}
		advance(time.Second)
		r.wantSent("probe1", time.Second) // alone
		r.wantWaiting("x")
		advance(10 * time.Millisecond) // answered 429: the backoff doubles to 2s
		r.wantWaiting("x")
		mu.Lock()
		status = 200
		mu.Unlock()
		advance(2*time.Second - time.Nanosecond)
		r.wantWaiting("x")
		advance(time.Nanosecond)
		r.wantSent("x", 3010*time.Millisecond) // the new probe, alone
		r.wantWaiting("y")
		advance(10 * time.Millisecond) // accepted: the others follow at once
		r.wantSent("y", 3020*time.Millisecond)
		advance(10 * time.Millisecond)
	})
}

// TestPacer429WithoutHeadersEstimatesTheLimit: a 429 carrying no header
// after 20 accepted requests makes 20 per window the limit: the requests
// wait for the window to move on instead of each being refused again.
func TestPacer429WithoutHeadersEstimatesTheLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := testPacer(0)
		r := newPacerRun(t, p)
		ctx := context.Background()
		for i := range 20 {
			r.send(ctx, "ok"+strconv.Itoa(i), func() *response { return answered(200, nil) })
			advance(time.Second)
		}
		tk, _ := p.acquire(ctx, nil)
		p.done(tk, answered(429, nil)) // at 20 s
		if p.estimate != 20 {
			t.Fatalf("estimate %d, want 20", p.estimate)
		}
		// 21 answered in the window (the 429 counts at the service too):
		// two must leave it, the second answered at 1 s.
		r.send(ctx, "next", func() *response { return answered(200, nil) })
		advance(41*time.Second - time.Nanosecond)
		r.wantWaiting("next")
		advance(time.Nanosecond)
		r.wantSent("next", 61*time.Second)
		// Too few accepted requests tell nothing: no estimate.
		q := testPacer(0)
		for range minEstimate - 1 {
			tk, _ := q.acquire(ctx, nil)
			q.done(tk, answered(200, nil))
		}
		tk, _ = q.acquire(ctx, nil)
		q.done(tk, answered(429, nil))
		if q.estimate != 0 {
			t.Errorf("estimate from %d accepted requests: %d, want none", minEstimate-1, q.estimate)
		}
	})
}

// TestPacerWaitsInOrderAndForgetsCancelled: requests go in the order they
// came; one whose context ends stops waiting and is never sent.
func TestPacerWaitsInOrderAndForgetsCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := testPacer(1)
		r := newPacerRun(t, p)
		ok := func() *response { return answered(200, nil) }
		r.send(context.Background(), "first", ok)
		cctx, cancel := context.WithCancel(context.Background())
		r.send(context.Background(), "second", ok)
		var cancelledErr error
		done := make(chan struct{})
		go func() {
			_, cancelledErr = p.acquire(cctx, nil)
			close(done)
		}()
		synctest.Wait()
		r.send(context.Background(), "fourth", ok)
		cancel()
		<-done
		if !errors.Is(cancelledErr, context.Canceled) {
			t.Fatalf("cancelled request: %v", cancelledErr)
		}
		advance(time.Minute)
		r.wantSent("second", time.Minute)
		r.wantWaiting("fourth")
		advance(time.Minute)
		r.wantSent("fourth", 2*time.Minute)
		if len(p.queue) != 0 || p.inFlight != 0 {
			t.Errorf("queue %d, in flight %d; want both empty", len(p.queue), p.inFlight)
		}
	})
}

// TestPacerLogsPacingWaits: a wait for the limit of a second or more is
// reported (with the limit), at most every pacingLogEvery.
func TestPacerLogsPacingWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := testPacer(1)
		var seen []pacerWait
		var mu sync.Mutex
		onPacing := func(w pacerWait) { mu.Lock(); seen = append(seen, w); mu.Unlock() }
		ctx := context.Background()
		for range 3 {
			go func() {
				tk, err := p.acquire(ctx, onPacing)
				if err == nil {
					p.done(tk, answered(200, nil))
				}
			}()
			synctest.Wait()
		}
		advance(2 * time.Minute)
		mu.Lock()
		defer mu.Unlock()
		if len(seen) != 2 || seen[0].limit != 1 || seen[0].window != time.Minute || seen[0].wait != time.Minute || seen[0].throttled {
			t.Errorf("pacing waits reported: %+v; want two of 1m for the limit 1 per 1m", seen)
		}
	})
}

// TestPacerReadsTheRateLimitHeaders: the window size as a duration or in
// seconds, X-RateLimit-Limit as another name of the limit, and values that
// are not numbers ignored.
func TestPacerReadsTheRateLimitHeaders(t *testing.T) {
	for _, tc := range []struct {
		limitHeader, limit, window string
		wantLimit                  int
		wantWindow                 time.Duration
	}{
		{"X-RateLimit", "2000", "60s", 2000, time.Minute},
		{"X-RateLimit", "2000", "600", 2000, 10 * time.Minute},
		{"X-RateLimit-Limit", "10000", "1m", 10000, time.Minute},
		{"X-RateLimit", "lots", "soon", 0, defaultRateWindow},
		{"X-RateLimit", "0", "-5s", 0, defaultRateWindow},
	} {
		p := testPacer(0)
		h := http.Header{}
		h.Set(tc.limitHeader, tc.limit)
		h.Set("X-RateLimit-Window-Size", tc.window)
		now := time.Now()
		p.learnLocked(now, now, h)
		if p.limit != tc.wantLimit || p.windowLocked() != tc.wantWindow {
			t.Errorf("%s: %s, window %s: limit %d, window %v; want %d, %v", tc.limitHeader, tc.limit, tc.window, p.limit, p.windowLocked(), tc.wantLimit, tc.wantWindow)
		}
	}
}
