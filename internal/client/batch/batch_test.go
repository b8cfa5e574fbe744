package batch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// recorder is a Many and a One that record their calls.
type recorder struct {
	mu      sync.Mutex
	batches [][]string
	ones    []string
	lack    map[string]bool // keys Many leaves out
	fail    error           // Many's error
	hold    chan struct{}   // when set, Many waits for it
	delay   time.Duration   // how long One and Many take
	manyCtx []context.Context
}

func (r *recorder) many(ctx context.Context, keys []string) (map[string]string, error) {
	r.mu.Lock()
	r.batches = append(r.batches, slices.Clone(keys))
	r.manyCtx = append(r.manyCtx, ctx)
	hold, fail := r.hold, r.fail
	r.mu.Unlock()
	time.Sleep(r.delay)
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if fail != nil {
		return nil, fail
	}
	out := map[string]string{}
	for _, k := range keys {
		if !r.lack[k] {
			out[k] = "many:" + k
		}
	}
	return out, nil
}

func (r *recorder) one(_ context.Context, key string) (string, error) {
	time.Sleep(r.delay)
	r.mu.Lock()
	r.ones = append(r.ones, key)
	r.mu.Unlock()
	return "one:" + key, nil
}

func (r *recorder) batcher(cfg Config[string, string]) *Batcher[string, string] {
	cfg.Many, cfg.One = r.many, r.one
	return New(cfg)
}

// getAll calls Get for every key at once and returns the values by key.
func getAll(t *testing.T, b *Batcher[string, string], keys []string) map[string]string {
	t.Helper()
	var mu sync.Mutex
	got := map[string]string{}
	var wg sync.WaitGroup
	for _, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := b.Get(context.Background(), k)
			if err != nil {
				t.Errorf("Get(%s): %v", k, err)
			}
			mu.Lock()
			got[k] = v
			mu.Unlock()
		}()
	}
	wg.Wait()
	return got
}

func keysN(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("k%03d", i)
	}
	return out
}

func TestConcurrentGetsAreOneRequest(t *testing.T) {
	r := &recorder{}
	b := r.batcher(Config[string, string]{Window: 20 * time.Millisecond, MaxWait: time.Second})
	keys := keysN(10)
	got := getAll(t, b, keys)
	if len(r.batches) != 1 || len(r.batches[0]) != 10 || len(r.ones) != 0 {
		t.Fatalf("want one batch of 10 keys and no single read, got batches %v, single reads %v", r.batches, r.ones)
	}
	for _, k := range keys {
		if got[k] != "many:"+k {
			t.Errorf("Get(%s) = %q, want its own value from the batch", k, got[k])
		}
	}
}

func TestLoneGetIsTheSingleRead(t *testing.T) {
	r := &recorder{}
	b := r.batcher(Config[string, string]{Window: 2 * time.Millisecond})
	start := time.Now()
	v, err := b.Get(context.Background(), "a")
	took := time.Since(start)
	if err != nil || v != "one:a" {
		t.Fatalf("Get = %q, %v; want the single read's value", v, err)
	}
	if len(r.batches) != 0 || !slices.Equal(r.ones, []string{"a"}) {
		t.Fatalf("a lone key must be read alone: batches %v, single reads %v", r.batches, r.ones)
	}
	if took > 200*time.Millisecond {
		t.Errorf("a lone Get took %s; it waits only the window (2ms)", took)
	}
}

func TestSameKeyTwiceIsOneKey(t *testing.T) {
	r := &recorder{}
	b := r.batcher(Config[string, string]{Window: 20 * time.Millisecond, MaxWait: time.Second})
	got := getAll(t, b, []string{"a", "a", "b"})
	if len(r.batches) != 1 || !slices.Equal(r.batches[0], []string{"a", "b"}) && !slices.Equal(r.batches[0], []string{"b", "a"}) {
		t.Fatalf("want one batch [a b], got %v", r.batches)
	}
	if got["a"] != "many:a" || got["b"] != "many:b" {
		t.Fatalf("got %v", got)
	}
}

func TestBatchNeverHoldsMoreThanMaxKeys(t *testing.T) {
	r := &recorder{}
	b := r.batcher(Config[string, string]{Window: 50 * time.Millisecond, MaxWait: time.Second, MaxKeys: 100})
	getAll(t, b, keysN(250))
	total := 0
	for _, k := range r.batches {
		if len(k) > 100 {
			t.Errorf("a batch of %d keys; MaxKeys is 100", len(k))
		}
		total += len(k)
	}
	if total+len(r.ones) != 250 || len(r.batches) < 3 {
		t.Fatalf("250 keys: want at least 3 batches covering all, got %d batches (%d keys) and %d single reads", len(r.batches), total, len(r.ones))
	}
}

func TestKeyTheAnswerLacksIsReadAlone(t *testing.T) {
	r := &recorder{lack: map[string]bool{"k002": true}}
	b := r.batcher(Config[string, string]{Window: 20 * time.Millisecond, MaxWait: time.Second})
	got := getAll(t, b, keysN(5))
	if !slices.Equal(r.ones, []string{"k002"}) {
		t.Fatalf("only the lacking key must be read alone, got single reads %v", r.ones)
	}
	if got["k002"] != "one:k002" || got["k001"] != "many:k001" {
		t.Fatalf("got %v", got)
	}
}

func TestFailedBatchIsSplitIntoSingleReads(t *testing.T) {
	r := &recorder{fail: errors.New("400 URL too long")}
	b := r.batcher(Config[string, string]{Window: 20 * time.Millisecond, MaxWait: time.Second})
	got := getAll(t, b, keysN(4))
	slices.Sort(r.ones)
	if len(r.batches) != 1 || !slices.Equal(r.ones, keysN(4)) {
		t.Fatalf("a failed batch must be read key by key: batches %v, single reads %v", r.batches, r.ones)
	}
	for _, k := range keysN(4) {
		if got[k] != "one:"+k {
			t.Errorf("Get(%s) = %q, want the single read's value", k, got[k])
		}
	}
}

// A key that arrives while a batch is being answered is never served from
// that answer (its request may have left before the caller's write): it
// opens the next batch.
func TestKeyArrivingDuringRequestOpensNextBatch(t *testing.T) {
	r := &recorder{hold: make(chan struct{})}
	b := r.batcher(Config[string, string]{Window: 5 * time.Millisecond, MaxWait: 20 * time.Millisecond})
	var first sync.WaitGroup
	for _, k := range []string{"a", "b"} {
		first.Add(1)
		go func() { defer first.Done(); _, _ = b.Get(context.Background(), k) }()
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		r.mu.Lock()
		n := len(r.batches)
		r.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first batch was never sent")
		}
		time.Sleep(time.Millisecond)
	}
	late := make(chan string, 2)
	for _, k := range []string{"a", "c"} {
		go func() {
			v, _ := b.Get(context.Background(), k)
			late <- k + "=" + v
		}()
	}
	time.Sleep(50 * time.Millisecond) // the late batch is sent and waits on hold as well
	close(r.hold)
	first.Wait()
	got := []string{<-late, <-late}
	slices.Sort(got)
	if len(r.batches) != 2 || !slices.Contains(r.batches[1], "a") || !slices.Contains(r.batches[1], "c") {
		t.Fatalf("the late keys must make a batch of their own, got batches %v", r.batches)
	}
	if !slices.Equal(got, []string{"a=many:a", "c=many:c"}) {
		t.Fatalf("late values %v", got)
	}
}

func TestCancelledCallerStopsWaiting(t *testing.T) {
	r := &recorder{hold: make(chan struct{})}
	defer close(r.hold)
	b := r.batcher(Config[string, string]{Window: time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 2)
	for _, k := range []string{"a", "b"} {
		go func() { _, err := b.Get(ctx, k); errs <- err }()
	}
	time.Sleep(30 * time.Millisecond)
	cancel()
	for range 2 {
		select {
		case err := <-errs:
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("want context.Canceled, got %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a cancelled caller kept waiting for the batch")
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.manyCtx) != 1 {
		t.Fatalf("want one batch, got %d", len(r.manyCtx))
	}
	select {
	case <-r.manyCtx[0].Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the coalesced request was not cancelled when every caller had gone")
	}
}

// A batch stays open while keys keep arriving within Window, up to MaxWait.
func TestWindowExtendsUpToMaxWait(t *testing.T) {
	r := &recorder{}
	b := r.batcher(Config[string, string]{Window: 200 * time.Millisecond, MaxWait: 5 * time.Second})
	var wg sync.WaitGroup
	var n atomic.Int32
	for i := range 5 {
		wg.Add(1)
		go func() { defer wg.Done(); _, _ = b.Get(context.Background(), fmt.Sprint(i)); n.Add(1) }()
		time.Sleep(20 * time.Millisecond) // well within the window each time
	}
	wg.Wait()
	if len(r.batches) != 1 || len(r.batches[0]) != 5 {
		t.Fatalf("keys 20ms apart with a 200ms window: want one batch of 5, got %v (single reads %v)", r.batches, r.ones)
	}
}

// An expected caller keeps the batch open past the window until it joins
// or is done; once done, the batch goes at once.
func TestExpectedCallerKeepsTheBatchOpen(t *testing.T) {
	r := &recorder{}
	b := r.batcher(Config[string, string]{Window: 2 * time.Millisecond, MaxWait: 5 * time.Second})
	doneB := b.Expect() // b's write is in flight
	doneC := b.Expect() // so is c's, which will fail and never read
	res := make(chan string, 2)
	go func() { v, _ := b.Get(context.Background(), "a"); res <- v }()
	time.Sleep(40 * time.Millisecond) // 20 windows: a waits for b
	go func() { doneB(); v, _ := b.Get(context.Background(), "b"); res <- v }()
	time.Sleep(40 * time.Millisecond)
	select {
	case v := <-res:
		t.Fatalf("the batch went (%s) while c was still expected", v)
	default:
	}
	start := time.Now()
	doneC()
	got := []string{<-res, <-res}
	if time.Since(start) > time.Second {
		t.Errorf("the batch waited %s after the last expected caller was done", time.Since(start))
	}
	slices.Sort(got)
	if len(r.batches) != 1 || !slices.Equal(got, []string{"many:a", "many:b"}) {
		t.Fatalf("want a and b in one batch, got batches %v, values %v", r.batches, got)
	}
}

// MaxWait bounds the wait for an expected caller that never comes.
func TestExpectationBoundedByMaxWait(t *testing.T) {
	r := &recorder{}
	b := r.batcher(Config[string, string]{Window: time.Millisecond, MaxWait: 30 * time.Millisecond})
	defer b.Expect()()
	start := time.Now()
	if _, err := b.Get(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < 30*time.Millisecond || took > 2*time.Second {
		t.Fatalf("a lone key with a caller expected forever waited %s, want MaxWait (30ms)", took)
	}
}

// Anticipated callers keep the batch open until they have joined (or their
// time is up); a joined key takes one anticipation.
func TestAnticipatedCallersJoinOneBatch(t *testing.T) {
	r := &recorder{}
	b := r.batcher(Config[string, string]{Window: 2 * time.Millisecond, MaxWait: 5 * time.Second})
	b.Anticipate(3, 2*time.Second)
	var wg sync.WaitGroup
	start := time.Now()
	for i, k := range []string{"a", "b", "c"} {
		wg.Add(1)
		go func() { defer wg.Done(); _, _ = b.Get(context.Background(), k) }()
		if i < 2 {
			time.Sleep(20 * time.Millisecond) // 10 windows apart
		}
	}
	wg.Wait()
	if len(r.batches) != 1 || len(r.batches[0]) != 3 {
		t.Fatalf("three anticipated keys 20ms apart: want one batch, got %v (single reads %v)", r.batches, r.ones)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("the batch waited %s: the last anticipated key had joined", took)
	}
	// Anticipations expire: a lone key later waits only the window (on a
	// batcher whose callers came alone so far: see TestBusyWindow).
	b = r.batcher(Config[string, string]{Window: 2 * time.Millisecond, MaxWait: 5 * time.Second})
	b.Anticipate(1, 20*time.Millisecond)
	time.Sleep(40 * time.Millisecond)
	if took := timedGet(b, "d"); took > 15*time.Millisecond {
		t.Errorf("an expired anticipation held a lone key for %s", took)
	}
}

// spacedGets gets 12 keys of b, every apart, and fails unless the
// requests they cost (after the before batches b answered first) are at
// most want.
func spacedGets(t *testing.T, r *recorder, b *Batcher[string, string], before int, every time.Duration, want int) {
	t.Helper()
	var wg sync.WaitGroup
	for _, k := range keysN(12) {
		wg.Add(1)
		go func() { defer wg.Done(); _, _ = b.Get(context.Background(), k) }()
		time.Sleep(every)
	}
	wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := len(r.batches) - before + len(r.ones); n > want {
		t.Fatalf("12 keys %s apart: want at most %d requests, got batches %v and single reads %v", every, want, r.batches[before:], r.ones)
	}
}

// timedGet returns how long b.Get(key) took.
func timedGet(b *Batcher[string, string], key string) time.Duration {
	start := time.Now()
	_, _ = b.Get(context.Background(), key)
	return time.Since(start)
}

// Once callers come together (a batch held two keys), a batch waits
// BusyWindow for the next key instead of Window; a second after that, a
// lone key waits only Window again.
func TestBusyWindow(t *testing.T) {
	r := &recorder{}
	b := r.batcher(Config[string, string]{Window: 2 * time.Millisecond, BusyWindow: 150 * time.Millisecond, MaxWait: 2 * time.Second})
	if took := timedGet(b, "lone"); took > 100*time.Millisecond {
		t.Errorf("a lone key on a batcher whose callers came alone waited %s, want about Window (2ms)", took)
	}
	getAll(t, b, []string{"a", "b"}) // together
	var wg sync.WaitGroup
	// The first batch of a batcher turns busy as its second key joins.
	r2 := &recorder{}
	b2 := r2.batcher(Config[string, string]{Window: 20 * time.Millisecond, BusyWindow: 300 * time.Millisecond, MaxWait: 2 * time.Second})
	for i, k := range []string{"x", "y", "z"} {
		wg.Add(1)
		go func() { defer wg.Done(); _, _ = b2.Get(context.Background(), k) }()
		time.Sleep([]time.Duration{2 * time.Millisecond, 80 * time.Millisecond, 0}[i])
	}
	wg.Wait()
	if len(r2.batches) != 1 || len(r2.batches[0]) != 3 {
		t.Fatalf("x and y together, z 80ms later: want one batch, got %v (single reads %v)", r2.batches, r2.ones)
	}
	for i, k := range []string{"c", "d", "e"} {
		wg.Add(1)
		go func() { defer wg.Done(); _, _ = b.Get(context.Background(), k) }()
		if i < 2 {
			time.Sleep(30 * time.Millisecond) // 15 windows apart, well within BusyWindow
		}
	}
	wg.Wait()
	r.mu.Lock()
	last := r.batches[len(r.batches)-1]
	r.mu.Unlock()
	if !slices.Equal(last, []string{"c", "d", "e"}) {
		t.Fatalf("keys 30ms apart after a batch of two: want one batch [c d e], got batches %v (single reads %v)", r.batches, r.ones)
	}
	b.mu.Lock()
	b.together = time.Now().Add(-busyFor)
	b.mu.Unlock()
	if took := timedGet(b, "f"); took > 100*time.Millisecond {
		t.Errorf("a lone key a second after the last batch of several waited %s, want about Window", took)
	}
}

// While the callers come together, the busy windows stretch with the
// mean gap between keys: keys 50ms apart, more than twice BusyWindow,
// still meet once the batcher has seen a few. On a loaded machine
// Terraform's operations come 50 to 100 ms apart: the windows follow them
// to about ten times their value, so that keys 100 ms apart, five busy
// windows, still meet in batches of several.
func TestBusyWindowStretchesWithTheGaps(t *testing.T) {
	for _, tc := range []struct {
		every, maxWait time.Duration
		want           int
	}{{50 * time.Millisecond, 100 * time.Millisecond, 6}, {100 * time.Millisecond, 60 * time.Millisecond, 5}} {
		r := &recorder{}
		b := r.batcher(Config[string, string]{Window: time.Millisecond, BusyWindow: 20 * time.Millisecond, MaxWait: tc.maxWait})
		getAll(t, b, []string{"a", "b"})
		spacedGets(t, r, b, 1, tc.every, tc.want)
	}
}

// A batcher whose requests take as long as a busy window waits only
// Window, whatever is expected: the request in flight collects the next
// batch, and holding one open for a caller on its way would cost its
// callers more time than the request saved.
func TestSlowRequestsWaitOnlyTheWindow(t *testing.T) {
	r := &recorder{delay: 40 * time.Millisecond}
	b := r.batcher(Config[string, string]{Window: 2 * time.Millisecond, BusyWindow: 20 * time.Millisecond, MaxWait: 5 * time.Second})
	for range 4 {
		// The batcher learns how long its requests take, and that its
		// keys come close together (four at once, a request apart).
		getAll(t, b, []string{"a", "b", "c", "d"})
	}
	defer b.Expect()() // a caller on its way, never coming
	if took := timedGet(b, "e"); took > time.Second {
		t.Fatalf("a lone key of a batcher whose requests take 40ms, a caller expected: waited %s, want about Window + 40ms", took)
	}
}

// Requests that take longer than a busy window while the keys come further
// apart still (a loaded machine: everything is slow) are not slow: few
// keys would join the request in flight, and the batches wait for them.
func TestSlowRequestsOfSparseKeysStillWait(t *testing.T) {
	r := &recorder{delay: 30 * time.Millisecond}
	b := r.batcher(Config[string, string]{Window: time.Millisecond, BusyWindow: 20 * time.Millisecond, MaxWait: 60 * time.Millisecond})
	for range 3 {
		getAll(t, b, []string{"a", "b"}) // the batcher learns how long its requests take
	}
	spacedGets(t, r, b, 3, 60*time.Millisecond, 6)
}
