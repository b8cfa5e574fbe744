package lookup

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

func TestObjectCacheFetchesOnce(t *testing.T) {
	t.Parallel()
	sc := newObjectCache(client.ToolkitVersions{PerToolkit: map[string]string{"github": "20250901_00"}})
	var calls atomic.Int32
	var gotVersion atomic.Value
	release := make(chan struct{})
	sc.fetch.Toolkit = func(_ context.Context, slug, version string) (*client.Toolkit, error) {
		calls.Add(1)
		gotVersion.Store(version)
		<-release
		return &client.Toolkit{Slug: slug}, nil
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tk, err := sc.Toolkit(context.Background(), "GitHub")
			if err != nil || tk.Slug != "github" {
				t.Errorf("got %v, %v", tk, err)
			}
		}()
	}
	time.Sleep(20 * time.Millisecond)
	close(release)
	wg.Wait()
	if _, err := sc.Toolkit(context.Background(), "github"); err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("fetched %d times, want 1", n)
	}
	if v := gotVersion.Load(); v != "20250901_00" {
		t.Fatalf("fetched at version %v", v)
	}
}

func TestObjectCacheLatestSendsNoVersion(t *testing.T) {
	t.Parallel()
	sc := newObjectCache(client.ToolkitVersions{})
	sc.fetch.Toolkit = func(_ context.Context, _, version string) (*client.Toolkit, error) {
		if version != "" {
			t.Errorf("version %q sent for latest", version)
		}
		return &client.Toolkit{}, nil
	}
	if _, err := sc.Toolkit(context.Background(), "slack"); err != nil {
		t.Fatal(err)
	}
}

func TestObjectCacheErrors(t *testing.T) {
	t.Parallel()
	sc := newObjectCache(client.ToolkitVersions{Global: "20251015_00"})
	var calls atomic.Int32
	sc.fetch.TriggerType = func(_ context.Context, slug string, v *client.ToolkitVersions) (*client.TriggerType, error) {
		calls.Add(1)
		if v == nil || v.Global != "20251015_00" {
			t.Errorf("versions not passed: %+v", v)
		}
		switch slug {
		case "NOPE":
			return nil, &client.APIError{StatusCode: http.StatusNotFound, Message: "not found"}
		case "FLAKY":
			return nil, errors.New("connection reset")
		}
		return &client.TriggerType{Slug: slug}, nil
	}
	ctx := context.Background()
	for range 3 {
		if _, err := sc.TriggerType(ctx, "NOPE"); !client.IsNotFound(err) {
			t.Fatalf("want NotFound, got %v", err)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("NotFound must be cached: %d calls", n)
	}
	for range 3 {
		if _, err := sc.TriggerType(ctx, "FLAKY"); err == nil {
			t.Fatal("want an error")
		}
	}
	if n := calls.Load(); n != 4 {
		t.Fatalf("transient errors must not be cached: %d calls", n)
	}
	tt, err := sc.TriggerType(ctx, "GITHUB_COMMIT_EVENT")
	if err != nil || tt.Slug != "GITHUB_COMMIT_EVENT" {
		t.Fatalf("got %v %v", tt, err)
	}
}

func TestObjectCacheWaiterHonoursContext(t *testing.T) {
	t.Parallel()
	sc := newObjectCache(client.ToolkitVersions{})
	release := make(chan struct{})
	started := make(chan struct{})
	sc.fetch.Toolkit = func(_ context.Context, _, _ string) (*client.Toolkit, error) {
		close(started)
		<-release
		return &client.Toolkit{}, nil
	}
	go func() { _, _ = sc.Toolkit(context.Background(), "x") }()
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := sc.Toolkit(ctx, "x"); !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	close(release)
}

// TestObjectCacheReferencedObjects: auth configs and connected accounts are
// read once per id (NotFound included), and separately for distinct ids.
func TestObjectCacheReferencedObjects(t *testing.T) {
	t.Parallel()
	sc := newObjectCache(client.ToolkitVersions{})
	acCalls, caCalls := map[string]int{}, map[string]int{}
	sc.fetch.AuthConfig = func(_ context.Context, id string) (*client.AuthConfig, error) {
		acCalls[id]++
		if id == "ac_gone" {
			return nil, &client.APIError{StatusCode: http.StatusNotFound}
		}
		return &client.AuthConfig{ID: id}, nil
	}
	sc.fetch.ConnectedAccount = func(_ context.Context, id string) (*client.ConnectedAccount, error) {
		caCalls[id]++
		return &client.ConnectedAccount{ID: id}, nil
	}
	ctx := context.Background()
	for range 3 {
		for _, id := range []string{"ac_1", "ac_2"} {
			if ac, err := sc.AuthConfig(ctx, id); err != nil || ac.ID != id {
				t.Fatalf("AuthConfig(%s) = %v, %v", id, ac, err)
			}
		}
		if _, err := sc.AuthConfig(ctx, "ac_gone"); !client.IsNotFound(err) {
			t.Fatalf("AuthConfig(ac_gone) error = %v, want NotFound", err)
		}
		if ca, err := sc.ConnectedAccount(ctx, "ca_1"); err != nil || ca.ID != "ca_1" {
			t.Fatalf("ConnectedAccount(ca_1) = %v, %v", ca, err)
		}
	}
	if want := map[string]int{"ac_1": 1, "ac_2": 1, "ac_gone": 1}; !maps.Equal(acCalls, want) {
		t.Errorf("auth config reads %v, want %v", acCalls, want)
	}
	if want := map[string]int{"ca_1": 1}; !maps.Equal(caCalls, want) {
		t.Errorf("connected account reads %v, want %v", caCalls, want)
	}
}
