# Sourced by the scripts that wait for what they started (never sleeping for a fixed time to synchronise).
#
# wait_for TENTHS COMMAND...: runs COMMAND every tenth of a second until it succeeds, at most TENTHS
# times; on time out, says what it waited for on stderr and returns 1.
wait_for() {
    local tries="$1"; shift
    for _ in $(seq "$tries"); do
        if "$@" >/dev/null 2>&1; then return 0; fi
        sleep 0.1
    done
    echo "timed out waiting for: $*" >&2
    return 1
}
