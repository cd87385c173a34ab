/// `org.freedesktop.DBus.Peer`, which every object has (libdbus answers it).
package enum Peer: DBusInterface {
    package static let name: InterfaceName = "org.freedesktop.DBus.Peer"
    package static let ping = method("Ping", inputs: (), outputs: ())
    static let getMachineID = method("GetMachineId", inputs: (), outputs: Arg<String>("machine_uuid"))
}

/// `org.freedesktop.DBus.Introspectable`, which every object has (the object server answers it).
package enum Introspectable: DBusInterface {
    package static let name: InterfaceName = "org.freedesktop.DBus.Introspectable"
    package static let introspect = method("Introspect", inputs: (), outputs: Arg<String>("xml_data"))
}

/// `org.freedesktop.DBus.Properties`, which every object has (the object server answers it from
/// the bound properties).
package enum Properties: DBusInterface {
    package static let name: InterfaceName = "org.freedesktop.DBus.Properties"
    package static let get = method(
        "Get", inputs: (Arg<String>("interface_name"), Arg<String>("property_name")), outputs: Arg<Variant>("value"))
    package static let getAll = method(
        "GetAll", inputs: Arg<String>("interface_name"), outputs: Arg<[String: Variant]>("properties"))
    package static let set = method(
        "Set", inputs: (Arg<String>("interface_name"), Arg<String>("property_name"), Arg<Variant>("value")), outputs: ())
    static let propertiesChanged = signal(
        "PropertiesChanged", Arg<String>("interface_name"), Arg<[String: Variant]>("changed_properties"),
        Arg<[String]>("invalidated_properties"))
}

/// `org.freedesktop.DBus`, the bus itself (the members this package uses).
package enum BusDriver: DBusInterface {
    package static let name: InterfaceName = "org.freedesktop.DBus"
    /// The bus's own name and object, as the destination of its methods and the sender of its signals.
    package static let object = RemoteObject(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus")

    package static let getID = method("GetId", inputs: (), outputs: Arg<String>("id"))
    package static let getNameOwner = method("GetNameOwner", inputs: Arg<String>("name"), outputs: Arg<String>("owner"))
    package static let nameHasOwner = method("NameHasOwner", inputs: Arg<String>("name"), outputs: Arg<Bool>("has_owner"))
    package static let requestName = method(
        "RequestName", inputs: (Arg<String>("name"), Arg<UInt32>("flags")), outputs: Arg<UInt32>("reply"))
    static let releaseName = method("ReleaseName", inputs: Arg<String>("name"), outputs: Arg<UInt32>("reply"))
    package static let addMatch = method("AddMatch", inputs: Arg<String>("rule"), outputs: ())
    package static let listNames = method("ListNames", inputs: (), outputs: Arg<[String]>("names"))
    /// The names the bus can start (those with an activation file in its service folders).
    package static let listActivatableNames = method("ListActivatableNames", inputs: (), outputs: Arg<[String]>("activatable_names"))
    package static let getConnectionUnixProcessID = method(
        "GetConnectionUnixProcessID", inputs: Arg<String>("name"), outputs: Arg<UInt32>("pid"))
    /// `name` changed owner; an empty `newOwner` means it has none now.
    package static let nameOwnerChanged = signal(
        "NameOwnerChanged", Arg<String>("name"), Arg<String>("old_owner"), Arg<String>("new_owner"))
}

extension InterfaceDescription {
    /// The standard interfaces every exported object has, for introspection.
    static let peer = InterfaceDescription(Peer.self, methods: [Peer.ping.info, Peer.getMachineID.info])
    static let introspectable = InterfaceDescription(Introspectable.self, methods: [Introspectable.introspect.info])
    static let properties = InterfaceDescription(
        Properties.self, methods: [Properties.get.info, Properties.getAll.info, Properties.set.info],
        signals: [Properties.propertiesChanged.info])
}
