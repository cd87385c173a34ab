# Sourced by the scripts that run a real desktop host in a session of its own
# (tray-host-check.sh, gnome-shell-check.sh, plasma-card-check.sh, real-notification-daemon.sh).
# They call `skip` (exit 77) when the host can't run.
#
# session_user REASON: as root, the session runs as the user `nobody` (REASON: why not root);
# otherwise as the caller. Sets `user` and `as_user COMMAND...` (COMMAND run as that user with
# an empty environment).
session_user() {
    if [ "$(id -u)" -eq 0 ]; then
        user=nobody
        command -v setpriv >/dev/null || skip "setpriv (util-linux) is needed to run the session as $user"
        id "$user" >/dev/null 2>&1 || skip "there is no user $user to run the session as ($1)"
        as_user() { setpriv --reuid="$(id -u "$user")" --regid="$(id -g "$user")" --clear-groups env -i "$@"; }
    else
        user="$(id -un)"
        as_user() { env -i "$@"; }
    fi
}

# session_folder PARENT NAME: makes the session's folder in PARENT (programs run from it, the user
# reaches it, its sockets' paths stay short): home, runtime (0700), data, install-home. Sets `work`.
session_folder() {
    work="$(mktemp -d "$1/$2.XXXXXX")"
    chmod 755 "$work"
    mkdir -p "$work/home" "$work/runtime" "$work/data" "$work/install-home"
    chmod 700 "$work/runtime"
}

# install_into_prefix BINARY: `make install` into $work/prefix with that binary, HOME elsewhere
# (xdg-mime writes the scheme default there); its output in $work/install.log, shown on failure.
install_into_prefix() {
    HOME="$work/install-home" XDG_CONFIG_HOME="$work/install-home/.config" XDG_DATA_HOME="$work/install-home/.local/share" \
        make --no-print-directory -s install PREFIX="$work/prefix" BINARY="$1" >"$work/install.log" 2>&1 \
        || { cat "$work/install.log" >&2; exit 1; }
}

# end_session_processes FOLDER BUS_ADDRESS: ends (SIGKILL) what the session started behind the
# script's back, among this user's processes: what its bus activated or its programs spawned (the
# service, the accessibility bus's launcher, registry and dbus-daemon), each known by FOLDER in its
# command line or BUS_ADDRESS in its environment. SIGKILL: a process started from a test runner's
# thread inherits that thread's blocked SIGTERM, and the accessibility bus's daemon and registry
# outlived their launcher's SIGTERM so (seen under TrayHostTests).
end_session_processes() {
    local pid
    for pid in $(pgrep -u "$(id -u)" 2>/dev/null || true); do
        [ "$pid" = "$$" ] && continue
        if grep -qzF -- "$1/" /proc/"$pid"/cmdline 2>/dev/null \
            || { [ -n "$2" ] && grep -qzF -- "DBUS_SESSION_BUS_ADDRESS=$2" /proc/"$pid"/environ 2>/dev/null; }; then
            kill -KILL "$pid" 2>/dev/null || true
        fi
    done
}

# scratch_session FOLDER LOG...: for a check that runs as the caller: its folder ($work, made in
# FOLDER: home, runtime (0700), bus) and its screenshots' ($shots: $SCREENSHOT_DIR or a new one in
# /tmp), and an exit trap that kills $pids, what the session started behind the script's back and
# its bus ($BUS_PID), shows the end of each $work/LOG.log when the check failed, removes $work and
# says where the screenshots are.
scratch_session() {
    local parent=$1; shift
    session_logs=("$@")
    work="$(mktemp -d "$parent/dbm-session.XXXXXX")"
    shots="${SCREENSHOT_DIR:-$(mktemp -d /tmp/dbm-shots.XXXXXX)}"
    mkdir -p "$work/home" "$work/runtime" "$work/bus" "$shots"
    chmod 700 "$work/runtime"
    pids=()
    trap scratch_session_end EXIT INT TERM
}

scratch_session_end() {
    local status=$? pid log
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    end_session_processes "$work" "${BUS_ADDRESS:-}"
    [ -n "${BUS_PID:-}" ] && kill -KILL "$BUS_PID" 2>/dev/null
    if [ "$status" -ne 0 ]; then
        for log in "${session_logs[@]}"; do [ -f "$work/$log.log" ] && { echo "--- $log.log" >&2; tail -20 "$work/$log.log" >&2; }; done
    fi
    rm -rf "$work"
    echo "screenshots: $shots"
    exit "$status"
}
