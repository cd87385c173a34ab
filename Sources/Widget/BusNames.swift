package import DBus

/// The names of docs/dbus-api.md: where the widget lives on the session bus. Its interfaces are declared
/// in `Widget1` and `FreedesktopApplication`.
package enum WidgetBus {
    package static let busName: BusName = "com.nobadi.DBMultiverse"
    package static let objectPath: ObjectPath = "/com/nobadi/DBMultiverse"
    /// The widget's object, as clients reach it.
    package static let object = RemoteObject(destination: busName, path: objectPath)
    static let errorPrefix = "com.nobadi.DBMultiverse.Error."
    package static let iconName = "com.nobadi.DBMultiverse"
    /// Owned by the notifier process while it runs (docs/install.md#debian-package): a second notifier on the same bus
    /// (an autostart entry and a systemd unit both starting one) finds it taken and leaves, and
    /// `dbmultiverse doctor` asks the bus whether a notifier runs.
    package static let notifierBusName: BusName = "com.nobadi.DBMultiverse.Notifier"
}
