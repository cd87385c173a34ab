public import DBus

/// The names of DESIGN §2: where the widget lives on the session bus.
public enum WidgetBus {
    public static let busName: BusName = "com.nobadi.DBMultiverse"
    public static let objectPath: ObjectPath = "/com/nobadi/DBMultiverse"
    public static let widgetInterface: InterfaceName = "com.nobadi.DBMultiverse.Widget1"
    public static let applicationInterface: InterfaceName = "org.freedesktop.Application"
    public static let errorPrefix = "com.nobadi.DBMultiverse.Error."
    public static let desktopFileID = "com.nobadi.DBMultiverse.desktop"
    public static let iconName = "com.nobadi.DBMultiverse"
}
