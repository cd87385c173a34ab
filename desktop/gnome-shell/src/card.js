// The card, inside the indicator's menu: the cover, the entry's view (title, name, a progress bar
// with its progress-text, new-pages-text) and its actions as buttons (docs/gnome-shell.md). It
// draws what the service decided and decides nothing; every text is an St.Label and every action
// an St.Button with that text, so screen readers (and the tests, through AT-SPI) read the card as
// it is shown.
import Clutter from 'gi://Clutter';
import Gio from 'gi://Gio';
import Pango from 'gi://Pango';
import St from 'gi://St';

import {BarLevel} from 'resource:///org/gnome/shell/ui/barLevel.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';

const COVER_HEIGHT = 112;
const ICON_SIZE = 64;

function verticalBox(params) {
    const box = new St.BoxLayout(params);
    // St.BoxLayout's `vertical` is deprecated from GNOME 48 on, `orientation` new there: the
    // layout manager's orientation is the same switch on every version.
    box.layout_manager.orientation = Clutter.Orientation.VERTICAL;
    return box;
}

export class Card {
    // menu: the PopupMenu to fill; iconFile: the app icon (a Gio.File), shown when there is no
    // cover; onPress(action): a button was pressed, with its entry of the view's `actions`.
    constructor(menu, iconFile, onPress) {
        this._iconFile = iconFile;
        this._onPress = onPress;
        this._coverPath = null;

        // Reactive (a non-reactive actor is drawn greyed out) but never activated as a whole:
        // its buttons are what acts.
        const item = this._item = new PopupMenu.PopupBaseMenuItem({
            reactive: true,
            activate: false,
            hover: false,
            can_focus: false,
            style_class: 'dbmultiverse-card',
        });
        const columns = new St.BoxLayout({style_class: 'dbmultiverse-card-columns', x_expand: true});
        this._cover = new St.Bin({style_class: 'dbmultiverse-cover', y_align: Clutter.ActorAlign.START});
        // The cover's texture is made for the display's scale: made again when it changes (the
        // theme's scale factor, or the resource scale of the monitor the card is on), as the
        // login dialog's logo is. Both handlers are disconnected in destroy().
        this._coverScaleId = this._cover.connect('resource-scale-changed', () => this._showCover());
        St.ThemeContext.get_for_stage(global.stage).connectObject('notify::scale-factor', () => this._showCover(), this._cover);
        columns.add_child(this._cover);

        const details = verticalBox({style_class: 'dbmultiverse-details', x_expand: true});
        this._title = new St.Label({style_class: 'dbmultiverse-title'});
        this._name = new St.Label({style_class: 'dbmultiverse-name'});
        this._name.clutter_text.line_wrap = true;
        this._progress = new BarLevel({style_class: 'slider dbmultiverse-progress', x_expand: true});
        this._progressText = new St.Label({style_class: 'dbmultiverse-progress-text'});
        this._newPages = new St.Label({style_class: 'dbmultiverse-new-pages'});
        for (const child of [this._title, this._name, this._progress, this._progressText, this._newPages])
            details.add_child(child);
        this._buttons = verticalBox({style_class: 'dbmultiverse-buttons', x_expand: true});
        details.add_child(this._buttons);
        columns.add_child(details);
        item.add_child(columns);
        menu.addMenuItem(item);
    }

    // Draws an entry (the unpacked a{sv}): a text is shown when the view has one.
    show(entry) {
        this._coverPath = entry['image-path'];
        this._showCover();
        this._title.text = entry.title;
        this._name.text = entry.name;
        // The name is the site's, in the comic's language: a right-to-left one (Arabic, Hebrew)
        // is aligned to the right, whatever the desktop's language, as its reader reads it (a
        // style class: St sets the text's alignment from the stylesheet at each style change).
        if (Pango.find_base_dir(entry.name, -1) === Pango.Direction.RTL)
            this._name.add_style_class_name('dbmultiverse-right-to-left');
        else
            this._name.remove_style_class_name('dbmultiverse-right-to-left');
        for (const label of [this._title, this._name, this._progressText, this._newPages])
            label.visible = label.text !== '';
        this._progressText.text = entry['progress-text'];
        this._progressText.visible = this._progress.visible = entry['progress-text'] !== '';
        this._progress.value = Math.min(Math.max(entry.progress, 0), 100) / 100;
        this._progress.accessible_name = entry['progress-text'];
        this._newPages.text = entry['new-pages-text'];
        this._newPages.visible = entry['new-pages-text'] !== '';
        this._buttons.destroy_all_children();
        for (const action of entry.actions) {
            const widget = new St.Button({
                label: action.label,
                style_class: 'button dbmultiverse-button',
                can_focus: true,
                x_expand: true,
            });
            widget.connect('clicked', () => this._onPress(action));
            this._buttons.add_child(widget);
        }
    }

    // The cover, its aspect kept at COVER_HEIGHT, at the display's scale; the app icon when there
    // is none. Loaded again at each entry: the service keeps the current cover at the same path.
    _showCover() {
        const themeContext = St.ThemeContext.get_for_stage(global.stage);
        if (this._coverPath) {
            this._cover.child = St.TextureCache.get_default().load_file_async(Gio.File.new_for_path(this._coverPath),
                -1, COVER_HEIGHT, themeContext.scale_factor, this._cover.get_resource_scale());
        } else {
            this._cover.child = new St.Icon({gicon: new Gio.FileIcon({file: this._iconFile}), icon_size: ICON_SIZE});
        }
    }

    // The indicator's end (the extension's disable()): the card's widgets destroyed, each before
    // the item that holds them, and let go of (one by one: what extensions.gnome.org's review reads).
    destroy() {
        St.ThemeContext.get_for_stage(global.stage).disconnectObject(this._cover);
        this._cover.disconnect(this._coverScaleId);
        this._cover.destroy();
        this._cover = null;
        this._title.destroy();
        this._title = null;
        this._name.destroy();
        this._name = null;
        this._progress.destroy();
        this._progress = null;
        this._progressText.destroy();
        this._progressText = null;
        this._newPages.destroy();
        this._newPages = null;
        this._buttons.destroy();
        this._buttons = null;
        this._item.destroy();
        this._item = null;
    }
}
