package parity

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// The check's transport sends GET and refuses every other method before
// anything reaches the network.
func TestReadOnlyTransportRefusesEverythingButGet(t *testing.T) {
	var served atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer ts.Close()
	c := readOnlyClient(nil)
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodHead, http.MethodOptions, "PURGE"} {
		req, err := http.NewRequestWithContext(context.Background(), m, ts.URL+"/api/v3.1/auth_configs", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Do(req)
		if resp != nil {
			_ = resp.Body.Close()
		}
		var refused *WriteRefusedError
		if !errors.As(err, &refused) || refused.Method != m {
			t.Errorf("%s: err = %v, want a WriteRefusedError", m, err)
		}
	}
	if n := served.Load(); n != 0 {
		t.Fatalf("%d refused request(s) reached the server", n)
	}
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, ts.URL+"/api/v3.1/auth_configs", nil)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("GET: %v", err)
	}
	_ = resp.Body.Close()
	if served.Load() != 1 {
		t.Fatalf("the GET did not reach the server")
	}
}

// Every side the check reads goes through that transport: a side's client
// refuses a write too.
func TestSidesAreReadOnly(t *testing.T) {
	s, err := newSide("service", "http://127.0.0.1:1", "k", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodDelete, s.base+"/auth_configs/ac_x", nil)
	resp, err := s.http.Do(req)
	if resp != nil {
		_ = resp.Body.Close()
	}
	var refused *WriteRefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("DELETE through a side's client: %v, want a WriteRefusedError", err)
	}
}
