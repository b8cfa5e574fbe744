#!/usr/bin/env bash
# The whole suite behind `make test`, in as little wall-clock time as the
# machine allows: the checks, the tool builds and the Go tests run side by
# side instead of one after the other.
#
#   scripts/test.sh MAKE BIN [go test flags and packages]
#
# (MAKE: the make to call for the checks and tools; BIN: where the tools live.)
#
# Started at once in the background, each a "part" whose output goes to its
# own log, printed as one block (with the part's time) when it ends:
#   goreleaser   builds bin/goreleaser (the packaging test waits for it)
#   lint         builds bin/golangci-lint, then runs it
#   docs-check   builds bin/tfplugindocs, then checks docs/ is fresh and valid
#   fmt-check    gofmt and terraform fmt
#   vet          go vet, which compiles every package and test dependency once
# In the foreground: bin/gotestsum is built, the Go tests wait for vet's
# compilation (so that two go commands never compile the same dependencies at
# the same time) and then run through gotestsum, which streams go test's
# ok/FAIL lines. Its go test command waits for every part before it exits and
# reports each failed part as an error, so that gotestsum's summary -- every
# skipped test with its reason, then "DONE N tests[, N skipped][, N
# failures][, N errors] in T" -- is always the last thing printed, and the
# exit status is non-zero when any test or part failed.
set -uo pipefail

# Second stage, run by gotestsum as its --raw-command: go test -json, then the
# wait for the parts.
if [[ "${1-}" == --go-test ]]; then
	shift
	go test -json "$@"
	rc=$?
	for started in "$TEST_PARTS"/*.started; do
		name="$(basename "$started" .started)"
		until [[ -e "$TEST_PARTS/$name.rc" ]]; do sleep 1; done
		if [[ "$(cat "$TEST_PARTS/$name.rc")" != 0 ]]; then
			echo "make test: $name failed (its output is above, under \"==> $name: FAILED\")" >&2
			rc=1
		fi
	done
	exit "$rc"
fi

make="$1" bin="$2"
gotestsum="$bin/gotestsum"
shift 2

TEST_PARTS="$(mktemp -d "${TMPDIR:-/tmp}/make-test.XXXXXX")"
export TEST_PARTS
trap 'rm -rf "$TEST_PARTS"' EXIT

# part NAME COMMAND...: runs COMMAND in the background; when it ends, prints
# "==> NAME: ok in Ns" or "==> NAME: FAILED (exit N) in Ns" and its output
# (without the module download lines of a successful first run).
part() {
	local name="$1"
	shift
	touch "$TEST_PARTS/$name.started"
	(
		start=$SECONDS
		"$@" >"$TEST_PARTS/$name.log" 2>&1
		rc=$?
		out="$TEST_PARTS/$name.out"
		if [[ $rc -eq 0 ]]; then
			echo "==> $name: ok in $((SECONDS - start))s" >"$out"
			grep -v '^go: downloading ' "$TEST_PARTS/$name.log" >>"$out"
		else
			echo "==> $name: FAILED (exit $rc) in $((SECONDS - start))s" >"$out"
			cat "$TEST_PARTS/$name.log" >>"$out"
		fi
		cat "$out" # one write, so that it does not mix with the tests' lines
		echo "$rc" >"$TEST_PARTS/$name.rc"
	) &
}

# Modules first, so that no go command below prints download lines into the
# tests' output (gotestsum would count them as errors).
go mod download || exit 1

part goreleaser "$make" -s "$bin/goreleaser"
part lint "$make" --no-print-directory lint
part docs-check "$make" --no-print-directory docs-check
part fmt-check "$make" --no-print-directory fmt-check
part vet "$make" --no-print-directory vet
vet=$!

if ! "$make" -s "$gotestsum"; then
	echo "make test: building $gotestsum failed; the Go tests did not run" >&2
	wait
	exit 1
fi
wait "$vet"

echo "==> go test (TF_ACC=1 go test $*)"
TF_ACC=1 "$gotestsum" --format standard-quiet --raw-command -- "$0" --go-test "$@"
rc=$?
wait
exit "$rc"
