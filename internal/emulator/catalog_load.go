// Loading the catalog from JSON files: the built-in files embedded from
// catalogdata/, then (Options.CatalogDir, --catalog) a directory of the
// same files adding toolkits or replacing built-in ones of the same slug.

package emulator

import (
	"bytes"
	"cmp"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/jsonschema"
)

//go:embed catalogdata/*.json
var builtinCatalogFS embed.FS

// categoriesFile is the file naming the categories (slug, name, in list order).
const categoriesFile = "categories.json"

// toolkitFile is one toolkit's JSON file: metadata, auth schemes, versions,
// tools and trigger types.
type toolkitFile struct {
	Slug        string        `json:"slug"`
	Name        string        `json:"name"`
	Description string        `json:"description"`
	AppURL      string        `json:"app_url"`
	BaseURL     string        `json:"base_url"`
	Categories  []string      `json:"categories"`
	Popularity  int           `json:"popularity"`
	Versions    []string      `json:"versions"`
	AuthSchemes []schemeFile  `json:"auth_schemes"`
	Tools       []toolFile    `json:"tools"`
	Triggers    []triggerFile `json:"triggers"`
	// WebhookEndpointSetup lists the setup fields of the toolkit's webhook
	// endpoint (string fields; secret ones are masked on read). A toolkit
	// with any needs a webhook trigger type, and those trigger types answer
	// requires_webhook_endpoint_setup true.
	WebhookEndpointSetup *fieldsFile `json:"webhook_endpoint_setup,omitempty"`
	// RevokeUnsupported marks a toolkit whose provider offers no way to
	// revoke a token programmatically: POST /connected_accounts/{id}/revoke
	// answers 400 for its accounts, and revoke_on_delete revokes nothing.
	RevokeUnsupported bool `json:"revoke_unsupported,omitempty"`
}

type fieldFile struct {
	Name        string  `json:"name"`
	DisplayName string  `json:"display_name"`
	Type        string  `json:"type"`
	Description string  `json:"description"`
	Default     *string `json:"default,omitempty"`
	Secret      bool    `json:"secret,omitempty"`
}

type fieldsFile struct {
	Required []fieldFile `json:"required,omitempty"`
	Optional []fieldFile `json:"optional,omitempty"`
}

type schemeFile struct {
	Mode                       string     `json:"mode"`
	Name                       string     `json:"name"`
	ServiceManaged             bool       `json:"service_managed,omitempty"`
	AuthConfigCreation         fieldsFile `json:"auth_config_creation"`
	ConnectedAccountInitiation fieldsFile `json:"connected_account_initiation"`
}

type toolFile struct {
	Slug             string         `json:"slug"`
	Name             string         `json:"name"`
	Description      string         `json:"description"`
	Tags             []string       `json:"tags,omitempty"`
	Scopes           []string       `json:"scopes,omitempty"`
	InputParameters  map[string]any `json:"input_parameters"`
	OutputParameters map[string]any `json:"output_parameters,omitempty"`
}

type triggerFile struct {
	Slug         string `json:"slug"`
	Name         string `json:"name"`
	Description  string `json:"description"`
	Instructions string `json:"instructions"`
	Type         string `json:"type"`
	// Config is the trigger_config JSON Schema of every version; or
	// ConfigByVersion gives one per toolkit version.
	Config          map[string]any            `json:"config,omitempty"`
	ConfigByVersion map[string]map[string]any `json:"config_by_version,omitempty"`
	Payload         map[string]any            `json:"payload"`
}

// defaultToolOutput is a tool's output_parameters when its file gives none.
func defaultToolOutput(name string) map[string]any {
	return map[string]any{"type": "object", "title": name + " response", "properties": map[string]any{
		"data":       map[string]any{"type": "object", "description": "Response data"},
		"successful": map[string]any{"type": "boolean", "title": "Successful", "description": "Whether the call succeeded"},
		"error":      map[string]any{"type": "string", "nullable": true, "description": "Error message if any"},
	}, "required": []any{"data", "successful"}}
}

// loadCatalog reads the built-in catalog and then, when dir is not empty,
// the files of dir on top of it.
func loadCatalog(dir string) (*catalog, error) {
	sub, err := fs.Sub(builtinCatalogFS, "catalogdata")
	if err != nil {
		return nil, err
	}
	c := &catalog{}
	if err := c.addDir(sub, "catalogdata", true); err != nil {
		return nil, fmt.Errorf("emulator: built-in catalog: %w", err)
	}
	if dir != "" {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			if err == nil {
				err = errors.New("not a directory")
			}
			return nil, fmt.Errorf("emulator: catalog %s: %w (give a directory of toolkit JSON files)", dir, err)
		}
		if err := c.addDir(os.DirFS(dir), dir, false); err != nil {
			return nil, fmt.Errorf("emulator: catalog %s: %w", dir, err)
		}
	}
	return c, c.index()
}

// addDir reads categories.json (required for the built-in catalog),
// session_configs.json (optional) and every other *.json file as a toolkit;
// a toolkit replaces one of the same slug.
func (c *catalog) addDir(fsys fs.FS, name string, builtin bool) error {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return err
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			files = append(files, e.Name())
		}
	}
	if !builtin && len(files) == 0 {
		return fmt.Errorf("no *.json files in %s", name)
	}
	if !builtin {
		for _, f := range files {
			c.files = append(c.files, path.Join(name, f))
		}
	}
	if slices.Contains(files, categoriesFile) {
		if err := c.addCategories(fsys, name); err != nil {
			return err
		}
	} else if builtin {
		return fmt.Errorf("%s missing", path.Join(name, categoriesFile))
	}
	var errs []error
	if slices.Contains(files, sessionConfigsFile) {
		errs = append(errs, c.addSessionConfigs(fsys, name))
	}
	seen := map[string]string{}
	for _, f := range files {
		if f == categoriesFile || f == sessionConfigsFile {
			continue
		}
		file := path.Join(name, f)
		tk, err := c.readToolkit(fsys, f, file)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if other, dup := seen[tk.Slug]; dup {
			errs = append(errs, fmt.Errorf("%s: slug: toolkit %q is also defined in %s", file, tk.Slug, other))
			continue
		}
		seen[tk.Slug] = file
		c.toolkits = slices.DeleteFunc(c.toolkits, func(old *toolkitDef) bool { return old.Slug == tk.Slug })
		c.toolkits = append(c.toolkits, tk)
	}
	return errors.Join(errs...)
}

func (c *catalog) addCategories(fsys fs.FS, name string) error {
	file := path.Join(name, categoriesFile)
	var cats []categoryDef
	if err := decodeStrict(fsys, categoriesFile, &cats); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	for i, cat := range cats {
		if cat.Slug == "" || cat.Name == "" {
			return fmt.Errorf("%s: [%d]: slug and name are required", file, i)
		}
		if j := slices.IndexFunc(c.categories, func(old categoryDef) bool { return old.Slug == cat.Slug }); j >= 0 {
			c.categories[j] = cat
		} else {
			c.categories = append(c.categories, cat)
		}
	}
	return nil
}

// decodeStrict decodes a JSON file, refusing unknown fields and trailing data.
func decodeStrict(fsys fs.FS, name string, into any) error {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line := bytes.Count(data[:se.Offset], []byte("\n")) + 1
			return fmt.Errorf("line %d: %w", line, err)
		}
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// readToolkit decodes and validates one toolkit file; errors name the file
// and the field (e.g. "tools[1].input_parameters").
func (c *catalog) readToolkit(fsys fs.FS, name, file string) (*toolkitDef, error) {
	var f toolkitFile
	if err := decodeStrict(fsys, name, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	v := &fileErrors{file: file}
	tk := &toolkitDef{
		Slug: f.Slug, Name: f.Name, Description: f.Description, AppURL: f.AppURL, BaseURL: f.BaseURL,
		Categories: nonNil(f.Categories), Popularity: f.Popularity, Versions: f.Versions,
		RevokeUnsupported: f.RevokeUnsupported,
	}
	switch {
	case f.Slug == "":
		v.add("slug", "is required")
	case f.Slug != strings.ToLower(f.Slug) || strings.ContainsAny(f.Slug, " /"):
		v.add("slug", "must be lower case without spaces or slashes, got %q", f.Slug)
	}
	v.required("name", f.Name)
	v.required("base_url", f.BaseURL)
	for i, cat := range f.Categories {
		if !slices.ContainsFunc(c.categories, func(cd categoryDef) bool { return cd.Slug == cat }) {
			v.add(fmt.Sprintf("categories[%d]", i), "unknown category %q (add it to %s)", cat, categoriesFile)
		}
	}
	if len(f.Versions) == 0 {
		v.add("versions", "needs at least one version (newest first)")
	}
	for i, ver := range f.Versions {
		if !validVersion(ver) {
			v.add(fmt.Sprintf("versions[%d]", i), "%q is not YYYYMMDD_NN with a real date", ver)
		} else if i > 0 && ver >= f.Versions[i-1] {
			v.add(fmt.Sprintf("versions[%d]", i), "%q: versions must be unique and newest first", ver)
		}
	}
	for i, sf := range f.AuthSchemes {
		tk.Schemes = append(tk.Schemes, v.scheme(fmt.Sprintf("auth_schemes[%d]", i), sf, tk.Schemes))
	}
	prefix := strings.ToUpper(f.Slug) + "_"
	for i, tf := range f.Tools {
		tk.Tools = append(tk.Tools, v.tool(fmt.Sprintf("tools[%d]", i), prefix, tf, tk))
	}
	for i, tf := range f.Triggers {
		tk.Triggers = append(tk.Triggers, v.trigger(fmt.Sprintf("triggers[%d]", i), prefix, tf, tk))
	}
	if ws := f.WebhookEndpointSetup; ws != nil {
		v.webhookSetup(ws, tk)
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	return tk, nil
}

// index sorts the toolkits (popularity, then slug) and indexes toolkits,
// tools and trigger types by slug, refusing a tool or trigger slug twice.
func (c *catalog) index() error {
	slices.SortStableFunc(c.toolkits, func(a, b *toolkitDef) int {
		return cmp.Or(cmp.Compare(b.Popularity, a.Popularity), cmp.Compare(a.Slug, b.Slug))
	})
	c.bySlug = map[string]*toolkitDef{}
	c.tools = map[string]*toolDef{}
	c.triggers = map[string]*triggerDef{}
	for _, tk := range c.toolkits {
		c.bySlug[tk.Slug] = tk
		for _, t := range tk.Tools {
			if other, dup := c.tools[t.Slug]; dup {
				return fmt.Errorf("emulator: catalog: tool %s is defined by toolkits %s and %s", t.Slug, other.toolkit.Slug, tk.Slug)
			}
			c.tools[t.Slug] = t
		}
		for _, t := range tk.Triggers {
			if other, dup := c.triggers[t.Slug]; dup {
				return fmt.Errorf("emulator: catalog: trigger type %s is defined by toolkits %s and %s", t.Slug, other.toolkit.Slug, tk.Slug)
			}
			c.triggers[t.Slug] = t
		}
	}
	return nil
}

// fileErrors collects validation errors of one file, each naming the field.
type fileErrors struct {
	file string
	errs []error
}

func (v *fileErrors) add(field, format string, args ...any) {
	v.errs = append(v.errs, fmt.Errorf("%s: %s: %s", v.file, field, fmt.Sprintf(format, args...)))
}

func (v *fileErrors) required(field, val string) {
	if val == "" {
		v.add(field, "is required")
	}
}

func (v *fileErrors) err() error { return errors.Join(v.errs...) }

var fieldTypes = []string{"string", "boolean", "integer", "number"}

func (v *fileErrors) fields(at string, in []fieldFile, seen map[string]bool) []fieldDef {
	var out []fieldDef
	for i, f := range in {
		field := fmt.Sprintf("%s[%d]", at, i)
		v.required(field+".name", f.Name)
		v.required(field+".display_name", f.DisplayName)
		if !slices.Contains(fieldTypes, f.Type) {
			v.add(field+".type", "%q is not one of %s", f.Type, strings.Join(fieldTypes, ", "))
		}
		if f.Name != "" && seen[f.Name] {
			v.add(field+".name", "field %q is listed twice", f.Name)
		}
		seen[f.Name] = true
		out = append(out, fieldDef(f))
	}
	return out
}

// webhookSetup reads webhook_endpoint_setup: at least one field, every
// field a string, and a webhook trigger type that needs the endpoint.
func (v *fileErrors) webhookSetup(ws *fieldsFile, tk *toolkitDef) {
	const at = "webhook_endpoint_setup"
	seen := map[string]bool{}
	tk.WebhookSetupRequired = v.fields(at+".required", ws.Required, seen)
	tk.WebhookSetupOptional = v.fields(at+".optional", ws.Optional, seen)
	if len(seen) == 0 {
		v.add(at, "lists no field (give required and/or optional fields, or leave it out)")
	}
	for i, f := range ws.Required {
		if f.Type != "string" && slices.Contains(fieldTypes, f.Type) {
			v.add(fmt.Sprintf("%s.required[%d].type", at, i), `must be "string" (webhook endpoint data holds strings), got %q`, f.Type)
		}
	}
	for i, f := range ws.Optional {
		if f.Type != "string" && slices.Contains(fieldTypes, f.Type) {
			v.add(fmt.Sprintf("%s.optional[%d].type", at, i), `must be "string" (webhook endpoint data holds strings), got %q`, f.Type)
		}
	}
	if !slices.ContainsFunc(tk.Triggers, func(t *triggerDef) bool { return t.Type == "webhook" }) {
		v.add(at, "the toolkit has no trigger type of type \"webhook\" that would need a webhook endpoint")
	}
}

func (v *fileErrors) scheme(at string, sf schemeFile, before []schemeDef) schemeDef {
	if !slices.Contains(knownSchemes, sf.Mode) {
		v.add(at+".mode", "%q is not one of %s", sf.Mode, strings.Join(knownSchemes, ", "))
	}
	if slices.ContainsFunc(before, func(s schemeDef) bool { return s.Mode == sf.Mode }) {
		v.add(at+".mode", "scheme %s is listed twice", sf.Mode)
	}
	v.required(at+".name", sf.Name)
	creation, initiation := map[string]bool{}, map[string]bool{}
	return schemeDef{
		Mode: sf.Mode, Name: sf.Name, Managed: sf.ServiceManaged,
		CreationRequired: v.fields(at+".auth_config_creation.required", sf.AuthConfigCreation.Required, creation),
		CreationOptional: v.fields(at+".auth_config_creation.optional", sf.AuthConfigCreation.Optional, creation),
		InitRequired:     v.fields(at+".connected_account_initiation.required", sf.ConnectedAccountInitiation.Required, initiation),
		InitOptional:     v.fields(at+".connected_account_initiation.optional", sf.ConnectedAccountInitiation.Optional, initiation),
	}
}

// schema checks that a JSON Schema is an object schema whose required names
// are properties.
func (v *fileErrors) schema(at string, s map[string]any) {
	if s == nil {
		v.add(at, "is required (a JSON Schema object)")
		return
	}
	if s["type"] != "object" {
		v.add(at+".type", `must be "object"`)
	}
	if err := jsonschema.SchemaError(s); err != nil {
		v.add(at, "is not a JSON Schema the emulator can check documents against: %v", err)
	}
	props, ok := s["properties"].(map[string]any)
	if !ok && s["properties"] != nil {
		v.add(at+".properties", "must be an object")
	}
	if req, has := s["required"]; has {
		list, ok := req.([]any)
		if !ok {
			v.add(at+".required", "must be an array of property names")
		}
		for i, r := range list {
			name, _ := r.(string)
			if _, known := props[name]; !known {
				v.add(fmt.Sprintf("%s.required[%d]", at, i), "%v is not a property", r)
			}
		}
	}
	for name, p := range props {
		if _, ok := p.(map[string]any); !ok {
			v.add(at+".properties."+name, "must be a JSON Schema object")
		}
	}
}

func (v *fileErrors) slug(at, prefix, slug string) {
	switch {
	case slug == "":
		v.add(at+".slug", "is required")
	case !strings.HasPrefix(slug, prefix) || slug != strings.ToUpper(slug):
		v.add(at+".slug", "%q must be upper case and start with %s", slug, prefix)
	}
}

func (v *fileErrors) tool(at, prefix string, tf toolFile, tk *toolkitDef) *toolDef {
	v.slug(at, prefix, tf.Slug)
	v.required(at+".name", tf.Name)
	v.schema(at+".input_parameters", tf.InputParameters)
	out := tf.OutputParameters
	if out == nil {
		out = defaultToolOutput(tf.Name)
	} else {
		v.schema(at+".output_parameters", out)
	}
	if tf.InputParameters != nil && tf.InputParameters["required"] == nil {
		tf.InputParameters["required"] = []any{}
	}
	return &toolDef{
		Slug: tf.Slug, Name: tf.Name, Description: tf.Description, Input: tf.InputParameters, Output: out,
		Tags: nonNil(tf.Tags), Scopes: nonNil(tf.Scopes), toolkit: tk,
	}
}

func (v *fileErrors) trigger(at, prefix string, tf triggerFile, tk *toolkitDef) *triggerDef {
	v.slug(at, prefix, tf.Slug)
	v.required(at+".name", tf.Name)
	if tf.Type != "webhook" && tf.Type != "poll" {
		v.add(at+".type", `must be "webhook" or "poll", got %q`, tf.Type)
	}
	v.schema(at+".payload", tf.Payload)
	config := map[string]map[string]any{}
	switch {
	case tf.Config != nil && tf.ConfigByVersion != nil:
		v.add(at, "give config or config_by_version, not both")
	case tf.Config != nil:
		v.schema(at+".config", tf.Config)
		for _, ver := range tk.Versions {
			config[ver] = tf.Config
		}
	case tf.ConfigByVersion != nil:
		for ver, s := range tf.ConfigByVersion {
			if !slices.Contains(tk.Versions, ver) {
				v.add(at+".config_by_version."+ver, "is not one of the toolkit's versions")
			}
			v.schema(at+".config_by_version."+ver, s)
			config[ver] = s
		}
		for _, ver := range tk.Versions {
			if tf.ConfigByVersion[ver] == nil {
				v.add(at+".config_by_version", "lacks version %s", ver)
			}
		}
	default:
		v.add(at+".config", "is required (the trigger_config JSON Schema)")
	}
	return &triggerDef{
		Slug: tf.Slug, Name: tf.Name, Description: tf.Description, Instructions: tf.Instructions, Type: tf.Type,
		Config: config, Payload: tf.Payload, toolkit: tk,
	}
}

// validVersion reports whether v is YYYYMMDD_NN with a real date.
func validVersion(v string) bool {
	m := versionRE.FindStringSubmatch(v)
	if m == nil {
		return false
	}
	_, err := time.Parse("20060102", m[1])
	return err == nil
}
