// Credential field checks shared by auth configs and connected accounts:
// secret fields, scheme lookup and required/unknown field validation.

package emulator

import (
	"net/http"
	"slices"
	"sort"
	"strings"
)

func secretFields(groups ...[]fieldDef) map[string]bool {
	out := map[string]bool{}
	for _, g := range groups {
		for _, f := range g {
			if f.Secret {
				out[f.Name] = true
			}
		}
	}
	return out
}

func schemeFor(tk *toolkitDef, mode, field string) (*schemeDef, *apiError) {
	if !slices.Contains(knownSchemes, mode) {
		return nil, errValidation(field, "unknown auth scheme %q (one of %s)", mode, strings.Join(knownSchemes, ", "))
	}
	sc, ok := tk.scheme(mode)
	if !ok {
		return nil, newErr(http.StatusBadRequest, CodeAuthConfigScheme, "AuthConfig_SchemeNotSupported",
			"toolkit %s does not support auth scheme %s (supported: %s)", tk.Slug, mode, strings.Join(tk.schemeModes(), ", ")).
			with(field + ": unsupported scheme " + mode)
	}
	return sc, nil
}

// checkFields validates a credential map against required/optional fields.
func checkFields(prefix string, got map[string]any, required, optional []fieldDef, code int, slug, mode string) *apiError {
	known := map[string]bool{}
	for _, f := range append(append([]fieldDef{}, required...), optional...) {
		known[f.Name] = true
	}
	for _, f := range required {
		v, ok := got[f.Name]
		if !ok || v == nil || v == "" {
			return newErr(http.StatusBadRequest, code, slug, "%s.%s is required for %s", prefix, f.Name, mode).
				with(prefix + "." + f.Name + ": missing required field")
		}
	}
	keys := make([]string, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !known[k] {
			names := make([]string, 0, len(known))
			for n := range known {
				names = append(names, n)
			}
			sort.Strings(names)
			return newErr(http.StatusBadRequest, code, slug, "%s.%s is not a field of %s (accepted: %s)", prefix, k, mode, strings.Join(names, ", ")).
				with(prefix + "." + k + ": unknown field")
		}
		switch v := got[k].(type) {
		case string, bool, nil:
		case []any:
			if k != "scopes" && k != "user_scopes" {
				return errValidation(prefix+"."+k, "must be a string, number or boolean")
			}
			if e := checkScopes(prefix+"."+k, v); e != nil {
				return e
			}
		default:
			if _, isNum := toFloat(v); !isNum {
				return errValidation(prefix+"."+k, "must be a string, number or boolean")
			}
		}
	}
	return nil
}
