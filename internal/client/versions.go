package client

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
)

// VersionLatest selects the newest toolkit version.
const VersionLatest = "latest"

var versionRE = regexp.MustCompile(`^(\d{8})_(\d{2})$`)

// ToolkitVersions selects toolkit versions for reads of tools and trigger
// types and for trigger upserts. PerToolkit (keys are lower-case toolkit
// slugs) takes precedence over Global; when both are empty "latest" is sent.
type ToolkitVersions struct {
	Global     string
	PerToolkit map[string]string
}

// ValidateVersion accepts "latest" or YYYYMMDD_NN where YYYYMMDD is a real date.
func ValidateVersion(v string) error {
	if v == VersionLatest {
		return nil
	}
	m := versionRE.FindStringSubmatch(v)
	if m == nil {
		return fmt.Errorf("invalid toolkit version %q: expected YYYYMMDD_NN (e.g. 20251015_00) or %q", v, VersionLatest)
	}
	if _, err := time.Parse("20060102", m[1]); err != nil {
		return fmt.Errorf("invalid toolkit version %q: %s is not a valid date", v, m[1])
	}
	return nil
}

// IsZero reports whether no version is configured.
func (v *ToolkitVersions) IsZero() bool {
	return v == nil || (v.Global == "" && len(v.PerToolkit) == 0)
}

// Resolve returns the version for one toolkit: its PerToolkit entry, else
// Global, else "latest". Safe on a nil receiver.
func (v *ToolkitVersions) Resolve(toolkit string) string {
	if v == nil {
		return VersionLatest
	}
	if s, ok := v.PerToolkit[strings.ToLower(toolkit)]; ok && s != "" {
		return s
	}
	if v.Global != "" {
		return v.Global
	}
	return VersionLatest
}

// wireMap returns the per-toolkit map to send, or nil when a single string
// (Global or "latest") should be sent. Toolkits named in hints that have no
// entry get Global, so a global pin is not lost when a map is sent.
func (v *ToolkitVersions) wireMap(hints ...string) map[string]string {
	if v == nil || len(v.PerToolkit) == 0 {
		return nil
	}
	m := make(map[string]string, len(v.PerToolkit)+len(hints))
	for k, s := range v.PerToolkit {
		if s != "" {
			m[strings.ToLower(k)] = s
		}
	}
	if v.Global != "" {
		for _, h := range hints {
			h = strings.ToLower(h)
			if h != "" && m[h] == "" {
				m[h] = v.Global
			}
		}
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

func (v *ToolkitVersions) global() string {
	if v == nil || v.Global == "" {
		return VersionLatest
	}
	return v.Global
}

// setQuery adds toolkit_versions=<v> or toolkit_versions[<slug>]=<v> entries.
func (v *ToolkitVersions) setQuery(q url.Values, hints ...string) {
	m := v.wireMap(hints...)
	if m == nil {
		q.Set("toolkit_versions", v.global())
		return
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		q.Set("toolkit_versions["+k+"]", m[k])
	}
}

// bodyValue is the JSON value of toolkit_versions in an upsert body: a string
// or an object of slug to version.
func (v *ToolkitVersions) bodyValue(hints ...string) any {
	if m := v.wireMap(hints...); m != nil {
		return m
	}
	return v.global()
}

// toolkitOfSlug derives the toolkit slug from a trigger or tool slug
// (GITHUB_COMMIT_EVENT -> github).
func toolkitOfSlug(slug string) string {
	first, _, _ := strings.Cut(slug, "_")
	return strings.ToLower(first)
}
