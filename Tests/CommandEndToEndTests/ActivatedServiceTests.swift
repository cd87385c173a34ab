import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Widget
import Foundation
import Testing
import TestingTraits

/// The real `dbmultiverse service`, started by D-Bus activation from a private bus's service
/// directory, driven by the stock clients as the README shows.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct ActivatedServiceTests {
    static let dest = "com.nobadi.DBMultiverse"
    static let path = "/com/nobadi/DBMultiverse"
    static let widget = "com.nobadi.DBMultiverse.Widget1"

    @Test func dbusSendActivatesTheServiceAndGetsThePlaceholder() async throws {
        let service = try ActivatedService()
        defer { service.stop() }
        let result = try service.tool("dbus-send", "--session", "--print-reply", "--dest=\(Self.dest)", Self.path,
                                      "\(Self.widget).GetCurrentEntry")
        #expect(result.status == 0, "\(result)")
        let dict = ToolText.dbusSendDict(result.stdout)
        #expect(Set(dict.keys) == entryKeys, "\(result.stdout)")
        #expect(dict["chapter"] == "int32 1")
        #expect(dict["name"] == #"string "A Really Strange Tournament!""#)
        #expect(dict["progress"] == "int32 0")
        #expect(dict["image-path"] == #"string """#)
        #expect(dict["deep-link"] == #"string "dbmultiverse://chapter/1""#)
        #expect(dict["family"] == #"string "medium""#)
        #expect(dict["is-placeholder"] == "boolean true")
        #expect(dict["date"]?.hasPrefix("int64 ") == true)
    }

    @Test func theReadmeQueriesWorkWithTheStockClients() async throws {
        let service = try ActivatedService()
        defer { service.stop() }
        let gdbus = try service.tool("gdbus", "call", "--session", "--dest", Self.dest, "--object-path", Self.path,
                                     "--method", "\(Self.widget).UpdateChapter", "42", "Vegeta", "35", "[]", "{}")
        #expect(gdbus.status == 0, "\(gdbus)")
        #expect(gdbus.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "()")
        let name = try service.tool("busctl", "--address=\(service.bus.address)", "get-property", Self.dest, Self.path,
                                    Self.widget, "ChapterName")
        #expect(name.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"s "Vegeta""#, "\(name)")

        let busctl = try service.tool("busctl", "--address=\(service.bus.address)", "call", Self.dest, Self.path, Self.widget,
                                      "UpdateChapter", "isiaya{sv}", "43", "Name", "10", "0", "1", "page", "i", "980")
        #expect(busctl.status == 0, "\(busctl)")
        #expect(busctl.stdout.isEmpty)
        let chapter = try service.tool("busctl", "--address=\(service.bus.address)", "get-property", Self.dest, Self.path,
                                       Self.widget, "Chapter")
        #expect(chapter.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "i 43", "\(chapter)")
        // The page option reached storage.
        #expect(try jsonObject(at: service.folder + "/currentChapterData.json")["page"] as? Int == 980)

        let snapshot = try service.tool("dbus-send", "--session", "--print-reply", "--dest=\(Self.dest)", Self.path,
                                        "\(Self.widget).GetSnapshot", "string:small")
        #expect(snapshot.status == 0, "\(snapshot)")
        let dict = ToolText.dbusSendDict(snapshot.stdout)
        #expect(dict["chapter"] == "int32 43")
        #expect(dict["name"] == #"string "Name""#)
        #expect(dict["progress"] == "int32 10")
        #expect(dict["family"] == #"string "small""#)
        #expect(dict["is-placeholder"] == "boolean false")

        let introspect = try service.tool("gdbus", "introspect", "--session", "--dest", Self.dest, "--object-path", Self.path)
        #expect(introspect.status == 0, "\(introspect)")
        for text in ["interface com.nobadi.DBMultiverse.Widget1 {", "interface org.freedesktop.Application {",
                     "GetCurrentEntry(out a{sv} entry);", "UpdateProgress(in  i progress);",
                     "readonly i Chapter = 43;", "readonly s Kind = 'DBMultiverseWidgets';",
                     "TimelinesReloaded(s kind,", "OpenRequested(i chapter,"] {
            #expect(introspect.stdout.contains(text), "no '\(text)' in:\n\(introspect.stdout)")
        }

        // Errors keep their names through the stock tools.
        let bad = try service.tool("dbus-send", "--session", "--print-reply", "--dest=\(Self.dest)", Self.path,
                                   "\(Self.widget).GetSnapshot", "string:large")
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("com.nobadi.DBMultiverse.Error.InvalidFamily"), "\(bad)")
    }

    @Test func theRunningIntrospectionAgreesWithTheInterfaceXML() async throws {
        let service = try ActivatedService()
        defer { service.stop() }
        let client = try await BusClient.connect(.address(service.bus.address))
        let xml = try await client.call(destination: WidgetBus.busName, path: WidgetBus.objectPath,
                                        interface: "org.freedesktop.DBus.Introspectable", member: "Introspect",
                                        timeout: .seconds(10)).decode(String.self)
        let file = try String(contentsOf: repositoryRoot.appendingPathComponent("dbus/com.nobadi.DBMultiverse.Widget1.xml"),
                              encoding: .utf8)
        let running = try #require(try InterfaceModel.parse(xml, interface: Self.widget))
        let contract = try #require(try InterfaceModel.parse(file, interface: Self.widget))
        #expect(running == contract, "running:\n\(running)\n\ncontract:\n\(contract)")
        // Written by the same writer from the same members in the same order: the same text.
        func element(_ document: String) -> Substring? {
            guard let start = document.range(of: "  <interface name=\"\(Self.widget)\">\n"),
                  let end = document.range(of: "  </interface>\n", range: start.upperBound..<document.endIndex) else { return nil }
            return document[start.lowerBound..<end.upperBound]
        }
        #expect(element(xml) != nil && element(xml) == element(file), "running:\n\(element(xml) ?? "")\n\nfile:\n\(element(file) ?? "")")
        // Sanity: the model saw what it should.
        #expect(contract.methods.count == 9 && contract.signals.count == 2 && contract.properties.count == 10)
        #expect(contract.methods["UpdateChapter"]?.args.map(\.type) == ["i", "s", "i", "ay", "a{sv}"])
        #expect(contract.methods["UpdatePage"]?.args.map(\.type) == ["i", "s", "i", "s", "i", "ay", "a{sv}"])
        #expect(contract.properties["LatestPage"]?.type == "i" && contract.properties["NewPages"]?.type == "i")
        #expect(contract.properties["Kind"]?.annotations["org.freedesktop.DBus.Property.EmitsChangedSignal"] == "const")
        #expect(contract.properties.values.allSatisfy { $0.access == "read" })
        #expect(contract.annotations["org.gtk.GDBus.DocString"]?.isEmpty == false)
        #expect(contract.methods.values.allSatisfy { $0.annotations["org.gtk.GDBus.DocString"]?.isEmpty == false })
        // The other interfaces of docs/dbus-api.md are on the object too.
        for other in ["org.freedesktop.Application", "org.freedesktop.DBus.Properties",
                      "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer"] {
            #expect(try InterfaceModel.parse(xml, interface: other) != nil, "\(other) missing")
        }
    }

    @Test func sigtermStopsTheServiceCleanlyAndASecondOneIsRefused() async throws {
        let folder = try makeTemporaryDirectory()
        let bus = try PrivateBus()
        defer {
            bus.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
        var environment = bus.clientEnvironment
        environment["DBMULTIVERSE_DATA_DIR"] = folder
        environment["DBMULTIVERSE_BROWSER"] = "none"
        let client = try await BusClient.connect(.address(bus.address))
        let owners = try await client.signals(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                                        member: "NameOwnerChanged", arg0: "com.nobadi.DBMultiverse"))
        let first = try StreamingCommand([Binary.dbmultiverse, "service"], environment: environment)
        let (_, _, owner) = try await next(owners, "the service to own its name").decode(String.self, String.self, String.self)
        #expect(!owner.isEmpty)

        let second = try runCommand([Binary.dbmultiverse, "service"], environment: environment)
        #expect(second.status != 0, "\(second)")
        #expect(second.stderr.contains("already owned"), "\(second)")

        #expect(try first.terminate(SIGTERM) == 0, "stderr: \(first.stderrText)")
        let (name, oldOwner, newOwner) = try await next(owners, "the name to be released").decode(String.self, String.self, String.self)
        #expect(name == "com.nobadi.DBMultiverse" && oldOwner == owner && newOwner.isEmpty)
    }
}

/// The service's own executable, as the installed activation file and user unit start it, and
/// `dbmultiverse service`, which execs it.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct ServiceExecutableTests {
    /// Activated by a file naming `dbmultiverse-service` (as `make install` writes it): it answers,
    /// and the process that owns the name runs that executable, which links no site code.
    @Test func theActivationFileStartsTheServiceExecutable() throws {
        let folder = try makeTemporaryDirectory()
        let bus = try PrivateBus(activationEnvironment: ["DBMULTIVERSE_DATA_DIR": folder, "DBMULTIVERSE_BROWSER": "none"])
        defer {
            bus.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
        let executable = try requireBuiltProduct("dbmultiverse-service")
        try bus.installActivationFile(name: ActivatedServiceTests.dest, exec: executable)
        let reply = try runCommand(["busctl", "--address=\(bus.address)", "call", ActivatedServiceTests.dest, ActivatedServiceTests.path,
                                    ActivatedServiceTests.widget, "GetCurrentEntry"], timeout: 20)
        #expect(reply.status == 0 && reply.stdout.hasPrefix("a{sv} "), "\(reply)")
        let pid = try runCommand(["busctl", "--address=\(bus.address)", "status", "--no-pager", ActivatedServiceTests.dest], timeout: 10)
        let line = try #require(pid.stdout.split(separator: "\n").first { $0.hasPrefix("PID=") }, "\(pid)")
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(line.dropFirst(4))/exe")
        #expect(exe == executable, "\(exe)")
        // The libraries of the site code (libcurl, libxml2: loaded with dlopen by the commands that
        // fetch) are not even named in it.
        let strings = try runCommand(["strings", executable], timeout: 20)
        #expect(strings.status == 0 && !strings.stdout.contains("libcurl.so") && !strings.stdout.contains("libxml2.so"))
    }

    /// `dbmultiverse service` replaces itself with the executable (same process, its binary).
    @Test func theCommandExecsTheServiceExecutable() async throws {
        let folder = try makeTemporaryDirectory()
        let bus = try PrivateBus()
        defer {
            bus.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
        let environment = bus.clientEnvironment.merging(["DBMULTIVERSE_DATA_DIR": folder, "DBMULTIVERSE_BROWSER": "none"]) { $1 }
        let client = try await BusClient.connect(.address(bus.address))
        let owners = try await client.signals(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                                        member: "NameOwnerChanged", arg0: ActivatedServiceTests.dest))
        let command = try StreamingCommand([Binary.dbmultiverse, "service"], environment: environment)
        _ = try await next(owners, "the service to own its name")
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(command.processIdentifier)/exe")
        #expect(exe == (try requireBuiltProduct("dbmultiverse-service")), "\(exe)")
        #expect(try command.terminate(SIGTERM) == 0, "stderr: \(command.stderrText)")
    }

    /// Without the executable beside it (nor in ../libexec/dbmultiverse), the command says where
    /// it looked and fails; the same for the notifier.
    @Test func aMissingExecutableIsAClearError() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
        // Copied by a child process: a copy written here could be open for writing in a child
        // another test forks meanwhile, and exec would fail with "Text file busy".
        let copy = try runCommand(["install", "-m", "755", try requireBuiltProduct("dbmultiverse"), root + "/bin/dbmultiverse"], timeout: 20)
        try #require(copy.status == 0, "\(copy)")
        for (command, program) in [(["service"], "dbmultiverse-service"), (["notifier"], "dbmultiverse-notifier"),
                                   (["notifier", "--no-tray"], "dbmultiverse-notifier")] {
            let result = try runCommand([root + "/bin/dbmultiverse"] + command, timeout: 20)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr == "dbmultiverse: cannot find \(program), which this command runs: looked for "
                    + "\(root)/libexec/dbmultiverse/\(program) or \(root)/bin/\(program). Reinstall (make install, or the dbmultiverse package).\n",
                    "\(result)")
        }
    }

    @Test func theExecutablesSayTheirVersionAndRefuseOtherArguments() throws {
        for program in ["dbmultiverse-service", "dbmultiverse-notifier"] {
            let executable = try requireBuiltProduct(program)
            let version = try runCommand([executable, "--version"], timeout: 20)
            #expect(version.status == 0 && version.stdout == ProjectInfo.version + "\n", "\(version)")
            let wrong = try runCommand([executable, "--bogus"], timeout: 20)
            #expect(wrong.status == 2 && wrong.stderr.hasPrefix("\(program): unexpected argument '--bogus'\nusage: \(program)"), "\(wrong)")
        }
    }
}

/// Reading the stock tools' output.
enum ToolText {
    /// The `a{sv}` of a `dbus-send --print-reply` as key → "type value" (e.g. "int32 42").
    static func dbusSendDict(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var key: String?
        // The outer dictionary's keys only: those indented as its first key (the entry's `actions`
        // hold dictionaries of their own, printed further in).
        var keyIndent: Int?
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            let indent = raw.prefix { $0 == " " }.count
            if line.hasPrefix("string \""), key == nil, line.hasSuffix("\""), indent == (keyIndent ?? indent) {
                keyIndent = indent
                key = String(line.dropFirst(8).dropLast())
            } else if line.hasPrefix("variant"), let current = key {
                result[current] = line.dropFirst("variant".count).trimmingCharacters(in: .whitespaces)
                key = nil
            }
        }
        return result
    }
}
