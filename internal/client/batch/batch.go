// Package batch coalesces the reads that many concurrent callers make
// within a short window into one request that answers them all.
//
// A Batcher collects the keys its callers ask for. The first key opens a
// batch; the batch is sent when no other key has joined it for Window, when
// MaxWait has passed since it opened, or at once when it holds MaxKeys keys
// (a page of the answer). It is then answered by Many, one request for all
// of its keys, and every caller takes its own value from that answer.
//
// The rules that keep a caller's answer as good as its own read:
//
//   - A batch is sent after every key in it joined, so its answer is never
//     older than any of its callers' calls: a caller that joins after a
//     write of its own gets what the service holds after that write. A key
//     that arrives while a batch is being answered opens the next batch.
//   - A batch of one key is answered by One, the read the caller would
//     have made alone: a lone caller sends the same request as without
//     the batcher, after waiting Window.
//   - A key the answer of Many lacks is read alone by One, and so is every
//     key of a batch whose Many failed (a failure of the coalesced request
//     is split into the callers' own reads). Many's own retries are the
//     transport's: one coalesced request is one request to its pacer.
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
	DefaultWindow  = 2 * time.Millisecond
	DefaultMaxWait = 10 * time.Millisecond
	DefaultMaxKeys = 100
)

// Config configures a Batcher.
type Config[K comparable, V any] struct {
	// Window is how long a batch waits for another key after its last one
	// joined (DefaultWindow when zero).
	Window time.Duration
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
}

// pending is one batch.
type pending[K comparable, V any] struct {
	keys    []K
	seen    map[K]struct{}
	opened  time.Time
	last    time.Time
	timer   *time.Timer
	sent    bool
	waiters int
	ctx     context.Context // Many's context: the first caller's values, cancelled when nobody waits
	cancel  context.CancelFunc
	done    chan struct{}
	vals    map[K]V // Many's answer (nil: none, every key is read by One)
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
	if cfg.MaxKeys <= 0 {
		cfg.MaxKeys = DefaultMaxKeys
	}
	return &Batcher[K, V]{cfg: cfg}
}

// Get returns key's value: from the answer of the batch it joins, else
// (a batch of one, a key the answer lacks, a failed batch) from One.
func (b *Batcher[K, V]) Get(ctx context.Context, key K) (V, error) {
	var zero V
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	p, full := b.join(ctx, key)
	if full {
		b.send(p)
	}
	select {
	case <-p.done:
	case <-ctx.Done():
		b.leave(p)
		return zero, ctx.Err()
	}
	b.leave(p)
	if v, ok := p.vals[key]; ok {
		return v, nil
	}
	return b.cfg.One(ctx, key)
}

// join adds key to the open batch (opening one if there is none) and
// reports whether the batch is now full (the caller sends it).
func (b *Batcher[K, V]) join(ctx context.Context, key K) (*pending[K, V], bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	p := b.open
	if p == nil {
		mctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		p = &pending[K, V]{seen: map[K]struct{}{}, opened: now, ctx: mctx, cancel: cancel, done: make(chan struct{})}
		b.open = p
		p.timer = time.AfterFunc(b.cfg.Window, func() { b.expire(p) })
	}
	p.waiters++
	p.last = now
	if _, dup := p.seen[key]; !dup {
		p.seen[key] = struct{}{}
		p.keys = append(p.keys, key)
	}
	if len(p.keys) >= b.cfg.MaxKeys {
		b.open = nil
		p.timer.Stop()
		return p, true
	}
	return p, false
}

// expire sends p once no key has joined it for Window or MaxWait has
// passed since it opened; otherwise it waits again.
func (b *Batcher[K, V]) expire(p *pending[K, V]) {
	b.mu.Lock()
	if b.open != p {
		b.mu.Unlock()
		return // sent when it filled up
	}
	now := time.Now()
	idle := p.last.Add(b.cfg.Window)
	deadline := p.opened.Add(b.cfg.MaxWait)
	if now.Before(idle) && now.Before(deadline) {
		next := idle
		if deadline.Before(next) {
			next = deadline
		}
		p.timer.Reset(next.Sub(now))
		b.mu.Unlock()
		return
	}
	b.open = nil
	b.mu.Unlock()
	b.send(p)
}

// send answers a closed batch: Many for two keys or more; a batch of one
// is left to its caller's One.
func (b *Batcher[K, V]) send(p *pending[K, V]) {
	b.mu.Lock()
	if p.sent {
		b.mu.Unlock()
		return
	}
	p.sent = true
	b.mu.Unlock()
	defer close(p.done)
	if len(p.keys) < 2 {
		return
	}
	vals, err := b.cfg.Many(p.ctx, p.keys)
	if err == nil {
		p.vals = vals
	}
}

// leave counts a caller out of p; the last one out cancels Many's context,
// and closes p if it was still collecting (nobody is left to answer).
func (b *Batcher[K, V]) leave(p *pending[K, V]) {
	b.mu.Lock()
	p.waiters--
	last := p.waiters == 0
	abandoned := last && !p.sent
	if abandoned {
		p.sent = true
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
