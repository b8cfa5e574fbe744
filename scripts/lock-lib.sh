# Sourced by cli.sh and tool.sh: concurrent builds of one binary wait for
# each other instead of building twice.

# take_lock LOCK WHAT makes the directory LOCK this process's lock (its PID
# in LOCK/pid), waiting while a live process holds it (saying once that it
# waits for WHAT to finish) and taking over one left by a process that died.
# The caller removes LOCK when it is done.
take_lock() {
	local lock="$1" what="$2" waited=0 holder
	until mkdir "$lock" 2>/dev/null; do
		holder="$(cat "$lock/pid" 2>/dev/null || true)"
		if [[ -n "$holder" ]] && ! kill -0 "$holder" 2>/dev/null; then
			rm -rf "$lock" # left by a process that died
			continue
		fi
		if [[ $waited -eq 0 ]]; then
			echo "==> waiting for $what to finish" >&2
		fi
		waited=1
		sleep 1
	done
	echo $$ >"$lock/pid"
}
