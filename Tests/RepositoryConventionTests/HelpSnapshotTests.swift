import DBusTestSupport
import DesktopTestSupport
import Foundation
import Testing
import TestingTraits

/// `dbmultiverse --help` and the `--help` of every subcommand, compared with the text stored in
/// `Tests/Snapshots/help/` (swift-argument-parser's convention: help is what users read, so a
/// change to it shows in review). The commands are read from the SUBCOMMANDS section of each
/// help, so a new subcommand fails until its snapshot is added, and a snapshot whose command is
/// gone fails too.
///
/// To add or refresh snapshots, run
///
///     DBMULTIVERSE_RECORD_SNAPSHOTS=1 swift test --filter HelpSnapshotTests
///
/// It writes every snapshot that is missing or differs and removes those of commands that are
/// gone, failing each test it changed a file for; review `git diff Tests/Snapshots`, then run
/// again without the variable.
@Suite(.timeLimit(.minutes(10)), .offThePool, .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct HelpSnapshotTests {
    static let snapshots = repositoryRoot.appendingPathComponent("Tests/Snapshots/help")
    static let recording = ProcessInfo.processInfo.environment["DBMULTIVERSE_RECORD_SNAPSHOTS"] != nil

    /// A command of the binary: the subcommand path (empty for the binary itself).
    struct Command: Sendable, CustomTestStringConvertible {
        let path: [String]
        var testDescription: String { (["dbmultiverse"] + path).joined(separator: " ") }
        var snapshotFile: String { (["dbmultiverse"] + path).joined(separator: "-") + ".txt" }

        /// Its `--help`, at a fixed width (argument-parser wraps at `$COLUMNS`, else the terminal's)
        /// and in the C locale (the help is translated otherwise: TranslationTests reads it in French).
        func help() throws -> CommandResult {
            var environment = testEnvironment()
            environment["COLUMNS"] = "80"
            for variable in ["LINES", "LANGUAGE", "LC_ALL", "LC_MESSAGES"] { environment.removeValue(forKey: variable) }
            environment["LANG"] = "C"
            return try runCommand([Binary.dbmultiverse] + path + ["--help"], environment: environment)
        }
    }

    /// The binary and every subcommand, found through the SUBCOMMANDS sections of their help.
    static func commands() throws -> [Command] {
        var found: [Command] = []
        var pending = [Command(path: [])]
        while let command = pending.popLast() {
            found.append(command)
            let help = try command.help()
            guard help.status == 0 else { throw FixtureError("\(command.testDescription) --help: \(help)") }
            pending += subcommands(listedIn: help.stdout).map { Command(path: command.path + [$0]) }
        }
        return found.sorted { $0.snapshotFile < $1.snapshotFile }
    }

    /// The names under `SUBCOMMANDS:` in argument-parser's layout: each entry is indented by two
    /// spaces (its wrapped abstract further), and a blank line ends the section.
    static func subcommands(listedIn help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let heading = lines.firstIndex(of: "SUBCOMMANDS:") else { return [] }
        return lines[(heading + 1)...].prefix { !$0.isEmpty }
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .map { String($0.dropFirst(2).prefix { $0 != " " }) }
    }

    @Test func theSubcommandsAreFoundInTheHelp() throws {
        let paths = try Self.commands().map(\.path)
        #expect(paths.contains([]))
        #expect(paths.contains(["service"]) && paths.contains(["entry"]) && paths.contains(["notifier"]), "\(paths)")
    }

    @Test(arguments: try commands())
    func helpMatchesItsSnapshot(_ command: Command) throws {
        let help = try command.help()
        #expect(help.status == 0 && help.stderr.isEmpty, "\(help)")
        let file = Self.snapshots.appendingPathComponent(command.snapshotFile)
        let stored = try? String(contentsOf: file, encoding: .utf8)
        guard stored != help.stdout else { return }
        if Self.recording {
            // The cases run in parallel: one of them creates the folder (for a first recording).
            try? FileManager.default.createDirectory(at: Self.snapshots, withIntermediateDirectories: true)
            try help.stdout.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("wrote \(file.path): review it, then run again without DBMULTIVERSE_RECORD_SNAPSHOTS")
        } else if let stored {
            let (old, new) = (stored.split(separator: "\n", omittingEmptySubsequences: false),
                              help.stdout.split(separator: "\n", omittingEmptySubsequences: false))
            let line = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(old.count, new.count)
            Issue.record("""
                `\(command.testDescription) --help` differs from \(file.path) from line \(line + 1):
                stored: \(line < old.count ? String(old[line]) : "(end)")
                now:    \(line < new.count ? String(new[line]) : "(end)")
                If the change is intended, run with DBMULTIVERSE_RECORD_SNAPSHOTS=1 to update it.
                """)
        } else {
            Issue.record("no snapshot \(file.path) for `\(command.testDescription) --help`: run with DBMULTIVERSE_RECORD_SNAPSHOTS=1 to write it")
        }
    }

    @Test func everySnapshotIsOfACommand() throws {
        let expected = Set(try Self.commands().map(\.snapshotFile))
        let stored = (try? FileManager.default.contentsOfDirectory(atPath: Self.snapshots.path)) ?? []
        for name in stored.sorted() where !expected.contains(name) {
            let file = Self.snapshots.appendingPathComponent(name)
            if Self.recording {
                try FileManager.default.removeItem(at: file)
                Issue.record("removed \(file.path), whose command is gone")
            } else {
                Issue.record("\(file.path) is the snapshot of no command: remove it (or run with DBMULTIVERSE_RECORD_SNAPSHOTS=1)")
            }
        }
    }
}
