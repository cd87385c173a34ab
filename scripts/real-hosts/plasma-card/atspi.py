#!/usr/bin/python3
"""What a screen reader reads of a running program, through AT-SPI (python3-pyatspi).

    atspi.py dump APP          prints each showing label, button and progress bar of the
                               applications named APP, one "role: name" a line, in tree order
    atspi.py press APP NAME    presses the showing button named NAME (its first action)
    atspi.py geometry APP      as dump, with each one's extents: "role|name|x y width height"
    atspi.py await APP NAME SECONDS
                               listens for name changes, says "listening" on stdout, then exits
                               0 with the time (Unix milliseconds) at which a showing label named
                               NAME appeared in APP, or 1 after SECONDS

pyatspi caches the application list for the life of its process: each question is a process of
its own. Exit status 1 when the application or the button is not there (yet)."""
import sys

import pyatspi

ROLES = {"label", "push button", "progress bar"}


def role(node):
    """The node's role, named as at-spi2-core 2.46 (Debian 12) names it: later releases (Debian 13,
    sid) call a push button `button`."""
    name = node.getRoleName()
    return "push button" if name == "button" else name


def applications(name):
    """Every application named `name` (two plasmoidviewers may run side by side)."""
    return [app for app in pyatspi.Registry.getDesktop(0) if app is not None and app.name == name]


def application(name):
    found = applications(name)
    return found[0] if found else None


def showing(node):
    """The showing objects under node, depth first."""
    for child in node:
        if child is None:
            continue
        try:
            states = child.getState()
        except Exception:
            continue
        if not states.contains(pyatspi.STATE_SHOWING):
            continue
        yield child
        yield from showing(child)


def await_label(app_name, name, seconds):
    """Event-driven: AT-SPI calls back on each change of an accessible name."""
    import time

    from gi.repository import GLib

    found = []

    def shown():
        app = application(app_name)
        return app is not None and any(role(n) == "label" and n.name == name for n in showing(app))

    def changed(event):
        if not found and event.source is not None and event.source.name == name:
            found.append(int(time.time() * 1000))
            pyatspi.Registry.stop()

    def give_up():
        pyatspi.Registry.stop()
        return False

    pyatspi.Registry.registerEventListener(changed, "object:property-change:accessible-name")
    if shown():
        print("listening", flush=True)
        print(int(time.time() * 1000))
        return 0
    print("listening", flush=True)
    GLib.timeout_add(int(seconds * 1000), give_up)
    pyatspi.Registry.start()
    if not found:
        print(f"no label {name!r} within {seconds} s", file=sys.stderr)
        return 1
    print(found[0])
    return 0


def main(arguments):
    if len(arguments) == 4 and arguments[0] == "await":
        return await_label(arguments[1], arguments[2], float(arguments[3]))
    if len(arguments) < 2 or arguments[0] not in ("dump", "press", "geometry"):
        print(__doc__, file=sys.stderr)
        return 2
    apps = applications(arguments[1])
    if not apps:
        print(f"no application {arguments[1]!r} on the accessibility bus", file=sys.stderr)
        return 1
    nodes = [node for app in apps for node in showing(app)]
    if arguments[0] in ("dump", "geometry"):
        for node in nodes:
            if role(node) in ROLES and node.name:
                if arguments[0] == "dump":
                    print(f"{role(node)}: {node.name}")
                else:
                    box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                    print(f"{role(node)}|{node.name}|{box.x} {box.y} {box.width} {box.height}")
        return 0
    for node in nodes:
        if role(node) == "push button" and node.name == arguments[2]:
            node.queryAction().doAction(0)
            return 0
    print(f"no showing button {arguments[2]!r}", file=sys.stderr)
    return 1


sys.exit(main(sys.argv[1:]))
