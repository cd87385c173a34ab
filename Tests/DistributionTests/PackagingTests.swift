import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Testing
import TestingTraits

/// What the Debian package adds for "installed means working" (docs/install.md#debian-package), checked from the
/// repository without building the package (`make deb-test` checks the installed package): the
/// notifier's autostart entry steps aside where its unit runs, the AppStream metadata validates and
/// names the program's version, `make install` writes working shell completions, and the Swift
/// packages travel pinned in vendor/ for an offline build.
@Suite(.timeLimit(.minutes(10)), .offThePool) struct PackagingTests {
    static let autostart = repositoryRoot.appendingPathComponent("desktop/com.nobadi.DBMultiverse.Notifier.desktop")
    static let metainfo = repositoryRoot.appendingPathComponent("desktop/com.nobadi.DBMultiverse.metainfo.xml")
    static let generator = "/usr/lib/systemd/user-generators/systemd-xdg-autostart-generator"

    /// The units systemd-xdg-autostart-generator makes (as Plasma's systemd startup and other
    /// systemd sessions run the autostart entries) for `autostartEntry` in the system's autostart
    /// folder and, when given, the user's `override` of it in theirs.
    static func generatedUnits(autostartEntry: String, override: String? = nil) throws -> [String] {
        let folder = try makeTemporaryDirectory("dbm-autostart")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let name = "/autostart/com.nobadi.DBMultiverse.Notifier.desktop"
        try DesktopHome.write(autostartEntry, to: folder + "/config" + name)
        if let override { try DesktopHome.write(override, to: folder + "/home-config" + name) }
        let output = folder + "/generated"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        var environment = testEnvironment()
        environment["XDG_CONFIG_DIRS"] = folder + "/config"
        environment["XDG_CONFIG_HOME"] = folder + "/home-config"
        let run = try runCommand([generator, output, output, output], environment: environment)
        #expect(run.status == 0, "\(run)")
        return try FileManager.default.contentsOfDirectory(atPath: output).filter { $0.hasSuffix(".service") }
    }

    @Test func theAutostartEntryValidates() throws {
        let result = try runCommand(["desktop-file-validate", Self.autostart.path])
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
    }

    /// Exactly once: where the unit runs (graphical-session.target), the entry makes no second copy —
    /// gnome-session skips it under systemd (X-GNOME-HiddenUnderSystemd), the generator makes no unit
    /// for it (X-systemd-skip; systemd 252 ignores the GNOME key, the control below shows it); elsewhere
    /// (XFCE, Plasma without systemd) nothing hides it. Once the binary is gone, TryExec stops it.
    @Test func theAutostartEntryStepsAsideWhereTheUnitRuns() throws {
        let entry = try String(contentsOf: Self.autostart, encoding: .utf8)
        let lines = Set(entry.split(separator: "\n").map(String.init))
        for line in ["Exec=/usr/bin/dbmultiverse notifier", "TryExec=/usr/bin/dbmultiverse",
                     "X-GNOME-HiddenUnderSystemd=true", "X-systemd-skip=true"] {
            #expect(lines.contains(line), "missing \(line)")
        }
        #expect(!lines.contains { $0.hasPrefix("OnlyShowIn=") || $0.hasPrefix("NotShowIn=") || $0.hasPrefix("Hidden=") })
        let unit = try String(contentsOf: repositoryRoot.appendingPathComponent("desktop/dbmultiverse-notifier.service"), encoding: .utf8)
        #expect(unit.contains("\nWantedBy=graphical-session.target\n") && unit.contains("\nPartOf=graphical-session.target\n"))

        // The generator skips entries whose TryExec= or Exec= program is missing: as installed, the
        // entry names the built binary, so that only the keys decide.
        let installed = entry.replacingOccurrences(of: "/usr/bin/dbmultiverse", with: Binary.dbmultiverse)
        #expect(try Self.generatedUnits(autostartEntry: installed).isEmpty)
        // The controls: with only the GNOME key the generator makes a unit; with the binary gone, none.
        let gnomeKeyOnly = installed.replacingOccurrences(of: "X-systemd-skip=true\n", with: "")
        #expect(try Self.generatedUnits(autostartEntry: gnomeKeyOnly) == ["app-com.nobadi.DBMultiverse.Notifier@autostart.service"])
        let binaryGone = gnomeKeyOnly.replacingOccurrences(of: "TryExec=\(Binary.dbmultiverse)", with: "TryExec=/nonexistent/dbmultiverse")
        #expect(try Self.generatedUnits(autostartEntry: binaryGone).isEmpty)
    }

    /// A user's off switch where the entry runs (README): a copy in ~/.config/autostart with
    /// Hidden=true, which overrides the system's entry of the same name (XDG autostart spec; XFCE
    /// and gnome-session read Hidden too). Shown on the generator, with the entry it would run.
    @Test func aUsersHiddenCopyTurnsTheEntryOff() throws {
        let entry = try String(contentsOf: Self.autostart, encoding: .utf8)
            .replacingOccurrences(of: "/usr/bin/dbmultiverse", with: Binary.dbmultiverse)
            .replacingOccurrences(of: "X-systemd-skip=true\n", with: "")
        #expect(try Self.generatedUnits(autostartEntry: entry).count == 1)
        #expect(try Self.generatedUnits(autostartEntry: entry, override: entry + "Hidden=true\n").isEmpty)
    }

    /// `appstreamcli validate` has nothing to say but the pedantic note on the id's capitals (the id
    /// is the desktop file's); the metadata launches the desktop file and its newest release is the
    /// program's version.
    @Test func theAppStreamMetadataValidatesAndNamesThisVersion() throws {
        let result = try runCommand(["appstreamcli", "validate", "--no-net", Self.metainfo.path], timeout: 60)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Validation was successful") && !result.stdout.contains("infos:")
                    && !result.stdout.contains("warnings:") && !result.stdout.contains("errors:"), "\(result)")
        let text = try String(contentsOf: Self.metainfo, encoding: .utf8)
        #expect(text.contains("<launchable type=\"desktop-id\">com.nobadi.DBMultiverse.desktop</launchable>"))
        let version = try runCommand([Binary.dbmultiverse, "--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let newest = text.components(separatedBy: "<release version=\"").dropFirst().first?.prefix { $0 != "\"" }
        #expect(newest.map(String.init) == version, "the newest <release> is \(newest ?? "none"), the program \(version)")
    }

    /// The completions `make install` writes (swift-argument-parser's): bash's completes a
    /// subcommand, zsh's is a completion function, and none starts with a #! line.
    @Test func installedCompletionsComplete() throws {
        let home = try DesktopHome()
        let install = try home.install()
        #expect(install.status == 0, "\(install)")
        let bash = home.prefix + "/share/bash-completion/completions/dbmultiverse"
        let script = """
            source '\(bash)'
            COMP_WORDS=(dbmultiverse imp); COMP_CWORD=1; COMP_LINE="dbmultiverse imp"; COMP_POINT=${#COMP_LINE}
            _dbmultiverse dbmultiverse imp dbmultiverse; echo "${COMPREPLY[*]}"
            """
        let completion = try runCommand(["bash", "-c", script], environment: home.environment)
        #expect(completion.status == 0 && completion.stdout == "import-history\n", "\(completion)")
        let zsh = try String(contentsOfFile: home.prefix + "/share/zsh/vendor-completions/_dbmultiverse", encoding: .utf8)
        #expect(zsh.hasPrefix("#compdef dbmultiverse\n"))
        let fish = try String(contentsOfFile: home.prefix + "/share/fish/vendor_completions.d/dbmultiverse.fish", encoding: .utf8)
        #expect(fish.contains("complete -c 'dbmultiverse' -n '__dbmultiverse_should_offer_completions_for_positional \"dbmultiverse\" -eq 1' -fa 'import-history'"))
        for file in [bash, home.prefix + "/share/fish/vendor_completions.d/dbmultiverse.fish"] {
            #expect(try !String(contentsOfFile: file, encoding: .utf8).hasPrefix("#!"), "\(file)")
        }
    }

    /// scripts/packaging/vendor.sh copies each pinned package (its Package.swift included) and lists the pins;
    /// Package.swift then depends on those folders, not on the network.
    @Test func vendorHoldsThePinnedPackagesAndPackageSwiftUsesThem() throws {
        let folder = try makeTemporaryDirectory("dbm-vendor", for: .programs)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A copy of the manifest beside the vendored packages, as in the source package.
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("Package.swift").path, toPath: folder + "/Package.swift")
        let vendor = try runCommand([repositoryRoot.appendingPathComponent("scripts/packaging/vendor.sh").path, folder + "/vendor"], timeout: 120)
        #expect(vendor.status == 0, "\(vendor)")
        let pins = try String(contentsOfFile: folder + "/vendor/PINS", encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(pins.map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == ["swift-argument-parser 1.8.2", "swift-log 1.16.2"])
        for name in ["swift-argument-parser", "swift-log"] {
            #expect(FileManager.default.fileExists(atPath: folder + "/vendor/\(name)/Package.swift"), "\(name)")
        }
        let manifest = try runCommand(["swift", "package", "--package-path", folder, "dump-package"], environment: testEnvironment(), timeout: 120)
        #expect(manifest.status == 0, "\(manifest)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(manifest.stdout.utf8)) as? [String: Any])
        let dependencies = try #require(json["dependencies"] as? [[String: Any]])
        let paths = dependencies.compactMap { ($0["fileSystem"] as? [[String: Any]])?.first?["path"] as? String }
        #expect(paths.sorted() == ["swift-argument-parser", "swift-log"].map { folder + "/vendor/" + $0 }, "\(dependencies)")
    }

    /// The pins must satisfy Package.swift: a dependency whose `from:` is above its pin stops the script.
    @Test func vendorRefusesAPinBelowPackageSwift() throws {
        let folder = try makeTemporaryDirectory("dbm-vendor", for: .programs)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/scripts/packaging", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("scripts/packaging/vendor.sh").path, toPath: folder + "/scripts/packaging/vendor.sh")
        let manifest = try String(contentsOf: repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let raised = manifest.replacingOccurrences(of: #"swift-log", from: "1.16.2")"#, with: #"swift-log", from: "1.17.0")"#)
        #expect(raised != manifest)
        try DesktopHome.write(raised, to: folder + "/Package.swift")
        let vendor = try runCommand([folder + "/scripts/packaging/vendor.sh", folder + "/vendor"], timeout: 60)
        #expect(vendor.status != 0, "\(vendor)")
        #expect(vendor.stderr.contains("the pin 1.16.2 of https://github.com/apple/swift-log does not satisfy Package.swift's from: \"1.17.0\""), "\(vendor)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/vendor"))
    }
}
