// Package codec moves values between the plugin framework (tfsdk.Config,
// Plan, State, ResourceIdentity, EphemeralResultData) and a model struct, as
// the framework's Get and Set do, at a fraction of their cost.
//
// # The rule
//
// Every Terraform type of the provider (resource, data source, list
// resource, action, ephemeral resource, and the provider's Configure) moves
// values between the framework and its model this way, and no other:
//
//   - A whole model is read with Get (from a Config, Plan, State or
//     Identity) and written with Set (to a State, Plan, Identity or
//     ephemeral Result); never with the framework's own Get and Set.
//   - A few attributes of a model are read with GetAttributes, into the
//     model's fields, where reading the whole model would be waste: in
//     ModifyPlan, plan modifiers, ValidateConfig and Delete. The caller
//     lists every attribute it (and the helpers it passes the model to)
//     reads, and says so in a comment.
//   - Several top-level attributes written into a plan or state at once
//     (ModifyPlan, a partial state in Create) go through Replace, which
//     rebuilds the object once, with the schema's types computed once per
//     resource type (TypesOf in a sync.OnceValue).
//   - The framework's GetAttribute and SetAttribute remain for one value by
//     path outside any model: attribute validators and plan modifiers, which
//     are given a path; the id written alone into a state (ImportState, a
//     Create that fails part-way, a list result); a single attribute a
//     ModifyPlan branch writes into the plan.
//
// Copying a service object into a model has one shape too, a method of the
// model in the resource's file: `func (m *xModel) fill(ctx context.Context,
// obj *client.X) diag.Diagnostics`, called by the resource's Create, Read
// and Update and by the list resource that copies the same object. Extra
// inputs only where the object lacks them: the MCP server's fill takes the
// toolkits of its auth configs. Where Read needs more than the object (a
// lookup after an import, a type check), `fillRead` does that and calls fill.
package codec
