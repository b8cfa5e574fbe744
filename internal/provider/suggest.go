package provider

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
)

// Did-you-mean suggestions for slugs in plan-time errors. Each suggestion is
// taken from the catalog the failing check already read (a toolkit's tools)
// or, for an unknown toolkit or trigger type, from one list read on the error
// path only (once per provider process for toolkits).

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// closestSlug returns the candidate nearest to s by edit distance, ignoring
// case, when it is near enough to be a likely typo (at most a third of the
// longer slug's length, at least 2 edits); "" otherwise or when s itself is
// a candidate. The first of equally near candidates wins.
func closestSlug(s string, candidates []string) string {
	want := strings.ToUpper(strings.TrimSpace(s))
	best, bestDist := "", -1
	for _, c := range candidates {
		d := editDistance(want, strings.ToUpper(c))
		if d == 0 {
			return ""
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	if best == "" || bestDist > max(2, max(len(want), len(best))/3) {
		return ""
	}
	return best
}

// didYouMean is ` Did you mean "X"?` for the closest candidate, or "".
func didYouMean(s string, candidates []string) string {
	if c := closestSlug(s, candidates); c != "" {
		return fmt.Sprintf(" Did you mean %q?", c)
	}
	return ""
}

// toolkitSlugs returns the slugs of the catalog's toolkits (native and the
// project's custom ones), read at most once per provider process; nil when
// they cannot be read.
func (d *ProviderData) toolkitSlugs(ctx context.Context) []string {
	if !d.Configured() {
		return nil
	}
	d.catalogMu.Lock()
	defer d.catalogMu.Unlock()
	if d.catalogRead {
		return d.catalogSlugs
	}
	list, err := d.Client.ListToolkits(ctx, client.ToolkitListParams{Type: "all"})
	if err != nil {
		return nil // not cached: a later error may retry
	}
	d.catalogRead = true
	for _, t := range list {
		d.catalogSlugs = append(d.catalogSlugs, t.Slug)
	}
	return d.catalogSlugs
}

// suggestToolkit is didYouMean for an unknown toolkit slug.
func (d *ProviderData) suggestToolkit(ctx context.Context, slug string) string {
	return didYouMean(slug, d.toolkitSlugs(ctx))
}

// lookupToolkit reads the toolkit slug names, the value of the attribute at
// attr, through Cache (at the provider's version of that toolkit), as every
// plan-time check of a toolkit does. When the read fails it reports, on attr,
// a pinned version that does not exist (addVersionNotFound) or an unknown
// toolkit with the closest slug of the catalog (diagnostics.AddLookupErrorSuggest, with
// suggestToolkit), and returns nil. With customMayFollow, a custom toolkit
// (CUSTOM_...) the service does not have is returned as nil without an error:
// a service_custom_toolkit may register it in the same apply.
func (d *ProviderData) lookupToolkit(ctx context.Context, diags *diag.Diagnostics, attr path.Path, slug string, customMayFollow bool) *client.Toolkit {
	tk, err := d.Cache.Toolkit(ctx, slug)
	if err == nil {
		return tk
	}
	if customMayFollow && client.IsNotFound(err) && strings.HasPrefix(strings.ToUpper(slug), client.CustomToolkitPrefix) {
		return nil
	}
	if !d.addVersionNotFound(ctx, diags, slug, err) {
		diagnostics.AddLookupErrorSuggest(diags, attr, "toolkit", slug, d.VersionFor(slug), err,
			func() string { return d.suggestToolkit(ctx, slug) })
	}
	return nil
}

// suggestTriggerType is didYouMean for an unknown trigger type, among the
// trigger types of the toolkit its slug names (or, when that toolkit does not
// exist, a suggestion for the toolkit part).
func (d *ProviderData) suggestTriggerType(ctx context.Context, slug string) string {
	if !d.Configured() {
		return ""
	}
	tk := toolkitPrefix(slug)
	list, err := d.Client.ListTriggerTypes(ctx, client.TriggerTypeListParams{ToolkitSlugs: []string{strings.ToLower(tk)}})
	if err != nil {
		return ""
	}
	slugs := make([]string, 0, len(list))
	for _, t := range list {
		slugs = append(slugs, t.Slug)
	}
	if len(slugs) == 0 {
		if c := closestSlug(tk, d.toolkitSlugs(ctx)); c != "" {
			return fmt.Sprintf(" The service has no toolkit %q: did you mean toolkit %q?", strings.ToLower(tk), c)
		}
	}
	return didYouMean(slug, slugs)
}

// configuredVersionKeys returns the known keys of toolkit_versions in the
// provider block, sorted.
func configuredVersionKeys(cfg providerModel) []string {
	if cfg.ToolkitVersions.IsNull() || cfg.ToolkitVersions.IsUnknown() {
		return nil
	}
	keys := make([]string, 0, len(cfg.ToolkitVersions.Elements()))
	for k := range cfg.ToolkitVersions.Elements() {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// checkToolkitVersionKeys reports, once per provider process, each key of
// toolkit_versions in the provider block that names no toolkit of the
// catalog, with the closest toolkit slug. It runs from the plan-time checks
// of the resources that read the catalog (inside remotePlanChecks) and from
// readReady (every data source's Read, the ephemeral resource's Open, every
// list resource's List), so that whatever the configuration holds, the first
// of them checks the keys; never while `terraform destroy` runs (both go
// through gatedChecks). Each key is read through Cache at its pinned
// version, the read the resources and data sources of that toolkit make
// anyway (a configuration that uses none of the pinned toolkits pays one
// read per key and run); only a 404 costs one more read (at the default
// version, to tell an unknown toolkit from an unknown version). Custom
// toolkit keys (CUSTOM_...) are not checked: one may be registered in the
// same apply. A provider without a project key (only the organization's
// projects) reads no toolkit and checks nothing.
func (d *ProviderData) checkToolkitVersionKeys(ctx context.Context, diags *diag.Diagnostics) {
	if !d.Configured() || d.NoProjectKey || len(d.VersionKeys) == 0 || !d.versionKeysChecked.CompareAndSwap(false, true) {
		return
	}
	for _, key := range d.VersionKeys {
		slug := strings.ToLower(strings.TrimSpace(key))
		if strings.HasPrefix(strings.ToUpper(slug), client.CustomToolkitPrefix) {
			continue
		}
		if _, err := d.Cache.Toolkit(ctx, slug); !client.IsNotFound(err) && !client.IsStatus(err, http.StatusBadRequest) {
			continue
		}
		if _, err := d.Client.GetToolkit(ctx, slug, ""); !client.IsNotFound(err) {
			continue // the toolkit exists (a version that does not is reported where it is used)
		}
		diags.AddError("Unknown toolkit in toolkit_versions",
			fmt.Sprintf("Provider attribute toolkit_versions[%q]: the service has no toolkit %q, so this version pin "+
				"applies to nothing.%s Fix the key or remove it (the service_toolkits data source lists the toolkits).",
				key, slug, d.suggestToolkit(ctx, slug)))
	}
}
