import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Glibc
import Testing
import TestingTraits

/// The reading position between two computers through a folder two real Syncthing instances keep
/// the same (docs/sync.md): two built services, each on its own private bus with its own data
/// folder, config and machine id, each sharing through its own copy of the folder.
///
/// Every wait is on an event with a deadline: a line of a service's or Syncthing's log (each is
/// logged as the thing happens), never a sleep.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .offThePool,
       .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct SyncFolderSyncthingTests {
    /// One computer: a service on its bus, and the Syncthing that keeps its copy of the folder.
    final class Computer {
        let name: String
        let machine: String
        let data: String
        let configHome: String
        let bus: PrivateBus
        let syncthing: SyncthingDevice
        private(set) var service: ServiceProcess?

        init(base: String, name: String, machine: String) throws {
            self.name = name
            self.machine = machine
            data = base + "/\(machine)-data"
            configHome = base + "/\(machine)-config"
            syncthing = try SyncthingDevice(home: base + "/\(machine)-syncthing", folder: base + "/\(machine)-shared")
            try FileManager.default.createDirectory(atPath: configHome + "/dbmultiverse", withIntermediateDirectories: true)
            try "sync-folder = \(syncthing.folder)\ncomputer-name = \(name)\n"
                .write(toFile: configHome + "/dbmultiverse/config", atomically: true, encoding: .utf8)
            bus = try PrivateBus()
        }

        /// Starts the built service (under `wrapper`, e.g. faketime, when given).
        func startService(wrapper: [String] = [], environment: [String: String] = [:]) throws {
            service = try ServiceProcess(bus: bus, folder: data, environment: [
                "XDG_CONFIG_HOME": configHome, "HOME": configHome, "DBMULTIVERSE_MACHINE_ID": machine,
            ].merging(environment) { $1 }, wrapper: wrapper)
            try log("watching \(syncthing.folder)")
        }

        func stopService() throws {
            if let service { #expect(try service.command.terminate(SIGTERM, timeout: 10) == 0) }
            service = nil
        }

        /// The reader reads `chapter` at `progress` here (`dbmultiverse update`).
        func read(_ chapter: Int, progress: Int = 0) throws {
            let update = try cli("update", "--chapter", "\(chapter)", "--name", "Chapter \(chapter)", "--progress", "\(progress)")
            #expect(update.status == 0, "\(update)")
        }

        func cli(_ arguments: String...) throws -> CommandResult {
            try runCommand([Binary.dbmultiverse] + arguments, environment: bus.clientEnvironment)
        }

        /// The entry here: chapter, progress and the computer it was continued from.
        func entry() throws -> (chapter: Int, progress: Int, continuedOn: String) {
            let result = try cli("entry", "--format", "json")
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
            return (json["chapter"] as? Int ?? 0, json["progress"] as? Int ?? -1, json["continued-on"] as? String ?? "?")
        }

        var logLines: [String] { service?.lines ?? [] }

        /// Waits for a log line of the service containing `text` (from line `from`); returns its index.
        @discardableResult
        func log(_ text: String, from start: Int = 0, timeout: TimeInterval = 20) throws -> Int {
            guard let service else { throw FixtureError("\(name)'s service is not running") }
            return try service.command.waitForLine(from: start, timeout: timeout, "\(name)'s log line '\(text)'") { $0.contains(text) }.index
        }

        /// The stamp of this computer's record written for `chapter` (from its log), as (time, count).
        func writtenStamp(chapter: Int, from start: Int) throws -> (time: Int64, count: Int64) {
            let index = try log("wrote \(machine).json in \(syncthing.folder): chapter \(chapter) ", from: start)
            return try stamp(in: logLines[index])
        }

        func stamp(in line: String) throws -> (time: Int64, count: Int64) {
            // "... at 1795878415602.0@machine-a"
            guard let at = line.range(of: " at ", options: .backwards),
                  case let parts = line[at.upperBound...].split(separator: "@")[0].split(separator: "."), parts.count == 2,
                  let time = Int64(parts[0]), let count = Int64(parts[1]) else { throw FixtureError("no stamp in \(line)") }
            return (time, count)
        }

        func stop() {
            try? stopService()
            syncthing.stop()
            bus.stop()
        }
    }

    @Test func twoComputersSyncedBySyncthingEndOnTheNewestReading() throws {
        let started = Date()
        let base = try makeTemporaryDirectory("dbm-syncthing")
        defer { try? FileManager.default.removeItem(atPath: base) }
        let a = try Computer(base: base, name: "Laptop", machine: "machine-a")
        defer { a.stop() }
        let b = try Computer(base: base, name: "Desktop", machine: "machine-b")
        defer { b.stop() }
        try a.syncthing.configure(peer: b.syncthing, name: "a")
        try b.syncthing.configure(peer: a.syncthing, name: "b")
        try a.syncthing.start()
        try b.syncthing.start()
        try a.syncthing.waitForConnection(to: b.syncthing)
        try b.syncthing.waitForConnection(to: a.syncthing)
        try a.startService()
        try b.startService()
        var timings: [String] = ["Syncthing and services up: \(Self.seconds(since: started))"]

        // 1. Chapter 50 read on A: B's entry is chapter 50 once Syncthing delivers A's record; a
        //    progress step follows after the entry's 2 s debounce.
        var (aMark, bMark) = (a.logLines.count, b.logLines.count)
        let readOnA = Date()
        try a.read(50, progress: 10)
        let adoptedAt = try b.log("continuing from Laptop (machine-a): chapter 50 at 10%", from: bMark)
        let delivery = Date().timeIntervalSince(readOnA)
        try b.log("reloaded (chapter-change): Chapter 50", from: adoptedAt) // in the same handler
        let entry = try b.entry()
        #expect(entry.chapter == 50 && entry.progress == 10 && entry.continuedOn == "Laptop", "\(entry)")
        #expect(try a.entry().continuedOn == "", "A read it itself")
        timings.append("chapter 50 read on A → B's entry: \(String(format: "%.2f s", delivery)) (Syncthing's delivery)")

        (aMark, bMark) = (a.logLines.count, b.logLines.count)
        _ = try a.cli("progress", "40")
        let progressSeen = try b.log("continuing from Laptop (machine-a): chapter 50 at 40%", from: bMark)
        let seenAt = Date()
        try b.log("reloaded (progress-change): Chapter 50", from: progressSeen)
        let debounce = Date().timeIntervalSince(seenAt)
        #expect(debounce < 2 + 1.5, "the progress reload came \(debounce) s after the record, not after the 2 s debounce")
        #expect(try b.entry().progress == 40)
        timings.append("progress 40 on A → B's entry: the record's delivery + \(String(format: "%.2f s", debounce)) (the debounce)")

        // 2. A and B read at the same moment: both end on the reading with the greater stamp.
        (aMark, bMark) = (a.logLines.count, b.logLines.count)
        let updates = [(a.bus.clientEnvironment, 60), (b.bus.clientEnvironment, 61)]
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let (environment, chapter) = updates[index]
            _ = try? runCommand([Binary.dbmultiverse, "update", "--chapter", "\(chapter)", "--name", "Chapter \(chapter)", "--progress", "0"],
                                environment: environment)
        }
        let stampA = try a.writtenStamp(chapter: 60, from: aMark)
        let stampB = try b.writtenStamp(chapter: 61, from: bMark)
        let aWins = (stampA.time, stampA.count, "machine-a") > (stampB.time, stampB.count, "machine-b")
        let (winner, loser, winnerChapter) = aWins ? (a, b, 60) : (b, a, 61)
        try loser.log("continuing from \(winner.name) (\(winner.machine)): chapter \(winnerChapter) ", from: aWins ? bMark : aMark)
        // The winner has read the loser's record (it is delivered, and older).
        try winner.log("read \(loser.machine).json (\(loser.name)): chapter \(aWins ? 61 : 60) ", from: aWins ? aMark : bMark)
        _ = try winner.cli("reload")
        #expect(try a.entry().chapter == winnerChapter && b.entry().chapter == winnerChapter)
        #expect(!winner.logLines[(aWins ? aMark : bMark)...].contains { $0.contains("continuing from \(loser.name)") })
        timings.append("A and B read \(abs(stampA.time - stampB.time)) ms apart: both on chapter \(winnerChapter)")

        // 3. A's clock 10 minutes ahead (libfaketime on A's service): a later reading on B still
        //    wins on both.
        try a.stopService()
        // The library itself, preloaded: the `faketime` program forks and would keep SIGTERM from the service.
        try a.startService(environment: ["LD_PRELOAD": try Self.libfaketime(), "FAKETIME": "+10m", "FAKETIME_DONT_FAKE_MONOTONIC": "1"])
        (aMark, bMark) = (a.logLines.count, b.logLines.count)
        try a.read(70)
        let skewed = try a.writtenStamp(chapter: 70, from: aMark)
        let ahead = Double(skewed.time) / 1000 - Date().timeIntervalSince1970
        #expect(ahead > 590 && ahead < 610, "A's clock is \(ahead) s ahead")
        try b.log("continuing from Laptop (machine-a): chapter 70 ", from: bMark)
        try b.read(71)
        let later = try b.writtenStamp(chapter: 71, from: bMark)
        #expect((later.time, later.count) > (skewed.time, skewed.count), "B's reading is stamped after what it saw")
        try a.log("continuing from Desktop (machine-b): chapter 71 ", from: aMark)
        #expect(try a.entry().chapter == 71 && b.entry().chapter == 71)
        timings.append("A 10 min ahead: B's later chapter 71 won on both")

        // 4. A's Syncthing stopped while B reads twice; started again, A adopts B's latest.
        try a.stopService()
        try a.startService()
        a.syncthing.stop()
        (aMark, bMark) = (a.logLines.count, b.logLines.count)
        try b.read(80)
        _ = try b.writtenStamp(chapter: 80, from: bMark)
        try b.read(81)
        _ = try b.writtenStamp(chapter: 81, from: bMark)
        #expect(try a.entry().chapter == 71, "A cannot have seen B's readings")
        let reconnect = b.syncthing.logCount
        try a.syncthing.start()
        try a.syncthing.waitForConnection(to: b.syncthing)
        try b.syncthing.waitForConnection(to: a.syncthing, from: reconnect)
        try a.log("continuing from Desktop (machine-b): chapter 81 ", from: aMark)
        #expect(try a.entry().chapter == 81)
        timings.append("A's Syncthing back: A on B's latest, chapter 81")

        // 5. A conflict copy (older) and a sync tool's half-written temporary files change nothing.
        (aMark, bMark) = (a.logLines.count, b.logLines.count)
        let old = Self.record(machine: "machine-a", computer: "Laptop", time: 1_000, chapter: 5)
        let conflict = "machine-a.sync-conflict-20261128-150000-ABCDEFG.json"
        try Self.writeAtomically(old, to: b.syncthing.folder + "/" + conflict)
        let newer = Self.record(machine: "machine-c", computer: "Phone", time: 9_000_000_000_000, chapter: 99)
        for temporary in [".syncthing.machine-c.json.tmp", "~syncthing~machine-c.json.tmp", ".~machine-c.json", "machine-c.json.part"] {
            try Data(newer.prefix(newer.count / 2)).write(to: URL(fileURLWithPath: b.syncthing.folder + "/" + temporary))
        }
        try b.log("read \(conflict) (Laptop): chapter 5 ", from: bMark)
        try a.log("read \(conflict) (Laptop): chapter 5 ", from: aMark) // delivered: read there too
        for computer in [a, b] {
            _ = try computer.cli("reload")
            #expect(try computer.entry().chapter == 81)
        }
        let bLines = b.logLines[bMark...]
        #expect(!bLines.contains { $0.contains("machine-c") || $0.contains("continuing from") }, "\(bLines)")
        #expect(!a.logLines[aMark...].contains { $0.contains("continuing from") })
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: a.syncthing.folder).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") })
                == ["machine-a.json", "machine-b.json", conflict], "a conflict copy is never written")

        // 6. A 10 MB record and one of bad JSON are skipped, each logged once; the others still apply.
        (aMark, bMark) = (a.logLines.count, b.logLines.count)
        try Self.writeAtomically(Data(#"{"machine":"machine-x","#.utf8) + Data(repeating: 0x20, count: 10 * 1024 * 1024),
                                 to: a.syncthing.folder + "/machine-x.json")
        try Self.writeAtomically(Data(#"{"machine":"machine-y","computer":"#.utf8), to: a.syncthing.folder + "/machine-y.json")
        try Self.writeAtomically(Self.record(machine: "machine-z", computer: "Tablet", time: 9_000_000_000_000, chapter: 90),
                                 to: a.syncthing.folder + "/machine-z.json")
        for (computer, mark) in [(a, aMark), (b, bMark)] {
            try computer.log("continuing from Tablet (machine-z): chapter 90 ", from: mark)
            try computer.log("machine-x.json is 10485783 bytes, more than 65536", from: mark)
            try computer.log("machine-y.json: ", from: mark)
            _ = try computer.cli("reload") // reads the folder again: the same problems are not logged again
            _ = try computer.cli("reload")
            let skips = computer.logLines[mark...].filter { $0.contains("skipping a record") }
            #expect(skips.count == 2, "\(computer.name): \(skips)")
            #expect(try computer.entry().chapter == 90)
        }
        timings.append("conflict copy, temporary files, a 10 MB record and bad JSON: skipped; Tablet's chapter 90 applied on both")

        a.stop()
        b.stop()
        timings.append("in all: \(Self.seconds(since: started))")
        print("➜ SyncFolderSyncthingTests: " + timings.joined(separator: "; "))
    }

    /// Debian's libfaketime (`/usr/lib/<triplet>/faketime/libfaketime.so.1`).
    static func libfaketime() throws -> String {
        let found = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib"))?.lazy
            .map { "/usr/lib/\($0)/faketime/libfaketime.so.1" }.first { FileManager.default.fileExists(atPath: $0) }
        guard let found else { throw FixtureError("no libfaketime: scripts/test/install-deps.sh installs faketime") }
        return found
    }

    /// A record as another computer writes it.
    static func record(machine: String, computer: String, time: Int64, chapter: Int) -> Data {
        Data(#"{"machine":"\#(machine)","computer":"\#(computer)","readAt":\#(time / 1000),"time":\#(time),"count":0,"chapter":\#(chapter),"name":"Chapter \#(chapter)","progress":0}"#.utf8)
    }

    /// Writes aside in the same folder (a hidden name, as the sync tools do), then renames.
    static func writeAtomically(_ data: Data, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = folder + "/.writing-" + UUID().uuidString
        try data.write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw FixtureError("rename \(temporary) \(path): \(errno)") }
    }

    static func seconds(since start: Date) -> String { String(format: "%.1f s", Date().timeIntervalSince(start)) }
}
