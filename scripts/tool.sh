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

lock="$dir/.$name.lock"
waited=0
until mkdir "$lock" 2>/dev/null; do
	holder="$(cat "$lock/pid" 2>/dev/null || true)"
	if [[ -n "$holder" ]] && ! kill -0 "$holder" 2>/dev/null; then
		rm -rf "$lock" # left by a process that died
		continue
	fi
	if [[ $waited -eq 0 ]]; then
		echo "==> waiting for another install of $name to finish" >&2
	fi
	waited=1
	sleep 1
done
echo $$ >"$lock/pid"
trap 'rm -rf "$lock"' EXIT

if [[ "$(current)" == "$version" ]]; then
	exit 0
fi
echo "==> installing $name $version into $dir (first run only: built from source through the Go module proxy)" >&2
start=$SECONDS
GOBIN="$dir" go install -ldflags="-s -w" "$pkg@$version"
[[ "$(current)" == "$version" ]] || { echo "$bin does not report version $version after go install" >&2; exit 1; }
echo "==> $name $version installed in $((SECONDS - start))s" >&2
