package examples_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
	"github.com/integration-service/terraform-provider-service/internal/testutil/contractcheck"
	"github.com/integration-service/terraform-provider-service/test/demo"
)

// guide is the page whose commands TestEnvironmentsExample runs.
const guide = "docs/guides/projects-and-environments.md"

// TestEnvironmentsExample follows the guide "Projects and environments" word
// for word on examples/environments, against what `make dev` sets up: an
// emulator, the CLI configuration make dev writes (scripts/emulator-lib.sh's
// cli_config: dev_overrides of a fresh build under both registry hosts) and
// the variables it exports; offline: every connection but the loopback
// emulator's goes to a proxy that refuses it, so a registry lookup fails.
// The guide's shell blocks run in order in a copy of the example, each in
// bash with the environment the previous one left: stage 1 (the projects,
// with the organization's key only), stage 2 (one provider per project,
// after `get` installs the local module), the key rotation through
// organization/terraform.tfvars and stage 2 again with the new keys. The CLI
// under test is the only one on PATH, named as the guide types it
// (`terraform`, or `tofu` for OpenTofu, as the guide says to type);
// TF_CLI_ARGS_apply=-auto-approve stands for typing yes, and the `...` of the
// organization's key is the emulator's. Between the blocks it checks what
// the guide promises: each project's objects are visible with its own key and
// invisible with the other's; the rotation regenerates both keys, refuses the
// earlier ones, and leaves a plain plan of stage 1 empty (it does not rotate
// again); stage 2 plans empty with the new keys. It then tears down in
// reverse order: stage 2 destroy, then stage 1, whose destroy is refused at
// plan while deletion_protection is on (nothing deleted) and succeeds once it
// is off.
func TestEnvironmentsExample(t *testing.T) {
	cli := testutil.RequireTerraform(t)
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("jq is not on PATH: the guide's commands read stage 1's outputs with it")
	}
	root := testutil.RepoRoot(t)
	blocks := guideBlocks(t, root)
	emulatorBin := testutil.GoBuild(t, t.TempDir(), "service-emulator", "./cmd/service-emulator")
	e := contractcheck.StartEmulator(t, emulatorBin)
	ctx := t.Context()

	// make dev's CLI configuration, written by the function make dev uses.
	cliConfig := filepath.Join(t.TempDir(), "terraform.rc")
	lib := filepath.Join(root, "scripts", "emulator-lib.sh")
	if out, err := exec.CommandContext(ctx, "bash", "-c", `source "$1" && cli_config "$2" "$3" ""`, "-",
		lib, cliConfig, testutil.BuildProvider(t)).CombinedOutput(); err != nil {
		t.Fatalf("cli_config of %s: %v\n%s", lib, err, out)
	}

	work := t.TempDir()
	testutil.CopyDir(t, filepath.Join(root, "examples", "environments"), work)
	orgDir, envDir := filepath.Join(work, "organization"), filepath.Join(work, "environments")

	// The environment of the guide's shell: make dev's exports, offline, the
	// CLI under test alone on PATH under its own name.
	name := testutil.CLIName(cli)
	offline := "http://127.0.0.1:9" // nothing listens: a refused connection
	shellEnv := testutil.TerraformEnv(cliConfig, "SERVICE_BASE_URL="+e.URL, "SERVICE_API_KEY=emulator-key",
		"TF_CLI_ARGS_apply=-auto-approve", "HTTPS_PROXY="+offline, "HTTP_PROXY="+offline, "https_proxy="+offline,
		"http_proxy="+offline, "PATH="+demo.OnlyCLIPath(t, name, cli))
	run := func(step, block string) {
		t.Helper()
		if name == "tofu" {
			block = regexp.MustCompile(`\bterraform `).ReplaceAllString(block, "tofu ")
		}
		envFile := filepath.Join(t.TempDir(), "env")
		rctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(rctx, "bash", "-euo", "pipefail", "-c", block+"\nenv -0 >\"$GUIDE_ENV_OUT\"\n")
		cmd.Dir = work
		cmd.Env = append(slices.Clone(shellEnv), "GUIDE_ENV_OUT="+envFile)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: the guide's commands failed (%v):\n%s\noutput:\n%s", step, err, block, out.String())
		}
		b, err := os.ReadFile(envFile)
		if err != nil {
			t.Fatal(err)
		}
		shellEnv = nil
		for _, kv := range strings.Split(strings.TrimRight(string(b), "\x00"), "\x00") {
			if !strings.HasPrefix(kv, "GUIDE_ENV_OUT=") {
				shellEnv = append(shellEnv, kv)
			}
		}
	}
	getenv := func(k string) string {
		for _, kv := range shellEnv {
			if v, ok := strings.CutPrefix(kv, k+"="); ok {
				return v
			}
		}
		return ""
	}
	// The teardown and the checks run the CLI directly, in that environment.
	org := func(args ...string) (string, int) {
		return testutil.Terraform(t, orgDir, shellEnv, append(args, "-no-color")...)
	}
	envs := func(args ...string) (string, int) {
		return testutil.Terraform(t, envDir, shellEnv, append(args, "-no-color")...)
	}

	// Stage 1: the organization's key only.
	stage1 := strings.Replace(blocks.stage1, "SERVICE_ORG_API_KEY=...", "SERVICE_ORG_API_KEY="+e.OrgAPIKey, 1)
	if stage1 == blocks.stage1 {
		t.Fatalf("%s: stage 1 no longer exports SERVICE_ORG_API_KEY=... (the placeholder this test fills):\n%s", guide, blocks.stage1)
	}
	run("stage 1", stage1)
	orgDone := destroyAtCleanup(t, org, "-var", "deletion_protection=false")
	expectEmptyPlan(t, org, "of stage 1 after apply")

	// Stage 2: one provider per project, keys from stage 1.
	run("stage 2", blocks.stage2)
	keys := map[string]string{"staging": getenv("TF_VAR_staging_api_key"), "production": getenv("TF_VAR_production_api_key")}
	if keys["staging"] == "" || keys["production"] == "" || keys["staging"] == keys["production"] {
		t.Fatalf("stage 2 exported the keys %q; want one key per project", keys)
	}
	envsDone := destroyAtCleanup(t, envs)
	expectEmptyPlan(t, envs, "of stage 2 after apply")

	// Each project sees its own auth configs and none of the other's.
	for env, key := range keys {
		c, err := client.New(client.Config{BaseURL: e.URL, APIKey: key})
		if err != nil {
			t.Fatal(err)
		}
		acs, err := c.ListAuthConfigs(ctx, client.AuthConfigListParams{})
		if err != nil {
			t.Fatalf("%s: listing auth configs with its key: %v", env, err)
		}
		var names []string
		for _, ac := range acs {
			names = append(names, ac.Name)
		}
		slices.Sort(names)
		want := []string{"GitHub (" + env + ")", "Slack (" + env + ")"}
		if !slices.Equal(names, want) {
			t.Errorf("%s project's auth configs = %q, want %q (each project sees only its own)", env, names, want)
		}
	}

	// The rotation, through the configuration: both keys change, the earlier
	// ones are refused, and a plain plan of stage 1 stays empty afterwards.
	run("key rotation", blocks.rotation)
	expectEmptyPlan(t, org, "of stage 1 after the rotation (a plain plan must not rotate again)")
	out, code := org("output", "-json", "api_keys")
	if code != 0 {
		t.Fatalf("output api_keys (exit %d):\n%s", code, out)
	}
	var rotated map[string]string
	if err := json.Unmarshal([]byte(jsonPart(out)), &rotated); err != nil {
		t.Fatalf("api_keys output = %q: %v", out, err)
	}
	for env, key := range keys {
		if rotated[env] == "" || rotated[env] == key {
			t.Errorf("%s: the rotation left the key unchanged", env)
		}
		c, err := client.New(client.Config{BaseURL: e.URL, APIKey: key, MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.ListAuthConfigs(ctx, client.AuthConfigListParams{}); !client.IsStatus(err, 401) {
			t.Errorf("%s: the earlier key after the rotation: want 401, got %v", env, err)
		}
	}
	run("stage 2 with the new keys", blocks.stage2Again)
	if getenv("TF_VAR_staging_api_key") != rotated["staging"] || getenv("TF_VAR_production_api_key") != rotated["production"] {
		t.Errorf("stage 2 after the rotation does not use the new keys")
	}
	expectEmptyPlan(t, envs, "of stage 2 with the new keys")

	if out, code := envs("destroy", "-auto-approve"); code != 0 {
		t.Fatalf("stage 2 destroy failed (exit %d):\n%s", code, out)
	}
	*envsDone = true

	// deletion_protection refuses the destroy at plan; nothing is deleted.
	out, code = org("destroy", "-auto-approve")
	if code == 0 || !strings.Contains(out, "deletion_protection") {
		t.Fatalf("stage 1 destroy with deletion_protection on: exit %d, want a refusal naming deletion_protection:\n%s", code, out)
	}
	oc, err := client.New(client.Config{BaseURL: e.URL, OrgAPIKey: e.OrgAPIKey})
	if err != nil {
		t.Fatal(err)
	}
	live := func() []string {
		var names []string
		for p, err := range oc.Projects(ctx) {
			if err != nil {
				t.Fatalf("listing projects: %v", err)
			}
			names = append(names, p.Name)
		}
		return names
	}
	if names := live(); !slices.Contains(names, "staging") || !slices.Contains(names, "production") {
		t.Fatalf("projects after the refused destroy = %q; want staging and production kept", names)
	}
	if out, code := org("apply", "-auto-approve", "-var", "deletion_protection=false"); code != 0 {
		t.Fatalf("turning deletion_protection off (exit %d):\n%s", code, out)
	}
	if out, code := org("destroy", "-auto-approve", "-var", "deletion_protection=false"); code != 0 {
		t.Fatalf("stage 1 destroy (exit %d):\n%s", code, out)
	}
	*orgDone = true
	if names := live(); slices.Contains(names, "staging") || slices.Contains(names, "production") {
		t.Errorf("projects after destroy = %q; want staging and production gone", names)
	}
}

// guideSteps are the guide's shell blocks, in the order the guide gives them.
type guideSteps struct{ stage1, stage2, rotation, stage2Again string }

// guideBlocks reads the guide's ```sh blocks: stage 1, stage 2, the
// rotation and stage 2 again. It fails the test, naming the guide, when
// they are not the four blocks this test knows how to follow.
func guideBlocks(t *testing.T, root string) guideSteps {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, guide))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?ms)^```sh\n(.*?)^```").FindAllStringSubmatch(string(b), -1) {
		blocks = append(blocks, m[1])
	}
	marks := []string{"-chdir=organization apply", "-chdir=environments apply", "key_rotation", "-chdir=environments apply"}
	if len(blocks) != len(marks) {
		t.Fatalf("%s has %d sh blocks; this test follows 4 (stage 1, stage 2, the rotation, stage 2 again): update it with the guide", guide, len(blocks))
	}
	for i, mark := range marks {
		if !strings.Contains(blocks[i], mark) {
			t.Fatalf("%s: sh block %d does not contain %q:\n%s", guide, i+1, mark, blocks[i])
		}
	}
	return guideSteps{blocks[0], blocks[1], blocks[2], blocks[3]}
}
