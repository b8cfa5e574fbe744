# shellcheck shell=bash
# Sourced by scripts/demo.sh and scripts/dev.sh.

# wait_emulator_url OUT PID LOG: prints the emulator's origin once the first
# line of its stdout (the file OUT) announces it; returns 1 with the reason
# on stderr when the process PID exits first (LOG is its stderr) or 15s pass.
wait_emulator_url() {
	local out="$1" pid="$2" log="$3" line
	for _ in $(seq 1 150); do
		if line="$(head -n 1 "$out" 2>/dev/null)" && [[ "$line" == "listening on http://"* ]]; then
			printf '%s\n' "${line#listening on }"
			return 0
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			printf 'the emulator exited: %s\n' "$(tail -n 5 "$log" 2>/dev/null)" >&2
			return 1
		fi
		sleep 0.1
	done
	printf 'the emulator did not report its address within 15s (log: %s)\n' "$log" >&2
	return 1
}

# choose_cli: picks the Terraform or OpenTofu CLI to run and checks that it is
# 1.11 or later (write-only attributes need 1.11 in both). TF_CLI, when set,
# names it: a command on PATH (tofu) or a path (/opt/tofu/tofu, bin/tofu-1.12.6);
# else terraform when it is on PATH, else tofu. Sets
#   CLI_BIN       the binary's absolute path
#   CLI_NAME      the command as users type it: terraform or tofu
#   CLI_PRODUCT   Terraform or OpenTofu
#   CLI_VERSION   e.g. 1.12.6 (without the v)
#   CLI_PLATFORM  e.g. linux_amd64
# and returns 0; or sets CLI_ERROR to the reason and returns 1.
choose_cli() {
	local out first major minor rest
	CLI_BIN="" CLI_NAME="" CLI_PRODUCT="" CLI_VERSION="" CLI_PLATFORM="" CLI_ERROR=""
	if [[ -n "${TF_CLI:-}" ]]; then
		if [[ "$TF_CLI" == */* ]]; then
			if [[ ! -f "$TF_CLI" || ! -x "$TF_CLI" ]]; then
				CLI_ERROR="TF_CLI=$TF_CLI is not an executable file"
				return 1
			fi
			CLI_BIN="$(cd "$(dirname "$TF_CLI")" && pwd)/$(basename "$TF_CLI")"
		elif ! CLI_BIN="$(type -P "$TF_CLI")"; then
			CLI_ERROR="TF_CLI=$TF_CLI is not on PATH (set TF_CLI to terraform, tofu or the path of either)"
			return 1
		fi
	elif ! CLI_BIN="$(type -P terraform)" && ! CLI_BIN="$(type -P tofu)"; then
		CLI_ERROR="neither terraform (>= 1.11) nor tofu (>= 1.11) is on PATH; install one or set TF_CLI"
		return 1
	fi

	# `version` prints "Terraform v1.11.4" or "OpenTofu v1.12.6", then
	# "on linux_amd64". Warnings about the CLI configuration may come first
	# (OpenTofu prints them on stdout): the first line naming a product counts.
	if ! out="$(CHECKPOINT_DISABLE=1 "$CLI_BIN" version 2>/dev/null)"; then
		CLI_ERROR="'$CLI_BIN version' failed: is it a Terraform or OpenTofu CLI?"
		return 1
	fi
	first="$(printf '%s\n' "$out" | grep -m 1 -E '^(Terraform|OpenTofu) v' || true)"
	[[ -n "$first" ]] || first="$(printf '%s\n' "$out" | grep -m 1 . || true)"
	case "$first" in
	"Terraform v"*) CLI_PRODUCT=Terraform CLI_NAME=terraform ;;
	"OpenTofu v"*) CLI_PRODUCT=OpenTofu CLI_NAME=tofu ;;
	*)
		CLI_ERROR="$CLI_BIN is neither Terraform nor OpenTofu: 'version' printed \"$first\""
		return 1
		;;
	esac
	CLI_VERSION="${first#* v}"
	CLI_VERSION="${CLI_VERSION%% *}"
	IFS=. read -r major minor rest <<<"$CLI_VERSION"
	minor="${minor%%-*}"
	if ! [[ "$major" =~ ^[0-9]+$ && "$minor" =~ ^[0-9]+$ ]]; then
		CLI_ERROR="$CLI_BIN: cannot read the version in \"$first\""
		return 1
	fi
	if ((major < 1 || (major == 1 && minor < 11))); then
		CLI_ERROR="$CLI_PRODUCT $CLI_VERSION ($CLI_BIN) is too old: Terraform >= 1.11 or OpenTofu >= 1.11 is needed (write-only attributes)"
		if [[ -z "${TF_CLI:-}" && "$CLI_NAME" == terraform ]] && type -P tofu >/dev/null; then
			CLI_ERROR+="; tofu is on PATH too: TF_CLI=tofu runs it"
		fi
		return 1
	fi
	CLI_PLATFORM="$(printf '%s\n' "$out" | sed -n 's/^on \([a-z0-9]*_[a-z0-9]*\)$/\1/p' | head -n 1)"
	if [[ -z "$CLI_PLATFORM" ]]; then
		CLI_ERROR="'$CLI_BIN version' printed no platform line (\"on OS_ARCH\")"
		return 1
	fi
}

# cli_config FILE PROVIDER_DIR DIRECT: writes a CLI configuration whose
# dev_overrides serve the provider from PROVIDER_DIR on both registry hosts:
# Terraform reads the source "integration-service/service" as
# registry.terraform.io/integration-service/service, OpenTofu as
# registry.opentofu.org/integration-service/service. DIRECT is the body of the
# direct {} block (empty: every other provider installs from its registry).
cli_config() {
	local file="$1" dir="$2" direct="$3"
	cat >"$file" <<EOC
provider_installation {
  dev_overrides {
    "registry.terraform.io/integration-service/service" = "$dir"
    "registry.opentofu.org/integration-service/service" = "$dir"
  }
  direct {${direct:+
    $direct
  }}
}
EOC
}
