import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Glibc
import Testing
import TestingTraits

/// `dbmultiverse sync-folder PATH|--off` against the built service (docs/sync.md): with the setting
/// unset nothing of the sync folder runs (no watch, no file); the command writes the config file
/// (keeping the rest) and the running service follows at once; a folder that goes away leaves the
/// position as it is and is watched for again; doctor names the folder and the computers seen.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .offThePool,
       .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct SyncFolderCommandTests {
    /// What the process `pid` holds open: its inotify instances, and whether it follows the mount table.
    static func watches(of pid: Int32) -> (inotify: Int, mountTable: Bool) {
        let folder = "/proc/\(pid)/fd"
        let targets = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)
        }
        return (targets.filter { $0 == "anon_inode:inotify" }.count, targets.contains { $0.hasSuffix("/mountinfo") })
    }

    /// A record of another computer, newer than anything read here (an hour ahead).
    static func phoneRecord(chapter: Int) -> Data {
        let time = Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000 + Int64(chapter)
        return Data(#"{"machine":"machine-phone","computer":"Phone","readAt":\#(time / 1000),"time":\#(time),"count":0,"chapter":\#(chapter),"name":"Chapter \#(chapter)","progress":5}"#.utf8)
    }

    static func put(_ data: Data, at path: String) throws {
        let temporary = (path as NSString).deletingLastPathComponent + "/.put-" + UUID().uuidString
        try data.write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw FixtureError("rename to \(path): \(errno)") }
    }

    @Test func theCommandTurnsSharingOnAndOffInTheRunningService() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let home = try DoctorHome()
        defer { home.remove() }
        try home.standIn("systemctl", "exit 1")
        let configPath = home.configHome + "/dbmultiverse/config"
        try home.write("language = fr\n# my settings\n", to: ".config/dbmultiverse/config")
        var environment = home.environment(bus: bus)
        environment["DBMULTIVERSE_MACHINE_ID"] = "machine-here"
        let service = try ServiceProcess(bus: bus, folder: home.dataFolder, environment: environment)
        let pid = service.command.processIdentifier
        let cli = { (arguments: [String]) in try runCommand([Binary.dbmultiverse] + arguments, environment: environment) }

        // Unset: no watch but the data folder's and the executable's (replaced by an upgrade, the
        // service ends), no mount table, no file of the sync folder's.
        #expect(try cli(["update", "--chapter", "42", "--name", "Here", "--progress", "30", "--page", "900"]).status == 0)
        #expect(Self.watches(of: pid) == (2, false))
        #expect(!FileManager.default.fileExists(atPath: home.dataFolder + "/syncedReading.json"))
        #expect(DoctorLine.parse(try cli(["doctor"]).stdout)["sync folder"] == nil, "no line while it is off")

        // On: the folder holds a newer reading from the phone; the service adopts it at once.
        let shared = home.home + "/Sync/dbmultiverse"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        try Self.put(Self.phoneRecord(chapter: 50), at: shared + "/machine-phone.json")
        var mark = service.lines.count
        let on = try cli(["sync-folder", "~/Sync/dbmultiverse"])
        #expect(on.status == 0 && on.stdout.contains("sync-folder = \(shared) written in \(configPath)."), "\(on)")
        #expect(try String(contentsOfFile: configPath, encoding: .utf8) == "language = fr\n# my settings\nsync-folder = \(shared)\n")
        try service.waitForLine(containing: "watching \(shared)", from: mark)
        try service.waitForLine(containing: "continuing from Phone (machine-phone): chapter 50 ", from: mark)
        let entry = try cli(["entry", "--format", "json"]).stdout
        #expect(entry.contains(#""chapter":50,"#) && entry.contains(#""continued-on":"Phone""#), "\(entry)")
        #expect(Self.watches(of: pid) == (3, true))
        #expect(FileManager.default.fileExists(atPath: shared + "/machine-here.json"), "chapter 42, read here before, was published")
        let doctor = DoctorLine.parse(try cli(["doctor"]).stdout)["sync folder"]
        #expect(doctor?.mark == "✓" && doctor?.detail.hasPrefix("~/Sync/dbmultiverse: Phone read ") == true
                && doctor?.detail.contains(" (this computer) read ") == true, "\(String(describing: doctor))")

        // The folder goes away (a drive unmounted, a folder deleted): the position stays; it comes back.
        mark = service.lines.count
        try FileManager.default.removeItem(atPath: shared)
        try service.waitForLine(containing: "not watching \(shared) (", from: mark)
        #expect(try cli(["entry", "--family", "small"]).stdout.hasPrefix("Ch. 50"))
        let away = DoctorLine.parse(try cli(["doctor"]).stdout)["sync folder"]
        #expect(away?.mark == "✗" && away?.detail.contains("is not there") == true, "\(String(describing: away))")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        try Self.put(Self.phoneRecord(chapter: 60), at: shared + "/machine-phone.json")
        try service.waitForLine(containing: "continuing from Phone (machine-phone): chapter 60 ", from: mark)

        // Off: the line removed, the rest kept; the watches go.
        mark = service.lines.count
        let off = try cli(["sync-folder", "--off"])
        #expect(off.status == 0, "\(off)")
        #expect(try String(contentsOfFile: configPath, encoding: .utf8) == "language = fr\n# my settings\n")
        try service.waitForLine(containing: "no longer sharing the reading position through \(shared)", from: mark)
        #expect(Self.watches(of: pid) == (2, false))
        #expect(try cli(["sync-folder"]).status == 2, "a folder or --off")
    }

    /// The sync folder on a drive that is unmounted, then mounted again with another computer's
    /// newer reading on it: the service keeps its position meanwhile, and reads the drive again
    /// when the mount table changes (no inotify event says so). The drive is a tmpfs in a mount
    /// namespace of the service's own, so nothing is mounted on this machine's.
    @Test func aDriveMountedAgainIsReadAgain() throws {
        guard getuid() == 0 else { try skip("mounting a tmpfs in a mount namespace needs root") }
        let bus = try PrivateBus()
        defer { bus.stop() }
        let base = try makeTemporaryDirectory("dbm-mount")
        defer { try? FileManager.default.removeItem(atPath: base) }
        let shared = base + "/drive", config = base + "/config/dbmultiverse"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "sync-folder = \(shared)\n".write(toFile: config + "/config", atomically: true, encoding: .utf8)
        try Self.phoneRecord(chapter: 60).write(to: URL(fileURLWithPath: base + "/phone.json"))
        let service = try ServiceProcess(
            bus: bus, folder: base + "/data",
            environment: ["XDG_CONFIG_HOME": base + "/config", "HOME": base, "DBMULTIVERSE_MACHINE_ID": "machine-here"],
            wrapper: ["unshare", "--mount", "--propagation", "private", "sh", "-c", "mount -t tmpfs dbm-drive \"$0\" && exec \"$@\"", shared])
        try service.waitForLine(containing: "watching \(shared)")
        let inNamespace = { (script: String) in
            try runCommand(["nsenter", "--target", "\(service.command.processIdentifier)", "--mount", "sh", "-c", script, "sh", shared, base])
        }
        #expect(try runCommand([Binary.dbmultiverse, "update", "--chapter", "42", "--name", "Here", "--progress", "30"],
                               environment: bus.clientEnvironment).status == 0)
        try service.waitForLine(containing: "wrote machine-here.json in \(shared)")
        // The service reads back what its watch reports of its own write: the drive is busy (umount's
        // exit status 32) while the record is open, so it is unmounted once that read is done.
        try service.waitForLine(containing: "read machine-here.json (")

        var mark = service.lines.count
        let unmount = try inNamespace("umount \"$1\"")
        #expect(unmount.status == 0, "\(unmount)")
        try service.waitForLine(containing: "\(shared) went away", from: mark)
        #expect(try runCommand([Binary.dbmultiverse, "entry", "--family", "small"], environment: bus.clientEnvironment).stdout.hasPrefix("Ch. 42"))

        mark = service.lines.count
        let remount = try inNamespace("mount -t tmpfs dbm-drive \"$1\" && cp \"$2/phone.json\" \"$1/.phone\" && mv \"$1/.phone\" \"$1/machine-phone.json\"")
        #expect(remount.status == 0, "\(remount)")
        try service.waitForLine(containing: "continuing from Phone (machine-phone): chapter 60 ", from: mark)
        #expect(try runCommand([Binary.dbmultiverse, "entry", "--family", "small"], environment: bus.clientEnvironment).stdout.hasPrefix("Ch. 60"))
    }
}
