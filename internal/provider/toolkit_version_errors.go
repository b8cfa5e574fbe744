package provider

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// toolkitVersionSources records where each toolkit version the provider uses
// was set, with the precedence of resolveToolkitVersions: key "" is the
// global toolkit_version, other keys are lower-case toolkit slugs.
func toolkitVersionSources(cfg providerModel, environ []string) map[string]string {
	src := map[string]string{}
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if ok && strings.HasPrefix(name, EnvToolkitVersionPrefix) && strings.TrimSpace(value) != "" {
			if slug := strings.ToLower(strings.TrimPrefix(name, EnvToolkitVersionPrefix)); slug != "" {
				src[slug] = "the " + name + " environment variable"
			}
		}
	}
	if !cfg.ToolkitVersions.IsNull() && !cfg.ToolkitVersions.IsUnknown() {
		for key, v := range cfg.ToolkitVersions.Elements() {
			if sv, ok := v.(types.String); ok && !sv.IsNull() && !sv.IsUnknown() {
				src[strings.ToLower(key)] = fmt.Sprintf("toolkit_versions[%q] in the provider block", key)
			}
		}
	}
	if !cfg.ToolkitVersion.IsNull() && !cfg.ToolkitVersion.IsUnknown() {
		src[""] = "toolkit_version in the provider block"
	}
	return src
}

// versionSource says where the version used for toolkit was set.
func (d *ProviderData) versionSource(toolkit string) string {
	if d == nil {
		return ""
	}
	if s, ok := d.VersionSources[strings.ToLower(toolkit)]; ok {
		return s
	}
	return d.VersionSources[""]
}

// addVersionNotFound turns a lookup failure caused by a toolkit version that
// does not exist into an error naming the setting (toolkit_version,
// toolkit_versions["<slug>"] or SERVICE_TOOLKIT_VERSION_<NAME>) and the
// versions that exist, and reports true. It confirms the cause with one read
// of the toolkit at its default version; for any other failure it reports
// false and adds nothing.
func (d *ProviderData) addVersionNotFound(ctx context.Context, diags *diag.Diagnostics, toolkit string, err error) bool {
	if !d.Configured() || err == nil || toolkit == "" {
		return false
	}
	version := d.VersionFor(toolkit)
	if version == latestVersion || (!client.IsStatus(err, http.StatusBadRequest) && !client.IsNotFound(err)) {
		return false
	}
	tk, gerr := d.Client.GetToolkit(ctx, toolkit, "")
	if gerr != nil {
		return false
	}
	for _, v := range tk.Meta.AvailableVersions {
		if v == version {
			return false // the version exists: the failure has another cause
		}
	}
	source := d.versionSource(toolkit)
	if source == "" {
		source = "the provider configuration"
	}
	available := "none listed"
	if len(tk.Meta.AvailableVersions) > 0 {
		available = strings.Join(tk.Meta.AvailableVersions, ", ")
	}
	diags.AddError("Toolkit version not found",
		fmt.Sprintf("Toolkit %q has no version %s, set by %s. Versions that exist: %s. Set %s to one of them, "+
			"or to \"latest\".", toolkit, version, source, available, strings.TrimPrefix(strings.TrimSuffix(source, " in the provider block"), "the ")))
	return true
}
