// GNOME Shell 45 and later (ES modules). legacy/extension.js is the same for 43–44.
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

import {Indicator} from './indicator.js';

export default class DBMultiverseExtension extends Extension {
    // The metadata's gettext-domain makes the shell bind it to the extension's locale/ folder.
    enable() {
        this._indicator = new Indicator(this.path, text => this.gettext(text));
        Main.panel.addToStatusArea(this.uuid, this._indicator);
    }

    disable() {
        this._indicator.destroy();
        this._indicator = null;
    }
}
