// GNOME Shell 43–44 (imports): what ../extension.js is for 45 and later.
/* exported init */
const Main = imports.ui.main;
const ExtensionUtils = imports.misc.extensionUtils;
const {Indicator} = imports.misc.extensionUtils.getCurrentExtension().imports.indicator;

class DBMultiverseExtension {
    constructor(metadata) {
        this._metadata = metadata;
    }

    enable() {
        this._indicator = new Indicator(this._metadata.path, ExtensionUtils.gettext);
        Main.panel.addToStatusArea(this._metadata.uuid, this._indicator);
    }

    disable() {
        this._indicator.destroy();
        this._indicator = null;
    }
}

function init(metadata) {
    // The metadata's gettext-domain, bound to the extension's locale/ folder (else the system's).
    ExtensionUtils.initTranslations();
    return new DBMultiverseExtension(metadata);
}
