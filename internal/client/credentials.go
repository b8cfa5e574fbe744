package client

import (
	"fmt"
	"net/http"
	"strings"
)

// The credential headers of the service's three credential classes. The
// service answers a request carrying two of them (even x-api-key with
// x-org-api-key) with 401 "Multiple authentication modes were provided", so
// each request carries exactly the one its operation takes.
const (
	HeaderAPIKey     = "X-Api-Key"      //nolint:gosec // G101: the name of a header, not a credential
	HeaderOrgAPIKey  = "X-Org-Api-Key"  //nolint:gosec // G101: the name of a header, not a credential
	HeaderUserAPIKey = "X-User-Api-Key" //nolint:gosec // G101: the name of a header, not a credential
)

// isCredentialHeader reports whether name is one of the credential headers.
func isCredentialHeader(name string) bool {
	switch http.CanonicalHeaderKey(strings.TrimSpace(name)) {
	case HeaderAPIKey, HeaderOrgAPIKey, HeaderUserAPIKey:
		return true
	}
	return false
}

// credentialClass is the credential an operation takes.
type credentialClass int

const (
	credProject credentialClass = iota // x-api-key: every operation of a project
	credOrg                            // x-org-api-key: the organization's operations
)

// orgPathPrefix is where the contract's organization-key operations live
// (org.owner.project.*: create, list, retrieve, delete, regenerateAPIKey);
// every other operation the client sends takes the project key.
const orgPathPrefix = "/org/"

// credentialFor returns the credential class of the operation at path (below
// the API prefix).
func credentialFor(path string) credentialClass {
	if strings.HasPrefix(path, orgPathPrefix) {
		return credOrg
	}
	return credProject
}

// MissingCredentialError is returned, before anything is sent, by an
// organization operation when no organization key is configured.
type MissingCredentialError struct {
	// Org is true: the operation needs the organization key.
	Org bool
	// Method and Path name the operation.
	Method, Path string
}

func (e *MissingCredentialError) Error() string {
	return fmt.Sprintf("%s %s: this is an organization operation and no organization API key is configured "+
		"(it is sent as the x-org-api-key header)", e.Method, e.Path)
}

// credentialHeader returns the header and value the operation at path
// carries ("" when none), or a *MissingCredentialError when it is an
// organization operation and no organization key is configured (a project
// operation without a project key is sent without one: the service's 401
// explains).
func (c *Client) credentialHeader(method, path string) (string, string, error) {
	if credentialFor(path) == credOrg {
		if c.cfg.OrgAPIKey == "" {
			return "", "", &MissingCredentialError{Org: true, Method: method, Path: APIPrefix + path}
		}
		return HeaderOrgAPIKey, c.cfg.OrgAPIKey, nil
	}
	if c.cfg.APIKey == "" {
		// Sent without a credential, as before an organization key existed:
		// the service's 401 says what is missing.
		return "", "", nil
	}
	return HeaderAPIKey, c.cfg.APIKey, nil
}
