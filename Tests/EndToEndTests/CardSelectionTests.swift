import DBusTestSupport
import DesktopTestSupport
import Foundation
import Testing
import TestingTraits

/// desktop/select-cards, which points the folders GNOME Shell and Plasma read at the build of each
/// card that fits the installed desktop (docs/gnome-shell.md, docs/plasma.md): run by `make install`,
/// by the package at install and by its dpkg trigger when the desktop changes. Here against an
/// installed prefix, with the desktop's versions given by stand-ins: a `gnome-shell` that prints a
/// version (or fails, leaving `dpkg-query`'s record), and Qt's QML folders under DPKG_ROOT. The real
/// shells and Plasma load what it chooses in the release chroots' card checks.
@Suite(.timeLimit(.minutes(2)), .offThePool) struct CardSelectionTests {
    /// A prefix installed by `make install` (the cards' builds and select-cards), and a folder of
    /// stand-in programs put first on PATH.
    final class Installed {
        let home: DesktopHome
        let tools: String
        var prefix: String { home.prefix }
        var extensionLink: String { prefix + "/share/gnome-shell/extensions/dbmultiverse@nobadi.com" }
        var plasmoidLink: String { prefix + "/share/plasma/plasmoids/com.nobadi.dbmultiverse" }

        init() throws {
            home = try DesktopHome()
            tools = home.root.path + "/tools"
            try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
            let install = try DesktopInstall.make(["install", "PREFIX=\(home.prefix)"], environment: home.environment)
            #expect(install.status == 0, "\(install)")
        }

        /// A stand-in `name` on PATH running `script` (sh).
        func tool(_ name: String, _ script: String) throws {
            try DesktopHome.write("#!/bin/sh\n\(script)\n", to: tools + "/" + name)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tools + "/" + name)
        }

        /// Runs select-cards with the stand-ins first on PATH and `root` as DPKG_ROOT.
        func select(_ arguments: [String] = [], root: String = "/nonexistent") throws -> CommandResult {
            var environment = home.environment
            environment["PATH"] = tools + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["DPKG_ROOT"] = root
            return try runCommand([prefix + "/libexec/dbmultiverse/select-cards"] + arguments, environment: environment)
        }

        func target(_ link: String) -> String? { try? FileManager.default.destinationOfSymbolicLink(atPath: link) }
    }

    /// A DPKG_ROOT whose Qt `qt` QML folder has Plasma's core module (Plasma 5 under Qt 5, 6 under Qt 6).
    static func plasmaRoot(qt: Int, in installed: Installed) throws -> String {
        let root = installed.home.root.path + "/root-qt\(qt)"
        try FileManager.default.createDirectory(atPath: root + "/usr/lib/x86_64-linux-gnu/qt\(qt)/qml/org/kde/plasma/core",
                                                withIntermediateDirectories: true)
        return root
    }

    @Test(arguments: [("GNOME Shell 43.9", "gnome-shell-43"), ("GNOME Shell 44.10", "gnome-shell-43"),
                      ("GNOME Shell 45.0", "gnome-shell-45"), ("GNOME Shell 48.7", "gnome-shell-45"),
                      ("GNOME Shell 51.0", "gnome-shell-45"), ("GNOME Shell 52.alpha", "gnome-shell-45")])
    func eachGnomeShellGetsTheBuildForItsVersion(version: String, build: String) throws {
        let installed = try Installed()
        try installed.tool("gnome-shell", "echo '\(version)'")
        let run = try installed.select()
        #expect(run.status == 0, "\(run)")
        #expect(installed.target(installed.extensionLink) == "../../dbmultiverse/cards/\(build)", "\(run)")
        let metadata = try String(contentsOfFile: installed.extensionLink + "/metadata.json", encoding: .utf8)
        #expect(metadata.contains(build == "gnome-shell-43" ? "[\"43\", \"44\"]" : "\"51\"]"), "\(metadata)")
    }

    /// Mid-upgrade the new gnome-shell may not run yet: dpkg's record of it decides.
    @Test func aGnomeShellThatDoesNotRunYetIsReadFromDpkg() throws {
        let installed = try Installed()
        try installed.tool("gnome-shell", "exit 127")
        try installed.tool("dpkg-query", "printf 'install ok unpacked 48.7-0+deb13u1'")
        let run = try installed.select()
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "GNOME Shell 48: gnome-shell-45; Plasma (none): plasma-6\n", "\(run)")
        #expect(installed.target(installed.extensionLink) == "../../dbmultiverse/cards/gnome-shell-45")
    }

    @Test func plasmaGetsTheBuildOfItsQt() throws {
        let installed = try Installed()
        for (qt, build) in [(5, "plasma-5"), (6, "plasma-6")] {
            let run = try installed.select(root: try Self.plasmaRoot(qt: qt, in: installed))
            #expect(run.status == 0, "\(run)")
            #expect(installed.target(installed.plasmoidLink) == "../../dbmultiverse/cards/\(build)", "\(run)")
            let metadata = try String(contentsOfFile: installed.plasmoidLink + "/metadata.json", encoding: .utf8)
            #expect(metadata.contains("X-Plasma-API-Minimum-Version") == (qt == 6), "\(metadata)")
        }
    }

    /// `--print` (and `--query`) says what it would choose and changes nothing; on this machine the choice is that
    /// of its own desktop.
    @Test func printChangesNothing() throws {
        let installed = try Installed()
        let before = installed.target(installed.extensionLink)
        try installed.tool("gnome-shell", "echo 'GNOME Shell 48.7'")
        let run = try installed.select(["--print"], root: try Self.plasmaRoot(qt: 6, in: installed))
        #expect(run.status == 0 && run.stdout == "GNOME Shell 48: gnome-shell-45; Plasma 6: plasma-6\n", "\(run)")
        // `--query`, what doctor reads: the whole version, and `-` for a desktop that is not there.
        let query = try installed.select(["--query"], root: try Self.plasmaRoot(qt: 6, in: installed))
        #expect(query.status == 0 && query.stdout == "gnome-shell 48.7 gnome-shell-45\nplasma 6 plasma-6\n", "\(query)")
        try installed.tool("gnome-shell", "exit 127")
        try installed.tool("dpkg-query", "exit 1")
        #expect(try installed.select(["--query"]).stdout == "gnome-shell - gnome-shell-45\nplasma - plasma-6\n")
        #expect(installed.target(installed.extensionLink) == before)
    }

    /// An older install's copy of the card (a folder, not a link) is replaced; somebody else's
    /// folder under our name is left as it is, and said.
    @Test func aCopyOfOursIsReplacedAndAForeignFolderIsLeft() throws {
        let installed = try Installed()
        try FileManager.default.removeItem(atPath: installed.extensionLink)
        try DesktopHome.write("{\"uuid\": \"dbmultiverse@nobadi.com\"}\n", to: installed.extensionLink + "/metadata.json")
        let replaced = try installed.select()
        #expect(replaced.status == 0, "\(replaced)")
        #expect(installed.target(installed.extensionLink) != nil)

        try FileManager.default.removeItem(atPath: installed.plasmoidLink)
        try DesktopHome.write("{\"KPlugin\": {\"Id\": \"org.example.other\"}}\n", to: installed.plasmoidLink + "/metadata.json")
        let left = try installed.select()
        #expect(left.status == 1, "\(left)")
        #expect(left.stderr.contains("is a folder that is not DBMultiverse's card: left as it is"), "\(left)")
        #expect(FileManager.default.fileExists(atPath: installed.plasmoidLink + "/metadata.json"))
    }

    /// `--remove` (the package's prerm) removes our links only.
    @Test func removeTakesOnlyOurLinks() throws {
        let installed = try Installed()
        let run = try installed.select(["--remove"])
        #expect(run.status == 0, "\(run)")
        #expect(installed.target(installed.extensionLink) == nil && installed.target(installed.plasmoidLink) == nil)
        try FileManager.default.createSymbolicLink(atPath: installed.plasmoidLink, withDestinationPath: "/elsewhere")
        #expect(try installed.select(["--remove"]).status == 0)
        #expect(installed.target(installed.plasmoidLink) == "/elsewhere")
    }
}
