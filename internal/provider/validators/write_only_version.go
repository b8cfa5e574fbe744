package validators

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// WriteOnlyWithoutVersion, a resource.ConfigValidator, warns about a
// write-only attribute set without the attribute that versions it: Terraform
// never shows a change of a write-only value, so without a version a new
// value is never sent after the create. (Where the version is required, as
// for service_auth_config's credentials_wo and shared_credentials_wo,
// ValidateConfig reports an error instead, with CheckRequiredWriteOnlyVersion.)
type WriteOnlyWithoutVersion struct {
	WriteOnly, Version path.Path
}

func (v WriteOnlyWithoutVersion) Description(ctx context.Context) string {
	return v.MarkdownDescription(ctx)
}

func (v WriteOnlyWithoutVersion) MarkdownDescription(context.Context) string {
	return fmt.Sprintf("warns when `%s` is set without `%s`", v.WriteOnly, v.Version)
}

func (v WriteOnlyWithoutVersion) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var wo, version attr.Value
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, v.WriteOnly, &wo)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, v.Version, &version)...)
	if resp.Diagnostics.HasError() || wo == nil || version == nil {
		return
	}
	AddWriteOnlyVersionWarning(wo, version, v.WriteOnly, v.Version, &resp.Diagnostics)
}

// AddWriteOnlyVersionWarning adds the warning of WriteOnlyWithoutVersion,
// on the write-only attribute's own path, when wo is set and version is null.
func AddWriteOnlyVersionWarning(wo, version attr.Value, woPath, versionPath path.Path, diags interface {
	AddAttributeWarning(path.Path, string, string)
}) {
	if wo.IsNull() || !version.IsNull() {
		return
	}
	diags.AddAttributeWarning(woPath, fmt.Sprintf("%s without %s", woPath, versionPath),
		fmt.Sprintf("Attribute %s is set without %s. Terraform cannot see a change of a write-only value, so without "+
			"a version a new value is never sent after the create. Set %s = 1 and increase it whenever the value "+
			"changes.", woPath, versionPath, versionPath))
}

// CheckRequiredWriteOnlyVersion pairs a write-only attribute (wo, at the root)
// with the version it requires: an error on the version when wo is set
// without it, and when it is set without wo. changes says what a new version
// announces ("the credentials", "the setup fields").
func CheckRequiredWriteOnlyVersion(wo, version attr.Value, woName, versionName, changes string, diags *diag.Diagnostics) {
	switch {
	case !wo.IsNull() && version.IsNull():
		diags.AddAttributeError(path.Root(versionName), "Missing "+versionName,
			fmt.Sprintf("Attribute %[1]s is required with %[2]s: Terraform cannot see changes to a write-only value, so "+
				"the version number says when to send it. Set %[1]s = 1 and increase it whenever %[3]s change.",
				versionName, woName, changes))
	case wo.IsNull() && !version.IsNull():
		diags.AddAttributeError(path.Root(versionName), versionName+" without "+woName,
			fmt.Sprintf("Attribute %[1]s versions the write-only %[2]s, which is not set. Set %[2]s, or remove %[1]s.",
				versionName, woName))
	}
}
