package import ComicDomain
package import DBus
import DBusTestSupport
import DesktopTestSupport
import Widget
package import Foundation
package import Synchronization
package import Testing

/// The fault scenarios, run against the real `dbmultiverse service` on a private bus.
/// `FaultTests` runs them with small counts in the normal suite; `SoakTests` (`make soak`) with
/// big ones. Each returns its figures so the caller can report them.
package enum FaultScenarios {
    package static let widget: InterfaceName = "com.nobadi.DBMultiverse.Widget1"
    package static let application: InterfaceName = "org.freedesktop.Application"
    package static let properties: InterfaceName = "org.freedesktop.DBus.Properties"
    package static let peer: InterfaceName = "org.freedesktop.DBus.Peer"
    package static let placeholderName = "A Really Strange Tournament!"

    // MARK: The checks FaultTests and SoakTests make, at their sizes

    /// `killDuringUpdates` survives every cycle; its figures are printed for `suite`.
    package static func expectNothingAcceptedLost(cycles: Int, in suite: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let figures = try await killDuringUpdates(cycles: cycles)
        #expect(figures.survived == cycles, sourceLocation: sourceLocation)
        print("\(suite): SIGKILL ×\(cycles): \(figures)")
    }

    /// `manyClients` makes every call without an error; the count is printed for `suite`.
    package static func expectNoErrors(clients: Int, calls: Int, in suite: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let (made, errors) = try await manyClients(clients: clients, calls: calls)
        #expect(made == clients * calls, sourceLocation: sourceLocation)
        #expect(errors.isEmpty, "\(errors.count) errors, e.g. \(errors.prefix(5))", sourceLocation: sourceLocation)
        print("\(suite): \(clients) clients × \(calls) calls = \(made), \(errors.count) errors")
    }

    // MARK: Shared helpers

    /// A method call to the service; `autoStart: false` so that a call sent after a kill fails
    /// instead of quietly activating a new service.
    package static func call(_ client: BusClient, _ member: MemberName, interface: InterfaceName = widget,
                     autoStart: Bool = true, _ values: [DBusValue] = []) async throws -> Message {
        let message = Message.methodCall(destination: WidgetBus.busName, path: WidgetBus.objectPath,
                                         interface: interface, member: member)
        message.autoStart = autoStart
        var writer = message.writer()
        for value in values { writer.append(value) }
        return try await client.call(message, timeout: .seconds(10))
    }

    /// The pid of the service's connection, from the bus.
    package static func servicePID(_ client: BusClient) async throws -> pid_t {
        let reply = try await client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                          interface: "org.freedesktop.DBus", member: "GetConnectionUnixProcessID",
                                          WidgetBus.busName.rawValue, timeout: .seconds(10))
        let pid: UInt32 = try reply.decode(UInt32.self)
        return pid_t(bitPattern: pid)
    }

    package static func updateChapterArguments(_ state: StoredState, cover: [UInt8]) -> [DBusValue] {
        [.int32(Int32(state.number)), .string(state.name), .int32(Int32(state.progress)),
         .array("y", cover.map { .byte($0) }), .dictionary("s", "v", [])]
    }

    /// The temporary files (`.…tmp`) in `folder`.
    package static func temporaryFiles(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".") && $0.hasSuffix(".tmp") }
    }

    /// The storage file a temporary file was staged for and the pid of its writer, from its name
    /// (`.<file>.<pid>.<random>.tmp`, AtomicFile's), or nil for another name.
    package static func stagedFile(_ temporary: String) -> (target: String, writer: pid_t)? {
        let parts = temporary.dropFirst().dropLast(".tmp".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, let writer = pid_t(parts[parts.count - 2]) else { return nil }
        let target = parts.dropLast(2).joined(separator: ".")
        let storageFiles = [DataFolder.chapterDataFile, DataFolder.coverImageFile, DataFolder.syncStateFile]
        return storageFiles.contains(target) ? (target, writer) : nil
    }

    /// What storage holds, as far as these tests compare it.
    package struct StoredState: Equatable, Sendable, CustomStringConvertible {
        package var number: Int
        package var name: String
        package var progress: Int
        package var hasCover: Bool
        package init(number: Int, name: String, progress: Int, hasCover: Bool) {
            (self.number, self.name, self.progress, self.hasCover) = (number, name, progress, hasCover)
        }
        package init(_ data: ChapterData) {
            self.init(number: data.number, name: data.name, progress: data.progress, hasCover: !data.coverImagePath.isEmpty)
        }
        package var description: String { "#\(number) '\(name)' \(progress)%\(hasCover ? " +cover" : "")" }
    }

    /// Reads `currentChapterData.json` and `widgetSyncState.json` with the domain's decoders;
    /// records an issue for a file that does not parse.
    package static func readStorage(_ folder: DataFolder, sourceLocation: SourceLocation = #_sourceLocation) -> StoredState? {
        if case .invalid(let reason) = folder.readSyncState() {
            Issue.record("widgetSyncState.json is torn: \(reason)", sourceLocation: sourceLocation)
        }
        switch folder.readChapterData() {
        case .valid(let data): return StoredState(data)
        case .missing: return nil
        case .invalid(let reason):
            Issue.record("currentChapterData.json is torn: \(reason)", sourceLocation: sourceLocation)
            return nil
        }
    }

    // MARK: 1. SIGKILL during continuous updates

    /// The writer's view: the last update the service acknowledged and the one awaiting a reply.
    package final class UpdateLog: Sendable {
        package struct State {
            package var acknowledged: StoredState?
            package var inFlight: StoredState?
            package var replies = 0
            package var unexpected: [String] = []
        }
        package let state: Mutex<State>
        package init(acknowledged: StoredState?) { state = Mutex(State(acknowledged: acknowledged)) }
    }

    /// Streams UpdateChapter / UpdateProgress calls one after another, each awaiting its reply,
    /// until one fails (the service was killed). Returns normally; failures other than the
    /// service's disappearance are recorded in the log.
    package static func streamUpdates(_ client: BusClient, _ log: UpdateLog, cycle: Int) async {
        var sequence = 0
        while true {
            sequence += 1
            let current = log.state.withLock { $0.acknowledged }
            let next: StoredState
            let arguments: [DBusValue]
            let member: MemberName
            if let current, Int.random(in: 0..<10) < 4 {
                next = StoredState(number: current.number, name: current.name, progress: Int.random(in: 0...100),
                                   hasCover: current.hasCover)
                member = "UpdateProgress"
                arguments = [.int32(Int32(next.progress))]
            } else {
                let cover = Int.random(in: 0..<4) == 0 ? jpegBytes(Int.random(in: 64...200_000)) : []
                next = StoredState(number: Int.random(in: 1...99_999), name: "c\(cycle)-u\(sequence) ✓",
                                   progress: Int.random(in: 0...100), hasCover: !cover.isEmpty)
                member = "UpdateChapter"
                arguments = updateChapterArguments(next, cover: cover)
            }
            log.state.withLock { $0.inFlight = next }
            do {
                _ = try await call(client, member, autoStart: false, arguments)
                log.state.withLock {
                    $0.acknowledged = next
                    $0.inFlight = nil
                    $0.replies += 1
                }
            } catch let error as DBusError {
                log.state.withLock { state in
                    switch error.name {
                    case DBusError.Name.noReply:
                        break // sent to the service, which died before replying: in flight
                    case DBusError.Name.serviceUnknown, DBusError.Name.nameHasNoOwner:
                        state.inFlight = nil // sent after it died: never reached it
                    default:
                        state.unexpected.append("\(member): \(error.name): \(error.message)")
                    }
                }
                return
            } catch {
                log.state.withLock { $0.unexpected.append("\(member): \(error)") }
                return
            }
        }
    }

    /// Kills the service with SIGKILL at a random moment of a stream of updates, `cycles` times;
    /// after each kill the files parse, at most the killed write's temporary file is left, and
    /// after re-activation the stored state is the last acknowledged update or the one in flight,
    /// and no temporary file is left. Returns the cycles survived and the updates acknowledged.
    package static func killDuringUpdates(cycles: Int, maxDelayMicroseconds: Int = 30_000) async throws -> KillFigures {
        let service = try ActivatedService()
        defer { service.stop() }
        let client = try await BusClient.connect(.address(service.bus.address))
        let folder = DataFolder(path: service.folder)
        var model: StoredState?
        var figures = KillFigures()
        for cycle in 0..<cycles {
            // (Re)activation. The reply comes after the service's start, so its start-up writes
            // (the sync state, the stale temporary files' removal) are done.
            let entry = try await call(client, "GetCurrentEntry").decode([String: Variant].self)
            #expect(temporaryFiles(service.folder).isEmpty, "cycle \(cycle): temporary files after restart: \(temporaryFiles(service.folder))")
            if let model {
                #expect(try entry.value("chapter", Int32.self) == Int32(model.number), "cycle \(cycle)")
                #expect(try entry.value("name", String.self) == model.name, "cycle \(cycle)")
                #expect(try entry.value("progress", Int32.self) == Int32(model.progress), "cycle \(cycle)")
            } else {
                #expect(try entry.value("is-placeholder", Bool.self), "cycle \(cycle)")
            }
            let pid = try await servicePID(client)

            let log = UpdateLog(acknowledged: model)
            let writer = Task { await streamUpdates(client, log, cycle: cycle) }
            // The fault injection: a bounded random delay, then SIGKILL.
            try await Task.sleep(for: .microseconds(Int.random(in: 0...maxDelayMicroseconds)))
            #expect(kill(pid, SIGKILL) == 0, "cycle \(cycle): kill \(pid): errno \(errno)")
            // The writer stops at its first failed call: the bus has seen the service's socket
            // close, so the process is gone and wrote its last byte.
            try await withTimeout(15, "the writer to see the kill") { await writer.value }

            let outcome = log.state.withLock { $0 }
            #expect(outcome.unexpected.isEmpty, "cycle \(cycle): \(outcome.unexpected)")
            figures.replies += outcome.replies
            let stored = readStorage(folder)
            // Only the killed write's own: one per file it replaces, all of the killed process.
            // UpdateChapter with a cover stages the cover and the data before renaming either,
            // so a kill between the two leaves two.
            let leftovers = temporaryFiles(service.folder)
            let staged = leftovers.compactMap(stagedFile)
            #expect(staged.count == leftovers.count && staged.allSatisfy { $0.writer == pid }
                    && Set(staged.map(\.target)).count == staged.count, "cycle \(cycle): pid \(pid) killed, left \(leftovers)")
            if !leftovers.isEmpty { figures.midWrite += 1 }
            let accepted = [outcome.acknowledged, outcome.inFlight].compactMap { $0 }
            guard stored == outcome.acknowledged || (stored != nil && stored == outcome.inFlight) else {
                Issue.record("cycle \(cycle): stored \(stored?.description ?? "nothing"), accepted \(accepted)")
                return figures
            }
            if stored != outcome.acknowledged { figures.inFlightStored += 1 }
            model = stored
            figures.survived += 1
        }
        // The last kill's leftovers are cleaned by one more start.
        _ = try await call(client, "GetCurrentEntry")
        #expect(temporaryFiles(service.folder).isEmpty)
        return figures
    }

    package struct KillFigures: CustomStringConvertible {
        /// Cycles whose checks all held.
        package var survived = 0
        /// Updates acknowledged over all cycles.
        package var replies = 0
        /// Kills that left a temporary file (they landed mid-write).
        package var midWrite = 0
        /// Kills after which storage held the unacknowledged update (written, reply lost).
        package var inFlightStored = 0
        package var description: String {
            "\(survived) cycles survived, \(replies) updates acknowledged, \(midWrite) kills mid-write, \(inFlightStored) with the unacknowledged update stored"
        }
    }

    // MARK: 2. Many clients at once

    /// What the clients of `manyClients` share.
    package struct ClientsState {
        package var sentNames: Set<String> = [FaultScenarios.placeholderName]
        package var lastAcknowledged: StoredState?
        package var errors: [String] = []
        package var calls = 0
        package var unexpectedEntries: [String] = []
    }

    package final class Shared<State: Sendable>: Sendable {
        package let state: Mutex<State>
        package init(_ initial: State) { state = Mutex(initial) }
        package func withLock<T: Sendable>(_ body: (inout State) -> T) -> T { state.withLock { body(&$0) } }
    }

    /// `clients` connections × `calls` mixed calls each, in parallel. Client 0 is the only writer
    /// (UpdateChapter with a unique name, UpdateProgress) and awaits each reply, so its last
    /// acknowledged update is the last one the service accepted; the others read (entries,
    /// snapshots, properties, timelines, reloads). Every entry read must be the placeholder or a
    /// state the writer sent. Returns the calls made and the error replies.
    package static func manyClients(clients: Int, calls: Int) async throws -> (calls: Int, errors: [String]) {
        let service = try ActivatedService()
        defer { service.stop() }
        let first = try await BusClient.connect(.address(service.bus.address))
        _ = try await call(first, "Ping", interface: peer) // activation
        var connections = [first]
        for _ in 1..<clients { connections.append(try await BusClient.connect(.address(service.bus.address))) }

        let shared = Shared(ClientsState())
        let widgetName = widget.rawValue

        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, client) in connections.enumerated() {
                group.addTask {
                    var last: StoredState?
                    for sequence in 0..<calls {
                        let roll = Int.random(in: 0..<100)
                        var member: MemberName = "GetCurrentEntry"
                        var interface = widget
                        var arguments: [DBusValue] = []
                        var update: StoredState?
                        var readsEntry = false
                        if index == 0, roll < 45 || last == nil {
                            let cover = roll % 9 == 0 ? jpegBytes(Int.random(in: 64...4096)) : []
                            update = StoredState(number: Int.random(in: 1...99_999), name: "w\(sequence)",
                                                 progress: Int.random(in: 0...100), hasCover: !cover.isEmpty)
                            member = "UpdateChapter"
                            arguments = updateChapterArguments(update!, cover: cover)
                            shared.withLock { _ = $0.sentNames.insert(update!.name) }
                        } else if index == 0, let current = last, roll < 70 {
                            update = StoredState(number: current.number, name: current.name,
                                                 progress: Int.random(in: 0...100), hasCover: current.hasCover)
                            member = "UpdateProgress"
                            arguments = [.int32(Int32(update!.progress))]
                        } else {
                            switch roll % 10 {
                            case 0, 1: readsEntry = true
                            case 2: (member, arguments, readsEntry) = ("GetSnapshot", [.string(roll < 50 ? "small" : "medium")], true)
                            case 3: (member, arguments) = ("GetTimeline", [.string("small")])
                            case 4: (member, arguments) = ("ReloadTimelines", [.string("DBMultiverseWidgets")])
                            case 5: member = "ReloadAllTimelines"
                            case 6:
                                let name = ["Chapter", "ChapterName", "Progress", "Entry", "Kind", "LastReload", "DeepLink",
                                            "CoverImagePath"][roll % 8]
                                (member, interface, arguments) = ("Get", properties, [.string(widgetName), .string(name)])
                            case 7: (member, interface, arguments) = ("GetAll", properties, [.string(widgetName)])
                            case 8: (member, arguments) = ("GetPlaceholder", [.string("medium")])
                            default: (member, interface) = ("Ping", peer)
                            }
                        }
                        do {
                            let reply = try await call(client, member, interface: interface, arguments)
                            if readsEntry {
                                let name = try reply.decode([String: Variant].self).value("name", String.self)
                                let known = shared.withLock { $0.sentNames.contains(name) }
                                if !known { shared.withLock { $0.unexpectedEntries.append(name) } }
                            }
                            if let update {
                                last = update
                                if index == 0 { shared.withLock { $0.lastAcknowledged = update } }
                            }
                            shared.withLock { $0.calls += 1 }
                        } catch {
                            shared.withLock {
                                $0.calls += 1
                                $0.errors.append("client \(index) \(member): \(error)")
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }

        let result = shared.withLock { $0 }
        #expect(result.unexpectedEntries.isEmpty, "entries nobody sent: \(result.unexpectedEntries.prefix(5))")
        let expected = try #require(result.lastAcknowledged)
        #expect(readStorage(DataFolder(path: service.folder)) == expected)
        let entry = try await call(first, "GetCurrentEntry").decode([String: Variant].self)
        #expect(try entry.value("name", String.self) == expected.name)
        #expect(try entry.value("chapter", Int32.self) == Int32(expected.number))
        #expect(try entry.value("progress", Int32.self) == Int32(expected.progress))
        return (result.calls, result.errors)
    }

    // MARK: 3. Wrong argument types and counts

    /// A method of the object, with its input signature (one complete type per argument).
    package struct MethodShape: Sendable {
        package let interface: InterfaceName
        package let name: MemberName
        package let inputs: [String]
    }

    /// Every method of Widget1 (from the interface XML) and of org.freedesktop.Application.
    package static func methodShapes() throws -> [MethodShape] {
        let xml = try String(contentsOf: repositoryRoot.appendingPathComponent("dbus/com.nobadi.DBMultiverse.Widget1.xml"),
                             encoding: .utf8)
        let model = try #require(try InterfaceModel.parse(xml, interface: widget.rawValue))
        var shapes = try model.methods.sorted { $0.key < $1.key }.map { name, member in
            MethodShape(interface: widget, name: try MemberName(name), inputs: member.args.filter { $0.direction == "in" }.map(\.type))
        }
        shapes += [
            MethodShape(interface: application, name: "Activate", inputs: ["a{sv}"]),
            MethodShape(interface: application, name: "Open", inputs: ["as", "a{sv}"]),
            MethodShape(interface: application, name: "ActivateAction", inputs: ["s", "av", "a{sv}"]),
        ]
        return shapes
    }

    /// A well-typed value for `type` (the types the interfaces use).
    package static func value(of type: String) -> DBusValue {
        switch type {
        case "i": .int32(42)
        case "s": .string("medium")
        case "ay": .array("y", jpegBytes(16).map { .byte($0) })
        case "as": .array("s", [.string("dbmultiverse://chapter/1")])
        case "av": .array("v", [.variant(.int32(1))])
        case "a{sv}": .dictionary("s", "v", [.init(key: .string("page"), value: .variant(.int32(3)))])
        default: .string("unexpected type \(type)")
        }
    }

    /// Values of other types standing in for `type`: a far one and near misses.
    package static func wrongValues(for type: String) -> [DBusValue] {
        let near: [DBusValue] = switch type {
        case "i": [.uint32(42), .int64(42), .int16(42), .string("42")]
        case "s": [.objectPath("/medium"), .signature("s"), .int32(1)]
        case "ay": [.array("i", [.int32(0xFF)]), .string("\u{FF}\u{D8}")]
        case "as": [.array("o", [.objectPath("/a")]), .string("dbmultiverse://chapter/1")]
        case "av": [.array("s", [.string("x")]), .variant(.int32(1))]
        case "a{sv}": [.dictionary("s", "s", [.init(key: .string("page"), value: .string("3"))]),
                       .array("v", [])]
        default: []
        }
        return near + [.structure([.int32(1), .string("x")]), .boolean(true)]
    }

    /// Calls every method with no arguments, one argument too many, and each argument replaced by
    /// each wrong type: every call must get InvalidArgs; the service still answers Ping with the
    /// same pid. Returns (methods, malformed calls).
    package static func malformedCalls() async throws -> (methods: Int, calls: Int) {
        let service = try ActivatedService()
        defer { service.stop() }
        let client = try await BusClient.connect(.address(service.bus.address))
        // A stored chapter, so that a wrongly accepted call would have something to act on.
        _ = try await call(client, "UpdateChapter", updateChapterArguments(
            StoredState(number: 42, name: "Vegeta", progress: 35, hasCover: false), cover: []))
        let pid = try await servicePID(client)
        let before = try snapshot(service.folder)
        let shapes = try methodShapes()
        #expect(shapes.count == 12)
        var count = 0
        for shape in shapes {
            var malformed: [(String, [DBusValue])] = []
            let valid = shape.inputs.map(value(of:))
            if !shape.inputs.isEmpty { malformed.append(("no arguments", [])) }
            malformed.append(("one extra argument", valid + [.int32(7)]))
            malformed.append(("one extra string", valid + [.string("extra")]))
            for (position, type) in shape.inputs.enumerated() {
                for wrong in wrongValues(for: type) {
                    var arguments = valid
                    arguments[position] = wrong
                    malformed.append(("argument \(position) (\(type)) as \(wrong.signature.rawValue)", arguments))
                }
            }
            for (what, arguments) in malformed {
                count += 1
                do {
                    let reply = try await call(client, shape.name, interface: shape.interface, autoStart: false, arguments)
                    Issue.record("\(shape.interface).\(shape.name) with \(what): a reply '\(reply.signature)' instead of InvalidArgs")
                } catch let error as DBusError {
                    #expect(error.name == DBusError.Name.invalidArgs, "\(shape.name) with \(what): \(error.name): \(error.message)")
                }
            }
        }
        _ = try await call(client, "Ping", interface: peer, autoStart: false)
        #expect(try await servicePID(client) == pid)
        #expect(try snapshot(service.folder) == before, "a malformed call changed storage")
        return (shapes.count, count)
    }
}
