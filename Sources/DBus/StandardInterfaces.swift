/// `org.freedesktop.DBus.Peer`, which every object has (libdbus answers it).
public enum Peer: DBusInterface {
    public static let name: InterfaceName = "org.freedesktop.DBus.Peer"
    public static let ping = method("Ping", inputs: (), outputs: ())
    public static let getMachineID = method("GetMachineId", inputs: (), outputs: Arg<String>("machine_uuid"))
}

/// `org.freedesktop.DBus.Introspectable`, which every object has (the object server answers it).
public enum Introspectable: DBusInterface {
    public static let name: InterfaceName = "org.freedesktop.DBus.Introspectable"
    public static let introspect = method("Introspect", inputs: (), outputs: Arg<String>("xml_data"))
}

/// `org.freedesktop.DBus.Properties`, which every object has (the object server answers it from
/// the bound properties).
public enum Properties: DBusInterface {
    public static let name: InterfaceName = "org.freedesktop.DBus.Properties"
    public static let get = method(
        "Get", inputs: (Arg<String>("interface_name"), Arg<String>("property_name")), outputs: Arg<Variant>("value"))
    public static let getAll = method(
        "GetAll", inputs: Arg<String>("interface_name"), outputs: Arg<[String: Variant]>("properties"))
    public static let set = method(
        "Set", inputs: (Arg<String>("interface_name"), Arg<String>("property_name"), Arg<Variant>("value")), outputs: ())
    public static let propertiesChanged = signal(
        "PropertiesChanged", Arg<String>("interface_name"), Arg<[String: Variant]>("changed_properties"),
        Arg<[String]>("invalidated_properties"))
}

/// `org.freedesktop.DBus`, the bus itself (the members this package uses).
public enum BusDriver: DBusInterface {
    public static let name: InterfaceName = "org.freedesktop.DBus"
    /// The bus's own name and object, as the destination of its methods and the sender of its signals.
    public static let object = RemoteObject(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus")

    public static let getID = method("GetId", inputs: (), outputs: Arg<String>("id"))
    public static let getNameOwner = method("GetNameOwner", inputs: Arg<String>("name"), outputs: Arg<String>("owner"))
    public static let nameHasOwner = method("NameHasOwner", inputs: Arg<String>("name"), outputs: Arg<Bool>("has_owner"))
    public static let requestName = method(
        "RequestName", inputs: (Arg<String>("name"), Arg<UInt32>("flags")), outputs: Arg<UInt32>("reply"))
    public static let releaseName = method("ReleaseName", inputs: Arg<String>("name"), outputs: Arg<UInt32>("reply"))
    public static let addMatch = method("AddMatch", inputs: Arg<String>("rule"), outputs: ())
    public static let listNames = method("ListNames", inputs: (), outputs: Arg<[String]>("names"))
    /// The names the bus can start (those with an activation file in its service folders).
    public static let listActivatableNames = method("ListActivatableNames", inputs: (), outputs: Arg<[String]>("activatable_names"))
    public static let getConnectionUnixProcessID = method(
        "GetConnectionUnixProcessID", inputs: Arg<String>("name"), outputs: Arg<UInt32>("pid"))
    /// `name` changed owner; an empty `newOwner` means it has none now.
    public static let nameOwnerChanged = signal(
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
