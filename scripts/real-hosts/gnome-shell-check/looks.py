#!/usr/bin/python3
"""The card in the looks its readers use, measured in one real gnome-shell session.

Run by scripts/real-hosts/gnome-shell-check.sh --looks inside the private session it starts: the shell
started at scale 2 (org.gnome.desktop.interface scaling-factor 2) on a 2560×1600 virtual monitor,
the extension enabled, the reader of scripts/lib/demo-story.sh in DEMO_* variables and its cover in
the session's folder (CARD_CHECK_WORK). Each look is set live (the display's scale through
org.gnome.Mutter.DisplayConfig, as Settings sets it; the rest through GSettings or the CLI), then
the card is opened and measured through org.gnome.Shell.Eval (the unsafe-mode helper allows it):
  - every actor of the card lies inside the card's allocation;
  - the cover is COVER_HEIGHT logical pixels high and its texture has its device pixels (its
    allocation × the resource scale): drawn for the display's scale, neither blurred nor squashed;
  - no text is clipped (each label's layout fits its allocation, none is ellipsized) and a
    right-to-left name is aligned to the right;
  - the card's colours are the theme's: in a screenshot of the card and one of the shell's own
    calendar, both in the same look, the progress bar's fill is the colour of the calendar's
    today (the theme's accent, GNOME 47+'s accent-color) and the card's background the calendar
    menu's.
Usage: looks.py DBMULTIVERSE SHELL_LOG SCREENSHOT_DIR. Prints `look: NAME: ok (what it measured)`
per look and PASS; exits 1 at the first check that fails (FAIL: why), with the screenshots kept.
"""
import json
import os
import subprocess

from gi.repository import GLib

import card_check as check
from card_check import BUS, fail, say, shell_eval, wait_until

UUID = check.UUID
# The card's cover height in logical pixels (card.js's COVER_HEIGHT).
COVER_HEIGHT = 112
# A 120-character name and an Arabic one (scripts/lib/demo-story.sh: the site's names can be either).
LONG_NAME, ARABIC_NAME = os.environ['DEMO_LONG_NAME'], os.environ['DEMO_ARABIC_NAME']
# Two colours the same to the eye (each channel within this), as two screenshots of one theme give.
SAME_COLOUR = 6

# The card as the shell has it: the allocation of each visible actor in stage coordinates, each
# label's layout (its lines, where the layout put them, whether it ellipsized), the cover's
# texture, the scales (the theme's scale factor, the card's resource scale).
MEASURE = r'''(() => {
    const St = imports.gi.St;
    const indicator = Main.panel.statusArea['dbmultiverse@nobadi.com'];
    const card = indicator.menu.box.get_children().find(a => a.has_style_class_name?.('dbmultiverse-card'));
    const box = actor => {
        const [x, y] = actor.get_transformed_position();
        const [width, height] = actor.get_transformed_size();
        return [x, y, width, height];
    };
    const result = {stageWidth: global.stage.width, scaleFactor: St.ThemeContext.get_for_stage(global.stage).scale_factor,
        resourceScale: card.get_resource_scale(), card: box(card), menu: box(indicator.menu.box), actors: []};
    const walk = actor => {
        for (const child of actor.get_children()) {
            if (!child.visible)
                continue;
            const found = {type: child.constructor.$gtype.name, style: child.style_class ?? '', box: box(child)};
            if (child instanceof imports.gi.Clutter.Text) {
                // The layout is made at the resource scale (2 on a scale-2 monitor when the stage is
                // in logical pixels, GNOME 51's default): its units are that many per stage pixel.
                const layout = child.get_layout();
                const scale = child.get_resource_scale();
                const [offsetX, offsetY] = child.get_layout_offsets();
                const [x, y] = child.get_transformed_position();
                const [, logical] = layout.get_pixel_extents();
                found.text = child.text;
                found.ellipsized = layout.is_ellipsized();
                found.layout = [x + offsetX + logical.x / scale, y + offsetY + logical.y / scale, logical.width / scale, logical.height / scale];
                found.lines = [];
                const lines = layout.get_iter();
                do {
                    const [, line] = lines.get_line_extents();
                    found.lines.push([x + offsetX + line.x / 1024 / scale, line.width / 1024 / scale]);
                } while (lines.next_line());
            }
            const texture = child.get_content?.()?.get_texture?.();
            if (texture)
                found.texture = [texture.get_width(), texture.get_height()];
            result.actors.push(found);
            walk(child);
        }
    };
    walk(card);
    return result;
})()'''

# The shell's calendar (the date menu): its menu and the button of today.
CALENDAR = r'''(() => {
    const menu = Main.panel.statusArea.dateMenu.menu;
    const box = actor => {
        const [x, y] = actor.get_transformed_position();
        const [width, height] = actor.get_transformed_size();
        return [x, y, width, height];
    };
    let today = null;
    const walk = actor => {
        for (const child of actor.get_children()) {
            if (child.visible && child.has_style_class_name?.('calendar-today'))
                today = box(child);
            walk(child);
        }
    };
    walk(menu.box);
    return {stageWidth: global.stage.width, menu: box(menu.box), today};
})()'''


def gsettings(schema, key, value):
    subprocess.run(['gsettings', 'set', schema, key, value], check=True, timeout=30)


def has_key(schema, key):
    return subprocess.run(['gsettings', 'range', schema, key], capture_output=True, timeout=30).returncode == 0


# ---- The display's scale, as Settings changes it: org.gnome.Mutter.DisplayConfig -------------------
DISPLAY_CONFIG = ('org.gnome.Mutter.DisplayConfig', '/org/gnome/Mutter/DisplayConfig', 'org.gnome.Mutter.DisplayConfig')


def display_scale():
    logical = BUS.call_sync(*DISPLAY_CONFIG, 'GetCurrentState', None, None, 0, 10000, None).unpack()[2]
    return logical[0][2]


def set_display_scale(scale):
    """The virtual monitor's current mode at `scale`, applied at once (method 1: temporary, as
    Settings applies a change before asking to keep it)."""
    serial, monitors, _logical, _properties = BUS.call_sync(*DISPLAY_CONFIG, 'GetCurrentState', None, None, 0, 10000, None).unpack()
    (connector, _vendor, _product, _serial), modes, _monitor_properties = monitors[0]
    mode = next(mode for mode in modes if mode[6].get('is-current'))
    if not any(abs(supported - scale) < 0.01 for supported in mode[5]):
        fail(f'the virtual monitor ({mode[0]}) does not offer scale {scale}: {mode[5]}')
    BUS.call_sync(*DISPLAY_CONFIG, 'ApplyMonitorsConfig',
                  GLib.Variant('(uua(iiduba(ssa{sv}))a{sv})', (serial, 1, [(0, 0, float(scale), 0, True, [(connector, mode[0], {})])], {})),
                  None, 0, 10000, None)
    wait_until(f'the display at scale {scale}', lambda: abs(display_scale() - scale) < 0.01)


# ---- The card, open and read --------------------------------------------------------------------------
def drawn(what, code, shot, ready=lambda value: True):
    """A screenshot named `shot` with the reading of `code` that matches it: read, screenshot (the
    shell draws a frame for it, laying out what it must: a menu just opened, or after a change of
    scale or theme, moves at its next frame), read again, until both readings agree, every actor
    has a position (one not laid out yet has none: NaN, JSON's null) and ready(reading) holds.
    Returns (reading, screenshot's path)."""
    def attempt():
        before = shell_eval(code)
        path = check.screenshot(shot)
        after = shell_eval(code)
        return (after, path) if before == after and 'null' not in json.dumps(after) and ready(after) else None
    return wait_until(f'{what}, laid out and drawn', attempt)


def open_card(view, shot):
    """Opens the card (as a click on the top bar's button does) showing `view` (its title and name,
    its cover loaded): (its measure, the screenshot)."""
    shell_eval(f"Main.panel.statusArea['{UUID}'].menu.open(false)")

    def shows(measure):
        texts = [actor.get('text') for actor in measure['actors']]
        loaded = not view['image-path'] or any('texture' in actor for actor in measure['actors'])
        return view['title'] in texts and view['name'] in texts and loaded
    return drawn('the card to show the entry with its cover', MEASURE, shot, shows)


def close_menus():
    shell_eval(f"Main.panel.statusArea['{UUID}'].menu.close(false); Main.panel.statusArea.dateMenu.menu.close(false)")


def inside(inner, outer, slack=0.5):
    x, y, width, height = inner
    ox, oy, owidth, oheight = outer
    return x >= ox - slack and y >= oy - slack and x + width <= ox + owidth + slack and y + height <= oy + oheight + slack


def cover_of(measure):
    return next((actor for actor in measure['actors'] if 'texture' in actor), None)


def check_card(look, measure, view):
    """What every look must hold; returns what it measured, for the look's line."""
    card = measure['card']
    for actor in measure['actors']:
        if not inside(actor['box'], card):
            fail(f'{look}: {actor["type"]} "{actor.get("text", actor["style"])}" at {actor["box"]} lies outside the card {card}')
    device_scale = measure['scaleFactor'] * measure['resourceScale']
    notes = [f'scale {device_scale:g} (theme {measure["scaleFactor"]}, resource {measure["resourceScale"]:g})']
    if view['image-path']:
        cover = cover_of(measure)
        _x, _y, width, height = cover['box']
        logical_height = height / measure['scaleFactor']
        expected = [round(width * measure['resourceScale']), round(height * measure['resourceScale'])]
        if abs(logical_height - COVER_HEIGHT) > 1:
            fail(f'{look}: the cover is {logical_height:g} logical pixels high, not {COVER_HEIGHT} (allocation {cover["box"]}, theme scale {measure["scaleFactor"]})')
        if any(abs(a - b) > 1 for a, b in zip(cover['texture'], expected)):
            fail(f'{look}: the cover\'s texture is {cover["texture"][0]}×{cover["texture"][1]}, its device pixels {expected[0]}×{expected[1]} (allocation {cover["box"]} × resource scale {measure["resourceScale"]:g})')
        notes.append(f'cover texture {cover["texture"][0]}×{cover["texture"][1]} = its device pixels')
    for actor in measure['actors']:
        if 'text' not in actor or not actor['text']:
            continue
        if actor['ellipsized']:
            fail(f'{look}: "{actor["text"]}" is ellipsized')
        if not inside(actor['layout'], actor['box'], 1):
            fail(f'{look}: "{actor["text"]}" is clipped: its text {actor["layout"]} does not fit its allocation {actor["box"]}')
    notes.append(f'{len(measure["actors"])} actors inside the card, no text clipped')
    return notes


def name_of(measure, view):
    return next(actor for actor in measure['actors'] if actor.get('text') == view['name'])


# ---- Colours, from screenshots: the card's beside the shell's own calendar's ------------------------
def colour(path, stage_width, area, part='all'):
    """The most frequent colour of a screenshot's area (x, y, width, height in stage coordinates,
    which are logical pixels when the shell draws its monitors scaled: GNOME 51's default), as
    (r, g, b): of all of it, of the line through its middle (part='line'), or of the square at
    its centre, 0.7 of its smaller side, without the text's white (part='centre': the inside of a
    round button).
    """
    with open(path, 'rb') as png:
        pixels_per_unit = int.from_bytes(png.read(24)[16:20], 'big') / stage_width
    x, y, width, height = (round(value * pixels_per_unit) for value in area)
    if part == 'line':
        y, height = y + height // 2, 1
    elif part == 'centre':
        side = round(min(width, height) * 0.7)
        x, y, width, height = x + (width - side) // 2, y + (height - side) // 2, side, side
    histogram = subprocess.run(['convert', path, '-crop', f'{width}x{height}+{x}+{y}', '+repage', '-format', '%c', 'histogram:info:-'],
                               capture_output=True, text=True, timeout=30, check=True).stdout
    counted = []
    for line in histogram.splitlines():
        if ':' not in line:
            continue
        rgb = tuple(int(float(part)) for part in line.split('(')[1].split(')')[0].split(',')[:3])
        if part == 'centre' and min(rgb) > 230:
            continue
        counted.append((int(line.split(':')[0]), rgb))
    return max(counted)[1]


def same(a, b):
    return all(abs(x - y) <= SAME_COLOUR for x, y in zip(a, b))


def hex_of(rgb):
    return '#%02x%02x%02x' % rgb


def compare_colours(look, measure, card_path, shot):
    """The card's colours against the calendar's, each in a screenshot of the same look: the
    progress bar's fill (the left of its middle line) against today's button, the card's
    background against the calendar menu's. Returns (fill, background)."""
    bar = next(actor for actor in measure['actors'] if 'dbmultiverse-progress' in actor['style'])
    x, y, width, height = bar['box']
    fill = colour(card_path, measure['stageWidth'], (x + 2, y, width * 0.3, height), 'line')
    background = colour(card_path, measure['stageWidth'], measure['card'])
    close_menus()
    shell_eval('Main.panel.statusArea.dateMenu.menu.open(false)')
    calendar, calendar_path = drawn('the calendar to show today', CALENDAR, shot.replace('.png', '-calendar.png'),
                                    lambda calendar: calendar['today'] is not None)
    today = colour(calendar_path, calendar['stageWidth'], calendar['today'], 'centre')
    calendar_background = colour(calendar_path, calendar['stageWidth'], calendar['menu'])
    close_menus()
    if not same(fill, today):
        fail(f"{look}: the progress bar is {hex_of(fill)}, the calendar's today {hex_of(today)}: not the theme's accent")
    if not same(background, calendar_background):
        fail(f"{look}: the card's background is {hex_of(background)}, the calendar's {hex_of(calendar_background)}")
    return fill, background


def luminance(rgb):
    return (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255


# ==================================================================================================
# The looks, named as every desktop's check names them (ReleaseCardTests reads `look: NAME: ok`).
def main():
    work = os.environ['CARD_CHECK_WORK']
    major = int(subprocess.run(['gnome-shell', '--version'], capture_output=True, text=True, timeout=30).stdout.split()[-1].split('.')[0])
    check.wait_for_panel(check.reference_small(), 'the placeholder', 30)
    check.close_overview()

    # The reader of demo-story.sh, with its cover and the chapter list (3 new pages, four buttons).
    os.rename(os.path.join(work, 'chapters-en.json'), os.path.join(os.environ['DBMULTIVERSE_DATA_DIR'], 'chapters-en.json'))

    def read(name):
        check.dbmultiverse('update', '--chapter', str(check.CHAPTER), '--name', name, '--progress', str(check.PROGRESS),
                           '--cover', os.path.join(work, 'cover.png'), '--page', str(check.PAGE))
        entry = json.loads(check.dbmultiverse('entry', '--format', 'json'))
        if entry['name'] != name:
            fail(f'the service stored the name "{entry["name"]}", not "{name}"')
        return entry
    view = read(check.NAME)
    check.wait_for_panel(view['panel-text'], 'the reader')

    def measured(what, shot, extra=None):
        """The card opened in the current look, measured: what it measured, and (the measure, the
        progress bar's colour, the background's)."""
        measure, path = open_card(view, shot)
        notes = check_card(what, measure, view)
        fill, background = compare_colours(what, measure, path, shot)
        notes.append(f'progress {hex_of(fill)} = calendar today, background {hex_of(background)} = calendar')
        if extra:
            notes += extra(measure, fill, background)
        return notes, (measure, fill, background)

    def look(name, *parts):
        say(f'look: {name}: ok ({" / ".join("; ".join(part) for part in parts)})')

    def at_scale(scale):
        def drawn_at(measure, *_):
            device_scale = measure['scaleFactor'] * measure['resourceScale']
            return [] if device_scale == scale else fail(f'scale {scale}: the card is drawn at scale {device_scale:g}')
        return drawn_at

    def light(light_wanted):
        def lightness(_measure, _fill, background):
            if (luminance(background) > 0.6) != light_wanted:
                fail(f'the card\'s background {hex_of(background)} is not {"light" if light_wanted else "dark"}')
            return [f'{"light" if light_wanted else "dark"} ({luminance(background):.2f})']
        return lightness

    # Scale 2 from the start: the shell started so (scaling-factor 2).
    if abs(display_scale() - 2) > 0.01:
        fail(f'the shell started at scale {display_scale()}, not 2')
    look('scale 2 at start', measured('scale 2 at start', 'looks-scale-2.png', at_scale(2))[0])

    # The other looks at scale 1: a live change 2 → 1, the cover made again for it.
    set_display_scale(1)
    notes, (default, default_fill, _) = measured('default', 'looks-default.png', at_scale(1))
    look('default', ['scale 2 → 1 live'] + notes)

    # The other colour scheme: GNOME 47+'s shell follows color-scheme. GNOME 43's shell theme has
    # one colour scheme (dark, whatever color-scheme says): its other look is high contrast.
    if major >= 47:
        parts = []
        for scheme, wanted in [('prefer-light', True), ('prefer-dark', False)]:
            gsettings('org.gnome.desktop.interface', 'color-scheme', scheme)
            parts.append([scheme] + measured(scheme, f'looks-{scheme}.png', light(wanted))[0])
        look('the other colour scheme', *parts)
    else:
        gsettings('org.gnome.desktop.a11y.interface', 'high-contrast', 'true')
        high_contrast = measured('high contrast', 'looks-high-contrast.png')[0]
        gsettings('org.gnome.desktop.a11y.interface', 'high-contrast', 'false')
        gsettings('org.gnome.desktop.interface', 'color-scheme', 'prefer-light')
        unchanged = measured('prefer-light', 'looks-prefer-light.png', light(False))[0]
        look('the other colour scheme', [f'GNOME {major}\'s shell theme has one colour scheme: its other look, high contrast'] + high_contrast,
             ['prefer-light leaves the shell, and the card, dark'] + unchanged)
    gsettings('org.gnome.desktop.interface', 'color-scheme', 'default')

    # An accent colour (GNOME 47+): the progress bar follows it, as the calendar's today does.
    if has_key('org.gnome.desktop.interface', 'accent-color'):
        gsettings('org.gnome.desktop.interface', 'accent-color', 'green')

        def green(_measure, fill, _background):
            if not (fill[1] > fill[0] and fill[1] > fill[2]) or same(fill, default_fill):
                fail(f'accent green: the progress bar is {hex_of(fill)}')
            return [f'green, not the default {hex_of(default_fill)}']
        look('an accent colour', ['accent-color green'] + measured('accent green', 'looks-accent.png', green)[0])
        gsettings('org.gnome.desktop.interface', 'accent-color', 'blue')
    else:
        look('an accent colour', [f'GNOME {major} has no accent-color setting: the theme\'s accent {hex_of(default_fill)}, '
                                  'the calendar\'s today, is the progress bar\'s in every look'])

    # Text scaled 1.5: larger, nothing clipped.
    default_title = next(actor for actor in default['actors'] if actor.get('text') == view['title'])

    def larger(measure, *_):
        title = next(actor for actor in measure['actors'] if actor.get('text') == view['title'])
        ratio = title['layout'][3] / default_title['layout'][3]
        return [f'title {ratio:.2f}× as high'] if ratio > 1.35 else fail(f'text ×1.5: the title is {ratio:.2f}× as high as in the default look')
    gsettings('org.gnome.desktop.interface', 'text-scaling-factor', '1.5')
    look('text scaled 1.5', measured('text scaled 1.5', 'looks-text-1.5.png', larger)[0])
    gsettings('org.gnome.desktop.interface', 'text-scaling-factor', '1.0')

    # A 120-character name: wrapped, whole, inside the card. An Arabic one: aligned to the right.
    def wrapped(measure, *_):
        lines = name_of(measure, view)['lines']
        return [f'{len(lines)} lines'] if len(lines) > 1 else fail('the name is on one line: not wrapped')

    def right_aligned(measure, *_):
        label = name_of(measure, view)
        x, _y, width, _height = label['box']
        ends = [round(start + length - (x + width), 1) for start, length in label['lines']]
        starts = [round(start - x, 1) for start, _length in label['lines']]
        if any(abs(end) > 1.5 for end in ends) or max(starts) < 10:
            fail(f'the Arabic name is not aligned to the right: its lines start {starts} and end {ends} px from its label\'s edges')
        return wrapped(measure) + [f'each line ends at the right edge (±{max(abs(end) for end in ends):g} px), starts {starts} px from the left']
    view = read(LONG_NAME)
    look('a 120-character name', measured('a 120-character name', 'looks-long-name.png', wrapped)[0])
    view = read(ARABIC_NAME)
    look('an Arabic name', measured('an Arabic name', 'looks-arabic-name.png', right_aligned)[0])

    # The display's scale changed live, 1 → 2, as Settings changes it: the cover is made again.
    view = read(check.NAME)
    open_card(view, 'looks-scale-1-before.png')
    close_menus()
    set_display_scale(2)
    look('scale 1 → 2', ['live'] + measured('scale 1 → 2', 'looks-scale-1-to-2.png', at_scale(2))[0])

    problems = check.shell_log_problems()
    if problems:
        fail("the shell's log has:\n" + '\n'.join(problems))
    say('the shell logged nothing about the extension')
    say('PASS')


if __name__ == '__main__':
    main()
