// The top-bar button: the published entry's panel-text, and the card as its menu.
import Clutter from 'gi://Clutter';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Shell from 'gi://Shell';
import St from 'gi://St';

import * as PanelMenu from 'resource:///org/gnome/shell/ui/panelMenu.js';

import {Card} from './card.js';
import {placeholderEntry} from './cardModel.js';
import {WidgetClient} from './widgetClient.js';

const APP_ID = 'com.nobadi.DBMultiverse';

// What lets the browser window the service opens take focus: a startup id from the shell's own
// launch context (an XDG activation token on Wayland), under both names GLib's own D-Bus
// activation passes it. It is made for the browser (the https handler, which the service's
// xdg-open runs), the app whose window will use it; for DBMultiverse when there is none. The shell's
// own app system finds DBMultiverse: Gio.DesktopAppInfo moved to GioUnix in GNOME 49 (a warning
// there), and GioUnix is not in GNOME 43–48.
function platformData() {
    const appInfo = Gio.AppInfo.get_default_for_uri_scheme('https')
        ?? Shell.AppSystem.get_default().lookup_app(`${APP_ID}.desktop`)?.get_app_info();
    if (!appInfo)
        return {};
    const token = global.create_app_launch_context(0, -1).get_startup_notify_id(appInfo, []);
    if (!token)
        return {};
    return {
        'activation-token': new GLib.Variant('s', token),
        'desktop-startup-id': new GLib.Variant('s', token),
    };
}

export const Indicator = GObject.registerClass(
class DBMultiverseIndicator extends PanelMenu.Button {
    // extensionPath: the extension's folder (its icon); gettext: the extension's, for the placeholder.
    _init(extensionPath, gettext) {
        super._init(0.5, 'DBMultiverse');
        const iconFile = Gio.File.new_for_path(`${extensionPath}/icons/${APP_ID}.svg`);
        const box = new St.BoxLayout({style_class: 'panel-status-indicators-box'});
        box.add_child(new St.Icon({gicon: new Gio.FileIcon({file: iconFile}), style_class: 'system-status-icon'}));
        this._label = new St.Label({y_align: Clutter.ActorAlign.CENTER, style_class: 'dbmultiverse-panel-text'});
        box.add_child(this._label);
        this.add_child(box);

        this._gettext = gettext;
        this._card = new Card(this.menu, iconFile, button => this._open(button));
        this._client = new WidgetClient(entry => this._show(entry));
        this._show(this._client.entry);
    }

    // Draws the entry's view; the placeholder while no service answers.
    _show(entry) {
        entry = entry ?? placeholderEntry(this._gettext);
        this._label.text = entry['panel-text'];
        this._card.show(entry);
    }

    _open(action) {
        this.menu.close();
        this._client.activate(action, platformData());
    }

    _onDestroy() {
        this._client.destroy();
        this._card.destroy();
        this._card = null;
        super._onDestroy();
    }
});
