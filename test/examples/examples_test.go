// Package examples_test checks every Terraform example under examples/: it is
// formatted (`terraform fmt -check`), valid against the provider built from
// this tree (`terraform validate` with dev_overrides, no registry access), and
// every resource and data source of the provider has its examples.
package examples_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// providerSchema is the part of `terraform providers schema -json` read here.
type providerSchema struct {
	ProviderSchemas map[string]struct {
		ResourceSchemas          map[string]json.RawMessage `json:"resource_schemas"`
		DataSourceSchemas        map[string]json.RawMessage `json:"data_source_schemas"`
		EphemeralResourceSchemas map[string]json.RawMessage `json:"ephemeral_resource_schemas"`
		ListResourceSchemas      map[string]json.RawMessage `json:"list_resource_schemas"`
		ActionSchemas            map[string]json.RawMessage `json:"action_schemas"`
	} `json:"provider_schemas"`
}

const requiredProviders = `terraform {
  required_providers {
    service = { source = "` + testutil.ProviderSource + `" }
  }
}
`

type typeNames struct {
	resources, dataSources, ephemeral, lists, actions map[string]bool
}

// setup builds the provider once per test binary run.
func setup(t *testing.T) (root string, env []string, types typeNames) {
	t.Helper()
	testutil.RequireTerraform(t)
	root = testutil.RepoRoot(t)
	providerDir := testutil.BuildProvider(t)
	env = testutil.TerraformEnv(testutil.DevOverridesConfig(t, providerDir))

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(requiredProviders), 0o600); err != nil {
		t.Fatal(err)
	}
	out := testutil.MustTerraform(t, dir, env, "providers", "schema", "-json")
	var ps providerSchema
	if err := json.Unmarshal([]byte(jsonPart(out)), &ps); err != nil {
		t.Fatalf("decode provider schema: %v\n%s", err, out)
	}
	s, ok := ps.ProviderSchemas["registry.terraform.io/"+testutil.ProviderSource]
	if !ok {
		t.Fatalf("provider schema not found in:\n%s", out)
	}
	types = typeNames{resources: keys(s.ResourceSchemas), dataSources: keys(s.DataSourceSchemas), ephemeral: keys(s.EphemeralResourceSchemas),
		lists: keys(s.ListResourceSchemas), actions: keys(s.ActionSchemas)}
	return root, env, types
}

// jsonPart drops anything terraform printed before the JSON document.
func jsonPart(out string) string {
	if i := strings.Index(out, "{"); i >= 0 {
		return out[i:]
	}
	return out
}

// keys returns the names of m, nil when the CLI did not send m at all (say
// list resources or actions, before Terraform 1.14).
func keys(m map[string]json.RawMessage) map[string]bool {
	if m == nil {
		return nil
	}
	s := make(map[string]bool, len(m))
	for k := range m {
		s[k] = true
	}
	return s
}

func sorted(m map[string]bool) []string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

// exampleDirs lists every directory under examples/ that holds .tf files.
func exampleDirs(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(filepath.Join(root, "examples"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".terraform") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".tf") || strings.HasSuffix(p, ".tfquery.hcl")) {
			dir := filepath.Dir(p)
			if !slices.Contains(dirs, dir) {
				dirs = append(dirs, dir)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(dirs)
	return dirs
}

var (
	blockRE = regexp.MustCompile(`(?m)^\s*(resource|data|ephemeral|action)\s+"(service_[a-z0-9_]+)"`)
	// actionRE finds an action block (Terraform 1.14+), destroyEventRE an
	// action_trigger destroy event (Terraform 1.16+).
	actionRE       = regexp.MustCompile(`(?m)^\s*action\s+"`)
	destroyEventRE = regexp.MustCompile(`\b(before|after)_destroy\b`)
	// terraformRE finds an example's own terraform block: such an example is
	// a root module to copy whole, so it names the provider's source itself.
	terraformRE = regexp.MustCompile(`(?m)^terraform\s*\{`)
)

// TestExamples runs `terraform fmt -check` and `terraform validate` in every
// example directory.
func TestExamples(t *testing.T) {
	root, env, types := setup(t)
	t.Run("every type has examples", func(t *testing.T) { checkCoverage(t, root, types) })
	for _, dir := range exampleDirs(t, root) {
		rel, _ := filepath.Rel(root, dir)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			t.Parallel()
			// Name the types the example uses that the provider lacks: a clear
			// message beats terraform's "unsupported resource type".
			var missing []string
			var texts []string
			for _, f := range globFiles(t, dir, "*.tf") {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				texts = append(texts, string(b))
			}
			// An example with a terraform block of its own is copied whole: without
			// required_providers, Terraform would look for hashicorp/service. It
			// is then validated as it is (validate adds nothing to it).
			if all := strings.Join(texts, "\n"); terraformRE.MatchString(all) && !strings.Contains(all, "required_providers") {
				t.Errorf("its terraform block has no required_providers: copied as it is, Terraform looks for "+
					"hashicorp/service; add required_providers { service = { source = %q } }", testutil.ProviderSource)
			}
			requireActions(t, strings.Join(texts, "\n"))
			for _, text := range texts {
				for _, m := range blockRE.FindAllStringSubmatch(text, -1) {
					known := map[string]map[string]bool{"resource": types.resources, "data": types.dataSources, "ephemeral": types.ephemeral,
						"action": types.actions}[m[1]]
					if !known[m[2]] && !slices.Contains(missing, m[1]+" "+m[2]) {
						missing = append(missing, m[1]+" "+m[2])
					}
				}
			}
			if len(missing) > 0 {
				t.Fatalf("the provider has no %s", strings.Join(missing, ", "))
			}

			if out, code := testutil.Terraform(t, dir, env, "fmt", "-check", "-diff", "-no-color"); code != 0 {
				t.Errorf("terraform fmt -check: not formatted (run `make fmt`):\n%s", out)
			}

			// Validate a copy so that nothing is written into examples/. Docs
			// examples leave required_providers out (Terraform would then look
			// for hashicorp/service): add it to the copy. Each import-*.tf
			// is validated on its own beside the other files: two import
			// blocks for one address are an error.
			var common, imports []string
			for _, f := range globFiles(t, dir, "*.tf") {
				if strings.HasPrefix(filepath.Base(f), "import-") {
					imports = append(imports, f)
				} else {
					common = append(common, f)
				}
			}
			if queries := globFiles(t, dir, "*.tfquery.hcl"); len(queries) > 0 {
				validateQueries(t, env, queries)
				return
			}
			validate(t, env, append(common, imports...), len(imports) == 0)
			for _, imp := range imports {
				t.Run(filepath.Base(imp), func(t *testing.T) {
					if filepath.Base(imp) == "import-by-identity.tf" {
						requireIdentity(t)
					}
					validate(t, env, append(append([]string{}, common...), imp), true)
				})
			}
		})
	}
}

// validate runs `terraform validate` on a copy of files; with whole false
// only the common files are copied when there are import files (each is
// then validated in its own subtest).
func validate(t *testing.T, env []string, files []string, whole bool) {
	t.Helper()
	work := t.TempDir()
	declared := false
	for _, f := range files {
		if !whole && strings.HasPrefix(filepath.Base(f), "import-") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		declared = declared || strings.Contains(string(b), "required_providers")
		if err := os.WriteFile(filepath.Join(work, filepath.Base(f)), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if !declared {
		if err := os.WriteFile(filepath.Join(work, "zz_required_providers.tf"), []byte(requiredProviders), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// An example calling local modules (./modules/...) gets them copied and
	// installed (`terraform get`; init would look the provider up in the
	// registry).
	if len(files) > 0 {
		if mods := filepath.Join(filepath.Dir(files[0]), "modules"); isDir(mods) {
			testutil.CopyDir(t, mods, filepath.Join(work, "modules"))
			if out, code := testutil.Terraform(t, work, env, "get", "-no-color"); code != 0 {
				t.Fatalf("terraform get failed:\n%s", out)
			}
		}
	}
	out, code := testutil.Terraform(t, work, env, "validate", "-no-color")
	if code != 0 {
		t.Errorf("terraform validate failed:\n%s", out)
	}
}

// validateQueries runs `terraform validate -query` on a copy of a list
// resource example (its .tfquery.hcl files beside the required_providers
// and provider blocks) on a CLI with list resources (Terraform 1.14+).
func validateQueries(t *testing.T, env []string, files []string) {
	t.Helper()
	requireCLI(t, 14, "list resources and terraform query need Terraform 1.14+")
	work := t.TempDir()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, filepath.Base(f)), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(work, "main.tf"), []byte(requiredProviders+"provider \"service\" {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, code := testutil.Terraform(t, work, env, "fmt", "-check", "-diff", "-no-color", "."); code != 0 {
		t.Errorf("terraform fmt -check: not formatted (run `make fmt`):\n%s", out)
	}
	if out, code := testutil.Terraform(t, work, env, "validate", "-query", "-no-color"); code != 0 {
		t.Errorf("terraform validate -query failed:\n%s", out)
	}
}

// requireIdentity skips a test of import blocks by identity on a CLI
// without resource identity (Terraform or OpenTofu before 1.12), naming it.
func requireIdentity(t *testing.T) {
	t.Helper()
	if ok, version := identityCLI(t); !ok {
		t.Skipf("%s has no resource identity (import blocks by identity need Terraform 1.12+ or OpenTofu 1.12+)", version)
	}
}

// identityCLI reports whether the CLI has resource identity (import blocks
// by identity): Terraform or OpenTofu 1.12 or later; and its version.
func identityCLI(t *testing.T) (bool, string) {
	t.Helper()
	return testutil.CLIAtLeast(t, testutil.CLIPath(), 1, 12)
}

// requireActions skips the test of an example with actions on a CLI without
// them (OpenTofu, Terraform before 1.14), and of one with an action_trigger
// destroy event before Terraform 1.16, naming what it needs.
func requireActions(t *testing.T, text string) {
	t.Helper()
	if !actionRE.MatchString(text) {
		return
	}
	if testutil.CLIName(testutil.CLIPath()) == "tofu" {
		t.Skip("OpenTofu has no actions (the example's action blocks need Terraform 1.14+)")
	}
	requireCLI(t, 14, "actions need Terraform 1.14+")
	if destroyEventRE.MatchString(text) {
		requireCLI(t, 16, "action_trigger destroy events need Terraform 1.16+")
	}
}

// requireCLI skips the test, saying why, unless the CLI is Terraform
// 1.wantMinor or later.
func requireCLI(t *testing.T, wantMinor int, why string) {
	t.Helper()
	if !cliAtLeast(t, 1, wantMinor) {
		t.Skipf("%s: %s", testutil.CLIName(testutil.CLIPath()), why)
	}
}

// cliAtLeast reports whether the CLI is Terraform wantMajor.wantMinor or
// later (OpenTofu never is).
func cliAtLeast(t *testing.T, wantMajor, wantMinor int) bool {
	t.Helper()
	ok, _ := testutil.TerraformAtLeast(t, testutil.CLIPath(), wantMajor, wantMinor)
	return ok
}

// globFiles returns the files of dir that match pattern.
func globFiles(t *testing.T, dir, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// checkCoverage checks the tfplugindocs conventional example paths:
// each resource has resource.tf, import-by-string-id.tf, import-by-identity.tf
// and import.sh, each
// data source data-source.tf, each ephemeral resource ephemeral-resource.tf;
// and no example directory names a type the provider does not have.
func checkCoverage(t *testing.T, root string, types typeNames) {
	ex := filepath.Join(root, "examples")
	want := map[string][]string{}
	for _, r := range sorted(types.resources) {
		want[filepath.Join("resources", r)] = []string{"resource.tf", "import-by-string-id.tf", "import-by-identity.tf", "import.sh"}
	}
	for _, d := range sorted(types.dataSources) {
		want[filepath.Join("data-sources", d)] = []string{"data-source.tf"}
	}
	for _, e := range sorted(types.ephemeral) {
		want[filepath.Join("ephemeral-resources", e)] = []string{"ephemeral-resource.tf"}
	}
	for _, l := range sorted(types.lists) {
		want[filepath.Join("list-resources", l)] = []string{"list-resource.tfquery.hcl"}
	}
	for _, a := range sorted(types.actions) {
		want[filepath.Join("actions", a)] = []string{"action.tf"}
	}
	for dir, files := range want {
		for _, f := range files {
			if _, err := os.Stat(filepath.Join(ex, dir, f)); err != nil {
				t.Errorf("missing example examples/%s/%s", filepath.ToSlash(dir), f)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(ex, "provider", "provider.tf")); err != nil {
		t.Errorf("missing examples/provider/provider.tf")
	}
	var unknown []string
	kinds := []string{"resources", "data-sources", "ephemeral-resources"}
	if types.lists != nil {
		kinds = append(kinds, "list-resources") // known to the CLI (1.14+)
	}
	if types.actions != nil {
		kinds = append(kinds, "actions") // known to the CLI (1.14+)
	}
	for _, kind := range kinds {
		entries, err := os.ReadDir(filepath.Join(ex, kind))
		if err != nil {
			continue
		}
		for _, e := range entries {
			if _, ok := want[filepath.Join(kind, e.Name())]; !ok {
				unknown = append(unknown, "examples/"+kind+"/"+e.Name())
			}
		}
	}
	if len(unknown) > 0 {
		t.Errorf("example directories for types the provider does not have: %s", strings.Join(unknown, ", "))
	}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
