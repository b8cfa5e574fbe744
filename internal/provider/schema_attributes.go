package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

// Attributes that several resources declare alike.

// idAttribute is a resource's "id": given by the service, kept from the state
// across plans (UseStateForUnknown), what the resource is imported by.
func idAttribute(desc string) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: desc,
		Computed:            true,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// userIDAttribute is a resource's "user_id": required, checked by
// validators.UserID, and changing it replaces the resource.
func userIDAttribute(desc string) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: desc,
		Required:            true,
		Validators:          []validator.String{validators.UserID()},
		PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
	}
}
