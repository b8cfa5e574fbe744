package provider

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// credentialsPurpose selects which field group of a toolkit's auth scheme applies.
type credentialsPurpose int

const (
	// purposeAuthConfigCreation checks fields.auth_config_creation (custom auth configs).
	purposeAuthConfigCreation credentialsPurpose = iota
	// purposeConnectedAccountInitiation checks fields.connected_account_initiation (pre-filled accounts).
	purposeConnectedAccountInitiation
)

func (p credentialsPurpose) String() string {
	if p == purposeConnectedAccountInitiation {
		return "connected account initiation"
	}
	return "auth config creation"
}

// credentialFieldGroup returns the field group of a toolkit's scheme for a
// purpose, and whether the toolkit supports the scheme at all.
func credentialFieldGroup(tk *client.Toolkit, scheme string, purpose credentialsPurpose) (client.FieldGroup, bool) {
	if tk == nil {
		return client.FieldGroup{}, false
	}
	for _, d := range tk.AuthConfigDetails {
		if strings.EqualFold(d.Mode, scheme) {
			if purpose == purposeConnectedAccountInitiation {
				return d.Fields.ConnectedAccountInitiation, true
			}
			return d.Fields.AuthConfigCreation, true
		}
	}
	return client.FieldGroup{}, false
}

// toolkitSchemes lists the auth schemes a toolkit supports.
func toolkitSchemes(tk *client.Toolkit) []string {
	out := make([]string, 0, len(tk.AuthConfigDetails))
	for _, d := range tk.AuthConfigDetails {
		out = append(out, d.Mode)
	}
	sort.Strings(out)
	return out
}

// checkCredentialFields compares the credential field names a user gave
// (provided) with the toolkit's fields for scheme and purpose. It returns
// attribute errors at attr naming every missing required field and every
// unknown field (listing the allowed ones), and an error when the toolkit does
// not support the scheme. Field names compare exactly (the service's names are
// snake_case). A nil toolkit yields no diagnostics. inherited names fields
// the account gets from its auth config's shared_credentials (inherited by
// every connected account of the auth config, per the API contract): they
// are never missing.
func checkCredentialFields(tk *client.Toolkit, scheme string, purpose credentialsPurpose, provided []string, attr path.Path, inherited ...string) diag.Diagnostics {
	var diags diag.Diagnostics
	if tk == nil {
		return diags
	}
	group, ok := credentialFieldGroup(tk, scheme, purpose)
	if !ok {
		diags.AddAttributeError(attr, "Unsupported auth scheme",
			fmt.Sprintf("Toolkit %q does not support the auth scheme %q. Supported schemes: %s.",
				tk.Slug, scheme, joinOrNone(toolkitSchemes(tk))))
		return diags
	}

	have := make(map[string]bool, len(provided)+len(inherited))
	for _, name := range provided {
		have[name] = true
	}
	for _, name := range inherited {
		have[name] = true
	}
	allowed := map[string]bool{}
	var missing, allowedNames []string
	for _, f := range group.Required {
		allowed[f.Name] = true
		allowedNames = append(allowedNames, f.Name)
		if !have[f.Name] {
			missing = append(missing, f.Name)
		}
	}
	for _, f := range group.Optional {
		if allowed[f.Name] {
			continue
		}
		allowed[f.Name] = true
		allowedNames = append(allowedNames, f.Name)
	}
	var unknown []string
	for _, name := range provided {
		if !allowed[name] {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)

	where := fmt.Sprintf("toolkit %q, scheme %s, %s", tk.Slug, strings.ToUpper(scheme), purpose)
	if len(missing) > 0 {
		diags.AddAttributeError(attr, "Missing required credential fields",
			fmt.Sprintf("Attribute %s is missing required field(s) %s (%s). Required: %s; optional: %s.",
				attr, quoteList(missing), where, joinOrNone(fieldNames(group.Required)), joinOrNone(fieldNames(group.Optional))))
	}
	if len(unknown) > 0 {
		diags.AddAttributeError(attr, "Unknown credential fields",
			fmt.Sprintf("Attribute %s has field(s) %s that the service does not accept (%s). Allowed fields: %s.",
				attr, quoteList(unknown), where, joinOrNone(allowedNames)))
	}
	return diags
}

// hasRequiredCredentialFields reports whether the scheme's field group for
// purpose has required entries (e.g. OAUTH2 auth config creation: client_id,
// client_secret), so that credentials must be given.
func hasRequiredCredentialFields(tk *client.Toolkit, scheme string, purpose credentialsPurpose) bool {
	return len(missingRequiredFields(tk, scheme, purpose)) > 0
}

// missingRequiredFields returns the required fields of the scheme's field
// group for purpose that inherited (the auth config's shared_credentials,
// which every connected account of the auth config inherits) does not
// supply.
func missingRequiredFields(tk *client.Toolkit, scheme string, purpose credentialsPurpose, inherited ...string) []string {
	g, ok := credentialFieldGroup(tk, scheme, purpose)
	if !ok {
		return nil
	}
	var missing []string
	for _, f := range g.Required {
		if !slices.Contains(inherited, f.Name) {
			missing = append(missing, f.Name)
		}
	}
	return missing
}

// sharedCredentialNames returns the field names of an auth config's
// shared_credentials (the values come back masked; only the names matter).
func sharedCredentialNames(ac *client.AuthConfig) []string {
	if ac == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(ac.SharedCredentials))
}

// mapKeys returns the keys of a map value, sorted, and whether they are all
// known (false when the map itself is unknown). Element values may be unknown:
// only their keys matter for field checks.
func mapKeys(m types.Map) ([]string, bool) {
	if m.IsUnknown() {
		return nil, false
	}
	if m.IsNull() {
		return nil, true
	}
	return slices.Sorted(maps.Keys(m.Elements())), true
}

func fieldNames(fs []client.Field) []string {
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return out
}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

func joinOrNone(xs []string) string {
	if len(xs) == 0 {
		return "(none)"
	}
	return strings.Join(xs, ", ")
}
