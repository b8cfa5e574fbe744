// Package lookup holds what the provider reads once per run and shares
// between its resources and data sources: the catalog and referenced
// objects of plan-time checks (ObjectCache).
package lookup

import (
	"context"
	"strings"
	"sync"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// ObjectCache is the per-provider-process cache of the objects that
// plan-time checks read: toolkits and trigger types (per slug and toolkit
// version), a toolkit's list of trigger types, the auth configs and
// connected accounts other resources refer to (per id), and a user's
// connected accounts (per user id). Each is fetched at most once per
// provider process, whatever the number of resources referring to it (see
// "Request budget" in the provider's provider_data.go). It is safe for
// concurrent use: concurrent callers for the same key share one request.
// Successful results and NotFound errors are cached; other errors are not,
// so a later call retries.
//
// Terraform starts a new provider process for each graph walk (the plan of
// `terraform plan`, the final plan and apply of `terraform apply`), so a
// cached object is at most as old as the current walk.
type ObjectCache struct {
	versions client.ToolkitVersions
	fetch    Fetchers

	mu                sync.Mutex
	toolkits          map[string]*cacheEntry[client.Toolkit]
	triggerTypes      map[string]*cacheEntry[client.TriggerType]
	tools             map[string]*cacheEntry[[]client.Tool]
	toolkitTriggers   map[string]*cacheEntry[[]client.TriggerType]
	authConfigs       map[string]*cacheEntry[client.AuthConfig]
	connectedAccounts map[string]*cacheEntry[client.ConnectedAccount]
	userAccounts      map[string]*cacheEntry[[]client.ConnectedAccount]
	mcpServers        map[string]*cacheEntry[[]client.MCPServer]
}

type cacheEntry[T any] struct {
	done chan struct{}
	val  *T
	err  error
}

// Fetchers are the reads of a ObjectCache: the client's (NewObjectCache), or
// a test's (NewObjectCacheWith).
type Fetchers struct {
	Toolkit          func(ctx context.Context, slug, version string) (*client.Toolkit, error)
	TriggerType      func(ctx context.Context, slug string, versions *client.ToolkitVersions) (*client.TriggerType, error)
	Tools            func(ctx context.Context, p client.ToolListParams) ([]client.Tool, error)
	TriggerTypes     func(ctx context.Context, p client.TriggerTypeListParams) ([]client.TriggerType, error)
	AuthConfig       func(ctx context.Context, id string) (*client.AuthConfig, error)
	ConnectedAccount func(ctx context.Context, id string) (*client.ConnectedAccount, error)
	Accounts         func(ctx context.Context, p client.ConnectedAccountListParams) ([]client.ConnectedAccount, error)
	MCPServers       func(ctx context.Context, p client.MCPServerListParams) ([]client.MCPServer, error)
}

// NewObjectCache returns a cache reading through c at the given versions.
func NewObjectCache(c *client.Client, versions client.ToolkitVersions) *ObjectCache {
	return NewObjectCacheWith(versions, Fetchers{
		Toolkit:          c.GetToolkit,
		TriggerType:      c.GetTriggerType,
		Tools:            c.ListTools,
		TriggerTypes:     c.ListTriggerTypes,
		AuthConfig:       c.GetAuthConfig,
		ConnectedAccount: c.GetConnectedAccount,
		Accounts:         c.ListConnectedAccounts,
		MCPServers:       c.ListMCPServers,
	})
}

// NewObjectCacheWith returns a cache reading through fetch at the given
// versions.
func NewObjectCacheWith(versions client.ToolkitVersions, fetch Fetchers) *ObjectCache {
	sc := newObjectCache(versions)
	sc.fetch = fetch
	return sc
}

func newObjectCache(versions client.ToolkitVersions) *ObjectCache {
	return &ObjectCache{
		versions:          versions,
		toolkits:          map[string]*cacheEntry[client.Toolkit]{},
		triggerTypes:      map[string]*cacheEntry[client.TriggerType]{},
		tools:             map[string]*cacheEntry[[]client.Tool]{},
		toolkitTriggers:   map[string]*cacheEntry[[]client.TriggerType]{},
		authConfigs:       map[string]*cacheEntry[client.AuthConfig]{},
		connectedAccounts: map[string]*cacheEntry[client.ConnectedAccount]{},
		userAccounts:      map[string]*cacheEntry[[]client.ConnectedAccount]{},
		mcpServers:        map[string]*cacheEntry[[]client.MCPServer]{},
	}
}

// Toolkit returns the toolkit slug at the provider's configured version for
// it. The error is the client's (use client.IsNotFound to detect an unknown
// slug). Callers must not modify the returned value.
func (c *ObjectCache) Toolkit(ctx context.Context, slug string) (*client.Toolkit, error) {
	slug = strings.ToLower(strings.TrimSpace(slug))
	version := c.versions.Resolve(slug)
	wire := version
	if wire == client.VersionLatest {
		wire = "" // the service's default is its latest version
	}
	return once(ctx, &c.mu, c.toolkits, slug+"@"+version, func(ctx context.Context) (*client.Toolkit, error) {
		return c.fetch.Toolkit(ctx, slug, wire)
	})
}

// TriggerType returns the trigger type slug read at the provider's configured
// toolkit versions (the service picks the version for the trigger's toolkit).
// Callers must not modify the returned value.
func (c *ObjectCache) TriggerType(ctx context.Context, slug string) (*client.TriggerType, error) {
	slug = strings.TrimSpace(slug)
	versions := c.versions
	var vp *client.ToolkitVersions
	if versions.Global != "" || len(versions.PerToolkit) > 0 {
		vp = &versions
	}
	return once(ctx, &c.mu, c.triggerTypes, strings.ToUpper(slug), func(ctx context.Context) (*client.TriggerType, error) {
		return c.fetch.TriggerType(ctx, slug, vp)
	})
}

// ToolkitTriggerTypes returns the trigger types of toolkit slug at the
// provider's configured version for it (every page of GET
// /triggers_types?toolkit_slugs=...), fetched at most once per provider
// process. Callers must not modify the returned slice.
func (c *ObjectCache) ToolkitTriggerTypes(ctx context.Context, slug string) ([]client.TriggerType, error) {
	return onceToolkitList(ctx, c, c.toolkitTriggers, slug, func(ctx context.Context, slug string, pin *client.ToolkitVersions) ([]client.TriggerType, error) {
		if c.fetch.TriggerTypes == nil {
			return []client.TriggerType{}, nil
		}
		return c.fetch.TriggerTypes(ctx, client.TriggerTypeListParams{ToolkitSlugs: []string{slug}, Limit: 1000, Versions: pin})
	})
}

// onceToolkitList is once for one toolkit's list (its tools, its trigger
// types) at the provider's version for that toolkit, keyed slug@version.
// fetch gets the lower-cased slug and the version pin to send (nil for the
// service's latest).
func onceToolkitList[T any](ctx context.Context, c *ObjectCache, m map[string]*cacheEntry[[]T], slug string,
	fetch func(ctx context.Context, slug string, pin *client.ToolkitVersions) ([]T, error)) ([]T, error) {
	slug = strings.ToLower(strings.TrimSpace(slug))
	version := c.versions.Resolve(slug)
	return onceList(ctx, &c.mu, m, slug+"@"+version, func(ctx context.Context) ([]T, error) {
		var pin *client.ToolkitVersions
		if version != client.VersionLatest {
			pin = &client.ToolkitVersions{PerToolkit: map[string]string{slug: version}}
		}
		return fetch(ctx, slug, pin)
	})
}

// AuthConfig returns the auth config id, read once per provider process. Use
// it for plan-time checks of a referenced auth config (not in the auth config
// resource's own Read, which must see the service's current state). Callers
// must not modify the returned value.
func (c *ObjectCache) AuthConfig(ctx context.Context, id string) (*client.AuthConfig, error) {
	return once(ctx, &c.mu, c.authConfigs, id, func(ctx context.Context) (*client.AuthConfig, error) {
		return c.fetch.AuthConfig(ctx, id)
	})
}

// ConnectedAccount returns the connected account id, read once per provider
// process. Use it for checks of a referenced account (not in the connected
// account resource's own Read). Callers must not modify the returned value.
func (c *ObjectCache) ConnectedAccount(ctx context.Context, id string) (*client.ConnectedAccount, error) {
	return once(ctx, &c.mu, c.connectedAccounts, id, func(ctx context.Context) (*client.ConnectedAccount, error) {
		return c.fetch.ConnectedAccount(ctx, id)
	})
}

// UserAccounts returns every connected account of the user userID (all
// pages of GET /connected_accounts?user_ids=...), listed once per provider
// process, for plan-time checks across a user's accounts (alias
// uniqueness). Callers must not modify the returned slice.
func (c *ObjectCache) UserAccounts(ctx context.Context, userID string) ([]client.ConnectedAccount, error) {
	return onceList(ctx, &c.mu, c.userAccounts, userID, func(ctx context.Context) ([]client.ConnectedAccount, error) {
		return c.fetch.Accounts(ctx, client.ConnectedAccountListParams{UserIDs: []string{userID}})
	})
}

// onceList is once for a cached list.
func onceList[T any](ctx context.Context, mu *sync.Mutex, m map[string]*cacheEntry[[]T], key string, fetch func(context.Context) ([]T, error)) ([]T, error) {
	list, err := once(ctx, mu, m, key, func(ctx context.Context) (*[]T, error) {
		l, err := fetch(ctx)
		if err != nil {
			return nil, err
		}
		return &l, nil
	})
	if err != nil {
		return nil, err
	}
	return *list, nil
}

// once implements single-flight caching over m, guarded by mu.
func once[T any](ctx context.Context, mu *sync.Mutex, m map[string]*cacheEntry[T], key string, fetch func(context.Context) (*T, error)) (*T, error) {
	mu.Lock()
	e, ok := m[key]
	if !ok {
		e = &cacheEntry[T]{done: make(chan struct{})}
		m[key] = e
		mu.Unlock()

		e.val, e.err = fetch(ctx)
		if e.err != nil && !client.IsNotFound(e.err) {
			// Do not remember transient failures (or this caller's cancelled context).
			mu.Lock()
			if m[key] == e {
				delete(m, key)
			}
			mu.Unlock()
		}
		close(e.done)
		return e.val, e.err
	}
	mu.Unlock()

	select {
	case <-e.done:
		return e.val, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
