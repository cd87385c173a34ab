import ComicDomain
import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import SiteTestSupport
import Testing
import TestingTraits

/// The GNOME Shell extension (docs/gnome-shell.md) without a shell: both builds of
/// desktop/gnome-shell/build.sh, its no-service placeholder against the service's placeholder view
/// and the bus client (against the real service) under gjs in both module styles,
/// the 45+ build's imports, the metadata, `gnome-extensions pack`, and `make install` / `make
/// uninstall` of the extension. GnomeShellCardTests runs it in a shell.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .offThePool) struct GnomeShellExtensionTests {
    static let source = repositoryRoot.appendingPathComponent("desktop/gnome-shell").path

    /// Why gjs can't be run here, or nil when it can.
    static let noGjs: String? = isOnPath("gjs") ? nil : "gjs is not installed (apt-get install gjs)"

    /// Both builds in a new folder: `<folder>/43` and `<folder>/45`.
    func builds() throws -> (String, String) {
        let folder = try makeTemporaryDirectory("dbm-gnome-build")
        for build in ["43", "45"] {
            let result = try runCommand([Self.source + "/build.sh", build, folder + "/" + build])
            try #require(result.status == 0, "\(result)")
        }
        return (folder + "/43", folder + "/45")
    }

    /// The card's one piece of wording, its placeholder while no service answers, is the service's
    /// placeholder view key for key, in both module styles.
    @Test(.enabled(if: noGjs == nil, Comment(rawValue: noGjs ?? "")))
    func theNoServicePlaceholderIsTheServicesPlaceholderView() throws {
        let (build43, build45) = try builds()
        let service = try ActivatedService()
        defer { service.stop() }
        let json = try service.cli("entry", "--format", "json")
        try #require(json.status == 0 && json.stdout.contains("\"is-placeholder\":true"), "\(json)")
        let run = try runCommand(["gjs", "-m", Self.source + "/tests/cardModel.test.js", build43, build45,
                                  json.stdout.trimmingCharacters(in: .newlines)])
        print(run.stdout)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.split(separator: "\n").last == "18 passed, 0 failed", "\(run)")
        #expect(run.stdout.contains("ok 43: actions\n") && run.stdout.contains("ok 45: panel-text\n"), "\(run)")
    }

    /// The bus client, in both module styles, against the real service on a private bus: it starts
    /// the service, follows its entry, shows null while it is gone and follows it again, opens
    /// through org.freedesktop.Application, and is silent after destroy().
    @Test(.enabled(if: noGjs == nil, Comment(rawValue: noGjs ?? "")))
    func theBusClientFollowsTheRealServiceInBothModuleStyles() throws {
        let (build43, build45) = try builds()
        let service = try ActivatedService()
        defer { service.stop() }
        let run = try runCommand(["gjs", "-m", Self.source + "/tests/widgetClient.test.js", build43, build45, Binary.dbmultiverse],
                                 environment: service.environment, timeout: 120)
        print(run.stdout)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.split(separator: "\n").last == "18 passed, 0 failed", "\(run)")
    }

    @Test func the45BuildImportsOnlyWhatGnome45AndLaterHave() throws {
        let (_, build45) = try builds()
        let run = try runCommand([Self.source + "/tests/check-imports.sh", build45])
        print(run.stdout)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.hasSuffix(" passed, 0 failed\n") && !run.stdout.hasPrefix("0 passed"), "\(run)")
        #expect(run.stdout.contains("ok: card.js: BarLevel from resource:///org/gnome/shell/ui/barLevel.js"), "\(run)")
    }

    /// Each build: the same files, no ES-module syntax in the 43–44 one, and metadata listing
    /// exactly the shell versions it supports, for the user session only (no session-modes: that
    /// is the default, and extensions.gnome.org's review asks for it omitted), with the project's version.
    @Test func eachBuildListsExactlyTheShellVersionsItSupports() throws {
        let (build43, build45) = try builds()
        for (build, versions) in [(build43, ["43", "44"]), (build45, ["45", "46", "47", "48", "49", "50", "51"])] {
            let files = try DesktopHome.files(under: build).map { String($0.dropFirst(build.count + 1)) }
            #expect(Set(files) == Set(GnomeShellExtension.files), "\(build)")
            let metadata = try #require(try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: build + "/metadata.json"))) as? [String: Any])
            #expect(metadata["uuid"] as? String == GnomeShellExtension.uuid)
            #expect(metadata["shell-version"] as? [String] == versions)
            #expect(metadata["session-modes"] == nil)
            #expect(metadata["version-name"] as? String == ProjectInfo.version)
            #expect(metadata["gettext-domain"] as? String == "dbmultiverse")
        }
        for file in GnomeShellExtension.files where file.hasSuffix(".js") {
            let text = try String(contentsOfFile: build43 + "/" + file, encoding: .utf8)
            let esSyntax = text.split(separator: "\n").filter { $0.hasPrefix("import ") || $0.hasPrefix("export ") }
            #expect(esSyntax.isEmpty, "\(file): \(esSyntax)")
        }
        let legacy = try String(contentsOfFile: build43 + "/extension.js", encoding: .utf8)
        #expect(legacy.contains("function init(metadata)"))
    }

    @Test(.enabled(if: isOnPath("gnome-extensions"), "gnome-extensions is not installed (apt-get install gnome-shell)"))
    func gnomeExtensionsPackMakesAZipOfEachBuild() throws {
        let out = try makeTemporaryDirectory("dbm-gnome-zips")
        let run = try runCommand([repositoryRoot.appendingPathComponent("scripts/build/gnome-extension-pack.sh").path, out], timeout: 60)
        #expect(run.status == 0, "\(run)")
        for build in ["43", "45"] {
            let zip = "\(out)/\(GnomeShellExtension.uuid).gnome-\(build).shell-extension.zip"
            let listing = try runCommand(["unzip", "-Z1", zip])
            #expect(listing.status == 0, "\(listing)")
            let entries = Set(listing.stdout.split(separator: "\n").map(String.init).filter { !$0.hasSuffix("/") })
            #expect(entries == Set(GnomeShellExtension.files), "\(zip): \(listing.stdout)")
        }
    }

    /// `make install` as the package runs it (PREFIX=/usr, staged, CARD_LINKS=no) puts both builds in
    /// /usr/share/dbmultiverse/cards, each with the versions it is for, and no link (the package's
    /// maintainer scripts make it); uninstall removes them.
    @Test func stagedInstallPutsBothBuildsBesideEachOther() throws {
        let home = try DesktopHome()
        let stage = home.root.appendingPathComponent("stage").path
        let install = try DesktopInstall.make(["install", "PREFIX=/usr", "DESTDIR=\(stage)", "CARD_LINKS=no"], environment: home.environment)
        #expect(install.status == 0, "\(install)")
        for (build, versions) in [("45", "\"45\", \"46\", \"47\", \"48\", \"49\", \"50\", \"51\""), ("43", "\"43\", \"44\"")] {
            let metadata = try String(contentsOfFile: "\(stage)/usr/share/dbmultiverse/cards/gnome-shell-\(build)/metadata.json", encoding: .utf8)
            #expect(metadata.contains("\"shell-version\": [\(versions)]"), "\(metadata)")
        }
        let link = "\(stage)/usr/share/gnome-shell/extensions/\(GnomeShellExtension.uuid)"
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil)
        let uninstall = try DesktopInstall.make(["uninstall", "PREFIX=/usr", "DESTDIR=\(stage)"], environment: home.environment)
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(!FileManager.default.fileExists(atPath: "\(stage)/usr/share/dbmultiverse/cards"))
    }
}
