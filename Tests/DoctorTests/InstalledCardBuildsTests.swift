import DBusTestSupport
import DesktopTestSupport
@testable import Doctor
import Foundation
import Testing
import TestingTraits

/// The doctor's reading of the cards' builds (`CardBuilds`) and of the selector (`SelectCards`) on
/// what `make install` (with select-cards) puts in a temporary prefix, with the debug-built binary.
@Suite(.timeLimit(.minutes(10)), .offThePool) struct InstalledCardBuildsTests {
    @Test func theBuildsAreReadFromAnInstalledPrefix() throws {
        let root = try makeTemporaryDirectory("dbm-card-builds", for: [.programs])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let home = root + "/home", prefix = root + "/home/.local"
        let environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin", "HOME": home,
            "XDG_CONFIG_HOME": home + "/.config", "XDG_DATA_HOME": prefix + "/share", "LANG": "C.UTF-8",
        ]
        let binary = try requireBuiltProduct("dbmultiverse")
        let install = try runCommand(["make", "--no-print-directory", "-C", repositoryRoot.path, "install", "PREFIX=\(prefix)", "BINARY=\(binary)"],
                                     environment: environment, timeout: 60)
        #expect(install.status == 0, "\(install)")
        let extensionFolder = prefix + "/share/gnome-shell/extensions/dbmultiverse@nobadi.com"
        let builds = try #require(CardBuilds.read(extensionFolder, versions: CardBuilds.gnomeShellVersions))
        #expect(builds.all.map(\.name) == ["gnome-shell-43", "gnome-shell-45"])
        #expect(builds.all.last?.versions == [45, 46, 47, 48, 49, 50, 51])
        #expect(builds.selectCommand == prefix + "/libexec/dbmultiverse/select-cards")
        let plasma = try #require(CardBuilds.read(prefix + "/share/plasma/plasmoids/com.nobadi.dbmultiverse", versions: CardBuilds.plasmaVersion))
        #expect(plasma.all == [.init(name: "plasma-5", versions: [5]), .init(name: "plasma-6", versions: [6])])
        // Which build fits is the installed select-cards's answer (`--query`), here for a stand-in GNOME Shell 48.7.
        try FileManager.default.createDirectory(atPath: root + "/tools", withIntermediateDirectories: true)
        try "#!/bin/sh\necho 'GNOME Shell 48.7'\n".write(toFile: root + "/tools/gnome-shell", atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root + "/tools/gnome-shell")
        let surroundings = Surroundings(environment: ["PATH": root + "/tools:/usr/bin:/bin"], now: 1_795_640_000,
                                        commands: ProcessRunner(environment: ["PATH": root + "/tools:/usr/bin:/bin"]))
        #expect(SelectCards.ask("gnome-shell", card: extensionFolder, surroundings) == .success(CardChoice(version: "48.7", build: "gnome-shell-45")))
        // Where it is looked for: the one the environment names, beside the cards, beside the binary;
        // nothing guessed from the binary's folder (a build tree's name says nothing of where the source is).
        #expect(SelectCards.candidates(card: extensionFolder, executable: "/src/dbm/.build/x86_64-unknown-linux-gnu/debug/dbmultiverse",
                                       environment: ["DBMULTIVERSE_SELECT_CARDS": "/src/dbm/desktop/select-cards"])
                    == ["/src/dbm/desktop/select-cards", prefix + "/libexec/dbmultiverse/select-cards",
                        "/src/dbm/.build/x86_64-unknown-linux-gnu/libexec/dbmultiverse/select-cards", "/src/dbm/.build/x86_64-unknown-linux-gnu/debug/select-cards"])
        #expect(SelectCards.candidates(card: nil, executable: "/src/dbm/.build/x86_64-unknown-linux-gnu/debug/dbmultiverse", environment: [:])
                    == ["/src/dbm/.build/x86_64-unknown-linux-gnu/libexec/dbmultiverse/select-cards", "/src/dbm/.build/x86_64-unknown-linux-gnu/debug/select-cards"])
    }
}
