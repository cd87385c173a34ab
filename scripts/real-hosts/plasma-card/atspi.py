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
import os
import sys

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from atspi_tree import GONE, Unreadable, applications, descendants, role  # noqa: E402

ROLES = {"label", "push button", "progress bar"}


def named(name):
    """Every application named `name` (two plasmoidviewers may run side by side)."""
    return applications(lambda app: app.name == name)


def showing(apps):
    """(role, name, node) of each showing object under apps, depth first; an application or an
    object gone while read is left out (it is no longer there)."""
    for app in apps:
        try:
            nodes = list(descendants(app))
        except Unreadable:
            continue
        for node in nodes:
            try:
                yield role(node), node.name, node
            except GONE:
                continue


def await_label(app_name, name, seconds):
    """Event-driven: AT-SPI calls back on each change of an accessible name."""
    import time

    from gi.repository import GLib

    found = []

    def shown():
        return any(kind == "label" and text == name for kind, text, _ in showing(named(app_name)))

    def changed(event):
        try:
            if found or event.source is None or event.source.name != name:
                return
        except GONE:  # the object gone before its event was read
            return
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
    apps = named(arguments[1])
    if not apps:
        print(f"no application {arguments[1]!r} on the accessibility bus", file=sys.stderr)
        return 1
    nodes = list(showing(apps))
    if arguments[0] in ("dump", "geometry"):
        for kind, text, node in nodes:
            if kind not in ROLES or not text:
                continue
            if arguments[0] == "dump":
                print(f"{kind}: {text}")
                continue
            try:
                box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            except GONE:  # gone since the walk: no longer shown
                continue
            print(f"{kind}|{text}|{box.x} {box.y} {box.width} {box.height}")
        return 0
    for kind, text, node in nodes:
        if kind == "push button" and text == arguments[2]:
            try:
                node.queryAction().doAction(0)
            except GONE as error:
                print(f"the button {arguments[2]!r} went before it was pressed ({error})", file=sys.stderr)
                return 1
            return 0
    print(f"no showing button {arguments[2]!r}", file=sys.stderr)
    return 1


sys.exit(main(sys.argv[1:]))
