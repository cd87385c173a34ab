import DBus
import DBusTestSupport
import Follower
import Foundation
import ComicDomain
import SiteTestSupport
import Testing
import TestingTraits

/// The translations (docs/translations.md): the template holds every message of the sources, each
/// required language translates all of it, the merged desktop files and metainfo stay valid, and
/// the built binary speaks French under a French session while what scripts read stays the same.
@Suite(.timeLimit(.minutes(3)), .offThePool) struct TranslationTests {
    static let script = repositoryRoot.appendingPathComponent("scripts/translations.sh").path
    static let required = ["fr", "it", "es", "pt_BR", "pl", "de"]

    /// `scripts/translations.sh build` into a folder of its own: the catalogues and merged files.
    static func built() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("translations-\(UUID().uuidString)").path
        let result = try runCommand([script, "build", folder], timeout: 60)
        #expect(result.status == 0, "\(result)")
        return folder
    }

    /// A French session: LANG alone names the language (the other variables would win over it).
    static func french(_ environment: [String: String], locales: String) -> [String: String] {
        var environment = environment
        for variable in ["LANGUAGE", "LC_ALL", "LC_MESSAGES"] { environment[variable] = nil }
        environment["LANG"] = "fr_FR.UTF-8"
        environment["DBMULTIVERSE_LOCALE_DIR"] = locales + "/locale"
        return environment
    }

    static var frenchLocaleExists: Bool {
        ((try? runCommand(["locale", "-a"]).stdout) ?? "").lowercased().split(separator: "\n").contains("fr_fr.utf8")
    }

    /// Every message of the sources is in po/dbmultiverse.pot (msgcmp fails naming the one
    /// missing), and every file that calls a message function is in po/POTFILES.
    @Test func theTemplateHoldsEveryMessageOfTheSources() throws {
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("dbmultiverse-\(UUID().uuidString).pot").path
        defer { try? FileManager.default.removeItem(atPath: fresh) }
        let made = try runCommand([Self.script, "pot", fresh], timeout: 60)
        #expect(made.status == 0, "\(made)")
        let committed = repositoryRoot.appendingPathComponent("po/dbmultiverse.pot").path
        let compared = try runCommand(["msgcmp", "--use-untranslated", committed, fresh])
        #expect(compared.status == 0, "run make pot: \(compared)")

        let listed = Set(try String(contentsOfFile: repositoryRoot.appendingPathComponent("po/POTFILES").path, encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init))
        let root = repositoryRoot.path + "/"
        let callers = try runCommand(["grep", "-rlE", #"\b(n|p)?gettext\(""#, "--include=*.swift", root + "Sources"])
        let files = Set(callers.stdout.split(separator: "\n").map { String($0.dropFirst(root.count)) })
            .subtracting(["Sources/Localization/Localization.swift"])
        #expect(!files.isEmpty && files.isSubset(of: listed), "not in po/POTFILES: \(files.subtracting(listed).sorted())")
    }

    /// Each required language translates every message of a fresh template: no untranslated, no fuzzy.
    @Test func everyRequiredLanguageIsComplete() throws {
        let linguas = try String(contentsOfFile: repositoryRoot.appendingPathComponent("po/LINGUAS").path, encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        #expect(Set(Self.required).isSubset(of: Set(linguas)), "\(linguas)")
        let check = try runCommand([Self.script, "check"], timeout: 120)
        #expect(check.status == 0, "\(check)")
        for language in Self.required {
            let line = check.stdout.split(separator: "\n").first { $0.hasPrefix("\(language): ") }
            #expect(line?.contains("translated message") == true && line?.contains("untranslated") == false && line?.contains("fuzzy") == false,
                    "\(language): \(line.map(String.init) ?? "no line")")
        }
    }

    /// The installed desktop files and metainfo are the merged ones: still valid, and French.
    @Test func theMergedDesktopFilesAndMetainfoAreValid() throws {
        let folder = try Self.built()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for file in ["com.nobadi.DBMultiverse.desktop", "com.nobadi.DBMultiverse.Notifier.desktop"] {
            let validated = try runCommand(["desktop-file-validate", folder + "/" + file])
            #expect(validated.status == 0 && validated.stdout.isEmpty, "\(file): \(validated)")
        }
        let desktop = try String(contentsOfFile: folder + "/com.nobadi.DBMultiverse.desktop", encoding: .utf8)
        #expect(desktop.contains("Name[fr]=Reprendre la lecture") && desktop.contains("Comment[pl]="), "\(desktop)")
        let metainfo = folder + "/com.nobadi.DBMultiverse.metainfo.xml"
        let validated = try runCommand(["appstreamcli", "validate", "--no-net", metainfo], timeout: 60)
        #expect(validated.status == 0, "\(validated)")
        #expect(try String(contentsOfFile: metainfo, encoding: .utf8).contains(#"<summary xml:lang="de">"#))
    }

    /// `doctor` under a French session: its human lines in French, its JSON's keys the same as
    /// under C, byte for byte.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse) && frenchLocaleExists))
    func doctorReadsFrenchAndItsJSONKeysDoNotChange() throws {
        let folder = try Self.built()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var plain = ProcessInfo.processInfo.environment
        plain["HOME"] = folder
        plain["XDG_CONFIG_HOME"] = folder + "/config"
        plain["XDG_DATA_HOME"] = folder + "/data"
        plain["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + folder + "/no-bus"
        for variable in ["LANGUAGE", "LC_ALL", "LC_MESSAGES"] { plain[variable] = nil }
        plain["LANG"] = "C"
        let french = Self.french(plain, locales: folder)
        let text = try runCommand([Binary.dbmultiverse, "doctor"], environment: french, timeout: 60)
        #expect(text.stdout.contains("L’essentiel ne fonctionne pas") && text.stdout.contains("pour corriger\u{00A0}: "), "\(text)")
        let english = try runCommand([Binary.dbmultiverse, "doctor"], environment: plain, timeout: 60)
        #expect(english.stdout.contains("The essentials do not work") && english.stdout.contains("    fix: "), "\(english)")

        func keys(_ environment: [String: String]) throws -> [String] {
            let json = try runCommand([Binary.dbmultiverse, "doctor", "--format", "json"], environment: environment, timeout: 60)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
            let checks = try #require(object["checks"] as? [[String: Any]])
            return object.keys.sorted() + checks.flatMap { $0.keys.sorted() } + checks.map { "\($0["name"] ?? "")=\($0["status"] ?? "")" }
        }
        #expect(try keys(french) == keys(plain))
    }

    /// The chapter notification of the built notifier, as the recording server gets it, under a
    /// French session.
    @Test(.holds(.privateBuses), .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse) && frenchLocaleExists))
    func theNotificationReadsFrench() async throws {
        let folder = try Self.built()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let service = try ActivatedService()
        defer { service.stop() }
        let server = FakeNotificationServer(address: service.bus.address)
        try server.start()
        defer { server.stop() }
        let environment = Self.french(service.environment.merging(["DBMULTIVERSE_DATA_DIR": service.folder]) { $1 }, locales: folder)
        let notifier = try StreamingCommand(["sh", "-c", "exec \"$0\" notifier --no-tray 2>&1", Binary.dbmultiverse], environment: environment)
        defer { notifier.stop() }
        try notifier.waitForLine(timeout: 10, "the notifier's start") { $0.contains("following com.nobadi.DBMultiverse") }

        #expect(try service.cli("update", "--chapter", "42", "--name", "Le tournoi", "--progress", "35").status == 0)
        let call = try await next(server.notifyCalls, within: 10, "the chapter notification")
        #expect(call.request.summary == "Chapitre 42\u{00A0}: Le tournoi")
        #expect(call.request.body == "lu à 35\u{00A0}%")
        #expect(call.request.actions == ["default", "Reprendre la lecture"], "the action key stays \"default\"")
        #expect(call.request.hints["category"] == Variant("x-dbmultiverse.chapter.changed"))
    }

    /// `update --page N` with nothing stored or configured reads the catalogue of the desktop's
    /// language: French under LANG=fr_FR.UTF-8.
    @Test(.holds(.privateBuses), .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
    func updatePageUnderAFrenchDesktopReadsTheFrenchCatalogue() async throws {
        let setup = try await PageCommandTests.Setup()
        setup.site.publish(.small, language: "fr")
        setup.environment = Self.french(setup.environment, locales: setup.service.folder)
        let update = try setup.cli("update", "--page", "130")
        #expect(update.status == 0 && update.stdout.hasPrefix("fr page 130: "), "\(update)")
        #expect(FileManager.default.fileExists(atPath: setup.service.folder + "/chapters-fr.json"))
        #expect(!FileManager.default.fileExists(atPath: setup.service.folder + "/chapters-en.json"))
        #expect(try jsonObject(at: setup.service.folder + "/currentChapterData.json")["language"] as? String == "fr")
    }
}
