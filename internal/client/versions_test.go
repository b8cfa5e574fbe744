package client

import (
	"encoding/json"
	"net/url"
	"testing"
)

func TestValidateVersion(t *testing.T) {
	for _, ok := range []string{"latest", "20251015_00", "20250901_00", "20240229_99"} {
		if err := ValidateVersion(ok); err != nil {
			t.Errorf("ValidateVersion(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "LATEST", "2025101_00", "20251015", "20251015_0", "20251315_00", "20250230_00", "00000000_00", "20251015-00", " 20251015_00", "20251015_00x", "v1"} {
		if err := ValidateVersion(bad); err == nil {
			t.Errorf("ValidateVersion(%q) accepted", bad)
		}
	}
}

func TestToolkitVersionsResolve(t *testing.T) {
	var nilV *ToolkitVersions
	if nilV.Resolve("github") != "latest" || !nilV.IsZero() {
		t.Error("nil versions")
	}
	v := &ToolkitVersions{Global: "20250901_00", PerToolkit: map[string]string{"github": "20251015_00"}}
	if v.Resolve("GitHub") != "20251015_00" || v.Resolve("slack") != "20250901_00" || v.IsZero() {
		t.Error("resolve")
	}
	if (&ToolkitVersions{PerToolkit: map[string]string{"a": "latest"}}).Resolve("b") != "latest" {
		t.Error("fallback latest")
	}
}

func TestToolkitVersionsQuery(t *testing.T) {
	cases := []struct {
		name  string
		v     *ToolkitVersions
		hints []string
		want  string
	}{
		{"nil", nil, nil, "toolkit_versions=latest"},
		{"empty", &ToolkitVersions{}, []string{"github"}, "toolkit_versions=latest"},
		{"global", &ToolkitVersions{Global: "20250901_00"}, []string{"github"}, "toolkit_versions=20250901_00"},
		{"map", &ToolkitVersions{PerToolkit: map[string]string{"github": "20251015_00", "Slack": "latest"}}, []string{"github"}, "toolkit_versions%5Bgithub%5D=20251015_00&toolkit_versions%5Bslack%5D=latest"},
		{"map takes precedence, global fills hint", &ToolkitVersions{Global: "20250901_00", PerToolkit: map[string]string{"slack": "20251015_00"}}, []string{"github"}, "toolkit_versions%5Bgithub%5D=20250901_00&toolkit_versions%5Bslack%5D=20251015_00"},
		{"map entry beats global", &ToolkitVersions{Global: "20250901_00", PerToolkit: map[string]string{"github": "20251015_00"}}, []string{"github"}, "toolkit_versions%5Bgithub%5D=20251015_00"},
	}
	for _, tc := range cases {
		q := url.Values{}
		tc.v.setQuery(q, tc.hints...)
		if got := q.Encode(); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestToolkitVersionsBody(t *testing.T) {
	cases := []struct {
		v    *ToolkitVersions
		want string
	}{
		{nil, `"latest"`},
		{&ToolkitVersions{Global: "20250901_00"}, `"20250901_00"`},
		{&ToolkitVersions{PerToolkit: map[string]string{"github": "20251015_00"}}, `{"github":"20251015_00"}`},
		{&ToolkitVersions{Global: "20250901_00", PerToolkit: map[string]string{"slack": "latest"}}, `{"github":"20250901_00","slack":"latest"}`},
	}
	for _, tc := range cases {
		b, _ := json.Marshal(tc.v.bodyValue("github"))
		if string(b) != tc.want {
			t.Errorf("%+v: %s, want %s", tc.v, b, tc.want)
		}
	}
	if toolkitOfSlug("GOOGLECALENDAR_EVENT_CREATED") != "googlecalendar" {
		t.Error("toolkitOfSlug")
	}
}
