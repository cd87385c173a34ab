package import ComicDomain
package import DBus
package import Logging
package import Widget

/// What the notifier did, for tests and diagnostics (delivered on the loop thread).
package enum NotifierEvent: Sendable, Equatable {
    /// A chapter notification was shown with this id.
    case notified(id: UInt32)
    /// An entry went through the new-pages rule (a followed reload, or the entry read at start).
    case newPages(PageAnnouncements.Decision, latestPage: Int)
    /// A new-pages announcement was shown with this id.
    case announced(id: UInt32)
    /// No notification server: the notification is kept until one appears.
    case serverMissing
    /// `Notify` failed with another error; that notification is dropped.
    case notifyFailed(DBusError)
    /// The server closed our notification: the next one is new.
    case forgot(id: UInt32)
    /// The announcement with this id was taken down (`CloseNotification`): the reader caught up.
    case withdrew(id: UInt32)
    /// The notification server changed owner (`nil`: it left the bus).
    case serverChanged(owner: String?)
    /// The user clicked a notification: `ActivateAction` was called with this action and token
    /// (the chapter notification's `open-current`, the announcement's `open-page`).
    case activated(ApplicationAction, token: String?)
}

/// The desktop notifier (docs/notifications.md): follows `TimelinesReloaded` from the widget service and
/// shows two standing desktop notifications, each replaced in place by the next of its kind: the
/// chapter notification (chapter changes only) and the announcement of new pages. What each says
/// and does is the published view's (`chapter-notification`, `new-pages-notification`); when to
/// show one is the notifier's rule, from the reload's reason and the new-pages rule.
///
/// New pages are announced once per latest page (`PageAnnouncements`, remembered in the data
/// folder across restarts) from `pages-published`, and from the entry found at start or when the
/// service appears, so that a reader who logs in after pages were published hears of them once.
/// A `chapter-change` is the reader reading: its latest page counts as dealt with, unannounced
/// (the widget and the tray show the count). Other reasons (`requested` on a first catalogue or a
/// rollback, `progress-change`, `periodic`) neither announce nor count.
///
/// Confined to its connection's loop thread; everything is a callback of that loop (no `Task`,
/// no timers), so an idle notifier makes no wake-ups.
///
/// State: per kind the latest notification not yet shown (`pending`) and the standing one's id
/// (forgotten on its `NotificationClosed`, when the server changes owner, or — for the
/// announcement — when the notifier closes it because the reader caught up); at most one `Notify`
/// or `GetCapabilities` in flight; the server's capabilities, read when first needed and again
/// after each change of owner.
package final class Notifier {
    /// The notifier's kinds of notification, each its own `replaces_id` chain; sent in this order.
    private enum Kind: CaseIterable {
        case chapter
        /// New pages, with the count and the first page not read.
        case pages
    }

    let connection: Connection
    private let client: NotificationsClient
    private let widget = WidgetClient()
    /// The widget service as this process follows it (shared with the tray item).
    private let follower: WidgetFollower
    private let folder: DataFolder
    private let logger: Logger
    private var subscriptions: [Connection.SignalSubscription] = []

    /// Observes what the notifier does (tests wait on it instead of sleeping).
    package var observer: ((NotifierEvent) -> Void)?

    /// The server's capabilities, or nil until read (again) from the current owner.
    private var capabilities: Set<String>?
    /// Bumped at every change of owner of `org.freedesktop.Notifications`: a reply from an older
    /// server says nothing about the current one.
    private var serverGeneration = 0
    /// Per kind, the view of the latest notification not yet shown.
    private var pending: [Kind: EntryView] = [:]
    /// True while `GetCapabilities` or `Notify` is in flight (one at a time keeps ids in order).
    private var busy = false
    /// Per kind, the standing notification: its id and what it shows.
    private var current: [Kind: (id: UInt32, notification: EntryView.Notification)] = [:]
    /// The new-pages rule's memory (stored in the data folder).
    private var announcements: PageAnnouncements
    /// The last `ActivationToken` received, with the id it is for.
    private var activation: (id: UInt32, token: String)?
    /// Set once "no notification server" is logged; cleared when a server appears.
    private var reportedMissingServer = false
    /// Error names already logged, so each distinct error is logged once.
    private var reportedErrors: Set<String> = []

    /// A notifier remembering its announcements in `folder` (read now: a corrupt file is logged
    /// and taken as no announcement yet), following the service through `follower` (its own,
    /// which waits for the service rather than start it, when nil).
    package init(connection: Connection, folder: DataFolder, follower: WidgetFollower? = nil,
                 logger: Logger = Logger(label: "dbmultiverse.notifier")) {
        self.connection = connection
        self.follower = follower ?? WidgetFollower(connection: connection, activatesService: false, logger: logger)
        client = NotificationsClient(connection: connection)
        self.folder = folder
        self.logger = logger
        switch folder.readAnnouncedPages() {
        case .valid(let stored): announcements = stored
        case .missing: announcements = PageAnnouncements()
        case .invalid(let reason):
            logger.error("ignoring \(reason); the current latest page may be announced again")
            announcements = PageAnnouncements()
        }
    }

    /// Subscribes (blocking, so the subscriptions are in place when this returns): the
    /// notification server's changes of owner and its signals, and the follower's reloads (from
    /// whoever owns `com.nobadi.DBMultiverse`: a restarted service is followed, a forged signal is
    /// not) and entries read (at start and when the service appears): new pages not yet announced
    /// are announced from those (no chapter notification for the state found at start).
    package func start() throws(DBusError) {
        subscriptions.append(try client.onServerChange { [unowned self] owner in
            serverOwnerChanged(owner)
        })
        subscriptions += try client.subscribe { [unowned self] signal in
            serverSignal(signal)
        }
        follower.follow(reloaded: { [unowned self] reload in timelinesReloaded(reload) }) { [unowned self] view in
            considerNewPages(view)
            withdrawAnnouncementIfCaughtUp(view.entry)
            sendPending()
        }
        try follower.start()
    }

    /// Cancels the subscriptions.
    package func stop() {
        for subscription in subscriptions { subscription.cancel() }
        subscriptions.removeAll()
        follower.stop()
    }

    // MARK: The widget

    private func timelinesReloaded(_ reload: TimelinesReload) {
        let view = reload.view
        switch reload.reason {
        case .chapterChange where view.chapterNotification == nil:
            logger.debug("chapter change to the placeholder: nothing to notify")
        case .chapterChange:
            pending[.chapter] = view
            considerNewPages(view, reading: true)
        case .pagesPublished:
            considerNewPages(view)
        default:
            logger.debug("reload of \(reload.kind) (\(reload.reason)): nothing to notify")
        }
        withdrawAnnouncementIfCaughtUp(view.entry)
        sendPending()
    }

    /// Takes the standing announcement down once the reader caught up (docs/notifications.md): the main
    /// story's entry, with a known latest page, counts no new page any more. In a special, or with
    /// no catalogue, nothing says the pages were read.
    private func withdrawAnnouncementIfCaughtUp(_ entry: ChapterEntry) {
        guard let standing = current[.pages], !entry.isPlaceholder, entry.universe == 0, entry.latestPage > 0,
              entry.newPages == 0 else { return }
        current[.pages] = nil // the next announcement is a new notification, not a replacement
        if activation?.id == standing.id { activation = nil }
        logger.info("the reader caught up: closing the announcement (notification \(standing.id))")
        observer?(.withdrew(id: standing.id))
        client.closeNotification(standing.id) { [unowned self] result in
            if case .failure(let error) = result, !WidgetFollower.meansNoServer(error) {
                reportOnce("close-\(error.name)", "CloseNotification failed: \(error)")
            }
        }
    }

    /// Applies the new-pages rule to `view`'s entry; stores what it remembers and queues an
    /// announcement. The file is written when the rule decides, not when the server shows it: a
    /// notifier that restarts before a server appears forgets that announcement rather than risk a
    /// second one.
    private func considerNewPages(_ view: EntryView, reading: Bool = false) {
        let entry = view.entry
        let decision = announcements.consider(entry, reading: reading)
        observer?(.newPages(decision, latestPage: entry.latestPage))
        switch decision {
        case .nothing:
            return
        case .remembered:
            logger.debug("latest page \(entry.latestPage) with the reader caught up or reading: nothing to announce")
            pending[.pages] = nil // an announcement still waiting for a server would be out of date
        case .announce:
            pending[.pages] = view
        }
        do {
            try folder.writeAnnouncedPages(announcements)
        } catch {
            reportOnce("announced-pages", "cannot remember the announced pages: \(error.message)")
        }
    }

    // MARK: Sending

    /// Sends the first pending notification, reading the capabilities first when they are unknown.
    private func sendPending() {
        guard !busy, let kind = Kind.allCases.first(where: { pending[$0] != nil }), let view = pending[kind] else { return }
        let generation = serverGeneration
        guard let capabilities else {
            busy = true
            client.getCapabilities { [unowned self] result in
                busy = false
                switch result {
                case .success(let list):
                    if generation == serverGeneration { capabilities = Set(list) }
                    sendPending()
                case .failure(let error) where WidgetFollower.meansNoServer(error):
                    serverMissing(since: generation)
                case .failure(let error):
                    // A server that can't say: send without actions, and ask again next time.
                    reportOnce(error.name, "GetCapabilities failed (\(error)); notifying without actions")
                    send(kind, view, capabilities: [], generation: generation)
                }
            }
            return
        }
        send(kind, view, capabilities: capabilities, generation: generation)
    }

    private func send(_ kind: Kind, _ view: EntryView, capabilities: Set<String>, generation: Int) {
        pending[kind] = nil
        let replacing = current[kind]?.id ?? 0
        let request: NotificationRequest, notification: EntryView.Notification
        switch kind {
        case .chapter:
            guard let chapter = view.chapterNotification else { return sendPending() }
            (request, notification) = (ChapterNotification.request(for: chapter, of: view, replacing: replacing, capabilities: capabilities), chapter)
        case .pages:
            guard let pages = view.newPagesNotification else { return sendPending() }
            (request, notification) = (PagesNotification.request(for: pages, of: view, replacing: replacing, capabilities: capabilities), pages)
        }
        busy = true
        client.notify(request) { [unowned self] result in
            busy = false
            switch result {
            case .success(let id) where generation == serverGeneration:
                current[kind] = (id, notification)
                if activation?.id != id { activation = nil }
                reportedMissingServer = false
                switch kind {
                case .chapter:
                    logger.info("notified chapter \(view.entry.chapter) (notification \(id))")
                    observer?(.notified(id: id))
                case .pages:
                    logger.info("announced \(view.entry.newPages) new pages up to page \(view.entry.latestPage) (notification \(id))")
                    observer?(.announced(id: id))
                }
            case .success:
                // Shown by a server that has since left the bus: the id means nothing now.
                break
            case .failure(let error) where WidgetFollower.meansNoServer(error):
                if pending[kind] == nil { pending[kind] = view }
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

    // MARK: The notification server

    private func serverOwnerChanged(_ owner: String?) {
        // Another server, or none: the old id and capabilities mean nothing any more.
        serverGeneration += 1
        capabilities = nil
        current = [:]
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

    /// Which of the standing notifications has `id` (never 0).
    private func kind(of id: UInt32) -> Kind? {
        guard id != 0 else { return nil }
        return Kind.allCases.first { current[$0]?.id == id }
    }

    private func serverSignal(_ signal: NotificationSignal) {
        switch signal {
        case .activationToken(let id, let token):
            guard kind(of: id) != nil else { return }
            activation = (id, token)
        case .actionInvoked(let id, let key):
            guard let kind = kind(of: id), let standing = current[kind], key == ChapterNotification.defaultAction else { return }
            let token = activation?.id == id ? activation?.token : nil
            activation = nil
            activate(standing.notification.action.action, token: token)
        case .notificationClosed(let id, let reason):
            guard let kind = kind(of: id) else { return }
            logger.debug("notification \(id) closed (\(reason))")
            current[kind] = nil
            if activation?.id == id { activation = nil }
            observer?(.forgot(id: id))
        }
    }

    /// `org.freedesktop.Application.ActivateAction(action, {"activation-token": token})` on the
    /// widget service (which D-Bus activation starts if needed).
    private func activate(_ action: ApplicationAction, token: String?) {
        logger.info("activating \(action.name) \(action.parameter.map(\.value))")
        observer?(.activated(action, token: token))
        connection.call(widget.activateAction(action, LaunchContext(activationToken: token))) { [logger] result in
            if case .failure(let error) = result {
                logger.error("cannot run \(action.name): \(error)")
            }
        }
    }

    private func reportOnce(_ key: String, _ text: String) {
        guard reportedErrors.insert(key).inserted else { return }
        logger.error("\(text)")
    }
}
