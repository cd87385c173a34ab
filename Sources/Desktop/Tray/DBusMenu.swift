public import DBus

/// `com.canonical.dbusmenu` (libdbusmenu's protocol, version 3), the menu of a tray item. Hosts
/// reach it through libdbusmenu (Waybar, XFCE, the GNOME extension) or Qt's importer (Plasma), which
/// read the properties and use `AboutToShowGroup` and `GetGroupProperties` besides `GetLayout`.
///
/// Items have numeric ids (0 is the root) and properties of which only those differing from the
/// default are sent: `type` (`standard`; `separator`), `label` (`""`; an underscore marks the
/// access key, `__` is one underscore), `enabled` and `visible` (true), `icon-name` (`""`),
/// `children-display` (`""`; `submenu` for an item with children).
public enum DBusMenu: DBusInterface {
    public static let name: InterfaceName = "com.canonical.dbusmenu"
    public static let doc: String? = "A menu on the bus (libdbusmenu's protocol, version 3)."

    // MARK: Properties

    public static let version = property("Version", UInt32.self, emits: .const, doc: "The protocol version: 3.")
    public static let textDirection = property("TextDirection", String.self, emits: .const, doc: "ltr or rtl.")
    public static let status = property("Status", String.self, doc: "normal, or notice when the menu should be shown with priority.")
    public static let iconThemePath = property("IconThemePath", [String].self, emits: .const,
                                               doc: "Folders to look item icons up in besides the icon theme.")

    // MARK: Methods

    public static let getLayout = method(
        "GetLayout", inputs: (Arg<Int32>("parentId"), Arg<Int32>("recursionDepth"), Arg<[String]>("propertyNames")),
        outputs: (Arg<UInt32>("revision"), Arg<MenuLayout>("layout")),
        doc: "The item parentId (0: the root) with its children down to recursionDepth levels (-1: all), each with the properties named (none named: all).")
    public static let getGroupProperties = method(
        "GetGroupProperties", inputs: (Arg<[Int32]>("ids"), Arg<[String]>("propertyNames")),
        outputs: Arg<[MenuItemProperties]>("properties"),
        doc: "The properties named (none named: all) of the items ids (none: every item); unknown ids are left out.")
    public static let getProperty = method(
        "GetProperty", inputs: (Arg<Int32>("id"), Arg<String>("name")), outputs: Arg<Variant>("value"),
        doc: "One property of one item (for debugging with command-line tools).")
    public static let event = method(
        "Event", inputs: (Arg<Int32>("id"), Arg<String>("eventId"), Arg<Variant>("data"), Arg<UInt32>("timestamp")), outputs: (),
        doc: "Something happened to an item: clicked, hovered, opened or closed.")
    public static let eventGroup = method(
        "EventGroup", inputs: Arg<[MenuEvent]>("events"), outputs: Arg<[Int32]>("idErrors"),
        doc: "Several events at once; returns the ids that were not found.")
    public static let aboutToShow = method(
        "AboutToShow", inputs: Arg<Int32>("id"), outputs: Arg<Bool>("needUpdate"),
        doc: "The host is about to show the children of id; true when it should read the layout again first.")
    public static let aboutToShowGroup = method(
        "AboutToShowGroup", inputs: Arg<[Int32]>("ids"), outputs: (Arg<[Int32]>("updatesNeeded"), Arg<[Int32]>("idErrors")),
        doc: "AboutToShow for several items: those whose layout should be read again, and the ids not found.")

    // MARK: Signals

    public static let itemsPropertiesUpdated = signal(
        "ItemsPropertiesUpdated", Arg<[MenuItemProperties]>("updatedProps"), Arg<[MenuItemRemovedProperties]>("removedProps"),
        doc: "Properties of items changed (updatedProps) or went back to their defaults (removedProps).")
    public static let layoutUpdated = signal(
        "LayoutUpdated", Arg<UInt32>("revision"), Arg<Int32>("parent"),
        doc: "The items under parent (0: the whole menu) changed; the layout is now at revision.")
    public static let itemActivationRequested = signal(
        "ItemActivationRequested", Arg<Int32>("id"), Arg<UInt32>("timestamp"),
        doc: "The application asks hosts to show the menu of id.")
}

/// A menu item and, recursively, its children: `(ia{sv}av)`, each child a `MenuLayout` in a variant.
public struct MenuLayout: DBusStructure, Equatable {
    public var id: Int32
    public var properties: [String: Variant]
    public var children: [MenuLayout]

    public init(id: Int32, properties: [String: Variant], children: [MenuLayout] = []) {
        self.id = id
        self.properties = properties
        self.children = children
    }

    public static let fields: [DBusField<MenuLayout>] = [.field(\.id), .field(\.properties), .variants(\.children)]
    public static var empty: MenuLayout { MenuLayout(id: 0, properties: [:]) }
}

/// An item's properties, `(ia{sv})`.
public struct MenuItemProperties: DBusStructure, Equatable {
    public var id: Int32
    public var properties: [String: Variant]

    public init(id: Int32, properties: [String: Variant]) {
        self.id = id
        self.properties = properties
    }

    public static let fields: [DBusField<MenuItemProperties>] = [.field(\.id), .field(\.properties)]
    public static var empty: MenuItemProperties { MenuItemProperties(id: 0, properties: [:]) }
}

/// The names of an item's properties that went back to their defaults, `(ias)`.
public struct MenuItemRemovedProperties: DBusStructure, Equatable {
    public var id: Int32
    public var names: [String]

    public init(id: Int32, names: [String]) {
        self.id = id
        self.names = names
    }

    public static let fields: [DBusField<MenuItemRemovedProperties>] = [.field(\.id), .field(\.names)]
    public static var empty: MenuItemRemovedProperties { MenuItemRemovedProperties(id: 0, names: []) }
}

/// One event of `EventGroup`, `(isvu)`: item id, event name, data, timestamp.
public struct MenuEvent: DBusStructure, Equatable {
    public var id: Int32
    public var eventID: String
    public var data: Variant
    public var timestamp: UInt32

    public init(id: Int32, eventID: String, data: Variant, timestamp: UInt32) {
        self.id = id
        self.eventID = eventID
        self.data = data
        self.timestamp = timestamp
    }

    public static let fields: [DBusField<MenuEvent>] = [.field(\.id), .field(\.eventID), .field(\.data), .field(\.timestamp)]
    public static var empty: MenuEvent { MenuEvent(id: 0, eventID: "", data: Variant(Int32(0)), timestamp: 0) }
}
