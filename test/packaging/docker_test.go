package packaging_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// TestDockerBuildContext checks the emulator's Dockerfile and .dockerignore
// without a Docker engine: the declared build arguments, the Go version, the
// files each COPY takes from the context, the binary's path from build to
// ENTRYPOINT, a non-root user, the data volume and port; and it builds the
// emulator from exactly the files the .dockerignore lets into the context.
func TestDockerBuildContext(t *testing.T) {
	root := testutil.RepoRoot(t)
	df := parseDockerfile(t, filepath.Join(root, "Dockerfile"))
	ignore := readDockerignore(t, filepath.Join(root, ".dockerignore"))
	inContext := contextFiles(t, root, ignore)

	if len(df.stages) != 2 {
		t.Fatalf("Dockerfile has %d stages, want 2 (a Go build stage and the runtime image)", len(df.stages))
	}
	build, final := df.stages[0], df.stages[1]

	// Build arguments: every ${VAR} used is declared; GO_VERSION is go.mod's.
	declared := map[string]string{}
	for _, in := range df.all {
		if in.cmd == "ARG" {
			name, def, _ := strings.Cut(in.args, "=")
			declared[name] = def
		}
	}
	for _, in := range df.all {
		for _, m := range regexp.MustCompile(`\$\{?([A-Z_][A-Z0-9_]*)`).FindAllStringSubmatch(in.args, -1) {
			if _, ok := declared[m[1]]; !ok && in.cmd != "RUN" {
				t.Errorf("%s %s uses ${%s}, which no ARG declares", in.cmd, in.args, m[1])
			}
		}
	}
	goMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(goMod)
	if goVersion == nil || declared["GO_VERSION"] != string(goVersion[1]) {
		t.Errorf("ARG GO_VERSION=%q, want go.mod's go version %q", declared["GO_VERSION"], goVersion[1])
	}
	if !strings.Contains(build.from, "golang:${GO_VERSION}") {
		t.Errorf("build stage FROM %q, want golang:${GO_VERSION}", build.from)
	}

	// Every COPY from the context names files the context holds.
	for _, in := range build.instr {
		if in.cmd != "COPY" || strings.Contains(in.args, "--from=") {
			continue
		}
		f := strings.Fields(in.args)
		for _, src := range f[:len(f)-1] {
			src = strings.TrimSuffix(src, "/")
			if !slices.ContainsFunc(inContext, func(p string) bool { return p == src || strings.HasPrefix(p, src+"/") }) {
				t.Errorf("COPY %s: %s is not in the build context (.dockerignore or a missing file)", in.args, src)
			}
		}
	}

	// The binary the build stage writes is the one the image runs.
	run := build.find("RUN", "go build")
	out := regexp.MustCompile(`-o (\S+) (\./cmd/service-emulator)\b`).FindStringSubmatch(run)
	if out == nil {
		t.Fatalf("build stage does not `go build -o PATH ./cmd/service-emulator`: %q", run)
	}
	if !strings.Contains(run, "CGO_ENABLED=0") {
		t.Errorf("the build must be static (CGO_ENABLED=0) for a distroless/static or scratch image: %q", run)
	}
	if !strings.HasPrefix(final.from, "gcr.io/distroless/static") && final.from != "scratch" {
		t.Errorf("runtime image FROM %q, want distroless static or scratch", final.from)
	}
	binCopy := regexp.MustCompile(`^--from=build (\S+) (\S+)$`).FindStringSubmatch(final.find("COPY", out[1]))
	if binCopy == nil || binCopy[1] != out[1] {
		t.Fatalf("runtime stage does not COPY --from=build %s", out[1])
	}
	entry := final.find("ENTRYPOINT", "")
	if entry != `["`+binCopy[2]+`"]` {
		t.Errorf("ENTRYPOINT %s, want [%q] (where the binary is copied)", entry, binCopy[2])
	}

	// Non-root, a data volume it can write, and the listen port exposed.
	user := final.find("USER", "")
	if user == "" || user == "root" || strings.HasPrefix(user, "0") {
		t.Errorf("USER %q: the image must run as a non-root user", user)
	}
	uid, _, _ := strings.Cut(user, ":")
	if dataCopy := final.find("COPY", "/data"); !strings.Contains(dataCopy, "--chown="+uid) {
		t.Errorf("the /data directory is not owned by the image's user %s: %q", uid, dataCopy)
	}
	if v := final.find("VOLUME", ""); v != `["/data"]` {
		t.Errorf("VOLUME %s, want [\"/data\"]", v)
	}
	cmd := final.find("CMD", "")
	if !strings.Contains(cmd, `"--data", "/data/`) {
		t.Errorf("CMD %s does not keep --data in /data", cmd)
	}
	listen := regexp.MustCompile(`"--listen", "0\.0\.0\.0:(\d+)"`).FindStringSubmatch(cmd)
	if listen == nil || final.find("EXPOSE", "") != listen[1] {
		t.Errorf("CMD %s must --listen on 0.0.0.0:<port> with EXPOSE <port> (EXPOSE %s)", cmd, final.find("EXPOSE", ""))
	}

	// Nothing private or bulky in the context.
	for _, p := range inContext {
		for _, bad := range []string{".git/", "bin/", "dist/", ".dev/", "node_modules/"} {
			if strings.HasPrefix(p, bad) || strings.Contains(p, "/"+bad) {
				t.Errorf("the build context holds %s (add it to .dockerignore)", p)
			}
		}
	}

	// What `docker build` would do, minus Docker: build the emulator from a
	// copy of exactly the context, and check the flags CMD passes exist.
	ctxDir := t.TempDir()
	for _, p := range inContext {
		b, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(ctxDir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ctxDir, p), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "service-emulator")
	gb := exec.CommandContext(ctx, "go", "build", "-mod=readonly", "-trimpath", "-o", bin, out[2])
	gb.Dir = ctxDir
	gb.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := gb.CombinedOutput(); err != nil {
		t.Fatalf("go build %s from the Docker build context failed (files missing from .dockerignore's allow list?): %v\n%s", out[2], err, b)
	}
	help, _ := exec.CommandContext(ctx, bin, "-h").CombinedOutput()
	for _, m := range regexp.MustCompile(`"(--[a-z-]+)"`).FindAllStringSubmatch(cmd, -1) {
		if !strings.Contains(string(help), "-"+strings.TrimLeft(m[1], "-")+" ") {
			t.Errorf("CMD passes %s, which service-emulator -h does not list:\n%s", m[1], help)
		}
	}
}

type instruction struct{ cmd, args string }

type stage struct {
	from  string
	instr []instruction
}

// find returns the arguments of the stage's last cmd instruction containing substr.
func (s stage) find(cmd, substr string) string {
	found := ""
	for _, in := range s.instr {
		if in.cmd == cmd && strings.Contains(in.args, substr) {
			found = in.args
		}
	}
	return found
}

type dockerfile struct {
	all    []instruction
	stages []stage
}

// parseDockerfile reads instructions, joining continuation lines and
// dropping comments.
func parseDockerfile(t *testing.T, path string) dockerfile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var df dockerfile
	var cur string
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") || (line == "" && cur == "") {
			continue
		}
		if rest, ok := strings.CutSuffix(line, "\\"); ok {
			cur += strings.TrimSpace(rest) + " "
			continue
		}
		cur += line
		cmd, args, _ := strings.Cut(strings.TrimSpace(cur), " ")
		cur = ""
		in := instruction{strings.ToUpper(cmd), strings.TrimSpace(args)}
		df.all = append(df.all, in)
		if in.cmd == "FROM" {
			from, _, _ := strings.Cut(in.args, " ")
			df.stages = append(df.stages, stage{from: from})
		} else if n := len(df.stages); n > 0 {
			df.stages[n-1].instr = append(df.stages[n-1].instr, in)
		}
	}
	return df
}

type ignoreRule struct {
	re     *regexp.Regexp
	negate bool
}

// readDockerignore compiles .dockerignore patterns with Docker's semantics:
// `*` and `?` within one path element, `**` across elements, `!` re-includes,
// the last matching rule wins, and a rule matching a directory covers
// everything below it.
func readDockerignore(t *testing.T, path string) []ignoreRule {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the emulator's image needs a .dockerignore: %v", err)
	}
	var rules []ignoreRule
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r := ignoreRule{}
		if rest, ok := strings.CutPrefix(line, "!"); ok {
			r.negate, line = true, rest
		}
		line = strings.Trim(filepath.ToSlash(filepath.Clean(line)), "/")
		var re strings.Builder
		for i := 0; i < len(line); i++ {
			switch {
			case strings.HasPrefix(line[i:], "**/"):
				re.WriteString("(.*/)?")
				i += 2
			case strings.HasPrefix(line[i:], "**"):
				re.WriteString(".*")
				i++
			case line[i] == '*':
				re.WriteString("[^/]*")
			case line[i] == '?':
				re.WriteString("[^/]")
			default:
				re.WriteString(regexp.QuoteMeta(line[i : i+1]))
			}
		}
		r.re = regexp.MustCompile("^" + re.String() + "$")
		rules = append(rules, r)
	}
	return rules
}

func ignored(rules []ignoreRule, p string) bool {
	excluded := false
	for _, r := range rules {
		for q := p; q != "." && q != ""; q = filepath.ToSlash(filepath.Dir(q)) {
			if r.re.MatchString(q) {
				excluded = !r.negate
				break
			}
		}
	}
	return excluded
}

// contextFiles lists the files under root that `docker build root` sends.
func contextFiles(t *testing.T, root string, rules []ignoreRule) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			// Skip bulky directories nothing re-includes.
			if rel == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !ignored(rules, rel) {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// .git may be a file (worktrees) or directory; either must stay out.
	if !ignored(rules, ".git") || !ignored(rules, ".git/config") {
		t.Errorf(".dockerignore lets .git into the build context")
	}
	return files
}
