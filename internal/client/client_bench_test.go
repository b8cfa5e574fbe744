package client

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

func benchClient(b *testing.B, h http.Handler) *Client {
	b.Helper()
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	c, err := New(Config{BaseURL: srv.URL, APIKey: testAPIKey, UserAgent: "terraform-provider-service/bench"})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkGet measures one GET round trip (encode, send, decode) against a
// loopback server.
func BenchmarkGet(b *testing.B) {
	body := []byte(authConfigJSON)
	c := benchClient(b, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := c.GetAuthConfig(ctx, "ac_1"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPost measures one POST round trip with a JSON body.
func BenchmarkPost(b *testing.B) {
	reply := []byte(`{"toolkit":{"slug":"linear"},"auth_config":{"id":"ac_2","auth_scheme":"OAUTH2","is_composio_managed":false}}`)
	c := benchClient(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write(reply)
	}))
	ctx := context.Background()
	req := CreateAuthConfigRequest{ToolkitSlug: "linear", Type: AuthConfigTypeCustom, AuthScheme: "OAUTH2", Credentials: map[string]any{"client_id": "a", "client_secret": "b"}}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := c.CreateAuthConfig(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPaginate10k pages through 10,000 connected accounts in pages of 100.
func BenchmarkPaginate10k(b *testing.B) {
	const total, size = 10000, 100
	pages := make([][]byte, total/size)
	for p := range pages {
		items := make([]map[string]any, size)
		for i := range items {
			n := p*size + i
			items[i] = map[string]any{"id": fmt.Sprintf("ca_%05d", n), "user_id": "u", "status": "ACTIVE", "toolkit": map[string]any{"slug": "github"}, "auth_config": map[string]any{"id": "ac_1"}}
		}
		var next any
		if p+1 < len(pages) {
			next = strconv.Itoa(p + 1)
		}
		pages[p], _ = json.Marshal(map[string]any{"items": items, "next_cursor": next, "total_pages": len(pages), "current_page": p + 1, "total_items": total})
	}
	c := benchClient(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(pages[p])
	}))
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		n := 0
		for _, err := range c.ConnectedAccountsIter(ctx, ConnectedAccountListParams{Limit: size}) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != total {
			b.Fatalf("got %d items", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/total, "ns/item")
}

// BenchmarkLoneReadBack compares a lone create's read-back by GET with the
// same read through the coalesced path (ConnectedAccountAfterWrite, which
// waits DefaultCoalesceWindow for company and then sends the same GET),
// against a server answering after 50 ms (the end-to-end benchmark's
// latency) and at once.
func BenchmarkLoneReadBack(b *testing.B) {
	body, _ := json.Marshal(fakeAccount("ca_1", "u1", "ac_1"))
	for _, delay := range []time.Duration{0, 50 * time.Millisecond} {
		c := benchClient(b, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			time.Sleep(delay)
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
		}))
		ctx := context.Background()
		for _, v := range []struct {
			name string
			read func(context.Context, string) (*ConnectedAccount, error)
		}{{"get", c.GetConnectedAccount}, {"coalesced", accountReadBack(c, "ac_1")}} {
			b.Run(fmt.Sprintf("%s/latency=%s", v.name, delay), func(b *testing.B) {
				for b.Loop() {
					if _, err := v.read(ctx, "ca_1"); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
