package emulator

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

const benchClients = 50

// loopbackBench drives handler over real loopback TCP with 50 concurrent
// clients and reports requests per second.
func loopbackBench(b *testing.B, h http.Handler, newReq func() *http.Request, wantStatus int) {
	ts := httptest.NewServer(h)
	defer ts.Close()
	tr := &http.Transport{MaxIdleConns: benchClients * 2, MaxIdleConnsPerHost: benchClients * 2, MaxConnsPerHost: benchClients * 2}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	base := ts.URL
	procs := runtime.GOMAXPROCS(0)
	b.SetParallelism((benchClients + procs - 1) / procs)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := newReq()
			u := req.URL
			req.URL, _ = req.URL.Parse(base + u.RequestURI())
			req.Host = ""
			res, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != wantStatus {
				b.Errorf("status %d", res.StatusCode)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
}

func benchServer(b *testing.B, dataPath string) (*Server, string) {
	srv, err := New(Options{DataPath: dataPath})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = srv.Close() })
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	body := `{"toolkit":{"slug":"stripe"},"auth_config":{"type":"use_custom_auth","authScheme":"API_KEY"}}`
	req, _ := http.NewRequestWithContext(context.Background(), "POST", ts.URL+v+"/auth_configs", strings.NewReader(body))
	req.Header.Set("x-api-key", testKey)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	i := bytes.Index(data, []byte(`"id":"`))
	if res.StatusCode != 201 || i < 0 {
		b.Fatalf("create auth config: %d %s", res.StatusCode, data)
	}
	id := string(data[i+6:])
	return srv, id[:strings.IndexByte(id, '"')]
}

func getReq(path string) func() *http.Request {
	return func() *http.Request {
		req, _ := http.NewRequestWithContext(context.Background(), "GET", "http://x"+path, nil)
		req.Header.Set("x-api-key", testKey)
		return req
	}
}

func postAccountReq(acID string) func() *http.Request {
	body := []byte(`{"auth_config":{"id":"` + acID + `"},"connection":{"user_id":"bench","state":{"authScheme":"API_KEY","val":{"status":"ACTIVE","api_key":"sk_bench"}}}}`)
	return func() *http.Request {
		req, _ := http.NewRequestWithContext(context.Background(), "POST", "http://x"+v+"/connected_accounts", bytes.NewReader(body))
		req.Header.Set("x-api-key", testKey)
		req.Header.Set("Content-Type", "application/json")
		return req
	}
}

// BenchmarkLoopback compares a bare net/http handler with the emulator's GET
// and POST routes, 50 concurrent clients each, in one run.
func BenchmarkLoopback(b *testing.B) {
	b.Run("bare-net-http-GET", func(b *testing.B) {
		bare := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"ok":true}`))
		})
		loopbackBench(b, bare, getReq("/ping"), 200)
	})
	b.Run("emulator-GET-auth-config", func(b *testing.B) {
		srv, id := benchServer(b, "")
		loopbackBench(b, srv.Handler(), getReq(v+"/auth_configs/"+id), 200)
	})
	b.Run("emulator-GET-toolkit", func(b *testing.B) {
		srv, _ := benchServer(b, "")
		loopbackBench(b, srv.Handler(), getReq(v+"/toolkits/github"), 200)
	})
	b.Run("emulator-POST-connected-account-memory", func(b *testing.B) {
		srv, id := benchServer(b, "")
		loopbackBench(b, srv.Handler(), postAccountReq(id), 201)
	})
	b.Run("emulator-POST-connected-account-bbolt", func(b *testing.B) {
		srv, id := benchServer(b, filepath.Join(b.TempDir(), "bench.db"))
		loopbackBench(b, srv.Handler(), postAccountReq(id), 201)
	})
}

func vmRSSMB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			f := strings.Fields(line)
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkFootprint10kAccounts reports resident memory, Go heap and
// data-file size of an emulator holding 10,000 connected accounts (stored in
// batches of 500 per transaction, same encoding as the API writes). heap-MB
// is the live Go heap the server adds; rss-MB is the whole test process.
func BenchmarkFootprint10kAccounts(b *testing.B) {
	for i := 0; i < b.N; i++ {
		path := filepath.Join(b.TempDir(), "footprint.db")
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		srv, err := New(Options{DataPath: path})
		if err != nil {
			b.Fatal(err)
		}
		st := srv.st
		st.mu.Lock()
		ac := &AuthConfig{ID: newID("ac"), UUID: newUUID(), Project: "default", Seq: st.nextSeq(), Type: "custom",
			Name: "Stripe Auth Config", ToolkitSlug: "stripe", AuthScheme: "API_KEY", Status: "ENABLED", Credentials: map[string]any{}}
		if err := st.commit(put(bucketAuthConfigs, ac.ID, ac)); err != nil {
			b.Fatal(err)
		}
		var batch []change
		for n := 0; n < 10000; n++ {
			now := st.stamp()
			a := &ConnectedAccount{
				ID: newID("ca"), UUID: newUUID(), Project: "default", Seq: st.nextSeq(), UserID: fmt.Sprintf("user-%05d", n),
				ToolkitSlug: ac.ToolkitSlug, AuthConfigID: ac.ID, AuthConfigUUID: ac.UUID, AuthScheme: ac.AuthScheme,
				Status: StatusActive, Val: map[string]any{"api_key": "sk_live_" + randString(24)}, CreatedAt: now, UpdatedAt: now,
			}
			batch = append(batch, put(bucketAccounts, a.ID, a))
			if len(batch) == 500 {
				if err := st.commit(batch...); err != nil {
					b.Fatal(err)
				}
				batch = nil
			}
		}
		st.mu.Unlock()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		fi, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		heap := float64(ms.HeapAlloc-min(ms.HeapAlloc, base.HeapAlloc)) / (1 << 20)
		// a list over all of them still answers
		ts := httptest.NewServer(srv.Handler())
		req, _ := http.NewRequestWithContext(context.Background(), "GET", ts.URL+v+"/connected_accounts?limit=1000&user_ids=user-09999", nil)
		req.Header.Set("x-api-key", testKey)
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != 200 {
			b.Fatalf("list: %v", err)
		}
		res.Body.Close()
		ts.Close()
		b.ReportMetric(vmRSSMB(), "rss-MB")
		b.ReportMetric(heap, "heap-MB")
		b.ReportMetric(float64(fi.Size())/(1<<20), "datafile-MB")
		if err := srv.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
