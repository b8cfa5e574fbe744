#!/usr/bin/env bash
# End-to-end demo: runs examples/quickstart against a local emulator with the
# provider built from this tree. `make demo` builds both binaries first.
#
#   scripts/demo.sh                 # uses bin/terraform-provider-service, bin/service-emulator
#   DEMO_PAUSE=1 scripts/demo.sh    # waits for you to approve the OAuth account in a browser
#   DEMO_KEEP=1 scripts/demo.sh     # keeps the working directory (state, logs)
#   TF_CLI=tofu scripts/demo.sh     # runs OpenTofu even with terraform on PATH
#
# Needs only Terraform >= 1.11 or OpenTofu >= 1.11 on PATH: terraform when it
# is there, else tofu; TF_CLI (a command name or a path) chooses. No registry
# access, no account on the service.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/emulator-lib.sh
source "$ROOT/scripts/emulator-lib.sh"
PROVIDER_BIN="${PROVIDER_BIN:-$ROOT/bin/terraform-provider-service}"
EMULATOR_BIN="${EMULATOR_BIN:-$ROOT/bin/service-emulator}"
API_KEY="emulator-key"
START=$SECONDS

step() { printf '==> %s\n' "$*"; }
info() { printf '    %s\n' "$*"; }
die() { printf 'demo: %s\n' "$*" >&2; exit 1; }

choose_cli || die "$CLI_ERROR"
[[ -x "$PROVIDER_BIN" ]] || die "$PROVIDER_BIN is missing: run 'make build' (or 'make demo')"
[[ -x "$EMULATOR_BIN" ]] || die "$EMULATOR_BIN is missing: run 'make build' (or 'make demo')"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/service-demo.XXXXXX")"
LOG="$WORK/$CLI_NAME.log"
TF_DIR="$WORK/quickstart"
EMU_PID=""
APPLIED=0
DESTROYED=0

cleanup() {
	local rc=$?
	set +e
	if [[ $rc -ne 0 ]]; then
		printf '\ndemo: FAILED (exit %d). Last lines of %s:\n' "$rc" "$LOG" >&2
		tail -n 60 "$LOG" >&2 2>/dev/null
		if [[ -s "$WORK/emulator.log" ]]; then
			printf '\ndemo: last lines of the emulator log:\n' >&2
			tail -n 20 "$WORK/emulator.log" >&2
		fi
		if [[ $APPLIED -eq 1 && $DESTROYED -eq 0 && -n "$EMU_PID" ]]; then
			"$CLI_BIN" -chdir="$TF_DIR" destroy -auto-approve -no-color >>"$LOG" 2>&1
		fi
	fi
	if [[ -n "$EMU_PID" ]] && kill -0 "$EMU_PID" 2>/dev/null; then
		kill -TERM "$EMU_PID" 2>/dev/null
		wait "$EMU_PID" 2>/dev/null
	fi
	if [[ $rc -ne 0 || -n "${DEMO_KEEP:-}" ]]; then
		printf 'demo: working directory kept: %s\n' "$WORK" >&2
	else
		rm -rf "$WORK"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# tf ARGS...: runs the CLI in the quickstart copy, output to the log file.
tf() {
	printf '\n$ %s %s\n' "$CLI_NAME" "$*" >>"$LOG"
	"$CLI_BIN" -chdir="$TF_DIR" "$@" >>"$LOG" 2>&1
}

# tfout ARGS...: runs the CLI in the quickstart copy, output to stdout.
tfout() {
	"$CLI_BIN" -chdir="$TF_DIR" "$@"
}

# ---------------------------------------------------------------- emulator
step "Starting emulator"
"$EMULATOR_BIN" --listen 127.0.0.1:0 --data "$WORK/emulator.db" \
	>"$WORK/emulator.out" 2>"$WORK/emulator.log" &
EMU_PID=$!
BASE_URL="$(wait_emulator_url "$WORK/emulator.out" "$EMU_PID" "$WORK/emulator.log")" || die "could not start the emulator"
info "listening on $BASE_URL (data file $WORK/emulator.db)"

# ---------------------------------------------------------------- CLI
step "Configuring $CLI_PRODUCT $CLI_VERSION to use the local provider build (dev_overrides, no registry)"
info "CLI binary: $CLI_BIN"
# dev_overrides serves the provider straight from bin/, under both registry
# hosts (OpenTofu reads "integration-service/service" as
# registry.opentofu.org/..., Terraform as registry.terraform.io/...). `init`
# is not needed for it, but init still resolves providers: a plugin directory
# holding the same binary under both hosts lets it succeed offline.
for host in registry.terraform.io registry.opentofu.org; do
	PLUGINS="$WORK/plugins/$host/integration-service/service/0.0.1/$CLI_PLATFORM"
	mkdir -p "$PLUGINS"
	ln -s "$PROVIDER_BIN" "$PLUGINS/terraform-provider-service"
done
cli_config "$WORK/cli.rc" "$(dirname "$PROVIDER_BIN")" \
	'exclude = ["registry.terraform.io/*/*", "registry.opentofu.org/*/*"]'
export TF_CLI_CONFIG_FILE="$WORK/cli.rc"
export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 TF_INPUT=0
export SERVICE_BASE_URL="$BASE_URL" SERVICE_API_KEY="$API_KEY"
unset TF_LOG TF_LOG_CORE TF_LOG_PROVIDER TF_LOG_PATH TF_CLI_ARGS TF_DATA_DIR TOFU_CLI_CONFIG_FILE
while read -r name; do unset "$name"; done < <(compgen -e | grep '^TF_CLI_ARGS_' || true)
# The quickstart pins its own toolkit versions.
while read -r name; do unset "$name"; done < <(compgen -e | grep '^SERVICE_TOOLKIT_VERSION_' || true)

mkdir -p "$TF_DIR"
cp "$ROOT"/examples/quickstart/*.tf "$TF_DIR"/
info "working copy of examples/quickstart in $TF_DIR"

step "$CLI_NAME init"
tf init -input=false -no-color -plugin-dir="$WORK/plugins"
info "ok ($CLI_NAME output is in $LOG)"

step "$CLI_NAME apply (3 auth configs, 2 connected accounts, 1 trigger instance, 4 data sources)"
APPLIED=1
tf apply -auto-approve -input=false -no-color
info "$(grep -E '^Apply complete!' "$LOG" | tail -n 1)"

step "Outputs"
tfout output -no-color | sed 's/^/    /'

GITHUB_URL="$(tfout output -raw github_connect_url)"
GITHUB_ID="$(tfout output -raw github_account_id)"

# expect_empty_plan: plan -detailed-exitcode must report no changes at all.
expect_empty_plan() {
	local rc=0
	tf plan -detailed-exitcode -input=false -no-color || rc=$?
	case $rc in
	0) info "No changes: the state matches the service (exit code 0)." ;;
	2) die "the plan is not empty (exit code 2)" ;;
	*) die "$CLI_NAME plan failed (exit code $rc)" ;;
	esac
}

step "Second plan: refreshes every object and expects no changes"
expect_empty_plan

step "Approving the OAuth connection"
info "The GitHub account is INITIATED: the user approves it in a browser at"
info "  $GITHUB_URL"
info "(on the emulator that page is a consent screen with Approve and Deny buttons)."
if [[ -n "${DEMO_PAUSE:-}" ]]; then
	read -r -p "    Open the URL, click Approve, then press Enter to continue... " _
else
	info "Approving it the way the consent page does (set DEMO_PAUSE=1 to click it yourself):"
	info "  POST $BASE_URL/_emulator/connected_accounts/$GITHUB_ID/complete"
	curl -fsS -o /dev/null -X POST -H "x-api-key: $API_KEY" \
		"$BASE_URL/_emulator/connected_accounts/$GITHUB_ID/complete" ||
		die "could not approve the connected account $GITHUB_ID"
fi

step "Refreshing: the account is now ACTIVE, and nothing needs to change"
tf apply -refresh-only -auto-approve -input=false -no-color
info "github_account_status = $(tfout output -raw github_account_status)"
expect_empty_plan

step "$CLI_NAME destroy"
tf destroy -auto-approve -input=false -no-color
DESTROYED=1
info "$(grep -E '^Destroy complete!' "$LOG" | tail -n 1)"
[[ -z "$(tfout state list 2>/dev/null)" ]] || die "the state is not empty after destroy"

step "Stopping emulator"
kill -TERM "$EMU_PID"
wait "$EMU_PID" 2>/dev/null || true
EMU_PID=""

step "Demo finished in $((SECONDS - START))s ($CLI_PRODUCT $CLI_VERSION)"
