import ComicDomain
import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Testing
import TestingTraits

/// What a release uploads to the stores (scripts/packaging/store-artefacts.sh, docs/releasing.md),
/// through the stores' own checks that run offline (scripts/packaging/store-checks.sh).
@Suite(.timeLimit(.minutes(20)), .offThePool) struct StoreArtefactTests {
    /// The artefacts, made once for the suite's tests.
    static let artefacts: Result<String, any Error> = Result {
        let folder = try makeTemporaryDirectory("dbm-store", for: [.otherUsers])
        let made = try runCommand([repositoryRoot.appendingPathComponent("scripts/packaging/store-artefacts.sh").path, folder],
                                  environment: testEnvironment(), timeout: 120)
        guard made.status == 0 else { throw FixtureError("store-artefacts.sh: \(made)") }
        return folder
    }

    /// Awaited on a thread of its own: shexli's first run installs it, the Plasma 6 check waits for Debian 13's chroot.
    func check(_ what: String, timeout: TimeInterval = 300) async throws -> CommandResult {
        let folder = try Self.artefacts.get()
        let run = try await runLongCommand([repositoryRoot.appendingPathComponent("scripts/packaging/store-checks.sh").path, what, folder],
                                           timeout: timeout)
        print("store-checks.sh \(what) exited \(run.status)\n\(run.stdout)\(run.stderr)")
        return run
    }

    /// Each upload under its store's name, with the project's version.
    @Test func theSetHasEachStoresUpload() throws {
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: try Self.artefacts.get()))
        let version = ProjectInfo.version
        #expect(files == ["dbmultiverse@nobadi.com.gnome-43.shell-extension.zip", "dbmultiverse@nobadi.com.gnome-45.shell-extension.zip",
                          "com.nobadi.dbmultiverse-\(version)-plasma5.plasmoid", "com.nobadi.dbmultiverse-\(version)-plasma6.plasmoid",
                          "dbmultiverse-\(version).xpi", "dbmultiverse-\(version)-chromium.zip"], "\(files)")
    }

    /// extensions.gnome.org's analyzer: no error and no warning on either zip, but EGO-M-004 on the
    /// 45–51 build's shell-version (shexli 0.2.1 does not know GNOME 51 yet).
    @Test func shexliFindsNothingInEitherZip() async throws {
        let run = try await check("shexli", timeout: 600)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("shexli dbmultiverse@nobadi.com.gnome-43.shell-extension.zip: no error, no warning\n"), "\(run.stdout)")
        #expect(run.stdout.contains("shexli dbmultiverse@nobadi.com.gnome-45.shell-extension.zip: no error, no warning (EGO-M-004 on shell-version 45, 46, 47, 48, 49, 50, 51 excepted"),
                "\(run.stdout)")
    }

    /// addons.mozilla.org's keys in the Firefox manifest, the same manifest for the Chrome Web Store.
    @Test func theFirefoxManifestHasWhatAddonsMozillaOrgRequires() async throws {
        let run = try await check("manifests")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("manifest: version \(ProjectInfo.version); gecko id dbmultiverse@nobadi.com, strict_min_version 128.0, data_collection_permissions required [\"none\"]"),
                "\(run.stdout)")
    }

    /// The KDE Store's two .plasmoids installed by kpackagetool and loaded by plasmoidviewer: Plasma
    /// 5.27 here, Plasma 6.3 in the Debian 13 chroot.
    @Test("Desktop: Plasma 5.27 and 6.3 (Debian 12, 13), the KDE Store's .plasmoid installed by kpackagetool", .holds(.desktopSession, .eachTestCase),
          .leftToMakeTestUnlessPrepared(.plasma6))
    func kpackagetoolInstallsEachPlasmoidAndPlasmoidviewerLoadsIt() async throws {
        let run = try await check("plasma", timeout: 1500)
        #expect(run.status == 0, "\(run)")
        for plasma in [5, 6] {
            #expect(run.stdout.contains("kpackagetool\(plasma): installed com.nobadi.dbmultiverse-\(ProjectInfo.version)-plasma\(plasma).plasmoid as com.nobadi.dbmultiverse \(ProjectInfo.version)"),
                    "\(run.stdout)")
            #expect(run.stdout.contains("plasmoidviewer: loaded com.nobadi.dbmultiverse \(ProjectInfo.version) from the installed .plasmoid (Plasma \(plasma)); main.qml ran"),
                    "\(run.stdout)")
        }
    }
}
