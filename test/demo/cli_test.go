package demo_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/test/testutil"
)

// A CLI the demo runs: Terraform or OpenTofu, found on this machine.
type cli struct {
	name    string // the command users type: terraform or tofu
	product string // Terraform or OpenTofu
	path    string // the binary, "" when none was found
	version string // e.g. 1.12.6
	skip    string // why there is no usable binary
}

// minMinor is the oldest supported 1.x release of both CLIs (write-only
// attributes need 1.11 in Terraform and in OpenTofu).
const minMinor = 11

// findTerraform looks for the oldest supported Terraform the way `make test`
// provides it: TERRAFORM_OLDEST, else terraform on PATH, else the newest
// bin/terraform-* of the repository.
func findTerraform(root string) cli {
	return findCLI(root, "terraform", "Terraform", []string{"TERRAFORM_OLDEST"}, true)
}

// findTofu looks for OpenTofu: TOFU_PATH (a CLI of your own), else TOFU (the
// one `make test` built), else the newest bin/tofu-* of the repository (what
// `make clis` builds), else tofu on PATH.
func findTofu(root string) cli {
	return findCLI(root, "tofu", "OpenTofu", []string{"TOFU_PATH", "TOFU"}, false)
}

// findCLI looks at the variables envs, then at name on PATH (when pathFirst)
// or the newest bin/NAME-VERSION, then at the other one, and checks that the
// binary found is product 1.11 or later.
func findCLI(root, name, product string, envs []string, pathFirst bool) cli {
	c := cli{name: name, product: product}
	var tried []string
	for _, env := range envs {
		tried = append(tried, "$"+env)
		if v := os.Getenv(env); v != "" {
			c.path = v
			break
		}
	}
	onPath := func() {
		tried = append(tried, name+" on PATH")
		c.path, _ = exec.LookPath(name)
	}
	inBin := func() {
		tried = append(tried, "bin/"+name+"-VERSION")
		c.path = newestBin(filepath.Join(root, "bin"), name+"-")
	}
	lookups := []func(){inBin, onPath}
	if pathFirst {
		lookups = []func(){onPath, inBin}
	}
	for _, look := range lookups {
		if c.path == "" {
			look()
		}
	}
	if c.path == "" {
		c.skip = "no " + product + " CLI found (looked at " + strings.Join(tried, ", ") + ")"
		if name == "tofu" {
			c.skip += "; `make clis` builds bin/tofu-VERSION"
		}
		return c
	}
	if abs, err := filepath.Abs(c.path); err == nil {
		c.path = abs
	}
	version := exec.Command(c.path, "version") //nolint:noctx // a local binary printing its version
	version.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1")
	out, err := version.Output()
	if err != nil {
		c.skip, c.path = product+" CLI "+c.path+": version failed: "+err.Error(), ""
		return c
	}
	m := regexp.MustCompile(`^` + product + ` v((\d+)\.(\d+)\.\S*)`).FindStringSubmatch(string(out))
	if m == nil {
		c.skip, c.path = c.path+" is not "+product+": its version command printed "+strconv.Quote(firstLine(string(out))), ""
		return c
	}
	c.version = m[1]
	major, _ := strconv.Atoi(m[2])
	minor, _ := strconv.Atoi(m[3])
	if major < 1 || (major == 1 && minor < minMinor) {
		c.skip, c.path = product+" "+c.version+" at "+c.path+" is older than 1.11, the oldest the provider supports", ""
	}
	return c
}

// newestBin returns the executable dir/PREFIX<version> with the highest
// version, or "".
func newestBin(dir, prefix string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	best, bestV := "", []int(nil)
	for _, e := range entries {
		v, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || e.IsDir() {
			continue
		}
		nums, ok := parseVersion(v)
		if !ok {
			continue
		}
		if info, err := e.Info(); err != nil || info.Mode()&0o111 == 0 {
			continue
		}
		if best == "" || slices.Compare(nums, bestV) > 0 {
			best, bestV = filepath.Join(dir, e.Name()), nums
		}
	}
	return best
}

func parseVersion(v string) ([]int, bool) {
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return nil, false
	}
	nums := make([]int, 3)
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, false
		}
		nums[i] = n
	}
	return nums, true
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// hiddenCLIs are the commands onlyCLIPath keeps off PATH.
var hiddenCLIs = []string{"terraform", "tofu"}

// onlyCLIPath returns a PATH on which name (if not "") is the binary bin and
// neither terraform nor tofu is otherwise found: the directories of the test
// process's PATH, each one holding terraform or tofu replaced by a directory
// of symlinks to its other entries.
func onlyCLIPath(t *testing.T, name, bin string) string {
	t.Helper()
	var dirs []string
	if name != "" {
		first := t.TempDir()
		if err := os.Symlink(bin, filepath.Join(first, name)); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, first)
	}
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if d == "" {
			continue
		}
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		if !slices.ContainsFunc(entries, func(e os.DirEntry) bool { return slices.Contains(hiddenCLIs, e.Name()) }) {
			dirs = append(dirs, d)
			continue
		}
		shadow := t.TempDir()
		for _, e := range entries {
			if slices.Contains(hiddenCLIs, e.Name()) {
				continue
			}
			if err := os.Symlink(filepath.Join(d, e.Name()), filepath.Join(shadow, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
		dirs = append(dirs, shadow)
	}
	p := strings.Join(dirs, string(os.PathListSeparator))
	for _, h := range hiddenCLIs {
		if h == name {
			continue
		}
		if found := lookPathIn(h, p); found != "" {
			t.Fatalf("%s is still found on the test's PATH at %s", h, found)
		}
	}
	return p
}

func lookPathIn(name, path string) string {
	for _, d := range filepath.SplitList(path) {
		p := filepath.Join(d, name)
		if info, err := os.Stat(p); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// withEnv returns env with each KEY=VALUE of set replacing the KEY's earlier
// values, and every variable named in unset removed.
func withEnv(env []string, unset []string, set ...string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(unset, k) || slices.ContainsFunc(set, func(s string) bool { return strings.HasPrefix(s, k+"=") }) {
			continue
		}
		out = append(out, kv)
	}
	return append(out, set...)
}

// fakeCLI writes an executable dir/name whose `version` prints
// "<product> v<version>" and "on linux_amd64", like the real CLIs, and whose
// other commands fail.
func fakeCLI(t *testing.T, dir, name, product, version string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	script := "#!/bin/sh\n" +
		"if [ \"$1\" = version ]; then printf '%s\\n' '" + product + " v" + version + "' 'on linux_amd64'; exit 0; fi\n" +
		"echo \"fake " + name + ": $*\" >&2\nexit 1\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil { //nolint:gosec // an executable on purpose
		t.Fatal(err)
	}
	return p
}

// TestDemoChoosesCLI checks how scripts/demo.sh chooses the CLI and refuses
// one that is too old, with fake CLIs: it stops before starting anything.
func TestDemoChoosesCLI(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not on PATH")
	}
	root := testutil.RepoRoot(t)
	empty := onlyCLIPath(t, "", "")
	fakes := t.TempDir()
	oldTF := fakeCLI(t, t.TempDir(), "terraform", "Terraform", "1.10.5")
	oldTofu := fakeCLI(t, fakes, "tofu", "OpenTofu", "1.10.0")
	notCLI := fakeCLI(t, t.TempDir(), "tofu", "Packer", "1.11.0")
	for _, tc := range []struct {
		name string
		path string   // PATH
		env  []string // extra variables
		want string   // the demo's error line
	}{
		{"neither", empty, nil,
			"demo: neither terraform (>= 1.11) nor tofu (>= 1.11) is on PATH; install one or set TF_CLI"},
		{"old terraform", filepath.Dir(oldTF) + ":" + empty, nil,
			"demo: Terraform 1.10.5 (" + oldTF + ") is too old: Terraform >= 1.11 or OpenTofu >= 1.11 is needed (write-only attributes)"},
		{"old terraform, tofu too", filepath.Dir(oldTF) + ":" + fakes + ":" + empty, nil,
			"demo: Terraform 1.10.5 (" + oldTF + ") is too old: Terraform >= 1.11 or OpenTofu >= 1.11 is needed (write-only attributes); tofu is on PATH too: TF_CLI=tofu runs it"},
		{"old tofu", fakes + ":" + empty, nil,
			"demo: OpenTofu 1.10.0 (" + oldTofu + ") is too old: Terraform >= 1.11 or OpenTofu >= 1.11 is needed (write-only attributes)"},
		{"TF_CLI names tofu", filepath.Dir(oldTF) + ":" + fakes + ":" + empty, []string{"TF_CLI=tofu"},
			"demo: OpenTofu 1.10.0 (" + oldTofu + ") is too old: Terraform >= 1.11 or OpenTofu >= 1.11 is needed (write-only attributes)"},
		{"TF_CLI is a path", empty, []string{"TF_CLI=" + oldTF},
			"demo: Terraform 1.10.5 (" + oldTF + ") is too old: Terraform >= 1.11 or OpenTofu >= 1.11 is needed (write-only attributes)"},
		{"TF_CLI not on PATH", empty, []string{"TF_CLI=tofu"},
			"demo: TF_CLI=tofu is not on PATH (set TF_CLI to terraform, tofu or the path of either)"},
		{"TF_CLI missing file", empty, []string{"TF_CLI=" + filepath.Join(fakes, "nope")},
			"demo: TF_CLI=" + filepath.Join(fakes, "nope") + " is not an executable file"},
		{"not a CLI", empty, []string{"TF_CLI=" + notCLI},
			"demo: " + notCLI + ` is neither Terraform nor OpenTofu: 'version' printed "Packer v1.11.0"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, filepath.Join(root, "scripts", "demo.sh"))
			cmd.Dir = root
			tmp := t.TempDir()
			cmd.Env = withEnv(os.Environ(), []string{"TF_CLI", "PROVIDER_BIN", "EMULATOR_BIN"},
				append([]string{"PATH=" + tc.path, "TMPDIR=" + tmp, "CHECKPOINT_DISABLE=1"}, tc.env...)...)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the demo succeeded, want an error:\n%s", out)
			}
			if got := strings.TrimSpace(string(out)); got != tc.want {
				t.Errorf("the demo printed\n%s\nwant\n%s", got, tc.want)
			}
			if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
				t.Errorf("the demo left %d entries in TMPDIR", len(entries))
			}
		})
	}
}
