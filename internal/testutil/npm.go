package testutil

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// npmLockStale is how old an install lock may get before it counts as left
// by a killed test binary (npm ci itself is given 5 minutes).
const npmLockStale = 10 * time.Minute

// NPMInstall runs `npm ci` in dir unless installed reports true. go test runs
// packages in parallel, and more than one package uses the same node_modules:
// the install holds a lock that the others wait for, and whoever gets the lock
// after an install finds it done.
func NPMInstall(tb testing.TB, npm, dir string, env []string, installed func() bool) {
	tb.Helper()
	if installed() {
		return
	}
	sum := sha256.Sum256([]byte(dir))
	lock := filepath.Join(os.TempDir(), "npm-ci-"+hex.EncodeToString(sum[:8])+".lock")
	for {
		err := os.Mkdir(lock, 0o700)
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrExist) {
			tb.Fatalf("npm install lock %s: %v", lock, err)
		}
		if fi, err := os.Stat(lock); err == nil && time.Since(fi.ModTime()) > npmLockStale {
			_ = os.Remove(lock)
			continue
		}
		select {
		case <-tb.Context().Done():
			tb.Fatalf("waiting for npm install lock %s: %v", lock, tb.Context().Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
	defer func() { _ = os.Remove(lock) }()
	if installed() {
		return
	}
	ctx, cancel := context.WithTimeout(tb.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund", "--prefer-offline")
	cmd.Dir = dir
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("npm ci in %s failed: %v\n%s", dir, err, out)
	}
	if lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json")); err == nil {
		_ = os.WriteFile(filepath.Join(dir, "node_modules", npmLockStamp), []byte(sha256Hex(lock)+"\n"), 0o600)
	}
	if !installed() {
		tb.Fatalf("npm ci in %s did not install what package-lock.json pins", dir)
	}
}

// npmLockStamp, inside node_modules, holds the SHA-256 of the
// package-lock.json that NPMInstall installed from.
const npmLockStamp = ".package-lock.sha256"

// NPMLockInstalled reports whether dir/node_modules was installed by
// NPMInstall from the current dir/package-lock.json: an installed check for
// NPMInstall when every pinned package matters, not one version.
func NPMLockInstalled(dir string) bool {
	lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return false
	}
	got, err := os.ReadFile(filepath.Join(dir, "node_modules", npmLockStamp))
	return err == nil && strings.TrimSpace(string(got)) == sha256Hex(lock)
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// NPMInstalledVersion is the version of the npm package pkg installed in
// dir/node_modules, or "" when there is none.
func NPMInstalledVersion(dir, pkg string) string {
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", filepath.FromSlash(pkg), "package.json"))
	if err != nil {
		return ""
	}
	var meta struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(b, &meta) != nil {
		return ""
	}
	return meta.Version
}
