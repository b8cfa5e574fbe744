package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/destroyrun"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

const connectedAccountCredentialsType = "service_connected_account_credentials"

var _ ephemeral.EphemeralResourceWithConfigure = (*connectedAccountCredentialsEphemeral)(nil)

// NewConnectedAccountCredentialsEphemeralResource returns the
// service_connected_account_credentials ephemeral resource.
func NewConnectedAccountCredentialsEphemeralResource() ephemeral.EphemeralResource {
	return &connectedAccountCredentialsEphemeral{ephemeralBase{typeNamed("connected_account_credentials")}}
}

type connectedAccountCredentialsEphemeral struct{ ephemeralBase }

type connectedAccountCredentialsModel struct {
	ConnectedAccountID types.String `tfsdk:"connected_account_id"`
	Status             types.String `tfsdk:"status"`
	AuthScheme         types.String `tfsdk:"auth_scheme"`
	Toolkit            types.String `tfsdk:"toolkit"`
	UserID             types.String `tfsdk:"user_id"`
	Values             types.Map    `tfsdk:"values"`
}

func (e *connectedAccountCredentialsEphemeral) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The connection data of an `ACTIVE` connected account (for example the OAuth " +
			"`access_token` of a user's GitHub or Slack connection), read at plan and apply time to configure " +
			"another provider, and never stored in the plan or the state (Terraform 1.10 or later).\n\n" +
			"The values are what the service returns for the account: a project that masks connected account " +
			"secrets returns masked values. An account that is not `ACTIVE`, or is disabled, is only a warning: " +
			"`values` is then empty (read it with `lookup()` or `try()`), so a plan or a `terraform destroy` after a " +
			"revocation or an expiry goes on. During `terraform destroy` (and the teardown of `terraform test` and " +
			"`tofu test`) an account that cannot be read at all (deleted, say) is a warning too, with `values` empty " +
			"and the other attributes null.",
		Attributes: map[string]schema.Attribute{
			"connected_account_id": schema.StringAttribute{
				MarkdownDescription: "Connected account id (`ca_...`).",
				Required:            true,
				Validators:          []validator.String{validators.ObjectID("ca_")},
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "Status of the account: `ACTIVE`, or the status that left `values` empty (`REVOKED`, " +
					"`EXPIRED`, `INITIATED`...; see the resource's description).",
				Computed: true,
			},
			"auth_scheme": schema.StringAttribute{
				MarkdownDescription: "Authentication scheme of the connection, e.g. `OAUTH2` or `API_KEY`.",
				Computed:            true,
			},
			"toolkit": schema.StringAttribute{
				MarkdownDescription: "Slug of the account's toolkit, e.g. `github`.",
				Computed:            true,
			},
			"user_id": schema.StringAttribute{
				MarkdownDescription: "External id of the user who owns the account.",
				Computed:            true,
			},
			"values": schema.MapAttribute{
				MarkdownDescription: "Connection data by field name, e.g. `access_token`, `token_type` or `api_key`. " +
					"Values that are not strings are JSON-encoded.",
				Computed:    true,
				Sensitive:   true,
				ElementType: types.StringType,
			},
		},
	}
}

func (e *connectedAccountCredentialsEphemeral) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	if !readReady(ctx, e.data, connectedAccountCredentialsType, &resp.Diagnostics) {
		return
	}
	var m connectedAccountCredentialsModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := m.ConnectedAccountID.ValueString()
	a, err := e.data.Client.GetConnectedAccount(ctx, id)
	if err != nil {
		if d := destroyrun.Detect(ctx); d != destroyrun.Destroying && d != destroyrun.InTest {
			diagnostics.AddAPIErrorAt(&resp.Diagnostics, path.Root("connected_account_id"), "reading", connectedAccountCredentialsType, id, err)
			return
		}
		// A destroy (or a test's teardown) must not stop here: whatever reads
		// these values gets none, and says so if it needs them.
		var read diag.Diagnostics
		diagnostics.AddAPIErrorAt(&read, path.Root("connected_account_id"), "reading", connectedAccountCredentialsType, id, err)
		resp.Diagnostics.AddAttributeWarning(path.Root("connected_account_id"), "Connected account not read",
			read.Errors()[0].Detail()+"\n\nTerraform is destroying (or tearing a test down), so this is not an error: "+
				"values is empty and status, auth_scheme, toolkit and user_id are null.")
		m.Values = types.MapValueMust(types.StringType, map[string]attr.Value{})
		m.Status, m.AuthScheme, m.Toolkit, m.UserID = types.StringNull(), types.StringNull(), types.StringNull(), types.StringNull()
		resp.Diagnostics.Append(codec.Set(ctx, &resp.Result, &m)...)
		return
	}
	m.Status = types.StringValue(a.Status)
	m.Toolkit = types.StringValue(a.Toolkit.Slug)
	m.UserID = types.StringValue(a.UserID)
	if a.Status != client.StatusActive || a.IsDisabled {
		// Not an error: a revoked or expired account must not stop a plan or
		// a destroy of the configuration that reads it (offboarding a user is
		// revoke, then destroy). Nothing secret is in the warning.
		state := a.Status
		if a.IsDisabled {
			state += " and disabled"
		}
		reason := ""
		if a.StatusReason != "" {
			reason = fmt.Sprintf(" (%s)", a.StatusReason)
		}
		resp.Diagnostics.AddAttributeWarning(path.Root("connected_account_id"), "Connected account is not usable",
			fmt.Sprintf("Attribute connected_account_id: connected account %s of user %q is %s%s, so it has no usable "+
				"credentials: values is empty (read it with lookup() or try() so that expressions still evaluate), and "+
				"whatever needs a credential from it will fail. Only ACTIVE, enabled accounts have credentials: "+
				"complete or renew the connection (for example with a new service_connected_account), or remove this "+
				"ephemeral block.", id, a.UserID, state, reason))
		m.AuthScheme = types.StringValue(a.AuthConfig.AuthScheme)
		if a.State != nil && a.State.AuthScheme != "" {
			m.AuthScheme = types.StringValue(a.State.AuthScheme)
		}
		m.Values = types.MapValueMust(types.StringType, map[string]attr.Value{})
		resp.Diagnostics.Append(codec.Set(ctx, &resp.Result, &m)...)
		return
	}
	values := map[string]string{}
	scheme := a.AuthConfig.AuthScheme
	if a.State != nil {
		if a.State.AuthScheme != "" {
			scheme = a.State.AuthScheme
		}
		for k, v := range a.State.Val {
			if k == "status" || v == nil {
				continue
			}
			if s, ok := v.(string); ok {
				values[k] = s
				continue
			}
			b, err := json.Marshal(v)
			if err != nil {
				continue
			}
			values[k] = string(b)
		}
	}
	vm, diags := types.MapValueFrom(ctx, types.StringType, values)
	resp.Diagnostics.Append(diags...)
	m.AuthScheme = types.StringValue(scheme)
	m.Values = vm
	resp.Diagnostics.Append(codec.Set(ctx, &resp.Result, &m)...)
}
