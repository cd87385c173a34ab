import Widget
import DBus
import Follower

extension Bench {
    /// A 1×1 PNG: a cover for the notifier to decode for its tooltip.
    static let coverPNG: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53, 0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41,
        0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0x00, 0x00, 0x03, 0x01, 0x01, 0x00, 0xC9, 0xFE, 0x92, 0xEF, 0x00, 0x00, 0x00,
        0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    /// A stand-in `org.kde.StatusNotifierWatcher` on the bench's connection (started before the
    /// notifier, as a panel is at login), recording the tray item the notifier registers.
    func startStandInWatcher() throws {
        guard let server = notificationServer?.server else { throw BenchError("the notification server is not up") }
        trayWatcher = try server.export(Interface<StatusNotifierWatcher>(methods: [
            Method(StatusNotifierWatcher.registerStatusNotifierItem) { [unowned self] service in
                trayItem = try BusName(service)
                events.record("tray-registered")
            },
        ]), at: StatusNotifierWatcher.object.path)
        _ = try connection.requestNameBlocking(StatusNotifierWatcher.object.destination)
    }

    /// The tray item as a host uses it: after a chapter change with a cover (which the notifier
    /// decodes for the tooltip, loading libpng for the decode), Waybar's reads — GetAll of the
    /// item, GetLayout, GetGroupProperties, AboutToShowGroup — timed; so the notifier's memory and
    /// idle figures that follow include a tray that served a host.
    func measureTray() throws -> [Row] {
        guard notifierPID > 0, let item = trayItem else {
            return [Row(name: "tray item registered with the watcher", value: 0, unit: "", target: "registered", met: false)]
        }
        let itemObject = RemoteObject(destination: item, path: StatusNotifierItem.objectPath)
        let menuObject = RemoteObject(destination: item, path: TrayItem.menuPath)
        let subscription = try connection.subscribe(StatusNotifierItem.newToolTip, from: itemObject) { [events] in
            events.record("tray-tooltip")
        }
        defer { subscription.cancel() }
        let toolTip = latency(until: "tray-tooltip") {
            connection.call(widget.updateChapter(500, name: "With a cover", progress: 30, cover: Self.coverPNG).message) { _ in }
        }
        drainService()

        var getAll = Samples(), layout = Samples()
        let getAllCall = { Properties.getAll.call(on: itemObject, StatusNotifierItem.name.rawValue).message }
        let layoutCall = { DBusMenu.getLayout.call(on: menuObject, Int32(0), Int32(-1), [String]()).message }
        sequential(getAllCall, count: 200, into: &getAll, toService: false)
        sequential(layoutCall, count: 200, into: &layout, toService: false)
        _ = try call(DBusMenu.getGroupProperties.call(on: menuObject, [Int32](), [String]()))
        _ = try call(DBusMenu.aboutToShowGroup.call(on: menuObject, [Int32(0)]))
        return [
            Row(name: "chapter change with a cover → NewToolTip", value: Double(toolTip) / 1e6, unit: "ms (decode included)"),
            Row(name: "tray GetAll (item) / GetLayout (menu) p50", value: getAll.p50 / 1e3, unit: "µs / \(format(layout.p50 / 1e3)) µs"),
        ]
    }
}
