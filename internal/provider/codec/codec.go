package codec

import (
	"context"
	"iter"
	"maps"
	"reflect"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Get and Set are Get and Set of tfsdk.State, Plan, Config, ResourceIdentity
// and EphemeralResultData for a model (a struct of attr.Value fields tagged `tfsdk:"name"`),
// with the same result and diagnostics, at a fraction of the cost.
//
// The framework's Get and Set of a struct (terraform-plugin-framework
// v1.19, internal/reflect getStructTags) compile a regular expression for
// every field of the struct, in every call, to check the tag's name: for a
// model of 20 attributes that is most of the cost of a Read (a Get and a
// Set) beyond the HTTP request, in every resource of every refresh.
// They read the tags once per struct type and convert each
// attribute through its schema type, as the framework does (including
// xattr.ValidateableAttribute, so jsontypes.Normalized still checks its
// JSON). Whatever they do not handle (a field that is not an attr.Value, a
// struct that does not match the schema, blocks) goes to the framework's
// own Get or Set, whose diagnostics then name the problem.

// modelLayout is what Get and Set know of a model struct type.
type modelLayout struct {
	index map[string]int // attribute name -> field index
	plain bool           // every tagged field is an attr.Value, no embedded structs
}

var modelLayouts sync.Map // reflect.Type -> *modelLayout

var attrValueType = reflect.TypeFor[attr.Value]()

func layoutOf(t reflect.Type) *modelLayout {
	if l, ok := modelLayouts.Load(t); ok {
		if ml, ok := l.(*modelLayout); ok { // only layouts are stored
			return ml
		}
	}
	l := &modelLayout{index: map[string]int{}, plain: true}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			l.plain = false
			continue
		}
		name, ok := f.Tag.Lookup("tfsdk")
		if !ok || name == "-" || !f.IsExported() {
			continue
		}
		if !f.Type.Implements(attrValueType) {
			l.plain = false
		}
		l.index[name] = i
	}
	modelLayouts.Store(t, l)
	return l
}

// modelData is the part of a tfsdk.State, Plan, Config, ResourceIdentity
// or EphemeralResultData that Get reads.
type modelData struct {
	raw    tftypes.Value
	count  int  // number of attributes
	blocks bool // the schema has blocks
	typeOf func(name string) (attr.Type, bool)
	get    func(context.Context, any) diag.Diagnostics
}

func modelDataOf(src any) (modelData, bool) {
	// The three share their fields; a Plan holds those of any of them. Get
	// stays the original's, whose diagnostics name what was read.
	var p tfsdk.Plan
	var get func(context.Context, any) diag.Diagnostics
	switch s := src.(type) { // a pointer (UpgradeStateRequest.State, ImportStateRequest.Identity) reads as its value
	case *tfsdk.State:
		return modelDataOf(*s)
	case *tfsdk.Plan:
		return modelDataOf(*s)
	case *tfsdk.Config:
		return modelDataOf(*s)
	case *tfsdk.ResourceIdentity:
		return modelDataOf(*s)
	case *tfsdk.EphemeralResultData:
		return modelDataOf(*s)
	case tfsdk.State:
		p, get = tfsdk.Plan(s), s.Get
	case tfsdk.Plan:
		p, get = s, s.Get
	case tfsdk.Config:
		p, get = tfsdk.Plan(s), s.Get
	case tfsdk.ResourceIdentity:
		p, get = tfsdk.Plan(s), s.Get
	case tfsdk.EphemeralResultData:
		p, get = tfsdk.Plan(s), s.Get
	default:
		return modelData{}, false
	}
	attrs := p.Schema.GetAttributes()
	return modelData{raw: p.Raw, count: len(attrs), blocks: len(p.Schema.GetBlocks()) > 0, get: get,
		typeOf: func(n string) (attr.Type, bool) {
			a, ok := attrs[n]
			if !ok {
				return nil, false
			}
			return a.GetType(), true
		}}, true
}

// Get decodes src (a tfsdk.State, Plan, Config, ResourceIdentity or
// EphemeralResultData, or a non-nil pointer to one) into *model, as src.Get(ctx, model) does.
func Get(ctx context.Context, src any, model any) diag.Diagnostics {
	d, ok := modelDataOf(src)
	if !ok {
		var diags diag.Diagnostics
		diags.AddError("Provider bug", "codec.Get: unsupported source. Please report this to the provider developers.")
		return diags
	}
	rv := reflect.ValueOf(model)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return d.get(ctx, model)
	}
	l := layoutOf(rv.Elem().Type())
	if !l.plain || d.blocks || len(l.index) != d.count {
		return d.get(ctx, model)
	}
	diags, ok := d.decodeInto(ctx, rv.Elem(), l, maps.Keys(l.index))
	if !ok {
		return d.get(ctx, model)
	}
	return diags
}

// decodeInto converts the named top-level attributes of d's object into the
// fields of out (a struct of layout l), with the checks the framework runs
// (validateModelValue), and sets the fields when none of them failed. ok is
// false, with nothing written, when it cannot convert them this way (an
// unknown or null object, a name the model or schema lacks, a field of
// another type): the caller then goes to the framework, whose diagnostics
// name the problem.
func (d modelData) decodeInto(ctx context.Context, out reflect.Value, l *modelLayout, names iter.Seq[string]) (diag.Diagnostics, bool) {
	var vals map[string]tftypes.Value
	if !d.raw.IsKnown() || d.raw.IsNull() || d.raw.As(&vals) != nil {
		return nil, false
	}
	decoded := map[int]reflect.Value{}
	var diags diag.Diagnostics
	for name := range names {
		i, inModel := l.index[name]
		typ, inSchema := d.typeOf(name)
		raw, present := vals[name]
		if !inModel || !inSchema || !present {
			return nil, false
		}
		v, err := typ.ValueFromTerraform(ctx, raw)
		if err != nil || reflect.TypeOf(v) != out.Field(i).Type() {
			return nil, false
		}
		diags.Append(validateModelValue(ctx, typ, v, raw, path.Root(name))...)
		decoded[i] = reflect.ValueOf(v)
	}
	if diags.HasError() {
		return diags, true
	}
	for i, v := range decoded {
		out.Field(i).Set(v)
	}
	return diags, true
}

// Set writes *model to dst (a *tfsdk.State, *tfsdk.Plan,
// *tfsdk.ResourceIdentity or *tfsdk.EphemeralResultData), as
// dst.Set(ctx, model) does.
func Set(ctx context.Context, dst any, model any) diag.Diagnostics {
	var set func(context.Context, any) diag.Diagnostics
	switch s := dst.(type) {
	case *tfsdk.State:
		set = s.Set
	case *tfsdk.Plan:
		set = s.Set
	case *tfsdk.ResourceIdentity:
		set = s.Set
	case *tfsdk.EphemeralResultData:
		set = s.Set
	default:
		var diags diag.Diagnostics
		diags.AddError("Provider bug", "codec.Set: unsupported target. Please report this to the provider developers.")
		return diags
	}
	rv := reflect.ValueOf(model)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return set(ctx, model)
	}
	l := layoutOf(rv.Type())
	if !l.plain {
		return set(ctx, model)
	}
	types := make(map[string]tftypes.Type, len(l.index))
	vals := make(map[string]tftypes.Value, len(l.index))
	var diags diag.Diagnostics
	for name, i := range l.index {
		v, _ := rv.Field(i).Interface().(attr.Value)
		if v == nil {
			return set(ctx, model)
		}
		tv, err := v.ToTerraformValue(ctx)
		if err != nil || tv.Type() == nil || tv.Type().Is(tftypes.DynamicPseudoType) {
			return set(ctx, model)
		}
		diags.Append(validateModelValue(ctx, v.Type(ctx), v, tv, path.Root(name))...)
		types[name], vals[name] = tv.Type(), tv
	}
	if diags.HasError() {
		return diags
	}
	obj := tftypes.Object{AttributeTypes: types}
	if tftypes.ValidateValue(obj, vals) != nil {
		return set(ctx, model)
	}
	// Set checks the value's type against the schema's; on a mismatch the
	// framework's conversion of the struct names the attribute.
	if set(ctx, tftypes.NewValue(obj, vals)).HasError() {
		return set(ctx, model)
	}
	return diags
}

// validateModelValue runs the checks the framework runs when it converts a
// value between a model and the state, plan or configuration.
func validateModelValue(ctx context.Context, typ attr.Type, v attr.Value, raw tftypes.Value, p path.Path) diag.Diagnostics {
	if va, ok := v.(xattr.ValidateableAttribute); ok {
		var resp xattr.ValidateAttributeResponse
		va.ValidateAttribute(ctx, xattr.ValidateAttributeRequest{Path: p}, &resp)
		return resp.Diagnostics
	}
	//nolint:staticcheck // xattr.TypeWithValidate is deprecated, but the framework still runs it.
	if tv, ok := typ.(xattr.TypeWithValidate); ok {
		return tv.Validate(ctx, raw, p)
	}
	return nil
}

// Plain reports whether Get and Set handle models of t (a struct type)
// themselves, without the framework's fallback: every tagged field is an
// attr.Value and no struct is embedded. Only TestModelCodecPlainModels
// (internal/provider) calls it: kept here on purpose, as it reads the codec's layout.
func Plain(t reflect.Type) bool { return layoutOf(t).plain }
