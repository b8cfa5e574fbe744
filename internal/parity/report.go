package parity

import (
	"fmt"
	"io"
	"strings"
)

// printReport writes the comparison grouped by operation: same, in the
// first side only, in the second side only, different type, then the
// notes (statuses, probes, nulls, presence, enum values). Each finding is
// marked FAIL (it fails the check) or info. It prints member names, JSON
// types, statuses, header names and the enum values of enumKeys: never
// another value. verbose lists the members that are the same.
func printReport(w io.Writer, c *comparison, verbose bool) {
	for _, r := range c.ops {
		fmt.Fprintf(w, "\n%s  GET %s  (%s)\n", r.op.id, r.op.path, r.op.clientMethod)
		if r.notCompared != "" {
			fmt.Fprintf(w, "  not compared: %s\n", r.notCompared)
			continue
		}
		fmt.Fprintf(w, "  answers: %s %d, %s %d\n", c.a, r.answersA, c.b, r.answersB)
		if verbose && len(r.same) > 0 {
			fmt.Fprintf(w, "  same (%d): %s\n", len(r.same), strings.Join(r.same, ", "))
		} else {
			fmt.Fprintf(w, "  same: %d\n", len(r.same))
		}
		printGroup(w, "in the "+c.a+" only", r.onlyA)
		printGroup(w, "in the "+c.b+" only", r.onlyB)
		printGroup(w, "different type", r.differentType)
		printGroup(w, "notes", r.notes)
	}
	fmt.Fprintf(w, "\nheaders (rate limit, request id)\n")
	if len(c.headers) == 0 {
		fmt.Fprintf(w, "  same\n")
	}
	printGroup(w, "", c.headers)
}

func printGroup(w io.Writer, title string, fs []finding) {
	if len(fs) == 0 {
		return
	}
	indent := "  "
	if title != "" {
		fmt.Fprintf(w, "  %s:\n", title)
		indent = "    "
	}
	for _, f := range fs {
		mark := "info"
		if f.fails {
			mark = "FAIL"
		}
		fmt.Fprintf(w, "%s%s  %s: %s\n", indent, mark, f.path, f.detail)
	}
}

// printSummary writes the last line.
func printSummary(w io.Writer, c *comparison) {
	fails, all := c.failures(), c.reported()
	switch {
	case all == 0:
		fmt.Fprintf(w, "\nparity: no difference between the %s and the %s\n", c.a, c.b)
	case fails == 0:
		fmt.Fprintf(w, "\nparity: no difference in what the provider reads; %d difference(s) reported (info)\n", all)
	default:
		fmt.Fprintf(w, "\nparity: %d difference(s) in what the provider reads (FAIL), %d reported in all\n", fails, all)
	}
}
