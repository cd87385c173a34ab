internal import ComicDomain
public import DBus
public import Logging

/// What the notifier did, for tests and diagnostics (delivered on the loop thread).
package enum NotifierEvent: Sendable, Equatable {
    /// A notification was shown with this id.
    case notified(id: UInt32)
    /// No notification server: the notification is kept until one appears.
    case serverMissing
    /// `Notify` failed with another error; that notification is dropped.
    case notifyFailed(DBusError)
    /// The server closed our notification: the next one is new.
    case forgot(id: UInt32)
    /// The notification server changed owner (`nil`: it left the bus).
    case serverChanged(owner: String?)
    /// The user clicked the notification: `Open` was called with this link and token.
    case opened(deepLink: String, token: String?)
}

/// The desktop notifier (DESIGN §7): follows `TimelinesReloaded` from the widget service and,
/// for chapter changes only, shows one standing desktop notification.
///
/// Confined to its connection's loop thread; everything is a callback of that loop (no `Task`,
/// no timers), so an idle notifier makes no wake-ups.
///
/// State: the latest chapter change not yet shown (`pending`), at most one `Notify` or
/// `GetCapabilities` in flight, the standing notification's id (replaced in place, forgotten on
/// `NotificationClosed` or when the server changes owner), and the server's capabilities, read
/// when first needed and again after each change of owner.
public final class Notifier {
    public let connection: Connection
    private let client: NotificationsClient
    private let widget = WidgetClient()
    private let logger: Logger
    private var subscriptions: [Connection.SignalSubscription] = []

    /// Observes what the notifier does (tests wait on it instead of sleeping).
    package var observer: ((NotifierEvent) -> Void)?

    /// The server's capabilities, or nil until read (again) from the current owner.
    private var capabilities: Set<String>?
    /// Bumped at every change of owner of `org.freedesktop.Notifications`: a reply from an older
    /// server says nothing about the current one.
    private var serverGeneration = 0
    /// The latest chapter change not yet shown.
    private var pending: ChapterEntry?
    /// True while `GetCapabilities` or `Notify` is in flight (one at a time keeps ids in order).
    private var busy = false
    /// The standing notification: its id and the entry it shows.
    private var current: (id: UInt32, entry: ChapterEntry)?
    /// The last `ActivationToken` received, with the id it is for.
    private var activation: (id: UInt32, token: String)?
    /// Set once "no notification server" is logged; cleared when a server appears.
    private var reportedMissingServer = false
    /// Error names already logged, so each distinct error is logged once.
    private var reportedErrors: Set<String> = []

    public init(connection: Connection, logger: Logger = Logger(label: "dbmultiverse.notifier")) {
        self.connection = connection
        client = NotificationsClient(connection: connection)
        self.logger = logger
    }

    /// The id of the standing notification, 0 when there is none.
    public var currentNotificationID: UInt32 { current?.id ?? 0 }

    /// Subscribes (blocking, so the subscriptions are in place when this returns): the widget's
    /// `TimelinesReloaded` from whoever owns `com.nobadi.DBMultiverse` (a restarted service is
    /// followed, a forged signal is not), the notification server's changes of owner and its
    /// signals. Asks for nothing else: the state found at start is not notified.
    public func start() throws(DBusError) {
        subscriptions.append(try widget.subscribeToReloads(on: connection, onMalformed: { [unowned self] error in
            reportOnce("bad-signal", "ignoring a TimelinesReloaded signal that does not decode: \(error.message)")
        }) { [unowned self] reload in
            timelinesReloaded(reload)
        })
        subscriptions.append(try client.onServerChange { [unowned self] owner in
            serverOwnerChanged(owner)
        })
        subscriptions += try client.subscribe { [unowned self] signal in
            serverSignal(signal)
        }
    }

    /// Cancels the subscriptions.
    public func stop() {
        for subscription in subscriptions { subscription.cancel() }
        subscriptions.removeAll()
    }

    // MARK: The widget

    private func timelinesReloaded(_ reload: TimelinesReload) {
        guard reload.reason == ReloadReason.chapterChange.rawValue else {
            logger.debug("reload of \(reload.kind) (\(reload.reason)): nothing to notify")
            return
        }
        let entry = reload.entry
        guard !entry.isPlaceholder else {
            logger.debug("chapter change to the placeholder: nothing to notify")
            return
        }
        pending = entry
        sendPending()
    }

    // MARK: Sending

    /// Sends the pending notification, reading the capabilities first when they are unknown.
    private func sendPending() {
        guard !busy, let entry = pending else { return }
        let generation = serverGeneration
        guard let capabilities else {
            busy = true
            client.getCapabilities { [unowned self] result in
                busy = false
                switch result {
                case .success(let list):
                    if generation == serverGeneration { capabilities = Set(list) }
                    sendPending()
                case .failure(let error) where Self.meansNoServer(error):
                    serverMissing(since: generation)
                case .failure(let error):
                    // A server that can't say: send without actions, and ask again next time.
                    reportOnce(error.name, "GetCapabilities failed (\(error)); notifying without actions")
                    send(entry, capabilities: [], generation: generation)
                }
            }
            return
        }
        send(entry, capabilities: capabilities, generation: generation)
    }

    private func send(_ entry: ChapterEntry, capabilities: Set<String>, generation: Int) {
        let request = ChapterNotification.request(for: entry, replacing: currentNotificationID, capabilities: capabilities)
        pending = nil
        busy = true
        client.notify(request) { [unowned self] result in
            busy = false
            switch result {
            case .success(let id) where generation == serverGeneration:
                current = (id, entry)
                if activation?.id != id { activation = nil }
                reportedMissingServer = false
                logger.info("notified chapter \(entry.chapter) (notification \(id))")
                observer?(.notified(id: id))
            case .success:
                // Shown by a server that has since left the bus: the id means nothing now.
                break
            case .failure(let error) where Self.meansNoServer(error):
                if pending == nil { pending = entry }
                serverMissing(since: generation)
            case .failure(let error):
                reportOnce(error.name, "Notify failed: \(error)")
                observer?(.notifyFailed(error))
            }
            sendPending()
        }
    }

    /// No server answered: keep the notification for when one appears (or retry at once if one
    /// appeared while the call was in flight).
    private func serverMissing(since generation: Int) {
        capabilities = nil
        guard generation == serverGeneration else {
            sendPending()
            return
        }
        if !reportedMissingServer {
            reportedMissingServer = true
            logger.warning("no notification server on the bus (org.freedesktop.Notifications); the notification will be shown when one starts")
        }
        observer?(.serverMissing)
    }

    static func meansNoServer(_ error: DBusError) -> Bool {
        [DBusError.Name.serviceUnknown, DBusError.Name.nameHasNoOwner].contains(error.name)
    }

    // MARK: The notification server

    private func serverOwnerChanged(_ owner: String?) {
        // Another server, or none: the old id and capabilities mean nothing any more.
        serverGeneration += 1
        capabilities = nil
        current = nil
        activation = nil
        guard let newOwner = owner else {
            logger.info("the notification server left the bus")
            observer?(.serverChanged(owner: nil))
            return
        }
        logger.info("notification server \(newOwner) on the bus")
        reportedMissingServer = false
        observer?(.serverChanged(owner: newOwner))
        sendPending()
    }

    private func serverSignal(_ signal: NotificationSignal) {
        switch signal {
        case .activationToken(let id, let token):
            guard id != 0, id == current?.id else { return }
            activation = (id, token)
        case .actionInvoked(let id, let key):
            guard id != 0, let current, id == current.id, key == ChapterNotification.defaultAction else { return }
            let token = activation?.id == id ? activation?.token : nil
            activation = nil
            open(current.entry, token: token)
        case .notificationClosed(let id, let reason):
            guard id != 0, id == current?.id else { return }
            logger.debug("notification \(id) closed (\(reason))")
            current = nil
            activation = nil
            observer?(.forgot(id: id))
        }
    }

    /// `org.freedesktop.Application.Open([deep link], {"activation-token": token})` on the
    /// widget service (which D-Bus activation starts if needed).
    private func open(_ entry: ChapterEntry, token: String?) {
        let link: DeepLink
        do {
            link = try DeepLink(chapter: entry.chapter)
        } catch {
            logger.error("cannot open chapter \(entry.chapter): \(error.message)")
            return
        }
        logger.info("opening \(link.uri)")
        observer?(.opened(deepLink: link.uri, token: token))
        connection.call(widget.open([.chapter(link)], LaunchContext(activationToken: token))) { [logger] result in
            if case .failure(let error) = result {
                logger.error("cannot open \(link.uri): \(error)")
            }
        }
    }

    private func reportOnce(_ key: String, _ text: String) {
        guard reportedErrors.insert(key).inserted else { return }
        logger.error("\(text)")
    }
}
