import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Glibc
import Testing
import TestingTraits

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
}
