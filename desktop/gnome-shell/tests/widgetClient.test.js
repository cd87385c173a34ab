// The card's bus client (src/widgetClient.js) under gjs, in both builds, against the real service
// on the bus in DBUS_SESSION_BUS_ADDRESS (a private bus that activates it, GnomeShellExtensionTests):
// it starts the service, follows its entry, shows nothing (null) while the service is gone and
// follows it again when it is back, runs the view's actions through org.freedesktop.Application, is
// silent for a reload that changes the date alone, and is silent after
// destroy(). Each style runs the same steps; the entry changes with the real `dbmultiverse` CLI.
//
// gjs -m widgetClient.test.js BUILD_43 BUILD_45 DBMULTIVERSE
//     one `ok`/`not ok` line per check, then `N passed, N failed`.
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import System from 'system';

const [build43, build45, dbmultiverse] = ARGV;
imports.searchPath.unshift(build43);
const styles = {'43': imports.widgetClient, '45': await import(`file://${build45}/widgetClient.js`)};
const bus = Gio.DBus.session;

let passed = 0, failed = 0;
function check(name, ok, detail = '') {
    if (ok) {
        passed++;
        print(`ok ${name}`);
    } else {
        failed++;
        print(`not ok ${name}${detail ? `\n  ${detail}` : ''}`);
    }
}

// Runs the main loop until condition() holds or `seconds` pass; returns whether it held.
function waitFor(condition, seconds = 10) {
    const context = GLib.MainContext.default();
    let timedOut = false;
    const timeout = GLib.timeout_add(GLib.PRIORITY_DEFAULT, seconds * 1000, () => {
        timedOut = true;
        return GLib.SOURCE_REMOVE;
    });
    while (!condition() && !timedOut)
        context.iteration(true);
    if (!timedOut)
        GLib.source_remove(timeout);
    return condition();
}

function cli(...args) {
    const process = Gio.Subprocess.new([dbmultiverse, ...args],
        Gio.SubprocessFlags.STDOUT_SILENCE | Gio.SubprocessFlags.STDERR_SILENCE);
    process.wait(null);
    return process.get_exit_status();
}

function servicePid() {
    return bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
        'GetConnectionUnixProcessID', new GLib.Variant('(s)', ['com.nobadi.DBMultiverse']), null,
        Gio.DBusCallFlags.NONE, 5000, null).deepUnpack()[0];
}

// The service's own signals, as any client sees them.
const opened = [];
let reloads = 0;
bus.signal_subscribe(null, 'com.nobadi.DBMultiverse.Widget1', 'OpenRequested', '/com/nobadi/DBMultiverse',
    null, Gio.DBusSignalFlags.NONE, (_c, _s, _p, _i, _n, parameters) => opened.push(parameters.deepUnpack()));
bus.signal_subscribe(null, 'org.freedesktop.DBus.Properties', 'PropertiesChanged', '/com/nobadi/DBMultiverse',
    null, Gio.DBusSignalFlags.NONE, () => reloads++);

let chapter = 40;
for (const [style, module] of Object.entries(styles)) {
    chapter++;
    const seen = [];
    const client = new module.WidgetClient(entry => seen.push(entry));
    check(`${style}: starts the service and shows its entry`,
        waitFor(() => seen.length > 0 && seen.at(-1) !== null), JSON.stringify(seen));

    cli('update', '--chapter', `${chapter}`, '--name', `Chapter ${chapter}`, '--progress', '35');
    check(`${style}: follows a chapter change`,
        waitFor(() => seen.at(-1)?.chapter === chapter && client.entry?.chapter === chapter), JSON.stringify(seen.at(-1)));
    check(`${style}: the entry has the service's keys and its view`,
        client.entry['deep-link'] === `dbmultiverse://chapter/${chapter}` && client.entry['is-placeholder'] === false
        && client.entry.title === `Chapter ${chapter}` && client.entry['panel-text'] === `Ch. ${chapter} \u00B7 35%`
        && JSON.stringify(client.entry.actions.map(a => [a.label, a.action, a.parameter ?? null]))
            === JSON.stringify([['Continue reading', 'open-current', null], ['Chapter list', 'open-chapter-list', null]]),
        JSON.stringify(client.entry));

    // A reload that changes nothing but the entry's date is no change (the one "changed?" rule).
    const beforeReload = seen.length, reloadsBeforeReload = reloads;
    cli('reload');
    waitFor(() => reloads > reloadsBeforeReload);
    while (GLib.MainContext.default().pending())
        GLib.MainContext.default().iteration(false);
    check(`${style}: a new date alone is not shown again`, reloads > reloadsBeforeReload && seen.length === beforeReload,
        `reloads ${reloads - reloadsBeforeReload}, changes ${seen.length - beforeReload}`);

    const count = seen.length;
    GLib.spawn_command_line_sync(`kill ${servicePid()}`);
    check(`${style}: null while the service is gone`, waitFor(() => seen.length > count && seen.at(-1) === null));
    cli('entry');  // starts it again (bus activation)
    check(`${style}: follows the service when it is back`, waitFor(() => seen.at(-1)?.chapter === chapter));

    client.activate(client.entry.actions[0], {});
    check(`${style}: runs the view's Continue reading (open-current: the entry's deep link)`,
        waitFor(() => opened.some(([n, link]) => n === chapter && link === `dbmultiverse://chapter/${chapter}`)));
    client.activate({label: 'Next chapter', action: 'open-chapter', parameter: chapter + 1},
        {'activation-token': new GLib.Variant('s', 'token')});
    check(`${style}: runs an action with its parameter (ActivateAction)`,
        waitFor(() => opened.some(([n]) => n === chapter + 1)));

    client.destroy();
    const after = seen.length, reloadsBefore = reloads;
    cli('update', '--chapter', `${chapter + 10}`, '--name', 'After destroy', '--progress', '1');
    waitFor(() => reloads > reloadsBefore);
    // The proxy had the same signal from the same connection: whatever it queued runs now.
    while (GLib.MainContext.default().pending())
        GLib.MainContext.default().iteration(false);
    check(`${style}: silent after destroy()`, reloads > reloadsBefore && seen.length === after,
        `reloads ${reloads - reloadsBefore}, calls after destroy ${seen.length - after}`);
}
print(`${passed} passed, ${failed} failed`);
System.exit(failed === 0 ? 0 : 1);
