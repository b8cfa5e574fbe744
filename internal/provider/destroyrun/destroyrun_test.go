package destroyrun

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

func TestIsDestroyCommand(t *testing.T) {
	t.Parallel()
	for argv, want := range map[string]bool{
		"terraform destroy -auto-approve":                     true,
		"/usr/local/bin/terraform -chdir=infra destroy":       true,
		"terraform apply -destroy -auto-approve":              true,
		"terraform plan -destroy -out=tfplan":                 true,
		"tofu destroy":                                        true,
		"terraform apply -auto-approve":                       false,
		"terraform plan -refresh=false":                       false,
		"terraform apply tfplan":                              false,
		"terraform":                                           false,
		"/tmp/go-build/provider.test -test.run destroy":       false,
		"terraform-provider-service destroy":                  true,
		"terraform apply -var=destroy=true -target=x":         false,
		"terraform -chdir=destroy apply":                      false,
		"C:\\bin\\terraform.exe apply -destroy -auto-approve": true,
	} {
		if got := isDestroyCommand(strings.Fields(argv)); got != want {
			t.Errorf("isDestroyCommand(%q) = %v, want %v", argv, got, want)
		}
	}
}

func TestWithDestroyHint(t *testing.T) {
	t.Parallel()
	var diags diag.Diagnostics
	diags.AddError("before", "not touched")
	diags.AddAttributeError(path.Root("x").AtName("y"), "Bad", "Attribute x.y: bad.")
	diags.AddWarning("W", "warning")
	diags = withHint(diags, 1)
	if strings.Contains(diags[0].Detail(), "refresh=false") || strings.Contains(diags[2].Detail(), "refresh=false") {
		t.Errorf("hint added to a diagnostic it must not touch: %v", diags)
	}
	wp, ok := diags[1].(diag.DiagnosticWithPath)
	if !ok || !wp.Path().Equal(path.Root("x").AtName("y")) || !strings.HasSuffix(diags[1].Detail(), hint) ||
		!strings.HasPrefix(diags[1].Detail(), "Attribute x.y: bad.") {
		t.Errorf("hinted error lost its path or text: %#v", diags[1])
	}
}

// TestTestCommandTeardown: `terraform test` and `tofu test` are told apart
// from other commands (global options first too), and a test command counts
// as one whose teardown plans the configuration (InTest) for OpenTofu and
// for Terraform before 1.14, or while the version is not known yet.
func TestTestCommandTeardown(t *testing.T) {
	for _, tc := range []struct {
		argv, version string
		want          Detection
	}{
		{"terraform test -no-color", "1.11.4", InTest},
		{"/usr/bin/terraform -chdir=mod test", "1.13.5", InTest},
		{"terraform test", "", InTest},
		{"terraform test", "1.14.0", NotDestroying},
		{"terraform test -verbose", "1.16.4", NotDestroying},
		{"tofu test", "1.12.6", InTest},
		{"tofu test", "1.16.0", InTest},
		{"terraform apply -var=test=1", "1.11.4", NotDestroying},
		{"terraform destroy", "1.11.4", Destroying},
		{"provider.test -test.run test", "1.11.4", Unknown},
	} {
		SetCLIVersion(tc.version)
		got := classify(strings.Fields(tc.argv))
		if got == InTest && !testTeardownPlans() {
			got = NotDestroying
		}
		if got != tc.want {
			t.Errorf("%q on %q: %v, want %v", tc.argv, tc.version, got, tc.want)
		}
	}
	SetCLIVersion("")
	cliIsTofu.Store(false)
}
