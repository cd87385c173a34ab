package import DBus

/// `org.kde.StatusNotifierItem` (freedesktop.org's Status Notifier Item specification, with the
/// KDE extensions real hosts use: `IconThemePath`, `NewIconThemePath`, `ProvideXdgActivationToken`),
/// declared once: the tray serves it, the tests call it.
///
/// Hosts learn of changes from the `New…` signals and then re-read the properties (`GetAll`), not
/// from `PropertiesChanged`: the properties are declared as not signalled that way.
package enum StatusNotifierItem: DBusInterface {
    package static let name: InterfaceName = "org.kde.StatusNotifierItem"
    package static let doc: String? = "A tray item (freedesktop.org Status Notifier Item specification)."
    /// Where an item registered by its bus name lives: the path every watcher assumes for one.
    package static let objectPath: ObjectPath = "/StatusNotifierItem"

    // MARK: Properties

    static let category = property("Category", String.self, emits: .const,
                                          doc: "ApplicationStatus, Communications, SystemServices or Hardware.")
    static let id = property("Id", String.self, emits: .const, doc: "A name unique to the application, the same across sessions.")
    static let title = property("Title", String.self, emits: .none, doc: "The item's name (NewTitle when it changes).")
    static let status = property("Status", String.self, emits: .none, doc: "Passive, Active or NeedsAttention (NewStatus).")
    static let windowID = property("WindowId", Int32.self, emits: .const, doc: "The X11 window of the application, or 0.")
    static let iconName = property("IconName", String.self, emits: .none, doc: "A freedesktop.org icon name (NewIcon).")
    static let iconPixmap = property("IconPixmap", [IconPixmap].self, emits: .none, doc: "The icon as ARGB32 pixmaps (NewIcon).")
    static let overlayIconName = property("OverlayIconName", String.self, emits: .none)
    static let overlayIconPixmap = property("OverlayIconPixmap", [IconPixmap].self, emits: .none)
    static let attentionIconName = property("AttentionIconName", String.self, emits: .none)
    static let attentionIconPixmap = property("AttentionIconPixmap", [IconPixmap].self, emits: .none)
    static let attentionMovieName = property("AttentionMovieName", String.self, emits: .none)
    static let toolTip = property("ToolTip", ToolTip.self, emits: .none, doc: "Icon, title and text of the tooltip (NewToolTip).")
    static let itemIsMenu = property("ItemIsMenu", Bool.self, emits: .const,
                                            doc: "True when the item only offers its menu (a click then shows the menu).")
    static let menu = property("Menu", ObjectPath.self, emits: .const, doc: "The com.canonical.dbusmenu object of the item's menu.")
    static let iconThemePath = property("IconThemePath", String.self, emits: .none,
                                               doc: "KDE extension: a folder to look the icon names up in besides the icon theme.")

    // MARK: Methods

    static let contextMenu = method(
        "ContextMenu", inputs: (Arg<Int32>("x"), Arg<Int32>("y")), outputs: (),
        doc: "Asks the item to show its own context menu at x, y (hosts that show Menu themselves never call it).")
    static let activate = method(
        "Activate", inputs: (Arg<Int32>("x"), Arg<Int32>("y")), outputs: (), doc: "The primary action (a left click).")
    static let secondaryActivate = method(
        "SecondaryActivate", inputs: (Arg<Int32>("x"), Arg<Int32>("y")), outputs: (), doc: "The secondary action (a middle click).")
    static let scroll = method(
        "Scroll", inputs: (Arg<Int32>("delta"), Arg<String>("orientation")), outputs: (),
        doc: "A scroll on the item; orientation is horizontal or vertical.")
    static let provideXdgActivationToken = method(
        "ProvideXdgActivationToken", inputs: Arg<String>("token"), outputs: (),
        doc: "KDE extension: the Wayland activation token for the window the next activation opens.")

    // MARK: Signals

    static let newTitle = signal("NewTitle")
    static let newIcon = signal("NewIcon")
    static let newAttentionIcon = signal("NewAttentionIcon")
    static let newOverlayIcon = signal("NewOverlayIcon")
    package static let newToolTip = signal("NewToolTip")
    static let newStatus = signal("NewStatus", Arg<String>("status"))
    static let newIconThemePath = signal("NewIconThemePath", Arg<String>("icon_theme_path"))
}

/// An image as the specification carries it, `(iiay)`: width, height, and `width × height` pixels
/// of ARGB32 in network byte order (bytes A, R, G, B).
struct IconPixmap: DBusStructure, Equatable {
    var width: Int32
    var height: Int32
    var argb: [UInt8]

    init(width: Int32, height: Int32, argb: [UInt8]) {
        self.width = width
        self.height = height
        self.argb = argb
    }

    static let fields: [DBusField<IconPixmap>] = [.field(\.width), .field(\.height), .field(\.argb)]
    static var empty: IconPixmap { IconPixmap(width: 0, height: 0, argb: []) }
}

/// The `ToolTip` property, `(sa(iiay)ss)`: an icon name, icon pixmaps, a title, and a text that
/// hosts show as markup (Waybar and Plasma do).
struct ToolTip: DBusStructure, Equatable {
    var iconName: String
    var iconPixmaps: [IconPixmap]
    var title: String
    var text: String

    init(iconName: String, iconPixmaps: [IconPixmap], title: String, text: String) {
        self.iconName = iconName
        self.iconPixmaps = iconPixmaps
        self.title = title
        self.text = text
    }

    static let fields: [DBusField<ToolTip>] = [.field(\.iconName), .field(\.iconPixmaps), .field(\.title), .field(\.text)]
    static var empty: ToolTip { ToolTip(iconName: "", iconPixmaps: [], title: "", text: "") }
}

/// `org.kde.StatusNotifierWatcher`, where items register and hosts find them. It belongs to the
/// host (Plasma, Waybar, the GNOME extension, XFCE's plugin), not to us.
package enum StatusNotifierWatcher: DBusInterface {
    package static let name: InterfaceName = "org.kde.StatusNotifierWatcher"
    package static let object = RemoteObject(destination: "org.kde.StatusNotifierWatcher", path: "/StatusNotifierWatcher")

    /// `service` is a bus name (the item is at `/StatusNotifierItem`) or an object path (on the
    /// caller's connection).
    package static let registerStatusNotifierItem = method("RegisterStatusNotifierItem", inputs: Arg<String>("service"), outputs: ())
    package static let registerStatusNotifierHost = method("RegisterStatusNotifierHost", inputs: Arg<String>("service"), outputs: ())

    /// Each registered item as `<bus name><object path>`.
    package static let registeredStatusNotifierItems = property("RegisteredStatusNotifierItems", [String].self)
    package static let isStatusNotifierHostRegistered = property("IsStatusNotifierHostRegistered", Bool.self)
    package static let protocolVersion = property("ProtocolVersion", Int32.self)

    package static let statusNotifierItemRegistered = signal("StatusNotifierItemRegistered", Arg<String>("service"))
    package static let statusNotifierItemUnregistered = signal("StatusNotifierItemUnregistered", Arg<String>("service"))
    package static let statusNotifierHostRegistered = signal("StatusNotifierHostRegistered")
    package static let statusNotifierHostUnregistered = signal("StatusNotifierHostUnregistered")
}
