// Package suggest finds the slug a misspelt one most likely meant, for the
// did-you-mean sentences of plan-time errors.
//
// Each suggestion is taken from the catalog the failing check already read
// (a toolkit's tools) or, for an unknown toolkit or trigger type, from one
// list read on the error path only (once per provider process for toolkits;
// the provider's ProviderData does those reads).
package suggest

import (
	"fmt"
	"strings"

	"github.com/agext/levenshtein"
)

// Closest returns the candidate nearest to s by edit distance (Levenshtein), ignoring
// case, when it is near enough to be a likely typo (at most a third of the
// longer slug's length, at least 2 edits); "" otherwise or when s itself is
// a candidate. The first of equally near candidates wins.
func Closest(s string, candidates []string) string {
	want := strings.ToUpper(strings.TrimSpace(s))
	best, bestDist := "", -1
	for _, c := range candidates {
		d := levenshtein.Distance(want, strings.ToUpper(c), nil)
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

// DidYouMean is ` Did you mean "X"?` for the closest candidate, or "".
func DidYouMean(s string, candidates []string) string {
	if c := Closest(s, candidates); c != "" {
		return fmt.Sprintf(" Did you mean %q?", c)
	}
	return ""
}
