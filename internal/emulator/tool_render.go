// The Tool wire shape, shared by /tools and the tool-router session /tools.

package emulator

import "slices"

func renderTool(t *toolDef, version string) map[string]any {
	tk := map[string]any{"slug": t.toolkit.Slug, "name": t.toolkit.Name, "logo": t.toolkit.logo()}
	return map[string]any{
		"slug": t.Slug, "name": t.Name, "description": t.Description, "human_description": t.Description,
		"toolkit": tk, "input_parameters": t.Input, "output_parameters": t.Output, "no_auth": false,
		"available_versions": t.toolkit.Versions, "version": version, "scopes": t.Scopes, "scope_requirements": scopeRequirements(t.Scopes),
		"tags": t.Tags, "is_deprecated": false,
		"deprecated": map[string]any{
			"displayName": t.Name, "version": version, "available_versions": t.toolkit.Versions, "is_deprecated": false,
			"toolkit": map[string]any{"logo": t.toolkit.logo()},
		},
	}
}

// scopeRequirements is a tool's scope_requirements: all of its scopes, or
// null for a tool that needs none.
func scopeRequirements(scopes []string) any {
	if len(scopes) == 0 {
		return nil
	}
	return map[string]any{"all_of": scopes}
}

func anyTag(have, want []string) bool {
	for _, w := range want {
		if slices.Contains(have, w) {
			return true
		}
	}
	return false
}
