import ArgumentParser
import ComicDomain
import DBus
import Widget
import EventLoop
import Localization

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: gettext("Print the entry now and one line per reload (for status bars); follows service restarts."),
        // TRANSLATORS: `watch --help`: --next, --format json, --after and TOKEN stay as they are.
        discussion: gettext("With --next (and --format json) it prints one entry with a token, and exits: at once without --after or when the entry differs from the one that token names, else at the next reload that changes it. Run again with --after TOKEN after each answer, it is a long-poll that misses no change (the Plasma widget runs it so)."))

    @OptionGroup var options: EntryOptions

    // TRANSLATORS: --after is an option, kept as it is.
    @Flag(help: ArgumentHelp(gettext("Print one entry (JSON, with its token) when it differs from --after's, then exit.")))
    var next = false

    // TRANSLATORS: --next is an option, kept as it is.
    @Option(help: ArgumentHelp(gettext("The token of the entry shown now (from the last --next answer)."), valueName: "token"))
    var after: String?

    func validate() throws {
        if next, options.format != .json { throw ValidationError(gettext("--next prints JSON: use it with --format json")) }
        if let after {
            guard next else { throw ValidationError(gettext("--after goes with --next")) }
            guard EntryView.isToken(after) else {
                throw ValidationError(gettext("malformed token '%s': give the token a --next answer printed (16 hex digits)", after))
            }
        }
    }

    func run() throws {
        if next { return try NextEntry(family: options.family, after: after).run() }
        let caller = try BlockingCaller()
        let connection = caller.connection
        let widget = WidgetClient()
        let format = options.format, family = options.family
        var failure: DBusError?
        // The handlers hold the connection (and the subscriptions' handlers, kept by the connection,
        // hold the caller): let go on the way out, or they keep each other alive to exit, a leak.
        defer { connection.onDisconnect = nil }
        connection.onDisconnect = {
            // TRANSLATORS: %s is the bus's address.
            failure = DBusError.disconnected(gettext("the session bus at %s went away", connection.address))
            caller.loop.stop()
        }
        // Subscribe first, then read the current entry: no reload can fall in between. Reloads are
        // taken only from the owner of the service's name: another peer can't forge a line.
        let reloads = try widget.subscribeToReloads(on: connection) { reload in
            Output.line(reload.view.formatted(format, family: family))
        }
        defer { reloads.cancel() }
        // A restarted service may start from other storage: show its entry once it is back.
        let restarts = try widget.onServiceChange(on: connection) { owner in
            if owner != nil { printSnapshot(caller, widget, format: format, family: family, activate: false) }
        }
        defer { restarts.cancel() }
        printSnapshot(caller, widget, format: format, family: family, activate: true)
        while failure == nil { try caller.loop.run() }
        throw failure ?? DBusError.disconnected(gettext("the session bus went away"))
    }

    /// Prints the service's entry, or the placeholder when there is no service (none running and
    /// none to start). A service that fails to answer (frozen, or an error) is said on stderr and
    /// prints no line: a hung service must not read as a new reader's placeholder; its next reload
    /// prints the entry.
    private func printSnapshot(_ caller: BlockingCaller, _ widget: WidgetClient, format: EntryFormat, family: WidgetFamily, activate: Bool) {
        let snapshot = widget.snapshot(family: family)
        caller.connection.call(activate ? snapshot : snapshot.withoutActivation(), timeout: BlockingCaller.callTimeout) { result in
            switch result {
            case .success(let view):
                Output.line(view.formatted(format, family: family))
            case .failure(let error) where [DBusError.Name.serviceUnknown, DBusError.Name.nameHasNoOwner].contains(error.name):
                Output.line(EntryView.placeholder(family: family, date: 0).formatted(format, family: family))
            case .failure(let error):
                // TRANSLATORS: the D-Bus error's message, then its name.
                Output.error(gettext("cannot read the entry: %s (%s)", error.message, error.name))
            }
        }
    }
}
