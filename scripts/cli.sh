#!/usr/bin/env bash
# Builds a Terraform or OpenTofu CLI at a pinned version into bin/, once:
#
#   scripts/cli.sh terraform|tofu VERSION BIN
#
# Nothing happens when BIN exists and `BIN version` reports VERSION. With
# TERRAFORM_PATH (terraform) or TOFU_PATH (tofu) set to a CLI of your own, the
# script only checks that it runs and prints its version: nothing is built.
#
# Otherwise the CLI is built from its published Go module through the module
# proxy (no release download), in a throwaway build module kept under
# ${XDG_CACHE_HOME:-~/.cache}/terraform-provider-service/cli-build/NAME-VERSION
# (so a rebuild only recompiles), where the built binary is kept too: another
# clone of the repository (CI's) copies it instead of building.
# `go install MODULE@VERSION` cannot do it:
#   - Terraform's go.mod replaces its remote-state backend modules
#     (internal/backend/remote-state/{azure,consul,s3,...}) and internal/legacy
#     by directories its module zip lacks. The build module replaces them by
#     stubs written here: each backend's New() returns a backend that stops
#     terraform with "the X backend is not built into this test CLI" as soon
#     as a configuration uses it. The local, http, inmem, remote and cloud
#     backends are the real ones.
#   - OpenTofu's go.mod replaces github.com/hashicorp/hcl/v2 by its fork.
# Every replace of the CLI's go.mod that points to a remote module, and its
# godebug settings, are copied into the build module. The version package's
# dev flag is set to "no", so `version` prints the plain release version.
# Concurrent calls for the same BIN wait for each other instead of building
# twice.
set -euo pipefail

name="$1" version="${2#v}" bin="$3"
export CHECKPOINT_DISABLE=1

case "$name" in
terraform)
	module=github.com/hashicorp/terraform
	pkg=$module
	label=Terraform
	override_var=TERRAFORM_PATH
	;;
tofu)
	module=github.com/opentofu/opentofu
	pkg=$module/cmd/tofu
	label=OpenTofu
	override_var=TOFU_PATH
	;;
*)
	echo "usage: $0 terraform|tofu VERSION BIN" >&2
	exit 2
	;;
esac

# A CLI of the user's own: check it runs, say which it is, build nothing.
override="${!override_var:-}"
if [[ -n "$override" ]]; then
	if ! out="$("$override" version 2>&1)"; then
		echo "$override_var=$override does not run: $out" >&2
		exit 1
	fi
	echo "==> $name: using $override_var=$override ($(grep -m1 -E '^(Terraform|OpenTofu) v' <<<"$out" || head -n1 <<<"$out"))" >&2
	exit 0
fi

dir="$(dirname "$bin")"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
bin="$dir/$(basename "$bin")"
want="$label v$version"

# The version line of `BIN version` ("Terraform v1.16.4"): OpenTofu prints
# CLI configuration warnings on stdout before it.
current() {
	[[ -x "$bin" ]] || return 0
	{ "$bin" version 2>/dev/null || true; } | grep -m1 "^$label v" || true
}

# shellcheck source=scripts/lock-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lock-lib.sh"
lock="$dir/.$(basename "$bin").lock"
take_lock "$lock" "another build of $(basename "$bin")"
trap 'rm -rf "$lock" "$bin.tmp.$$"' EXIT

if [[ "$(current)" == "$want" ]]; then
	exit 0
fi

shown="${dir#"$PWD"/}"
build="${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-service/cli-build/$name-$version"

# A CLI built before, by this or another clone of the repository, is kept
# beside its build module: copied, not rebuilt.
if [[ -x "$build/$name.bin" ]] && [[ "$({ "$build/$name.bin" version 2>/dev/null || true; } | grep -m1 "^$label v" || true)" == "$want" ]]; then
	cp "$build/$name.bin" "$bin.tmp.$$" && mv "$bin.tmp.$$" "$bin"
	echo "==> $name $version: copied the one built before from $build/" >&2
	exit 0
fi

echo "==> building $name $version into $shown/ (first run only: about 5 min of build on two idle cores, from its Go module through the module proxy)" >&2
start=$SECONDS
mkdir -p "$build"

# The CLI's own go.mod, at the version.
src="$(go mod download -json "$module@v$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
[[ -n "$src" && -f "$src/go.mod" ]] || { echo "go mod download $module@v$version gave no module directory" >&2; exit 1; }

# go.mod's replace and godebug directives, one per line, comments dropped,
# blocks flattened: "replace OLD [V] => NEW [V]" and "godebug KEY=VALUE".
directives() {
	awk -v kw="$1" '
		{ sub(/\/\/.*/, ""); gsub(/^[ \t]+|[ \t]+$/, "") }
		$0 == "" { next }
		inblock && $0 == ")" { inblock = 0; next }
		inblock { print kw " " $0; next }
		$1 == kw && $2 == "(" { inblock = 1; next }
		$1 == kw { print }
	' "$src/go.mod"
}

# Stubs for the local replaces (Terraform's remote-state backends and
# internal/legacy); any other local replace is a change this script does not
# know about.
# backend_stub PACKAGE BACKEND NEWARG: the Go source of a state backend
# package that stands in for BACKEND in this test CLI: its New(NEWARG) (as
# internal/backend/init calls it) returns a backend that embeds the
# backend.Backend interface (nil, so it satisfies it in every version) and
# stops the CLI with a clear message from ConfigSchema, the first method the
# CLI calls on a backend, as soon as a configuration uses it.
backend_stub() {
	local pkg="$1" backend="$2" newarg="$3" imports=""
	[[ "$newarg" == encryption.* ]] && imports=$'\n\t"'"$module/internal/encryption"'"'
	cat <<EOF
// Package $pkg stands in for $label's $backend backend, which is not built
// into this test CLI (see scripts/cli.sh of terraform-provider-service).
package $pkg

import (
	"fmt"
	"os"

	"$module/internal/backend"
	"$module/internal/configs/configschema"$imports
)

// New returns a backend that stops $name as soon as a configuration uses it.
func New($newarg) backend.Backend { return unavailable{} }

type unavailable struct{ backend.Backend }

func (unavailable) ConfigSchema() *configschema.Block {
	fmt.Fprintln(os.Stderr, "Error: the \"$backend\" state backend is not built into this test CLI "+
		"(built from the Go module by terraform-provider-service's scripts/cli.sh without its "+
		"remote-state backends); use an official $label release for it.")
	os.Exit(1)
	return nil
}
EOF
}

stubs="$build/stubs"
rm -rf "$stubs"
replaces=()
while read -r _ old arrow new newver; do
	[[ "$old" != "=>" ]] || { echo "unexpected replace in $src/go.mod: $old $arrow $new" >&2; exit 1; }
	if [[ "$arrow" != "=>" ]]; then # "replace OLD OLDVERSION => NEW [NEWVERSION]"
		old="$old $arrow" arrow="$new"
		read -r new newver <<<"$newver"
	fi
	oldpath="${old%% *}"
	case "$new" in
	./* | ../*) ;;
	*)
		replaces+=("replace $old => $new${newver:+ $newver}")
		continue
		;;
	esac
	rel="${oldpath#"$module"/}"
	stub="$stubs/$rel"
	mkdir -p "$stub"
	printf 'module %s\n\ngo 1.22\n' "$oldpath" >"$stub/go.mod"
	case "$rel" in
	internal/legacy)
		# Only the remote-state backends import it.
		printf '// Package legacy is empty: only the backends stubbed beside it used it.\npackage legacy\n' >"$stub/doc.go"
		;;
	internal/backend/remote-state/*)
		backend="${rel##*/}"
		# The stub must match how internal/backend/init calls the backend:
		# New() with no argument, returning a backend.Backend.
		alias="$(awk -v p="\"$oldpath\"" '$2 == p { print $1 }' "$src/internal/backend/init/init.go")"
		if [[ -z "$alias" ]] || grep -q "[^A-Za-z0-9_]$alias\.New([^)]" "$src/internal/backend/init/init.go" ||
			! grep -q "[^A-Za-z0-9_]$alias\.New()" "$src/internal/backend/init/init.go"; then
			echo "$module v$version: internal/backend/init does not call $oldpath as New() (update the stub in $0)" >&2
			exit 1
		fi
		backend_stub "$backend" "$backend" "" >"$stub/backend.go"
		;;
	*)
		echo "$module v$version replaces $oldpath by the local $new, which scripts/cli.sh has no stub for" >&2
		exit 1
		;;
	esac
	replaces+=("replace $oldpath => ./stubs/$rel")
done < <(directives replace)

# OpenTofu keeps its remote-state backends and its cloud key providers in its
# own module, so no replace of a package can stub them (and go build
# -overlay may not touch the module cache): the build uses a copy of the
# module (replace => ./src) in which they are stubbed, leaving out of the
# build the cloud SDKs they pull in (AWS, Azure, Google Cloud, Kubernetes,
# Alibaba, Tencent, Consul, PostgreSQL). Each
# backend package's files are replaced by one whose New() returns a backend
# that stops tofu with a clear message when a configuration uses it (as
# Terraform's stubs above do); each cloud key provider keeps its ID and stops
# tofu the same way when a configuration uses it. The local, http, inmem,
# remote and cloud backends and the pbkdf2 and external key providers are the
# real ones.
if [[ "$name" == tofu ]]; then
	copy="$build/src"
	rm -rf "$copy"
	cp -R "$src" "$copy"
	chmod -R u+w "$copy"
	find "$copy" -name '*_test.go' -delete
	# drop DIR: every Go file of DIR is left out of the build.
	drop() { find "$1" -maxdepth 1 -name '*.go' -delete; }
	init_go="$copy/internal/backend/init/init.go"
	for dir in "$copy"/internal/backend/remote-state/*/; do
		dir="${dir%/}"
		backend="$(basename "$dir")"
		case "$backend" in http | inmem) continue ;; esac
		first="$(find "$dir" -maxdepth 1 -name '*.go' ! -name '*_test.go' | sort | head -1)"
		pkgname="$(awk '$1 == "package" { print $2; exit }' "$first")"
		if [[ -z "$pkgname" ]] || ! grep -q '^func New(enc encryption.StateEncryption) backend.Backend {' "$dir"/*.go ||
			! grep -q "\"$module/internal/backend/remote-state/$backend\"" "$init_go"; then
			echo "$module v$version: the $backend backend is not built as New(enc) by internal/backend/init (update the stubs in $0)" >&2
			exit 1
		fi
		drop "$dir"
		backend_stub "$pkgname" "$backend" encryption.StateEncryption >"$dir/stub.go"
	done
	for keyprovider in aws_kms gcp_kms azure_vault openbao; do
		dir="$copy/internal/encryption/keyprovider/$keyprovider"
		id="$(awk '/\) ID\(\) keyprovider\.ID/ { getline; if (match($0, /"[^"]+"/)) print substr($0, RSTART + 1, RLENGTH - 2); exit }' "$dir/descriptor.go" 2>/dev/null || true)"
		if [[ -z "$id" ]] || ! grep -q '^func New() keyprovider.Descriptor {' "$dir/descriptor.go"; then
			echo "$module v$version: key provider $keyprovider has no New() keyprovider.Descriptor with a literal ID in descriptor.go (update the stubs in $0)" >&2
			exit 1
		fi
		drop "$dir"
		cat >"$dir/stub.go" <<EOF
// Package $keyprovider stands in for OpenTofu's $id key provider, which is
// not built into this test CLI (see scripts/cli.sh of
// terraform-provider-service).
package $keyprovider

import (
	"fmt"
	"os"

	"$module/internal/encryption/keyprovider"
)

func New() keyprovider.Descriptor { return descriptor{} }

type descriptor struct{}

func (descriptor) ID() keyprovider.ID { return "$id" }

func (descriptor) ConfigStruct() keyprovider.Config {
	fmt.Fprintln(os.Stderr, "Error: the \"$id\" key provider is not built into this test CLI "+
		"(built from the Go module by terraform-provider-service's scripts/cli.sh); use an official OpenTofu release for it.")
	os.Exit(1)
	return nil
}
EOF
	done
	replaces+=("replace $module => ./src")
fi


goversion="$(awk '$1 == "go" { print $2; exit }' "$src/go.mod")"
{
	echo "// Generated by scripts/cli.sh of terraform-provider-service: builds $name $version."
	echo "module terraform-provider-service/cli-build/$name"
	echo
	echo "go $goversion"
	echo
	directives godebug
	echo
	echo "require $module v$version"
	echo
	printf '%s\n' "${replaces[@]}"
} >"$build/go.mod.new"
# A go.mod (and go.sum) left by an earlier build is kept when the same one
# would be written: go build has completed its requirements already.
if ! cmp -s "$build/go.mod.new" "$build/go.mod.gen" 2>/dev/null; then
	cp "$build/go.mod.new" "$build/go.mod"
	mv "$build/go.mod.new" "$build/go.mod.gen"
	rm -f "$build/go.sum"
else
	rm -f "$build/go.mod.new"
fi

# -mod=mod lets go build add the indirect requirements and go.sum lines.
(cd "$build" && go build -mod=mod -trimpath -buildvcs=false \
	-ldflags "-s -w -X $module/version.dev=no" -o "$bin.tmp.$$" "$pkg")
mv "$bin.tmp.$$" "$bin"
got="$(current)"
[[ "$got" == "$want" ]] || { echo "$bin reports \"$got\", not \"$want\", after the build" >&2; exit 1; }
cp "$bin" "$build/$name.bin.tmp.$$" && mv "$build/$name.bin.tmp.$$" "$build/$name.bin"
echo "==> $name $version built in $((SECONDS - start))s: $shown/$(basename "$bin")" >&2
