import ComicDomain
package import DBus
import Logging
import Widget

/// The follower's one view of the widget service, shared by the notifier and the tray item in one
/// process: one subscription to `TimelinesReloaded` (only from the owner of the service's name),
/// one to the name's owner, and the view they both show. The view is read at start and whenever the
/// service appears; each reload brings the next.
///
/// Confined to its connection's loop thread; everything is a callback of that loop.
package final class WidgetFollower {
    let connection: Connection
    private let widget = WidgetClient()
    /// Whether reading the entry starts the service by D-Bus activation (the tray, as a desktop
    /// would), or waits for it to appear (the notifier alone).
    private let activatesService: Bool
    private let logger: Logger
    private var followers: [(reloaded: (TimelinesReload) -> Void, read: (EntryView) -> Void)] = []
    private var subscriptions: [Connection.SignalSubscription] = []
    private var reported: Set<String> = []

    init(connection: Connection, activatesService: Bool, logger: Logger) {
        self.connection = connection
        self.activatesService = activatesService
        self.logger = logger
    }

    /// Calls `reloaded` with each reload and `read` with each view read, from `start()` on.
    func follow(reloaded: @escaping (TimelinesReload) -> Void, read: @escaping (EntryView) -> Void) {
        followers.append((reloaded, read))
    }

    /// Subscribes (blocking, so the subscriptions are in place when this returns), then asks the
    /// service for its entry without waiting. Later calls do nothing.
    package func start() throws(DBusError) {
        guard subscriptions.isEmpty else { return }
        subscriptions.append(try widget.subscribeToReloads(on: connection, onMalformed: { [unowned self] error in
            reportOnce("bad-signal", "ignoring a TimelinesReloaded signal that does not decode: \(error.message)")
        }) { [unowned self] reload in
            for follower in followers { follower.reloaded(reload) }
        })
        subscriptions.append(try widget.onServiceChange(on: connection) { [unowned self] owner in
            if owner != nil { readEntry() }
        })
        readEntry()
    }

    /// Cancels the subscriptions.
    package func stop() {
        for subscription in subscriptions { subscription.cancel() }
        subscriptions.removeAll()
    }

    private func readEntry() {
        let call = activatesService ? widget.currentEntry() : widget.currentEntry().withoutActivation()
        connection.call(call) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let read):
                for follower in followers { follower.read(read) }
            case .failure(let error) where Self.meansNoServer(error):
                reportOnce("no-service", "the widget service is not running (\(error.name)); its entry is read when it starts", level: .info)
            case .failure(let error):
                reportOnce("entry-\(error.name)", "cannot read the widget service's entry: \(error)")
            }
        }
    }

    /// Whether `error` says that nobody owns the name called (and none could be started).
    static func meansNoServer(_ error: DBusError) -> Bool {
        [DBusError.Name.serviceUnknown, DBusError.Name.nameHasNoOwner].contains(error.name)
    }

    private func reportOnce(_ key: String, _ text: String, level: Logger.Level = .error) {
        guard reported.insert(key).inserted else { return }
        logger.log(level: level, "\(text)")
    }
}
