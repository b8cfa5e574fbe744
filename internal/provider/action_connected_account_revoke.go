package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

var _ action.ActionWithConfigure = (*connectedAccountRevokeAction)(nil)

// NewConnectedAccountRevokeAction returns the service_connected_account_revoke
// action.
func NewConnectedAccountRevokeAction() action.Action {
	return &connectedAccountRevokeAction{actionBase{typeNamed("connected_account_revoke")}}
}

type connectedAccountRevokeAction struct{ actionBase }

type connectedAccountRevokeModel struct {
	ConnectedAccountID types.String `tfsdk:"connected_account_id"`
}

func (a *connectedAccountRevokeAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Revokes a connected account's tokens at the upstream provider (GitHub, Slack, Google, " +
			"...) and keeps the account: it reads `status = \"REVOKED\"` afterwards, and its credentials no longer " +
			"work or are served. Revoking an account that is already `REVOKED` succeeds without revoking anything. " +
			"Needs Terraform 1.14 or later (OpenTofu has no actions): run it with " +
			"`terraform apply -invoke=action.service_connected_account_revoke.<name>`, or from a resource's " +
			"`lifecycle { action_trigger { ... } }` (the `before_destroy` event needs Terraform 1.16 or later).\n\n" +
			"The service refuses an account that is neither `ACTIVE` nor `REVOKED` (say `INITIATED` or `EXPIRED`: " +
			"it holds no working token), an unknown account, and an account of a toolkit whose provider cannot " +
			"revoke tokens programmatically; each is reported with what to do. A `service_connected_account` that " +
			"manages the revoked account plans no change for it (like an `EXPIRED` account); to connect the user " +
			"again, replace it (`terraform apply -replace=...`). To revoke as part of deleting the account instead, " +
			"set the resource's `revoke_on_delete = true`.",
		Attributes: map[string]schema.Attribute{
			"connected_account_id": schema.StringAttribute{
				MarkdownDescription: "Identifier of the connected account to revoke (`ca_...`), for example " +
					"`service_connected_account.example.id`.",
				Required:   true,
				Validators: []validator.String{validators.ObjectID("ca_")},
			},
		},
	}
}

func (a *connectedAccountRevokeAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	if !requireClient(a.data, &resp.Diagnostics) {
		return
	}
	var m connectedAccountRevokeModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := m.ConnectedAccountID.ValueString()
	progress := func(format string, args ...any) {
		if resp.SendProgress != nil {
			resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf(format, args...)})
		}
	}
	progress("Revoking the upstream tokens of connected account %s", id)
	res, err := a.data.Client.RevokeConnectedAccount(ctx, id)
	if err != nil {
		// Terraform prints a failed action's error diagnostic whole twice:
		// in its "Action failed: <summary>: <detail>" line and as the
		// error itself. The explanation and the service's answer go out
		// once, as the action's progress; the error is its summary.
		summary, detail := revokeErrorText(id, err)
		if resp.SendProgress != nil {
			progress("%s: %s", summary, detail)
			resp.Diagnostics.AddAttributeError(path.Root("connected_account_id"), summary, "")
			return
		}
		resp.Diagnostics.AddAttributeError(path.Root("connected_account_id"), summary, detail)
		return
	}
	if len(res.RevokedTokens) == 0 {
		progress("Connected account %s was already REVOKED: nothing left to revoke", id)
		return
	}
	progress("Connected account %s is %s: revoked %s at the provider", id, res.ConnectedAccount.Status,
		strings.Join(res.RevokedTokens, ", "))
}

// revokeErrorText says what a refused revocation means and what to do: the
// service's 400 (the toolkit cannot revoke), 404 and 409 (neither ACTIVE nor
// REVOKED), followed by the service's message and request id.
func revokeErrorText(id string, err error) (summary, detail string) {
	summary, detail = diagnostics.APIErrorText("revoking", "connected account", id, err)
	lead := ""
	var apiErr *client.APIError
	if errors.As(err, &apiErr) {
		switch apiErr.StatusCode {
		case http.StatusBadRequest:
			summary = "Toolkit cannot revoke: connected account " + id + " not revoked"
			lead = "The toolkit of connected account " + id + " offers no way to revoke its tokens programmatically, so " +
				"nothing was revoked and the account is unchanged. Revoke the access at the provider itself (for example " +
				"in the user's connected apps or API key settings there), then delete the connected account; " +
				"revoke_on_delete cannot revoke it either."
		case http.StatusNotFound:
			summary = "Connected account " + id + " not found"
			lead = "The service has no connected account " + id + " in this project: nothing was revoked. Check " +
				"connected_account_id (the service_connected_accounts data source lists the project's accounts); an " +
				"account deleted outside Terraform cannot be revoked."
		case http.StatusConflict:
			summary = "Connected account " + id + " cannot be revoked in its status"
			lead = "Connected account " + id + " is neither ACTIVE nor REVOKED (for example INITIATED, FAILED, EXPIRED " +
				"or INACTIVE): the service only revokes an ACTIVE account, and such an account holds no working token " +
				"to revoke. Nothing was changed. Check its status (service_connected_account's status, or the " +
				"service_connected_accounts data source); to get rid of it, delete it, or reconnect it first if its " +
				"tokens must be revoked."
		}
	}
	if lead != "" {
		detail = lead + "\n\n" + detail
	}
	return summary, detail
}
