import ArgumentParser
import ComicDomain
import DBus
import Widget
import EventLoop

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the entry now and one line per reload (for status bars); follows service restarts.")

    @OptionGroup var options: EntryOptions

    func run() throws {
        let caller = try BlockingCaller()
        let connection = caller.connection
        let widget = WidgetClient()
        let format = options.format, family = options.family
        var failure: DBusError?
        connection.onDisconnect = {
            failure = DBusError.disconnected("the session bus went away")
            caller.loop.stop()
        }
        // Subscribe first, then read the current entry: no reload can fall in between. Reloads are
        // taken only from the owner of the service's name: another peer can't forge a line.
        let reloads = try widget.subscribeToReloads(on: connection) { reload in
            Output.line(reload.entry.formatted(format, family: family))
        }
        // A restarted service may start from other storage: show its entry once it is back.
        let restarts = try widget.onServiceChange(on: connection) { owner in
            if owner != nil { printSnapshot(caller, widget, format: format, family: family, activate: false) }
        }
        printSnapshot(caller, widget, format: format, family: family, activate: true)
        while failure == nil { try caller.loop.run() }
        withExtendedLifetime((reloads, restarts)) {}
        throw failure ?? DBusError.disconnected("the session bus went away")
    }

    private func printSnapshot(_ caller: BlockingCaller, _ widget: WidgetClient, format: EntryFormat, family: WidgetFamily, activate: Bool) {
        let snapshot = widget.snapshot(family: family)
        caller.connection.call(activate ? snapshot : snapshot.withoutActivation()) { result in
            let entry: ChapterEntry
            switch result {
            case .success(let current):
                entry = current
            case .failure(let error):
                // No service (and none to activate) is expected; anything else is said. Either
                // way the placeholder shows until the service's next entry.
                if ![DBusError.Name.serviceUnknown, DBusError.Name.nameHasNoOwner].contains(error.name) {
                    Output.error("cannot read the entry: \(error.message) (\(error.name))")
                }
                entry = .placeholder(family: family, date: 0)
            }
            Output.line(entry.formatted(format, family: family))
        }
    }
}
