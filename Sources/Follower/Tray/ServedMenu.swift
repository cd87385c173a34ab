import DBus
import Widget

/// The tray's menu as `com.canonical.dbusmenu` serves it: the root (id 0) and the items of the
/// model, each with the properties that differ from the protocol's defaults; the layout's revision;
/// and, from one menu to the next, what hosts must be told. A value: answered and tested without a bus.
struct ServedMenu: Sendable, Equatable {
    static let rootID: Int32 = 0

    private(set) var items: [TrayMenuItem]
    /// Moves on at every change of the items' ids or order (`LayoutUpdated`).
    private(set) var revision: UInt32 = 1

    init(items: [TrayMenuItem]) { self.items = items }

    /// What hosts must be told after `update`.
    enum Change: Sendable, Equatable {
        case none
        /// Items came or went: `LayoutUpdated(revision, 0)`, and hosts read the layout again.
        case layout(revision: UInt32)
        /// The same items with other properties: `ItemsPropertiesUpdated(updated, removed)`.
        case properties(updated: [MenuItemProperties], removed: [MenuItemRemovedProperties])
    }

    /// Replaces the items with `newItems`.
    mutating func update(to newItems: [TrayMenuItem]) -> Change {
        let old = items
        items = newItems
        guard old.map(\.id) == newItems.map(\.id) else {
            revision &+= 1
            return .layout(revision: revision)
        }
        var updated: [MenuItemProperties] = []
        var removed: [MenuItemRemovedProperties] = []
        for (before, after) in zip(old, newItems) {
            let was = Self.properties(of: before), now = Self.properties(of: after)
            let changed = now.filter { was[$0.key] != $0.value }
            let gone = was.keys.filter { now[$0] == nil }.sorted()
            if !changed.isEmpty { updated.append(MenuItemProperties(id: after.id, properties: changed)) }
            if !gone.isEmpty { removed.append(MenuItemRemovedProperties(id: after.id, names: gone)) }
        }
        return updated.isEmpty && removed.isEmpty ? .none : .properties(updated: updated, removed: removed)
    }

    // MARK: Reading

    /// Whether `id` is the root or one of the items.
    func contains(_ id: Int32) -> Bool { id == Self.rootID || item(id) != nil }

    /// What clicking `id` does (nil for the root, a separator, the header, or an unknown id).
    func action(of id: Int32) -> ApplicationAction? { item(id)?.action }

    /// `GetLayout`: the item `parent` with its children down to `depth` levels (-1: all), each
    /// with the properties in `names` (empty: all). An unknown parent is `InvalidArgs`.
    func layout(parent: Int32, depth: Int32, names: [String]) throws(DBusError) -> MenuLayout {
        if parent == Self.rootID {
            let children = depth == 0 ? [] : items.map { MenuLayout(id: $0.id, properties: Self.filtered(Self.properties(of: $0), names)) }
            return MenuLayout(id: Self.rootID, properties: Self.filtered(Self.rootProperties, names), children: children)
        }
        guard let item = item(parent) else { throw Self.unknown(parent) }
        return MenuLayout(id: item.id, properties: Self.filtered(Self.properties(of: item), names))
    }

    /// `GetGroupProperties`: the properties in `names` (empty: all) of the items `ids` (empty:
    /// the root and every item), leaving out unknown ids.
    func groupProperties(ids: [Int32], names: [String]) -> [MenuItemProperties] {
        let wanted = ids.isEmpty ? [Self.rootID] + items.map(\.id) : ids
        return wanted.compactMap { id in
            guard let properties = properties(of: id) else { return nil }
            return MenuItemProperties(id: id, properties: Self.filtered(properties, names))
        }
    }

    /// `GetProperty`: one property of one item; an unknown id or a property the item does not
    /// have is `InvalidArgs` (the protocol sends no default values).
    func property(_ name: String, of id: Int32) throws(DBusError) -> Variant {
        guard let properties = properties(of: id) else { throw Self.unknown(id) }
        guard let value = properties[name] else {
            throw DBusError.invalidArgs("menu item \(id) has no property '\(name)' (it has its default value)")
        }
        return value
    }

    // MARK: Properties

    private func item(_ id: Int32) -> TrayMenuItem? { items.first { $0.id == id } }

    private func properties(of id: Int32) -> [String: Variant]? {
        if id == Self.rootID { return Self.rootProperties }
        return item(id).map(Self.properties(of:))
    }

    /// Built per call, not kept in a `static let`: a global holding a `Variant` is reported by
    /// LeakSanitizer at exit (it cannot follow `DBusValue`'s tagged pointer to its indirect case's box).
    private static var rootProperties: [String: Variant] { ["children-display": Variant("submenu")] }

    /// Only what differs from the defaults (`type` standard, `enabled` true, …).
    static func properties(of item: TrayMenuItem) -> [String: Variant] {
        switch item.kind {
        case .separator:
            return ["type": Variant("separator")]
        case .label(let text):
            var properties = ["label": Variant(accessKeysEscaped(text))]
            if item.action == nil { properties["enabled"] = Variant(false) }
            return properties
        }
    }

    /// `text` with each `_` doubled: the protocol reads a single underscore as an access-key mark.
    static func accessKeysEscaped(_ text: String) -> String {
        text.contains("_") ? text.replacing("_", with: "__") : text
    }

    private static func filtered(_ properties: [String: Variant], _ names: [String]) -> [String: Variant] {
        names.isEmpty ? properties : properties.filter { names.contains($0.key) }
    }

    private static func unknown(_ id: Int32) -> DBusError {
        DBusError.invalidArgs("no menu item with id \(id)")
    }
}
