package packaging_test

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// checkEmulatorArchive checks the snapshot's service-emulator archive for the
// host platform (beside the registry zips, with its own .sha256 file) and
// returns the path of the binary extracted from it.
func checkEmulatorArchive(t *testing.T, root, dist, platform string) string {
	t.Helper()
	name := fmt.Sprintf("service-emulator_%s_%s.tar.gz", version, platform)
	archive := filepath.Join(dist, name)
	sum, err := os.ReadFile(archive + ".sha256")
	if err != nil {
		t.Fatalf("no checksum file for %s: %v", name, err)
	}
	if want := sha256File(t, archive) + "  " + name + "\n"; string(sum) != want {
		t.Errorf("%s.sha256 = %q, want %q (sha256sum format)", name, sum, want)
	}

	f, err := os.Open(archive)
	if err != nil {
		t.Fatalf("no emulator archive: %v", err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	bin := filepath.Join(t.TempDir(), "service-emulator")
	var names []string
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		names = append(names, h.Name)
		if h.Name == "LICENSE" {
			b, err := io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
			checkLicense(t, root, name, b)
		}
		if h.Name != "service-emulator" {
			continue
		}
		if h.FileInfo().Mode()&0o111 == 0 {
			t.Errorf("service-emulator in %s is not executable (mode %v)", name, h.FileInfo().Mode())
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, b, 0o755); err != nil { //nolint:gosec // an executable
			t.Fatal(err)
		}
	}
	slices.Sort(names)
	if strings.Join(names, ",") != "LICENSE,README.md,service-emulator" {
		t.Fatalf("%s holds %v, want [LICENSE README.md service-emulator]", name, names)
	}
	return bin
}
