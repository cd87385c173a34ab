#!/usr/bin/env bash
# Runs `dbmultiverse service` on the session bus; when there is none (a fresh machine, ssh, CI),
# on a private session bus started for it with dbus-run-session.
set -euo pipefail
binary="${1:?usage: run-service.sh PATH-TO-dbmultiverse}"
if [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || [ -S "${XDG_RUNTIME_DIR:-/nonexistent}/bus" ]; then
    if dbus-send --session --dest=org.freedesktop.DBus --type=method_call --print-reply \
        /org/freedesktop/DBus org.freedesktop.DBus.GetId >/dev/null 2>&1; then
        echo "serving on the session bus (${DBUS_SESSION_BUS_ADDRESS:-$XDG_RUNTIME_DIR/bus}); Ctrl-C stops" >&2
        exec "$binary" service
    fi
fi
echo "no session bus: starting a private one (dbus-run-session); Ctrl-C stops" >&2
exec dbus-run-session -- sh -c 'echo "DBUS_SESSION_BUS_ADDRESS=$DBUS_SESSION_BUS_ADDRESS" >&2; exec "$0" service' "$binary"
