package provider

// The checks of service_connected_account that span a user's accounts: the
// alias, unique per user and toolkit (at plan through the cached listing of
// the user's accounts, at apply before the write), and the duplicate ACTIVE
// account refused unless allow_multiple (at apply).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
)

// aliasHolder returns the account of accounts, other than except, that has
// alias among userID's accounts on toolkit, or nil.
func aliasHolder(accounts []client.ConnectedAccount, userID, toolkit, alias, except string) *client.ConnectedAccount {
	for i, a := range accounts {
		if a.ID != except && a.UserID == userID && strings.EqualFold(a.Toolkit.Slug, toolkit) &&
			a.Alias != nil && *a.Alias == alias && !strings.EqualFold(a.Status, statusDeleted) {
			return &accounts[i]
		}
	}
	return nil
}

// aliasTakenText explains that holder already has alias; outcome says what
// was not done ("No connected account was created.").
func aliasTakenText(alias, userID, toolkit string, holder *client.ConnectedAccount, outcome string) string {
	return fmt.Sprintf("Attribute alias: user %q already has connected account %s on toolkit %q with the alias %q "+
		"(status %s), and an alias is unique per user and toolkit. %s\n\n"+
		"Choose another alias, or first remove the alias from %s: remove `alias` from its resource's "+
		"configuration and apply, or clear it through the service's API (PATCH /connected_accounts/%s "+
		"with \"alias\": \"\").", userID, holder.ID, toolkit, alias, holder.Status, outcome, holder.ID, holder.ID)
}

// checkAliasAtPlan refuses, at plan, an alias (being set: a create, or a
// change in place) that another account of the user on toolkit already has,
// or that another service_connected_account of this plan gives the same
// user's account on the same toolkit. The user's accounts are listed through
// Cache (once per user per provider process). except is the account this
// plan changes, or replaces (the id the first half of a replacement left in
// the private data). A create without prior state may replace a tainted
// account that Terraform does not show the provider: when the holder is on
// the same auth config it may be that account, so the plan only warns, and
// Create, which lists again after the tainted account was deleted, refuses
// it before the write if it is still there.
func (r *connectedAccountResource) checkAliasAtPlan(ctx context.Context, req resource.ModifyPlanRequest, plan connectedAccountModel, toolkit, except string, diags *diag.Diagnostics) {
	if !r.data.Configured() || plan.Alias.IsNull() || plan.Alias.IsUnknown() || plan.UserID.IsNull() ||
		plan.UserID.IsUnknown() || toolkit == "" {
		return
	}
	userID, alias := plan.UserID.ValueString(), plan.Alias.ValueString()
	creating := req.State.Raw.IsNull()
	if creating {
		if v, d := req.Private.GetKey(ctx, privateKeyReplacedAccount); !d.HasError() && len(v) > 0 {
			_ = json.Unmarshal(v, &except)
		}
	}
	if !r.data.AliasClaims.claim(strings.Join([]string{userID, strings.ToLower(toolkit), alias}, "\x00")) {
		diags.AddAttributeError(path.Root("alias"), "Same alias as another connected account",
			fmt.Sprintf("Attribute alias: another service_connected_account in this plan gives user %q's account on "+
				"toolkit %q the alias %q, and an alias is unique per user and toolkit. Give each account its own alias.",
				userID, toolkit, alias))
		return
	}
	accounts, err := r.data.Cache.UserAccounts(ctx, userID)
	if err != nil {
		diagnostics.AddAPIErrorAt(diags, path.Root("alias"), "listing the accounts of user "+userID+" to check the alias of", connectedAccountType, except, err)
		return
	}
	holder := aliasHolder(accounts, userID, toolkit, alias, except)
	if holder == nil {
		return
	}
	if creating && except == "" && holder.AuthConfig.ID == plan.AuthConfigID.ValueString() {
		diags.AddAttributeWarning(path.Root("alias"), "Alias already used",
			fmt.Sprintf("Attribute alias: user %q's connected account %s on the same auth config already has the alias %q "+
				"(aliases are unique per user and toolkit). If that is the account this plan replaces (a tainted "+
				"account), the apply goes ahead once it is deleted; otherwise the apply stops before creating this "+
				"account. To be sure, give this account another alias.", userID, holder.ID, alias))
		return
	}
	outcome := "The plan stops here: nothing was created or changed."
	diags.AddAttributeError(path.Root("alias"), "Alias already used", aliasTakenText(alias, userID, toolkit, holder, outcome))
}

// checkBeforeCreate makes Create's one listing before the write, when an
// alias is set or allow_multiple is false, and refuses (false, nothing
// written) an alias another account of the user on the toolkit has, and a
// second ACTIVE account of the user on the auth config unless allow_multiple.
func checkBeforeCreate(ctx context.Context, c *client.Client, plan connectedAccountModel, diags *diag.Diagnostics) bool {
	userID, acID, alias := plan.UserID.ValueString(), plan.AuthConfigID.ValueString(), plan.Alias.ValueString()
	toolkit := ""
	if !plan.Toolkit.IsUnknown() {
		toolkit = plan.Toolkit.ValueString()
	}
	allowMultiple := plan.AllowMultiple.ValueBool()
	if (alias == "" || toolkit == "") && allowMultiple {
		return true
	}
	p := client.ConnectedAccountListParams{UserIDs: []string{userID}, AuthConfigIDs: []string{acID}, Statuses: []string{client.StatusActive}}
	if alias != "" && toolkit != "" {
		// One listing serves both checks: the user's accounts on the toolkit.
		p = client.ConnectedAccountListParams{UserIDs: []string{userID}, ToolkitSlugs: []string{toolkit}}
	}
	accounts, err := c.ListConnectedAccounts(ctx, p)
	if err != nil {
		diagnostics.AddAPIError(diags, "checking for existing accounts before creating", connectedAccountType, "", err)
		return false
	}
	ok := true
	if alias != "" && toolkit != "" {
		if holder := aliasHolder(accounts, userID, toolkit, alias, ""); holder != nil {
			diags.AddAttributeError(path.Root("alias"), "Alias already used",
				aliasTakenText(alias, userID, toolkit, holder, "No connected account was created."))
			ok = false
		}
	}
	if !allowMultiple {
		var existing []client.ConnectedAccount
		for _, a := range accounts {
			if a.UserID == userID && a.AuthConfig.ID == acID && strings.EqualFold(a.Status, client.StatusActive) {
				existing = append(existing, a)
			}
		}
		if len(existing) > 0 {
			addExistingAccountError(diags, userID, acID, existing)
			ok = false
		}
	}
	return ok
}

// isAliasConflict reports the service's refusal of an alias another account
// of the user on the toolkit has. The service documents the rule but not its
// answer: a 409, or a 400 naming the alias, after a request that sent one.
func isAliasConflict(err error) bool {
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	switch apiErr.StatusCode {
	case http.StatusConflict:
		return true
	case http.StatusBadRequest:
		return strings.Contains(strings.ToLower(apiErr.Slug+" "+apiErr.Message+" "+strings.Join(apiErr.Errors, " ")), "alias")
	}
	return false
}

// addAliasConflictAtApply reports the service's refusal of alias (the
// operation wrote nothing), naming the account that has it: one listing of
// the user's accounts on the toolkit finds it. id is the account whose alias
// was being set ("" on create).
func addAliasConflictAtApply(ctx context.Context, c *client.Client, userID, toolkit, alias, id string, err error, diags *diag.Diagnostics) {
	op, outcome := "updating the alias of", "The alias was not changed."
	if id == "" {
		op, outcome = "creating", "No connected account was created."
	}
	summary, detail := diagnostics.APIErrorText(op, connectedAccountType, id, err)
	lead := fmt.Sprintf("Attribute alias: the service refused the alias %q: another connected account of user %q on "+
		"toolkit %q has it (an alias is unique per user and toolkit). %s", alias, userID, toolkit, outcome)
	p := client.ConnectedAccountListParams{UserIDs: []string{userID}}
	if toolkit != "" {
		p.ToolkitSlugs = []string{toolkit}
	}
	if accounts, lerr := c.ListConnectedAccounts(ctx, p); lerr == nil {
		if holder := aliasHolder(accounts, userID, toolkit, alias, id); holder != nil {
			lead = aliasTakenText(alias, userID, toolkit, holder, outcome)
		}
	}
	diags.AddAttributeError(path.Root("alias"), summary, lead+"\n\n"+detail)
}

// addExistingAccountError refuses a duplicate account and explains how to
// import the existing one.
func addExistingAccountError(diags *diag.Diagnostics, userID, acID string, existing []client.ConnectedAccount) {
	ids := make([]string, 0, len(existing))
	for _, a := range existing {
		ids = append(ids, a.ID)
	}
	sort.Strings(ids)
	first := existing[0].ID
	diags.AddError("Connected account already exists",
		fmt.Sprintf("User %q already has an ACTIVE connected account for auth config %s: %s. A second account was not "+
			"created.\n\n"+
			"To manage the existing account with this resource, import it (replace <name> with this resource's name):\n\n"+
			"  terraform import %s.<name> %s\n\n"+
			"or add an import block and apply:\n\n"+
			"  import {\n    to = %s.<name>\n    id = %q\n  }\n\n"+
			"To create another account for the same user and auth config anyway, set allow_multiple = true.",
			userID, acID, strings.Join(ids, ", "), connectedAccountType, first, connectedAccountType, first))
}
