package emulator

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Bucket names in the bbolt file.
const (
	bucketAuthConfigs = "auth_configs"
	bucketAccounts    = "connected_accounts"
	bucketTriggers    = "trigger_instances"
	bucketSessions    = "sessions"
	bucketMeta        = "meta"
	// bucketDeletedTriggers holds tombstones of deleted trigger instances so
	// that later calls answer 409 (DELETE) or 410 (manage) instead of 404.
	bucketDeletedTriggers = "deleted_trigger_instances"
	// bucketWebhookSubs holds webhook subscriptions (at most one per project).
	bucketWebhookSubs = "webhook_subscriptions"
	// bucketMCPServers holds MCP servers with their per-user instances.
	bucketMCPServers = "mcp_servers"
)

// bucketCustomToolkits: project-registered custom (MCP) toolkits, keyed by
// customToolkitKey(project, slug).
const bucketCustomToolkits = "custom_toolkits"

var allBuckets = []string{bucketAuthConfigs, bucketAccounts, bucketTriggers, bucketSessions, bucketMeta, bucketDeletedTriggers, bucketCustomToolkits, bucketWebhookSubs, bucketMCPServers}

// deletedTrigger is the tombstone of a deleted trigger instance.
type deletedTrigger struct {
	Project   string `json:"project"`
	DeletedAt string `json:"deleted_at"`
}

// store keeps every object in memory and, when a data file is configured,
// writes each change through to bbolt in one fsync'd transaction before the
// change becomes visible (so an acknowledged write survives kill -9).
type store struct {
	mu          sync.RWMutex
	db          *bolt.DB
	authConfigs map[string]*AuthConfig
	accounts    map[string]*ConnectedAccount
	triggers    map[string]*TriggerInstance
	sessions    map[string]*Session
	// deletedTriggers: trigger instance id -> tombstone
	deletedTriggers map[string]*deletedTrigger
	webhookSubs     map[string]*WebhookSubscription
	// customToolkits is written under mu (in commit) and cmu; toolkit
	// lookups read it under cmu alone, so they work with or without mu held.
	customToolkits map[string]*CustomToolkit
	cmu            sync.RWMutex
	mcpServers     map[string]*MCPServer
	seq            int64
	lastStamp      time.Time

	// webhookEndpoints: inbound webhook endpoints (webhook_endpoints.go).
	webhookEndpoints map[string]*WebhookEndpoint
	// sessionConfigs: saved session configs (session_configs.go);
	// sessionConfigFeature: the projects whose session configs feature a
	// control route turned on or off.
	sessionConfigs       map[string]*SessionConfig
	sessionConfigFeature map[string]*sessionConfigFeature
}

// change is one put (val != nil) or delete (val == nil) in a bucket.
type change struct {
	bucket string
	id     string
	val    any
}

func put(bucket, id string, v any) change { return change{bucket: bucket, id: id, val: v} }
func del(bucket, id string) change        { return change{bucket: bucket, id: id} }

func openStore(path string) (*store, error) {
	st := &store{
		authConfigs:     map[string]*AuthConfig{},
		accounts:        map[string]*ConnectedAccount{},
		triggers:        map[string]*TriggerInstance{},
		sessions:        map[string]*Session{},
		deletedTriggers: map[string]*deletedTrigger{},
		webhookSubs:     map[string]*WebhookSubscription{},
		customToolkits:  map[string]*CustomToolkit{},
		mcpServers:      map[string]*MCPServer{},

		webhookEndpoints: map[string]*WebhookEndpoint{},

		sessionConfigs:       map[string]*SessionConfig{},
		sessionConfigFeature: map[string]*sessionConfigFeature{},
	}
	if path == "" {
		return st, nil
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 5 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("open data file %s: %w", path, err)
	}
	st.db = db
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists([]byte(b)); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		err = st.load()
	}
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("load data file %s: %w", path, err)
	}
	return st, nil
}

func (st *store) load() error {
	return st.db.View(func(tx *bolt.Tx) error {
		if err := loadBucket(tx, bucketAuthConfigs, st.authConfigs); err != nil {
			return err
		}
		if err := loadBucket(tx, bucketAccounts, st.accounts); err != nil {
			return err
		}
		if err := loadBucket(tx, bucketTriggers, st.triggers); err != nil {
			return err
		}
		if err := loadBucket(tx, bucketSessions, st.sessions); err != nil {
			return err
		}
		if err := loadBucket(tx, bucketDeletedTriggers, st.deletedTriggers); err != nil {
			return err
		}
		if err := loadBucket(tx, bucketWebhookSubs, st.webhookSubs); err != nil {
			return err
		}
		if err := loadBucket(tx, bucketCustomToolkits, st.customToolkits); err != nil {
			return err
		}
		if err := loadBucket(tx, bucketMCPServers, st.mcpServers); err != nil {
			return err
		}
		if err := loadBucket(tx, bucketSessionConfigs, st.sessionConfigs); err != nil {
			return err
		}
		if err := loadBucket(tx, bucketSessionConfigFeature, st.sessionConfigFeature); err != nil {
			return err
		}
		if err := loadBucket(tx, bucketWebhookEndpoints, st.webhookEndpoints); err != nil {
			return err
		}
		if v := tx.Bucket([]byte(bucketMeta)).Get([]byte("seq")); v != nil {
			if err := json.Unmarshal(v, &st.seq); err != nil {
				return err
			}
		}
		return nil
	})
}

func loadBucket[T any](tx *bolt.Tx, name string, into map[string]*T) error {
	return tx.Bucket([]byte(name)).ForEach(func(k, v []byte) error {
		obj := new(T)
		if err := json.Unmarshal(v, obj); err != nil {
			return fmt.Errorf("%s/%s: %w", name, k, err)
		}
		into[string(k)] = obj
		return nil
	})
}

func (st *store) close() error {
	if st.db == nil {
		return nil
	}
	return st.db.Close()
}

// nextSeq returns a new sequence number; callers hold st.mu for writing.
func (st *store) nextSeq() int64 {
	st.seq++
	return st.seq
}

// stamp returns a strictly increasing ISO-8601 timestamp (millisecond
// precision) so that updated_at / last_updated_at change on every write.
// Callers hold st.mu for writing.
func (st *store) stamp() string {
	now := time.Now().UTC().Truncate(time.Millisecond)
	if !now.After(st.lastStamp) {
		now = st.lastStamp.Add(time.Millisecond)
	}
	st.lastStamp = now
	return now.Format("2006-01-02T15:04:05.000Z")
}

// commit persists the changes in one transaction and then applies them to
// memory. Callers hold st.mu for writing and must pass fresh objects (never
// mutate an object that is already stored).
func (st *store) commit(changes ...change) error {
	if st.db != nil {
		err := st.db.Update(func(tx *bolt.Tx) error {
			for _, c := range changes {
				b := tx.Bucket([]byte(c.bucket))
				if c.val == nil {
					if err := b.Delete([]byte(c.id)); err != nil {
						return err
					}
					continue
				}
				data, err := json.Marshal(c.val)
				if err != nil {
					return err
				}
				if err := b.Put([]byte(c.id), data); err != nil {
					return err
				}
			}
			seq, _ := json.Marshal(st.seq)
			return tx.Bucket([]byte(bucketMeta)).Put([]byte("seq"), seq)
		})
		if err != nil {
			return fmt.Errorf("persist: %w", err)
		}
	}
	for _, c := range changes {
		switch c.bucket {
		case bucketAuthConfigs:
			applyChange(st.authConfigs, c)
		case bucketAccounts:
			applyChange(st.accounts, c)
		case bucketTriggers:
			applyChange(st.triggers, c)
		case bucketSessions:
			applyChange(st.sessions, c)
		case bucketDeletedTriggers:
			applyChange(st.deletedTriggers, c)
		case bucketWebhookSubs:
			applyChange(st.webhookSubs, c)
		case bucketCustomToolkits:
			st.cmu.Lock()
			applyChange(st.customToolkits, c)
			st.cmu.Unlock()
		case bucketMCPServers:
			applyChange(st.mcpServers, c)
		case bucketWebhookEndpoints:
			applyChange(st.webhookEndpoints, c)
		case bucketSessionConfigs:
			applyChange(st.sessionConfigs, c)
		case bucketSessionConfigFeature:
			applyChange(st.sessionConfigFeature, c)
		}
	}
	return nil
}

// applyChange applies c to the in-memory map m of its bucket: stores c.val
// (of m's type) under c.id, or deletes c.id when c.val is nil.
func applyChange[T any](m map[string]T, c change) {
	if c.val == nil {
		delete(m, c.id)
		return
	}
	v, ok := c.val.(T)
	if !ok {
		panic(fmt.Sprintf("emulator: a change of %s holds a %T, not a %T", c.bucket, c.val, v)) // a bug of the caller
	}
	m[c.id] = v
}

func cloneMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
