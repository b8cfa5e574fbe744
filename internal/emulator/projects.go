// Organizations' projects (org.owner.project.*): first-class, persisted
// objects with their API keys. The projects of Options.APIKeys ("configured"
// projects) get a record at startup and keep their name as data scope; a
// project created through the API uses its id as data scope. Every bucket is
// partitioned by data scope (call.project).

package emulator

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// bucketProjects holds the projects (deleted ones too), keyed by id.
const bucketProjects = "projects"

func init() {
	allBuckets = append(allBuckets, bucketProjects)
	registerGroup(func(s *Server) {
		s.handle("postApiV31OrgOwnerProjectNew", s.createProject)
		s.handle("getApiV31OrgOwnerProjectList", s.listProjects)
		s.handle("getApiV31OrgOwnerProjectByNanoId", s.getProject)
		s.handle("deleteApiV31OrgOwnerProjectByNanoId", s.deleteProject)
		s.handle("postApiV31OrgOwnerProjectByNanoIdRegenerateApiKey", s.regenerateProjectKey)
	})
}

// CodeProjectNotFound and CodeProjectNameTaken are the project operations'
// error codes.
const (
	CodeProjectNotFound  = 1500
	CodeProjectNameTaken = 1501
)

// Project is a project of an organization.
type Project struct {
	ID        string `json:"id"`
	OrgID     string `json:"org_id"`
	Name      string `json:"name"`
	Email     string `json:"email"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// Seq orders projects by creation.
	Seq             int64  `json:"seq"`
	TriggersEnabled bool   `json:"triggers_enabled"`
	WebhookVersion  string `json:"webhook_version"`
	Deleted         bool   `json:"deleted"`
	DeletedAt       string `json:"deleted_at,omitempty"`
	// Config is the create-time config, stored and never returned (the
	// types return none).
	Config  map[string]any  `json:"config,omitempty"`
	APIKeys []ProjectAPIKey `json:"api_keys"`
	// Scope is the data scope every bucket is partitioned by: the name of a
	// configured project, the id of a created one.
	Scope string `json:"scope"`
	// Configured marks a project of Options.APIKeys.
	Configured bool `json:"configured,omitempty"`
	// RevokedKeys are configured keys invalidated by regeneration: they are
	// not restored from Options.APIKeys at the next start.
	RevokedKeys []string `json:"revoked_keys,omitempty"`
}

// ProjectAPIKey is one API key of a project.
type ProjectAPIKey struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Key       string `json:"key"`
	CreatedAt string `json:"created_at"`
	// Configured marks a key of Options.APIKeys (re-read at every start).
	Configured bool `json:"configured,omitempty"`
	// Permissions scopes the key (the service's scoped project keys,
	// changelogs 2026-08-28 and 09-21: read or write per area): area (the
	// first path segment below /api/v3.1, such as auth_configs) -> "read" or
	// "write"; "*" is every other area. nil: a full key. See keyPermits.
	Permissions map[string]string `json:"permissions,omitempty"`
}

// Permission levels of a scoped project key.
const (
	PermissionRead  = "read"
	PermissionWrite = "write"
)

// keyArea is the area of an API path a scoped key's permission names: its
// first segment below /api/v3.1 (or /api/v3), e.g. "auth_configs".
func keyArea(p string) string {
	for _, prefix := range []string{"/api/v3.1/", "/api/v3/"} {
		if rest, ok := strings.CutPrefix(p, prefix); ok {
			area, _, _ := strings.Cut(rest, "/")
			return area
		}
	}
	return ""
}

// keyPermits answers whether a key with perms may call method on path: a
// full key (nil) may; a read permission covers GET and HEAD, a write
// permission every method; an area the key does not name falls back to "*",
// else nothing is permitted. It returns the permission the call needs.
func keyPermits(perms map[string]string, method, path string) (need, area string, ok bool) {
	area = keyArea(path)
	need = PermissionWrite
	if method == http.MethodGet || method == http.MethodHead {
		need = PermissionRead
	}
	if perms == nil {
		return need, area, true
	}
	have, named := perms[area]
	if !named {
		have = perms["*"]
	}
	return need, area, have == PermissionWrite || (have == PermissionRead && need == PermissionRead)
}

// projectKey is the key index entry of a project API key: the project's
// data scope, id and organization.
type projectKey struct {
	scope, projectID, org string
	perms                 map[string]string // nil: a full key
}

// projectKeyOf is the key index entry of a project API key.
func (s *Server) projectKeyOf(key string) (projectKey, bool) {
	s.keysMu.RLock()
	defer s.keysMu.RUnlock()
	pk, ok := s.keys[key]
	return pk, ok
}

// reindexKeys rebuilds the key index from the projects; callers hold st.mu
// (or run before serving).
func (s *Server) reindexKeys() {
	keys := map[string]projectKey{}
	for _, p := range s.projects {
		if p.Deleted {
			continue
		}
		for _, k := range p.APIKeys {
			keys[k.Key] = projectKey{scope: p.Scope, projectID: p.ID, org: p.OrgID, perms: k.Permissions}
		}
	}
	s.keysMu.Lock()
	s.keys = keys
	s.keysMu.Unlock()
}

// configuredProjectID is the stable id of a configured project.
func configuredProjectID(name string) string {
	sum := sha256.Sum256([]byte("configured-project:" + name))
	return "pr_" + hex.EncodeToString(sum[:])[:12]
}

func projectEmail(org string) string { return "owner@" + org + ".emulator.invalid" }

// setupProjects loads the persisted projects and makes the configured
// projects (key -> project name) match the configuration: a record each (in
// the first organization), holding exactly the configured keys (minus those
// regeneration revoked) besides the keys the API created. Idempotent.
func (s *Server) setupProjects(keys map[string]string) error {
	s.projects = map[string]*Project{}
	if s.st.db != nil {
		err := s.st.db.View(func(tx *bolt.Tx) error { return loadBucket(tx, bucketProjects, s.projects) })
		if err != nil {
			return fmt.Errorf("emulator: load projects: %w", err)
		}
	}
	byName := map[string][]string{}
	for k, name := range keys {
		byName[name] = append(byName[name], k)
	}
	org := s.orgIDs[0]
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	var changes []change
	// configured projects no longer configured lose their configured keys
	for _, id := range slices.Sorted(maps.Keys(s.projects)) {
		p := s.projects[id]
		if !p.Configured || byName[p.Name] != nil {
			continue
		}
		if slices.ContainsFunc(p.APIKeys, func(k ProjectAPIKey) bool { return k.Configured }) {
			np := *p
			np.APIKeys = slices.DeleteFunc(slices.Clone(p.APIKeys), func(k ProjectAPIKey) bool { return k.Configured })
			changes = append(changes, put(bucketProjects, id, &np))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		id := configuredProjectID(name)
		want := slices.Sorted(slices.Values(byName[name]))
		old := s.projects[id]
		var p Project
		if old == nil {
			now := s.st.stamp()
			p = Project{ID: id, Name: name, Email: projectEmail(org), CreatedAt: now, UpdatedAt: now,
				Seq: s.st.nextSeq(), TriggersEnabled: true, WebhookVersion: "V3", Scope: name, Configured: true}
		} else {
			p = *old
		}
		p.OrgID = org
		var ks []ProjectAPIKey
		for _, k := range p.APIKeys {
			if !k.Configured || slices.Contains(want, k.Key) {
				ks = append(ks, k)
			}
		}
		for _, k := range want {
			if slices.Contains(p.RevokedKeys, k) || slices.ContainsFunc(ks, func(x ProjectAPIKey) bool { return x.Key == k }) {
				continue
			}
			ks = append(ks, ProjectAPIKey{ID: newID("key"), Name: "configured", Key: k, CreatedAt: p.CreatedAt, Configured: true})
		}
		p.APIKeys = ks
		if old == nil || !projectEqual(old, &p) {
			changes = append(changes, put(bucketProjects, id, &p))
		}
	}
	if err := s.commitProjects(changes...); err != nil {
		return fmt.Errorf("emulator: configured projects: %w", err)
	}
	s.reindexKeys()
	return nil
}

func projectEqual(a, b *Project) bool {
	return a.OrgID == b.OrgID && slices.EqualFunc(a.APIKeys, b.APIKeys, func(x, y ProjectAPIKey) bool {
		return x.ID == y.ID && x.Name == y.Name && x.Key == y.Key && x.CreatedAt == y.CreatedAt &&
			x.Configured == y.Configured && maps.Equal(x.Permissions, y.Permissions)
	})
}

// commitProjects persists project changes and applies them to s.projects and
// the key index. Callers hold st.mu for writing.
func (s *Server) commitProjects(changes ...change) error {
	if len(changes) == 0 {
		return nil
	}
	if err := s.st.commit(changes...); err != nil {
		return err
	}
	for _, c := range changes {
		if p, ok := c.val.(*Project); ok && c.bucket == bucketProjects {
			s.projects[c.id] = p
		}
	}
	s.reindexKeys()
	return nil
}

// orgProject returns the caller organization's non-deleted project id.
func (c *call) orgProject(id string) (*Project, *apiError) {
	p := c.s.projects[id]
	if p == nil || p.Deleted || p.OrgID != c.org {
		return nil, newErr(http.StatusNotFound, CodeProjectNotFound, "Project_NotFound", "project %q not found", id).
			fix("Check the project id and that the project belongs to the organization of the x-org-api-key used; deleted projects are not found.")
	}
	return p, nil
}

var projectNamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 _-]{0,63}$`)

// projectConfigSchema: the contract (rc.6) requires is_2FA_enabled,
// mask_secret_keys_in_connected_account and log_visibility_setting; the
// service's newer v3 document (S3 PostOrgOwnerProjectNewRequestConfig) makes
// every member optional and adds zdr_enabled ("Do not send both fields" with
// log_visibility_setting), oauth_callback_verifier_url and theme. The
// stricter reading of both is kept where both can be met: the two booleans
// stay required, and exactly one of log_visibility_setting and zdr_enabled
// (checkProjectConfig).
var projectConfigSchema = map[string]any{
	"type": "object", "additionalProperties": false,
	"required": []any{"is_2FA_enabled", "mask_secret_keys_in_connected_account"},
	"properties": map[string]any{
		"zdr_enabled":                           map[string]any{"type": "boolean"},
		"oauth_callback_verifier_url":           map[string]any{"type": "string"},
		"theme":                                 map[string]any{"type": "object"},
		"is_2FA_enabled":                        map[string]any{"type": "boolean"},
		"logo_url":                              map[string]any{"type": "string"},
		"display_name":                          map[string]any{"type": "string"},
		"mask_secret_keys_in_connected_account": map[string]any{"type": "boolean"},
		"log_visibility_setting":                map[string]any{"type": "string", "enum": []any{"show_all", "dont_store_data"}},
		"require_mcp_api_key":                   map[string]any{"type": "boolean"},
		"is_composio_link_enabled_for_managed_auth": map[string]any{"type": "boolean"},
		"signed_url_file_expiry_in_seconds":         map[string]any{"type": "number"},
	},
}

var projectCreateSchema = map[string]any{
	"type": "object", "additionalProperties": false,
	"required": []any{"name"},
	"properties": map[string]any{
		"name":                  map[string]any{"type": "string"},
		"should_create_api_key": map[string]any{"type": "boolean"},
		"config":                projectConfigSchema,
	},
}

// checkProjectConfig applies the rules of a project config the schema
// cannot say: log_visibility_setting or zdr_enabled, never both (S3: "Do not
// send both fields"; the contract requires log_visibility_setting, so one of
// them is required), and oauth_callback_verifier_url an https URL that
// passes the service's SSRF checks (S3: "Must be https and pass SSRF
// checks": here, no loopback, private, link-local or unspecified address and
// no localhost).
func checkProjectConfig(cfg map[string]any) *apiError {
	_, lvs := cfg["log_visibility_setting"]
	_, zdr := cfg["zdr_enabled"]
	switch {
	case lvs && zdr:
		return errValidation("config.zdr_enabled", "config.zdr_enabled and config.log_visibility_setting must not be sent together: use zdr_enabled")
	case !lvs && !zdr:
		return errValidation("config.log_visibility_setting", "config.log_visibility_setting is required (or config.zdr_enabled)")
	}
	if raw, ok := cfg["oauth_callback_verifier_url"].(string); ok {
		u, err := url.Parse(raw)
		if err != nil || u.Scheme != "https" || u.Hostname() == "" {
			return errValidation("config.oauth_callback_verifier_url", "config.oauth_callback_verifier_url must be an absolute https URL, got %q", raw)
		}
		h := u.Hostname()
		ip := net.ParseIP(h)
		if strings.EqualFold(h, "localhost") || strings.HasSuffix(strings.ToLower(h), ".localhost") ||
			(ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified())) {
			return errValidation("config.oauth_callback_verifier_url", "config.oauth_callback_verifier_url %q points at a local or private address, which the service's SSRF checks refuse", raw)
		}
	}
	return nil
}

func newProjectAPIKey(now string) ProjectAPIKey {
	return ProjectAPIKey{ID: newID("key"), Name: "default", Key: "ak_" + randString(20), CreatedAt: now}
}

// createProject: POST /org/owner/project/new.
func (s *Server) createProject(c *call) (int, any, *apiError) {
	var body map[string]any
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	if path, msg, ok := schemaError(projectCreateSchema, body, ""); !ok {
		return 0, nil, errValidation(path, "%s %s", path, msg)
	}
	if cfg, ok := body["config"].(map[string]any); ok {
		if e := checkProjectConfig(cfg); e != nil {
			return 0, nil, e
		}
	}
	name, _ := body["name"].(string) // a string: the schema requires it
	if strings.TrimSpace(name) == "" {
		return 0, nil, errValidation("name", "name must not be blank")
	}
	if !projectNamePattern.MatchString(name) {
		return 0, nil, errValidation("name", "name %q is malformed: 1 to 64 letters, digits, spaces, hyphens and underscores, starting with a letter or digit", name)
	}
	// The documented default is false (the service's v3 document; the
	// contract, @composio/client rc.6: "If true, the API key will be created
	// and returned"): a key only when asked for.
	createKey := false
	if v, ok := body["should_create_api_key"].(bool); ok {
		createKey = v
	}
	cfg, _ := body["config"].(map[string]any)
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	for _, p := range s.projects {
		if !p.Deleted && p.OrgID == c.org && p.Name == name {
			return 0, nil, newErr(http.StatusConflict, CodeProjectNameTaken, "Project_NameTaken",
				"a project named %q already exists in the organization", name).
				fix("Choose another name, or delete the project " + p.ID + " first.")
		}
	}
	now := s.st.stamp()
	id := newID("pr")
	p := &Project{ID: id, OrgID: c.org, Name: name, Email: projectEmail(c.org), CreatedAt: now, UpdatedAt: now,
		Seq: s.st.nextSeq(), TriggersEnabled: true, WebhookVersion: "V3", Config: cloneMap(cfg), Scope: id, APIKeys: []ProjectAPIKey{}}
	var key any
	if createKey {
		k := newProjectAPIKey(now)
		p.APIKeys = append(p.APIKeys, k)
		key = k.Key
	}
	if err := s.commitProjects(put(bucketProjects, id, p)); err != nil {
		return 0, nil, internalErr(err)
	}
	return 200, map[string]any{"id": id, "name": name, "api_key": key}, nil
}

func renderProject(p *Project) map[string]any {
	return map[string]any{
		"id": p.ID, "org_id": p.OrgID, "name": p.Name, "email": p.Email,
		"created_at": p.CreatedAt, "updated_at": p.UpdatedAt,
		"webhook_url": nil, "event_webhook_url": nil, "webhook_secret": nil,
		"triggers_enabled": p.TriggersEnabled, "webhook_version": p.WebhookVersion, "deleted": p.Deleted,
	}
}

func maskKey(k string) string { return k[:min(4, len(k))] + "****************" }

// listProjects: GET /org/owner/project/list (limit at most 50).
func (s *Server) listProjects(c *call) (int, any, *apiError) {
	if e := limitAtMost(c.r, maxLimitSmall); e != nil {
		return 0, nil, e
	}
	s.st.mu.RLock()
	var items []*Project
	for _, p := range s.projects {
		if !p.Deleted && p.OrgID == c.org {
			items = append(items, p)
		}
	}
	s.st.mu.RUnlock()
	slices.SortFunc(items, func(a, b *Project) int { return cmp.Compare(a.Seq, b.Seq) })
	page, e := paginate(c.r, items, maxLimitSmall, func(p *Project) any { return renderProject(p) })
	if e != nil {
		return 0, nil, e
	}
	page["data"] = page["items"]
	delete(page, "items")
	return 200, page, nil
}

// getProject: GET /org/owner/project/{nano_id}, with the keys masked.
func (s *Server) getProject(c *call) (int, any, *apiError) {
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	p, e := c.orgProject(c.r.PathValue("nano_id"))
	if e != nil {
		return 0, nil, e
	}
	out := renderProject(p)
	keys := make([]any, 0, len(p.APIKeys))
	for _, k := range p.APIKeys {
		keys = append(keys, map[string]any{"id": k.ID, "name": k.Name, "key": maskKey(k.Key), "created_at": k.CreatedAt})
	}
	out["api_keys"] = keys
	return 200, out, nil
}

// updateProject applies change to a copy of the calling organization's
// project {nano_id} (its updated_at already stamped) and commits it.
func (s *Server) updateProject(c *call, change func(p *Project)) *apiError {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	old, e := c.orgProject(c.r.PathValue("nano_id"))
	if e != nil {
		return e
	}
	p := *old
	p.UpdatedAt = s.st.stamp()
	change(&p)
	if err := s.commitProjects(put(bucketProjects, p.ID, &p)); err != nil {
		return internalErr(err)
	}
	return nil
}

// deleteProject: DELETE /org/owner/project/{nano_id}: a soft delete; the
// project's keys are refused at once and its name is free again.
func (s *Server) deleteProject(c *call) (int, any, *apiError) {
	revoke, e := boolParam(c.r, "revoke_on_delete")
	if e != nil {
		return 0, nil, e
	}
	if e := s.updateProject(c, func(p *Project) {
		p.Deleted = true
		p.DeletedAt = p.UpdatedAt
	}); e != nil {
		return 0, nil, e
	}
	out := map[string]any{"status": "success"}
	if revoke {
		out["revoke_job_id"] = newID("rj")
	}
	return 200, out, nil
}

// regenerateProjectKey: POST /org/owner/project/{nano_id}/regenerate_api_key:
// every key of the project is replaced by one new key.
func (s *Server) regenerateProjectKey(c *call) (int, any, *apiError) {
	var k ProjectAPIKey
	if e := s.updateProject(c, func(p *Project) {
		p.RevokedKeys = slices.Clone(p.RevokedKeys)
		for _, old := range p.APIKeys {
			if old.Configured {
				p.RevokedKeys = append(p.RevokedKeys, old.Key)
			}
		}
		k = newProjectAPIKey(p.UpdatedAt)
		p.APIKeys = []ProjectAPIKey{k}
	}); e != nil {
		return 0, nil, e
	}
	return 200, map[string]any{
		"api_key": map[string]any{"id": k.ID, "name": k.Name, "key": k.Key, "created_at": k.CreatedAt},
		"message": "API key regenerated; the project's previous keys no longer work",
	}, nil
}

// createScopedKey (POST /_emulator/api_keys, with the project's key) adds a
// scoped API key to the caller's project, the emulator's stand-in for the
// dashboard's scoped keys: body {"permissions": {AREA: "read"|"write", ...}}
// with AREA a first path segment below /api/v3.1 (auth_configs,
// connected_accounts, trigger_instances, ...) or "*" for every other area;
// {"permissions": {"*": "read"}} is a read-only key. Answers {id, key,
// permissions}. The key works at once; an API call it does not permit is
// answered 403.
func (s *Server) createScopedKey(c *call) (int, any, *apiError) {
	var body struct {
		Permissions map[string]string `json:"permissions"`
	}
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	if len(body.Permissions) == 0 {
		return 0, nil, errValidation("permissions", "permissions must name at least one area (\"*\" for every area)")
	}
	for area, p := range body.Permissions {
		if p != PermissionRead && p != PermissionWrite {
			return 0, nil, errValidation("permissions."+area, "permissions.%s must be \"read\" or \"write\", got %q", area, p)
		}
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	var proj *Project
	for _, p := range s.projects {
		if !p.Deleted && p.Scope == c.project {
			proj = p
		}
	}
	if proj == nil {
		return 0, nil, newErr(http.StatusNotFound, CodeProjectNotFound, "Project_NotFound", "the key's project is not found")
	}
	np := *proj
	k := newProjectAPIKey(s.st.stamp())
	k.Name, k.Permissions = "scoped", maps.Clone(body.Permissions)
	np.APIKeys = append(slices.Clone(proj.APIKeys), k)
	if err := s.commitProjects(put(bucketProjects, np.ID, &np)); err != nil {
		return 0, nil, internalErr(err)
	}
	return 200, map[string]any{"id": k.ID, "key": k.Key, "permissions": k.Permissions}, nil
}
