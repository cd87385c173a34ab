import ComicDomain
import DBus
import Widget
import EventLoop
import Glibc
import Localization

/// `watch --format json --next [--after TOKEN]` (DESIGN §15): one answer of the widget's long-poll.
/// Prints the current entry — the `Entry` property, what the last reload published — with its
/// token as soon as that token differs from `after`, then returns. With no service the current
/// entry is the placeholder; it then waits for the service to appear. The first question (no
/// `after`) starts the service by bus activation, as `entry` does; later ones never do, so a
/// service that stopped is shown as stopped rather than started again by the widget.
struct NextEntry {
    let family: WidgetFamily
    let after: String?

    /// The Plasma widget's exact command line (`watch --format json --next [--after TOKEN]`, a
    /// valid token), run without the argument parser: the command blocks between changes, and the
    /// parser's machinery would stay resident all that time (measured: 12.0 MiB RSS with it).
    /// Its status, or nil for any other command line (the parser then reads it).
    static func runAsWidget(_ arguments: [String]) -> Int32? {
        let after: String?
        switch arguments {
        case ["watch", "--format", "json", "--next"]: after = nil
        case let arguments where arguments.count == 6 && Array(arguments.prefix(5)) == ["watch", "--format", "json", "--next", "--after"]
            && ChapterEntry.isToken(arguments[5]):
            after = arguments[5]
        default: return nil
        }
        do {
            try NextEntry(family: .medium, after: after).run()
            return 0
        } catch let error as DBusError {
            Output.error("\(error.message) (\(error.name))")
            return 1
        } catch {
            Output.error("\(error)")
            return 1
        }
    }

    func run() throws {
        let caller = try BlockingCaller()
        let connection = caller.connection
        let widget = WidgetClient()
        var answered = false
        var failure: DBusError?
        connection.onDisconnect = {
            failure = DBusError.disconnected(gettext("the session bus went away"))
            caller.loop.stop()
        }
        let offer = { (entry: ChapterEntry) in
            guard !answered, entry.token(family: family) != after else { return }
            answered = true
            Output.line(entry.nextJSON(family: family))
            caller.loop.stop()
        }
        let placeholder = { ChapterEntry.placeholder(family: .medium, date: Int64(time(nil))) }
        let read = { (activate: Bool) in
            let call = widget.property(Widget1.entry).map(ChapterEntry.init(dbusDictionary:))
            connection.call(activate ? call : call.withoutActivation()) { result in
                offer((try? result.get()) ?? placeholder())
            }
        }
        // Subscribed before the entry is read: no reload can fall in between. Reloads count only
        // from the owner of the service's name.
        let reloads = try widget.subscribeToReloads(on: connection) { offer($0.entry) }
        let restarts = try widget.onServiceChange(on: connection) { owner in
            if owner == nil { offer(placeholder()) } else { read(false) }
        }
        read(after == nil)
        while !answered, failure == nil { try caller.loop.run() }
        withExtendedLifetime((reloads, restarts)) {}
        if let failure, !answered { throw failure }
    }
}
