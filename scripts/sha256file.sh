#!/bin/sh
# scripts/sha256file.sh FILE OUT: writes FILE's SHA-256 to OUT in the format
# of `sha256sum` run next to FILE ("<hex>  <basename>"), so that
# `sha256sum -c OUT` works in the directory holding both. GoReleaser runs it
# for each emulator archive (.goreleaser.yml, signs: emulator-sha256).
set -eu
file="$1"
out="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
cd "$(dirname "$file")"
if command -v sha256sum >/dev/null 2>&1; then
	sha256sum "$(basename "$file")" >"$out"
else
	shasum -a 256 "$(basename "$file")" >"$out"
fi
