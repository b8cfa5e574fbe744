package leanrpc

import (
	"context"
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// compiled is one resource type, its schema walked once.
type compiled struct {
	typeName string
	factory  func() resource.Resource
	schema   schema.Schema
	tfType   tftypes.Object
	attrs    []*node // sorted by name
	// importHint: the resource implements ImportState (the framework's
	// "Missing Resource State After Create" detail mentions import then).
	importHint bool
	numbers    bool // some attribute holds numbers
}

// node is one attribute: what the framework would look up along its path on
// every call, resolved once.
type node struct {
	name                                    string
	typ                                     attr.Type
	tfType                                  tftypes.Type
	required, optional, computed, writeOnly bool
	deprecation                             string
	children                                []*node // single nested attribute: its attributes, sorted
	// numbers: the value holds numbers, which may not convert (see
	// convertible).
	numbers bool

	validate func(ctx context.Context, in validateIn) diag.Diagnostics // nil without validators
	modify   func(ctx context.Context, in modifyIn) modifyOut          // nil without plan modifiers
	deflt    func(ctx context.Context, p path.Path) (attr.Value, diag.Diagnostics)
}

type validateIn struct {
	value  attr.Value
	path   path.Path
	expr   path.Expression
	config tfsdk.Config
	caps   validator.ValidateSchemaClientCapabilities
}

type modifyIn struct {
	config, plan, state attr.Value
	path                path.Path
	expr                path.Expression
	rawConfig           tfsdk.Config
	rawPlan             tfsdk.Plan
	rawState            tfsdk.State
}

type modifyOut struct {
	plan            attr.Value
	requiresReplace bool
	diags           diag.Diagnostics
}

// compile resolves a resource's schema, or says why this package cannot
// serve it (the framework then serves it unchanged).
func compile(ctx context.Context, providerTypeName string, factory func() resource.Resource) (*compiled, error) {
	r := factory()
	var md resource.MetadataResponse
	r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: providerTypeName}, &md)
	var sr resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sr)
	if sr.Diagnostics.HasError() {
		return nil, fmt.Errorf("%s: schema has errors", md.TypeName)
	}
	if _, ok := r.(resource.ResourceWithIdentity); ok {
		return nil, fmt.Errorf("%s: resource identity is not supported", md.TypeName)
	}
	if len(sr.Schema.Blocks) > 0 {
		return nil, fmt.Errorf("%s: blocks are not supported", md.TypeName)
	}
	if sr.Schema.DeprecationMessage != "" {
		return nil, fmt.Errorf("%s: deprecated resources are not supported", md.TypeName)
	}
	c := &compiled{typeName: md.TypeName, factory: factory, schema: sr.Schema}
	c.tfType, _ = sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	_, c.importHint = r.(resource.ResourceWithImportState)
	var err error
	if c.attrs, err = compileAttrs(sr.Schema.Attributes); err != nil {
		return nil, fmt.Errorf("%s: %w", md.TypeName, err)
	}
	for _, n := range c.attrs {
		c.numbers = c.numbers || n.numbers
	}
	return c, nil
}

func compileAttrs(attrs map[string]schema.Attribute) ([]*node, error) {
	out := make([]*node, 0, len(attrs))
	for name, a := range attrs {
		n, err := compileAttr(name, a)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

func compileAttr(name string, a schema.Attribute) (*node, error) {
	ctx := context.Background()
	n := &node{
		name: name, typ: a.GetType(), required: a.IsRequired(), optional: a.IsOptional(), computed: a.IsComputed(),
		writeOnly: a.IsWriteOnly(), deprecation: a.GetDeprecationMessage(),
	}
	n.tfType = n.typ.TerraformType(ctx)
	n.numbers = holdsNumbers(n.tfType)
	if !standardType(n.typ) {
		return nil, fmt.Errorf("attribute %q: type %s is not supported", name, n.typ)
	}
	switch a := a.(type) {
	case schema.StringAttribute:
		n.validate = validators(a.Validators, func(ctx context.Context, v validator.String, in validateIn, val types.String) diag.Diagnostics {
			resp := &validator.StringResponse{}
			v.ValidateString(ctx, validator.StringRequest{ClientCapabilities: in.caps, Config: in.config, ConfigValue: val, Path: in.path, PathExpression: in.expr}, resp)
			return resp.Diagnostics
		})
		n.modify = modifiers(a.PlanModifiers, func(ctx context.Context, m planmodifier.String, in modifyIn, c, p, s types.String) (types.String, bool, diag.Diagnostics) {
			resp := &planmodifier.StringResponse{PlanValue: p}
			m.PlanModifyString(ctx, planmodifier.StringRequest{Config: in.rawConfig, ConfigValue: c, Path: in.path, PathExpression: in.expr,
				Plan: in.rawPlan, PlanValue: p, State: in.rawState, StateValue: s}, resp)
			return resp.PlanValue, resp.RequiresReplace, resp.Diagnostics
		})
		if d := a.Default; d != nil {
			n.deflt = func(ctx context.Context, p path.Path) (attr.Value, diag.Diagnostics) {
				resp := defaults.StringResponse{}
				d.DefaultString(ctx, defaults.StringRequest{Path: p}, &resp)
				return resp.PlanValue, resp.Diagnostics
			}
		}
	case schema.BoolAttribute:
		n.validate = validators(a.Validators, func(ctx context.Context, v validator.Bool, in validateIn, val types.Bool) diag.Diagnostics {
			resp := &validator.BoolResponse{}
			v.ValidateBool(ctx, validator.BoolRequest{ClientCapabilities: in.caps, Config: in.config, ConfigValue: val, Path: in.path, PathExpression: in.expr}, resp)
			return resp.Diagnostics
		})
		n.modify = modifiers(a.PlanModifiers, func(ctx context.Context, m planmodifier.Bool, in modifyIn, c, p, s types.Bool) (types.Bool, bool, diag.Diagnostics) {
			resp := &planmodifier.BoolResponse{PlanValue: p}
			m.PlanModifyBool(ctx, planmodifier.BoolRequest{Config: in.rawConfig, ConfigValue: c, Path: in.path, PathExpression: in.expr,
				Plan: in.rawPlan, PlanValue: p, State: in.rawState, StateValue: s}, resp)
			return resp.PlanValue, resp.RequiresReplace, resp.Diagnostics
		})
		if d := a.Default; d != nil {
			n.deflt = func(ctx context.Context, p path.Path) (attr.Value, diag.Diagnostics) {
				resp := defaults.BoolResponse{}
				d.DefaultBool(ctx, defaults.BoolRequest{Path: p}, &resp)
				return resp.PlanValue, resp.Diagnostics
			}
		}
	case schema.Int64Attribute:
		n.validate = validators(a.Validators, func(ctx context.Context, v validator.Int64, in validateIn, val types.Int64) diag.Diagnostics {
			resp := &validator.Int64Response{}
			v.ValidateInt64(ctx, validator.Int64Request{ClientCapabilities: in.caps, Config: in.config, ConfigValue: val, Path: in.path, PathExpression: in.expr}, resp)
			return resp.Diagnostics
		})
		n.modify = modifiers(a.PlanModifiers, func(ctx context.Context, m planmodifier.Int64, in modifyIn, c, p, s types.Int64) (types.Int64, bool, diag.Diagnostics) {
			resp := &planmodifier.Int64Response{PlanValue: p}
			m.PlanModifyInt64(ctx, planmodifier.Int64Request{Config: in.rawConfig, ConfigValue: c, Path: in.path, PathExpression: in.expr,
				Plan: in.rawPlan, PlanValue: p, State: in.rawState, StateValue: s}, resp)
			return resp.PlanValue, resp.RequiresReplace, resp.Diagnostics
		})
		if d := a.Default; d != nil {
			n.deflt = func(ctx context.Context, p path.Path) (attr.Value, diag.Diagnostics) {
				resp := defaults.Int64Response{}
				d.DefaultInt64(ctx, defaults.Int64Request{Path: p}, &resp)
				return resp.PlanValue, resp.Diagnostics
			}
		}
	case schema.Float64Attribute:
		n.validate = validators(a.Validators, func(ctx context.Context, v validator.Float64, in validateIn, val types.Float64) diag.Diagnostics {
			resp := &validator.Float64Response{}
			v.ValidateFloat64(ctx, validator.Float64Request{ClientCapabilities: in.caps, Config: in.config, ConfigValue: val, Path: in.path, PathExpression: in.expr}, resp)
			return resp.Diagnostics
		})
		n.modify = modifiers(a.PlanModifiers, func(ctx context.Context, m planmodifier.Float64, in modifyIn, c, p, s types.Float64) (types.Float64, bool, diag.Diagnostics) {
			resp := &planmodifier.Float64Response{PlanValue: p}
			m.PlanModifyFloat64(ctx, planmodifier.Float64Request{Config: in.rawConfig, ConfigValue: c, Path: in.path, PathExpression: in.expr,
				Plan: in.rawPlan, PlanValue: p, State: in.rawState, StateValue: s}, resp)
			return resp.PlanValue, resp.RequiresReplace, resp.Diagnostics
		})
		if d := a.Default; d != nil {
			n.deflt = func(ctx context.Context, p path.Path) (attr.Value, diag.Diagnostics) {
				resp := defaults.Float64Response{}
				d.DefaultFloat64(ctx, defaults.Float64Request{Path: p}, &resp)
				return resp.PlanValue, resp.Diagnostics
			}
		}
	case schema.ListAttribute:
		n.validate = validators(a.Validators, func(ctx context.Context, v validator.List, in validateIn, val types.List) diag.Diagnostics {
			resp := &validator.ListResponse{}
			v.ValidateList(ctx, validator.ListRequest{ClientCapabilities: in.caps, Config: in.config, ConfigValue: val, Path: in.path, PathExpression: in.expr}, resp)
			return resp.Diagnostics
		})
		n.modify = modifiers(a.PlanModifiers, func(ctx context.Context, m planmodifier.List, in modifyIn, c, p, s types.List) (types.List, bool, diag.Diagnostics) {
			resp := &planmodifier.ListResponse{PlanValue: p}
			m.PlanModifyList(ctx, planmodifier.ListRequest{Config: in.rawConfig, ConfigValue: c, Path: in.path, PathExpression: in.expr,
				Plan: in.rawPlan, PlanValue: p, State: in.rawState, StateValue: s}, resp)
			return resp.PlanValue, resp.RequiresReplace, resp.Diagnostics
		})
		if d := a.Default; d != nil {
			n.deflt = func(ctx context.Context, p path.Path) (attr.Value, diag.Diagnostics) {
				resp := defaults.ListResponse{}
				d.DefaultList(ctx, defaults.ListRequest{Path: p}, &resp)
				return resp.PlanValue, resp.Diagnostics
			}
		}
	case schema.SetAttribute:
		n.validate = validators(a.Validators, func(ctx context.Context, v validator.Set, in validateIn, val types.Set) diag.Diagnostics {
			resp := &validator.SetResponse{}
			v.ValidateSet(ctx, validator.SetRequest{ClientCapabilities: in.caps, Config: in.config, ConfigValue: val, Path: in.path, PathExpression: in.expr}, resp)
			return resp.Diagnostics
		})
		n.modify = modifiers(a.PlanModifiers, func(ctx context.Context, m planmodifier.Set, in modifyIn, c, p, s types.Set) (types.Set, bool, diag.Diagnostics) {
			resp := &planmodifier.SetResponse{PlanValue: p}
			m.PlanModifySet(ctx, planmodifier.SetRequest{Config: in.rawConfig, ConfigValue: c, Path: in.path, PathExpression: in.expr,
				Plan: in.rawPlan, PlanValue: p, State: in.rawState, StateValue: s}, resp)
			return resp.PlanValue, resp.RequiresReplace, resp.Diagnostics
		})
		if d := a.Default; d != nil {
			n.deflt = func(ctx context.Context, p path.Path) (attr.Value, diag.Diagnostics) {
				resp := defaults.SetResponse{}
				d.DefaultSet(ctx, defaults.SetRequest{Path: p}, &resp)
				return resp.PlanValue, resp.Diagnostics
			}
		}
	case schema.MapAttribute:
		n.validate = validators(a.Validators, func(ctx context.Context, v validator.Map, in validateIn, val types.Map) diag.Diagnostics {
			resp := &validator.MapResponse{}
			v.ValidateMap(ctx, validator.MapRequest{ClientCapabilities: in.caps, Config: in.config, ConfigValue: val, Path: in.path, PathExpression: in.expr}, resp)
			return resp.Diagnostics
		})
		n.modify = modifiers(a.PlanModifiers, func(ctx context.Context, m planmodifier.Map, in modifyIn, c, p, s types.Map) (types.Map, bool, diag.Diagnostics) {
			resp := &planmodifier.MapResponse{PlanValue: p}
			m.PlanModifyMap(ctx, planmodifier.MapRequest{Config: in.rawConfig, ConfigValue: c, Path: in.path, PathExpression: in.expr,
				Plan: in.rawPlan, PlanValue: p, State: in.rawState, StateValue: s}, resp)
			return resp.PlanValue, resp.RequiresReplace, resp.Diagnostics
		})
		if d := a.Default; d != nil {
			n.deflt = func(ctx context.Context, p path.Path) (attr.Value, diag.Diagnostics) {
				resp := defaults.MapResponse{}
				d.DefaultMap(ctx, defaults.MapRequest{Path: p}, &resp)
				return resp.PlanValue, resp.Diagnostics
			}
		}
	case schema.SingleNestedAttribute:
		if a.CustomType != nil {
			return nil, fmt.Errorf("attribute %q: custom types are not supported", name)
		}
		n.validate = validators(a.Validators, func(ctx context.Context, v validator.Object, in validateIn, val types.Object) diag.Diagnostics {
			resp := &validator.ObjectResponse{}
			v.ValidateObject(ctx, validator.ObjectRequest{ClientCapabilities: in.caps, Config: in.config, ConfigValue: val, Path: in.path, PathExpression: in.expr}, resp)
			return resp.Diagnostics
		})
		n.modify = modifiers(a.PlanModifiers, func(ctx context.Context, m planmodifier.Object, in modifyIn, c, p, s types.Object) (types.Object, bool, diag.Diagnostics) {
			resp := &planmodifier.ObjectResponse{PlanValue: p}
			m.PlanModifyObject(ctx, planmodifier.ObjectRequest{Config: in.rawConfig, ConfigValue: c, Path: in.path, PathExpression: in.expr,
				Plan: in.rawPlan, PlanValue: p, State: in.rawState, StateValue: s}, resp)
			return resp.PlanValue, resp.RequiresReplace, resp.Diagnostics
		})
		if d := a.Default; d != nil {
			n.deflt = func(ctx context.Context, p path.Path) (attr.Value, diag.Diagnostics) {
				resp := defaults.ObjectResponse{}
				d.DefaultObject(ctx, defaults.ObjectRequest{Path: p}, &resp)
				return resp.PlanValue, resp.Diagnostics
			}
		}
		var err error
		if n.children, err = compileAttrs(a.Attributes); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("attribute %q: %T is not supported", name, a)
	}
	return n, nil
}

// standardType: the framework's own types, which have no semantic equality
// and convert with the plain basetypes.
func standardType(t attr.Type) bool {
	switch t := t.(type) {
	case basetypes.StringType, basetypes.BoolType, basetypes.Int64Type, basetypes.Float64Type:
		return true
	case types.ListType:
		return standardType(t.ElemType)
	case types.SetType:
		return standardType(t.ElemType)
	case types.MapType:
		return standardType(t.ElemType)
	case types.ObjectType:
		for _, at := range t.AttrTypes {
			if !standardType(at) {
				return false
			}
		}
		return true
	}
	return false
}

// holdsNumbers: t is or contains a number.
func holdsNumbers(t tftypes.Type) bool {
	switch t := t.(type) {
	case tftypes.List:
		return holdsNumbers(t.ElementType)
	case tftypes.Set:
		return holdsNumbers(t.ElementType)
	case tftypes.Map:
		return holdsNumbers(t.ElementType)
	case tftypes.Object:
		for _, at := range t.AttributeTypes {
			if holdsNumbers(at) {
				return true
			}
		}
		return false
	}
	return t.Is(tftypes.Number)
}

// validators runs each validator in turn on the typed value, as the
// framework does.
func validators[V any, T attr.Value](vs []V, run func(context.Context, V, validateIn, T) diag.Diagnostics) func(context.Context, validateIn) diag.Diagnostics {
	if len(vs) == 0 {
		return nil
	}
	return func(ctx context.Context, in validateIn) diag.Diagnostics {
		val, ok := in.value.(T)
		if !ok {
			return diag.Diagnostics{diag.NewAttributeErrorDiagnostic(in.path, "Provider bug",
				fmt.Sprintf("Unexpected value type %T. Please report this to the provider developers.", in.value))}
		}
		var diags diag.Diagnostics
		for _, v := range vs {
			diags.Append(run(ctx, v, in, val)...)
		}
		return diags
	}
}

// modifiers runs the plan modifiers in turn, each seeing the plan the one
// before left, and stops at the first error (the framework's order).
func modifiers[M any, T attr.Value](ms []M, run func(context.Context, M, modifyIn, T, T, T) (T, bool, diag.Diagnostics)) func(context.Context, modifyIn) modifyOut {
	if len(ms) == 0 {
		return nil
	}
	return func(ctx context.Context, in modifyIn) modifyOut {
		c, ok1 := in.config.(T)
		p, ok2 := in.plan.(T)
		s, ok3 := in.state.(T)
		out := modifyOut{plan: in.plan}
		if !ok1 || !ok2 || !ok3 {
			out.diags.AddAttributeError(in.path, "Provider bug", "Unexpected value type in plan modification. Please report this to the provider developers.")
			return out
		}
		for _, m := range ms {
			next, replace, diags := run(ctx, m, in, c, p, s)
			p = next
			out.diags.Append(diags...)
			if replace {
				out.requiresReplace = true
			}
			if diags.HasError() {
				return out
			}
			out.plan = p
		}
		return out
	}
}
