#!/usr/bin/env bash
# Installs a Go tool at a pinned version into bin/, once:
#
#   scripts/tool.sh BIN PACKAGE VERSION
#
# Nothing happens when BIN exists and was built from PACKAGE's module at
# VERSION (read from the binary with `go version -m`); otherwise
# `go install PACKAGE@VERSION` writes it (without symbol tables: a faster
# link). Concurrent calls for the same BIN (`make test` starts the goreleaser
# build at once; the packaging test asks for it again) wait for each other
# instead of building twice.
set -euo pipefail

bin="$1" pkg="$2" version="$3"
name="$(basename "$bin")"
dir="$(dirname "$bin")"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

current() {
	[[ -x "$bin" ]] || return 0
	go version -m "$bin" 2>/dev/null | awk '$1 == "mod" { print $3; exit }'
}

# shellcheck source=scripts/lock-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lock-lib.sh"
lock="$dir/.$name.lock"
take_lock "$lock" "another install of $name"
trap 'rm -rf "$lock"' EXIT

if [[ "$(current)" == "$version" ]]; then
	exit 0
fi
echo "==> installing $name $version into $dir (first run only: built from source through the Go module proxy)" >&2
start=$SECONDS
GOBIN="$dir" go install -ldflags="-s -w" "$pkg@$version"
[[ "$(current)" == "$version" ]] || { echo "$bin does not report version $version after go install" >&2; exit 1; }
echo "==> $name $version installed in $((SECONDS - start))s" >&2
