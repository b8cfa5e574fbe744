package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// writeOnlyWithoutVersion warns about a write-only attribute set without the
// attribute that versions it: Terraform never shows a change of a write-only
// value, so without a version a new value is never sent after the create.
// (Where the version is required, as for service_auth_config's
// credentials_wo and shared_credentials_wo, ValidateConfig reports an error
// instead.)
type writeOnlyWithoutVersion struct {
	writeOnly, version path.Path
}

func (v writeOnlyWithoutVersion) Description(ctx context.Context) string {
	return v.MarkdownDescription(ctx)
}

func (v writeOnlyWithoutVersion) MarkdownDescription(context.Context) string {
	return fmt.Sprintf("warns when `%s` is set without `%s`", v.writeOnly, v.version)
}

func (v writeOnlyWithoutVersion) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var wo, version attr.Value
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, v.writeOnly, &wo)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, v.version, &version)...)
	if resp.Diagnostics.HasError() || wo == nil || version == nil {
		return
	}
	addWriteOnlyVersionWarning(wo, version, v.writeOnly, v.version, &resp.Diagnostics)
}

// addWriteOnlyVersionWarning adds the warning of writeOnlyWithoutVersion,
// on the write-only attribute's own path, when wo is set and version is null.
func addWriteOnlyVersionWarning(wo, version attr.Value, woPath, versionPath path.Path, diags interface {
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
