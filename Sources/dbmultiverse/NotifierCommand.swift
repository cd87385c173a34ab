import ArgumentParser
import Widget
import Localization

struct NotifierCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifier",
        abstract: gettext("Show the tray item, and desktop notifications when the chapter being read changes and when new pages are out."),
        // TRANSLATORS: `notifier --help`: the D-Bus names (com.nobadi.DBMultiverse, TimelinesReloaded,
        // org.freedesktop.Notifications, org.kde.StatusNotifierItem, org.kde.StatusNotifierWatcher),
        // pages-published (a signal), announcedPages.json, --no-tray, `tray = no` (a line of the config
        // file), the paths, the executable and the unit's name stay as they are.
        discussion: gettext("Follows com.nobadi.DBMultiverse's TimelinesReloaded signal on the session bus and calls org.freedesktop.Notifications for chapter changes (not for the chapter found at start) and, once per latest page, for new pages after the reader's (pages-published, or found at start; remembered in the data folder's announcedPages.json). It also serves the tray item (org.kde.StatusNotifierItem with its menu), registered with the panel's org.kde.StatusNotifierWatcher whenever one is on the bus; --no-tray, or `tray = no` in ~/.config/dbmultiverse/config, turns it off. Runs dbmultiverse-notifier, its own executable (installed in ../libexec/dbmultiverse beside this binary). Usually run by its systemd user unit, dbmultiverse-notifier.service. Exits 0 on SIGTERM/SIGINT and 1 when the bus goes away.")
    )

    @Flag(help: ArgumentHelp(gettext("Do not show the tray item.")))
    var noTray = false

    /// Replaces this process with `dbmultiverse-notifier` (also `Main`'s parser-free path); returns
    /// only when it cannot, having said why.
    static func runNotifier(noTray: Bool) -> Int32 {
        Output.error(ProcessStart.execSibling("dbmultiverse-notifier", arguments: noTray ? ["--no-tray"] : []))
        return 1
    }

    func run() throws {
        throw ExitCode(Self.runNotifier(noTray: noTray))
    }
}
