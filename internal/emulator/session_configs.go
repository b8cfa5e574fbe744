// Resource group sessionConfigs: list and retrieve the saved session configs
// (sc_...) of a project. The service writes them only in its dashboard; the
// emulator takes them from its catalog (session_configs.json, every
// project's) and from the control route POST /_emulator/session_configs
// (the caller's project's). They are an experimental feature: a project
// without it is answered 403.

package emulator

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strings"
)

// bucketSessionConfigs holds the session configs seeded through the control
// route; bucketSessionConfigFeature the projects whose feature a control
// route turned on or off.
const (
	bucketSessionConfigs       = "session_configs"
	bucketSessionConfigFeature = "session_config_feature"
)

// sessionConfigsFile is the catalog's optional file of session configs.
const sessionConfigsFile = "session_configs.json"

// CodeSessionConfigNotFound and CodeSessionConfigsDisabled are the error
// codes of session configs (next to the sessions' 14xx).
const (
	CodeSessionConfigNotFound  = 1410
	CodeSessionConfigsDisabled = 1411
	CodeSessionConfigArchived  = 1412
)

// sessionConfigMaxLimit is the largest page of GET /session_configs (the
// service's documents: 20 by default, at most 100).
const sessionConfigMaxLimit = 100

// sessionConfigFeature records a control route's choice for a project.
type sessionConfigFeature struct {
	Enabled bool `json:"enabled"`
}

func init() {
	allBuckets = append(allBuckets, bucketSessionConfigs, bucketSessionConfigFeature)
	registerGroup((*Server).registerSessionConfigs)
}

func (s *Server) registerSessionConfigs() {
	s.handle("getApiV31SessionConfigs", s.listSessionConfigs)
	s.handle("getApiV31SessionConfigsBySessionConfigId", s.getSessionConfig)
	s.control("POST", "/session_configs", s.seedSessionConfig)
	s.control("PUT", "/session_configs/feature", s.putSessionConfigFeature)
}

// sessionConfigsEnabled reports whether the project has the feature: as a
// control route set it, else when the catalog or a seed gave it configs;
// callers hold st.mu.
func (s *Server) sessionConfigsEnabled(project string) bool {
	if f, ok := s.st.sessionConfigFeature[project]; ok {
		return f.Enabled
	}
	if len(s.cat.sessionConfigs) > 0 {
		return true
	}
	for _, sc := range s.st.sessionConfigs {
		if sc.Project == project {
			return true
		}
	}
	return false
}

func errSessionConfigsDisabled() *apiError {
	return newErr(http.StatusForbidden, CodeSessionConfigsDisabled, "SessionConfigs_NotEnabled",
		"Session configs are not enabled for this project").
		fix("Session configs are an experimental feature: ask the service to enable it for the project, or leave session configs out.")
}

// projectSessionConfigs returns the project's configs (the catalog's, then
// the seeded ones), newest updated first; callers hold st.mu.
func (s *Server) projectSessionConfigs(project string) []*SessionConfig {
	var out []*SessionConfig
	out = append(out, s.cat.sessionConfigs...)
	for _, sc := range s.st.sessionConfigs {
		if sc.Project == project {
			out = append(out, sc)
		}
	}
	slices.SortFunc(out, func(a, b *SessionConfig) int {
		if c := strings.Compare(b.UpdatedAt, a.UpdatedAt); c != 0 {
			return c
		}
		return int(b.Seq - a.Seq)
	})
	return out
}

// sessionConfig returns the project's config id; callers hold st.mu.
func (s *Server) sessionConfig(project, id string) (*SessionConfig, *apiError) {
	if !s.sessionConfigsEnabled(project) {
		return nil, errSessionConfigsDisabled()
	}
	for _, sc := range s.projectSessionConfigs(project) {
		if sc.ID == id {
			return sc, nil
		}
	}
	return nil, errNotFound(CodeSessionConfigNotFound, "SessionConfig_NotFound", "session config", id)
}

func renderSessionConfigSummary(sc *SessionConfig) map[string]any {
	return map[string]any{"id": sc.ID, "name": sc.Name, "archived": sc.Archived, "created_at": sc.CreatedAt, "updated_at": sc.UpdatedAt}
}

// listSessionConfigs answers GET /session_configs: the active configs
// (archived=true: only the archived ones) whose name contains search,
// newest updated first, 20 a page by default and at most 100.
func (s *Server) listSessionConfigs(c *call) (int, any, *apiError) {
	if e := limitAtMost(c.r, sessionConfigMaxLimit); e != nil {
		return 0, nil, e
	}
	archived, e := boolParam(c.r, "archived")
	if e != nil {
		return 0, nil, e
	}
	search := strings.ToLower(strings.TrimSpace(c.r.URL.Query().Get("search")))
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	if !s.sessionConfigsEnabled(c.project) {
		return 0, nil, errSessionConfigsDisabled()
	}
	var items []*SessionConfig
	for _, sc := range s.projectSessionConfigs(c.project) {
		if sc.Archived == archived && (search == "" || strings.Contains(strings.ToLower(sc.Name), search)) {
			items = append(items, sc)
		}
	}
	page, e := paginate(c.r, items, sessionConfigMaxLimit, func(sc *SessionConfig) any { return renderSessionConfigSummary(sc) })
	if e != nil {
		return 0, nil, e
	}
	return 200, map[string]any{"items": page["items"], "next_cursor": page["next_cursor"]}, nil
}

// getSessionConfig answers GET /session_configs/{id}: the summary with the
// description and the policy (toolkits, tools, tags).
func (s *Server) getSessionConfig(c *call) (int, any, *apiError) {
	id := c.r.PathValue("session_config_id")
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	sc, e := s.sessionConfig(c.project, id)
	if e != nil {
		return 0, nil, e
	}
	out := renderSessionConfigSummary(sc)
	out["description"] = sc.Description
	out["config"] = sc.Config
	return 200, out, nil
}

// sessionConfigForCreate resolves a create body's
// experimental.session_config_id: a config of the project that is not
// archived.
func (s *Server) sessionConfigForCreate(c *call, v any) (*SessionConfig, *apiError) {
	id, ok := v.(string)
	if !ok || !strings.HasPrefix(id, "sc_") {
		return nil, errValidation("experimental.session_config_id", "experimental.session_config_id must be a session config id (sc_...)")
	}
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	sc, e := s.sessionConfig(c.project, id)
	if e != nil {
		return nil, e
	}
	if sc.Archived {
		return nil, newErr(http.StatusBadRequest, CodeSessionConfigArchived, "SessionConfig_Archived",
			"session config %s is archived; an archived config cannot create new sessions", id).with("experimental.session_config_id: archived")
	}
	return sc, nil
}

// sessionConfigPolicy checks a config's policy: only toolkits, tools and
// tags, in the create body's forms.
func (s *Server) sessionConfigPolicy(c *call, cfg map[string]any) *apiError {
	probe := map[string]any{}
	for k, v := range cfg {
		switch k {
		case "toolkits", "tools", "tags":
			if e := s.sessionMember(c, probe, k, v, false); e != nil {
				return e
			}
		default:
			return errValidation("config."+k, "a session config's policy holds toolkits, tools and tags, not %s", k)
		}
	}
	return nil
}

// seedSessionConfig (POST /_emulator/session_configs) stores a session
// config for the caller's project, as the dashboard would: {name,
// description?, archived?, config: {toolkits?, tools?, tags?}}. It answers
// the config as GET does.
func (s *Server) seedSessionConfig(c *call) (int, any, *apiError) {
	var body struct {
		Name        string         `json:"name"`
		Description *string        `json:"description"`
		Archived    bool           `json:"archived"`
		Config      map[string]any `json:"config"`
	}
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	if strings.TrimSpace(body.Name) == "" {
		return 0, nil, errValidation("name", "name is required")
	}
	if body.Config == nil {
		body.Config = map[string]any{}
	}
	if e := s.sessionConfigPolicy(c, body.Config); e != nil {
		return 0, nil, e
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	now := s.st.stamp()
	sc := &SessionConfig{ID: newID("sc"), Project: c.project, Seq: s.st.nextSeq(), Name: body.Name, Description: body.Description,
		Archived: body.Archived, Config: body.Config, CreatedAt: now, UpdatedAt: now}
	if err := s.st.commit(put(bucketSessionConfigs, sc.ID, sc)); err != nil {
		return 0, nil, internalErr(err)
	}
	out := renderSessionConfigSummary(sc)
	out["description"], out["config"] = sc.Description, sc.Config
	return http.StatusCreated, out, nil
}

// putSessionConfigFeature (PUT /_emulator/session_configs/feature,
// {"enabled": bool}) turns the caller's project's session configs feature
// on or off.
func (s *Server) putSessionConfigFeature(c *call) (int, any, *apiError) {
	var body struct {
		Enabled *bool `json:"enabled"`
	}
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	if body.Enabled == nil {
		return 0, nil, errValidation("enabled", "enabled is required (true or false)")
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	if err := s.st.commit(put(bucketSessionConfigFeature, c.project, &sessionConfigFeature{Enabled: *body.Enabled})); err != nil {
		return 0, nil, internalErr(err)
	}
	return 200, map[string]any{"enabled": *body.Enabled}, nil
}

// sessionConfigsCatalog is the catalog's session_configs.json.
type sessionConfigsCatalog struct {
	SessionConfigs []struct {
		ID          string         `json:"id"`
		Name        string         `json:"name"`
		Description *string        `json:"description"`
		Archived    bool           `json:"archived"`
		Config      map[string]any `json:"config"`
		CreatedAt   string         `json:"created_at"`
		UpdatedAt   string         `json:"updated_at"`
	} `json:"session_configs"`
}

// addSessionConfigs reads the catalog's session_configs.json: each config
// needs an sc_ id unique in the catalog and a name; its policy holds only
// toolkits, tools and tags.
func (c *catalog) addSessionConfigs(fsys fs.FS, name string) error {
	file := path.Join(name, sessionConfigsFile)
	var f sessionConfigsCatalog
	if err := decodeStrict(fsys, sessionConfigsFile, &f); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	for i, sc := range f.SessionConfigs {
		at := fmt.Sprintf("%s: session_configs[%d]", file, i)
		if !strings.HasPrefix(sc.ID, "sc_") || strings.TrimSpace(sc.Name) == "" {
			return fmt.Errorf("%s: needs an id (sc_...) and a name", at)
		}
		for k := range sc.Config {
			if k != "toolkits" && k != "tools" && k != "tags" {
				return fmt.Errorf("%s: config.%s: a policy holds toolkits, tools and tags", at, k)
			}
		}
		c.sessionConfigs = slices.DeleteFunc(c.sessionConfigs, func(old *SessionConfig) bool { return old.ID == sc.ID })
		cfg := sc.Config
		if cfg == nil {
			cfg = map[string]any{}
		}
		stamp := cmp.Or(sc.UpdatedAt, sc.CreatedAt, "2026-09-24T00:00:00.000Z")
		c.sessionConfigs = append(c.sessionConfigs, &SessionConfig{ID: sc.ID, Name: sc.Name, Description: sc.Description,
			Archived: sc.Archived, Config: cfg, CreatedAt: cmp.Or(sc.CreatedAt, stamp), UpdatedAt: stamp})
	}
	return nil
}

// cloneJSON deep-copies a JSON-shaped map (what a session config holds).
func cloneJSON(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return cloneMap(m)
	}
	var out map[string]any
	if json.Unmarshal(b, &out) != nil {
		return cloneMap(m)
	}
	return out
}
