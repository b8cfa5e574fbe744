package client

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Project is a project of the organization, as retrieve and list return it.
// APIKeys (retrieve only) holds the project's keys with their values masked:
// a key's value is delivered only by create and by RegenerateProjectAPIKey.
type Project struct {
	ID              string          `json:"id"`
	OrgID           string          `json:"org_id"`
	Name            string          `json:"name"`
	Email           string          `json:"email"`
	CreatedAt       string          `json:"created_at"`
	UpdatedAt       string          `json:"updated_at"`
	WebhookVersion  string          `json:"webhook_version"`
	TriggersEnabled *bool           `json:"triggers_enabled,omitempty"`
	Deleted         bool            `json:"deleted"`
	APIKeys         []ProjectAPIKey `json:"api_keys,omitempty"`
}

// ProjectAPIKey is one API key of a project. Key is masked when read and in
// clear only in RegenerateProjectAPIKey's answer.
type ProjectAPIKey struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Key       string `json:"key"`
	CreatedAt string `json:"created_at"`
}

// ProjectConfig is a project's create-time configuration. The service takes
// it on create only: retrieve does not return it and no operation of the
// organization key updates it (the project-key PATCH /org/project/config of
// the documents takes neither ZDREnabled nor OAuthCallbackVerifierURL).
//
// LogVisibilitySetting and ZDREnabled are not sent together (the service's
// v3 document: "Use zdr_enabled for Zero Data Retention;
// log_visibility_setting remains supported for existing clients. Do not send
// both fields."): "" leaves log_visibility_setting out.
type ProjectConfig struct {
	Is2FAEnabled                        bool    `json:"is_2FA_enabled"`
	LogoURL                             *string `json:"logo_url,omitempty"`
	DisplayName                         *string `json:"display_name,omitempty"`
	MaskSecretKeysInConnectedAccount    bool    `json:"mask_secret_keys_in_connected_account"`
	LogVisibilitySetting                string  `json:"log_visibility_setting,omitempty"`
	RequireMCPAPIKey                    *bool   `json:"require_mcp_api_key,omitempty"`
	IsComposioLinkEnabledForManagedAuth *bool   `json:"is_composio_link_enabled_for_managed_auth,omitempty"`
	SignedURLFileExpiryInSeconds        *int64  `json:"signed_url_file_expiry_in_seconds,omitempty"`
	// ZDREnabled turns Zero Data Retention on or off for the new project (nil:
	// the plan's default; the Hobby plan cannot enable it).
	ZDREnabled *bool `json:"zdr_enabled,omitempty"`
	// OAuthCallbackVerifierURL is a developer-hosted https URL that verifies
	// the identity of the user completing an OAuth callback (per-user
	// callback identity verification); nil leaves it off.
	OAuthCallbackVerifierURL *string `json:"oauth_callback_verifier_url,omitempty"`
}

// Log visibility settings of ProjectConfig.
const (
	LogVisibilityShowAll       = "show_all"
	LogVisibilityDontStoreData = "dont_store_data"
)

// CreateProjectRequest is the body of a project create.
type CreateProjectRequest struct {
	Name string `json:"name"`
	// ShouldCreateAPIKey true creates the project's API key and returns it;
	// false or nil (left out: the documented default is false, in the
	// service's v3 document and @composio/client rc.6 alike) creates none.
	ShouldCreateAPIKey *bool          `json:"should_create_api_key,omitempty"`
	Config             *ProjectConfig `json:"config,omitempty"`
}

// CreatedProject is a create's answer. APIKey is the new project's key ("" when
// none was created).
type CreatedProject struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	APIKey *string `json:"api_key"`
	// Adopted is true when the create's answer was lost and the project was
	// found by name afterwards; its key was then regenerated (the only way to
	// learn a key's value), so APIKey holds a working key all the same.
	Adopted bool `json:"-"`
}

// RegeneratedProjectKey is the answer of RegenerateProjectAPIKey.
type RegeneratedProjectKey struct {
	APIKey  ProjectAPIKey `json:"api_key"`
	Message string        `json:"message"`
}

// ProjectListPageSize is the page size Projects asks for (the service's
// maximum).
const ProjectListPageSize = 50

const projectsPath = "/org/owner/project"

func projectPath(id string) string { return projectsPath + "/" + escape(id) }

// CreateProject creates a project of the organization (organization key).
// Names are unique in an organization: a clash is a 409 *APIError.
//
// When the create fails without a definite answer, the service may have
// created the project: the organization's projects are listed and one with
// the requested name created since the request was sent is adopted (its
// name is its natural key); its key is then regenerated, because a key's
// value is delivered only at creation and by regeneration, so the caller
// always gets a working key.
func (c *Client) CreateProject(ctx context.Context, r CreateProjectRequest) (*CreatedProject, error) {
	out, err := createReconciled(ctx, c, reconcile[*CreatedProject]{
		What: "project",
		Key:  strconv.Quote(r.Name),
		Create: func(ctx context.Context) (*CreatedProject, error) {
			var out CreatedProject
			if err := c.do(ctx, http.MethodPost, projectsPath+"/new", nil, r, &out); err != nil {
				return nil, err
			}
			if out.ID == "" {
				return nil, errors.New("POST " + APIPrefix + projectsPath + "/new: response has no id")
			}
			return &out, nil
		},
		ID: func(p *CreatedProject) string { return p.ID },
		Find: func(ctx context.Context, since time.Time) ([]*CreatedProject, error) {
			var found []*CreatedProject
			for p, err := range c.Projects(ctx) {
				if err != nil {
					return nil, err
				}
				if p.Name == r.Name && !p.Deleted && createdSince(p.CreatedAt, since) {
					found = append(found, &CreatedProject{ID: p.ID, Name: p.Name, Adopted: true})
				}
			}
			return found, nil
		},
	})
	if err != nil {
		return nil, err
	}
	if out.Adopted && r.ShouldCreateAPIKey != nil && *r.ShouldCreateAPIKey {
		key, err := c.RegenerateProjectAPIKey(ctx, out.ID)
		if err != nil {
			return nil, fmt.Errorf("project %s (%q) was created, but its answer was lost and regenerating its API key failed: %w. "+
				"Import the project and rotate its key", out.ID, r.Name, err)
		}
		k := key.APIKey.Key
		out.APIKey = &k
	}
	return out, nil
}

// GetProject retrieves a project of the organization; a deleted or unknown
// project is a 404 *APIError (IsNotFound).
func (c *Client) GetProject(ctx context.Context, id string) (*Project, error) {
	var out Project
	if err := c.do(ctx, http.MethodGet, projectPath(id), nil, nil, &out); err != nil {
		return nil, err
	}
	if out.Deleted {
		return nil, notFound(http.MethodGet, APIPrefix+projectPath(id), "project "+id+" is deleted")
	}
	return &out, nil
}

// Projects yields every project of the organization, one request per page of
// ProjectListPageSize, lazily (stop early to stop paging). A repeated cursor
// ends it with an error.
func (c *Client) Projects(ctx context.Context) iter.Seq2[Project, error] {
	return paginate[Project](ctx, c, projectsPath+"/list", url.Values{"limit": {strconv.Itoa(ProjectListPageSize)}})
}

// DeleteProject deletes a project and everything in it. revokeOnDelete also
// revokes the upstream credentials of every connected account in it (the
// answer then names the background job). A repeated delete of a project
// already gone is success (the write policy for deletes).
func (c *Client) DeleteProject(ctx context.Context, id string, revokeOnDelete bool) (revokeJobID string, err error) {
	q := url.Values{}
	if revokeOnDelete {
		q.Set("revoke_on_delete", "true")
	}
	var out struct {
		Status      string `json:"status"`
		RevokeJobID string `json:"revoke_job_id"`
	}
	if err := c.do(ctx, http.MethodDelete, projectPath(id), q, nil, &out); err != nil {
		return "", err
	}
	return out.RevokeJobID, nil
}

// RegenerateProjectAPIKey replaces every key of the project with a new one
// and returns it: every earlier key stops working at once. It is retried like
// an idempotent write: a repeat after a lost answer regenerates again, which
// leaves the project with exactly one working key, the one returned.
func (c *Client) RegenerateProjectAPIKey(ctx context.Context, id string) (*RegeneratedProjectKey, error) {
	var out RegeneratedProjectKey
	if err := c.doKind(ctx, opIdempotent, http.MethodPost, projectPath(id)+"/regenerate_api_key", nil, nil, &out); err != nil {
		return nil, err
	}
	if out.APIKey.Key == "" {
		return nil, errors.New("POST " + APIPrefix + projectPath(id) + "/regenerate_api_key: response has no key")
	}
	return &out, nil
}
