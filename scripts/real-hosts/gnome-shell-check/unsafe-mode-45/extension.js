// Test only, never installed by `make install` nor shipped: the 45+ (ES module) form of
// ../unsafe-mode@dbmultiverse.test, installed under that uuid by scripts/real-hosts/gnome-shell-check.sh on
// GNOME Shell 45 and later, which load extensions as modules only. org.gnome.Shell.Screenshot
// answers other programs only in unsafe mode (global.context.unsafe_mode there too).
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

export default class UnsafeMode extends Extension {
    enable() {
        this._previous = global.context.unsafe_mode;
        global.context.unsafe_mode = true;
    }

    disable() {
        global.context.unsafe_mode = this._previous;
    }
}
