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
)

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

// Closest returns the candidate nearest to s by edit distance, ignoring
// case, when it is near enough to be a likely typo (at most a third of the
// longer slug's length, at least 2 edits); "" otherwise or when s itself is
// a candidate. The first of equally near candidates wins.
func Closest(s string, candidates []string) string {
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

// DidYouMean is ` Did you mean "X"?` for the closest candidate, or "".
func DidYouMean(s string, candidates []string) string {
	if c := Closest(s, candidates); c != "" {
		return fmt.Sprintf(" Did you mean %q?", c)
	}
	return ""
}
