import ComicDomain
import DBus
import Widget
import EventLoop
import Glibc
import Localization

/// `watch --format json --next [--after TOKEN]` (docs/usage.md): one answer of the widget's
/// long-poll. Prints the current entry — the `Entry` property, what the last reload published —
/// with its token (its view's revision) as soon as that token differs from `after`, then returns. Every read may start
/// the service by bus activation: a service that crashed or was stopped comes back with the stored
/// entry (a dead service never reads as a new reader's placeholder), after a wait that grows while it
/// keeps leaving (`RestartBackoff`). A service that cannot be started, does not answer or keeps
/// leaving, or a bus that goes away, is an error (exit 1, the message naming the bus): the widget
/// retries, with a growing delay.
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
            && EntryView.isToken(arguments[5]):
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
        // The handlers hold the connection (and the subscriptions' handlers, kept by the connection,
        // hold the caller): let go on the way out, or they keep each other alive to exit, a leak.
        defer { connection.onDisconnect = nil }
        connection.onDisconnect = {
            // TRANSLATORS: %s is the bus's address.
            failure = DBusError.disconnected(gettext("the session bus at %s went away", connection.address))
            caller.loop.stop()
        }
        let offer = { (view: EntryView) in
            guard !answered, failure == nil, view.token != after else { return }
            answered = true
            Output.line(view.nextJSON(family: family))
            caller.loop.stop()
        }
        // The reads still unanswered when the entry is printed (a restart's, beside the first)
        // are cancelled on the way out: the connection keeps them, and they hold the caller.
        var reads: [Connection.PendingCall] = []
        defer { reads.forEach { $0.cancel() } }
        let read = {
            let call = widget.property(Widget1.entry).map(EntryView.init(dbusDictionary:))
            reads.append(connection.call(call, timeout: BlockingCaller.callTimeout) { result in
                switch result {
                case .success(let view): offer(view)
                case .failure(let error):
                    guard !answered, failure == nil else { return }
                    failure = error
                    caller.loop.stop()
                }
            })
        }
        // Subscribed before the entry is read: no reload can fall in between. Reloads count only
        // from the owner of the service's name.
        let reloads = try widget.subscribeToReloads(on: connection) { offer($0.view) }
        defer { reloads.cancel() }
        // A service that left (crashed, stopped) is started again and read, after a wait that grows
        // while it keeps leaving; one that came back (the activation, or another start) is read.
        var backoff = RestartBackoff(now: EventLoop.now())
        let restart = caller.loop.makeTimer {
            backoff.started(at: EventLoop.now())
            read()
        }
        defer { restart.cancel() }
        let restarts = try widget.onServiceChange(on: connection) { owner in
            guard owner == nil else {
                restart.cancel()
                backoff.started(at: EventLoop.now())
                return read()
            }
            guard let wait = backoff.departed(at: EventLoop.now()) else {
                guard !answered, failure == nil else { return }
                failure = DBusError.failed(gettext("%s left the bus again each time it was started: not starting it again (journalctl --user -u dbmultiverse.service, or dbmultiverse service, says why)",
                                                   WidgetBus.busName.rawValue))
                return caller.loop.stop()
            }
            restart.schedule(at: EventLoop.now() + wait)
        }
        defer { restarts.cancel() }
        read()
        while !answered, failure == nil { try caller.loop.run() }
        if let failure, !answered { throw failure }
    }
}
