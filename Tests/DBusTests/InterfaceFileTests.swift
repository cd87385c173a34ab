import DBus
import Testing

/// `DBusInterface.interfaceFile`: an interface's introspection file written from its declaration,
/// without a service, by the writer `Introspect` uses.
@Suite(.timeLimit(.minutes(1))) struct DBusInterfaceFileTests {
    enum Declared1: DBusInterface {
        static let name: InterfaceName = "org.example.Declared1"
        static let doc: String? = "Says <hello> & counts."
        static let ping = method("Ping", inputs: Arg<String>("text"), outputs: Arg<Int32>("count"), doc: "Counts a ping.")
        static let counter = property("Counter", Int32.self, emits: .invalidates)
        static let done = signal("Done", Arg<Int32>("count"))
        static let reset = method("Reset", inputs: (), outputs: ())
    }

    @Test func theFileHoldsTheCommentThenEachKindsMembersInTheOrderGiven() {
        let file = Declared1.interfaceFile(members: [Declared1.counter, Declared1.done, Declared1.reset, Declared1.ping],
                                           comment: "Where it is served.\nWhat it fails with.")
        #expect(file == """
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <!-- Where it is served.
                 What it fails with. -->
            <node>
              <interface name="org.example.Declared1">
                <annotation name="org.gtk.GDBus.DocString" value="Says &lt;hello&gt; &amp; counts."/>
                <method name="Reset"/>
                <method name="Ping">
                  <annotation name="org.gtk.GDBus.DocString" value="Counts a ping."/>
                  <arg name="text" type="s" direction="in"/>
                  <arg name="count" type="i" direction="out"/>
                </method>
                <signal name="Done">
                  <arg name="count" type="i"/>
                </signal>
                <property name="Counter" type="i" access="read">
                  <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="invalidates"/>
                </property>
              </interface>
            </node>

            """)
    }
}
