# Sourced by the scripts that need a private session bus (never the developer's own).
#
# start_private_bus DIR [SERVICEDIR]: writes DIR/bus.conf, starts dbus-daemon (which forks once it
# listens, so there is nothing to poll for), and sets BUS_ADDRESS and BUS_PID. Without SERVICEDIR
# the bus activates nothing. The caller exports the address and kills BUS_PID when done.
start_private_bus() {
    local dir="$1" servicedir="${2:-}" servicedir_line=""
    [[ -n $servicedir ]] && servicedir_line="  <servicedir>$servicedir</servicedir>"
    cat >"$dir/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:dir=$dir</listen>
$servicedir_line
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
    # DBUS_DEBUG_OUTPUT: the forked daemon keeps its stdout and stderr (DIR/daemon.log) instead of
    # /dev/null, and so do the services it activates: their own log, and why one exited, are there.
    # The address and the pid come on descriptors 3 and 4, the only ones on the pipe.
    { read -r BUS_ADDRESS; read -r BUS_PID; } < <(DBUS_DEBUG_OUTPUT=1 dbus-daemon --config-file="$dir/bus.conf" --fork \
        --print-address=3 --print-pid=4 3>&1 4>&1 >"$dir/daemon.log" 2>&1)
    if [[ ${BUS_ADDRESS:-} != unix:* ]]; then
        echo "dbus-daemon gave no address:" >&2
        cat "$dir/daemon.log" >&2
        return 1
    fi
}
