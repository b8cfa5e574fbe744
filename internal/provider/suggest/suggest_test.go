package suggest

import "testing"

func TestClosestSlug(t *testing.T) {
	t.Parallel()
	tools := []string{"GITHUB_CREATE_AN_ISSUE", "GITHUB_LIST_ISSUES", "GITHUB_CREATE_A_PULL_REQUEST"}
	for _, tc := range []struct{ in, want string }{
		{"GITHUB_CREATE_ISSUE", "GITHUB_CREATE_AN_ISSUE"},
		{"github_list_issue", "GITHUB_LIST_ISSUES"},
		{"GITHUB_CREATE_AN_ISSUE", ""}, // exact: nothing to suggest
		{"SLACK_SEND_MESSAGE", ""},     // too far from every candidate
	} {
		if got := Closest(tc.in, tools); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Closest("githb", []string{"gitlab", "github", "gmail"}); got != "github" {
		t.Errorf("Closest(githb) = %q, want github", got)
	}
	if got := DidYouMean("stirpe", []string{"stripe"}); got != ` Did you mean "stripe"?` {
		t.Errorf("DidYouMean = %q", got)
	}
	// One edit too many is no suggestion: "kitten" is 3 edits from
	// "sitting", more than a third of 7 letters (2).
	if got := Closest("kitten", []string{"sitting"}); got != "" {
		t.Errorf("Closest(kitten, sitting) = %q, want none", got)
	}
}
