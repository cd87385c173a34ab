import ComicDomain
package import DBus
import Glibc
package import Logging
package import Widget

/// What the tray item did, for tests and diagnostics (delivered on the loop thread).
package enum TrayEvent: Sendable, Equatable {
    /// The watcher owned by `watcher` (a unique name) took the registration.
    case registered(watcher: String)
    /// No watcher on the bus: the item registers as soon as one appears.
    case watcherMissing
    /// The watcher answered the registration with an error.
    case registrationFailed(DBusError)
    /// The item shows `model` now; the signals hosts re-read on have been sent.
    case updated(TrayModel)
    /// A click asked the service for this (`nil`: `Activate`, the current chapter).
    case requested(ApplicationAction?)
    /// The service answered such a request with an error.
    case requestFailed(DBusError)
}

/// The tray item (docs/tray.md): an `org.kde.StatusNotifierItem` with a `com.canonical.dbusmenu`
/// menu, served on the notifier's connection, showing the widget's entry.
///
/// It owns `org.kde.StatusNotifierItem-<pid>-1` and registers that name with
/// `org.kde.StatusNotifierWatcher` (the specification's form, which every watcher takes; when the
/// name is taken, it registers its object path instead), again whenever the watcher changes owner
/// (a restarted panel, a host started later). It follows the widget service: `TimelinesReloaded`
/// carries each new entry, and a service that (re)starts is asked for its entry. Clicks go to the
/// service's `org.freedesktop.Application`, as the desktop file's do.
///
/// Confined to its connection's loop thread; everything is a callback of that loop (no `Task`, no
/// timer), so an idle tray makes no wake-ups.
package final class TrayItem {
    /// The item's `Id`: the application's id, as the desktop file and the icon are named.
    static let itemID = "com.nobadi.DBMultiverse"
    /// Where the menu is served (the path Qt and KDE applications use).
    package static let menuPath: ObjectPath = "/MenuBar"

    let connection: Connection
    private let server: ObjectServer
    private let widget = WidgetClient()
    /// The widget service as this process follows it (shared with the notifier).
    private let follower: WidgetFollower
    private let iconThemePath: String
    private let logger: Logger
    private var exportedItem: ExportedInterface<StatusNotifierItem>?
    private var exportedMenu: ExportedInterface<DBusMenu>?
    private var subscriptions: [Connection.SignalSubscription] = []
    /// The name registered with the watcher; nil when the object path is registered instead.
    private var busName: BusName?

    /// Nothing read yet shows as the placeholder: passive, so hosts that hide passive items wait.
    private var model = TrayModel(.placeholder(family: .medium, date: 0))
    /// Whether `model` shows a view the service published (the placeholder above is the tray's own).
    private var showsPublished = false
    private var menu: ServedMenu
    /// The cover file the tooltip shows and its pixmap (nil when it does not decode).
    private var cover: (file: FileIdentity, pixmap: IconPixmap?)?
    /// The activation token a host handed over for the next click (`ProvideXdgActivationToken`).
    private var activationToken: String?
    /// Log lines already written once, by kind.
    private var reported: Set<String> = []

    /// Observes what the tray does (tests wait on it instead of sleeping).
    package var observer: ((TrayEvent) -> Void)?

    /// - Parameters:
    ///   - iconThemePath: a folder with the icon (`IconThemePath`), "" when the icon is installed
    ///     where icon themes are looked up anyway.
    ///   - follower: how the process follows the service; the tray's own, which starts the service
    ///     by D-Bus activation as a desktop would, when nil.
    package init(server: ObjectServer, iconThemePath: String = "", follower: WidgetFollower? = nil, logger: Logger = Logger(label: "dbmultiverse.tray")) {
        self.server = server
        connection = server.connection
        self.follower = follower ?? WidgetFollower(connection: server.connection, activatesService: true, logger: logger)
        self.iconThemePath = iconThemePath
        self.logger = logger
        menu = ServedMenu(items: model.menu)
    }

    /// Exports the item and its menu, owns the item's name, and follows the watcher and the widget
    /// service (blocking, so all is in place when this returns); then asks the service for its
    /// entry and registers with the watcher, without waiting for either.
    package func start() throws(DBusError) {
        exportedItem = try server.export(itemInterface, at: StatusNotifierItem.objectPath)
        exportedMenu = try server.export(menuInterface, at: Self.menuPath)
        let name = try BusName("org.kde.StatusNotifierItem-\(getpid())-1")
        if try connection.requestNameBlocking(name) == .primaryOwner {
            busName = name
        } else {
            logger.info("\(name) is taken; registering the tray item by its object path")
        }
        subscriptions.append(try connection.onOwnerChange(of: StatusNotifierWatcher.object.destination) { [unowned self] owner in
            guard let owner else {
                logger.info("the tray host's watcher left the bus")
                return
            }
            logger.info("tray host watcher \(owner) on the bus")
            register()
        })
        follower.follow(reloaded: { [unowned self] reload in show(reload.view) }) { [unowned self] view in show(view) }
        try follower.start()
        register()
    }

    /// Cancels the subscriptions, stops serving the item and its menu, and gives up its name.
    package func stop() {
        for subscription in subscriptions { subscription.cancel() }
        subscriptions.removeAll()
        follower.stop()
        exportedItem?.unexport()
        exportedMenu?.unexport()
        exportedItem = nil
        exportedMenu = nil
        if let busName, connection.isConnected { connection.releaseNameBlocking(busName) }
        busName = nil
    }

    // MARK: Registering

    /// `RegisterStatusNotifierItem` with the current watcher, if any (never starting one).
    private func register() {
        let service = busName?.rawValue ?? StatusNotifierItem.objectPath.rawValue
        let call = StatusNotifierWatcher.registerStatusNotifierItem.call(on: StatusNotifierWatcher.object, service).withoutActivation()
        // The reply's sender is the watcher's unique name: which instance took the registration.
        connection.call(call.message) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let reply):
                reported.remove("no-watcher")
                let watcher = reply.sender ?? ""
                logger.info("tray item \(service) registered with the tray host's watcher \(watcher)")
                observer?(.registered(watcher: watcher))
            case .failure(let error) where WidgetFollower.meansNoServer(error):
                if reported.insert("no-watcher").inserted {
                    logger.info("no tray host on the bus (org.kde.StatusNotifierWatcher); the tray item will register when one starts")
                }
                observer?(.watcherMissing)
            case .failure(let error):
                reportOnce("register-\(error.name)", "the tray host refused the tray item: \(error)")
                observer?(.registrationFailed(error))
            }
        }
    }

    // MARK: The entry

    /// Shows the service's `view`, unless its revision says the item shows it already; then tells
    /// the hosts what to read again.
    private func show(_ view: EntryView) {
        guard !showsPublished || view.revision != model.revision else { return }
        showsPublished = true
        let shown = TrayModel(view)
        let previous = model
        model = shown
        let coverChanged = refreshCover()
        if shown.status != previous.status { exportedItem?.emit(StatusNotifierItem.newStatus, shown.status.rawValue) }
        if shown.toolTipText != previous.toolTipText || coverChanged { exportedItem?.emit(StatusNotifierItem.newToolTip) }
        switch menu.update(to: shown.menu) {
        case .none: break
        case .layout(let revision): exportedMenu?.emit(DBusMenu.layoutUpdated, revision, ServedMenu.rootID)
        case .properties(let updated, let removed): exportedMenu?.emit(DBusMenu.itemsPropertiesUpdated, updated, removed)
        }
        observer?(.updated(shown))
    }

    /// Decodes the cover again when its file changed; true when the tooltip's pixmap changed.
    private func refreshCover() -> Bool {
        let file = FileIdentity(path: model.coverPath)
        guard file != cover?.file else { return false }
        let before = cover?.pixmap
        guard let file else {
            cover = nil
            return before != nil
        }
        do {
            cover = (file, try CoverPixmap.decode(path: model.coverPath))
        } catch {
            // Kept with no pixmap, so the same file is not decoded again at every reload.
            cover = (file, nil)
            logger.warning("the tooltip shows no cover: \(error.message)")
        }
        return cover?.pixmap != before
    }

    // MARK: Serving the item

    /// The tooltip: the cover when there is one (then without an icon name, which hosts would
    /// prefer to the pixmap), the title, and the view's tooltip escaped for markup.
    private var toolTip: ToolTip {
        let pixmaps = cover?.pixmap.map { [$0] } ?? []
        return ToolTip(iconName: pixmaps.isEmpty ? WidgetBus.iconName : "", iconPixmaps: pixmaps,
                       title: TrayModel.title, text: escapedForMarkup(model.toolTipText))
    }

    private var itemInterface: Interface<StatusNotifierItem> {
        Interface(
            methods: [
                Method(StatusNotifierItem.activate) { [unowned self] _, _ in
                    request(nil)
                },
                // Hosts show the Menu object themselves; the other gestures mean nothing here.
                Method(StatusNotifierItem.contextMenu) { [unowned self] _, _ in
                    logger.debug("ContextMenu: nothing to do (the menu is the Menu object)")
                },
                Method(StatusNotifierItem.secondaryActivate) { [unowned self] _, _ in
                    logger.debug("SecondaryActivate: nothing to do")
                },
                Method(StatusNotifierItem.scroll) { [unowned self] _, _ in
                    logger.debug("Scroll: nothing to do")
                },
                Method(StatusNotifierItem.provideXdgActivationToken) { [unowned self] token in
                    activationToken = token
                },
            ],
            properties: [
                Property(StatusNotifierItem.category) { "ApplicationStatus" },
                Property(StatusNotifierItem.id) { Self.itemID },
                Property(StatusNotifierItem.title) { TrayModel.title },
                Property(StatusNotifierItem.status) { [unowned self] in model.status.rawValue },
                Property(StatusNotifierItem.windowID) { 0 },
                Property(StatusNotifierItem.iconName) { WidgetBus.iconName },
                Property(StatusNotifierItem.iconPixmap) { [] },
                Property(StatusNotifierItem.overlayIconName) { "" },
                Property(StatusNotifierItem.overlayIconPixmap) { [] },
                Property(StatusNotifierItem.attentionIconName) { "" },
                Property(StatusNotifierItem.attentionIconPixmap) { [] },
                Property(StatusNotifierItem.attentionMovieName) { "" },
                Property(StatusNotifierItem.toolTip) { [unowned self] in toolTip },
                Property(StatusNotifierItem.itemIsMenu) { false },
                Property(StatusNotifierItem.menu) { Self.menuPath },
                Property(StatusNotifierItem.iconThemePath) { [unowned self] in iconThemePath },
            ],
            signals: StatusNotifierItem.newTitle, StatusNotifierItem.newIcon, StatusNotifierItem.newAttentionIcon,
            StatusNotifierItem.newOverlayIcon, StatusNotifierItem.newToolTip, StatusNotifierItem.newStatus,
            StatusNotifierItem.newIconThemePath
        )
    }

    // MARK: Serving the menu

    private var menuInterface: Interface<DBusMenu> {
        Interface(
            methods: [
                Method(DBusMenu.getLayout) { [unowned self] parent, depth, names in
                    (menu.revision, try menu.layout(parent: parent, depth: depth, names: names))
                },
                Method(DBusMenu.getGroupProperties) { [unowned self] ids, names in
                    menu.groupProperties(ids: ids, names: names)
                },
                Method(DBusMenu.getProperty) { [unowned self] id, name in
                    try menu.property(name, of: id)
                },
                Method(DBusMenu.event) { [unowned self] id, eventID, _, _ in
                    guard menu.contains(id) else { throw DBusError.invalidArgs("no menu item with id \(id)") }
                    menuEvent(eventID, on: id)
                },
                Method(DBusMenu.eventGroup) { [unowned self] events in
                    for event in events where menu.contains(event.id) { menuEvent(event.eventID, on: event.id) }
                    return events.map(\.id).filter { !menu.contains($0) }
                },
                // The menu is always up to date: no item needs its layout read again.
                Method(DBusMenu.aboutToShow) { [unowned self] id in
                    guard menu.contains(id) else { throw DBusError.invalidArgs("no menu item with id \(id)") }
                    logger.debug("menu about to show")
                    return false
                },
                Method(DBusMenu.aboutToShowGroup) { [unowned self] ids in
                    logger.debug("menu about to show")
                    return ([], ids.filter { !menu.contains($0) })
                },
            ],
            properties: [
                Property(DBusMenu.version) { 3 },
                Property(DBusMenu.textDirection) { "ltr" },
                Property(DBusMenu.status) { "normal" },
                Property(DBusMenu.iconThemePath) { [unowned self] in iconThemePath.isEmpty ? [] : [iconThemePath] },
            ],
            signals: DBusMenu.itemsPropertiesUpdated, DBusMenu.layoutUpdated, DBusMenu.itemActivationRequested
        )
    }

    /// `clicked` runs the item's action; `opened` and `closed` (of the root) and `hovered` only log.
    private func menuEvent(_ eventID: String, on id: Int32) {
        switch eventID {
        case "clicked":
            guard let action = menu.action(of: id) else { return }
            request(action)
        case "opened", "closed":
            logger.debug("menu \(eventID)")
        default:
            break
        }
    }

    // MARK: Requests to the service

    /// Asks the service to run `action` (nil: `Activate`), handing over the host's activation token.
    private func request(_ action: ApplicationAction?) {
        let launch = LaunchContext(activationToken: activationToken)
        activationToken = nil
        logger.info("tray: \(action.map { "\($0)" } ?? "activate")")
        observer?(.requested(action))
        connection.call(call(for: action, launch)) { [weak self] result in
            guard let self, case .failure(let error) = result else { return }
            logger.error("the widget service could not open it: \(error)")
            observer?(.requestFailed(error))
        }
    }

    private func call(for action: ApplicationAction?, _ launch: LaunchContext) -> MethodCall<Void> {
        guard let action else { return widget.activate(launch) }
        return widget.activateAction(action, launch)
    }

    private func reportOnce(_ key: String, _ text: String) {
        guard reported.insert(key).inserted else { return }
        logger.warning("\(text)")
    }
}
