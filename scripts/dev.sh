#!/usr/bin/env bash
# Local development loop: run your own Terraform or OpenTofu configuration
# against the provider built from this tree and a local emulator, without
# `terraform init` / `tofu init`.
#
#   scripts/dev.sh start   # `make dev`: starts the emulator in the background
#                          # (data in .dev/), writes .dev/terraform.rc with
#                          # dev_overrides for bin/, prints three export lines
#   scripts/dev.sh stop    # `make dev-stop`: stops the emulator (data kept)
#
# Only the export lines go to stdout, so `eval "$(make -s dev)"` sets them;
# progress and hints go to stderr. DEV_LISTEN (default 127.0.0.1:0, a free
# port) is the emulator's listen address. `rm -rf .dev` starts from scratch.
#
# The CLI configuration serves the provider under both registry hosts, so the
# same export lines work for terraform and tofu. start checks the CLI you will
# run (Terraform >= 1.11 or OpenTofu >= 1.11): TF_CLI (tofu, terraform or a
# path) if set, else terraform when it is on PATH, else tofu.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/emulator-lib.sh
source "$ROOT/scripts/emulator-lib.sh"
DEV="$ROOT/.dev"
PROVIDER_BIN="${PROVIDER_BIN:-$ROOT/bin/terraform-provider-service}"
EMULATOR_BIN="${EMULATOR_BIN:-$ROOT/bin/service-emulator}"
API_KEY="emulator-key"

say() { printf 'dev: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

running_pid() {
	local pid
	pid="$(cat "$DEV/emulator.pid" 2>/dev/null)" || return 1
	[[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

start() {
	choose_cli || die "$CLI_ERROR"
	say "using $CLI_PRODUCT $CLI_VERSION ($CLI_BIN)"
	[[ -x "$PROVIDER_BIN" ]] || die "$PROVIDER_BIN is missing: run 'make dev' (it builds first)"
	[[ -x "$EMULATOR_BIN" ]] || die "$EMULATOR_BIN is missing: run 'make dev' (it builds first)"
	mkdir -p "$DEV"

	local url pid
	if pid="$(running_pid)" && url="$(cat "$DEV/url" 2>/dev/null)" && [[ -n "$url" ]]; then
		say "emulator already running (pid $pid) on $url; 'make dev-stop' stops it"
	else
		# The old announcement must go before the new process starts, or the
		# loop below could read a stale address.
		rm -f "$DEV/emulator.pid" "$DEV/url" "$DEV/emulator.out"
		# setsid + closed descriptors: the emulator outlives make and does not
		# hold the pipe of `eval "$(make -s dev)"` open.
		local launcher=()
		command -v setsid >/dev/null 2>&1 && launcher=(setsid)
		"${launcher[@]}" "$EMULATOR_BIN" --listen "${DEV_LISTEN:-127.0.0.1:0}" --data "$DEV/emulator.db" \
			</dev/null >"$DEV/emulator.out" 2>"$DEV/emulator.log" &
		pid=$!
		echo "$pid" >"$DEV/emulator.pid"
		if ! url="$(wait_emulator_url "$DEV/emulator.out" "$pid" "$DEV/emulator.log")"; then
			kill "$pid" 2>/dev/null || true
			rm -f "$DEV/emulator.pid"
			die "could not start the emulator"
		fi
		echo "$url" >"$DEV/url"
		say "emulator started (pid $pid) on $url, data in $DEV/emulator.db, log in $DEV/emulator.log"
	fi

	# dev_overrides serves the provider straight from bin/: no init for it
	# (other providers of a configuration still install normally). Both
	# registry hosts: OpenTofu reads "integration-service/service" as
	# registry.opentofu.org/..., Terraform as registry.terraform.io/....
	cli_config "$DEV/terraform.rc" "$(dirname "$PROVIDER_BIN")" ""
	say "CLI config (Terraform and OpenTofu) with dev_overrides for $(dirname "$PROVIDER_BIN") on registry.terraform.io and registry.opentofu.org: $DEV/terraform.rc"
	say "set these in your shell (or run: eval \"\$(make -s dev)\"), then $CLI_NAME plan/apply in your configuration (no $CLI_NAME init; $CLI_NAME get installs its modules):"
	printf 'export TF_CLI_CONFIG_FILE=%q\n' "$DEV/terraform.rc"
	printf 'export SERVICE_BASE_URL=%q\n' "$url"
	printf 'export SERVICE_API_KEY=%q\n' "$API_KEY"
}

stop() {
	local pid
	if ! pid="$(running_pid)"; then
		rm -f "$DEV/emulator.pid" "$DEV/url"
		say "no emulator running"
		return 0
	fi
	kill -TERM "$pid"
	for _ in $(seq 1 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		say "the emulator (pid $pid) did not stop within 10s; killing it"
		kill -KILL "$pid" 2>/dev/null || true
	fi
	rm -f "$DEV/emulator.pid" "$DEV/url"
	say "emulator stopped (data kept in $DEV/emulator.db; unset TF_CLI_CONFIG_FILE SERVICE_BASE_URL SERVICE_API_KEY to use the registry build and the real service)"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
*) die "usage: $0 start|stop" ;;
esac
