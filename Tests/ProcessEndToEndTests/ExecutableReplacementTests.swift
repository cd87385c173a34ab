import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Glibc
import Testing
import TestingTraits

/// What runs stays what is installed (docs/install.md, "Upgrades"): the service and the notifier
/// watch the file they were started from, and when an upgrade replaces it (dpkg renames the new file
/// over it) or a removal deletes it, the service ends — the bus starts the installed one at the
/// next call, or nothing once it is gone — and the notifier runs the new file in its own process
/// (which needs no unit or session to start it again). Other changes in their folder, and their own
/// file touched or its mode changed, stop nothing. Here the built executables are copied into a
/// folder standing for /usr/libexec/dbmultiverse, changed as dpkg changes it.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .offThePool) struct ExecutableReplacementTests {
    /// A folder holding a copy of one of the built executables, changed as dpkg changes
    /// /usr/libexec/dbmultiverse.
    final class Libexec {
        let folder: String
        let path: String
        private let source: String

        init(_ program: String) throws {
            folder = try makeTemporaryDirectory("dbm-libexec")
            source = program
            path = folder + "/" + URL(fileURLWithPath: program).lastPathComponent
            try FileManager.default.copyItem(atPath: program, toPath: path)
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) } // a temporary folder: best effort

        /// dpkg's unpacking of a new version: the new file written beside it, then renamed over it.
        func replace() throws {
            try FileManager.default.copyItem(atPath: source, toPath: path + ".dpkg-new")
            guard rename(path + ".dpkg-new", path) == 0 else { throw FixtureError("rename: \(String(cString: strerror(errno)))") }
        }

        /// dpkg's removal.
        func remove() throws { try FileManager.default.removeItem(atPath: path) }

        /// What happens beside it in an upgrade (the other programs of the folder replaced, one
        /// removed) and to its own file without replacing it (its mode set again, touched).
        func changeAround() throws {
            for name in ["select-cards", "dbmultiverse-browser-host"] {
                try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: folder + "/" + name + ".dpkg-new"))
                guard rename(folder + "/" + name + ".dpkg-new", folder + "/" + name) == 0 else { throw FixtureError("rename \(name)") }
            }
            try FileManager.default.removeItem(atPath: folder + "/dbmultiverse-browser-host")
            try FileManager.default.setAttributes([.posixPermissions: 0o755, .modificationDate: Date()], ofItemAtPath: path)
        }
    }

    /// The pid of the connection owning `name` on the bus.
    func owner(_ name: String, on bus: PrivateBus) throws -> Int32? {
        let status = try runCommand(["busctl", "--user", "status", name], environment: bus.clientEnvironment)
        return status.stdout.split(separator: "\n").first { $0.hasPrefix("PID=") }.flatMap { Int32($0.dropFirst(4)) }
    }

    /// The process runs the file at `path` as it is now (not a replaced or removed one).
    func runsTheInstalledFile(_ pid: Int32, _ path: String) -> Bool {
        guard let running = runningIdentity(pid), let installed = fileIdentity(path) else { return false }
        return running == installed && runningExecutable(pid)?.hasSuffix(" (deleted)") == false
    }

    @Test func theServiceEndsWhenItsExecutableIsReplacedAndTheBusStartsTheNewOne() throws {
        let libexec = try Libexec(Binary.service)
        let data = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let bus = try PrivateBus(activationEnvironment: ["DBMULTIVERSE_DATA_DIR": data, "DBMULTIVERSE_BROWSER": "none"])
        defer { bus.stop() }
        try bus.installActivationFile(name: "com.nobadi.DBMultiverse", exec: libexec.path)
        func entry() throws -> CommandResult { try runCommand([Binary.dbmultiverse, "entry"], environment: bus.clientEnvironment) }

        #expect(try entry().status == 0)
        let first = try #require(try owner("com.nobadi.DBMultiverse", on: bus))
        #expect(runsTheInstalledFile(first, libexec.path))

        try libexec.changeAround()
        #expect(try entry().status == 0)
        #expect(try owner("com.nobadi.DBMultiverse", on: bus) == first, "the service did not stay through changes that are not its own file's")
        #expect(!Spawn.waitUntilEnded(first, timeout: 0))

        try libexec.replace()
        #expect(Spawn.waitUntilEnded(first, timeout: 10), "the service still runs its replaced executable")
        #expect(try entry().status == 0)
        let second = try #require(try owner("com.nobadi.DBMultiverse", on: bus))
        #expect(second != first && runsTheInstalledFile(second, libexec.path), "\(String(describing: runningExecutable(second)))")

        try libexec.remove()
        #expect(Spawn.waitUntilEnded(second, timeout: 10), "the service still runs after its executable was removed")
        let gone = try entry()
        #expect(gone.status != 0, "\(gone)")
        #expect(try owner("com.nobadi.DBMultiverse", on: bus) == nil)
    }

    @Test func theNotifierRunsItsReplacementInItsOwnProcessAndEndsWhenRemoved() throws {
        let libexec = try Libexec(builtProduct("dbmultiverse-notifier"))
        let data = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let bus = try PrivateBus()
        defer { bus.stop() }
        let notifier = try StreamingCommand(["sh", "-c", "exec \"$0\" --no-tray 2>&1", libexec.path],
                                            environment: bus.clientEnvironment.merging(["DBMULTIVERSE_DATA_DIR": data]) { $1 })
        defer { notifier.stop() }
        let started = try notifier.waitForLine(timeout: 10, "the notifier's start") { $0.contains("following com.nobadi.DBMultiverse") }
        let pid = notifier.processIdentifier
        #expect(try owner("com.nobadi.DBMultiverse.Notifier", on: bus) == pid)

        try libexec.changeAround()
        let ping = try runCommand(["busctl", "--user", "call", "com.nobadi.DBMultiverse.Notifier", "/", "org.freedesktop.DBus.Peer", "Ping"],
                                  environment: bus.clientEnvironment)
        #expect(ping.status == 0, "\(ping)")
        #expect(notifier.terminationStatus == nil && !notifier.output.contains { $0.contains("stopping") }, "\(notifier.output)")

        try libexec.replace()
        try notifier.waitForLine(timeout: 10, "the replacement seen") { $0.contains("\(libexec.path) was replaced (an upgrade): stopping") }
        // The same process runs the new file, with the same arguments, and owns the name again.
        try notifier.waitForLine(from: started.index + 1, timeout: 10, "the new notifier's start") { $0.contains("following com.nobadi.DBMultiverse") }
        #expect(notifier.output.filter { $0.contains("no tray item (--no-tray)") }.count == 2, "\(notifier.output)")
        #expect(notifier.terminationStatus == nil && runsTheInstalledFile(pid, libexec.path), "\(String(describing: runningExecutable(pid)))")
        #expect(try owner("com.nobadi.DBMultiverse.Notifier", on: bus) == pid)

        try libexec.remove()
        try notifier.waitForLine(timeout: 10, "the removal seen") { $0.contains("\(libexec.path) was removed: stopping") }
        #expect(try notifier.terminate(0) == 0) // signal 0: only waits for the exit
    }
}
