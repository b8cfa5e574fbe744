package provider

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// latestVersion is the version keyword meaning "the service's newest".
const latestVersion = client.VersionLatest

// resolveToolkitVersions is the one place toolkit versions are decided.
// Precedence per toolkit: toolkit_versions[slug] in the provider block, then
// SERVICE_TOOLKIT_VERSION_<NAME> (NAME = upper-case slug, mapped to the
// lower-case slug), then toolkit_version (Global). Every value is validated;
// diagnostics name the attribute or the environment variable. environ is in
// os.Environ() form ("KEY=value").
func resolveToolkitVersions(cfg providerModel, environ []string) (client.ToolkitVersions, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := client.ToolkitVersions{PerToolkit: map[string]string{}}

	// Environment first, so that the configuration overrides it.
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(name, EnvToolkitVersionPrefix) {
			continue
		}
		slug := strings.ToLower(strings.TrimPrefix(name, EnvToolkitVersionPrefix))
		value = strings.TrimSpace(value)
		switch {
		case slug == "":
			diags.AddError("Invalid toolkit version environment variable",
				fmt.Sprintf("Environment variable %s has no toolkit name; use %s<NAME>, e.g. %sGITHUB.",
					name, EnvToolkitVersionPrefix, EnvToolkitVersionPrefix))
			continue
		case value == "":
			continue // set but empty: treated as unset
		}
		if err := client.ValidateVersion(value); err != nil {
			diags.AddError("Invalid toolkit version in environment variable "+name,
				fmt.Sprintf("Environment variable %s: %s.", name, err))
			continue
		}
		if prev, dup := out.PerToolkit[slug]; dup && prev != value {
			diags.AddWarning("Conflicting toolkit version environment variables",
				fmt.Sprintf("Several %s* variables name the toolkit %q with different versions; %s=%q is used.",
					EnvToolkitVersionPrefix, slug, name, value))
		}
		out.PerToolkit[slug] = value
	}

	// Per-toolkit map in the configuration.
	if !cfg.ToolkitVersions.IsNull() && !cfg.ToolkitVersions.IsUnknown() {
		for key, v := range cfg.ToolkitVersions.Elements() {
			sv, ok := v.(types.String)
			if !ok || sv.IsNull() || sv.IsUnknown() {
				continue
			}
			attr := path.Root("toolkit_versions").AtMapKey(key)
			value := strings.TrimSpace(sv.ValueString())
			if err := client.ValidateVersion(value); err != nil {
				diags.AddAttributeError(attr, "Invalid toolkit version",
					fmt.Sprintf("Attribute toolkit_versions[%q]: %s.", key, err))
				continue
			}
			out.PerToolkit[strings.ToLower(key)] = value
		}
	}

	// Global version.
	if !cfg.ToolkitVersion.IsNull() && !cfg.ToolkitVersion.IsUnknown() {
		value := strings.TrimSpace(cfg.ToolkitVersion.ValueString())
		if err := client.ValidateVersion(value); err != nil {
			diags.AddAttributeError(path.Root("toolkit_version"), "Invalid toolkit version",
				fmt.Sprintf("Attribute toolkit_version: %s.", err))
		} else {
			out.Global = value
		}
	}

	if len(out.PerToolkit) == 0 {
		out.PerToolkit = nil
	}
	return out, diags
}

// toolkitVersionFor returns the version the provider uses for a toolkit:
// the per-toolkit pin, else the global version, else "latest".
func toolkitVersionFor(v client.ToolkitVersions, slug string) string {
	return v.Resolve(slug)
}
