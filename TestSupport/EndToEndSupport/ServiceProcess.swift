import ComicDomain
import DBus
package import DBusTestSupport
import DesktopTestSupport
package import Foundation
package import Testing

/// The real `dbmultiverse service` started directly on a private bus (not by activation), its log
/// (stderr, merged into stdout) read line by line as it comes.
package final class ServiceProcess {
    package let command: StreamingCommand

    /// Starts the service on `folder` and waits for its "serving" line (logged once it owns its
    /// name); as `user` when given, else as this process's user; with `environment` added to its
    /// own, started through `wrapper` (e.g. `faketime`) when given.
    package init(bus: PrivateBus, folder: String, as user: ServiceUser? = nil, environment extra: [String: String] = [:],
         wrapper: [String] = []) throws {
        var environment = bus.clientEnvironment
        environment["DBMULTIVERSE_DATA_DIR"] = folder
        environment["DBMULTIVERSE_BROWSER"] = "none"
        environment["DBMULTIVERSE_LOG_LEVEL"] = "info"
        environment.merge(extra) { $1 }
        // Another user runs a copy of the service's own executable; this user `dbmultiverse service`,
        // which execs the one built beside it.
        let service = user.map { $0.commandPrefix + [$0.binary] } ?? [Binary.dbmultiverse, "service"]
        command = try StreamingCommand(["sh", "-c", "exec \"$@\" 2>&1", "sh"] + wrapper + service, environment: environment)
        try command.waitForLine(timeout: 10, "the service's start") { $0.contains("serving com.nobadi.DBMultiverse") }
    }

    deinit { command.stop() }

    package var lines: [String] { command.output }

    /// Waits for a log line containing `text`, at index `from` or later; returns its index.
    @discardableResult
    package func waitForLine(containing text: String, from start: Int = 0) throws -> Int {
        try command.waitForLine(from: start, timeout: 10, "a log line containing '\(text)'") { $0.contains(text) }.index
    }
}

/// Another user to run the service as, for a test that needs a file the service cannot read:
/// this process reads every file whatever its mode when it runs as root.
package struct ServiceUser {
    package let uid: uid_t
    package let gid: gid_t
    /// The service executable it runs: a copy in a directory every user can reach (the build
    /// directory may not be, under a private home or with umask 077).
    package let binary: String

    /// Runs a command as this user, with no supplementary groups.
    package var commandPrefix: [String] { ["setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"] }

    /// `nobody` (and its group, whatever it is called), running a copy of the built service
    /// executable put in `shared`, a directory every user can reach. Cancels the test, saying why, when there is no
    /// `nobody` or it cannot run the binary here.
    package static func nobody(sharing shared: String) throws -> ServiceUser {
        var entry = passwd(), result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r("nobody", &entry, &buffer, buffer.count, &result) == 0, result != nil else {
            try skip("this process reads every file (root), and there is no user nobody to run the service as")
        }
        let binary = shared + "/dbmultiverse-service"
        // Copied by a child process, for the reason writeExecutable gives.
        let copy = try runCommand(["install", "-m", "755", Binary.service, binary], environment: testEnvironment())
        guard copy.status == 0 else { throw FixtureError("copying \(Binary.service): \(copy)") }
        let user = ServiceUser(uid: entry.pw_uid, gid: entry.pw_gid, binary: binary)
        let check = try runCommand(user.commandPrefix + [binary, "--version"], environment: testEnvironment())
        guard check.status == 0 else {
            try skip("this process reads every file (root), and nobody cannot run \(binary) here: \(check)")
        }
        return user
    }
}

/// Ends the current test (or test case) as skipped, printing why: Swift Testing 6.3 reports a
/// cancelled test case as passed, without the reason.
package func skip(_ reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Never {
    print("➜ \(Test.current?.name ?? "a test") skipped at \(sourceLocation): \(reason)")
    try Test.cancel(Comment(rawValue: reason), sourceLocation: sourceLocation)
}

/// Whether this process reads a file of mode 0000 (root, or a process with CAP_DAC_OVERRIDE).
package let readsEveryFile: Bool = {
    guard let folder = try? makeTemporaryDirectory("dbm-probe") else { return true }
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let probe = folder + "/unreadable"
    guard FileManager.default.createFile(atPath: probe, contents: Data("x".utf8)), chmod(probe, 0) == 0 else { return true }
    let fd = open(probe, O_RDONLY | O_CLOEXEC)
    if fd >= 0 { close(fd) }
    return fd >= 0
}()

/// Bad things in the data folder, for the real binary (HostileStorageTests covers the in-process
/// service's decoding cases; these add the file types and the log).
package enum BadFile: String, CaseIterable, CustomTestStringConvertible, Sendable {
    // currentChapterData.json itself
    case garbage, empty, directory, oversized, symlinkOutside, danglingSymlink, fifo, unreadable
    // the cover (currentChapterData.json is valid and points at it)
    case coverSymlinkOutside, coverOversized, coverFIFO, coverOutsideTheFolder
    // the folder
    case folderIsSymlink, folderIsDanglingSymlink

    package var testDescription: String { rawValue }
    package var isCover: Bool { rawValue.hasPrefix("cover") }

    /// What the service's one log line about it must say.
    package var reason: String {
        switch self {
        case .garbage, .empty: "currentChapterData.json: "
        case .directory: "is a directory, not a regular file"
        case .oversized: "bytes, more than 65536"
        case .symlinkOutside, .danglingSymlink: "is a symbolic link, which is not followed"
        case .fifo: "is a FIFO, not a regular file"
        case .unreadable: "Permission denied"
        case .coverSymlinkOutside, .coverOversized, .coverFIFO, .coverOutsideTheFolder, .folderIsSymlink: ""
        case .folderIsDanglingSymlink: "cannot create the data folder"
        }
    }
}

extension FaultScenarios {
    /// Installs `bad`, starts the real service, and checks: it serves the placeholder (or the
    /// entry without image), logs the reason exactly once although the problem is met again
    /// (three reloads re-read the folder), keeps answering, and recovers when a good file appears.
    package static func badFile(_ bad: BadFile) async throws {
        // A file unreadable to root's service needs the service to be someone else, and the
        // folders it uses reachable by that user.
        let needsOtherUser = bad == .unreadable && readsEveryFile
        let base = try makeTemporaryDirectory("dbm-bad", for: needsOtherUser ? [.otherUsers, .programs] : [])
        defer { try? FileManager.default.removeItem(atPath: base) }
        let serviceUser = try needsOtherUser ? ServiceUser.nobody(sharing: base) : nil
        let outside = base + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: false)
        var folder = base + "/data"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let chapterPath = folder + "/currentChapterData.json"
        let coverPath = folder + "/chapterCoverImage.jpg"
        try chapterJSON(number: 42, name: "Outside", progress: 35).write(to: URL(fileURLWithPath: outside + "/chapter.json"))
        try Data(jpegBytes()).write(to: URL(fileURLWithPath: outside + "/cover.jpg"))
        let goodChapterWithCover = chapterJSON(number: 42, name: "Vegeta", progress: 35, coverImagePath: coverPath)

        switch bad {
        case .garbage:
            try Data((0..<2048).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: chapterPath))
        case .empty:
            try Data().write(to: URL(fileURLWithPath: chapterPath))
        case .directory:
            try FileManager.default.createDirectory(atPath: chapterPath, withIntermediateDirectories: false)
        case .oversized:
            let padding = Data(String(repeating: " ", count: 64 * 1024).utf8)
            try (chapterJSON(number: 42, name: "Vegeta", progress: 35) + padding).write(to: URL(fileURLWithPath: chapterPath))
        case .symlinkOutside:
            try FileManager.default.createSymbolicLink(atPath: chapterPath, withDestinationPath: outside + "/chapter.json")
        case .danglingSymlink:
            try FileManager.default.createSymbolicLink(atPath: chapterPath, withDestinationPath: outside + "/nothing.json")
        case .fifo:
            #expect(mkfifo(chapterPath, 0o600) == 0)
        case .unreadable:
            // Mode 0: its owner cannot read it either, unless that is root; then the service runs
            // as another user, in a folder of its own.
            try chapterJSON(number: 42, name: "Vegeta", progress: 35).write(to: URL(fileURLWithPath: chapterPath))
            #expect(chmod(chapterPath, 0) == 0)
            if let serviceUser {
                #expect(chown(folder, serviceUser.uid, serviceUser.gid) == 0 && chmod(folder, 0o700) == 0)
            }
        case .coverSymlinkOutside:
            try goodChapterWithCover.write(to: URL(fileURLWithPath: chapterPath))
            try FileManager.default.createSymbolicLink(atPath: coverPath, withDestinationPath: outside + "/cover.jpg")
        case .coverOversized:
            try goodChapterWithCover.write(to: URL(fileURLWithPath: chapterPath))
            try Data(jpegBytes(8 * 1024 * 1024 + 1)).write(to: URL(fileURLWithPath: coverPath))
        case .coverFIFO:
            try goodChapterWithCover.write(to: URL(fileURLWithPath: chapterPath))
            #expect(mkfifo(coverPath, 0o600) == 0)
        case .coverOutsideTheFolder:
            try chapterJSON(number: 42, name: "Vegeta", progress: 35, coverImagePath: outside + "/cover.jpg")
                .write(to: URL(fileURLWithPath: chapterPath))
        case .folderIsSymlink:
            // The folder path itself is the user's choice and is followed; what is inside is not.
            try goodChapterWithCover.write(to: URL(fileURLWithPath: chapterPath))
            try Data(jpegBytes()).write(to: URL(fileURLWithPath: coverPath))
            try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: folder)
            folder = base + "/link"
        case .folderIsDanglingSymlink:
            try FileManager.default.removeItem(atPath: folder)
            try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: folder)
        }

        let bus = try PrivateBus(allowAnyUser: serviceUser != nil)
        defer { bus.stop() }
        let service = try ServiceProcess(bus: bus, folder: bad == .folderIsDanglingSymlink ? base + "/link" : folder,
                                         as: serviceUser)
        let client = try await BusClient.connect(.address(bus.address))
        let pid = try await servicePID(client)

        // Served as the placeholder, or the entry without image; asked again and again.
        for _ in 0..<3 {
            let entry = try await call(client, "GetCurrentEntry").decode([String: Variant].self)
            switch bad {
            case .folderIsSymlink:
                let real = URL(fileURLWithPath: coverPath).resolvingSymlinksInPath().path
                try expectEntry(entry, chapter: 42, name: "Vegeta", progress: 35, imagePath: real)
            case _ where bad.isCover:
                try expectEntry(entry, chapter: 42, name: "Vegeta", progress: 35, imagePath: "")
            default:
                try expectPlaceholder(entry)
            }
            _ = try await call(client, "ReloadAllTimelines")
        }
        // The third reload's log line comes after anything logged for the three re-reads.
        var last = 0
        for _ in 0..<3 { last = try service.waitForLine(containing: "reloaded (requested)", from: last) + 1 }
        let logged = service.lines.prefix(last).filter { $0.contains("serving the placeholder") || $0.contains("cannot create the data folder") }
        if bad.reason.isEmpty {
            #expect(logged.isEmpty, "\(logged)")
        } else {
            #expect(logged.count == 1, "logged \(logged.count) times: \(logged)")
            #expect(logged.first?.contains(bad.reason) == true, "\(logged)")
        }
        _ = try await call(client, "Ping", interface: peer)

        // Recovery: a good file appears, as another program writes it (temp + rename).
        switch bad {
        case .directory, .fifo:
            try FileManager.default.removeItem(atPath: chapterPath)
            try writeAtomically(chapterJSON(number: 43, name: "Recovered", progress: 10), to: chapterPath)
        case .folderIsDanglingSymlink:
            await expectError(comicError("StorageFailed"), containing: ["link"]) {
                try await call(client, "UpdateChapter", updateChapterArguments(
                    StoredState(number: 43, name: "Recovered", progress: 10, hasCover: false), cover: []))
            }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            _ = try await call(client, "UpdateChapter", updateChapterArguments(
                StoredState(number: 43, name: "Recovered", progress: 10, hasCover: false), cover: []))
        case _ where bad.isCover || bad == .folderIsSymlink:
            try? FileManager.default.removeItem(atPath: coverPath)
            try writeAtomically(Data(pngBytes()), to: coverPath)
            try writeAtomically(chapterJSON(number: 42, name: "Recovered", progress: 35, coverImagePath: coverPath), to: chapterPath)
        default:
            try writeAtomically(chapterJSON(number: 43, name: "Recovered", progress: 10), to: chapterPath,
                                owner: serviceUser.map { ($0.uid, $0.gid) })
        }
        try service.waitForLine(containing: "Recovered", from: last)
        let entry = try await call(client, "GetCurrentEntry").decode([String: Variant].self)
        if bad.isCover || bad == .folderIsSymlink {
            let real = URL(fileURLWithPath: coverPath).resolvingSymlinksInPath().path
            try expectEntry(entry, chapter: 42, name: "Recovered", progress: 35, imagePath: real)
        } else {
            try expectEntry(entry, chapter: 43, name: "Recovered", progress: 10)
        }
        #expect(try await servicePID(client) == pid)
        #expect(service.command.terminationStatus == nil, "the service exited")
    }

    /// The bus goes away under the running service: it exits promptly, non-zero, saying why.
    /// (NotifierProcessTests.losingTheBusExitsNonZero checks the same of the notifier.)
    package static func serviceLosesTheBus() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bus = try PrivateBus()
        let service = try ServiceProcess(bus: bus, folder: folder)
        bus.stop()
        try service.waitForLine(containing: "the session bus went away")
        #expect(try service.command.terminate(0, timeout: 5) == 1) // signal 0: only waits for the exit
    }
}
