# Sourced by the real-host checks, which run a real desktop host in a session of their own
# (scripts/real-hosts/: tray-host-check.sh, gnome-shell-check.sh, plasma-card-check.sh,
# real-notification-daemon.sh, new-pages-session.sh). Each sets its session up with session_start,
# the one way to do it.
# A check that passes --user defines `skip` (exit 77: the host cannot run here).

# session_start [--user REASON] PARENT NAME LOG...: the session of a check.
#   Its folder, $work: a new PARENT/NAME.XXXXXX holding home, runtime (0700), data and bus; the
#   programs run from it and its sockets' paths stay short. Its screenshots' folder, $shots:
#   $SCREENSHOT_DIR, or a new /tmp/NAME-shots.XXXXXX. $pids: for the check to add what it starts.
#   --user REASON: the session runs as another user when the caller is root (session_user; REASON:
#   why not root), who must reach $work: it is opened to all (0755); session_as_user runs it.
#   An exit trap (on INT and TERM too, with their status) ends the session: session_stop; when the
#   check failed (not skipped), the end of each $work/LOG.log; $work removed; where the screenshots
#   are said, or their folder removed when this made it and nothing was kept.
session_start() {
    local as_user=no
    if [ "${1:-}" = --user ]; then session_user "$2"; as_user=yes; shift 2; fi
    local parent=$1 name=$2; shift 2
    session_logs=("$@")
    work="$(mktemp -d "$parent/$name.XXXXXX")"
    [ "$as_user" = yes ] && chmod 755 "$work"
    mkdir -p "$work/home" "$work/runtime" "$work/data" "$work/bus"
    chmod 700 "$work/runtime"
    session_made_shots=no
    if [ -n "${SCREENSHOT_DIR:-}" ]; then shots="$SCREENSHOT_DIR"; mkdir -p "$shots"
    else shots="$(mktemp -d "/tmp/$name-shots.XXXXXX")"; session_made_shots=yes; fi
    pids=()
    trap session_end EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

session_end() {
    local status=$? log
    session_stop
    if [ "$status" -ne 0 ] && [ "$status" -ne 77 ]; then
        for log in "${session_logs[@]}"; do
            [ -f "$work/$log.log" ] && { echo "--- $log.log (last 40 lines)" >&2; tail -40 "$work/$log.log" >&2; }
        done
    fi
    rm -rf "$work"
    if [ -n "$(ls -A "$shots" 2>/dev/null)" ]; then echo "screenshots: $shots"
    elif [ "$session_made_shots" = yes ]; then rmdir "$shots" 2>/dev/null || true; fi
    exit "$status"
}

# session_stop: ends what the session runs: $pids (SIGKILL, then reaped), what it started behind
# the script's back (end_session_processes) and its bus ($BUS_PID, $BUS_ADDRESS), when there is one.
session_stop() {
    local pid
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    end_session_processes "$work" "${BUS_ADDRESS:-}"
    if [ -n "${BUS_PID:-}" ]; then kill -KILL "$BUS_PID" 2>/dev/null || true; fi
}

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

# session_as_user COMMAND...: hands $work and $shots to the session's user (when root) and runs
# COMMAND as that user, with only PATH set.
session_as_user() {
    if [ "$(id -u)" -eq 0 ]; then chown -R "$user:" "$work" "$shots"; fi
    as_user PATH=/usr/bin:/bin "$@"
}

# install_into_prefix BINARY: `make install` into $work/prefix with that binary, HOME elsewhere
# (xdg-mime writes the scheme default there); its output in $work/install.log, shown on failure.
install_into_prefix() {
    mkdir -p "$work/install-home"
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
