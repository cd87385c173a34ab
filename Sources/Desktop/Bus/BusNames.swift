public import DBus

/// The names of DESIGN §2: where the widget lives on the session bus. Its interfaces are declared
/// in `Widget1` and `FreedesktopApplication`.
public enum WidgetBus {
    public static let busName: BusName = "com.nobadi.DBMultiverse"
    public static let objectPath: ObjectPath = "/com/nobadi/DBMultiverse"
    /// The widget's object, as clients reach it.
    public static let object = RemoteObject(destination: busName, path: objectPath)
    public static let errorPrefix = "com.nobadi.DBMultiverse.Error."
    public static let iconName = "com.nobadi.DBMultiverse"
}
