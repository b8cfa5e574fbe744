#!/usr/bin/env bash
# A fresh machine's `make test`, rehearsed on this one (`make rehearse`):
#
#   scripts/rehearse.sh [WORKDIR]
#
# Clones the repository's HEAD (committed work only) into WORKDIR (default: a
# new directory under ${TMPDIR:-/tmp}) and runs CI's entry point there,
# `CI=true bash .ci/run`, with HOME, GOPATH, GOCACHE, GOMODCACHE and
# XDG_CACHE_HOME pointing at empty directories of WORKDIR: no build cache, no
# module cache, no npm cache, no CLI or tool built before, nothing an earlier
# run left behind is reused. Only what a new machine of this kind has is used
# (Go, Terraform 1.11 on PATH, the Debian packages .ci/run installs); the
# modules come from the Go module proxy and the npm registry again.
#
# REHEARSE_WARM=1 runs it a second time in the same clone with the caches the
# first run filled (the warm figure). Prints the wall-clock and CPU time of
# each run, the peak load average (sampled every 15 s) and, from the run's
# own output, each part's wall-clock and CPU time; the whole output of each
# run is kept in WORKDIR/run-N.log. Exits with the first failed run's status.
set -uo pipefail

repo="$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)"
work="${1:-$(mktemp -d "${TMPDIR:-/tmp}/rehearse.XXXXXX")}"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
if [[ -e "$work/repo" ]]; then
	echo "rehearse: $work/repo exists: give an empty WORKDIR" >&2
	exit 2
fi

commit="$(git -C "$repo" rev-parse --short HEAD)"
if [[ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]]; then
	echo "rehearse: note: uncommitted changes are not in the rehearsal (it clones $commit)" >&2
fi
git clone --quiet --no-hardlinks "$repo" "$work/repo" || exit 1
git -C "$work/repo" checkout --quiet "$commit" || exit 1
# Tests that read the shared references find them beside the clone, as in CI.
if [[ -d "$repo/../shared" && ! -e "$work/shared" ]]; then
	ln -s "$(cd "$repo/../shared" && pwd)" "$work/shared"
fi

home="$work/home"
mkdir -p "$home/go" "$home/go-build" "$home/cache"
env_fresh=(
	HOME="$home"
	GOPATH="$home/go"
	GOMODCACHE="$home/go/pkg/mod"
	GOCACHE="$home/go-build"
	XDG_CACHE_HOME="$home/cache"
	GOTOOLCHAIN=local
	CI=true
	CHECKPOINT_DISABLE=1
)

# load_sampler FILE: appends the 1-minute load average every 15 s.
load_sampler() {
	while :; do
		cut -d' ' -f1 /proc/loadavg >>"$1"
		sleep 15
	done
}

runs=1
[[ "${REHEARSE_WARM:-}" == 1 ]] && runs=2
status=0
summary=()
for ((n = 1; n <= runs; n++)); do
	label=cold
	[[ $n -eq 2 ]] && label=warm
	log="$work/run-$n.log"
	loads="$work/load-$n.txt"
	: >"$loads"
	echo "==> rehearsal run $n ($label): CI=true bash .ci/run in $work/repo, caches under $home; output in $log"
	load_sampler "$loads" &
	sampler=$!
	TIMEFORMAT='%0R %0U %0S'
	{ time (cd "$work/repo" && env "${env_fresh[@]}" bash .ci/run </dev/null >"$log" 2>&1); } 2>"$work/time-$n"
	rc=$?
	kill "$sampler" 2>/dev/null
	read -r wall user sys <"$work/time-$n"
	peak="$(sort -n "$loads" | tail -1)"
	done_line="$(grep -E '^DONE [0-9]+ tests' "$log" | tail -1)"
	line="$label: exit $rc, wall $((wall / 60)) min $((wall % 60)) s, CPU $(((user + sys) / 60)) min $(((user + sys) % 60)) s, peak load ${peak:-?}: ${done_line:-no DONE line}"
	summary+=("$line")
	echo "==> $line"
	grep -E '^==> [^:]+: (ok|FAILED)|==> (terraform|tofu) .* built in' "$log" | sed 's/^/    /'
	[[ $rc -ne 0 && $status -eq 0 ]] && status=$rc
done
echo "==> rehearsal of $commit:"
printf '    %s\n' "${summary[@]}"
exit "$status"
