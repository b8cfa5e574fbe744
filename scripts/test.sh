#!/usr/bin/env bash
# The whole suite behind `make test`, in as little wall-clock time as the
# machine allows: the checks, the tool builds and the Go tests run side by
# side instead of one after the other.
#
#   scripts/test.sh MAKE BIN PACKAGES [go test flags]
#
# MAKE is the make to call for the checks and tools, BIN where the tools live,
# PACKAGES the (space-separated) packages to test and vet.
#
# In the background, each a "part" whose output goes to its own log, printed
# as one block with the part's wall-clock and CPU time when it ends:
#   fmt-check      gofmt and terraform fmt (at once)
# and, one after the other (in_turn: on a cold machine each is minutes of
# compiling on both cores, and run all at once they doubled each other's CPU
# time), in the order the tests need them:
#   cli-terraform  builds the newest Terraform (the main pass waits for it)
#   cli-tofu       builds OpenTofu (its compatibility pass waits for it)
#   goreleaser     builds bin/goreleaser (the packaging test waits for it)
#   lint           builds bin/golangci-lint, then runs it
#   docs-check     builds bin/tfplugindocs, then checks docs/ is fresh and valid
# Every background command reports its exit status through a file (spawn,
# record, wait_part), never through `wait PID`: see spawn below.
# In the foreground: bin/gotestsum is built, then the Go tests run through
# gotestsum, which streams go test's ok/FAIL lines. go vet runs inside go test
# (-vet=all: every analyzer of `go vet`, on each package and its test files),
# so that the packages compile once instead of once for vet and once again,
# at the same time, for the tests; the packages without test files are vetted
# after the tests, from the filled build cache.
#
# The CLIs: the Go tests run on the newest Terraform (TERRAFORM_NEWEST, built
# once into bin/ by scripts/cli.sh, see the GNUmakefile), and a compatibility
# pass runs the tests named by COMPAT_RUN -- each resource's lifecycle test
# (create, update in place, import, drift, destroy), the custom toolkit's
# upgrade from a state Terraform 1.11 wrote, an import by identity, the
# ephemeral resource, the action (which skips there, naming why: OpenTofu
# has no actions, and Terraform 1.11 predates them), the `terraform test`
# example and the two-stage environments example -- on
# Terraform 1.11 (the oldest supported: the
# terraform on PATH, or TERRAFORM_OLDEST) and on OpenTofu (TOFU). A compat
# pass's results carry its CLI in their package name ("... [tofu 1.12.6]"), so
# gotestsum's list of skips says which CLI skipped what and why.
#
# Under CI=true (.ci/run) a test that skips for a reason outside
# test/skipcheck's allowed list fails the run.
#
# gotestsum's go test command waits for every part before it exits and reports
# each failed part as an error, so that gotestsum's summary -- every skipped
# test with its reason, then "DONE N tests[, N skipped][, N failures][, N
# errors] in T" -- is always the last thing printed, and the exit status is
# non-zero when any test, vet finding or part failed.
set -uo pipefail

# COMPAT_RUN selects the compatibility pass's tests (go test -run); it must
# select a test of every resource, ephemeral resource and action
# (TestRegistrationsCompatRun, internal/provider/registrations_test.go).
COMPAT_RUN='^(TestAccAuthConfig_(managedLifecycle|drift|importBlock)|TestAccConnectedAccount_(apiKey|importIDs)|TestAccCustomToolkit_(lifecycle|drift)|TestAccE2E_customToolkitStateUpgrade|TestAccMCPServer_(lifecycle|drift)|TestAccToolRouterSession_lifecycle|TestAccTriggerInstance_(lifecycle|configDrift)|TestAccWebhookSubscription_(lifecycle|importKeepsSecret)|TestAccProject_(lifecycle|badInputs)|TestAccWebhookEndpoint_(lifecycle|refusedToolkit)|TestAccConnectedAccountCredentials_feedsAnotherProvider|TestAccE2E_importByIdentity|TestAccE2E_connectedAccountRevokeAction|TestAccE2E_toolExecuteAction|TestModuleTestingExample|TestEnvironmentsExample)$'
COMPAT_PKGS=(./internal/provider ./test/moduletest ./test/examples)

# cli_label PATH: "terraform 1.16.4" or "tofu 1.12.6", from the binary itself.
cli_label() {
	local v name=terraform
	[[ "$(basename "$1")" == tofu* ]] && name=tofu
	v="$("$1" version -json 2>/dev/null | sed -n 's/.*"terraform_version": *"\([^"]*\)".*/\1/p' | head -1)"
	echo "$name ${v:-unknown}"
}

# compat_pass CLI FLAGS...: the compatibility tests on CLI, as go test -json
# with the CLI in each package name.
compat_pass() {
	local cli="$1" label host=registry.terraform.io
	shift
	label="$(cli_label "$cli")"
	[[ "$label" == tofu* ]] && host=registry.opentofu.org
	TF_CLI="$cli" TF_ACC_TERRAFORM_PATH="$cli" TF_ACC_PROVIDER_HOST="$host" \
		go test -json -vet=off "$@" -run "$COMPAT_RUN" "${COMPAT_PKGS[@]}" |
		sed -u -E -e "s/\"Package\":\"([^\"]*)\"/\"Package\":\"\\1 [$label]\"/" \
			-e "s/(\"Output\":\"(ok  |FAIL)\\\\t)([^\\\\\"]+)/\\1\\3 [$label]/"
}

# Background work and its exit status. Every command this script runs in the
# background is started by spawn and collected by wait_part, which reads the
# status from a file the command's own subshell writes when it ends: never
# `wait PID`. A part may end many minutes before it is collected, and on a
# cold machine the builds beside it start thousands of processes in between:
# PIDs wrap (pid_max is 32768 here), and once a later child of this shell gets
# an ended part's PID, bash forgets that part ("wait: pid N is not a child of
# this shell", a passing part read as failed) or answers with the new child's
# status (a failed part read as passed). test/testsh holds both cases.

# spawn NAME COMMAND...: runs COMMAND in the background (a function or a
# program; redirections given to spawn apply to it); its exit status goes to
# $TEST_PARTS/NAME.rc, written whole (a reader never sees it half-written).
spawn() {
	local name="$1"
	shift
	rm -f "$TEST_PARTS/$name.rc"
	(
		"$@"
		record "$name" "$?"
	) &
}

# record NAME STATUS: writes NAME's exit status for wait_part, whole.
record() {
	echo "$2" >"$TEST_PARTS/$1.rc.tmp" && mv "$TEST_PARTS/$1.rc.tmp" "$TEST_PARTS/$1.rc"
}

# timed NAME COMMAND...: runs COMMAND, writing its wall-clock and CPU seconds
# to $TEST_PARTS/NAME.time (read by run_part and announce); COMMAND's own stderr is
# kept, so give redirections inside COMMAND (a function) or to the caller.
timed() {
	local name="$1"
	shift
	local TIMEFORMAT='%0R %0U %0S'
	{ time { "$@" 2>&3; }; } 3>&2 2>"$TEST_PARTS/$name.time"
}

# wait_part NAME: waits for a background part; 0 when it succeeded.
wait_part() {
	local rc
	until [[ -e "$TEST_PARTS/$1.rc" ]]; do sleep 0.5; done
	read -r rc <"$TEST_PARTS/$1.rc"
	[[ "$rc" == 0 ]]
}

# Second stage, run by gotestsum as its --raw-command.
if [[ "${1-}" == --go-test ]]; then
	shift
	read -r -a pkgs <<<"$TEST_PKGS"
	rc=0
	# The compatibility pass on the oldest Terraform needs no build: it
	# starts at once, beside the newest CLI's build, into a file printed
	# after the main pass (go test -json lines of two processes must not
	# interleave on one stream).
	spawn compat-oldest timed compat-oldest compat_pass "$TERRAFORM_OLDEST" "$@" >"$TEST_PARTS/compat-oldest.json" 2>"$TEST_PARTS/compat-oldest.err"
	if ! wait_part cli-terraform; then
		echo "make test: building Terraform $TERRAFORM_NEWEST failed (its output is above); the Go tests did not run" >&2
		wait_part compat-oldest
		exit 1
	fi
	tofu=""
	if wait_part cli-tofu; then
		spawn compat-tofu timed compat-tofu compat_pass "$TOFU" "$@" >"$TEST_PARTS/compat-tofu.json" 2>"$TEST_PARTS/compat-tofu.err"
		tofu=1
	else
		echo "make test: building OpenTofu $TOFU failed (its output is above): no OpenTofu pass" >&2
		rc=1
	fi
	TF_CLI="$TERRAFORM_NEWEST" TF_ACC_TERRAFORM_PATH="$TERRAFORM_NEWEST" go test -json -vet=all "$@" "${pkgs[@]}" |
		tee "$TEST_PARTS/main.json" || rc=1
	mapfile -t untested < <(go list -f '{{if not (or .TestGoFiles .XTestGoFiles)}}{{.ImportPath}}{{end}}' "${pkgs[@]}" | grep .)
	if [[ ${#untested[@]} -gt 0 ]] && ! go vet "${untested[@]}"; then
		echo "make test: go vet found problems in packages without tests (above)" >&2
		rc=1
	fi
	if ! wait_part compat-oldest; then
		echo "make test: the compatibility pass on $TERRAFORM_OLDEST failed (its tests are below)" >&2
		rc=1
	fi
	cat "$TEST_PARTS/compat-oldest.json"
	cat "$TEST_PARTS/compat-oldest.err" >&2
	if [[ -n "$tofu" ]]; then
		if ! wait_part compat-tofu; then
			echo "make test: the compatibility pass on $TOFU failed (its tests are below)" >&2
			rc=1
		fi
		cat "$TEST_PARTS/compat-tofu.json"
		cat "$TEST_PARTS/compat-tofu.err" >&2
	fi
	# In CI (.ci/run installed every tool), a skip for a reason outside
	# test/skipcheck's allowed list (features a CLI lacks, the benchmark)
	# fails the run: a lost tool shows as a failure, not a skip.
	if [[ "${CI:-}" == true ]]; then
		go run ./test/skipcheck "$TEST_PARTS"/main.json "$TEST_PARTS"/compat-*.json || rc=1
	fi
	for started in "$TEST_PARTS"/*.started; do
		[[ -e "$started" ]] || continue
		name="$(basename "$started" .started)"
		if ! wait_part "$name"; then
			echo "make test: $name failed (its output is above, under \"==> $name: FAILED\")" >&2
			rc=1
		fi
	done
	exit "$rc"
fi

make="$1" bin="$2" TEST_PKGS="$3"
shift 3
export TEST_PKGS
TEST_PARTS="$(mktemp -d "${TMPDIR:-/tmp}/make-test.XXXXXX")"
export TEST_PARTS
trap 'rm -rf "$TEST_PARTS"' EXIT

# part NAME COMMAND...: runs COMMAND in the background (through spawn); when
# it ends, prints "==> NAME: ok in Ns (CPU Ns)" or "==> NAME: FAILED (exit N)
# in ..." and its output (without the module download lines of a successful
# first run). The Go tests' stage collects every part by its .started file.
part() {
	touch "$TEST_PARTS/$1.started"
	spawn "$1" run_part "$@"
}

# in_turn NAME COMMAND [-- NAME COMMAND ...]: parts that run one after the
# other, in the background: each is announced at once (so that the Go
# tests' stage collects it) and reports as part does.
in_turn() {
	local arg names=() cmd=() cmds=() i
	for arg in "$@" --; do
		if [[ "$arg" == -- ]]; then
			names+=("${cmd[0]}")
			touch "$TEST_PARTS/${cmd[0]}.started"
			cmds+=("$(printf '%q ' "${cmd[@]:1}")")
			cmd=()
		else
			cmd+=("$arg")
		fi
	done
	(
		for i in "${!names[@]}"; do
			eval "run_part ${names[$i]} ${cmds[$i]}"
			record "${names[$i]}" "$?"
		done
	) &
}

# run_part NAME COMMAND...: part's body; returns COMMAND's exit status.
run_part() {
	local name="$1" rc wall user sys took out
	shift
	timed "$name" "$@" >"$TEST_PARTS/$name.log" 2>&1
	rc=$?
	read -r wall user sys <"$TEST_PARTS/$name.time"
	took="in ${wall}s (CPU $((user + sys))s)"
	out="$TEST_PARTS/$name.out"
	if [[ $rc -eq 0 ]]; then
		echo "==> $name: ok $took" >"$out"
		grep -v '^go: downloading ' "$TEST_PARTS/$name.log" >>"$out"
	else
		echo "==> $name: FAILED (exit $rc) $took" >"$out"
		cat "$TEST_PARTS/$name.log" >>"$out"
	fi
	cat "$out" # one write, so that it does not mix with the tests' lines
	return "$rc"
}

# First the modules, so that no go command below prints download lines into
# the tests' output (gotestsum would count them as errors), and the standard
# library: every go command below needs most of it, and go commands started
# together on an empty build cache would each compile it (a minute of CPU
# each). Both take a second once done.
spawn download go mod download
go build std || exit 1
wait_part download || exit 1

# The CLIs of the test bed: built once per version (scripts/cli.sh), or a
# user's own through TERRAFORM_PATH / TOFU_PATH.
: "${TERRAFORM_NEWEST:?TERRAFORM_NEWEST: path of the newest Terraform (set by the GNUmakefile)}"
: "${TOFU:?TOFU: path of the OpenTofu binary (set by the GNUmakefile)}"
TERRAFORM_OLDEST="${TERRAFORM_OLDEST:-$(command -v terraform || true)}"
if [[ -z "$TERRAFORM_OLDEST" ]]; then
	echo "make test: no terraform on PATH for the compatibility pass on the oldest supported Terraform (1.11); set TERRAFORM_OLDEST" >&2
	exit 1
fi
export TERRAFORM_NEWEST TOFU TERRAFORM_OLDEST

# The builds run one at a time, beside the Go tests, in the order the tests
# need them: the newest Terraform (the main pass waits for it), OpenTofu (its
# compatibility pass), goreleaser (the packaging test waits for it), then
# golangci-lint and tfplugindocs with their checks. On a cold machine each is
# minutes of compiling on both cores; started all at once (as before
# 2026-11-27) they and the tests ran some twenty compilers on two cores, and
# the contention alone doubled the CPU time they took. Once built (a warm
# run), each is a quick check and the lint and docs checks run beside the
# tests as before.
in_turn cli-terraform "$make" -s "$TERRAFORM_NEWEST" -- \
	cli-tofu "$make" -s "$TOFU" -- \
	goreleaser "$make" -s "$bin/goreleaser" -- \
	lint "$make" --no-print-directory lint -- \
	docs-check "$make" --no-print-directory docs-check
part fmt-check "$make" --no-print-directory fmt-check

if ! "$make" -s "$bin/gotestsum"; then
	echo "make test: building $bin/gotestsum failed; the Go tests did not run" >&2
	wait
	exit 1
fi
# announce NAME LABEL: when the Go tests' stage has run NAME (a compatibility
# pass), prints "==> LABEL: ok in Ns (CPU Ns)" (or FAILED) here, where the
# parts print theirs: gotestsum would count a line the stage itself printed
# as an error. Gives up when the stage has ended without running it.
announce() {
	local wall user sys rc result
	until [[ -e "$TEST_PARTS/$1.rc" && -e "$TEST_PARTS/$1.time" ]]; do
		[[ -e "$TEST_PARTS/go-test.ended" ]] && return 0
		sleep 1
	done
	read -r rc <"$TEST_PARTS/$1.rc"
	read -r wall user sys <"$TEST_PARTS/$1.time"
	result=ok
	[[ "$rc" == 0 ]] || result="FAILED (exit $rc, its tests are below)"
	echo "==> $2: $result in ${wall}s (CPU $((user + sys))s)"
}

echo "==> go test (TF_ACC=1 go test -vet=all $* $TEST_PKGS) on $TERRAFORM_NEWEST, then the compatibility pass on $TERRAFORM_OLDEST and $TOFU"
announce compat-oldest "compatibility pass on $TERRAFORM_OLDEST" &
announce compat-tofu "compatibility pass on $TOFU" &
TF_ACC=1 "$bin/gotestsum" --format standard-quiet --raw-command -- "$0" --go-test "$@"
rc=$?
touch "$TEST_PARTS/go-test.ended"
wait
exit "$rc"
