import DBus
import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Follower
import Foundation
import ComicDomain
import SiteTestSupport
import Testing
import TestingTraits

/// The translations (docs/translations.md): the template holds every message of the sources, each
/// required language translates all of it, the merged desktop files and metainfo stay valid, and
/// the built binary speaks French under a French session while what scripts read stays the same.
@Suite(.timeLimit(.minutes(10)), .offThePool) struct TranslationTests {
    static let script = repositoryRoot.appendingPathComponent("scripts/build/translations.sh").path
    static let required = ["fr", "it", "es", "pt_BR", "pl", "de"]

    /// A French session: LANG alone names the language (the other variables would win over it).
    static func french(_ environment: [String: String], locales: String) -> [String: String] {
        var environment = environment
        for variable in ["LANGUAGE", "LC_ALL", "LC_MESSAGES"] { environment[variable] = nil }
        environment["LANG"] = "fr_FR.UTF-8"
        environment["DBMULTIVERSE_LOCALE_DIR"] = locales + "/locale"
        return environment
    }

    /// The activated service in a French session: the view it publishes (the texts every face
    /// draws) is in French.
    static func frenchService(locales: String) throws -> ActivatedService {
        // Empty: unset for setlocale and gettext, whatever the tests' own environment holds.
        try ActivatedService(session: ["LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "fr_FR.UTF-8",
                                       "DBMULTIVERSE_LOCALE_DIR": locales + "/locale"])
    }

    /// The built notifier (with `options`) on `service`'s bus, in a French session.
    static func frenchNotifier(_ service: ActivatedService, locales: String, _ options: String...) throws -> StreamingCommand {
        let environment = french(service.environment.merging(["DBMULTIVERSE_DATA_DIR": service.folder]) { $1 }, locales: locales)
        return try StreamingCommand(["sh", "-c", "exec \"$0\" notifier \"$@\" 2>&1", Binary.dbmultiverse] + options, environment: environment)
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
        let folder = try Translations.built()
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
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse) && Translations.frenchLocaleExists))
    func doctorReadsFrenchAndItsJSONKeysDoNotChange() throws {
        let folder = try Translations.built()
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

    /// `--help` under a French session: what the project writes (the commands' summaries and
    /// discussions, the options' help) reads French, the option and value names and
    /// swift-argument-parser's own headings stay as they are; under C, with the same catalogues
    /// at hand, it is the stored snapshot byte for byte (what the man page and the shells'
    /// completions are made from).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse) && Translations.frenchLocaleExists))
    func helpReadsFrenchAndUnderCIsTheSnapshot() throws {
        let folder = try Translations.built()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var plain = testEnvironment()
        for variable in ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LINES"] { plain[variable] = nil }
        plain["LANG"] = "C"
        plain["COLUMNS"] = "80" // argument-parser wraps at $COLUMNS, as the snapshots were taken
        let french = Self.french(plain, locales: folder)
        plain["DBMULTIVERSE_LOCALE_DIR"] = french["DBMULTIVERSE_LOCALE_DIR"]
        func help(_ environment: [String: String], _ path: [String]) throws -> String {
            let result = try runCommand([Binary.dbmultiverse] + path + ["--help"], environment: environment)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(path): \(result)")
            return result.stdout
        }

        let root = try help(french, [])
        #expect(root.contains("OVERVIEW: Le widget du lecteur de BD DBMultiverse"), "\(root)")
        #expect(root.contains("  entry                   Affiche l’entrée actuelle"), "\(root)")
        #expect(root.contains("SUBCOMMANDS:") && root.contains("Show help information."), "the parser's own texts: \(root)")
        let watch = try help(french, ["watch"])
        #expect(watch.contains("OVERVIEW: Affiche l’entrée tout de suite"), "\(watch)")
        #expect(watch.contains("  --next                  Affiche une entrée (JSON, avec son jeton)"), "\(watch)")
        #expect(watch.contains("[--after <token>]") && watch.contains("--format json"), "names stay: \(watch)")

        for path in [[], ["watch"]] {
            let snapshot = HelpSnapshotTests.snapshots.appendingPathComponent((["dbmultiverse"] + path).joined(separator: "-") + ".txt")
            #expect(try help(plain, path) == String(contentsOf: snapshot, encoding: .utf8), "\(path) under C")
        }
    }

    /// The chapter notification of the built notifier, as the recording server gets it, under a
    /// French session.
    @Test(.holds(.privateBuses), .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse) && Translations.frenchLocaleExists))
    func theNotificationReadsFrench() async throws {
        let folder = try Translations.built()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let service = try Self.frenchService(locales: folder)
        defer { service.stop() }
        let server = FakeNotificationServer(address: service.bus.address)
        try server.start()
        defer { server.stop() }
        let notifier = try Self.frenchNotifier(service, locales: folder, "--no-tray")
        defer { notifier.stop() }
        try notifier.waitForLine(timeout: 10, "the notifier's start") { $0.contains("following com.nobadi.DBMultiverse") }

        #expect(try service.cli("update", "--chapter", "42", "--name", "Le tournoi", "--progress", "35").status == 0)
        let call = try await next(server.notifyCalls, within: 10, "the chapter notification")
        #expect(call.request.summary == "Chapitre 42\u{00A0}: Le tournoi")
        #expect(call.request.body == "lu à 35\u{00A0}%")
        #expect(call.request.actions == ["default", "Reprendre la lecture"], "the action key stays \"default\"")
        #expect(call.request.hints["category"] == Variant("x-dbmultiverse.chapter.changed"))
    }

    /// Issue 39, defect 8: after `make install`, the executables in `<prefix>/libexec/dbmultiverse/`
    /// looked for their catalogues in `<prefix>/libexec/share/locale`, so notifications stayed
    /// English in a French session. The installed service (activated) and notifier, with no
    /// `DBMULTIVERSE_LOCALE_DIR`, find the catalogues of their prefix.
    @Test(.holds(.privateBuses), .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse) && Translations.frenchLocaleExists))
    func theInstalledNotifierAndServiceReadFrench() async throws {
        let home = try DesktopHome()
        let install = try DesktopInstall.make(["install", "PREFIX=\(home.prefix)", "CARD_LINKS=no"], environment: home.environment)
        try #require(install.status == 0, "\(install)")
        let libexec = home.prefix + "/libexec/dbmultiverse"
        var french = home.environment
        french["LANG"] = "fr_FR.UTF-8"
        french["DBMULTIVERSE_DATA_DIR"] = home.root.path + "/data"
        french["DBMULTIVERSE_BROWSER"] = "none"
        let bus = try PrivateBus(activationEnvironment: french)
        defer { bus.stop() }
        try bus.installActivationFile(name: "com.nobadi.DBMultiverse", exec: libexec + "/dbmultiverse-service")
        french["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let server = FakeNotificationServer(address: bus.address)
        try server.start()
        defer { server.stop() }
        let notifier = try StreamingCommand(["sh", "-c", "exec \"$0\" --no-tray 2>&1", libexec + "/dbmultiverse-notifier"], environment: french)
        defer { notifier.stop() }
        try notifier.waitForLine(timeout: 10, "the notifier's start") { $0.contains("following com.nobadi.DBMultiverse") }

        let update = try runCommand([home.prefix + "/bin/dbmultiverse", "update", "--chapter", "42", "--name", "Le tournoi", "--progress", "35"],
                                    environment: french)
        #expect(update.status == 0, "\(update)")
        let call = try await next(server.notifyCalls, within: 10, "the chapter notification")
        #expect(call.request.summary == "Chapitre 42\u{00A0}: Le tournoi")
        #expect(call.request.body == "lu à 35\u{00A0}%")
        #expect(call.request.actions == ["default", "Reprendre la lecture"])
        // The command line, in <prefix>/bin, reads the same catalogues.
        let entry = try runCommand([home.prefix + "/bin/dbmultiverse", "entry", "--family", "small"], environment: french)
        #expect(entry.stdout == "Chap. 42 · 35\u{00A0}%\n", "\(entry)")
    }

    /// The tray item of the built notifier under a French session, read over the bus as a panel
    /// reads it: the tooltip (SNI `ToolTip`) and the menu's labels (dbusmenu `GetLayout`).
    @Test(.holds(.privateBuses), .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse) && Translations.frenchLocaleExists))
    func theTrayMenuAndTooltipReadFrench() async throws {
        let folder = try Translations.built()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let service = try Self.frenchService(locales: folder)
        defer { service.stop() }
        let watcher = FakeStatusNotifierWatcher(address: service.bus.address)
        try watcher.start()
        defer { watcher.stop() }
        #expect(try service.cli("update", "--chapter", "42", "--name", "Le tournoi", "--progress", "35").status == 0)
        // Every NewToolTip from the start: a tooltip read before the entry arrived is read again after it.
        let monitor = try StreamingCommand(["dbus-monitor", "--address", service.bus.address, "type='signal',member='NewToolTip'"])
        defer { monitor.stop() }
        try monitor.waitForLine(timeout: 10, "dbus-monitor's start") { $0.contains("NameAcquired") }
        let notifier = try Self.frenchNotifier(service, locales: folder)
        defer { notifier.stop() }
        let item = try await next(watcher.registrations, within: 10, "the notifier's tray item").service
        func call(_ path: String, _ method: String, _ arguments: String...) throws -> String {
            let result = try runCommand(["gdbus", "call", "--address", service.bus.address, "--dest", item, "--object-path", path, "--method", method, "--"] + arguments,
                                        environment: service.environment)
            #expect(result.status == 0, "\(result)")
            return result.stdout
        }
        var toolTip = try call("/StatusNotifierItem", "org.freedesktop.DBus.Properties.Get", "org.kde.StatusNotifierItem", "ToolTip")
        if !toolTip.contains("Chapitre 42") {
            try monitor.waitForLine(timeout: 10, "the tooltip of chapter 42") { $0.contains("member=NewToolTip") }
            toolTip = try call("/StatusNotifierItem", "org.freedesktop.DBus.Properties.Get", "org.kde.StatusNotifierItem", "ToolTip")
        }
        #expect(toolTip.contains("Chapitre 42\u{00A0}: Le tournoi — lu à 35\u{00A0}%"), "\(toolTip)")
        let layout = try call("/MenuBar", "com.canonical.dbusmenu.GetLayout", "0", "-1", "@as []")
        for label in ["Chapitre 42\u{00A0}: Le tournoi — lu à 35\u{00A0}%", "Reprendre la lecture", "Liste des chapitres"] {
            #expect(layout.contains("'label': <'\(label)'>"), "\(label): \(layout)")
        }
        #expect(!layout.contains("Continue reading") && !layout.contains("Chapter list"), "\(layout)")
    }

    /// `entry` under a French session: its text formats in French; the JSON of `entry`, `watch
    /// --next` and `doctor` has the same keys under fr and C, byte for byte.
    @Test(.holds(.privateBuses), .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse) && Translations.frenchLocaleExists))
    func entryReadsFrenchAndTheJSONKeysDoNotChange() throws {
        let folder = try Translations.built()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The same entry from a service in a French session and from one in a C session.
        let service = try Self.frenchService(locales: folder)
        defer { service.stop() }
        let plainService = try ActivatedService(session: ["LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C"])
        defer { plainService.stop() }
        for each in [service, plainService] {
            #expect(try each.cli("update", "--chapter", "42", "--name", "Le tournoi", "--progress", "35").status == 0)
        }
        var plain = plainService.environment
        for variable in ["LANGUAGE", "LC_ALL", "LC_MESSAGES"] { plain[variable] = nil }
        plain["LANG"] = "C"
        let french = Self.french(service.environment, locales: folder)
        func run(_ environment: [String: String], _ arguments: String...) throws -> String { try run(environment, arguments) }
        func run(_ environment: [String: String], _ arguments: [String]) throws -> String {
            let result = try runCommand([Binary.dbmultiverse] + arguments, environment: environment, timeout: 30)
            #expect(result.status == 0, "\(arguments): \(result)")
            return result.stdout
        }
        #expect(try run(french, "entry", "--family", "small") == "Chap. 42 · 35\u{00A0}%\n")
        #expect(try run(french, "entry") == "Chapitre 42\u{00A0}: Le tournoi — lu à 35\u{00A0}%\n")
        #expect(try run(plain, "entry", "--family", "small") == "Ch. 42 · 35%\n")

        /// Every key of a JSON text, nested ones with their path, in order of appearance.
        func keys(_ text: String) throws -> [String] {
            func walk(_ value: Any, _ path: String) -> [String] {
                if let object = value as? [String: Any] {
                    return object.keys.sorted().flatMap { [path + "/" + $0] + walk(object[$0]!, path + "/" + $0) }
                }
                if let array = value as? [Any] { return array.flatMap { walk($0, path + "[]") } }
                return []
            }
            return walk(try JSONSerialization.jsonObject(with: Data(text.utf8)), "")
        }
        for arguments in [["entry", "--format", "json"], ["watch", "--format", "json", "--next"], ["entry", "--format", "waybar"]] {
            let (inFrench, inC) = (try run(french, arguments), try run(plain, arguments))
            #expect(try keys(inFrench) == keys(inC) && !keys(inC).isEmpty, "\(arguments)")
            #expect(inFrench != inC, "\(arguments): the texts are French")
        }
        // The command line's own messages: a usage error, and a failure of its own.
        let usage = try runCommand([Binary.dbmultiverse, "watch", "--after", "0123456789abcdef"], environment: french)
        #expect(usage.status == 2 && usage.stderr.contains("--after va avec --next"), "\(usage)")
        let none = try runCommand([Binary.dbmultiverse, "chapters"], environment: french.merging(["DBMULTIVERSE_DATA_DIR": folder]) { $1 })
        #expect(none.status == 1 && none.stderr == "dbmultiverse: pas encore de catalogue\u{00A0}: lancez dbmultiverse sync\n", "\(none)")
        let actions = try #require(try JSONSerialization.jsonObject(with: Data(run(french, "entry", "--format", "json").utf8)) as? [String: Any])
        #expect(actions["title"] as? String == "Chapitre 42" && actions["progress-text"] as? String == "lu à 35\u{00A0}%", "\(actions)")
    }

    /// The cards' own catalogues: each build of the GNOME extension holds locale/<ll>/LC_MESSAGES/
    /// dbmultiverse.mo (its metadata's gettext-domain), each build of the plasmoid
    /// contents/locale/<ll>/LC_MESSAGES/plasma_applet_com.nobadi.dbmultiverse.mo, with the
    /// placeholder's messages translated (French read back with msgunfmt).
    @Test func theCardsCarryCataloguesWithThePlaceholdersTranslations() throws {
        let out = try makeTemporaryDirectory("dbm-card-catalogues")
        defer { try? FileManager.default.removeItem(atPath: out) }
        var catalogues: [String] = []
        for build in ["43", "45"] {
            let made = try runCommand([repositoryRoot.appendingPathComponent("desktop/gnome-shell/build.sh").path, build, "\(out)/gnome-\(build)"])
            #expect(made.status == 0, "\(made)")
            catalogues += Self.required.map { "\(out)/gnome-\(build)/locale/\($0)/LC_MESSAGES/dbmultiverse.mo" }
        }
        for version in ["5", "6"] {
            let made = try runCommand([repositoryRoot.appendingPathComponent("desktop/plasma/build.sh").path, version, "\(out)/plasma-\(version)", "/usr/bin/dbmultiverse"])
            #expect(made.status == 0, "\(made)")
            catalogues += Self.required.map { "\(out)/plasma-\(version)/contents/locale/\($0)/LC_MESSAGES/plasma_applet_com.nobadi.dbmultiverse.mo" }
        }
        for catalogue in catalogues {
            let read = try runCommand(["msgunfmt", "--no-wrap", catalogue])
            #expect(read.status == 0, "\(catalogue): \(read)")
            for message in ["Read Multiverse Reader", "Start reading"] {
                #expect(read.stdout.contains("msgid \"\(message)\"\nmsgstr \"") && !read.stdout.contains("msgid \"\(message)\"\nmsgstr \"\"\n"), "\(catalogue): \(message)")
            }
            if catalogue.contains("/fr/") {
                #expect(read.stdout.contains("msgstr \"Commencer la lecture\""), "\(catalogue)")
            }
        }
    }

    /// `update --page N` with nothing stored or configured reads the catalogue of the desktop's
    /// language: French under LANG=fr_FR.UTF-8.
    @Test(.holds(.privateBuses), .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
    func updatePageUnderAFrenchDesktopReadsTheFrenchCatalogue() async throws {
        let setup = try await PageSession()
        setup.site.publish(.small, language: "fr")
        setup.environment = Self.french(setup.environment, locales: setup.service.folder)
        let update = try setup.cli("update", "--page", "130")
        #expect(update.status == 0 && update.stdout.hasPrefix("fr page 130: "), "\(update)")
        #expect(FileManager.default.fileExists(atPath: setup.service.folder + "/chapters-fr.json"))
        #expect(!FileManager.default.fileExists(atPath: setup.service.folder + "/chapters-en.json"))
        #expect(try jsonObject(at: setup.service.folder + "/currentChapterData.json")["language"] as? String == "fr")
    }
}
