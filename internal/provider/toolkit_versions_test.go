package provider

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

func stringMap(t *testing.T, m map[string]string) types.Map {
	t.Helper()
	if m == nil {
		return types.MapNull(types.StringType)
	}
	elems := map[string]attr.Value{}
	for k, v := range m {
		elems[k] = types.StringValue(v)
	}
	mv, diags := types.MapValue(types.StringType, elems)
	if diags.HasError() {
		t.Fatalf("map: %v", diags)
	}
	return mv
}

func nullModel() providerModel {
	return providerModel{
		APIKey:                types.StringNull(),
		OrgAPIKey:             types.StringNull(),
		BaseURL:               types.StringNull(),
		ToolkitVersions:       types.MapNull(types.StringType),
		ToolkitVersion:        types.StringNull(),
		DefaultHeaders:        types.MapNull(types.StringType),
		RequestTimeout:        types.StringNull(),
		MaxRetries:            types.Int64Null(),
		MaxConcurrentRequests: types.Int64Null(),
		MaxRequestsPerMinute:  types.Int64Null(),
		AllowInsecureHTTP:     types.BoolNull(),
	}
}

func TestResolveToolkitVersions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		perConfig map[string]string
		global    string
		environ   []string
		want      client.ToolkitVersions
		wantErr   string // substring of an error detail; "" = no error
	}{
		{name: "nothing", want: client.ToolkitVersions{}},
		{name: "global only", global: "20250901_00", want: client.ToolkitVersions{Global: "20250901_00"}},
		{name: "global latest", global: "latest", want: client.ToolkitVersions{Global: "latest"}},
		{
			name:    "env maps NAME to lower-case slug",
			environ: []string{"PATH=/bin", "SERVICE_TOOLKIT_VERSION_GITHUB=20250901_00", "SERVICE_TOOLKIT_VERSION_GOOGLECALENDAR=latest"},
			want:    client.ToolkitVersions{PerToolkit: map[string]string{"github": "20250901_00", "googlecalendar": "latest"}},
		},
		{
			name:      "config map overrides env, env overrides global",
			perConfig: map[string]string{"GitHub": "20251015_00"},
			global:    "20250901_00",
			environ:   []string{"SERVICE_TOOLKIT_VERSION_GITHUB=20250901_00", "SERVICE_TOOLKIT_VERSION_SLACK=20251015_00"},
			want: client.ToolkitVersions{Global: "20250901_00", PerToolkit: map[string]string{
				"github": "20251015_00", "slack": "20251015_00",
			}},
		},
		{name: "empty env value ignored", environ: []string{"SERVICE_TOOLKIT_VERSION_GITHUB="}, want: client.ToolkitVersions{}},
		{name: "bad global", global: "2025-09-01", wantErr: "Attribute toolkit_version"},
		{name: "impossible date", global: "20250230_00", wantErr: "Attribute toolkit_version"},
		{name: "bad map value", perConfig: map[string]string{"github": "v1"}, wantErr: `Attribute toolkit_versions["github"]`},
		{name: "bad env value", environ: []string{"SERVICE_TOOLKIT_VERSION_GITHUB=20251301_00"}, wantErr: "Environment variable SERVICE_TOOLKIT_VERSION_GITHUB"},
		{name: "env without name", environ: []string{"SERVICE_TOOLKIT_VERSION_=latest"}, wantErr: "has no toolkit name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := nullModel()
			cfg.ToolkitVersions = stringMap(t, tc.perConfig)
			if tc.global != "" {
				cfg.ToolkitVersion = types.StringValue(tc.global)
			}
			got, diags := resolveToolkitVersions(cfg, tc.environ)
			if tc.wantErr != "" {
				if !diags.HasError() {
					t.Fatalf("want error containing %q, got none", tc.wantErr)
				}
				found := false
				for _, d := range diags.Errors() {
					if strings.Contains(d.Detail(), tc.wantErr) || strings.Contains(d.Summary(), tc.wantErr) {
						found = true
					}
				}
				if !found {
					t.Fatalf("want error containing %q, got %v", tc.wantErr, diags)
				}
				return
			}
			if diags.HasError() {
				t.Fatalf("unexpected diagnostics: %v", diags)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestToolkitVersionFor(t *testing.T) {
	t.Parallel()
	v := client.ToolkitVersions{Global: "20250901_00", PerToolkit: map[string]string{"github": "20251015_00"}}
	if got := toolkitVersionFor(v, "GITHUB"); got != "20251015_00" {
		t.Errorf("github: got %q", got)
	}
	if got := toolkitVersionFor(v, "slack"); got != "20250901_00" {
		t.Errorf("slack: got %q", got)
	}
	if got := toolkitVersionFor(client.ToolkitVersions{}, "slack"); got != "latest" {
		t.Errorf("default: got %q", got)
	}
	var nilData *ProviderData
	if got := nilData.VersionFor("slack"); got != "latest" {
		t.Errorf("nil provider data: got %q", got)
	}
}
