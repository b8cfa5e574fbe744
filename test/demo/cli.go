// Package demo holds what the tests of test/demo and test/devloop need to run
// scripts/demo.sh and scripts/dev.sh the way users do, with only Terraform or
// only OpenTofu on PATH: finding each CLI, building such a PATH, fake CLIs.
package demo

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
)

// A CLI the demo runs: Terraform or OpenTofu, found on this machine.
type CLI struct {
	Name    string // the command users type: terraform or tofu
	Product string // Terraform or OpenTofu
	Path    string // the binary (absolute), "" when none was found
	Version string // e.g. 1.12.6
	Skip    string // why there is no usable binary, when Path is ""
}

// minMinor is the oldest supported 1.x release of both CLIs (write-only
// attributes need 1.11 in Terraform and in OpenTofu).
const minMinor = 11

// FindTerraform looks for the oldest supported Terraform the way `make test`
// provides it: TERRAFORM_OLDEST, else terraform on PATH, else the newest
// bin/terraform-* of the repository.
func FindTerraform(root string) CLI {
	return findCLI(root, "terraform", "Terraform", []string{"TERRAFORM_OLDEST"}, true)
}

// FindTofu looks for OpenTofu: TOFU_PATH (a CLI of your own), else TOFU (the
// one `make test` built), else the newest bin/tofu-* of the repository (what
// `make clis` builds), else tofu on PATH.
func FindTofu(root string) CLI {
	return findCLI(root, "tofu", "OpenTofu", []string{"TOFU_PATH", "TOFU"}, false)
}

// findCLI looks at the variables envs, then at name on PATH (when pathFirst)
// or the newest bin/NAME-VERSION, then at the other one, and checks that the
// binary found is product 1.11 or later.
func findCLI(root, name, product string, envs []string, pathFirst bool) CLI {
	c := CLI{Name: name, Product: product}
	var tried []string
	for _, env := range envs {
		tried = append(tried, "$"+env)
		if v := os.Getenv(env); v != "" {
			c.Path = v
			break
		}
	}
	onPath := func() {
		tried = append(tried, name+" on PATH")
		c.Path, _ = exec.LookPath(name)
	}
	inBin := func() {
		tried = append(tried, "bin/"+name+"-VERSION")
		c.Path = newestBin(filepath.Join(root, "bin"), name+"-")
	}
	lookups := []func(){inBin, onPath}
	if pathFirst {
		lookups = []func(){onPath, inBin}
	}
	for _, look := range lookups {
		if c.Path == "" {
			look()
		}
	}
	if c.Path == "" {
		c.Skip = "no " + product + " CLI found (looked at " + strings.Join(tried, ", ") + ")"
		if name == "tofu" {
			c.Skip += "; `make clis` builds bin/tofu-VERSION"
		}
		return c
	}
	if abs, err := filepath.Abs(c.Path); err == nil {
		c.Path = abs
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	version := exec.CommandContext(ctx, c.Path, "version")
	version.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1")
	out, err := version.Output()
	if err != nil {
		c.Skip, c.Path = product+" CLI "+c.Path+": version failed: "+err.Error(), ""
		return c
	}
	// OpenTofu prints warnings about the CLI configuration on stdout, before
	// the version.
	m := regexp.MustCompile(`(?m)^` + product + ` v((\d+)\.(\d+)\.\S*)`).FindStringSubmatch(string(out))
	if m == nil {
		c.Skip, c.Path = c.Path+" is not "+product+": its version command printed "+strconv.Quote(strings.TrimSpace(string(out))), ""
		return c
	}
	c.Version = m[1]
	major, _ := strconv.Atoi(m[2])
	minor, _ := strconv.Atoi(m[3])
	if major < 1 || (major == 1 && minor < minMinor) {
		c.Skip, c.Path = product+" "+c.Version+" at "+c.Path+" is older than 1.11, the oldest the provider supports", ""
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

// hiddenCLIs are the commands OnlyCLIPath keeps off PATH.
var hiddenCLIs = []string{"terraform", "tofu"}

// OnlyCLIPath returns a PATH on which name (if not "") is the binary bin and
// neither terraform nor tofu is otherwise found: the directories of the test
// process's PATH, each one holding terraform or tofu replaced by a directory
// of symlinks to its other entries.
func OnlyCLIPath(tb testing.TB, name, bin string) string {
	tb.Helper()
	var dirs []string
	if name != "" {
		first := tb.TempDir()
		if err := os.Symlink(bin, filepath.Join(first, name)); err != nil {
			tb.Fatal(err)
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
		shadow := tb.TempDir()
		for _, e := range entries {
			if slices.Contains(hiddenCLIs, e.Name()) {
				continue
			}
			if err := os.Symlink(filepath.Join(d, e.Name()), filepath.Join(shadow, e.Name())); err != nil {
				tb.Fatal(err)
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
			tb.Fatalf("%s is still found on the test's PATH at %s", h, found)
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

// WithEnv returns env with each KEY=VALUE of set replacing the KEY's earlier
// values, and every variable named in unset removed.
func WithEnv(env []string, unset []string, set ...string) []string {
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

// RequireBash skips the test when bash, which the scripts run in, is not
// on PATH.
func RequireBash(tb testing.TB) {
	tb.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		tb.Skip("bash is not on PATH")
	}
}

// ScriptEnv is the environment of a script (scripts/demo.sh, scripts/dev.sh)
// that a test makes choose a CLI: this process's, without the choices a
// user may have made (TF_CLI, PROVIDER_BIN, EMULATOR_BIN), with PATH path,
// no checkpoint calls, and set.
func ScriptEnv(path string, set ...string) []string {
	return WithEnv(os.Environ(), []string{"TF_CLI", "PROVIDER_BIN", "EMULATOR_BIN"},
		append([]string{"PATH=" + path, "CHECKPOINT_DISABLE=1"}, set...)...)
}

// FakeCLI writes an executable dir/name whose `version` prints
// "<product> v<version>" and "on linux_amd64", like the real CLIs, and whose
// other commands fail. A fake OpenTofu first prints the warning OpenTofu
// prints on stdout when its CLI configuration file is missing.
func FakeCLI(tb testing.TB, dir, name, product, version string) string {
	tb.Helper()
	p := filepath.Join(dir, name)
	warning := ""
	if product == "OpenTofu" {
		warning = "'' 'Warning: Unable to open CLI configuration file' '' 'The CLI configuration file at \"/nowhere/.tofurc\" does not exist.' "
	}
	script := "#!/bin/sh\n" +
		"if [ \"$1\" = version ]; then printf '%s\\n' " + warning + "'" + product + " v" + version + "' 'on linux_amd64'; exit 0; fi\n" +
		"echo \"fake " + name + ": $*\" >&2\nexit 1\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		tb.Fatal(err)
	}
	return p
}
