#!/usr/bin/python3
"""One look of the Plasma widget, measured as it is drawn: run by scripts/real-hosts/plasma-card-check.sh
--looks after it set the look, with the widget's viewer and a viewer of Plasma's own calendar
applet side by side on one X screen.

    looks.py LOOK SHOT CARD_PID CALENDAR_PID COVER ENTRY_JSON [CHECK...]

LOOK names the look (printed), SHOT is a screenshot of the X screen taken now, CARD_PID and
CALENDAR_PID the two plasmoidviewers, COVER the cover file the entry shows, ENTRY_JSON the entry as
`dbmultiverse entry --format json` prints it. What it measures:
  - the card's background (the applet's frame, as drawn: the region of its colour around the
    title) holds every text, button and the progress bar the view has (AT-SPI extents), and no
    two of them overlap;
  - the buttons are two to a row, an odd last one across the row;
  - the cover, found in the screenshot, is drawn from an image of its device pixels: it is closer
    to the cover scaled to its size than to the cover at half that size scaled up (a texture of
    too few pixels, blurred);
  - the card's colours are the theme's: its background is the calendar's, and its progress bar is
    of the hue of the calendar's highlight (today and its tab: the theme's highlight, Plasma's
    accent colour when one is set; the most saturated colour drawn on 20 pixels or more, in the
    calendar as in the bar, where Plasma draws shades of it).
CHECKs add: scale=N (the screen's device pixels per logical one, QT_SCALE_FACTOR), dark or light
(the background's lightness), accent=#rrggbb (the bar and the calendar's highlight of its hue),
rtl (the name's text sits at the right of its label: QML aligns a right-to-left text so),
larger=PX (the title is at least PX pixels high), lines=N (the name is at least N lines high).
Prints `look: LOOK: ok (what it measured)`, or FAIL: why, and exits 1.
"""
import colorsys
import json
import os
import subprocess
import sys
import tempfile

import gi
import pyatspi

gi.require_version('GdkPixbuf', '2.0')
from gi.repository import GdkPixbuf  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from atspi_tree import GONE, Unreadable, applications, descendants, role  # noqa: E402

SAME_COLOUR = 8


def fail(message):
    print(f'FAIL: {message}', flush=True)
    sys.exit(1)


def items_of(pid):
    """(role, name, its parent's role, extents) of each showing object of the application of pid,
    depth first; an object gone while read is left out (it is no longer shown)."""
    apps = applications(lambda app: app.get_process_id() == pid)
    if not apps:
        fail(f'no application of pid {pid} on the accessibility bus')
    try:
        nodes = list(descendants(apps[0]))
    except Unreadable as error:
        fail(f'the application of pid {pid} cannot be read: {error}')
    for node in nodes:
        try:
            parent = node.parent
            yield role(node), node.name, role(parent) if parent is not None else None, extents(node)
        except GONE:
            continue


# Device pixels per AT-SPI unit: Qt gives AT-SPI its logical pixels (QT_SCALE_FACTOR=2: half the
# screenshot's). Set from the scale=N check.
SCALE = 1


def extents(node):
    box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return tuple(round(value * SCALE) for value in (box.x, box.y, box.width, box.height))


class Picture:
    def __init__(self, path):
        self.pixbuf = GdkPixbuf.Pixbuf.new_from_file(path)
        self.width, self.height = self.pixbuf.get_width(), self.pixbuf.get_height()
        self.stride, self.channels = self.pixbuf.get_rowstride(), self.pixbuf.get_n_channels()
        self.pixels = self.pixbuf.get_pixels()

    def at(self, x, y):
        offset = y * self.stride + x * self.channels
        return tuple(self.pixels[offset:offset + 3])

    def region(self, seed, belongs):
        """The bounding box (x0, y0, x1, y1) of the 4-connected region of pixels, from `seed`,
        whose colour `belongs`."""
        seen, todo = {seed}, [seed]
        x0, y0, x1, y1 = seed[0], seed[1], seed[0], seed[1]
        while todo:
            x, y = todo.pop()
            x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if 0 <= nx < self.width and 0 <= ny < self.height and (nx, ny) not in seen and belongs(self.at(nx, ny)):
                    seen.add((nx, ny))
                    todo.append((nx, ny))
        return x0, y0, x1 + 1, y1 + 1

    def area(self, seed, tolerance=6):
        """The region of the seed's colour (within `tolerance`)."""
        colour = self.at(*seed)
        return self.region(seed, lambda other: all(abs(a - b) <= tolerance for a, b in zip(other, colour)))

    def counts(self, box):
        x0, y0, x1, y1 = box
        counted = {}
        for y in range(max(y0, 0), min(y1, self.height)):
            for x in range(max(x0, 0), min(x1, self.width)):
                colour = self.at(x, y)
                counted[colour] = counted.get(colour, 0) + 1
        return counted


def hex_of(rgb):
    return '#%02x%02x%02x' % rgb


def same(a, b):
    return all(abs(x - y) <= SAME_COLOUR for x, y in zip(a, b))


def lightness(rgb):
    return (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255


def saturation(rgb):
    return colorsys.rgb_to_hsv(*[value / 255 for value in rgb])[1]


def strongest(counted, at_least=20):
    """The most saturated colour (saturation over 0.3) drawn on at least `at_least` pixels: a
    widget's highlight, drawn pure where its tints and anti-aliased edges are less so."""
    strong = [(saturation(colour), colour) for colour, count in counted.items() if count >= at_least and saturation(colour) > 0.3]
    return max(strong)[1] if strong else None


def hue(rgb):
    return colorsys.rgb_to_hsv(*[value / 255 for value in rgb])[0] * 360


def same_hue(a, b, degrees=12):
    difference = abs(hue(a) - hue(b)) % 360
    return min(difference, 360 - difference) <= degrees


def inside(box, frame, slack=1):
    x, y, width, height = box
    x0, y0, x1, y1 = frame
    return x >= x0 - slack and y >= y0 - slack and x + width <= x1 + slack and y + height <= y1 + slack


def overlap(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def rmse(path, reference):
    run = subprocess.run(['compare', '-metric', 'RMSE', path, reference, 'null:'], capture_output=True, text=True, timeout=60)
    return float(run.stderr.split('(')[1].split(')')[0])


def cover_sharpness(shot, cover_file, box, work):
    """How close the cover drawn at `box` is to the cover scaled to that size, and to the cover at
    half that size scaled up: (sharp, blurred), root mean square errors."""
    x0, y0, x1, y1 = box
    width, height = x1 - x0, y1 - y0
    drawn, sharp, blurred = f'{work}-drawn.png', f'{work}-sharp.png', f'{work}-blurred.png'
    subprocess.run(['convert', shot, '-crop', f'{width}x{height}+{x0}+{y0}', '+repage', '-alpha', 'off', drawn], check=True, timeout=60)
    subprocess.run(['convert', cover_file, '-resize', f'{width}x{height}!', '-alpha', 'off', sharp], check=True, timeout=60)
    subprocess.run(['convert', cover_file, '-resize', f'{max(width // 2, 1)}x{max(height // 2, 1)}!', '-resize', f'{width}x{height}!',
                    '-alpha', 'off', blurred], check=True, timeout=60)
    return rmse(drawn, sharp), rmse(drawn, blurred)


def main(arguments):
    if len(arguments) < 6:
        print(__doc__, file=sys.stderr)
        return 2
    look, shot, card_pid, calendar_pid, cover_file, entry_json = arguments[:6]
    checks = [check for check in arguments[6:] if not check.startswith('scale=')]
    global SCALE
    SCALE = next((float(check[6:]) for check in arguments[6:] if check.startswith('scale=')), 1)
    entry = json.loads(entry_json)
    picture = Picture(shot)

    # The card's items as a screen reader finds them: the view's texts, buttons and progress bar.
    texts = [entry['title'], entry['name'], entry['progress-text'], entry['new-pages-text']]
    buttons = [action['label'] for action in entry['actions']]
    items, button_boxes, labels = [], [], {}
    for kind, name, parent, box in items_of(int(card_pid)):
        if kind == 'label' and name in texts and parent != 'push button':
            labels[name] = box
            items.append((f'label "{name}"', box))
        elif kind == 'push button' and name in buttons:
            button_boxes.append((name, box))
            items.append((f'button "{name}"', box))
        elif kind == 'progress bar' and name == entry['progress-text']:
            progress = box
            items.append((f'progress bar "{name}"', progress))
    shown = [text for text in texts if text] + buttons
    missing = [text for text in shown if text not in labels and text not in [name for name, _ in button_boxes]]
    if missing:
        fail(f'{look}: the card does not show {missing}')
    notes = []

    # The card's background as drawn: the region of the colour just left of the title.
    title = labels[entry['title']]
    seed = (title[0] - 3, title[1] + title[3] // 2)
    frame = picture.area(seed)
    background = picture.at(*seed)
    for what, box in items:
        if not inside(box, frame):
            fail(f'{look}: the {what} at {box} lies outside the card\'s background {frame}')
    for index, (what, box) in enumerate(items):
        for other, other_box in items[index + 1:]:
            if overlap(box, other_box):
                fail(f'{look}: the {what} at {box} overlaps the {other} at {other_box}')
    notes.append(f'{len(items)} texts, buttons and bar inside the card\'s background {frame[2] - frame[0]}×{frame[3] - frame[1]}, none overlapping')

    # Two to a row, an odd last one across the row.
    for index in range(0, len(button_boxes), 2):
        if index + 1 < len(button_boxes):
            (left, a), (right, b) = button_boxes[index], button_boxes[index + 1]
            if a[1] != b[1] or abs(a[2] - b[2]) > 1:
                fail(f'{look}: "{left}" {a} and "{right}" {b} are not a row of two of one width')
        elif len(button_boxes) > 1:
            name, box = button_boxes[index]
            row = button_boxes[0][1][2] + button_boxes[1][1][2]
            if box[2] < row:
                fail(f'{look}: the last button "{name}" {box} is alone on a row it does not fill')
    notes.append(f'{len(button_boxes)} buttons two to a row')

    # The cover: the picture left of the title (the first pixel, going left from the title, that is
    # not the background, and what is connected to it).
    if entry['image-path']:
        def ground(colour):
            return all(abs(a - b) <= 12 for a, b in zip(colour, background))
        x, y = seed
        while x > frame[0] and ground(picture.at(x, y)):
            x -= 1
        if x <= frame[0]:
            fail(f'{look}: no cover left of the title, on the line y={y}')
        cover = picture.region((x, y), lambda colour: not ground(colour))
        with tempfile.TemporaryDirectory() as scratch:
            sharp, blurred = cover_sharpness(shot, cover_file, cover, scratch + '/cover')
        if sharp >= blurred:
            fail(f'{look}: the cover ({cover[2] - cover[0]}×{cover[3] - cover[1]} px) is drawn blurred: it differs from the cover '
                 f'scaled to its size by {sharp:.3f}, from a half-size one scaled up by {blurred:.3f}')
        notes.append(f'cover {cover[2] - cover[0]}×{cover[3] - cover[1]} px, drawn sharp (error {sharp:.3f} against its size, {blurred:.3f} against half)')

    # Colours, against the calendar's in the same screenshot.
    # The calendar's background: the colour most of its labels have just left of them (the
    # viewer's own toolbar, at the bottom of the screen, left out).
    calendar_labels = [box for kind, name, _, box in items_of(int(calendar_pid))
                       if kind == 'label' and name and box[1] < picture.height * 0.9]
    seeds = [(box[0] - 3, box[1] + box[3] // 2) for box in calendar_labels if box[0] >= 3]
    if not seeds:
        fail(f'{look}: the calendar shows no label')
    votes = {}
    for point in seeds:
        votes[picture.at(*point)] = votes.get(picture.at(*point), 0) + 1
    calendar_background = max(votes, key=votes.get)
    calendar_frame = picture.area(next(point for point in seeds if picture.at(*point) == calendar_background))
    highlight = strongest(picture.counts(calendar_frame))
    x, y, width, height = progress
    # The fill: Breeze draws it as an outline of the highlight around the highlight mixed with the
    # background, the outline the most saturated of its colours.
    fill = strongest(picture.counts((x, y, x + max(int(width * entry['progress'] / 100), 1), y + height)))
    if not same(background, calendar_background):
        fail(f'{look}: the card\'s background is {hex_of(background)}, the calendar\'s {hex_of(calendar_background)}')
    # Plasma draws the highlight in shades (the bar's fill a tint of it, the selection a tint of the
    # accent colour): the same hue.
    if highlight is None or fill is None or not same_hue(fill, highlight):
        fail(f'{look}: the progress bar is {fill and hex_of(fill)}, the calendar\'s highlight {highlight and hex_of(highlight)}: not one hue')
    notes.append(f'background {hex_of(background)} as the calendar\'s, progress {hex_of(fill)} of the hue of its highlight {hex_of(highlight)}')

    for check in checks:
        name, _, value = check.partition('=')
        if name in ('dark', 'light'):
            if (lightness(background) > 0.5) != (name == 'light'):
                fail(f'{look}: the card\'s background {hex_of(background)} is not {name}')
            notes.append(f'{name} ({lightness(background):.2f})')
        elif name == 'accent':
            wanted = tuple(int(value[i:i + 2], 16) for i in (1, 3, 5))
            if not same_hue(fill, wanted) or not same_hue(highlight, wanted):
                fail(f'{look}: the progress bar is {hex_of(fill)} and the calendar\'s highlight {hex_of(highlight)}: not of the accent {value}\'s hue')
            notes.append(f'both of the accent {value}\'s hue ({hue(wanted):.0f}°)')
        elif name == 'rtl':
            label = labels[entry['name']]
            ink = [x for x in range(label[0], label[0] + label[2])
                   if any(not same(picture.at(x, y), background) for y in range(label[1], label[1] + label[3]))]
            left_gap, right_gap = ink[0] - label[0], label[0] + label[2] - 1 - ink[-1]
            if right_gap > 3 or left_gap < right_gap:
                fail(f'{look}: the right-to-left name is not at the right of its label: {left_gap} px free on the left, {right_gap} on the right')
            notes.append(f'the name at the right of its label ({right_gap} px from it, {left_gap} px on the left)')
        elif name == 'larger':
            if title[3] < float(value):
                fail(f'{look}: the title is {title[3]} px high, not larger than {value}')
            notes.append(f'title {title[3]} px high')
        elif name == 'lines':
            label = labels[entry['name']]
            if label[3] < int(value) * labels[entry['title']][3] * 0.8:
                fail(f'{look}: the name\'s label is {label[3]} px high: fewer than {value} lines')
            notes.append(f'the name on {value}+ lines, {label[3]} px')
        else:
            fail(f'unknown check {check}')
    print(f'look: {look}: ok ({"; ".join(notes)})', flush=True)
    return 0


sys.exit(main(sys.argv[1:]))
