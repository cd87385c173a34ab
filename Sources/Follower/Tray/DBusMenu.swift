package import DBus

/// `com.canonical.dbusmenu` (libdbusmenu's protocol, version 3), the menu of a tray item. Hosts
/// reach it through libdbusmenu (Waybar, XFCE, the GNOME extension) or Qt's importer (Plasma), which
/// read the properties and use `AboutToShowGroup` and `GetGroupProperties` besides `GetLayout`.
///
/// Items have numeric ids (0 is the root) and properties of which only those differing from the
/// default are sent: `type` (`standard`; `separator`), `label` (`""`; an underscore marks the
/// access key, `__` is one underscore), `enabled` and `visible` (true), `icon-name` (`""`),
/// `children-display` (`""`; `submenu` for an item with children).
package enum DBusMenu: DBusInterface {
    package static let name: InterfaceName = "com.canonical.dbusmenu"
    package static let doc: String? = "A menu on the bus (libdbusmenu's protocol, version 3)."

    // MARK: Properties

    static let version = property("Version", UInt32.self, emits: .const, doc: "The protocol version: 3.")
    static let textDirection = property("TextDirection", String.self, emits: .const, doc: "ltr or rtl.")
    static let status = property("Status", String.self, doc: "normal, or notice when the menu should be shown with priority.")
    static let iconThemePath = property("IconThemePath", [String].self, emits: .const,
                                               doc: "Folders to look item icons up in besides the icon theme.")

    // MARK: Methods

    package static let getLayout = method(
        "GetLayout", inputs: (Arg<Int32>("parentId"), Arg<Int32>("recursionDepth"), Arg<[String]>("propertyNames")),
        outputs: (Arg<UInt32>("revision"), Arg<MenuLayout>("layout")),
        doc: "The item parentId (0: the root) with its children down to recursionDepth levels (-1: all), each with the properties named (none named: all).")
    package static let getGroupProperties = method(
        "GetGroupProperties", inputs: (Arg<[Int32]>("ids"), Arg<[String]>("propertyNames")),
        outputs: Arg<[MenuItemProperties]>("properties"),
        doc: "The properties named (none named: all) of the items ids (none: every item); unknown ids are left out.")
    static let getProperty = method(
        "GetProperty", inputs: (Arg<Int32>("id"), Arg<String>("name")), outputs: Arg<Variant>("value"),
        doc: "One property of one item (for debugging with command-line tools).")
    static let event = method(
        "Event", inputs: (Arg<Int32>("id"), Arg<String>("eventId"), Arg<Variant>("data"), Arg<UInt32>("timestamp")), outputs: (),
        doc: "Something happened to an item: clicked, hovered, opened or closed.")
    static let eventGroup = method(
        "EventGroup", inputs: Arg<[MenuEvent]>("events"), outputs: Arg<[Int32]>("idErrors"),
        doc: "Several events at once; returns the ids that were not found.")
    static let aboutToShow = method(
        "AboutToShow", inputs: Arg<Int32>("id"), outputs: Arg<Bool>("needUpdate"),
        doc: "The host is about to show the children of id; true when it should read the layout again first.")
    package static let aboutToShowGroup = method(
        "AboutToShowGroup", inputs: Arg<[Int32]>("ids"), outputs: (Arg<[Int32]>("updatesNeeded"), Arg<[Int32]>("idErrors")),
        doc: "AboutToShow for several items: those whose layout should be read again, and the ids not found.")

    // MARK: Signals

    static let itemsPropertiesUpdated = signal(
        "ItemsPropertiesUpdated", Arg<[MenuItemProperties]>("updatedProps"), Arg<[MenuItemRemovedProperties]>("removedProps"),
        doc: "Properties of items changed (updatedProps) or went back to their defaults (removedProps).")
    static let layoutUpdated = signal(
        "LayoutUpdated", Arg<UInt32>("revision"), Arg<Int32>("parent"),
        doc: "The items under parent (0: the whole menu) changed; the layout is now at revision.")
    static let itemActivationRequested = signal(
        "ItemActivationRequested", Arg<Int32>("id"), Arg<UInt32>("timestamp"),
        doc: "The application asks hosts to show the menu of id.")
}

/// A menu item and, recursively, its children: `(ia{sv}av)`, each child a `MenuLayout` in a variant.
package struct MenuLayout: DBusStructure, Equatable {
    var id: Int32
    var properties: [String: Variant]
    var children: [MenuLayout]

    init(id: Int32, properties: [String: Variant], children: [MenuLayout] = []) {
        self.id = id
        self.properties = properties
        self.children = children
    }

    package static let fields: [DBusField<MenuLayout>] = [.field(\.id), .field(\.properties), .variants(\.children)]
    package static var empty: MenuLayout { MenuLayout(id: 0, properties: [:]) }
}

/// An item's properties, `(ia{sv})`.
package struct MenuItemProperties: DBusStructure, Equatable {
    var id: Int32
    var properties: [String: Variant]

    init(id: Int32, properties: [String: Variant]) {
        self.id = id
        self.properties = properties
    }

    package static let fields: [DBusField<MenuItemProperties>] = [.field(\.id), .field(\.properties)]
    package static var empty: MenuItemProperties { MenuItemProperties(id: 0, properties: [:]) }
}

/// The names of an item's properties that went back to their defaults, `(ias)`.
struct MenuItemRemovedProperties: DBusStructure, Equatable {
    var id: Int32
    var names: [String]

    init(id: Int32, names: [String]) {
        self.id = id
        self.names = names
    }

    static let fields: [DBusField<MenuItemRemovedProperties>] = [.field(\.id), .field(\.names)]
    static var empty: MenuItemRemovedProperties { MenuItemRemovedProperties(id: 0, names: []) }
}

/// One event of `EventGroup`, `(isvu)`: item id, event name, data, timestamp.
struct MenuEvent: DBusStructure, Equatable {
    var id: Int32
    var eventID: String
    var data: Variant
    var timestamp: UInt32

    init(id: Int32, eventID: String, data: Variant, timestamp: UInt32) {
        self.id = id
        self.eventID = eventID
        self.data = data
        self.timestamp = timestamp
    }

    static let fields: [DBusField<MenuEvent>] = [.field(\.id), .field(\.eventID), .field(\.data), .field(\.timestamp)]
    static var empty: MenuEvent { MenuEvent(id: 0, eventID: "", data: Variant(Int32(0)), timestamp: 0) }
}
