// Package packaging_test goes through what a user installing the provider
// from the Terraform Registry goes through, offline: goreleaser builds a
// snapshot release of .goreleaser.yml for the host platform (registry-format
// zip, SHA256SUMS, detached GPG signature made with a throwaway key, registry
// manifest); the zip is laid out in a local filesystem mirror like a
// registry; `terraform init` installs the provider from that mirror by its
// registry source and version; and `terraform apply` works against an
// emulator.
package packaging_test

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

const (
	project = "terraform-provider-service"
	// version is the snapshot's version (goreleaser reads SNAPSHOT_VERSION,
	// see .goreleaser.yml), pinned by the configuration below.
	version = "0.1.0-pkgtest"
)

func TestPackaging(t *testing.T) {
	testutil.RequireTerraform(t)
	gpg, err := exec.LookPath("gpg")
	if err != nil {
		t.Skip("gpg is not on PATH: cannot sign the snapshot's SHA256SUMS")
	}
	root := testutil.RepoRoot(t)
	start := time.Now()
	goreleaser := ensureGoreleaser(t, root)
	goos, goarch := runtime.GOOS, runtime.GOARCH
	platform := goos + "_" + goarch

	// A throwaway signing key in a temporary GNUPGHOME (short path: the
	// agent's socket must fit in a unix socket name).
	gnupgHome, err := os.MkdirTemp("", "gpg") //nolint:usetesting // t.TempDir paths can be too long for gpg-agent sockets
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(gnupgHome, 0o700); err != nil {
		t.Fatal(err)
	}
	gpgEnv := append(os.Environ(), "GNUPGHOME="+gnupgHome)
	t.Cleanup(func() {
		kill := exec.CommandContext(context.Background(), "gpgconf", "--kill", "gpg-agent") //nolint:usetesting // t.Context is done during Cleanup
		kill.Env = gpgEnv
		_ = kill.Run()
		_ = os.RemoveAll(gnupgHome)
	})
	run(t, root, gpgEnv, gpg, "--batch", "--pinentry-mode", "loopback", "--passphrase", "",
		"--quick-gen-key", "Packaging Test <packaging-test@example.invalid>", "ed25519", "sign", "1d")
	fingerprint := ""
	sc := bufio.NewScanner(strings.NewReader(run(t, root, gpgEnv, gpg, "--batch", "--with-colons", "--list-secret-keys")))
	for sc.Scan() {
		if f := strings.Split(sc.Text(), ":"); f[0] == "fpr" && len(f) > 9 {
			fingerprint = f[9]
			break
		}
	}
	if fingerprint == "" {
		t.Fatal("no fingerprint for the generated key")
	}

	// goreleaser, restricted to the host platform, with dist/ in a temp dir.
	work := t.TempDir()
	dist := filepath.Join(work, "dist")
	cfgPath := filepath.Join(work, "goreleaser.yml")
	writeFile(t, cfgPath, hostOnlyConfig(t, root, goos, goarch, dist))
	grStart := time.Now()
	out := run(t, root, append(gpgEnv, "SNAPSHOT_VERSION="+version, "GPG_FINGERPRINT="+fingerprint),
		goreleaser, "release", "--snapshot", "--clean", "--config", cfgPath)
	t.Logf("goreleaser snapshot for %s took %s", platform, time.Since(grStart).Round(time.Millisecond))
	if testing.Verbose() {
		t.Logf("goreleaser output:\n%s", out)
	}

	zipName := fmt.Sprintf("%s_%s_%s.zip", project, version, platform)
	sumsName := fmt.Sprintf("%s_%s_SHA256SUMS", project, version)
	manifestName := fmt.Sprintf("%s_%s_manifest.json", project, version)
	checkArtifacts(t, root, dist, zipName, sumsName, manifestName)

	// The detached signature verifies against SHA256SUMS, and is binary (the
	// Registry does not take ASCII-armored signatures).
	sig := filepath.Join(dist, sumsName+".sig")
	sigBytes, err := os.ReadFile(sig)
	if err != nil {
		t.Fatalf("no signature: %v", err)
	}
	if strings.HasPrefix(string(sigBytes), "-----BEGIN") {
		t.Errorf("%s is ASCII-armored; the Registry needs a binary signature", filepath.Base(sig))
	}
	run(t, root, gpgEnv, gpg, "--batch", "--verify", sig, filepath.Join(dist, sumsName))

	// A filesystem mirror in the packed layout a registry mirror uses.
	mirror := filepath.Join(work, "mirror")
	pkgDir := filepath.Join(mirror, "registry.terraform.io", "integration-service", "service")
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(dist, zipName), filepath.Join(pkgDir, zipName))
	cliConfig := filepath.Join(work, "terraform.rc")
	writeFile(t, cliConfig, fmt.Sprintf(`provider_installation {
  filesystem_mirror {
    path    = %q
    include = ["registry.terraform.io/integration-service/service"]
  }
  direct {
    exclude = ["registry.terraform.io/integration-service/service"]
  }
}
`, mirror))

	// The emulator users download: the one from the release's archive.
	emulator := testutil.StartEmulator(t, checkEmulatorArchive(t, root, dist, platform))
	env := testutil.TerraformEnv(cliConfig,
		"SERVICE_BASE_URL="+emulator.URL,
		"SERVICE_API_KEY="+emulator.APIKey,
		"TF_DATA_DIR="+filepath.Join(work, "tfdata"),
	)

	cfgDir := filepath.Join(work, "config")
	if err := os.MkdirAll(cfgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(cfgDir, "main.tf"), fmt.Sprintf(`terraform {
  required_providers {
    service = {
      source  = "integration-service/service"
      version = %q
    }
  }
}

provider "service" {}

data "service_toolkit_categories" "all" {}

output "category_count" {
  value = length(data.service_toolkit_categories.all.categories)
}

resource "service_auth_config" "stripe" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = "packaging-test"
}

output "auth_config_id" {
  value = service_auth_config.stripe.id
}
`, version))

	out = testutil.MustTerraform(t, cfgDir, env, "init", "-no-color", "-input=false")
	if !strings.Contains(out, "Installing integration-service/service v"+version) {
		t.Errorf("terraform init did not install v%s from the mirror:\n%s", version, out)
	}
	lock, err := os.ReadFile(filepath.Join(cfgDir, ".terraform.lock.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^\s*version\s*=\s*"` + regexp.QuoteMeta(version) + `"$`).Match(lock) {
		t.Errorf("lock file does not pin %s:\n%s", version, lock)
	}
	out = testutil.MustTerraform(t, cfgDir, env, "version", "-no-color")
	if !strings.Contains(out, "provider registry.terraform.io/integration-service/service v"+version) {
		t.Errorf("terraform version does not list the installed provider:\n%s", out)
	}

	out = testutil.MustTerraform(t, cfgDir, env, "apply", "-auto-approve", "-no-color", "-input=false")
	if !strings.Contains(out, "Apply complete!") {
		t.Errorf("apply did not complete:\n%s", out)
	}
	out = testutil.MustTerraform(t, cfgDir, env, "output", "-no-color", "-json")
	var outputs map[string]struct {
		Value any `json:"value"`
	}
	if err := json.Unmarshal([]byte(out), &outputs); err != nil {
		t.Fatalf("outputs: %v\n%s", err, out)
	}
	if n, _ := outputs["category_count"].Value.(float64); n < 1 {
		t.Errorf("category_count = %v, want at least 1", outputs["category_count"].Value)
	}
	if id, _ := outputs["auth_config_id"].Value.(string); !strings.HasPrefix(id, "ac_") {
		t.Errorf("auth_config_id = %v, want an auth config id", outputs["auth_config_id"].Value)
	}
	if out, code := testutil.Terraform(t, cfgDir, env, "plan", "-detailed-exitcode", "-no-color", "-input=false"); code != 0 {
		t.Errorf("second plan is not empty (exit %d):\n%s", code, out)
	}
	testutil.MustTerraform(t, cfgDir, env, "destroy", "-auto-approve", "-no-color", "-input=false")

	t.Logf("packaging test took %s", time.Since(start).Round(time.Millisecond))
}

// ensureGoreleaser returns bin/goreleaser at the version the GNUmakefile
// pins, through make: nothing to do when it is there already, a wait when
// `make test` is still building it in the background, a build otherwise.
func ensureGoreleaser(t *testing.T, root string) string {
	t.Helper()
	p := filepath.Join(root, "bin", "goreleaser")
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Minute)
	defer cancel()
	start := time.Now()
	cmd := exec.CommandContext(ctx, "make", "-s", "-C", root, p)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building goreleaser (make %s): %v\n%s", p, err, out)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Logf("waited %s for %s", d.Round(time.Second), p)
	}
	return p
}

var (
	goosLine   = regexp.MustCompile(`(?m)^(    goos:) \[.*\]$`)
	goarchLine = regexp.MustCompile(`(?m)^(    goarch:) \[.*\]$`)
	distLine   = regexp.MustCompile(`(?m)^dist:.*$`)
)

// hostOnlyConfig is .goreleaser.yml building for goos/goarch only, into dist.
func hostOnlyConfig(t *testing.T, root, goos, goarch, dist string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, ".goreleaser.yml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := string(b)
	// One goos and one goarch line per build: the provider and the emulator.
	if len(goosLine.FindAllString(cfg, -1)) != 2 || len(goarchLine.FindAllString(cfg, -1)) != 2 {
		t.Fatal(".goreleaser.yml must have one `    goos: [...]` and one `    goarch: [...]` line in each of its two builds (the packaging test rewrites them)")
	}
	cfg = goosLine.ReplaceAllString(cfg, "$1 ["+goos+"]")
	cfg = goarchLine.ReplaceAllString(cfg, `$1 ["`+goarch+`"]`)
	cfg = distLine.ReplaceAllString(cfg, "")
	return cfg + "\ndist: " + dist + "\n"
}

// checkArtifacts verifies the names and contents of the snapshot's files.
func checkArtifacts(t *testing.T, root, dist, zipName, sumsName, manifestName string) {
	t.Helper()
	entries, err := os.ReadDir(dist)
	if err != nil {
		t.Fatal(err)
	}
	zipRE := regexp.MustCompile(`^` + regexp.QuoteMeta(project) + `_(\d+\.\d+\.\d+[-+.A-Za-z0-9]*)_([a-z0-9]+)_([a-z0-9]+)\.zip$`)
	var zips []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), project+"_") && strings.HasSuffix(e.Name(), ".zip") {
			zips = append(zips, e.Name())
			if m := zipRE.FindStringSubmatch(e.Name()); m == nil || m[1] != version {
				t.Errorf("archive %s does not follow %s_<version>_<os>_<arch>.zip with version %s", e.Name(), project, version)
			}
		}
	}
	if len(zips) != 1 || zips[0] != zipName {
		t.Fatalf("archives = %v, want exactly [%s]", zips, zipName)
	}

	// The zip holds the binary, named as the Registry expects, and the
	// repository's LICENSE.
	zr, err := zip.OpenReader(filepath.Join(dist, zipName))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	wantBin := project + "_v" + version
	if runtime.GOOS == "windows" {
		wantBin += ".exe"
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		switch f.Name {
		case wantBin:
			if f.Mode()&0o111 == 0 {
				t.Errorf("%s in the zip is not executable (mode %v)", wantBin, f.Mode())
			}
		case "LICENSE":
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(r)
			_ = r.Close()
			if err != nil {
				t.Fatal(err)
			}
			checkLicense(t, root, zipName, b)
		}
	}
	slices.Sort(names)
	if want := []string{"LICENSE", wantBin}; !slices.Equal(names, want) {
		t.Errorf("zip contents = %v, want %v", names, want)
	}

	// The manifest (published next to the zips by release.extra_files, so
	// not copied into dist/) is the repository's, declaring protocol 6.0.
	manifestPath := filepath.Join(root, "terraform-registry-manifest.json")
	manifest, err := os.ReadFile(manifestPath)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Version  int `json:"version"`
		Metadata struct {
			ProtocolVersions []string `json:"protocol_versions"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(manifest, &m); err != nil || m.Version != 1 || strings.Join(m.Metadata.ProtocolVersions, ",") != "6.0" {
		t.Errorf("manifest = %s (err %v), want version 1 with protocol_versions [\"6.0\"]", manifest, err)
	}

	// SHA256SUMS lists exactly the zip and the manifest, with right hashes.
	sums, err := os.ReadFile(filepath.Join(dist, sumsName))
	if err != nil {
		t.Fatalf("checksums: %v", err)
	}
	listed := map[string]bool{}
	for line := range strings.Lines(strings.TrimSpace(string(sums))) {
		sum, name, ok := strings.Cut(strings.TrimSpace(line), "  ")
		if !ok {
			t.Errorf("malformed SHA256SUMS line %q", line)
			continue
		}
		listed[name] = true
		file := filepath.Join(dist, name)
		if name == manifestName {
			file = manifestPath
		}
		if got := sha256File(t, file); got != sum {
			t.Errorf("SHA256SUMS says %s for %s, file hashes to %s", sum, name, got)
		}
	}
	if len(listed) != 2 || !listed[zipName] || !listed[manifestName] {
		t.Errorf("SHA256SUMS lists %v, want exactly %s and %s", listed, zipName, manifestName)
	}
}

// checkLicense fails unless b, the LICENSE of the archive name, is the
// repository's LICENSE (the MPL-2.0).
func checkLicense(t *testing.T, root, name string, b []byte) {
	t.Helper()
	want, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, want) || !bytes.HasPrefix(want, []byte("Mozilla Public License Version 2.0\n")) {
		t.Errorf("the LICENSE in %s is not the repository's MPL-2.0 LICENSE (%d bytes, want %d)", name, len(b), len(want))
	}
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return string(out)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, to, string(b))
}

func sha256File(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}
