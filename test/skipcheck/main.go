// Command skipcheck fails a CI run in which a test skipped for a reason
// that is not allowed there: under CI every tool the suite needs is
// installed (.ci/run), so a skip for a missing tool is a lost test, not a
// choice. It reads `go test -json` streams (files named on the command line)
// and prints each skipped test with its reason; the exit status is 1 when a
// reason matches none of the allowed patterns.
//
//	skipcheck EVENTS.json...
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

// allowed are the reasons a test may skip for in CI: features a CLI of the
// test bed lacks (Terraform before 1.12 / 1.14 / 1.16, OpenTofu), and what runs
// only on demand (the end-to-end benchmark).
var allowed = []*regexp.Regexp{
	regexp.MustCompile(`Terraform CLI version \S+ is below minimum version`),
	regexp.MustCompile(`Terraform CLI version \S+ is (not supported|above maximum)`),
	regexp.MustCompile(`has no resource identity`),
	regexp.MustCompile(`terraform query needs Terraform 1\.14`),
	regexp.MustCompile(`list resources and terraform query need Terraform 1\.14`),
	regexp.MustCompile(`actions need Terraform 1\.14`),
	regexp.MustCompile(`destroy events need Terraform 1\.16`),
	regexp.MustCompile(`OpenTofu has no`),
	regexp.MustCompile(`end-to-end benchmark`),
}

type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// skip is one skipped test and the reason it printed.
type skip struct {
	pkg, test, reason string
}

func main() {
	var skips []skip
	for _, name := range os.Args[1:] {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "skipcheck:", err)
			os.Exit(2)
		}
		s, err := read(f)
		_ = f.Close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "skipcheck: %s: %v\n", name, err)
			os.Exit(2)
		}
		skips = append(skips, s...)
	}
	bad := disallowed(skips)
	for _, s := range bad {
		fmt.Fprintf(os.Stderr, "skipcheck: %s %s skipped in CI for a reason not allowed there: %s\n", s.pkg, s.test, s.reason)
	}
	if len(bad) > 0 {
		fmt.Fprintf(os.Stderr, "skipcheck: %d test(s) skipped because something the suite needs is missing; .ci/run installs it (see its output above)\n", len(bad))
		os.Exit(1)
	}
}

// read returns the skipped tests of one go test -json stream, with the
// lines each printed (the skip message comes from t.Skip's file:line line).
func read(r io.Reader) ([]skip, error) {
	out := map[string][]string{}
	var skips []skip
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			continue // a line go test printed outside JSON
		}
		if e.Test == "" {
			continue
		}
		key := e.Package + " " + e.Test
		switch e.Action {
		case "output":
			if t := strings.TrimSpace(e.Output); t != "" && !strings.HasPrefix(t, "=== ") && !strings.HasPrefix(t, "--- ") {
				out[key] = append(out[key], t)
			}
		case "skip":
			skips = append(skips, skip{pkg: e.Package, test: e.Test, reason: strings.Join(out[key], " ")})
		}
	}
	return skips, sc.Err()
}

// disallowed returns the skips whose reason matches no allowed pattern. A
// parent test that only skipped because all its subtests did is not
// counted on its own.
func disallowed(skips []skip) []skip {
	var bad []skip
	for _, s := range skips {
		ok := false
		for _, re := range allowed {
			if re.MatchString(s.reason) {
				ok = true
				break
			}
		}
		if !ok && s.reason == "" && hasSkippedChild(skips, s) {
			ok = true
		}
		if !ok {
			bad = append(bad, s)
		}
	}
	sort.Slice(bad, func(i, j int) bool { return bad[i].pkg+bad[i].test < bad[j].pkg+bad[j].test })
	return bad
}

func hasSkippedChild(skips []skip, parent skip) bool {
	for _, s := range skips {
		if s.pkg == parent.pkg && strings.HasPrefix(s.test, parent.test+"/") {
			return true
		}
	}
	return false
}
