package client

// Pacing: one pacer per Client, shared by every request it sends.
//
// The service limits each organization per window (one minute: 2,000
// requests on the Hobby plan, 10,000 on Pro) and answers 429 beyond it. It
// usually says so on every response (X-RateLimit: the limit,
// X-RateLimit-Remaining, X-RateLimit-Window-Size: "60s") and in Retry-After
// on the 429; some 429s carry no header at all. The pacer holds requests
// back before they are sent (attempt: after the MaxInFlight slot, before the
// per-attempt timeout starts), so that the requests of a whole provider run
// slow down together instead of each retrying on its own:
//
//   - Limits: Config.MaxRequestsPerMinute from the start; the limit and
//     window of the headers once a response carried them; and, when a 429
//     carries no Retry-After while the client knows no limit from headers,
//     an estimate: the requests the service accepted from this client
//     within the last window (when at least minEstimate), raised by a tenth
//     after each window without such a 429.
//   - A request is sent when, for every limit, the requests answered within
//     its window (timed by the answer, which comes after the service counted
//     them), those in flight, and those the service counted from others
//     (the limit minus X-RateLimit-Remaining beyond this client's requests
//     answered before the one it came with: the plan's provider process,
//     other pipelines of the organization) are fewer than the limit; otherwise it waits until enough of them leave
//     the window. A request let through when an earlier one leaves this
//     window reaches the service after that one left the service's window
//     too, so a client alone stays within a fixed or sliding window of the
//     same size without ever being answered 429.
//   - After a 429 every request waits: until Retry-After (at most
//     maxServerDelay), else for a shared exponential backoff with jitter
//     (RetryWaitMin doubled on each 429 of a request sent after the previous
//     429, up to the window); after a backoff one request goes alone (a
//     probe) and the others follow once it is answered other than 429.
//     429s of requests sent before the latest 429 (in flight at the time)
//     neither lengthen the backoff nor count as news.
//   - Requests wait in the order they came (first in, first out); a request
//     whose context ends stops waiting and is not sent.
//
// Waiting is logged at INFO, without secrets: "throttled by the service,
// waiting N s" when a 429 starts a wait (transport.go), and "pacing requests
// to the service's rate limit, waiting N s" when the pacer holds a request
// for a second or more (at most every pacingLogEvery).

import (
	"context"
	"math/rand/v2"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

const (
	// defaultRateWindow is the service's window until a response names it.
	defaultRateWindow = time.Minute
	// minEstimate is the fewest accepted requests a 429 without headers
	// turns into an estimated limit; below it the backoff alone paces.
	minEstimate = 10
	// pacingLogMin and pacingLogEvery: a pacing wait is logged when it is at
	// least pacingLogMin, at most once every pacingLogEvery.
	pacingLogMin   = time.Second
	pacingLogEvery = 10 * time.Second
	// minReportedWait is the shortest hold told to Config.OnRateLimitWait
	// (shorter ones are a request waking behind another, not a wait).
	minReportedWait = time.Millisecond
)

// pacerEntry is one request answered by the service (any status).
type pacerEntry struct {
	at       time.Time // when its answer (or failure after sending) came
	accepted bool      // answered, and not 429
}

// pacerTicket is a request let through by acquire, handed back to done.
type pacerTicket struct {
	sentAt time.Time
	probe  bool
	// waited is how long acquire held the request, why the longest reason
	// it gave for it (zero when it did not wait).
	waited time.Duration
	why    pacerWait
}

// pacerWaiter is a request waiting in acquire (not zero-sized: every one
// has its own address).
type pacerWaiter struct{ _ byte }

// pacerWait describes why acquire holds a request.
type pacerWait struct {
	wait      time.Duration
	throttled bool // a 429 blocks every request (else: pacing to a limit)
	// serverAsked: a throttled wait is the service's Retry-After (else a
	// shared backoff, or the probe after one).
	serverAsked bool
	limit       int
	window      time.Duration
}

// pacerOutcome is what done learned from an answer, for the caller's log.
type pacerOutcome struct {
	// newBlock: a 429 started a wait of every request, for wait.
	newBlock bool
	wait     time.Duration
	// serverAsked: the wait is the service's Retry-After.
	serverAsked bool
}

type pacer struct {
	mu sync.Mutex
	// backoffMin is the first shared backoff after a 429 without
	// Retry-After (Config.RetryWaitMin).
	backoffMin time.Duration
	// jitter spreads a backoff d over [d/2, d].
	jitter func(time.Duration) time.Duration

	capPerMinute int           // Config.MaxRequestsPerMinute; 0: none
	limit        int           // X-RateLimit; 0: not known
	window       time.Duration // X-RateLimit-Window-Size; 0: defaultRateWindow
	estimate     int           // from 429s without headers; 0: none
	estimateAt   time.Time     // when the estimate was last set or raised
	others       int           // requests the service counted beyond ours
	othersUntil  time.Time

	log      []pacerEntry // answered requests, oldest first, within the longest window
	inFlight int

	blockedUntil time.Time // after a 429, no request before this
	// blockedByServer: blockedUntil is the service's Retry-After.
	blockedByServer bool
	lastThrottle    time.Time // when the latest 429 of a fresh request came
	throttles       int       // 429s without Retry-After since the last accepted request
	needProbe       bool      // after such a 429: one request alone first
	probing         bool      // that request is out

	queue         []*pacerWaiter // waiting requests, first come first
	changed       chan struct{}
	lastPacingLog time.Time
}

func newPacer(capPerMinute int, backoffMin time.Duration) *pacer {
	return &pacer{
		capPerMinute: capPerMinute,
		backoffMin:   backoffMin,
		jitter:       jitter,
		changed:      make(chan struct{}),
	}
}

// jitter is d spread uniformly over [d/2, d].
func jitter(d time.Duration) time.Duration {
	half := d / 2
	if half > 0 {
		d = half + rand.N(half+1) //nolint:gosec // G404: the jitter of a wait, not a secret
	}
	return d
}

// expBackoff is base doubled n times, at most ceiling.
func expBackoff(base, ceiling time.Duration, n int) time.Duration {
	d := base
	for i := 0; i < n && d < ceiling; i++ {
		d *= 2
	}
	if d > ceiling {
		d = ceiling
	}
	return d
}

// notifyLocked wakes every waiting request to look again.
func (p *pacer) notifyLocked() {
	close(p.changed)
	p.changed = make(chan struct{})
}

func (p *pacer) windowLocked() time.Duration {
	if p.window > 0 {
		return p.window
	}
	return defaultRateWindow
}

// since is the index of the first entry answered after cut.
func (p *pacer) since(cut time.Time) int {
	return sort.Search(len(p.log), func(i int) bool { return p.log[i].at.After(cut) })
}

// pruneLocked drops the entries no window looks at any more.
func (p *pacer) pruneLocked(now time.Time) {
	keep := max(p.windowLocked(), time.Minute)
	if i := p.since(now.Add(-keep)); i > 0 {
		p.log = append(p.log[:0], p.log[i:]...)
	}
}

type pacerLimit struct {
	n      int
	window time.Duration
	others int
}

func (p *pacer) limitsLocked(now time.Time) []pacerLimit {
	var out []pacerLimit
	if p.capPerMinute > 0 {
		out = append(out, pacerLimit{n: p.capPerMinute, window: time.Minute})
	}
	w := p.windowLocked()
	if p.limit > 0 {
		l := pacerLimit{n: p.limit, window: w}
		if now.Before(p.othersUntil) {
			l.others = p.others
		}
		out = append(out, l)
	}
	if p.estimate > 0 && p.limit == 0 {
		if now.Sub(p.estimateAt) >= w {
			p.estimate += max(1, p.estimate/10)
			p.estimateAt = now
		}
		out = append(out, pacerLimit{n: p.estimate, window: w})
	}
	return out
}

// delayLocked says how long the next request must wait at now: until
// wait has passed, and, when untilChange, also until something changes (a
// request in flight is answered).
func (p *pacer) delayLocked(now time.Time) (w pacerWait, untilChange bool) {
	if now.Before(p.blockedUntil) {
		return pacerWait{wait: p.blockedUntil.Sub(now), throttled: true, serverAsked: p.blockedByServer}, false
	}
	if p.probing {
		return pacerWait{throttled: true}, true
	}
	p.pruneLocked(now)
	for _, l := range p.limitsLocked(now) {
		first := p.since(now.Add(-l.window))
		inWindow := len(p.log) - first
		used := inWindow + p.inFlight + l.others
		if used < l.n {
			continue
		}
		// The (used-n+1) oldest must leave the window; the last of them is
		// the k-th answered one, or one still in flight or of others.
		var d time.Duration
		switch k := used - l.n; {
		case k < inWindow:
			d = p.log[first+k].at.Add(l.window).Sub(now)
		case l.others > 0:
			d = p.othersUntil.Sub(now)
			untilChange = true
		default:
			untilChange = true
		}
		if d > w.wait || w.limit == 0 {
			w.wait, w.limit, w.window = max(d, w.wait), l.n, l.window
		}
	}
	return w, untilChange
}

// acquire waits until the request may be sent (or ctx ends: then it is not
// sent and ctx's error is returned). onPacing, when set, is told of a
// pacing wait worth logging. Every ticket goes back through done.
func (p *pacer) acquire(ctx context.Context, onPacing func(pacerWait)) (*pacerTicket, error) {
	me := &pacerWaiter{}
	start := time.Now()
	var why pacerWait // the longest wait acquire saw, for the ticket
	p.mu.Lock()
	p.queue = append(p.queue, me)
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		var tick <-chan time.Time
		if p.queue[0] == me {
			now := time.Now()
			w, untilChange := p.delayLocked(now)
			if w.wait > why.wait || (why == pacerWait{} && untilChange) {
				why = w
			}
			if w.wait <= 0 && !untilChange {
				p.queue = p.queue[1:]
				p.inFlight++
				t := &pacerTicket{sentAt: now, waited: now.Sub(start), why: why}
				if p.needProbe {
					p.probing, t.probe = true, true
				}
				p.notifyLocked()
				p.mu.Unlock()
				return t, nil
			}
			if w.wait > 0 {
				if timer == nil {
					timer = time.NewTimer(w.wait)
				} else {
					timer.Reset(w.wait)
				}
				tick = timer.C
			}
			if !w.throttled && w.wait >= pacingLogMin && now.Sub(p.lastPacingLog) >= pacingLogEvery && onPacing != nil {
				p.lastPacingLog = now
				p.mu.Unlock()
				onPacing(w)
				p.mu.Lock()
				continue // look again: the state may have moved meanwhile
			}
		}
		changed := p.changed
		p.mu.Unlock()
		select {
		case <-changed:
		case <-tick:
		case <-ctx.Done():
			p.mu.Lock()
			for i, q := range p.queue {
				if q == me {
					p.queue = append(p.queue[:i], p.queue[i+1:]...)
					break
				}
			}
			p.notifyLocked()
			p.mu.Unlock()
			return nil, ctx.Err()
		}
		p.mu.Lock()
	}
}

// done hands back the ticket of a request with its outcome: res nil or not
// sent (the service never saw it), sent without an answer (status 0), or
// answered.
func (p *pacer) done(t *pacerTicket, res *response) pacerOutcome {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer p.notifyLocked()
	now := time.Now()
	p.inFlight--
	if t.probe {
		p.probing = false
	}
	if res == nil || !res.sent {
		return pacerOutcome{}
	}
	throttled := res.status == http.StatusTooManyRequests
	p.learnLocked(now, t.sentAt, res.header) // before this answer is logged
	p.log = append(p.log, pacerEntry{at: now, accepted: res.status != 0 && !throttled})
	fresh := t.sentAt.After(p.lastThrottle)
	if !throttled {
		if res.status != 0 && fresh {
			p.throttles, p.needProbe = 0, false
		}
		return pacerOutcome{}
	}
	blocked := now.Before(p.blockedUntil)
	var until time.Time
	out := pacerOutcome{}
	if d, ok := retryAfter(res.header, now); ok {
		until, out.serverAsked = now.Add(min(d, maxServerDelay)), true
	} else if fresh {
		p.throttles++
		if p.limit == 0 {
			p.estimateLocked(now)
		}
		until = now.Add(p.jitter(expBackoff(p.backoffMin, p.windowLocked(), p.throttles-1)))
		p.needProbe = true
	}
	if fresh {
		p.lastThrottle = now
	}
	if until.After(p.blockedUntil) {
		p.blockedUntil, p.blockedByServer = until, out.serverAsked
		out.newBlock = !blocked
	}
	out.wait = max(p.blockedUntil.Sub(now), 0)
	return out
}

// estimateLocked turns a 429 without headers into a limit: the requests
// the service accepted within the window, when they are enough to tell.
func (p *pacer) estimateLocked(now time.Time) {
	n := 0
	for _, e := range p.log[p.since(now.Add(-p.windowLocked())):] {
		if e.accepted {
			n++
		}
	}
	if n >= minEstimate && (p.estimate == 0 || n < p.estimate) {
		p.estimate = n
	}
	p.estimateAt = now
}

// learnLocked reads the rate-limit headers of an answer to a request sent
// at sentAt.
func (p *pacer) learnLocked(now, sentAt time.Time, h http.Header) {
	if h == nil {
		return
	}
	if n, ok := headerInt(h, "X-RateLimit"); ok && n > 0 {
		p.limit = n
	} else if n, ok := headerInt(h, "X-RateLimit-Limit"); ok && n > 0 {
		p.limit = n
	}
	if v := strings.TrimSpace(h.Get("X-RateLimit-Window-Size")); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			if s, serr := strconv.Atoi(v); serr == nil {
				d, err = time.Duration(s)*time.Second, nil
			}
		}
		if err == nil && d > 0 {
			p.window = d
		}
	}
	if r, ok := headerInt(h, "X-RateLimit-Remaining"); ok && r >= 0 && p.limit > 0 {
		// The service counted limit-r requests when this one arrived. Of
		// ours, only this one and those answered before it was sent surely
		// arrived before it: the rest of the count are others' (or ours
		// that were in flight, counted twice until the next answer: too
		// slow rather than refused). Answers that come back out of order
		// cannot make it too small.
		w := p.windowLocked()
		own := 1 + max(0, p.since(sentAt)-p.since(now.Add(-w)))
		p.others = max(0, p.limit-r-own)
		p.othersUntil = now.Add(w)
	}
}

func headerInt(h http.Header, name string) (int, bool) {
	v := strings.TrimSpace(h.Get(name))
	if v == "" {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	return n, err == nil
}

// blockedFor is how long every request still waits after a 429.
func (p *pacer) blockedFor() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return max(time.Until(p.blockedUntil), 0)
}
