// The service on the session bus, as the card needs it: the `Entry` property of
// com.nobadi.DBMultiverse.Widget1 as of the last reload, followed through PropertiesChanged and
// the name's owner (GDBusProxy does both: no timer, no polling), and the application's actions.
// No St here: gjs runs it outside the shell too.
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

const BUS_NAME = 'com.nobadi.DBMultiverse';
const OBJECT_PATH = '/com/nobadi/DBMultiverse';
const APPLICATION_INTERFACE = 'org.freedesktop.Application';
// The interface, dbus/com.nobadi.DBMultiverse.Widget1.xml's <node>, which build.sh writes here (the
// proxy checks the Entry property's type against it).
const WIDGET_XML = '@WIDGET_XML@';

export class WidgetClient {
    // onChanged(entry) runs whenever the entry shown must change: entry is the unpacked a{sv}, or
    // null while no service answers. A service not running is started (bus activation).
    constructor(onChanged) {
        this._onChanged = onChanged;
        this._entry = null;
        this._revision = null;
        this._proxy = null;
        this._handlers = [];
        this._cancellable = new Gio.Cancellable();
        const info = Gio.DBusNodeInfo.new_for_xml(WIDGET_XML).interfaces[0];
        // The proxy does not start the service itself: a failed start would fail the proxy, which
        // then could not follow a service started later. _startService starts it instead.
        Gio.DBusProxy.new(Gio.DBus.session, Gio.DBusProxyFlags.DO_NOT_AUTO_START, info,
            BUS_NAME, OBJECT_PATH, info.name, this._cancellable, (_source, result) => {
                try {
                    this._proxy = Gio.DBusProxy.new_finish(result);
                } catch (error) {
                    if (!error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED))
                        console.warn(`DBMultiverse: cannot follow ${BUS_NAME}: ${error.message}`);
                    return;
                }
                this._handlers = [
                    this._proxy.connect('g-properties-changed', () => this._update()),
                    this._proxy.connect('notify::g-name-owner', () => this._update()),
                ];
                this._update();
                if (!this._proxy.get_name_owner())
                    this._startService();
            });
    }

    // The entry as of the last reload, or null while no service answers.
    get entry() {
        return this._entry;
    }

    // Runs an action of the view ({label, action, parameter?}: org.freedesktop.Application's
    // ActivateAction), passing platformData (a{sv}: the activation token) so that the browser
    // window may take focus.
    activate(action, platformData) {
        const parameters = new GLib.Variant('(sava{sv})', [action.action,
            action.parameter === undefined ? [] : [new GLib.Variant('i', action.parameter)], platformData]);
        Gio.DBus.session.call(BUS_NAME, OBJECT_PATH, APPLICATION_INTERFACE, 'ActivateAction', parameters,
            null, Gio.DBusCallFlags.NONE, -1, this._cancellable, (connection, result) => {
                try {
                    connection.call_finish(result);
                } catch (error) {
                    if (!error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED))
                        console.warn(`DBMultiverse: ${action.label} failed: ${error.message}`);
                }
            });
    }

    destroy() {
        this._cancellable.cancel();
        for (const id of this._handlers)
            this._proxy.disconnect(id);
        this._handlers = [];
        this._proxy = null;
        this._onChanged = null;
    }

    // Asks the bus to start the service; the proxy sees it arrive (notify::g-name-owner).
    _startService() {
        Gio.DBus.session.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
            'StartServiceByName', new GLib.Variant('(su)', [BUS_NAME, 0]), null, Gio.DBusCallFlags.NONE,
            -1, this._cancellable, (connection, result) => {
                try {
                    connection.call_finish(result);
                } catch (error) {
                    if (!error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED))
                        console.warn(`DBMultiverse: cannot start ${BUS_NAME}: ${error.message}`);
                }
            });
    }

    // Reads the cached property (gone while the name has no owner) and reports a change only: the
    // entry's `revision` changes exactly when something shown changes (docs/dbus-api.md), so a
    // reload that changed nothing shown (a new date alone) draws nothing again.
    _update() {
        const variant = this._proxy.get_name_owner() ? this._proxy.get_cached_property('Entry') : null;
        const entry = variant ? variant.recursiveUnpack() : null;
        const revision = entry ? entry.revision : null;
        if (revision === this._revision)
            return;
        this._entry = entry;
        this._revision = revision;
        this._onChanged(entry);
    }
}
