#!/usr/bin/python3
"""The card in a real gnome-shell, read as a screen reader reads it (AT-SPI) and clicked as a user
clicks (mutter's remote-desktop input, the pointer gnome-remote-desktop drives).

Run by scripts/real-hosts/gnome-shell-check.sh inside the private session it starts (gnome-shell running, the
extension enabled, DBMultiverse installed in a temporary prefix, its service activatable), with the
reader of scripts/lib/demo-story.sh in DEMO_* variables, and its cover and chapter list in the session's
folder (CARD_CHECK_WORK).
Usage: card_check.py DBMULTIVERSE SHELL_LOG SCREENSHOT_DIR

Prints what it saw and measured; exits 1 at the first check that fails. Every wait is bounded;
it waits on D-Bus signals and AT-SPI events, re-reading AT-SPI at most every 100 ms meanwhile.
"""
import json
import os
import subprocess
import sys
import time

import pyatspi
from gi.repository import Gio, GLib

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from atspi_tree import GONE, Unreadable, applications, children, find_all, role  # noqa: E402

BINARY, SHELL_LOG, SHOTS = sys.argv[1:4]
UUID = 'dbmultiverse@nobadi.com'
OBJECT_PATH = '/com/nobadi/DBMultiverse'
WIDGET = 'com.nobadi.DBMultiverse.Widget1'
BUS = Gio.bus_get_sync(Gio.BusType.SESSION)
# What a change may take to show, from its D-Bus signal to what AT-SPI reads (the brief's 1 s).
SHOWN_WITHIN = 1.0
# What the extension may take, once enabled again, to show the entry it reads from the service (no
# reload asked for or waited for: the check also counts the service's TimelinesReloaded). 2–184 ms here on
# a machine at rest; 1.33 s once with make test's package builds beside it. A wait for a reload
# would take far longer (the next one is up to an hour away).
BACK_WITHIN = 5.0
SITE = 'https://www.dragonball-multiverse.com'
# The reader (scripts/lib/demo-story.sh): chapter, name, progress, page, and the pages published after it.
CHAPTER, NAME = int(os.environ['DEMO_CHAPTER']), os.environ['DEMO_NAME']
PROGRESS, PAGE = int(os.environ['DEMO_PROGRESS']), int(os.environ['DEMO_PAGE'])
NEW_PAGES = int(os.environ['DEMO_LATEST_PAGE']) - PAGE


def fail(message):
    print(f'FAIL: {message}', flush=True)
    sys.exit(1)


def say(message):
    print(message, flush=True)


# ---- Waiting: the GLib main loop runs (D-Bus signals, AT-SPI events) until a condition holds ----
GLib.timeout_add(100, lambda: True)  # wakes the loop to re-check conditions and deadlines


def wait_until(what, condition, timeout=10.0):
    """condition's first true value. A tree that cannot be read (Unreadable) or an accessible gone
    while condition read it (GONE) is "not yet", and said if it lasts until the deadline."""
    deadline = time.monotonic() + timeout
    context = GLib.MainContext.default()
    unreadable = None
    while True:
        try:
            value = condition()
        except (Unreadable, *GONE) as error:
            value, unreadable = None, error
        else:
            unreadable = None
        if value:
            return value
        if time.monotonic() > deadline:
            fail(f'timed out after {timeout:g} s waiting for {what}' + (f' (AT-SPI: {unreadable})' if unreadable else ''))
        context.iteration(True)


def drain():
    """Handles what is already queued (signals that arrived while a command ran)."""
    context = GLib.MainContext.default()
    while context.pending():
        context.iteration(False)


# ---- What the bus says: the service's signals, with the time each arrived ----------------------
entry_signals = []    # (monotonic time, small rendering of the Entry in PropertiesChanged)
reloads = []          # TimelinesReloaded's reasons, changed or not
open_requests = []    # (chapter, deep link)


def small_rendering_of(entry):
    """Only to name the signal in the output; the checks compare with `dbmultiverse entry`."""
    if entry.get('is-placeholder'):
        return 'placeholder'
    return f"Ch. {entry['chapter']} {entry['progress']}% new {entry.get('new-pages', 0)}"


def on_properties_changed(_connection, _sender, _path, _interface, _signal, parameters):
    interface, changed, _invalidated = parameters.unpack()
    if interface == WIDGET and 'Entry' in changed:
        entry_signals.append((time.monotonic(), small_rendering_of(changed['Entry'])))


def on_timelines_reloaded(_connection, _sender, _path, _interface, _signal, parameters):
    reloads.append(parameters.unpack()[1])


def on_open_requested(_connection, _sender, _path, _interface, _signal, parameters):
    open_requests.append(tuple(parameters.unpack()))


BUS.signal_subscribe(None, 'org.freedesktop.DBus.Properties', 'PropertiesChanged', OBJECT_PATH,
                     WIDGET, Gio.DBusSignalFlags.NONE, on_properties_changed)
BUS.signal_subscribe(None, WIDGET, 'OpenRequested', OBJECT_PATH, None, Gio.DBusSignalFlags.NONE,
                     on_open_requested)
BUS.signal_subscribe(None, WIDGET, 'TimelinesReloaded', OBJECT_PATH, None, Gio.DBusSignalFlags.NONE,
                     on_timelines_reloaded)


def dbmultiverse(*arguments):
    run = subprocess.run([BINARY, *arguments], capture_output=True, text=True, timeout=30)
    if run.returncode != 0:
        fail(f'dbmultiverse {" ".join(arguments)} exited {run.returncode}: {run.stderr.strip()}')
    return run.stdout.strip()


def reference_small():
    """The panel's reference: the CLI's small rendering of the entry as of the last reload."""
    return dbmultiverse('entry', '--family', 'small')


def reference_view():
    """What the card must show, item for item: the view the service publishes with the entry
    (title, name, the progress bar and its progress-text, new-pages-text, the actions' labels)."""
    entry = json.loads(dbmultiverse('entry', '--format', 'json'))
    items = [('label', entry['title']), ('label', entry['name'])]
    if entry['progress-text']:
        items += [('level bar', f"{entry['progress-text']} ({min(max(entry['progress'], 0), 100) / 100:.2f})"),
                  ('label', entry['progress-text'])]
    if entry['new-pages-text']:
        items.append(('label', entry['new-pages-text']))
    return items + [('button', action['label']) for action in entry['actions']]


# ---- What AT-SPI shows ---------------------------------------------------------------------------
label_changes = []  # (monotonic time, text) of the panel label, from accessible-name events


def shell_app():
    """gnome-shell's application on the accessibility bus; Unreadable while it is not there (the
    registry lists it again once the shell answers)."""
    apps = applications(lambda app: app.name == 'gnome-shell')
    if not apps:
        raise Unreadable('gnome-shell is not among the applications on the accessibility bus')
    return apps[0]


def panel_button():
    """The extension's button: a menu named DBMultiverse in the top bar's right half (the left
    one may hold the shell's app menu, also named DBMultiverse while the service opens a page
    with the app's activation token)."""
    app = shell_app()

    def ours(accessible):
        if role(accessible) != 'menu' or accessible.name != 'DBMultiverse':
            return False
        extents = accessible.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        return extents.y == 0 and extents.x > 640
    # atspi_tree's find_all, not pyatspi.findAllDescendants: an accessible may go while the tree is read.
    buttons = find_all(app, ours, only_showing=False)
    return buttons[0] if buttons else None


def panel_label(button):
    labels = find_all(button, lambda a: role(a) == 'label', only_showing=False)
    return labels[0] if labels else None


def on_name_changed(event):
    source = event.source
    try:
        if role(source) == 'label' and source.parent.parent.name == 'DBMultiverse':
            label_changes.append((time.monotonic(), source.name))
    except Exception:  # an accessible gone while the event was on its way
        pass


pyatspi.Registry.registerEventListener(on_name_changed, 'object:property-change:accessible-name')


def wait_for_panel(expected, what, timeout=10.0):
    button = wait_until('the DBMultiverse button in the top bar', panel_button, timeout)
    label = wait_until('its label', lambda: panel_label(button))
    wait_until(f'the top bar to read "{expected}" ({what})', lambda: label.name == expected, timeout)
    return button, label


def measure_change(what, command, expected, reason_wait=10.0):
    """Runs command (a list of dbmultiverse arguments), waits for the reload's PropertiesChanged
    and for the panel to read `expected`; returns the time from the signal to the AT-SPI event."""
    drain()
    signals_before, changes_before = len(entry_signals), len(label_changes)
    dbmultiverse(*command)
    wait_until(f'the reload after {what} (PropertiesChanged with Entry)',
               lambda: len(entry_signals) > signals_before, reason_wait)
    signal_time = entry_signals[-1][0]
    shown = wait_until(f'the top bar to read "{expected}" after {what}',
                       lambda: next((t for t, text in label_changes[changes_before:] if text == expected), None),
                       SHOWN_WITHIN + 4)
    elapsed = shown - signal_time
    say(f'{what}: "{expected}" shown {elapsed * 1000:.0f} ms after the PropertiesChanged signal')
    if elapsed > SHOWN_WITHIN:
        fail(f'{what} took {elapsed:.3f} s to show, more than {SHOWN_WITHIN} s')
    return label_changes[changes_before:]


# ---- Input, as a user gives it: mutter's remote-desktop pointer --------------------------------
REMOTE = 'org.gnome.Mutter.RemoteDesktop'
BTN_LEFT = 0x110
KEY_ESCAPE = 0xff1b


def remote(path, interface, method, parameters=None):
    return BUS.call_sync(REMOTE, path, interface, method, parameters, None,
                         Gio.DBusCallFlags.NONE, 5000, None)


def with_input(act):
    """Runs act(send) in a remote-desktop session. The top bar shows a 'screen sharing' indicator
    while one runs (and 5 s after), which moves the buttons beside it: act reads positions only
    once it shows."""
    session = remote('/org/gnome/Mutter/RemoteDesktop', REMOTE, 'CreateSession').unpack()[0]
    interface = REMOTE + '.Session'
    remote(session, interface, 'Start')
    try:
        wait_until('the screen-sharing indicator', lambda: not sharing_indicator_hidden())
        act(lambda method, signature, values: remote(session, interface, method, GLib.Variant(signature, values)))
    finally:
        remote(session, interface, 'Stop')


def screen_size():
    """The virtual monitor's size: the largest of the shell's windows and their children (GNOME 48's
    stage itself reads 87x55 through AT-SPI; its child has the monitor's 1280x800)."""
    def sizes():
        windows = children(shell_app())
        windows += [child for window in windows for child in children(window)]
        read = []
        for window in windows:
            try:
                read.append(window.queryComponent().getExtents(pyatspi.DESKTOP_COORDS))
            except GONE:  # a window gone while read
                continue
        return read
    read = wait_until("the shell's windows on the accessibility bus", sizes)
    return max(size.width for size in read), max(size.height for size in read)


def click(accessible):
    def act(send):
        extents = accessible.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        x, y = extents.x + extents.width // 2, extents.y + extents.height // 2
        width, height = screen_size()
        # Relative motion (mutter accelerates no virtual pointer): to the bottom-right corner, where
        # the screen stops it (far from the top-left hot corner, whose barrier opens the overview),
        # then to the spot. Twice to the corner: GNOME 51 clamps the first move from (0, 0) short of it.
        send('NotifyPointerMotionRelative', '(dd)', (10000.0, 10000.0))
        send('NotifyPointerMotionRelative', '(dd)', (10000.0, 10000.0))
        send('NotifyPointerMotionRelative', '(dd)', (float(x - width + 1), float(y - height + 1)))
        send('NotifyPointerButton', '(ib)', (BTN_LEFT, True))
        send('NotifyPointerButton', '(ib)', (BTN_LEFT, False))
    with_input(act)


def press_escape():
    with_input(lambda send: (send('NotifyKeyboardKeysym', '(ub)', (KEY_ESCAPE, True)),
                             send('NotifyKeyboardKeysym', '(ub)', (KEY_ESCAPE, False))))


def sharing_indicator_hidden():
    """The top bar shows a 'screen sharing' indicator for 5 s after remote input: the screenshots
    wait for it to go."""
    app = shell_app()
    return not find_all(app, lambda a: role(a) == 'push button'
                        and a.name in ('Stop Screen Sharing', 'Arrêter le partage d’écran'))


def screenshot(name, area=None):
    path = os.path.join(SHOTS, name)
    if area:
        result = BUS.call_sync('org.gnome.Shell.Screenshot', '/org/gnome/Shell/Screenshot',
                               'org.gnome.Shell.Screenshot', 'ScreenshotArea',
                               GLib.Variant('(iiiibs)', (*area, False, path)), None, 0, 10000, None)
    else:
        result = BUS.call_sync('org.gnome.Shell.Screenshot', '/org/gnome/Shell/Screenshot',
                               'org.gnome.Shell.Screenshot', 'Screenshot',
                               GLib.Variant('(bbs)', (False, False, path)), None, 0, 10000, None)
    success, written = result.unpack()
    if not success or os.path.getsize(written) < 1000:
        fail(f'the screenshot {name} was not written')
    say(f'screenshot: {written}')
    return written


def shell_eval(code):
    """The JSON value of `code` run in the shell (org.gnome.Shell.Eval: the unsafe-mode helper allows it)."""
    success, result = BUS.call_sync('org.gnome.Shell', '/org/gnome/Shell', 'org.gnome.Shell', 'Eval',
                                    GLib.Variant('(s)', (code,)), None, 0, 10000, None).unpack()
    if not success:
        fail(f'org.gnome.Shell.Eval failed ({result or "refused: not in unsafe mode"}) for:\n{code}')
    return json.loads(result) if result else None


# The top bar's text of the extension's button, as the shell holds it ('' while it is not there).
PANEL_TEXT = r'''(() => {
    const button = Main.panel.statusArea['dbmultiverse@nobadi.com'];
    const find = actor => actor.has_style_class_name?.('dbmultiverse-panel-text') ? actor
        : actor.get_children().map(find).find(found => found) ?? null;
    return button ? find(button)?.text ?? '' : '';
})()'''

# The card's texts as the shell holds them, open or not: its visible labels and buttons, in order.
CARD_TEXTS = r'''(() => {
    const card = Main.panel.statusArea['dbmultiverse@nobadi.com'].menu.box.get_children()
        .find(actor => actor.has_style_class_name?.('dbmultiverse-card'));
    const texts = [];
    const walk = actor => {
        for (const child of actor.get_children()) {
            if (!child.visible)
                continue;
            if (child.constructor.$gtype.name === 'StButton')
                texts.push(child.label);
            else if (child.constructor.$gtype.name === 'StLabel' && child.text)
                texts.push(child.text);
            else
                walk(child);
        }
    };
    walk(card);
    return texts;
})()'''


# ---- The card ------------------------------------------------------------------------------------
def card_root():
    """The card's menu item, found from a button only it has, while it shows."""
    app = shell_app()
    buttons = find_all(app, lambda a: role(a) == 'push button'
                       and a.name in ('Continue reading', 'Start reading') + FRENCH_FIRST_BUTTONS)
    node = buttons[0] if buttons else None
    while node is not None and role(node) != 'menu item':
        node = node.parent
    return node


def read_card(card):
    """Texts and buttons of the card, top to bottom, as AT-SPI has them."""
    shown = find_all(card, lambda a: role(a) in ('label', 'push button', 'level bar'))
    items = []
    for accessible in shown:
        try:
            kind = role(accessible)
            if kind == 'push button':
                items.append(('button', accessible.name, accessible))
            elif kind == 'level bar':
                value = accessible.queryValue().currentValue
                items.append(('level bar', f'{accessible.name} ({value:.2f})', accessible))
            # Not a button's own label, nor the menu item's ornament (an empty label every item has).
            elif role(accessible.parent) != 'push button' and accessible.name:
                items.append(('label', accessible.name, accessible))
        except GONE:  # gone since the walk: no longer on the card
            continue
    return items


def open_card(panel):
    click(panel)
    card = wait_until('the card to open', card_root)
    return card


def close_card():
    press_escape()
    wait_until('the card to close', lambda: card_root() is None)


def expect_card(card, expected, what):
    items = [(kind, text) for kind, text, _ in read_card(card)]
    say(f'{what}: ' + ' | '.join(f'{kind} "{text}"' for kind, text in items))
    if items != expected:
        fail(f'{what}: expected {expected}, AT-SPI reads {items}')


def press(card, label):
    buttons = [a for kind, text, a in read_card(card) if kind == 'button' and text == label]
    if not buttons:
        fail(f'no button "{label}" on the card')
    before = len(open_requests)
    click(buttons[0])
    return before


def expect_open(before, expected, what):
    opened = wait_until(f'OpenRequested after {what}', lambda: open_requests[before:])
    say(f'{what} -> OpenRequested{opened[0]}')
    if opened[0] != expected:
        fail(f'{what} opened {opened[0]}, expected {expected}')


def browser_runs():
    """What the service started as the browser (the recorder the session names in
    DBMULTIVERSE_BROWSER): one line per run, the URL and the activation token it was given."""
    try:
        with open(os.environ['CARD_CHECK_BROWSER_LOG'], encoding='utf-8') as log:
            return log.read().splitlines()
    except FileNotFoundError:
        return []


def expect_browser(before, url, what):
    run = wait_until(f'the browser to be started after {what}', lambda: browser_runs()[before:])[0]
    say(f'{what} -> browser: {run}')
    fields = dict(field.split('=', 1) for field in run.split(' '))
    if fields.get('url') != url:
        fail(f'{what} opened {fields.get("url")}, expected {url}')
    if not fields.get('token'):
        fail(f'{what}: the browser got no activation token (XDG_ACTIVATION_TOKEN)')


def shell_log_problems(start=0):
    with open(SHELL_LOG, encoding='utf-8', errors='replace') as log:
        log.seek(start)
        text = log.read()
    markers = ('JS ERROR', 'JS WARNING', 'Gjs-CRITICAL', 'Gjs-WARNING', 'dbmultiverse', 'DBMultiverse')
    return [line for line in text.splitlines() if any(marker in line for marker in markers)]


# ==================================================================================================
def main():
    data = os.environ['DBMULTIVERSE_DATA_DIR']
    work = os.environ['CARD_CHECK_WORK']

    # 1. The extension just enabled: its proxy activated the service, which has read nothing yet.
    expected = reference_small()
    button, label = wait_for_panel(expected, 'the placeholder, as `dbmultiverse entry --family small` prints it', 20)
    say(f'top bar: "{label.name}" (dbmultiverse entry --family small: "{expected}")')
    close_overview()
    wait_until('the screen-sharing indicator to go', sharing_indicator_hidden, 10)

    # 2. The placeholder's card: its view, one button, Start reading.
    card = open_card(button)
    expect_card(card, reference_view(), 'placeholder card')
    wait_until('the screen-sharing indicator to go', sharing_indicator_hidden, 10)
    screenshot('placeholder.png')
    close_card()

    # 3. A chapter change shows within 1 s of its reload: the reader 5 points short of PROGRESS.
    start = PROGRESS - 5
    measure_change('chapter change', ['update', '--chapter', str(CHAPTER), '--name', NAME, '--progress', str(start),
                                      '--cover', os.path.join(work, 'cover.png'), '--page', str(PAGE)],
                   f'Ch. {CHAPTER} \u00b7 {start}%')
    if reference_small() != f'Ch. {CHAPTER} \u00b7 {start}%':
        fail(f'the CLI renders "{reference_small()}"')

    # 4. New pages: the chapter list a sync stored (the session's set-up wrote it) says the comic is
    # NEW_PAGES pages past the reader's, the chapter still going on.
    drain()
    signals_before, changes_before = len(entry_signals), len(label_changes)
    os.rename(os.path.join(work, 'chapters-en.json'), os.path.join(data, 'chapters-en.json'))
    wait_until('the reload for the new pages', lambda: len(entry_signals) > signals_before)
    expected = reference_small()
    if expected != f'Ch. {CHAPTER} \u00b7 {start}% \u00b7 {NEW_PAGES} new':
        fail(f'the CLI renders "{expected}" with {NEW_PAGES} new pages')
    shown = wait_until(f'the top bar to read "{expected}"',
                       lambda: next((t for t, text in label_changes[changes_before:] if text == expected), None))
    say(f'new pages: "{expected}" shown {(shown - entry_signals[-1][0]) * 1000:.0f} ms after the PropertiesChanged signal')

    # 5. Progress: 2 points more (under 5, held back by the sync rules), then 5 inside the same 2 s
    # debounce: one reload, at PROGRESS, shown within 1 s of it; the held-back step never shows.
    held = start + 2
    dbmultiverse('progress', str(held))
    expected = f'Ch. {CHAPTER} \u00b7 {PROGRESS}% \u00b7 {NEW_PAGES} new'
    changes = measure_change('progress change', ['progress', str(PROGRESS)], expected)
    if any(f'{held}%' in text for _, text in changes):
        fail(f'the top bar showed the held-back progress {held}')
    if reference_small() != expected:
        fail(f'the CLI renders "{reference_small()}"')
    wait_until('the screen-sharing indicator to go', sharing_indicator_hidden, 10)
    screenshot('panel.png', (0, 0, 1280, 32))

    # 6. The card: cover, chapter, name, progress, new pages, the four buttons: the view, exactly.
    card = open_card(button)
    expect_card(card, reference_view(), 'the view')
    expect_card(card, [
        ('label', f'Chapter {CHAPTER}'), ('label', NAME), ('level bar', f'{PROGRESS}% read ({PROGRESS / 100:.2f})'),
        ('label', f'{PROGRESS}% read'), ('label', f'{NEW_PAGES} new pages'), ('button', 'Continue reading'),
        ('button', 'Next chapter'), ('button', 'Read new pages'), ('button', 'Chapter list')], 'card')
    wait_until('the screen-sharing indicator to go', sharing_indicator_hidden, 10)
    screenshot('card.png')

    # 7. Each button through the service: Continue reading opens the entry's deep link (the page
    # being read, as the service opens the chapter), Next chapter the one after it (its chapter list:
    # the service knows no page of it), Read new pages the first unread page.
    runs = len(browser_runs())
    expect_open(press(card, 'Continue reading'), (CHAPTER, f'dbmultiverse://chapter/{CHAPTER}'), 'Continue reading')
    expect_browser(runs, f'{SITE}/en/page-{PAGE}.html', 'Continue reading')
    wait_until('the card to close after a button', lambda: card_root() is None)
    for label, opened, url in [
            ('Next chapter', (CHAPTER + 1, f'dbmultiverse://chapter/{CHAPTER + 1}'), f'{SITE}/en/chapters.html?comic=page&chaptersmode=1'),
            ('Read new pages', (CHAPTER, f'dbmultiverse://page/{PAGE + 1}'), f'{SITE}/en/page-{PAGE + 1}.html'),
            ('Chapter list', None, f'{SITE}/en/chapters.html?comic=page&chaptersmode=1')]:
        card = open_card(button)
        runs = len(browser_runs())
        before = press(card, label)
        if opened:
            expect_open(before, opened, label)
        expect_browser(runs, url, label)
        wait_until(f'the card to close after {label}', lambda: card_root() is None)

    # 7b. The other states of the view: a special (universe 3, chapter 2: its page link, no next
    # chapter) and the last published chapter, caught up (no next chapter, nothing new).
    for what, change in [
            ('special', lambda: BUS.call_sync('com.nobadi.DBMultiverse', OBJECT_PATH, WIDGET, 'UpdatePage',
                                              GLib.Variant('(isisiaya{sv})', (PAGE - 20, 'en', 2, 'The Special Begins', 35, [],
                                                                              {'universe': GLib.Variant('i', 3)})),
                                              None, 0, 5000, None)),
            ('last chapter', lambda: dbmultiverse('update', '--page', str(PAGE + NEW_PAGES)))]:
        drain()
        signals_before = len(entry_signals)
        change()
        wait_until(f'the reload for the {what}', lambda: len(entry_signals) > signals_before)
        card = open_card(button)
        view = reference_view()
        wait_until('the screen-sharing indicator to go', sharing_indicator_hidden, 10)
        wait_until(f'the card to show the {what}', lambda: [(k, t) for k, t, _ in read_card(card)] == view)
        expect_card(card, view, what)
        screenshot(f'card-{what.replace(" ", "-")}.png')
        close_card()

    # 8. The service gone: the placeholder. Start reading then opens chapter 1 through the
    # service, which the call starts again (bus activation): the entry shows again.
    owner = BUS.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
                          'GetConnectionUnixProcessID', GLib.Variant('(s)', ('com.nobadi.DBMultiverse',)),
                          None, 0, 5000, None).unpack()[0]
    os.kill(owner, 15)
    wait_for_panel('Read Multiverse Reader', 'the placeholder while no service answers')
    say(f'service {owner} stopped: top bar "Read Multiverse Reader"')
    wait_until('the screen-sharing indicator to go', sharing_indicator_hidden, 10)
    screenshot('panel-no-service.png', (0, 0, 1280, 32))
    card = open_card(button)
    expect_card(card, [('label', 'Read Multiverse Reader'), ('label', 'A Really Strange Tournament!'),
                       ('button', 'Start reading')], 'card with no service')
    runs = len(browser_runs())
    expect_open(press(card, 'Start reading'), (1, 'dbmultiverse://chapter/1'), 'Start reading')
    expect_browser(runs, f'{SITE}/en/chapters.html?comic=page&chaptersmode=1', 'Start reading')
    expected = reference_small()
    wait_for_panel(expected, 'the entry once the service is back')
    say(f'service back: top bar "{expected}"')

    # 9. Off and on again, as GNOME does to every user extension at each lock and unlock: gone, then
    # the top bar and the card show the current entry as soon as the extension is back (read from
    # the service at once, no reload: BACK_WITHIN),
    # and nothing in the shell's log. First `gnome-extensions disable` and `enable`; then the lock
    # screen's own switch, the session mode (unlock-dialog: user extensions off, and back). The
    # headless shell has no lock screen to show: it makes one only with GDM on the system bus
    # (LoginManager.canLock()); the mode is switched as the lock screen switches it (pushMode when
    # it locks, popMode when it unlocks), through org.gnome.Shell.Eval.
    log_start = os.path.getsize(SHELL_LOG)
    for how, off, on in [
            ('disable -> enable', lambda: subprocess.run(['gnome-extensions', 'disable', UUID], check=True, timeout=30),
             lambda: subprocess.run(['gnome-extensions', 'enable', UUID], check=True, timeout=30)),
            ('lock -> unlock', lambda: shell_eval("Main.sessionMode.pushMode('unlock-dialog')"),
             lambda: shell_eval("Main.sessionMode.popMode('unlock-dialog')"))]:
        off()
        wait_until(f'the button to leave the top bar ({how})', lambda: panel_button() is None)
        drain()
        reloads_before = len(reloads)
        on()
        started = time.monotonic()
        # Timed as the shell has it (reading AT-SPI's whole tree takes seconds of its own), then
        # read as a screen reader reads it.
        wait_until(f'the top bar to read "{expected}" after {how}', lambda: shell_eval(PANEL_TEXT) == expected, 10)
        elapsed = time.monotonic() - started
        drawn = shell_eval(CARD_TEXTS)
        button, label = wait_for_panel(expected, f'after {how}')
        say(f'{how}: top bar "{label.name}" {elapsed * 1000:.0f} ms after the extension came back; the card: '
            + ' | '.join(drawn))
        if elapsed > BACK_WITHIN:
            fail(f'{how}: the top bar took {elapsed:.3f} s to show the entry, more than {BACK_WITHIN} s')
        drain()
        if len(reloads) != reloads_before:
            fail(f'{how}: the service reloaded ({", ".join(reloads[reloads_before:])}) while the extension came back: '
                 'the entry shown may be the reload\'s, not the one read at once')
        view = [text for kind, text in reference_view() if kind != 'level bar']
        if drawn != view:
            fail(f'{how}: the card holds {drawn}, the view is {view}')
        card = open_card(button)
        expect_card(card, reference_view(), f'{how}: the card')
        close_card()
    problems = shell_log_problems(log_start)
    if problems:
        fail('the shell logged, across disable and enable, lock and unlock:\n' + '\n'.join(problems))
    problems = shell_log_problems()
    if problems:
        fail("the shell's log has:\n" + '\n'.join(problems))
    say('the shell logged nothing about the extension')
    say('PASS')


def close_overview():
    """gnome-shell starts in the overview: Escape leaves it, as a user would (the screenshots then
    show the desktop). The top bar's Activities toggle is checked while the overview shows: on 43
    a toggle button with an Activities label in it, on 48 one with neither name nor label (the
    workspace dots), the top bar's first toggle either way."""
    def activities_checked():
        toggles = find_all(shell_app(), lambda a: role(a) == 'toggle button'
                           and (a.name in ('', 'Activities', 'Activités')
                                or any(child is not None and child.name in ('Activities', 'Activités') for child in a)))
        toggles = [a for a in toggles if a.queryComponent().getExtents(pyatspi.DESKTOP_COORDS).y == 0]
        return bool(toggles) and toggles[0].getState().contains(pyatspi.STATE_CHECKED)
    wait_until('the overview to show (Activities checked)', activities_checked)
    press_escape()
    wait_until('the overview to close (Activities not checked)', lambda: not activities_checked())
    say('overview closed')


# ---- The card in a French session (gnome-shell-check.sh --french) ----------------------------------
# The first button of the card in French (po/fr.po): what card_root finds the card by.
FRENCH_FIRST_BUTTONS = ('Reprendre la lecture', 'Commencer la lecture')


def french_main():
    """The same card under LANG=fr_FR.UTF-8: the view the service publishes reads French (the
    service translates it), and the extension's own placeholder, with no service, too (its
    catalogue, locale/fr/LC_MESSAGES/dbmultiverse.mo in the extension)."""
    work = os.environ['CARD_CHECK_WORK']
    placeholder = [('label', 'Lire avec Multiverse Reader'), ('label', 'A Really Strange Tournament!'),
                   ('button', 'Commencer la lecture')]
    button, label = wait_for_panel('Lire avec Multiverse Reader', 'the placeholder in French', 20)
    say(f'top bar: "{label.name}"')
    close_overview()
    wait_until('the screen-sharing indicator to go', sharing_indicator_hidden, 10)
    card = open_card(button)
    expect_card(card, placeholder, 'placeholder card')
    close_card()

    # The chapter's name as the French site has it (names are the site's, never translated here).
    name = 'Goku et Vegeta s’unissent\u00a0!'
    dbmultiverse('update', '--chapter', str(CHAPTER), '--name', name, '--progress', str(PROGRESS),
                 '--cover', os.path.join(work, 'cover.png'), '--page', str(PAGE))
    expected = f'Chap. {CHAPTER} \u00b7 {PROGRESS}\u00a0%'
    if reference_small() != expected:
        fail(f'the CLI renders "{reference_small()}", not "{expected}"')
    wait_for_panel(expected, 'the chapter in French')
    say(f'top bar: "{expected}"')
    card = open_card(button)
    expect_card(card, reference_view(), 'the view')
    expect_card(card, [
        ('label', f'Chapitre {CHAPTER}'), ('label', name), ('level bar', f'lu à {PROGRESS}\u00a0% ({PROGRESS / 100:.2f})'),
        ('label', f'lu à {PROGRESS}\u00a0%'), ('button', 'Reprendre la lecture'), ('button', 'Liste des chapitres')], 'card')
    wait_until('the screen-sharing indicator to go', sharing_indicator_hidden, 10)
    screenshot('card-fr.png')
    close_card()

    owner = BUS.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
                          'GetConnectionUnixProcessID', GLib.Variant('(s)', ('com.nobadi.DBMultiverse',)),
                          None, 0, 5000, None).unpack()[0]
    os.kill(owner, 15)
    wait_for_panel('Lire avec Multiverse Reader', "the extension's own placeholder while no service answers")
    card = open_card(button)
    expect_card(card, placeholder, 'card with no service')
    close_card()
    problems = shell_log_problems()
    if problems:
        fail("the shell's log has:\n" + '\n'.join(problems))
    say('the shell logged nothing about the extension')
    say('PASS')


if __name__ == '__main__':
    french_main() if os.environ.get('CARD_CHECK_MODE') == 'french' else main()
