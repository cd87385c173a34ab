// Test only, never installed by `make install` nor shipped: gnome-shell 43 answers
// org.gnome.Shell.Screenshot only to its own tools unless it runs in unsafe mode, which 43 has
// only as global.context.unsafe_mode. scripts/real-hosts/gnome-shell-check.sh enables this in its private
// session to keep screenshots of the card.
/* exported init */
class UnsafeMode {
    enable() {
        this._previous = global.context.unsafe_mode;
        global.context.unsafe_mode = true;
    }

    disable() {
        global.context.unsafe_mode = this._previous;
    }
}

function init() {
    return new UnsafeMode();
}
