import DBusTestSupport
import DesktopTestSupport
import Foundation
import Glibc
@testable import Doctor
@testable import Recorder
import Testing
import TestingTraits
@testable import Widget

/// `make install` / `make uninstall` (docs/install.md) into temporary prefixes, with the debug-built
/// binary (`BINARY=`) so no release build is needed, and the desktop file checked by the stock
/// validators (`desktop-file-validate`, `systemd-analyze verify`).
@Suite(.timeLimit(.minutes(10)), .offThePool) struct InstallTests {
    @Test func theDesktopFileValidates() throws {
        let result = try runCommand(["desktop-file-validate", DesktopInstall.repository.appendingPathComponent(DesktopInstall.desktopSource).path])
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
    }

    @Test func theDesktopFileDeclaresTheHandlerAndTheAction() throws {
        let text = try String(contentsOf: DesktopInstall.repository.appendingPathComponent(DesktopInstall.desktopSource), encoding: .utf8)
        let lines = Set(text.split(separator: "\n").map(String.init))
        for line in ["Type=Application", "Icon=com.nobadi.DBMultiverse", "DBusActivatable=true",
                     "MimeType=x-scheme-handler/dbmultiverse;", "Exec=/usr/bin/dbmultiverse open %u",
                     "Actions=open-current;", "[Desktop Action open-current]", "Exec=/usr/bin/dbmultiverse open --current"] {
            #expect(lines.contains(line), "missing \(line)")
        }
    }

    /// A staging install (DESTDIR): exactly the expected files, the paths without DESTDIR in
    /// every Exec=, no desktop database or scheme registration; uninstall removes exactly them.
    @Test func stagedInstallAndUninstallTouchExactlyTheirFiles() throws {
        let home = try DesktopHome()
        let stage = home.root.appendingPathComponent("stage").path
        let prefix = "/opt/dbm-test"
        // Files that were there before must survive both steps untouched.
        let neighbours = ["\(prefix)/bin/other-tool", "\(prefix)/share/applications/other.desktop",
                          "\(prefix)/share/dbus-1/services/org.example.Other.service",
                          "\(prefix)/share/systemd/user/other.service"]
        for neighbour in neighbours {
            try DesktopHome.write("keep me\n", to: stage + neighbour)
        }
        let before = try DesktopHome.files(under: stage)

        let install = try DesktopInstall.make(["install", "PREFIX=\(prefix)", "DESTDIR=\(stage)"], environment: home.environment)
        #expect(install.status == 0, "\(install)")
        let installed = try DesktopHome.files(under: stage).subtracting(before)
        #expect(installed == Set((DesktopInstall.installedFiles(prefix: prefix) + home.hostManifests).map { stage + $0 }))
        try DesktopInstall.expectInstalledContents(root: stage, prefix: prefix)
        try DesktopInstall.expectHostManifests(root: stage, home: home, prefix: prefix)
        // A staging install leaves the database and the scheme registration to the package.
        #expect(!FileManager.default.fileExists(atPath: stage + "\(prefix)/share/applications/mimeinfo.cache"))
        #expect(!FileManager.default.fileExists(atPath: home.configHome + "/mimeapps.list"))
        let validate = try runCommand(["desktop-file-validate", stage + "\(prefix)/share/applications/com.nobadi.DBMultiverse.desktop"])
        #expect(validate.status == 0 && validate.stdout.isEmpty && validate.stderr.isEmpty, "\(validate)")

        let uninstall = try DesktopInstall.make(["uninstall", "PREFIX=\(prefix)", "DESTDIR=\(stage)"], environment: home.environment)
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(try DesktopHome.files(under: stage) == before)
        // The browsers' folders install created are gone too.
        for folder in [home.home + "/.mozilla", home.configHome + "/chromium", home.configHome + "/BraveSoftware"] {
            #expect(!FileManager.default.fileExists(atPath: stage + folder), "\(folder)")
        }
        for neighbour in neighbours {
            #expect(try String(contentsOfFile: stage + neighbour, encoding: .utf8) == "keep me\n")
        }
    }

    /// A real per-user install (PREFIX under a temporary HOME, no DESTDIR): the scheme is
    /// registered, the installed units pass `systemd-analyze verify --user`, and uninstall
    /// removes our files and unregisters the handler from the database.
    @Test func userInstallRegistersTheSchemeAndVerifies() throws {
        let home = try DesktopHome()
        try DesktopHome.write("[Desktop Entry]\nType=Application\nName=Other\nExec=other %u\nMimeType=x-scheme-handler/other;\n",
                              to: home.prefix + "/share/applications/other.desktop")
        let before = try DesktopHome.files(under: home.root.path)

        let install = try home.install()
        #expect(install.status == 0, "\(install)")
        let installed = Set(DesktopInstall.installedFiles(prefix: home.prefix) + home.hostManifests)
        let generated: Set = [home.prefix + "/share/applications/mimeinfo.cache", home.configHome + "/mimeapps.list"]
        #expect(try DesktopHome.files(under: home.root.path).subtracting(before) == installed.union(generated))
        try DesktopInstall.expectInstalledContents(root: "", prefix: home.prefix)
        try DesktopInstall.expectHostManifests(root: "", home: home, prefix: home.prefix)

        // The scheme: xdg-mime's default (mimeapps.list) and the desktop database (mimeinfo.cache).
        let query = try runCommand(["xdg-mime", "query", "default", "x-scheme-handler/dbmultiverse"], environment: home.environment)
        #expect(query.status == 0 && query.stdout == "com.nobadi.DBMultiverse.desktop\n", "\(query)")
        let cache = try String(contentsOfFile: home.prefix + "/share/applications/mimeinfo.cache", encoding: .utf8)
        #expect(cache.contains("x-scheme-handler/dbmultiverse=com.nobadi.DBMultiverse.desktop;"), "\(cache)")
        #expect(cache.contains("x-scheme-handler/other=other.desktop;"), "\(cache)")

        // systemd checks the installed units, their ExecStart= binary included.
        let units = try FileManager.default.contentsOfDirectory(atPath: home.prefix + "/share/systemd/user").sorted()
        #expect(units.contains("dbmultiverse.service"))
        for unit in units {
            let verify = try runCommand(["systemd-analyze", "verify", "--user", home.prefix + "/share/systemd/user/" + unit],
                                        environment: home.environment, timeout: 60)
            #expect(verify.status == 0 && verify.stdout.isEmpty && verify.stderr.isEmpty, "\(unit): \(verify)")
        }

        let uninstall = try DesktopInstall.make(["uninstall", "PREFIX=\(home.prefix)"], environment: home.environment)
        #expect(uninstall.status == 0, "\(uninstall)")
        // Our files are gone; what remains is what was there plus the two generated files, which
        // belong to the user (mimeapps.list) and to the database (refreshed without us).
        #expect(try DesktopHome.files(under: home.root.path) == before.union(generated))
        let refreshed = try String(contentsOfFile: home.prefix + "/share/applications/mimeinfo.cache", encoding: .utf8)
        #expect(!refreshed.contains("dbmultiverse"), "\(refreshed)")
        #expect(refreshed.contains("x-scheme-handler/other=other.desktop;"), "\(refreshed)")
    }

    /// A unit whose ExecStart= binary is missing fails `systemd-analyze verify --user`: the check
    /// above is a real one, not a tool that passes anything.
    @Test func systemdAnalyzeVerifyCatchesAMissingBinary() throws {
        let home = try DesktopHome()
        let source = try String(contentsOf: DesktopInstall.repository.appendingPathComponent("desktop/dbmultiverse.service"), encoding: .utf8)
        let broken = home.root.appendingPathComponent("dbmultiverse.service").path
        try DesktopHome.write(source.replacingOccurrences(of: "/usr/libexec/dbmultiverse/dbmultiverse-service",
                                                         with: home.root.path + "/missing/dbmultiverse-service"),
                              to: broken)
        let verify = try runCommand(["systemd-analyze", "verify", "--user", broken], environment: home.environment, timeout: 60)
        #expect(verify.status != 0, "\(verify)")
        #expect(verify.stderr.contains("is not executable"), "\(verify)")
    }

    @Test func installRejectsAPrefixThatCannotGoIntoExec() throws {
        let home = try DesktopHome()
        for prefix in ["relative/prefix", home.root.path + "/with space"] {
            let result = try DesktopInstall.make(["install", "PREFIX=\(prefix)"], environment: home.environment)
            #expect(result.status != 0, "\(result)")
            #expect(result.stderr.contains("make install: PREFIX"), "\(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: home.root.path + "/with space"))
    }

    /// The doctor's reading of the cards' builds (`CardBuilds`) as select-cards installs them (make
    /// install): read back from the prefix, with the selector's command.
    @Test func theBuildsAreReadFromAnInstalledPrefix() throws {
        let home = try DesktopHome()
        let install = try DesktopInstall.make(["install", "PREFIX=\(home.prefix)"], environment: home.environment)
        #expect(install.status == 0, "\(install)")
        let builds = try #require(CardBuilds.read(home.prefix + "/share/gnome-shell/extensions/dbmultiverse@nobadi.com",
                                                  versions: CardBuilds.gnomeShellVersions))
        #expect(builds.all.map(\.name) == ["gnome-shell-43", "gnome-shell-45"])
        #expect(builds.all.last?.versions == [45, 46, 47, 48, 49, 50, 51])
        #expect(builds.selectCommand == home.prefix + "/libexec/dbmultiverse/select-cards")
        let plasma = try #require(CardBuilds.read(home.prefix + "/share/plasma/plasmoids/com.nobadi.dbmultiverse", versions: CardBuilds.plasmaVersion))
        #expect(plasma.all == [.init(name: "plasma-5", versions: [5]), .init(name: "plasma-6", versions: [6])])
        // Which build fits is the installed select-cards's answer (`--query`), here for a stand-in GNOME Shell 48.7.
        let extensionFolder = home.prefix + "/share/gnome-shell/extensions/dbmultiverse@nobadi.com"
        try DesktopHome.write("#!/bin/sh\necho 'GNOME Shell 48.7'\n", to: home.root.path + "/tools/gnome-shell")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: home.root.path + "/tools/gnome-shell")
        let surroundings = Surroundings(environment: ["PATH": home.root.path + "/tools:/usr/bin:/bin"], now: 1_795_640_000,
                                        commands: ProcessRunner(environment: ["PATH": home.root.path + "/tools:/usr/bin:/bin"]))
        #expect(SelectCards.ask("gnome-shell", card: extensionFolder, surroundings) == .success(CardChoice(version: "48.7", build: "gnome-shell-45")))
        // Where it is looked for: the one the environment names, beside the cards, beside the binary;
        // nothing guessed from the binary's folder (a build tree's name says nothing of where the source is).
        #expect(SelectCards.candidates(card: extensionFolder, executable: "/src/dbm/.build/x86_64-unknown-linux-gnu/debug/dbmultiverse",
                                       environment: ["DBMULTIVERSE_SELECT_CARDS": "/src/dbm/desktop/select-cards"])
                    == ["/src/dbm/desktop/select-cards", home.prefix + "/libexec/dbmultiverse/select-cards",
                        "/src/dbm/.build/x86_64-unknown-linux-gnu/libexec/dbmultiverse/select-cards", "/src/dbm/.build/x86_64-unknown-linux-gnu/debug/select-cards"])
        #expect(SelectCards.candidates(card: nil, executable: "/src/dbm/.build/x86_64-unknown-linux-gnu/debug/dbmultiverse", environment: [:])
                    == ["/src/dbm/.build/x86_64-unknown-linux-gnu/libexec/dbmultiverse/select-cards", "/src/dbm/.build/x86_64-unknown-linux-gnu/debug/select-cards"])
    }
}

/// The repository's install targets, run with the debug-built binary.
enum DesktopInstall {
    /// The package root (this file is Tests/EndToEndTests/InstallTests.swift).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let desktopSource = "desktop/com.nobadi.DBMultiverse.desktop"

    /// Runs `make -C <repository> <arguments> BINARY=<debug binary>`.
    static func make(_ arguments: [String], environment: [String: String]) throws -> CommandResult {
        let binary = try requireBuiltProduct("dbmultiverse")
        return try runCommand(["make", "--no-print-directory", "-C", repository.path] + arguments + ["BINARY=\(binary)"],
                              environment: environment, timeout: 60)
    }

    /// The Plasma widget's package (desktop/plasma/build.sh), under its folder.
    static let plasmoidFiles = [
        "metadata.json", "contents/ui/main.qml", "contents/ui/Card.qml", "contents/ui/CompactView.qml",
        "contents/ui/placeholder.js", "contents/images/com.nobadi.DBMultiverse.svg",
    ] + Translations.languages.map { "contents/locale/\($0)/LC_MESSAGES/plasma_applet_com.nobadi.dbmultiverse.mo" }

    /// What `make install` puts under `prefix` (the notifier unit only when the repository has it),
    /// the AppStream metadata and the shells' completions included.
    static func installedFiles(prefix: String) -> [String] {
        var files = [
            "\(prefix)/bin/dbmultiverse",
            "\(prefix)/libexec/dbmultiverse/dbmultiverse-service",
            "\(prefix)/libexec/dbmultiverse/dbmultiverse-notifier",
            "\(prefix)/libexec/dbmultiverse/dbmultiverse-browser-host",
            "\(prefix)/share/dbus-1/services/com.nobadi.DBMultiverse.service",
            "\(prefix)/share/applications/com.nobadi.DBMultiverse.desktop",
            "\(prefix)/share/icons/hicolor/scalable/apps/com.nobadi.DBMultiverse.svg",
            "\(prefix)/share/dbmultiverse/icons/hicolor/index.theme",
            "\(prefix)/share/dbmultiverse/icons/hicolor/scalable/apps/com.nobadi.DBMultiverse.svg",
            "\(prefix)/share/systemd/user/dbmultiverse.service",
            "\(prefix)/share/systemd/user/dbmultiverse-sync.service",
            "\(prefix)/share/systemd/user/dbmultiverse-sync.timer",
            "\(prefix)/share/metainfo/com.nobadi.DBMultiverse.metainfo.xml",
            "\(prefix)/share/bash-completion/completions/dbmultiverse",
            "\(prefix)/share/zsh/vendor-completions/_dbmultiverse",
            "\(prefix)/share/fish/vendor_completions.d/dbmultiverse.fish",
            "\(prefix)/libexec/dbmultiverse/select-cards",
        ]
        // Both builds of each card (GnomeShellExtensionTests, expectPlasmoid); the folders the desktops
        // read are links to the chosen ones, which a listing of files passes over.
        files += ["plasma-5", "plasma-6"].flatMap { build in plasmoidFiles.map { "\(prefix)/share/dbmultiverse/cards/\(build)/\($0)" } }
        files += ["gnome-shell-43", "gnome-shell-45"].flatMap { build in
            GnomeShellExtension.files.map { "\(prefix)/share/dbmultiverse/cards/\(build)/\($0)" }
        }
        if FileManager.default.fileExists(atPath: repository.appendingPathComponent("desktop/dbmultiverse-notifier.service").path) {
            files.append("\(prefix)/share/systemd/user/dbmultiverse-notifier.service")
        }
        // The catalogues of po/LINGUAS (docs/translations.md).
        files += Translations.languages.map { "\(prefix)/share/locale/\($0)/LC_MESSAGES/dbmultiverse.mo" }
        return files
    }

    /// Checks the installed files under `root + prefix`: the binary is the one given (and the
    /// service's and notifier's executables those built beside it), the icon a copy, and every text
    /// file the source with `<prefix>/bin/dbmultiverse` (no DESTDIR) as the command of every
    /// Exec=/ExecStart= line — `<prefix>/libexec/dbmultiverse/NAME` where the source names
    /// /usr/libexec/dbmultiverse/NAME — and nothing else changed.
    static func expectInstalledContents(root: String, prefix: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let binary = prefix + "/bin/dbmultiverse"
        #expect(FileManager.default.contentsEqual(atPath: root + binary, andPath: try requireBuiltProduct("dbmultiverse")), sourceLocation: sourceLocation)
        #expect(FileManager.default.isExecutableFile(atPath: root + binary), sourceLocation: sourceLocation)
        // The service's and notifier's own executables, from the binary's build folder.
        for program in ["dbmultiverse-service", "dbmultiverse-notifier", "dbmultiverse-browser-host"] {
            let installed = root + prefix + "/libexec/dbmultiverse/" + program
            #expect(FileManager.default.contentsEqual(atPath: installed, andPath: try requireBuiltProduct(program)), "\(program)",
                    sourceLocation: sourceLocation)
            #expect(FileManager.default.isExecutableFile(atPath: installed), "\(program)", sourceLocation: sourceLocation)
        }
        for icon in ["/share/icons/hicolor/scalable/apps/", "/share/dbmultiverse/icons/hicolor/scalable/apps/"] {
            #expect(FileManager.default.contentsEqual(atPath: root + prefix + icon + "com.nobadi.DBMultiverse.svg",
                                                      andPath: repository.appendingPathComponent("desktop/icons/com.nobadi.DBMultiverse.svg").path),
                    sourceLocation: sourceLocation)
        }
        #expect(FileManager.default.contentsEqual(atPath: root + prefix + "/share/dbmultiverse/icons/hicolor/index.theme",
                                                  andPath: repository.appendingPathComponent("desktop/icons/index.theme").path),
                sourceLocation: sourceLocation)
        var sources = [
            ("dbus/com.nobadi.DBMultiverse.service", "/share/dbus-1/services/com.nobadi.DBMultiverse.service"),
            // The desktop file as installed: its translations merged in (make translations).
            (".build/i18n/com.nobadi.DBMultiverse.desktop", "/share/applications/com.nobadi.DBMultiverse.desktop"),
            ("desktop/dbmultiverse.service", "/share/systemd/user/dbmultiverse.service"),
            ("desktop/dbmultiverse-sync.service", "/share/systemd/user/dbmultiverse-sync.service"),
        ]
        // The timer names no program: installed as it is.
        #expect(FileManager.default.contentsEqual(atPath: root + prefix + "/share/systemd/user/dbmultiverse-sync.timer",
                                                  andPath: repository.appendingPathComponent("desktop/dbmultiverse-sync.timer").path),
                sourceLocation: sourceLocation)
        if installedFiles(prefix: prefix).contains(prefix + "/share/systemd/user/dbmultiverse-notifier.service") {
            sources.append(("desktop/dbmultiverse-notifier.service", "/share/systemd/user/dbmultiverse-notifier.service"))
        }
        for (source, target) in sources {
            let original = try String(contentsOf: repository.appendingPathComponent(source), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            let installed = try String(contentsOfFile: root + prefix + target, encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            #expect(original.count == installed.count, "\(target)", sourceLocation: sourceLocation)
            var execLines = 0
            for (before, after) in zip(original, installed) {
                // A unit's ConditionFileIsExecutable= names the program its ExecStart= runs.
                guard let key = ["Exec=", "ExecStart=", "ConditionFileIsExecutable="].first(where: { before.hasPrefix($0) }) else {
                    #expect(before == after, "\(target): only Exec lines change", sourceLocation: sourceLocation)
                    continue
                }
                if key.hasPrefix("Exec") { execLines += 1 }
                let words = before.dropFirst(key.count).split(separator: " ").map(String.init)
                // A program of /usr/libexec/dbmultiverse is the installed one of <prefix>/libexec/dbmultiverse.
                let libexec = "/usr/libexec/dbmultiverse/"
                let command = words.first.map { $0.hasPrefix(libexec) ? prefix + "/libexec/dbmultiverse/" + $0.dropFirst(libexec.count) : binary } ?? binary
                #expect(after == ([key + command] + words.dropFirst()).joined(separator: " "), "\(target)", sourceLocation: sourceLocation)
            }
            #expect(execLines > 0, "\(target) has an Exec line", sourceLocation: sourceLocation)
            let attributes = try FileManager.default.attributesOfItem(atPath: root + prefix + target)
            #expect((attributes[.posixPermissions] as? Int) == 0o644, "\(target)", sourceLocation: sourceLocation)
        }
        try expectPlasmoid(root: root, prefix: prefix, sourceLocation: sourceLocation)
    }

    /// The Plasma widget's packages: a build for Plasma 5 and one for Plasma 6, each running
    /// `<prefix>/bin/dbmultiverse` (no DESTDIR), the card's lines of that Plasma, every file mode 0644;
    /// and the folder Plasma reads a link to the build for this machine's Plasma (5 on Debian 12), as
    /// desktop/select-cards chooses it.
    static func expectPlasmoid(root: String, prefix: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for version in ["5", "6"] {
            let package = root + prefix + "/share/dbmultiverse/cards/plasma-\(version)/"
            let plasma6 = version == "6"
            let main = try String(contentsOfFile: package + "contents/ui/main.qml", encoding: .utf8)
            #expect(main.contains(#"readonly property string binary: "\#(prefix)/bin/dbmultiverse""#), sourceLocation: sourceLocation)
            #expect(!main.contains("@DBMULTIVERSE@"), sourceLocation: sourceLocation)
            let card = try String(contentsOfFile: package + "contents/ui/Card.qml", encoding: .utf8)
            let marked = (main + card).split(separator: "\n").filter { $0.hasSuffix("//5") || $0.hasSuffix("//6") }
            #expect(marked.isEmpty, "lines of one Plasma only, their marks removed: \(marked)", sourceLocation: sourceLocation)
            #expect(main.contains(plasma6 ? "PlasmoidItem {" : "PlasmaCore.DataSource {"), "plasma-\(version)", sourceLocation: sourceLocation)
            let metadata = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: package + "metadata.json"))) as? [String: Any],
                                        sourceLocation: sourceLocation)
            #expect((metadata["KPlugin"] as? [String: Any])?["Id"] as? String == "com.nobadi.dbmultiverse", sourceLocation: sourceLocation)
            #expect((metadata["X-Plasma-API-Minimum-Version"] as? String == "6.0") == plasma6, "plasma-\(version)", sourceLocation: sourceLocation)
            #expect(card.contains(plasma6 ? "import org.kde.plasma.components as PlasmaComponents3\n" : "import org.kde.plasma.components 3.0 as PlasmaComponents3\n"),
                    "plasma-\(version)", sourceLocation: sourceLocation)
            for file in plasmoidFiles {
                let attributes = try FileManager.default.attributesOfItem(atPath: package + file)
                #expect((attributes[.posixPermissions] as? Int) == 0o644, "\(file)", sourceLocation: sourceLocation)
            }
        }
        let chosen = try runCommand([repository.appendingPathComponent("desktop/select-cards").path, "--print", "/nonexistent"])
        let plasma = chosen.stdout.contains("plasma-6") ? "plasma-6" : "plasma-5"
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root + prefix + "/share/plasma/plasmoids/com.nobadi.dbmultiverse")
                    == "../../dbmultiverse/cards/\(plasma)", "\(chosen.stdout)", sourceLocation: sourceLocation)
    }
}

extension DesktopInstall {
    /// The host manifest of `family` (`firefox` or `chromium`) naming `binary`, as `make install` writes it.
    static func hostManifest(family: String, binary: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent("desktop/com.nobadi.dbmultiverse.\(family).json"), encoding: .utf8)
            .replacingOccurrences(of: #""path": "/usr/libexec/dbmultiverse/dbmultiverse-browser-host""#, with: #""path": "\#(binary)""#)
    }

    /// Checks the native messaging host manifests under `root`: each is its family's template with
    /// `<prefix>/libexec/dbmultiverse/dbmultiverse-browser-host` (no DESTDIR) as `path` and nothing else changed, mode 0644,
    /// naming the host and allowing only our extension.
    static func expectHostManifests(root: String, home: DesktopHome, prefix: String,
                                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        for manifest in home.hostManifests {
            let family = manifest.contains("/.mozilla/") ? "firefox" : "chromium"
            let installed = try String(contentsOfFile: root + manifest, encoding: .utf8)
            #expect(installed == (try hostManifest(family: family, binary: prefix + "/libexec/dbmultiverse/dbmultiverse-browser-host")), "\(manifest)", sourceLocation: sourceLocation)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(installed.utf8)) as? [String: Any], sourceLocation: sourceLocation)
            #expect(json["name"] as? String == BrowserExtension.hostName, sourceLocation: sourceLocation)
            #expect(json["path"] as? String == prefix + "/libexec/dbmultiverse/dbmultiverse-browser-host", sourceLocation: sourceLocation)
            #expect(json["type"] as? String == "stdio", sourceLocation: sourceLocation)
            let allowed = family == "firefox" ? json["allowed_extensions"] : json["allowed_origins"]
            #expect(allowed as? [String] == [family == "firefox" ? BrowserExtension.firefoxID : BrowserExtension.chromiumOrigin],
                    "\(manifest)", sourceLocation: sourceLocation)
            let attributes = try FileManager.default.attributesOfItem(atPath: root + manifest)
            #expect((attributes[.posixPermissions] as? Int) == 0o644, "\(manifest)", sourceLocation: sourceLocation)
        }
    }
}

/// A temporary home for a desktop session: HOME, XDG_CONFIG_HOME, XDG_DATA_HOME (= the install
/// prefix's share) and XDG_RUNTIME_DIR under one directory, no XDG_CURRENT_DESKTOP (a generic
/// desktop for xdg-utils), and a clean environment that never names the developer's session bus.
final class DesktopHome: @unchecked Sendable { // immutable after init
    let root: URL
    var home: String { root.path + "/home" }
    var prefix: String { home + "/.local" }
    var configHome: String { home + "/.config" }
    var dataHome: String { prefix + "/share" }
    var runtimeDirectory: String { root.path + "/run" }

    init() throws {
        // Programs: the installed binary. Sockets: XDG_RUNTIME_DIR is in it, and systemd-analyze
        // rejects the user units whose sockets would go there when its path is too long.
        root = URL(fileURLWithPath: try makeTemporaryDirectory("dbm-home", for: [.programs, .sockets]))
        try FileManager.default.createDirectory(atPath: root.path + "/home", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root.path + "/run", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Where `make install` writes the browser extension's host manifests in this home: Firefox's
    /// folder, then the Chromium family's (Chromium, Google Chrome, Brave, Vivaldi, Edge).
    var hostManifests: [String] {
        let chromiumFamily = ["chromium", "google-chrome", "BraveSoftware/Brave-Browser", "vivaldi", "microsoft-edge"]
        let folders = [home + "/.mozilla/native-messaging-hosts"] + chromiumFamily.map { configHome + "/" + $0 + "/NativeMessagingHosts" }
        return folders.map { $0 + "/com.nobadi.dbmultiverse.json" }
    }

    /// The environment of a process in this session (no bus address: callers add theirs).
    var environment: [String: String] {
        var environment: [String: String] = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
            "HOME": home,
            "XDG_CONFIG_HOME": configHome,
            "XDG_DATA_HOME": dataHome,
            "XDG_RUNTIME_DIR": runtimeDirectory,
            "LANG": "C.UTF-8",
        ]
        // Swift's runtime libraries, for a debug binary that links them dynamically.
        if let libraryPath = ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"] { environment["LD_LIBRARY_PATH"] = libraryPath }
        // Sanitizer settings (`make sanitize`) must reach the instrumented programs started here too.
        for (key, value) in ProcessInfo.processInfo.environment where key.hasSuffix("SAN_OPTIONS") {
            environment[key] = value
        }
        return environment
    }

    /// `make install PREFIX=~/.local` in this home (no DESTDIR: the scheme gets registered).
    func install() throws -> CommandResult {
        try DesktopInstall.make(["install", "PREFIX=\(prefix)"], environment: environment)
    }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// Every regular file (and symbolic link) under `directory`, as absolute paths.
    static func files(under directory: String) throws -> Set<String> {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var files: Set<String> = []
        while let relative = enumerator.nextObject() as? String {
            let path = directory + "/" + relative
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { continue }
            files.insert(path)
        }
        return files
    }
}
