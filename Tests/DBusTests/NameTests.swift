import DBus
import Testing

/// Names are checked by libdbus's own validators; examples from the D-Bus specification.
@Suite(.timeLimit(.minutes(1))) struct NameTests {
    @Test(arguments: [":1.42", "com.example.App", "org.freedesktop.DBus", "a.b", "com.example.App_2", "_a.b-c", ":1.0"])
    func validBusNames(_ name: String) throws {
        #expect(try BusName(name).rawValue == name)
    }

    @Test(arguments: ["", "com", ".com.example", "com..example", "1com.example", "com.example.", "com/example",
                      String(repeating: "a.", count: 130) + "a", "com.exa mple", "com.ex\0ample"])
    func invalidBusNames(_ name: String) {
        #expect(throws: DBusError.self) { try BusName(name) }
    }

    @Test(arguments: ["/", "/com", "/com/example/App", "/a_b/c1"])
    func validObjectPaths(_ path: String) throws {
        #expect(try ObjectPath(path).rawValue == path)
    }

    @Test(arguments: ["", "com", "/com/", "//com", "/com//example", "/com-example", "/com.example", "/ü"])
    func invalidObjectPaths(_ path: String) throws {
        let error = try #require(throws: DBusError.self) { try ObjectPath(path) }
        #expect(error.name == DBusError.Name.invalidArgs)
        #expect(error.message.contains("not a valid object path"))
    }

    @Test func interfaceMemberErrorNames() throws {
        #expect(try InterfaceName(String("org.freedesktop.DBus.Properties")).rawValue == "org.freedesktop.DBus.Properties")
        for bad in ["Properties", "org..x", "org.1x", "", "org.example.", ":1.2"] {
            #expect(throws: DBusError.self) { try InterfaceName(bad) }
        }
        #expect(try MemberName(String("GetAll")).rawValue == "GetAll")
        for bad in ["", "Get.All", "1Get", "Get-All", "Get All"] {
            #expect(throws: DBusError.self) { try MemberName(bad) }
        }
        #expect(try ErrorName(String("com.nobadi.DBMultiverse.Error.InvalidChapter")).rawValue.hasSuffix("InvalidChapter"))
        let unqualified = "InvalidChapter" // a variable: `ErrorName("literal")` is a checked literal, which traps
        #expect(throws: DBusError.self) { try ErrorName(unqualified) }
    }

    @Test func signatures() throws {
        for good in ["", "s", "a{sv}", "(ii)as", "aa{sas}", "v", "ybnqiuxtdsogh"] {
            #expect(try Signature(good).rawValue == good)
        }
        for bad in ["a", "{sv}", "a{vs}", "(", "z", "a{sv", "()"] {
            #expect(throws: DBusError.self) { try Signature(bad) }
        }
        #expect(try Signature(String("a{sv}")).isSingleCompleteType)
        #expect(try !Signature(String("ss")).isSingleCompleteType)
    }

    @Test func matchRuleText() throws {
        let rule = MatchRule(sender: "com.example.App", path: "/a", interface: "com.example.I", member: "Changed", arg0: "it's")
        #expect(rule.description == "type='signal',sender='com.example.App',path='/a',interface='com.example.I',member='Changed',arg0='it'\\''s'")
    }
}
