// The credential rule: a request carries exactly one credential header, of a
// scheme its operation accepts (the contract's GENERATED_OPERATIONS schemes,
// see operationSpecs). A project API key (x-api-key) authenticates to its
// project's data scope, an organization API key (x-org-api-key) to its
// organization; the emulator has no user API keys (x-user-api-key).

package emulator

import (
	"net/http"
	"slices"
	"strings"
)

// credential is one credential class: its scheme, header and description.
type credential struct {
	scheme, header, what string
}

// credentials in the order the service lists them.
var credentials = []credential{
	{SchemeAPIKey, "x-api-key", "a project API key"},
	{SchemeUserAPIKey, "x-user-api-key", "a user API key"},
	{SchemeOrgAPIKey, "x-org-api-key", "an organization API key"},
}

// presentCredentials returns the credential classes whose header the request
// carries (non-empty), in the service's order.
func presentCredentials(r *http.Request) []credential {
	var out []credential
	for _, cr := range credentials {
		if r.Header.Get(cr.header) != "" {
			out = append(out, cr)
		}
	}
	return out
}

// requirement describes the credentials an operation accepts, e.g. "an
// organization API key in the x-org-api-key header".
func requirement(schemes []string) (string, []credential) {
	var parts []string
	var accepted []credential
	for _, cr := range credentials {
		if slices.Contains(schemes, cr.scheme) {
			accepted = append(accepted, cr)
			parts = append(parts, cr.what+" in the "+cr.header+" header")
		}
	}
	return strings.Join(parts, " or "), accepted
}

// checkKeyPermission refuses, with 403, an API call the project key's
// scope does not permit (a scoped key: read or write per area, see
// keyPermits). The body is the service's error envelope.
func checkKeyPermission(c *call) *apiError {
	need, area, ok := keyPermits(c.keyPerms, c.r.Method, c.r.URL.Path)
	if ok {
		return nil
	}
	return newErr(http.StatusForbidden, CodeForbidden, "Forbidden_InsufficientPermission",
		"this API key does not have %s permission for %s", need, area).
		fix("Use a project API key with " + need + " permission for " + area + ", or grant it to this key in the project's API key settings.")
}

func errUnauthorized(format string, args ...any) *apiError {
	return newErr(http.StatusUnauthorized, CodeUnauthorized, "Unauthorized", format, args...)
}

// authenticate applies the credential rule for an operation accepting
// schemes and sets c.project (project key) or c.org (organization key).
func (s *Server) authenticate(c *call, schemes []string) *apiError {
	present := presentCredentials(c.r)
	if len(present) > 1 {
		provided := make([]string, len(present))
		for i, cr := range present {
			provided[i] = cr.scheme + " via " + cr.header
		}
		return errUnauthorized("Multiple authentication modes were provided. Provide exactly one authentication mode per request. Provided: %s.",
			strings.Join(provided, ", ")).
			fix("Send exactly one of the x-api-key, x-user-api-key and x-org-api-key headers: the one the operation takes.")
	}
	need, accepted := requirement(schemes)
	noAuth := slices.Contains(schemes, SchemeNoAuth)
	if len(present) == 0 {
		switch {
		case noAuth:
			return nil
		case len(accepted) == 0 || accepted[0].scheme == SchemeAPIKey:
			return errUnauthorized("missing API key: send it in the x-api-key header").
				fix("Send a valid project API key in the x-api-key header.")
		default:
			return errUnauthorized("missing %s: send it in the %s header", strings.TrimPrefix(strings.TrimPrefix(accepted[0].what, "an "), "a "), accepted[0].header).
				fix("This operation requires " + need + ".")
		}
	}
	cr := present[0]
	if !noAuth && !slices.ContainsFunc(accepted, func(a credential) bool { return a.scheme == cr.scheme }) {
		return errUnauthorized("This operation requires %s. Provided: %s via %s.", need, cr.scheme, cr.header).
			fix("Send " + need + " instead of " + cr.what + ".")
	}
	key := c.r.Header.Get(cr.header)
	switch cr.scheme {
	case SchemeAPIKey:
		pk, ok := s.projectKeyOf(key)
		if !ok {
			return errUnauthorized("invalid API key").
				fix("Send a valid project API key in the x-api-key header; a deleted project's keys and regenerated keys are refused.")
		}
		c.project, c.keyPerms = pk.scope, pk.perms
	case SchemeOrgAPIKey:
		org, ok := s.orgKeys[key]
		if !ok {
			return errUnauthorized("invalid organization API key").
				fix("Send an organization API key the emulator is configured with (--org-api-key ORG=KEY; default " + DefaultOrgAPIKey + ") in the x-org-api-key header.")
		}
		c.org = org
	default:
		return errUnauthorized("invalid user API key").
			fix("The emulator has no user API keys; call the operation with a project API key (x-api-key) or an organization API key (x-org-api-key) where it takes one.")
	}
	return nil
}
