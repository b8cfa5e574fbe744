// Package codec moves values between the plugin framework (tfsdk.Config,
// Plan, State, ResourceIdentity, EphemeralResultData) and a model struct, as
// the framework's Get and Set do, at a fraction of their cost.
package codec
