"""An application's accessibility tree (AT-SPI, python3-pyatspi) read while the application changes
it: the checks of scripts/real-hosts/ (gnome-shell-check/, plasma-card/) walk it through this.

A desktop destroys its objects as it goes (a menu that closes, a card redrawn), and a walk meets
them half gone: a child that reads as None, a dead object whose calls fail with a GLib.Error (its
D-Bus peer no longer knows the path), a child count of -1 (ValueError from list()). Such an object
is left out of the walk, with what was under it: it is no longer there. What a check looks for
is never taken as absent because the walk could not start: a root that is None or gone raises
Unreadable, which a check's wait treats as "not yet", and names when it gives up.
"""
import pyatspi
from gi.repository import GLib

# What reading a vanished object raises.
GONE = (GLib.Error, ValueError)


class Unreadable(Exception):
    """The tree could not be read at all (its root is None or gone): nothing can be said of what
    is in it, neither that something is there nor that it is not."""


def role(node):
    """The node's role, named as at-spi2-core 2.46 (Debian 12) names it: later releases (Debian 13,
    sid) call a push button `button`."""
    name = node.getRoleName()
    return 'push button' if name == 'button' else name


def applications(keep):
    """The applications on the accessibility bus for which keep(app) holds; one that goes while
    they are read is left out."""
    found = []
    for app in children(pyatspi.Registry.getDesktop(0)):
        try:
            if keep(app):
                found.append(app)
        except GONE:
            continue
    return found


def children(node):
    """node's children as they are now, None children left out: none when node has gone."""
    try:
        return [child for child in node if child is not None]
    except GONE:
        return []


def showing(node):
    """Whether node is showing; False for a node gone."""
    try:
        return node.getState().contains(pyatspi.STATE_SHOWING)
    except GONE:
        return False


def descendants(root, only_showing=True):
    """root's descendants, depth first (only those showing, and under them, by default). Raises
    Unreadable when root is None or its children cannot be read."""
    if root is None:
        raise Unreadable('the tree to read is gone (None)')
    try:
        top = [child for child in root if child is not None]
    except GONE as error:
        raise Unreadable(f'the tree to read is gone ({error})') from error

    def walk(nodes):
        for node in nodes:
            if only_showing and not showing(node):
                continue
            yield node
            yield from walk(children(node))
    yield from walk(top)


def find_all(root, predicate, only_showing=True):
    """The descendants of root for which predicate holds; a node that goes while predicate reads
    it is left out. Raises Unreadable as descendants does."""
    found = []
    for node in descendants(root, only_showing):
        try:
            if predicate(node):
                found.append(node)
        except GONE:
            continue
    return found
