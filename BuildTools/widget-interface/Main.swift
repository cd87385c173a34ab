import Widget

/// `widget-interface`: prints `com.nobadi.DBMultiverse.Widget1`'s interface file, written from its
/// Swift declaration (`Widget1.interfaceFile`). `make interface` stores it as
/// dbus/com.nobadi.DBMultiverse.Widget1.xml.
@main
enum WidgetInterfaceTool {
    static func main() {
        print(Widget1.interfaceFile, terminator: "")
    }
}
