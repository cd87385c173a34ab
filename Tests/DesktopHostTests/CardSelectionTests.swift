import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Testing
import TestingTraits

/// desktop/select-cards, which points the folders GNOME Shell and Plasma read at the build of each
/// card that fits the installed desktop (docs/gnome-shell.md, docs/plasma.md): run by `make install`,
/// by the package at install and by its dpkg trigger when the desktop changes. Here against an
/// installed prefix, with the desktop's versions given by stand-ins: a `gnome-shell` that prints a
/// version (or fails, leaving `dpkg-query`'s record), and Qt's QML folders under DPKG_ROOT. The real
/// shells and Plasma load what it chooses in the release chroots' card checks.
@Suite(.timeLimit(.minutes(10)), .offThePool) struct CardSelectionTests {
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
        func select(_ arguments: [String] = [], root: String = "/nonexistent", timeout: TimeInterval = 20) throws -> CommandResult {
            var environment = home.environment
            environment["PATH"] = tools + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["DPKG_ROOT"] = root
            return try runCommand([prefix + "/libexec/dbmultiverse/select-cards"] + arguments, environment: environment, timeout: timeout)
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
        // And what is at the cards' places: the links make install made for this machine's desktops.
        let places = try [("gnome-shell", installed.extensionLink), ("plasma", installed.plasmoidLink)].map { desktop, link in
            "place \(desktop) linked \(URL(fileURLWithPath: try #require(installed.target(link))).lastPathComponent)\n"
        }.joined()
        #expect(query.status == 0 && query.stdout == "gnome-shell 48.7 gnome-shell-45\nplasma 6 plasma-6\n" + places, "\(query)")
        try installed.tool("gnome-shell", "exit 127")
        try installed.tool("dpkg-query", "exit 1")
        #expect(try installed.select(["--query"]).stdout == "gnome-shell - gnome-shell-45\nplasma - plasma-6\n" + places)
        #expect(installed.target(installed.extensionLink) == before)
    }

    /// Only select-cards' own link is ever replaced: a folder at the card's place — another
    /// extension's, or a copy of this one (an admin's checkout, an older install: select-cards cannot
    /// tell them apart) — is left as it is and said, with what to do; `--query` names it.
    @Test func aFolderThatIsNotItsLinkIsLeftAndSaid() throws {
        let installed = try Installed()
        try FileManager.default.removeItem(atPath: installed.extensionLink)
        let ours = "{\"uuid\": \"dbmultiverse@nobadi.com\"}\n"
        try DesktopHome.write(ours, to: installed.extensionLink + "/metadata.json")
        try FileManager.default.removeItem(atPath: installed.plasmoidLink)
        let other = "{\"KPlugin\": {\"Id\": \"org.example.other\"}}\n"
        try DesktopHome.write(other, to: installed.plasmoidLink + "/metadata.json")

        let left = try installed.select()
        #expect(left.status == 1, "\(left)")
        for link in [installed.extensionLink, installed.plasmoidLink] {
            #expect(left.stderr.contains("\(link) is a folder that is not DBMultiverse's card link (another extension's, or a copy): left as it is (to use the installed card: move it away, then run select-cards again)"), "\(left)")
        }
        #expect(try String(contentsOfFile: installed.extensionLink + "/metadata.json", encoding: .utf8) == ours)
        #expect(try String(contentsOfFile: installed.plasmoidLink + "/metadata.json", encoding: .utf8) == other)
        let query = try installed.select(["--query"])
        #expect(query.stdout.hasSuffix("place gnome-shell other-folder\nplace plasma other-folder\n"), "\(query)")
        #expect(try installed.select(["--remove"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: installed.extensionLink + "/metadata.json"))
        #expect(FileManager.default.fileExists(atPath: installed.plasmoidLink + "/metadata.json"))
    }

    /// A link someone made at the card's place (an admin's own checkout) is theirs: select-cards
    /// neither points it elsewhere nor removes it (the package's removal), and says so.
    @Test func aLinkOfSomebodyElsesIsLeftAndNeverRemoved() throws {
        let installed = try Installed()
        let checkout = installed.home.root.path + "/checkout/dbmultiverse@nobadi.com"
        try DesktopHome.write("{\"uuid\": \"dbmultiverse@nobadi.com\", \"shell-version\": [\"48\"]}\n", to: checkout + "/metadata.json")
        // Even one into the package's own cards folder, made by hand: not select-cards' relative link.
        let absolute = installed.prefix + "/share/dbmultiverse/cards/gnome-shell-43"
        for target in [checkout, absolute] {
            try FileManager.default.removeItem(atPath: installed.extensionLink)
            try FileManager.default.createSymbolicLink(atPath: installed.extensionLink, withDestinationPath: target)
            let run = try installed.select()
            #expect(run.status == 1, "\(run)")
            #expect(run.stderr.contains("\(installed.extensionLink) is a link to \(target), not one of select-cards' own: left as it is"), "\(run)")
            #expect(installed.target(installed.extensionLink) == target)
            #expect(try installed.select(["--query"]).stdout.contains("place gnome-shell other-link \(target)\n"))
            #expect(try installed.select(["--remove"]).status == 0)
            #expect(installed.target(installed.extensionLink) == target, "--remove took somebody else's link")
        }
    }

    /// The new link is made under a name of this run's own and renamed into place: a folder at the
    /// name an older select-cards used (`LINK.new`) is neither renamed into the card's place nor
    /// touched.
    @Test func aFolderBesideTheLinkIsNotTakenIntoPlace() throws {
        let installed = try Installed()
        try installed.tool("gnome-shell", "echo 'GNOME Shell 48.7'")
        let beside = installed.extensionLink + ".new"
        try DesktopHome.write("{\"uuid\": \"someone@else\"}\n", to: beside + "/metadata.json")
        try FileManager.default.removeItem(atPath: installed.extensionLink)
        let run = try installed.select()
        #expect(run.status == 0, "\(run)")
        #expect(installed.target(installed.extensionLink) == "../../dbmultiverse/cards/gnome-shell-45")
        #expect(try FileManager.default.contentsOfDirectory(atPath: beside) == ["metadata.json"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: installed.prefix + "/share/gnome-shell/extensions").sorted()
                    == ["dbmultiverse@nobadi.com", "dbmultiverse@nobadi.com.new"])
    }

    /// A card folder that leads elsewhere through a link (an admin moved the extensions): a relative
    /// link made there would point nowhere, so none is made; it is said, with the link to make by
    /// hand, and `--query` names it.
    @Test func aFolderThatLeadsElsewhereGetsNoDanglingLink() throws {
        let installed = try Installed()
        let elsewhere = installed.home.root.path + "/elsewhere/plasmoids"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let plasmoids = installed.prefix + "/share/plasma/plasmoids"
        try FileManager.default.removeItem(atPath: plasmoids)
        try FileManager.default.createSymbolicLink(atPath: plasmoids, withDestinationPath: elsewhere)
        let run = try installed.select(root: try Self.plasmaRoot(qt: 6, in: installed))
        #expect(run.status == 1, "\(run)")
        let real = try #require(URL(fileURLWithPath: elsewhere).resolvingSymlinksInPath().path as String?)
        #expect(run.stderr.contains("\(plasmoids) leads to \(real) through a link, where a relative link would point nowhere: no card linked there"), "\(run)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
        #expect(try installed.select(["--query"]).stdout.contains("place plasma folder-link \(real)\n"))
    }

    /// A desktop program that hangs costs its deadline, no more: select-cards kills it (and what it
    /// started), falls back on dpkg's record, and leaves nothing running. The package's postinst and
    /// its dpkg trigger run this code: a hung `gnome-shell --version` would hang apt.
    @Test func aHangingGnomeShellCostsItsDeadlineOnly() throws {
        let installed = try Installed()
        let marker = "3600.\(getpid())\(Int.random(in: 1000...9999))"
        try installed.tool("gnome-shell", "sleep \(marker) & exec sleep \(marker)")
        try installed.tool("dpkg-query", "printf 'install ok installed 48.7-0+deb13u1'")
        let started = Date()
        let run = try installed.select(timeout: 30)
        #expect(!run.timedOut && run.status == 0, "\(run)")
        #expect(Date().timeIntervalSince(started) < 10, "select-cards took \(Date().timeIntervalSince(started)) s")
        #expect(run.stdout == "GNOME Shell 48: gnome-shell-45; Plasma (none): plasma-6\n", "\(run)")
        let left = processesLeft(containing: marker)
        #expect(left.isEmpty, "left running: \(left)")
    }

    /// The programs it runs get a clean environment: none of the caller's variables and a HOME of
    /// their own, removed afterwards. A maintainer script run after `su` (without `-`) or `sudo -E`
    /// has the user's HOME, where Debian 12's `gnome-shell --version` makes `~/.cache`, owned by root.
    @Test func theDesktopsProgramsWriteNothingInTheCallersHome() throws {
        let installed = try Installed()
        let home = installed.home.root.path + "/user-home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let seen = installed.home.root.path + "/seen-environment"
        try installed.tool("gnome-shell", "mkdir -p \"$HOME/.cache\"; env > '\(seen)'; echo 'GNOME Shell 48.7'")
        var environment = installed.home.environment
        environment["PATH"] = installed.tools + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["HOME"] = home
        environment["CALLERS_VARIABLE"] = "from sudo -E"
        let run = try runCommand([installed.prefix + "/libexec/dbmultiverse/select-cards", "--print"], environment: environment)
        #expect(run.status == 0 && run.stdout.hasPrefix("GNOME Shell 48:"), "\(run)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home).isEmpty)
        let variables = try String(contentsOfFile: seen, encoding: .utf8)
        #expect(!variables.contains("CALLERS_VARIABLE") && !variables.contains("HOME=\(home)\n"), "\(variables)")

        // This machine's own GNOME Shell (Debian 12's 43 makes ~/.cache when it says its version).
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/gnome-shell") {
            environment["PATH"] = "/usr/bin:/bin"
            let real = try runCommand([installed.prefix + "/libexec/dbmultiverse/select-cards", "--print"], environment: environment)
            #expect(real.status == 0 && real.stdout.hasPrefix("GNOME Shell "), "\(real)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: home).isEmpty)
        }
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
