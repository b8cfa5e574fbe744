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
# Started at once in the background, each a "part" whose output goes to its
# own log, printed as one block with the part's wall-clock and CPU time when it
# ends:
#   goreleaser   builds bin/goreleaser (the packaging test waits for it)
#   lint         builds bin/golangci-lint, then runs it
#   docs-check   builds bin/tfplugindocs, then checks docs/ is fresh and valid
#   fmt-check    gofmt and terraform fmt
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
# (create, update in place, import, drift, destroy), the ephemeral resource,
# the action (which skips there, naming why: OpenTofu has no actions, and
# Terraform 1.11 predates them), the `terraform test` example and the
# two-stage environments example -- on
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

# COMPAT_RUN selects the compatibility pass's tests (go test -run).
COMPAT_RUN='^(TestAccAuthConfig_(managedLifecycle|drift|importBlock)|TestAccConnectedAccount_(apiKey|importIDs)|TestAccCustomToolkit_(lifecycle|drift)|TestAccMCPServer_(lifecycle|drift)|TestAccTriggerInstance_(lifecycle|configDrift)|TestAccWebhookSubscription_(lifecycle|importKeepsSecret)|TestAccProject_(lifecycle|badInputs)|TestAccWebhookEndpoint_(lifecycle|refusedToolkit)|TestAccConnectedAccountCredentials_feedsAnotherProvider|TestAccE2E_connectedAccountRevokeAction|TestModuleTestingExample|TestEnvironmentsExample)$'
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

# wait_part NAME: waits for a background part; 0 when it succeeded.
wait_part() {
	until [[ -e "$TEST_PARTS/$1.rc" ]]; do sleep 1; done
	[[ "$(cat "$TEST_PARTS/$1.rc")" == 0 ]]
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
	compat_pass "$TERRAFORM_OLDEST" "$@" >"$TEST_PARTS/compat-oldest.json" 2>"$TEST_PARTS/compat-oldest.err" &
	oldest=$!
	if ! wait_part cli-terraform; then
		echo "make test: building Terraform $TERRAFORM_NEWEST failed (its output is above); the Go tests did not run" >&2
		wait "$oldest"
		exit 1
	fi
	if wait_part cli-tofu; then
		compat_pass "$TOFU" "$@" >"$TEST_PARTS/compat-tofu.json" 2>"$TEST_PARTS/compat-tofu.err" &
		tofu=$!
	else
		echo "make test: building OpenTofu $TOFU failed (its output is above): no OpenTofu pass" >&2
		rc=1 tofu=""
	fi
	TF_CLI="$TERRAFORM_NEWEST" TF_ACC_TERRAFORM_PATH="$TERRAFORM_NEWEST" go test -json -vet=all "$@" "${pkgs[@]}" |
		tee "$TEST_PARTS/main.json" || rc=1
	mapfile -t untested < <(go list -f '{{if not (or .TestGoFiles .XTestGoFiles)}}{{.ImportPath}}{{end}}' "${pkgs[@]}" | grep .)
	if [[ ${#untested[@]} -gt 0 ]] && ! go vet "${untested[@]}"; then
		echo "make test: go vet found problems in packages without tests (above)" >&2
		rc=1
	fi
	wait "$oldest" || rc=1
	cat "$TEST_PARTS/compat-oldest.json"
	cat "$TEST_PARTS/compat-oldest.err" >&2
	if [[ -n "$tofu" ]]; then
		wait "$tofu" || rc=1
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

# part NAME COMMAND...: runs COMMAND in the background; when it ends, prints
# "==> NAME: ok in Ns (CPU Ns)" or "==> NAME: FAILED (exit N) in ..." and its
# output (without the module download lines of a successful first run).
part() {
	local name="$1"
	shift
	touch "$TEST_PARTS/$name.started"
	(
		TIMEFORMAT='%0R %0U %0S'
		{ time "$@" >"$TEST_PARTS/$name.log" 2>&1; } 2>"$TEST_PARTS/$name.time"
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
		echo "$rc" >"$TEST_PARTS/$name.rc"
	) &
}

# First the modules, so that no go command below prints download lines into
# the tests' output (gotestsum would count them as errors), and the standard
# library: every go command below needs most of it, and go commands started
# together on an empty build cache would each compile it (a minute of CPU
# each). Both take a second once done.
go mod download & download=$!
go build std || exit 1
wait "$download" || exit 1

# goreleaser, the biggest build by far, is the longest chain on a first run
# (the packaging test waits for it): more compiles at once than go's default
# of one per core give it a larger share of the CPU.
part goreleaser env GOFLAGS="${GOFLAGS:-} -p=4" "$make" -s "$bin/goreleaser"
part lint "$make" --no-print-directory lint
part docs-check "$make" --no-print-directory docs-check
part fmt-check "$make" --no-print-directory fmt-check
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
part cli-terraform "$make" -s "$TERRAFORM_NEWEST"
part cli-tofu "$make" -s "$TOFU"

if ! "$make" -s "$bin/gotestsum"; then
	echo "make test: building $bin/gotestsum failed; the Go tests did not run" >&2
	wait
	exit 1
fi
echo "==> go test (TF_ACC=1 go test -vet=all $* $TEST_PKGS) on $TERRAFORM_NEWEST, then the compatibility pass on $TERRAFORM_OLDEST and $TOFU"
TF_ACC=1 "$bin/gotestsum" --format standard-quiet --raw-command -- "$0" --go-test "$@"
rc=$?
wait
exit "$rc"
