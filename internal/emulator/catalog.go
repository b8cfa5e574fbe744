package emulator

import (
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
)

// Toolkit versions of the built-in catalog (catalogdata/): every built-in
// toolkit has both, and "latest" resolves to VersionLatest. Toolkits loaded
// from a catalog directory list their own versions.
const (
	VersionOld    = "20250901_00"
	VersionLatest = "20251015_00"
)

// categoryDef is a toolkit category (slug, display name); the catalog lists
// them in file order.
type categoryDef struct {
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// knownSchemes are the auth scheme modes of the contract (rc.6's 14) and
// CIMD_OAUTH, which the service's v3 document adds (S3: OAuth whose client_id
// is the URL of a client ID metadata document; its account states are DCR's).
var knownSchemes = []string{"OAUTH2", "OAUTH1", "API_KEY", "BASIC", "BILLCOM_AUTH", "BEARER_TOKEN", "GOOGLE_SERVICE_ACCOUNT",
	"NO_AUTH", "BASIC_WITH_JWT", "CALCOM_AUTH", "SERVICE_ACCOUNT", "SAML", "DCR_OAUTH", "CIMD_OAUTH", "S2S_OAUTH2"}

// isRedirectOAuth reports the schemes whose accounts are connected by the
// user approving access at a redirect URL (and get their tokens then).
func isRedirectOAuth(scheme string) bool {
	switch scheme {
	case "OAUTH2", "OAUTH1", "DCR_OAUTH", "CIMD_OAUTH":
		return true
	}
	return false
}

type fieldDef struct {
	Name        string
	DisplayName string
	Type        string
	Description string
	Default     *string
	Secret      bool
}

type schemeDef struct {
	Mode             string
	Name             string
	Managed          bool // service-managed credentials available
	CreationRequired []fieldDef
	CreationOptional []fieldDef
	InitRequired     []fieldDef
	InitOptional     []fieldDef
}

type toolkitDef struct {
	Slug        string
	Name        string
	Description string
	AppURL      string
	MCPURL      string // a custom toolkit's MCP server URL ("" for catalog toolkits)
	BaseURL     string
	Categories  []string
	Schemes     []schemeDef
	Popularity  int
	Versions    []string // newest first
	Triggers    []*triggerDef
	Tools       []*toolDef
	CreatedAt   string
	UpdatedAt   string
	Custom      bool // a project's custom (MCP) toolkit
	// WebhookSetupRequired and WebhookSetupOptional are the setup fields of
	// the toolkit's webhook endpoint (webhook_endpoint_setup in the catalog
	// file): what the developer copies from the upstream provider's app
	// settings (e.g. Slack's signing secret). A toolkit with any makes its
	// webhook trigger types require webhook endpoint setup.
	WebhookSetupRequired []fieldDef
	WebhookSetupOptional []fieldDef
	// RevokeUnsupported: the provider cannot revoke tokens programmatically
	// (revoke_unsupported in the catalog file; built in: mailchimp).
	RevokeUnsupported bool
}

// needsWebhookEndpoint reports whether the toolkit's webhook trigger types
// need a webhook endpoint registered with the upstream provider.
func (tk *toolkitDef) needsWebhookEndpoint() bool {
	return len(tk.WebhookSetupRequired)+len(tk.WebhookSetupOptional) > 0
}

// kind is the toolkit's type on the wire: native or custom.
func (tk *toolkitDef) kind() string {
	if tk.Custom {
		return "custom"
	}
	return "native"
}

type triggerDef struct {
	Slug         string
	Name         string
	Description  string
	Instructions string
	Type         string                    // webhook | poll
	Config       map[string]map[string]any // version -> JSON Schema
	Payload      map[string]any
	toolkit      *toolkitDef
}

// requiresWebhookEndpointSetup: a webhook trigger type of a toolkit with
// webhook endpoint setup fields (requires_webhook_endpoint_setup).
func (t *triggerDef) requiresWebhookEndpointSetup() bool {
	return t.Type == "webhook" && t.toolkit.needsWebhookEndpoint()
}

type toolDef struct {
	Slug        string
	Name        string
	Description string
	Input       map[string]any
	Output      map[string]any
	Tags        []string
	Scopes      []string
	toolkit     *toolkitDef
}

type catalog struct {
	// files are the catalog files read from the catalog directory (paths as
	// given), logged at start.
	files      []string
	categories []categoryDef
	toolkits   []*toolkitDef
	bySlug     map[string]*toolkitDef
	triggers   map[string]*triggerDef
	tools      map[string]*toolDef
	// sessionConfigs are session_configs.json's: every project's.
	sessionConfigs []*SessionConfig
}

// categoryName is the display name of a category slug.
func (c *catalog) categoryName(slug string) string {
	for _, cat := range c.categories {
		if cat.Slug == slug {
			return cat.Name
		}
	}
	return slug
}

func (c *catalog) toolkit(slug string) (*toolkitDef, *apiError) {
	tk, ok := c.bySlug[strings.ToLower(slug)]
	if !ok {
		return nil, errNotFound(CodeToolkitNotFound, "Toolkit_NotFound", "toolkit", slug).
			fix("List toolkits with GET /toolkits to see the available slugs.")
	}
	return tk, nil
}

func (tk *toolkitDef) scheme(mode string) (*schemeDef, bool) {
	if tk == nil {
		return nil, false
	}
	for i := range tk.Schemes {
		if tk.Schemes[i].Mode == mode {
			return &tk.Schemes[i], true
		}
	}
	return nil, false
}

func (tk *toolkitDef) schemeModes() []string {
	out := make([]string, 0, len(tk.Schemes))
	for _, s := range tk.Schemes {
		out = append(out, s.Mode)
	}
	return out
}

func (tk *toolkitDef) managedModes() []string {
	out := []string{}
	for _, s := range tk.Schemes {
		if s.Managed {
			out = append(out, s.Mode)
		}
	}
	return out
}

// latest is the toolkit's newest version, which "latest" resolves to
// (VersionLatest for a toolkit without versions).
func (tk *toolkitDef) latest() string {
	if len(tk.Versions) == 0 {
		return VersionLatest
	}
	return tk.Versions[0]
}

func (tk *toolkitDef) logo() string { return "https://logos.composio.dev/api/" + tk.Slug }

var versionRE = regexp.MustCompile(`^(\d{8})_(\d{2})$`)

// validateVersion accepts YYYYMMDD_NN with a real date, or "latest".
func validateVersion(field, v string) *apiError {
	if v == "latest" {
		return nil
	}
	if validVersion(v) {
		return nil
	}
	return newErr(http.StatusBadRequest, CodeInvalidVersion, "InvalidToolkitVersion",
		"%s: invalid toolkit version %q: expected YYYYMMDD_NN (e.g. %s) or \"latest\"", field, v, VersionLatest).
		with(field + ": invalid toolkit version " + v)
}

// resolveVersion maps "", "latest" or an explicit version to a catalog version.
func (tk *toolkitDef) resolveVersion(field, v string) (string, *apiError) {
	if v == "" || v == "latest" {
		return tk.latest(), nil
	}
	if e := validateVersion(field, v); e != nil {
		return "", e
	}
	if !slices.Contains(tk.Versions, v) {
		return "", newErr(http.StatusBadRequest, CodeUnknownVersion, "ToolkitVersionNotFound",
			"toolkit %s has no version %s; available versions: %s", tk.Slug, v, strings.Join(tk.Versions, ", ")).
			with(field + ": unknown version " + v)
	}
	return v, nil
}

// requestedVersion resolves the version of tk that a request asks for through
// its toolkit_versions / version query parameters; errors name field.
func (tk *toolkitDef) requestedVersion(r *http.Request, field string) (string, *apiError) {
	tv, e := versionsFromQuery(r)
	if e != nil {
		return "", e
	}
	return tk.resolveVersion(field, tv.forToolkit(tk.Slug))
}

// answerAtVersion answers a catalog read: render at the version of tk that
// the request asks for (see requestedVersion); errors name field.
func answerAtVersion(c *call, tk *toolkitDef, field string, render func(version string) any) (int, any, *apiError) {
	version, e := tk.requestedVersion(c.r, field)
	if e != nil {
		return 0, nil, e
	}
	return 200, render(version), nil
}

// toolkitVersions is a parsed toolkit_versions value: a global version and
// per-toolkit overrides.
type toolkitVersions struct {
	global     string
	perToolkit map[string]string
}

func (tv toolkitVersions) forToolkit(slug string) string {
	if v, ok := tv.perToolkit[strings.ToLower(slug)]; ok {
		return v
	}
	return tv.global
}

// versionsFromQuery parses toolkit_versions=latest|VER (repeated or comma
// separated; last wins) and toolkit_versions[slug]=VER; also the singular
// "version" parameter as global.
func versionsFromQuery(r *http.Request) (toolkitVersions, *apiError) {
	tv := toolkitVersions{perToolkit: map[string]string{}}
	q := r.URL.Query()
	for _, v := range append(listParam(r, "version"), listParam(r, "toolkit_versions")...) {
		if e := validateVersion("toolkit_versions", v); e != nil {
			return tv, e
		}
		tv.global = v
	}
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if !strings.HasPrefix(k, "toolkit_versions[") || !strings.HasSuffix(k, "]") || k == "toolkit_versions[]" {
			continue
		}
		slug := strings.ToLower(k[len("toolkit_versions[") : len(k)-1])
		v := q.Get(k)
		if e := validateVersion(k, v); e != nil {
			return tv, e
		}
		tv.perToolkit[slug] = v
	}
	return tv, nil
}

// versionsFromBody parses the upsert body's toolkit_versions (string, object or null).
func versionsFromBody(v any) (toolkitVersions, *apiError) {
	tv := toolkitVersions{perToolkit: map[string]string{}}
	switch x := v.(type) {
	case nil:
	case string:
		if x != "" {
			if e := validateVersion("toolkit_versions", x); e != nil {
				return tv, e
			}
			tv.global = x
		}
	case map[string]any:
		for k, val := range x {
			s, ok := val.(string)
			if !ok {
				return tv, errValidation("toolkit_versions."+k, "version must be a string")
			}
			if e := validateVersion("toolkit_versions."+k, s); e != nil {
				return tv, e
			}
			tv.perToolkit[strings.ToLower(k)] = s
		}
	default:
		return tv, errValidation("toolkit_versions", "toolkit_versions must be a string or an object of toolkit slug to version")
	}
	return tv, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
