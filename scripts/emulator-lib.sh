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
