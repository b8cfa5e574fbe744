package emulator

// Stored objects. Every object carries the project it belongs to; handlers
// answer 404 for objects of other projects.

// AuthConfig is a stored auth config.
type AuthConfig struct {
	ID                     string         `json:"id"`
	UUID                   string         `json:"uuid"`
	Project                string         `json:"project"`
	Seq                    int64          `json:"seq"`
	Type                   string         `json:"type"` // default | custom
	Name                   string         `json:"name"`
	ToolkitSlug            string         `json:"toolkit_slug"`
	AuthScheme             string         `json:"auth_scheme"`
	IsComposioManaged      bool           `json:"is_composio_managed"`
	Credentials            map[string]any `json:"credentials"`
	SharedCredentials      map[string]any `json:"shared_credentials,omitempty"` // inherited by its connected accounts
	ProxyConfig            map[string]any `json:"proxy_config,omitempty"`
	Status                 string         `json:"status"` // ENABLED | DISABLED
	ToolsForCreation       []string       `json:"tools_for_connected_account_creation"`
	ToolsForExecution      []string       `json:"tools_available_for_execution"`
	IsEnabledForToolRouter bool           `json:"is_enabled_for_tool_router"`
	CreatedAt              string         `json:"created_at"`
	LastUpdatedAt          string         `json:"last_updated_at"`
}

// ConnectedAccount is a stored connected account.
type ConnectedAccount struct {
	ID                string         `json:"id"`
	UUID              string         `json:"uuid"`
	Project           string         `json:"project"`
	Seq               int64          `json:"seq"`
	UserID            string         `json:"user_id"`
	ToolkitSlug       string         `json:"toolkit_slug"`
	AuthConfigID      string         `json:"auth_config_id"`
	AuthConfigUUID    string         `json:"auth_config_uuid"`
	AuthScheme        string         `json:"auth_scheme"`
	IsComposioManaged bool           `json:"is_composio_managed"`
	AuthConfigDeleted bool           `json:"auth_config_deleted,omitempty"`
	Status            string         `json:"status"`
	StatusReason      *string        `json:"status_reason"`
	IsDisabled        bool           `json:"is_disabled"`
	Alias             *string        `json:"alias"`
	Val               map[string]any `json:"val"` // credential / connection fields (without status)
	CallbackURL       string         `json:"callback_url,omitempty"`
	ConsentToken      string         `json:"consent_token,omitempty"`
	LinkToken         string         `json:"link_token,omitempty"`
	LinkExpiresAt     string         `json:"link_expires_at,omitempty"`
	CreatedAt         string         `json:"created_at"`
	UpdatedAt         string         `json:"updated_at"`
}

// TriggerInstance is a stored trigger instance.
type TriggerInstance struct {
	ID                   string         `json:"id"`
	UUID                 string         `json:"uuid"`
	Project              string         `json:"project"`
	Seq                  int64          `json:"seq"`
	TriggerName          string         `json:"trigger_name"`
	ToolkitSlug          string         `json:"toolkit_slug"`
	ConnectedAccountID   string         `json:"connected_account_id"`
	ConnectedAccountUUID string         `json:"connected_account_uuid"`
	AuthConfigID         string         `json:"auth_config_id"`
	UserID               string         `json:"user_id"`
	Config               map[string]any `json:"config"`
	Version              string         `json:"version"`
	DisabledAt           *string        `json:"disabled_at"`
	CreatedAt            string         `json:"created_at"`
	UpdatedAt            string         `json:"updated_at"`
	// EgressURL overrides, for this instance only, where its events are
	// delivered ("" = the project's webhook subscription URL). Set and
	// removed by the upsert; no read answer carries it (S3).
	EgressURL string `json:"egress_url,omitempty"`
}

// Session is a stored tool-router session.
type Session struct {
	ID      string         `json:"id"`
	Project string         `json:"project"`
	Seq     int64          `json:"seq"`
	UserID  string         `json:"user_id"`
	Config  map[string]any `json:"config"`
	// Experimental is the answer's experimental block (custom toolkits and
	// tools, assistive prompt), nil when the create body had none.
	Experimental map[string]any `json:"experimental,omitempty"`
	CreatedAt    string         `json:"created_at"`
	// ConfigVersion counts the config's versions: 1 at create, one more
	// per PATCH (0 in a session stored before PATCH existed: version 1).
	ConfigVersion int `json:"config_version,omitempty"`
	// History holds every version of the config, oldest first.
	History []SessionVersion `json:"history,omitempty"`
}

// SessionVersion is one version of a session's config.
type SessionVersion struct {
	Version   int            `json:"version"`
	CreatedAt string         `json:"created_at"`
	Config    map[string]any `json:"config"`
}

// version is the session's config_version.
func (s *Session) version() int { return max(s.ConfigVersion, 1) }

// history is the session's config versions (one, version 1, for a session
// stored before PATCH existed).
func (s *Session) history() []SessionVersion {
	if len(s.History) == 0 {
		return []SessionVersion{{Version: 1, CreatedAt: s.CreatedAt, Config: s.Config}}
	}
	return s.History
}

// SessionConfig is a saved session config (sc_...): a named access policy
// (toolkits, tools, tags) written in the service's dashboard; the emulator
// takes it from its catalog or a control route.
type SessionConfig struct {
	ID          string         `json:"id"`
	Project     string         `json:"project"`
	Seq         int64          `json:"seq"`
	Name        string         `json:"name"`
	Description *string        `json:"description"`
	Archived    bool           `json:"archived"`
	Config      map[string]any `json:"config"`
	CreatedAt   string         `json:"created_at"`
	UpdatedAt   string         `json:"updated_at"`
}

// Account statuses.
const (
	StatusInitializing = "INITIALIZING"
	StatusInitiated    = "INITIATED"
	StatusActive       = "ACTIVE"
	StatusFailed       = "FAILED"
	StatusExpired      = "EXPIRED"
	StatusInactive     = "INACTIVE"
	StatusRevoked      = "REVOKED"
)

var accountStatuses = []string{StatusInitializing, StatusInitiated, StatusActive, StatusFailed, StatusExpired, StatusInactive, StatusRevoked}
