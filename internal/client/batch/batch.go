// Package batch coalesces the reads that many concurrent callers make
// within a short window into one request that answers them all.
//
// A Batcher collects the keys its callers ask for. The first key opens a
// batch; the batch is sent when no other key has joined it for its window,
// when MaxWait has passed since it opened, or at once when it holds MaxKeys
// keys (a page of the answer). It is then answered by Many, one request for
// all of its keys, and every caller takes its own value from that answer.
//
// The window adapts to how the batcher is used. While its callers come
// alone it is Window (a few milliseconds): a lone caller is not measurably
// slower. Once they come together (the open batch, or one closed within the
// last second, held several keys; or a caller is expected) it is
// BusyWindow (tens of milliseconds), twice that for a batch of one key, and
// both BusyWindow and MaxWait stretch with the mean time between two keys
// (up to twelve times their value), so that as many callers meet on a loaded
// machine or a slow network as on an idle one. Concurrent operations then
// meet in few batches although they arrive tens of milliseconds apart
// (Terraform starts each after its own work between two calls), and the
// batches keep them in step: the callers a batch answers go on together
// and come back together. A batcher whose own requests take as long as a
// busy window and as two gaps between keys (a slow network, a rate limit's
// waits) waits only Window, whoever is expected: the request in flight
// already collects the next batch, and waiting longer would cost its
// callers more than it saves. On a loaded machine the requests are slow
// too, but the keys come further apart still: its batches wait.
//
// The rules that keep a caller's answer as good as its own read:
//
//   - A batch is sent after every key in it joined, so its answer is never
//     older than any of its callers' calls: a caller that joins after a
//     write of its own gets what the service holds after that write. A key
//     that arrives while a batch is being answered opens the next batch.
//   - One batch of a Batcher is answered at a time: a batch whose time is
//     up while another is in flight keeps collecting until that one ends,
//     so that batches grow when the requests are slow (latency, a rate
//     limit's waits) rather than piling up side by side.
//   - A batch of one key is answered by One, the read the caller would
//     have made alone: a lone caller sends the same request as without
//     the batcher, after waiting Window.
//   - A key the answer of Many lacks is read alone by One, and so is every
//     key of a batch whose Many failed (a failure of the coalesced request
//     is split into the callers' own reads). Many's own retries are the
//     transport's: one coalesced request is one request to its pacer.
//   - Callers the batcher is told to expect keep a batch open (up to
//     MaxWait) after Window: Expect marks one on its way (say a create
//     whose write is in flight and whose read-back will follow), until its
//     done is called; Anticipate marks n likely soon (say the next creates
//     of the operations just answered), each until a key joins or d
//     passes. A batch nobody else is expected to join is sent after
//     Window, so that a lone caller waits only that.
//   - A caller whose context ends stops waiting at once; the coalesced
//     request goes on while another caller waits for it, and is cancelled
//     when none does.
//
// The package knows nothing of the requests themselves: Many and One are
// the caller's.
package batch

import (
	"context"
	"sync"
	"time"
)

// Defaults for zero-valued Config fields.
const (
	DefaultWindow     = 2 * time.Millisecond
	DefaultBusyWindow = 20 * time.Millisecond
	DefaultMaxWait    = 60 * time.Millisecond
	DefaultMaxKeys    = 100
)

// Config configures a Batcher.
type Config[K comparable, V any] struct {
	// Window is how long a batch waits for another key after its last one
	// joined while the callers come alone (DefaultWindow when zero).
	Window time.Duration
	// BusyWindow replaces Window once the callers come together: the open
	// batch holds two keys or more, a batch closed within the last second
	// did, or a caller is expected (DefaultBusyWindow when zero; between Window and
	// MaxWait).
	BusyWindow time.Duration
	// MaxWait bounds how long a batch stays open after its first key
	// (DefaultMaxWait when zero; at least Window).
	MaxWait time.Duration
	// MaxKeys is the most keys a batch holds (DefaultMaxKeys when zero):
	// the batch is sent as soon as it holds this many.
	MaxKeys int
	// Many answers several keys with one request. It returns the values
	// it found; a key it leaves out is read by One. An error sends every
	// key of the batch to One.
	Many func(ctx context.Context, keys []K) (map[K]V, error)
	// One reads a single key: a batch of one, a key Many left out, every
	// key of a batch whose Many failed.
	One func(ctx context.Context, key K) (V, error)
}

// Batcher coalesces the concurrent reads of its callers. It is safe for
// concurrent use; the zero value is not usable (see New).
type Batcher[K comparable, V any] struct {
	cfg  Config[K, V]
	mu   sync.Mutex
	open *pending[K, V] // the batch collecting keys; nil when none is
	// expected counts the callers Expect announced and not yet done;
	// anticipated holds the deadlines of those Anticipate announced, each
	// taken by a joining key.
	expected    int
	anticipated []time.Time
	// queue holds the closed batches not answered yet; busy is set while
	// run answers them (one request of the batcher in flight at a time).
	queue []*pending[K, V]
	busy  bool
	// together is when the last batch of two keys or more closed.
	together time.Time
	// gap is the running mean time between two keys joining while the
	// callers come together (lastJoin: when the last one did): the busy
	// windows stretch with it, so that batches hold as many callers on a
	// loaded machine or a slow network as on an idle one.
	gap      time.Duration
	lastJoin time.Time
	// took is the running mean time the batcher's requests take (One's and
	// Many's): see slow.
	took time.Duration
}

// slow reports whether the batcher's requests take as long as a busy
// window and as long as slowGaps gaps between keys: then the request in
// flight collects the next batch (a key arriving meanwhile waits for it
// anyway), and holding a batch open any longer, for a caller expected or
// anticipated, would cost its callers more time than the request it saves
// (a slow network: 50 ms a request made the apply of 1,000 accounts 40%
// slower than reading alone). A slow batcher waits Window. Requests that
// take long while the keys come further apart still (a loaded machine,
// where everything is slow) are not slow: few keys would join the one in
// flight. Called with b.mu held.
func (b *Batcher[K, V]) slow() bool {
	return b.took >= b.cfg.BusyWindow && b.took >= slowGaps*b.gap
}

// slowGaps: see slow. With 50 ms of latency Terraform's creates came 10 to
// 20 ms apart (3 to 5 a request); on a loaded machine 50 to 100 ms apart
// while the emulator answered in 10 to 40 (a fraction of one a request).
const slowGaps = 2

// busyFor is how long after a batch of several keys closed the batcher
// still takes its callers to come together.
const busyFor = time.Second

// How the busy windows stretch with the mean gap between keys: BusyWindow
// at least gapsPerWindow gaps, MaxWait at least gapsPerMaxWait, each up to
// stretchAtMost times its configured value. A gap counts in the mean when
// it is shorter than gapsCountBelow times MaxWait (longer, the callers came
// alone). On an idle machine Terraform's concurrent operations come a few
// milliseconds apart; on one whose cores are shared with other work (a CI
// runner testing several packages side by side) 50 to 100: the busy windows
// then follow them up to about ten times their value.
const (
	gapsPerWindow  = 3
	gapsPerMaxWait = 10
	stretchAtMost  = 12
	gapsCountBelow = 4
)

// busyWindow and maxWait are the configured times stretched by the mean
// gap between keys. Called with b.mu held.
func (b *Batcher[K, V]) busyWindow() time.Duration {
	return min(max(b.cfg.BusyWindow, gapsPerWindow*b.gap), stretchAtMost*b.cfg.BusyWindow)
}

func (b *Batcher[K, V]) maxWait() time.Duration {
	return min(max(b.cfg.MaxWait, gapsPerMaxWait*b.gap), stretchAtMost*b.cfg.MaxWait)
}

// Expect announces a caller on its way: an open batch waits for it (up to
// MaxWait) until done is called. done may be called more than once.
func (b *Batcher[K, V]) Expect() (done func()) {
	b.mu.Lock()
	b.expected++
	b.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			b.expected--
			b.recheck()
			b.mu.Unlock()
		})
	}
}

// Anticipate announces n callers likely to join within d (when d is zero,
// MaxWait as stretched by the mean gap between keys: see busyWindow): an
// open batch waits for each (up to MaxWait) until a key joins or d has
// passed. At most MaxKeys are anticipated at a time.
func (b *Batcher[K, V]) Anticipate(n int, d time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if d <= 0 {
		d = b.maxWait()
	}
	until := time.Now().Add(d)
	for range n {
		if len(b.anticipated) >= b.cfg.MaxKeys {
			break
		}
		b.anticipated = append(b.anticipated, until)
	}
}

// awaited drops the anticipations past their deadline and returns how
// long an open batch may still wait for an expected caller (0: none is
// expected; -1: one is expected until it is done). Called with b.mu held.
func (b *Batcher[K, V]) awaited(now time.Time) time.Duration {
	live := b.anticipated[:0]
	for _, t := range b.anticipated {
		if t.After(now) {
			live = append(live, t)
		}
	}
	b.anticipated = live
	if b.slow() {
		return 0
	}
	if b.expected > 0 {
		return -1
	}
	var wait time.Duration
	for _, t := range live {
		wait = max(wait, t.Sub(now))
	}
	return wait
}

// recheck makes the open batch look again at once whether it may be sent
// (an expected caller was done). Called with b.mu held.
func (b *Batcher[K, V]) recheck() {
	if p := b.open; p != nil && p.timer != nil {
		p.timer.Reset(0)
	}
}

// pending is one batch.
type pending[K comparable, V any] struct {
	keys    []K
	seen    map[K]struct{}
	opened  time.Time
	last    time.Time
	timer   *time.Timer
	due     bool // its time is up, but another batch is in flight
	closed  bool // no longer collecting: queued, answered or dropped
	waiters int
	ctx     context.Context // Many's context: the first caller's values, cancelled when nobody waits
	cancel  context.CancelFunc
	done    chan struct{}
	vals    map[K]V // Many's answer (nil: none, every key is read by One)
	// single: the batch held one key, read by One: its answer.
	single bool
	oneVal V
	oneErr error
}

// New returns a Batcher with cfg's defaults applied. Many and One are
// required.
func New[K comparable, V any](cfg Config[K, V]) *Batcher[K, V] {
	if cfg.Many == nil || cfg.One == nil {
		panic("batch.New: Many and One are required")
	}
	if cfg.Window <= 0 {
		cfg.Window = DefaultWindow
	}
	if cfg.MaxWait <= 0 {
		cfg.MaxWait = DefaultMaxWait
	}
	if cfg.MaxWait < cfg.Window {
		cfg.MaxWait = cfg.Window
	}
	if cfg.BusyWindow <= 0 {
		cfg.BusyWindow = DefaultBusyWindow
	}
	cfg.BusyWindow = min(max(cfg.BusyWindow, cfg.Window), cfg.MaxWait)
	if cfg.MaxKeys <= 0 {
		cfg.MaxKeys = DefaultMaxKeys
	}
	return &Batcher[K, V]{cfg: cfg}
}

// Get returns key's value: from the answer of the batch it joins, else
// (a key the answer lacks, a failed batch) from One.
func (b *Batcher[K, V]) Get(ctx context.Context, key K) (V, error) {
	var zero V
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	p := b.join(ctx, key)
	select {
	case <-p.done:
	case <-ctx.Done():
		b.leave(p)
		return zero, ctx.Err()
	}
	b.leave(p)
	if p.single {
		return p.oneVal, p.oneErr
	}
	if v, ok := p.vals[key]; ok {
		return v, nil
	}
	return b.cfg.One(ctx, key)
}

// join adds key to the open batch (opening one if there is none); a batch
// that reaches MaxKeys is closed at once.
func (b *Batcher[K, V]) join(ctx context.Context, key K) *pending[K, V] {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	p := b.open
	if p == nil {
		mctx, cancel := context.WithCancel(context.WithoutCancel(ctx)) //nolint:gosec // G118: kept in p.cancel, called by leave when the last caller is out
		p = &pending[K, V]{seen: map[K]struct{}{}, opened: now, ctx: mctx, cancel: cancel, done: make(chan struct{})}
		b.open = p
		p.timer = time.AfterFunc(b.cfg.Window, func() { b.expire(p) })
	}
	p.waiters++
	p.last = now
	if g := now.Sub(b.lastJoin); g < gapsCountBelow*b.cfg.MaxWait {
		b.gap = (4*b.gap + g) / 5
	}
	b.lastJoin = now
	if len(b.anticipated) > 0 {
		b.anticipated = b.anticipated[1:] // this key is one of those anticipated
	}
	if _, dup := p.seen[key]; !dup {
		p.seen[key] = struct{}{}
		p.keys = append(p.keys, key)
	}
	if !p.due {
		p.timer.Reset(b.window(p)) // look again a window after this key
	}
	if len(p.keys) >= b.cfg.MaxKeys {
		b.close(p)
	}
	return p
}

// window is how long p waits for another key after its last one: Window
// while the callers come alone, BusyWindow once they come together. Called
// with b.mu held.
func (b *Batcher[K, V]) window(p *pending[K, V]) time.Duration {
	switch {
	case b.slow():
		return b.cfg.Window
	case len(p.keys) >= 2, b.expected > 0:
		return b.busyWindow()
	case time.Since(b.together) < busyFor:
		// The callers came together a moment ago: a batch of one waits
		// twice as long for the others (a read alone costs a request of
		// its own).
		return min(2*b.busyWindow(), b.maxWait())
	}
	return b.cfg.Window
}

// expire closes p once no key has joined it for its window, nobody expected
// is still on the way, or MaxWait has passed since it opened; otherwise it
// looks again later.
func (b *Batcher[K, V]) expire(p *pending[K, V]) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.open != p || p.due {
		return // closed when it filled up, or waiting for the batch in flight
	}
	now := time.Now()
	deadline := p.opened.Add(b.maxWait())
	next := p.last.Add(b.window(p)) // the window after the last key
	switch wait := b.awaited(now); {
	case wait < 0:
		next = deadline // until the expected caller is done (recheck)
	case now.Add(wait).After(next):
		next = now.Add(wait)
	}
	if deadline.Before(next) {
		next = deadline
	}
	if now.Before(next) {
		p.timer.Reset(next.Sub(now))
		return
	}
	if b.busy {
		// One batch in flight at a time: p keeps collecting until it ends.
		p.due = true
		return
	}
	b.close(p)
}

// close stops p collecting and queues it to be answered. Called with b.mu
// held.
func (b *Batcher[K, V]) close(p *pending[K, V]) {
	if p.closed {
		return
	}
	p.closed = true
	p.timer.Stop()
	if b.open == p {
		b.open = nil
	}
	b.closing(p)
	b.queue = append(b.queue, p)
	if !b.busy {
		b.busy = true
		go b.run()
	}
}

// closing notes a batch of several keys as it closes. Called with b.mu held.
func (b *Batcher[K, V]) closing(p *pending[K, V]) {
	if len(p.keys) >= 2 {
		b.together = time.Now()
	}
}

// run answers the queued batches one after the other; when the queue is
// empty, an open batch already due goes next.
func (b *Batcher[K, V]) run() {
	for {
		b.mu.Lock()
		if len(b.queue) == 0 && b.open != nil && b.open.due {
			p := b.open
			p.closed, b.open = true, nil
			b.closing(p)
			b.queue = append(b.queue, p)
		}
		if len(b.queue) == 0 {
			b.busy = false
			b.mu.Unlock()
			return
		}
		p := b.queue[0]
		b.queue = b.queue[1:]
		b.mu.Unlock()
		b.answer(p)
	}
}

// answer answers a closed batch: One for a single key, Many for more.
func (b *Batcher[K, V]) answer(p *pending[K, V]) {
	defer close(p.done)
	if p.ctx.Err() != nil {
		return // nobody waits any more
	}
	start := time.Now()
	defer func() {
		b.mu.Lock()
		if d := time.Since(start); b.took == 0 {
			b.took = d
		} else {
			b.took = (4*b.took + d) / 5
		}
		b.mu.Unlock()
	}()
	if len(p.keys) == 1 {
		p.single = true
		p.oneVal, p.oneErr = b.cfg.One(p.ctx, p.keys[0])
		return
	}
	vals, err := b.cfg.Many(p.ctx, p.keys)
	if err == nil {
		p.vals = vals
	}
}

// leave counts a caller out of p; the last one out cancels the batch's
// context, and drops p if it was still collecting.
func (b *Batcher[K, V]) leave(p *pending[K, V]) {
	b.mu.Lock()
	p.waiters--
	last := p.waiters == 0
	abandoned := last && !p.closed
	if abandoned {
		p.closed = true
		p.timer.Stop()
		if b.open == p {
			b.open = nil
		}
	}
	b.mu.Unlock()
	if last {
		p.cancel()
	}
	if abandoned {
		close(p.done)
	}
}
