package validators

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

// CredentialsPurpose selects which field group of a toolkit's auth scheme applies.
type CredentialsPurpose int

const (
	// PurposeAuthConfigCreation checks fields.auth_config_creation (custom auth configs).
	PurposeAuthConfigCreation CredentialsPurpose = iota
	// PurposeConnectedAccountInitiation checks fields.connected_account_initiation (pre-filled accounts).
	PurposeConnectedAccountInitiation
)

func (p CredentialsPurpose) String() string {
	if p == PurposeConnectedAccountInitiation {
		return "connected account initiation"
	}
	return "auth config creation"
}

// credentialFieldGroup returns the field group of a toolkit's scheme for a
// purpose, and whether the toolkit supports the scheme at all.
func credentialFieldGroup(tk *client.Toolkit, scheme string, purpose CredentialsPurpose) (client.FieldGroup, bool) {
	if tk == nil {
		return client.FieldGroup{}, false
	}
	for _, d := range tk.AuthConfigDetails {
		if strings.EqualFold(d.Mode, scheme) {
			if purpose == PurposeConnectedAccountInitiation {
				return d.Fields.ConnectedAccountInitiation, true
			}
			return d.Fields.AuthConfigCreation, true
		}
	}
	return client.FieldGroup{}, false
}

// ToolkitSchemes lists the auth schemes a toolkit supports.
func ToolkitSchemes(tk *client.Toolkit) []string {
	out := make([]string, 0, len(tk.AuthConfigDetails))
	for _, d := range tk.AuthConfigDetails {
		out = append(out, d.Mode)
	}
	sort.Strings(out)
	return out
}

// CheckCredentialFields compares the credential field names a user gave
// (provided) with the toolkit's fields for scheme and purpose. It returns
// attribute errors at attr naming every missing required field and every
// unknown field (listing the allowed ones), and an error when the toolkit does
// not support the scheme. Field names compare exactly (the service's names are
// snake_case). A nil toolkit yields no diagnostics. inherited names fields
// the account gets from its auth config's shared_credentials (inherited by
// every connected account of the auth config, per the API contract): they
// are never missing.
func CheckCredentialFields(tk *client.Toolkit, scheme string, purpose CredentialsPurpose, provided []string, attr path.Path, inherited ...string) diag.Diagnostics {
	var diags diag.Diagnostics
	if tk == nil {
		return diags
	}
	group, ok := credentialFieldGroup(tk, scheme, purpose)
	if !ok {
		diags.AddAttributeError(attr, "Unsupported auth scheme",
			fmt.Sprintf("Toolkit %q does not support the auth scheme %q. Supported schemes: %s.",
				tk.Slug, scheme, JoinOrNone(ToolkitSchemes(tk))))
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
				attr, QuoteList(missing), where, JoinOrNone(FieldNames(group.Required)), JoinOrNone(FieldNames(group.Optional))))
	}
	if len(unknown) > 0 {
		diags.AddAttributeError(attr, "Unknown credential fields",
			fmt.Sprintf("Attribute %s has field(s) %s that the service does not accept (%s). Allowed fields: %s.",
				attr, QuoteList(unknown), where, JoinOrNone(allowedNames)))
	}
	return diags
}

// HasRequiredCredentialFields reports whether the scheme's field group for
// purpose has required entries (e.g. OAUTH2 auth config creation: client_id,
// client_secret), so that credentials must be given.
func HasRequiredCredentialFields(tk *client.Toolkit, scheme string, purpose CredentialsPurpose) bool {
	return len(MissingRequiredFields(tk, scheme, purpose)) > 0
}

// MissingRequiredFields returns the required fields of the scheme's field
// group for purpose that inherited (the auth config's shared_credentials,
// which every connected account of the auth config inherits) does not
// supply.
func MissingRequiredFields(tk *client.Toolkit, scheme string, purpose CredentialsPurpose, inherited ...string) []string {
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

// SharedCredentialNames returns the field names of an auth config's
// shared_credentials (the values come back masked; only the names matter).
func SharedCredentialNames(ac *client.AuthConfig) []string {
	if ac == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(ac.SharedCredentials))
}

// MapKeys returns the keys of a map value, sorted, and whether they are all
// known (false when the map itself is unknown). Element values may be unknown:
// only their keys matter for field checks.
func MapKeys(m types.Map) ([]string, bool) {
	if m.IsUnknown() {
		return nil, false
	}
	if m.IsNull() {
		return nil, true
	}
	return slices.Sorted(maps.Keys(m.Elements())), true
}

// FieldNames lists the names of fields, in their order.
func FieldNames(fs []client.Field) []string {
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return out
}

// QuoteList quotes each string and joins them with commas, for messages.
func QuoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

// JoinOrNone joins strings with commas, or says "(none)", for messages.
func JoinOrNone(xs []string) string {
	if len(xs) == 0 {
		return "(none)"
	}
	return strings.Join(xs, ", ")
}
