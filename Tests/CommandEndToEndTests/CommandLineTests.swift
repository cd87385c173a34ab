import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
import Widget
import Foundation
import Testing
import TestingTraits

/// The command-line tool of docs/usage.md, run as a built binary against an activatable service.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct CommandLineTests {
    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
    }

    @Test func updateThenEntryInEveryFormat() async throws {
        let service = try ActivatedService()
        defer { service.stop() }
        let placeholder = try service.cli("entry", "--family", "small")
        #expect(placeholder.status == 0, "\(placeholder)")
        #expect(placeholder.stdout == "Read Multiverse Reader\n")
        #expect(try service.cli("entry").stdout == "Read Multiverse Reader — start with Chapter 1\n")
        let placeholderBar = try json(try service.cli("entry", "--format", "waybar").stdout)
        #expect(placeholderBar["class"] as? String == "placeholder")

        let update = try service.cli("update", "--chapter", "42", "--name", "Vegeta & <Goku>", "--progress", "35")
        #expect(update.status == 0, "\(update)")
        #expect(try service.cli("entry", "--family", "small").stdout == "Ch. 42 · 35%\n")
        #expect(try service.cli("entry", "--family", "medium").stdout == "Chapter 42: Vegeta & <Goku> — 35% read\n")

        let entry = try json(try service.cli("entry", "--format", "json").stdout)
        #expect(Set(entry.keys) == entryKeys)
        #expect(entry["chapter"] as? Int == 42)
        #expect(entry["name"] as? String == "Vegeta & <Goku>")
        #expect(entry["progress"] as? Int == 35)
        #expect(entry["image-path"] as? String == "")
        #expect(entry["deep-link"] as? String == "dbmultiverse://chapter/42")
        #expect(entry["family"] as? String == "medium")
        #expect(entry["is-placeholder"] as? Bool == false)
        #expect(entry["date"] is NSNumber)

        let raw = try service.cli("entry", "--format", "waybar", "--family", "small")
        #expect(raw.stdout.split(separator: "\n").count == 1, "one line: \(raw.stdout)")
        #expect(raw.stdout.contains("&amp;") && raw.stdout.contains("&lt;Goku&gt;"))
        let bar = try json(raw.stdout)
        #expect(bar["text"] as? String == "Ch. 42 · 35%")
        #expect(bar["tooltip"] as? String == "Chapter 42: Vegeta &amp; &lt;Goku&gt; — 35% read")
        #expect(bar["class"] as? String == "reading")
        #expect(bar["percentage"] as? Int == 35)

        #expect(try service.cli("progress", "100").status == 0)
        // Debounced on the real clock; the stored entry has it at once.
        let finished = try json(try service.cli("entry", "--format", "waybar").stdout)
        #expect(finished["class"] as? String == "finished")
        #expect(finished["percentage"] as? Int == 100)
    }

    @Test func badInputExitsTwoWithAMessage() async throws {
        let service = try ActivatedService()
        defer { service.stop() }
        let progress = try service.cli("progress", "150")
        #expect(progress.status == 2, "\(progress)")
        #expect(progress.stderr.contains("150") && progress.stderr.contains("0…100"), "\(progress)")
        let chapter = try service.cli("update", "--chapter", "0", "--name", "Vegeta", "--progress", "35")
        #expect(chapter.status == 2, "\(chapter)")
        #expect(chapter.stderr.contains("chapter 0"), "\(chapter)")
        let name = try service.cli("update", "--chapter", "4", "--name", "   ", "--progress", "35")
        #expect(name.status == 2, "\(name)")
        #expect(name.stderr.contains("blank"), "\(name)")
        let unknown = try service.cli("entry", "--bogus")
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.stderr.contains("--bogus"), "\(unknown)")
        let family = try service.cli("entry", "--family", "large")
        #expect(family.status == 2, "\(family)")
        let link = try service.cli("open", "https://example.com")
        #expect(link.status == 2, "\(link)")
        #expect(link.stderr.contains("https://example.com"), "\(link)")
        // Nothing reached storage.
        #expect(!FileManager.default.fileExists(atPath: service.folder + "/currentChapterData.json"))
        // The service errors surface too: no chapter yet.
        let noChapter = try service.cli("progress", "50")
        #expect(noChapter.status == 1, "\(noChapter)")
        #expect(noChapter.stderr.contains("NoCurrentChapter"), "\(noChapter)")
    }

    /// Stores chapter 42 and starts `watch --family small`; returns it and the index of its
    /// first line, the entry.
    func watchChapter42(_ service: ActivatedService) throws -> (StreamingCommand, Int) {
        #expect(try service.cli("update", "--chapter", "42", "--name", "Vegeta", "--progress", "35").status == 0)
        let watch = try StreamingCommand([Binary.dbmultiverse, "watch", "--family", "small"], environment: service.environment)
        return (watch, try watch.waitForLine(timeout: 10, "the current entry") { $0 == "Ch. 42 · 35%" }.index)
    }

    @Test func watchPrintsEachReloadAndFollowsARestart() async throws {
        let service = try ActivatedService()
        defer { service.stop() }
        var (watch, index) = try watchChapter42(service)
        defer { watch.stop() }

        #expect(try service.cli("update", "--chapter", "43", "--name", "Next", "--progress", "10").status == 0)
        (index, _) = try watch.waitForLine(from: index + 1, timeout: 10, "the chapter-change line") { $0 == "Ch. 43 · 10%" }
        #expect(try service.cli("reload").status == 0)
        (index, _) = try watch.waitForLine(from: index + 1, timeout: 10, "the requested line") { $0 == "Ch. 43 · 10%" }

        // Kill the service outright; activation brings it back and watch keeps printing.
        let client = try await BusClient.connect(.address(service.bus.address))
        let owners = try await service.ownerChanges(client)
        kill(try service.servicePID(), SIGKILL)
        let (_, _, newOwner) = try await next(owners, "the killed service to lose its name").decode(String.self, String.self, String.self)
        #expect(newOwner.isEmpty)
        let linesBefore = watch.output.count
        #expect(try service.cli("reload").status == 0)
        try watch.waitForLine(from: linesBefore, timeout: 10, "a line after the restart") { $0 == "Ch. 43 · 10%" }
        #expect(watch.terminationStatus == nil, "watch is still running")

        #expect(try service.cli("update", "--chapter", "44", "--name", "After", "--progress", "0").status == 0)
        try watch.waitForLine(from: linesBefore, timeout: 10, "the line of the next reload") { $0 == "Ch. 44 · 0%" }
    }

    /// libdbus hands `watch` every signal sent straight to it: a `TimelinesReloaded` from a peer
    /// that does not own com.nobadi.DBMultiverse, broadcast or unicast, must print nothing, while
    /// the service's own reload still prints.
    @Test func watchIgnoresAForgedReloadAndPrintsTheRealOne() async throws {
        let service = try ActivatedService()
        defer { service.stop() }
        let (watch, first) = try watchChapter42(service)
        defer { watch.stop() }

        let forger = try await BusClient.connect(.address(service.bus.address))
        let watchName = try await uniqueName(ofProcess: watch.processIdentifier, on: forger)
        let forged = ChapterEntry(chapter: 666, name: "Forged", progress: 99, imagePath: "", date: 0, family: .medium, isPlaceholder: false)
        try await forger.emit(Widget1.timelinesReloaded, from: WidgetBus.objectPath,
                              "DBMultiverseWidgets", ReloadReason.chapterChange, forged.dbusDictionary)
        try await forger.emit(Widget1.timelinesReloaded, from: WidgetBus.objectPath, to: watchName,
                              "DBMultiverseWidgets", ReloadReason.chapterChange, forged.dbusDictionary)
        // A round trip: the bus has routed both forgeries, so they reach watch before the reload below.
        _ = try await forger.call(BusDriver.getID.call(on: BusDriver.object))

        #expect(try service.cli("reload").status == 0)
        let (real, _) = try watch.waitForLine(from: first + 1, timeout: 10, "the real reload") { $0 == "Ch. 42 · 35%" }
        let printed = Array(watch.output[(first + 1)...real])
        #expect(printed == ["Ch. 42 · 35%"], "printed for the forged signals: \(printed.dropLast())")
    }

    /// The unique name of the connection `pid` has on the bus.
    func uniqueName(ofProcess pid: Int32, on client: BusClient) async throws -> BusName {
        for name in try await client.call(BusDriver.listNames.call(on: BusDriver.object)) where name.hasPrefix(":") {
            let owner = try? await client.call(BusDriver.getConnectionUnixProcessID.call(on: BusDriver.object, name))
            if owner == UInt32(bitPattern: pid) { return try BusName(name) }
        }
        throw FixtureError("process \(pid) has no connection on the bus")
    }

    @Test func watchPrintsWaybarLines() async throws {
        let service = try ActivatedService()
        defer { service.stop() }
        let watch = try StreamingCommand([Binary.dbmultiverse, "watch", "--format", "waybar"], environment: service.environment)
        defer { watch.stop() }
        let (index, first) = try watch.waitForLine(timeout: 10, "the placeholder") { $0.hasPrefix("{") }
        #expect(try json(first)["class"] as? String == "placeholder")
        #expect(try service.cli("update", "--chapter", "42", "--name", "A & B", "--progress", "100").status == 0)
        let (_, line) = try watch.waitForLine(from: index + 1, timeout: 10, "the reload") { $0.contains("42") }
        let bar = try json(line)
        #expect(bar["class"] as? String == "finished")
        #expect(bar["tooltip"] as? String == "Chapter 42: A &amp; B — 100% read")
    }
}
