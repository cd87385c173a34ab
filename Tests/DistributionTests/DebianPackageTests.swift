import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Testing
import TestingTraits

/// What the Debian package (`debian/`, `make deb`) relies on, checked without building it: its
/// version is the program's, and `make install` in the package's system mode (as debian/rules runs
/// it) puts the browsers' host manifests in their system-wide folders. `make deb-test` checks the
/// built package itself, installed on the machine.
@Suite(.timeLimit(.minutes(10)), .offThePool) struct DebianPackageTests {
    static let systemArguments = ["PREFIX=/usr", "SYSTEMD_USER_DIR=/usr/lib/systemd/user", "BROWSER_HOSTS=system"]
    static let firefoxManifest = "/usr/lib/mozilla/native-messaging-hosts/com.nobadi.dbmultiverse.json"
    static let chromiumManifest = "/usr/share/dbmultiverse/native-messaging-hosts/com.nobadi.dbmultiverse.json"
    /// The links to the Chromium family's manifest: Chromium's, Google Chrome's (Brave reads it too),
    /// Vivaldi's and Edge's system-wide folders.
    static let chromiumLinks = ["/etc/chromium", "/etc/opt/chrome", "/etc/opt/vivaldi", "/etc/opt/edge"]
        .map { $0 + "/native-messaging-hosts/com.nobadi.dbmultiverse.json" }

    /// The newest debian/changelog entry names the version `dbmultiverse --version` prints.
    @Test func theChangelogsVersionIsTheCommandLinesVersion() throws {
        let changelog = try String(contentsOf: DesktopInstall.repository.appendingPathComponent("debian/changelog"), encoding: .utf8)
        // "dbmultiverse (0.1.0) unstable; urgency=medium"; a Debian revision (0.1.0-2) would package
        // the same program version again.
        let heading = try #require(changelog.split(separator: "\n").first)
        let packageVersion = try #require(heading.split(separator: "(").dropFirst().first?.split(separator: ")").first)
        let programVersion = packageVersion.lastIndex(of: "-").map { String(packageVersion[..<$0]) } ?? String(packageVersion)
        let version = try runCommand([Binary.dbmultiverse, "--version"])
        #expect(version.status == 0, "\(version)")
        #expect(programVersion == version.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "debian/changelog: \(heading)")
    }

    /// `make install` as debian/rules runs it (staged): the units in /usr/lib/systemd/user, Firefox's
    /// manifest in its folder, the Chromium family's once with a link to it in each browser's folder
    /// under /etc, nothing in the home folder; uninstall removes them and the folders install made,
    /// but keeps /etc/opt (base-files makes it, no package owns it).
    @Test func systemInstallPutsTheHostManifestsInTheBrowsersSystemFolders() throws {
        let home = try DesktopHome()
        let stage = home.root.appendingPathComponent("stage").path
        try FileManager.default.createDirectory(atPath: stage + "/etc/opt", withIntermediateDirectories: true)
        let arguments = Self.systemArguments + ["DESTDIR=\(stage)"]

        let install = try DesktopInstall.make(["install"] + arguments, environment: home.environment)
        #expect(install.status == 0, "\(install)")
        let units = DesktopInstall.installedFiles(prefix: "/usr")
            .map { $0.replacingOccurrences(of: "/usr/share/systemd/user/", with: "/usr/lib/systemd/user/") }
        let expected = units + [Self.firefoxManifest, Self.chromiumManifest] + Self.chromiumLinks
        #expect(try DesktopHome.files(under: stage) == Set(expected.map { stage + $0 }))
        #expect(try DesktopHome.files(under: home.home).isEmpty)
        for link in Self.chromiumLinks {
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: stage + link) == Self.chromiumManifest, "\(link)")
        }
        for (family, manifest) in [("firefox", Self.firefoxManifest), ("chromium", Self.chromiumManifest)] {
            #expect(try String(contentsOfFile: stage + manifest, encoding: .utf8)
                        == (try DesktopInstall.hostManifest(family: family, binary: "/usr/libexec/dbmultiverse/dbmultiverse-browser-host")), "\(manifest)")
            let attributes = try FileManager.default.attributesOfItem(atPath: stage + manifest)
            #expect((attributes[.posixPermissions] as? Int) == 0o644, "\(manifest)")
        }

        let uninstall = try DesktopInstall.make(["uninstall"] + arguments, environment: home.environment)
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(try DesktopHome.files(under: stage).isEmpty)
        for folder in ["/usr/lib/mozilla", "/usr/share/dbmultiverse/native-messaging-hosts", "/etc/chromium",
                       "/etc/opt/chrome", "/etc/opt/vivaldi", "/etc/opt/edge"] {
            #expect(!FileManager.default.fileExists(atPath: stage + folder), "\(folder)")
        }
        #expect(FileManager.default.fileExists(atPath: stage + "/etc/opt"))
    }
}
