#!/usr/bin/env bash
# Leak check for the libdbus binding: runs dbus-sample-service under valgrind on a private
# dbus-daemon, drives a few hundred calls of every kind at it with the stock clients (replies,
# error replies, property gets and sets, signals), stops it with SIGTERM and reports valgrind's
# leak summary. Exits non-zero when anything is definitely lost or a call misbehaved.
#
#   scripts/dev/leak-check.sh                  # builds in .build
#   SCRATCH_PATH=.build-helper scripts/dev/leak-check.sh
#   ROUNDS=10 scripts/dev/leak-check.sh        # 16 calls per round (default 13 rounds, 208 calls)
#
# Never touches the developer's session bus: every client gets the private bus's address.
set -euo pipefail

cd "$(dirname "$0")/../.."
scratch=${SCRATCH_PATH:-.build}
rounds=${ROUNDS:-13}

echo "== building dbus-sample-service (scratch path $scratch)"
swift build --product dbus-sample-service --scratch-path "$scratch" 2>&1 | tail -n 1
service="$(swift build --show-bin-path --scratch-path "$scratch")/dbus-sample-service"
[[ -x $service ]] || { echo "leak-check: $service was not built" >&2; exit 1; }

work=$(mktemp -d /tmp/dbm-leak-check.XXXXXX)
daemon_pid=""
service_pid=""
cleanup() {
    if [[ -n $service_pid ]] && kill -0 "$service_pid" 2>/dev/null; then kill -KILL "$service_pid" 2>/dev/null || true; fi
    if [[ -n $daemon_pid ]]; then kill -KILL "$daemon_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# A private session bus, configured like the tests' PrivateBus.
mkdir -p "$work/services"
source scripts/lib/private-bus.sh
start_private_bus "$work" "$work/services" || exit 1
address=$BUS_ADDRESS daemon_pid=$BUS_PID
export DBUS_SESSION_BUS_ADDRESS=$address
unset DBUS_STARTER_ADDRESS DBUS_STARTER_BUS_TYPE
echo "== private bus at $address (pid $daemon_pid)"

echo "== starting the service under valgrind"
valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=3 \
    --log-file="$work/valgrind.log" "$service" &
service_pid=$!
if ! gdbus wait --session --timeout 120 org.example.Sample; then
    echo "leak-check: the service did not take org.example.Sample within 120 s" >&2
    cat "$work/valgrind.log" >&2
    exit 1
fi

dest=org.example.Sample
path=/org/example/Sample
iface=org.example.Sample1
calls=0
failures=0

# expect STATUS OUTPUT-SUBSTRING COMMAND...: runs one client call and checks its exit status and output.
expect() {
    local want_status=$1 want_text=$2
    shift 2
    local output status=0
    output=$("$@" 2>&1) || status=$?
    calls=$((calls + 1))
    if [[ $status -ne $want_status || $output != *"$want_text"* ]]; then
        failures=$((failures + 1))
        echo "unexpected result (exit $status) from: $*" >&2
        echo "$output" >&2
    fi
}
send() { dbus-send --session --print-reply --reply-timeout=20000 --dest=$dest "$@"; }
gcall() { gdbus call --session --timeout 20 --dest $dest --object-path $path --method "$@"; }

echo "== driving $((rounds * 16)) calls"
for round in $(seq 1 "$rounds"); do
    expect 0 "int32 $((round + 2))" send $path $iface.Add int32:$round int32:2
    expect 1 "org.example.Sample.Error.Overflow" send $path $iface.Add int32:2147483647 int32:$round
    expect 1 "com.example.Custom.Error.Busy: round $round" send $path $iface.Fail string:com.example.Custom.Error.Busy "string:round $round"
    expect 0 "string \"echo $round ✓\"" send $path $iface.EchoString "string:echo $round ✓"
    expect 0 "'inner': <{'deep': <[1, 2, $round]>" gcall $iface.EchoDict "{'n': <int32 $round>, 'inner': <{'deep': <[1, 2, $round]>, 'b': <true>}>}"
    expect 0 "((${round}, 'seven'),)" gcall $iface.EchoStruct "($round, 'seven')"
    expect 0 "([{'a': [1, $round]}, {}],)" gcall $iface.EchoNested "[{'a': [1, $round]}, {}]"
    expect 0 "array of bytes" send $path $iface.EchoBytes array:byte:1,2,3,$round
    expect 0 "(<(uint64 $round, 'x')>,)" gcall $iface.EchoVariant "<(uint64 $round, 'x')>"
    expect 0 "()" gcall org.freedesktop.DBus.Properties.Set $iface Label "<'label $round'>"
    expect 0 "string \"label $round\"" send $path org.freedesktop.DBus.Properties.Get string:$iface string:Label
    expect 1 "PropertyReadOnly" gcall org.freedesktop.DBus.Properties.Set $iface Version "<'2'>"
    expect 0 "'Secret': <'hidden'>" gcall org.freedesktop.DBus.Properties.GetAll $iface
    expect 0 "" send $path $iface.Emit "string:ping $round"
    expect 0 "" send $path $iface.SetCounter int32:$round
    expect 1 "UnknownMethod" send $path $iface.Nope
done
# A few more kinds once: introspection, Peer, unknown object and interface, bad arguments.
expect 0 "<method name=\"EchoBasics\">" gdbus introspect --session --dest $dest --object-path $path --xml
expect 0 "<node name=\"example\"/>" gdbus introspect --session --dest $dest --object-path /org --xml
expect 0 "" send $path org.freedesktop.DBus.Peer.Ping
expect 1 "UnknownObject" send /org/example/Nothing $iface.Add int32:1 int32:2
expect 1 "UnknownInterface" send $path org.example.Other.Add int32:1 int32:2
expect 1 "InvalidArgs" send $path $iface.Add string:x
expect 1 "InvalidArgs" gcall org.freedesktop.DBus.Properties.Set $iface Label "<''>"
echo "== $calls calls, $failures unexpected"

echo "== stopping the service with SIGTERM"
kill -TERM "$service_pid"
# valgrind runs its leak check after the program ends; allow it time, but not forever.
sleep 300 >/dev/null 2>&1 &
sleeper=$!
status=0
finished=""
wait -n -p finished "$service_pid" "$sleeper" || status=$?
if [[ $finished != "$service_pid" ]]; then
    echo "leak-check: the service did not exit within 300 s of SIGTERM" >&2
    exit 1
fi
kill "$sleeper" 2>/dev/null || true
wait "$sleeper" 2>/dev/null || true
service_pid=""

echo "== valgrind summary (exit status $status)"
# (The possibly lost blocks are the Swift runtime's generic-metadata caches, which live until exit
# by design; only definite leaks fail the check.)
grep -E "^==[0-9]+== +(definitely lost|indirectly lost|possibly lost|still reachable):|ERROR SUMMARY" "$work/valgrind.log" \
    | sed 's/^==[0-9]*== *//'
definitely=$(grep -Eo "definitely lost: [0-9,]+ bytes" "$work/valgrind.log" | grep -Eo "[0-9,]+" | tr -d , | head -n 1)

if [[ ${definitely:-x} == x ]]; then
    echo "leak-check: no leak summary from valgrind (did the service exit normally?)" >&2
    tail -n 40 "$work/valgrind.log" >&2
    exit 1
fi
if [[ $definitely != 0 || $status == 3 ]]; then
    echo "leak-check: definite leaks; valgrind's records:" >&2
    awk '/definitely lost in loss record/,/^==[0-9]+== $/' "$work/valgrind.log" >&2
    exit 3
fi
if [[ $status != 0 ]]; then
    echo "leak-check: the service exited with status $status" >&2
    tail -n 40 "$work/valgrind.log" >&2
    exit 1
fi
if [[ $failures != 0 ]]; then
    echo "leak-check: $failures of $calls calls misbehaved" >&2
    exit 1
fi
echo "leak-check: OK (no definite leaks, $calls calls)"
