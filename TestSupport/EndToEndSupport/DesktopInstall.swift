package import DBusTestSupport
import DesktopTestSupport
package import Foundation
package import Testing
import Widget

/// The repository's install targets, run with the debug-built binary.
package enum DesktopInstall {
    /// The package root (this file is TestSupport/EndToEndSupport/DesktopInstall.swift).
    package static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    package static let desktopSource = "desktop/com.nobadi.DBMultiverse.desktop"

    /// Runs `make -C <repository> <arguments> BINARY=<debug binary>`.
    package static func make(_ arguments: [String], environment: [String: String]) throws -> CommandResult {
        let binary = try requireBuiltProduct("dbmultiverse")
        return try runCommand(["make", "--no-print-directory", "-C", repository.path] + arguments + ["BINARY=\(binary)"],
                              environment: environment, timeout: 60)
    }

    /// The Plasma widget's package (desktop/plasma/build.sh), under its folder.
    package static let plasmoidFiles = [
        "metadata.json", "contents/ui/main.qml", "contents/ui/Card.qml", "contents/ui/CompactView.qml",
        "contents/ui/placeholder.js", "contents/images/com.nobadi.DBMultiverse.svg",
    ] + Translations.languages.map { "contents/locale/\($0)/LC_MESSAGES/plasma_applet_com.nobadi.dbmultiverse.mo" }

    /// What `make install` puts under `prefix` (the notifier unit only when the repository has it),
    /// the AppStream metadata and the shells' completions included.
    package static func installedFiles(prefix: String) -> [String] {
        var files = [
            "\(prefix)/bin/dbmultiverse",
            "\(prefix)/libexec/dbmultiverse/dbmultiverse-service",
            "\(prefix)/libexec/dbmultiverse/dbmultiverse-notifier",
            "\(prefix)/libexec/dbmultiverse/dbmultiverse-browser-host",
            "\(prefix)/share/dbus-1/services/com.nobadi.DBMultiverse.service",
            "\(prefix)/share/dbus-1/interfaces/com.nobadi.DBMultiverse.Widget1.xml",
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
    package static func expectInstalledContents(root: String, prefix: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
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
        // The interface file and the timer name no program: installed as they are.
        #expect(FileManager.default.contentsEqual(atPath: root + prefix + "/share/dbus-1/interfaces/com.nobadi.DBMultiverse.Widget1.xml",
                                                  andPath: repository.appendingPathComponent("dbus/com.nobadi.DBMultiverse.Widget1.xml").path),
                sourceLocation: sourceLocation)
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
    package static func expectPlasmoid(root: String, prefix: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
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
    package static func hostManifest(family: String, binary: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent("desktop/com.nobadi.dbmultiverse.\(family).json"), encoding: .utf8)
            .replacingOccurrences(of: #""path": "/usr/libexec/dbmultiverse/dbmultiverse-browser-host""#, with: #""path": "\#(binary)""#)
    }

    /// Checks the native messaging host manifests under `root`: each is its family's template with
    /// `<prefix>/libexec/dbmultiverse/dbmultiverse-browser-host` (no DESTDIR) as `path` and nothing else changed, mode 0644,
    /// naming the host and allowing only our extension.
    package static func expectHostManifests(root: String, home: DesktopHome, prefix: String,
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
package final class DesktopHome: @unchecked Sendable { // immutable after init
    package let root: URL
    package var home: String { root.path + "/home" }
    package var prefix: String { home + "/.local" }
    package var configHome: String { home + "/.config" }
    package var dataHome: String { prefix + "/share" }
    package var runtimeDirectory: String { root.path + "/run" }

    package init() throws {
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
    package var hostManifests: [String] {
        let chromiumFamily = ["chromium", "google-chrome", "BraveSoftware/Brave-Browser", "vivaldi", "microsoft-edge"]
        let folders = [home + "/.mozilla/native-messaging-hosts"] + chromiumFamily.map { configHome + "/" + $0 + "/NativeMessagingHosts" }
        return folders.map { $0 + "/com.nobadi.dbmultiverse.json" }
    }

    /// The environment of a process in this session (no bus address: callers add theirs).
    package var environment: [String: String] {
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
    package func install() throws -> CommandResult {
        try DesktopInstall.make(["install", "PREFIX=\(prefix)"], environment: environment)
    }

    package static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// Every regular file (and symbolic link) under `directory`, as absolute paths.
    package static func files(under directory: String) throws -> Set<String> {
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

/// The extension's names, as the tests check them.
package enum GnomeShellExtension {
    package static let uuid = "dbmultiverse@nobadi.com"
    /// What each build holds (a build's folder, an installed extension, a packed zip): the catalogue
    /// of each language of po/LINGUAS among them (the metadata's gettext-domain).
    package static let files = ["metadata.json", "extension.js", "cardModel.js", "card.js", "indicator.js", "widgetClient.js",
                        "stylesheet.css", "icons/com.nobadi.DBMultiverse.svg"]
        + Translations.languages.map { "locale/\($0)/LC_MESSAGES/dbmultiverse.mo" }
}
