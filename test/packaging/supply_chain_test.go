package packaging

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// usesLine is a workflow step's action: uses: owner/repo[/path]@ref [# comment].
var usesLine = regexp.MustCompile(`(?m)^\s*(?:-\s*)?uses:\s*(\S+)\s*(#.*)?$`)

// pinned is an action pinned by commit with its version in a comment.
var pinned = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[0-9a-f]{40}$`)

var versionComment = regexp.MustCompile(`^#\s*v\d+\.\d+\.\d+\s*$`)

// TestWorkflowActionsPinned: every action of .github/workflows is pinned by
// a commit SHA (a tag can be moved to other code) with the version it is in
// a comment (# v4.4.0), as Dependabot writes them.
func TestWorkflowActionsPinned(t *testing.T) {
	root := testutil.RepoRoot(t)
	files, err := filepath.Glob(filepath.Join(root, ".github", "workflows", "*.y*ml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no workflows under .github/workflows (%v)", err)
	}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range usesLine.FindAllStringSubmatch(string(b), -1) {
			n++
			ref, comment := m[1], strings.TrimSpace(m[2])
			if strings.HasPrefix(ref, "./") {
				continue // an action of this repository
			}
			if !pinned.MatchString(ref) || !versionComment.MatchString(comment) {
				t.Errorf("%s: uses: %s %s: pin the action by its tag's commit SHA with the version in a comment (owner/repo@<40 hex> # vX.Y.Z)",
					filepath.Base(f), ref, comment)
			}
		}
	}
	if n == 0 {
		t.Fatal("no uses: lines found in the workflows")
	}
}

// TestDependabotCoversEveryManifest: .github/dependabot.yml updates the Go
// modules, the GitHub Actions and the npm packages of every package.json of
// the repository (node_modules aside).
func TestDependabotCoversEveryManifest(t *testing.T) {
	root := testutil.RepoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, ".github", "dependabot.yml"))
	if err != nil {
		t.Fatal(err)
	}
	dirs := dependabotDirs(string(b))
	for _, want := range []string{"gomod /", "github-actions /"} {
		if !slices.Contains(dirs, want) {
			t.Errorf("dependabot.yml has no update %q (ecosystem directory); it has %v", want, dirs)
		}
	}
	var manifests []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "bin" || d.Name() == "dist") {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "package.json" {
			rel, err := filepath.Rel(root, filepath.Dir(p))
			if err != nil {
				return err
			}
			manifests = append(manifests, "/"+strings.TrimPrefix(filepath.ToSlash(rel), "."))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(manifests) == 0 {
		t.Fatal("no package.json found")
	}
	for _, m := range manifests {
		if !slices.Contains(dirs, "npm "+m) {
			t.Errorf("dependabot.yml has no npm update for %s/package.json: add its directory", strings.TrimPrefix(m, "/"))
		}
	}
}

// dependabotDirs reads the "ecosystem directory" pairs of a dependabot.yml
// written as ours is: "- package-ecosystem: X" then "directory: /d" or
// "directories:" with one "- /d" a line.
func dependabotDirs(doc string) []string {
	var out []string
	eco, inList := "", false
	for line := range strings.Lines(doc) {
		l := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(l, "- package-ecosystem:"):
			eco, inList = strings.Trim(strings.TrimSpace(strings.TrimPrefix(l, "- package-ecosystem:")), `"'`), false
		case strings.HasPrefix(l, "directory:"):
			out = append(out, eco+" "+strings.Trim(strings.TrimSpace(strings.TrimPrefix(l, "directory:")), `"'`))
			inList = false
		case l == "directories:":
			inList = true
		case inList && strings.HasPrefix(l, "- "):
			out = append(out, eco+" "+strings.Trim(strings.TrimSpace(strings.TrimPrefix(l, "- ")), `"'`))
		default:
			inList = false
		}
	}
	return out
}
