@testable import ComicDomain
import DBusTestSupport
import DesktopTestSupport
@testable import Doctor
import Foundation
import Testing
import TestingTraits
import Widget

/// The checks of `dbmultiverse doctor` from what they read, without a desktop: each reading and
/// the line it gives (its status and fix), the parsers of the tools' output, and the process
/// runner's bound.
@Suite(.timeLimit(.minutes(10)), .offThePool) struct DoctorCheckTests {
    /// A runner that answers from a table (the tools are not ours), and records what it was asked.
    final class Answers: CommandRunning, @unchecked Sendable {
        let table: [String: CommandOutput]
        private let lock = NSLock()
        private var asked: [[String]] = []
        init(_ table: [String: CommandOutput]) { self.table = table }
        var calls: [[String]] { lock.withLock { asked } }
        func run(_ arguments: [String], timeout: Duration) -> CommandOutput? {
            lock.withLock { asked.append(arguments) }
            return table[arguments.first ?? ""]
        }
    }

    static let now: Int64 = 1_795_640_000
    static func surroundings(_ answers: [String: CommandOutput] = [:], home: String = "/home/reader") -> Surroundings {
        Surroundings(environment: ["HOME": home, "PATH": "/nonexistent"], now: now, commands: Answers(answers))
    }

    // MARK: systemd

    @Test func systemctlShowBlocksAreReadPerUnit() {
        let units = SystemdUnits.parse("""
            Id=dbmultiverse-notifier.service
            LoadState=loaded
            UnitFileState=masked
            ActiveState=inactive

            Id=dbmultiverse-sync.timer
            LoadState=loaded
            UnitFileState=enabled
            LastTriggerUSec=@1795632800
            NextElapseUSecRealtime=Wed 2026-11-25 19:41:07 UTC
            not a property line

            """)
        #expect(units["dbmultiverse-notifier.service"]?["UnitFileState"] == "masked")
        #expect(units["dbmultiverse-sync.timer"]?["NextElapseUSecRealtime"] == "Wed 2026-11-25 19:41:07 UTC")
        let surroundings = Self.surroundings()
        #expect(SystemdUnits.describeTimestamp("@1795632800", surroundings) == "2 h ago (2026-11-25 18:53 UTC)")
        #expect(SystemdUnits.describeTimestamp("Wed 2026-11-25 19:41:07 UTC", surroundings) == "Wed 2026-11-25 19:41:07 UTC")
        for none in ["", "n/a", "0", "@0"] { #expect(SystemdUnits.describeTimestamp(none, surroundings) == nil, "\(none)") }
    }

    @Test func theTimerLineFollowsTheUnitsState() {
        let surroundings = Self.surroundings()
        func timer(_ properties: [String: String]) -> CheckResult {
            SyncTimerCheck(.timer(properties)).result(surroundings)
        }
        let running = timer(["LoadState": "loaded", "UnitFileState": "enabled", "ActiveState": "active",
                             "LastTriggerUSec": "@\(Self.now - 120)", "NextElapseUSecRealtime": "@\(Self.now + 7200)"])
        #expect(running.status == .ok && running.detail.hasPrefix("enabled, last run 2 min ago (") && running.detail.contains("next in 2 h ("), "\(running)")
        let masked = timer(["LoadState": "loaded", "UnitFileState": "masked"])
        #expect(masked.status == .off && masked.fix == "systemctl --user unmask dbmultiverse-sync.timer && systemctl --user start dbmultiverse-sync.timer")
        let disabled = timer(["LoadState": "loaded", "UnitFileState": "disabled", "ActiveState": "inactive"])
        #expect(disabled.status == .missing && disabled.fix == "systemctl --user enable --now dbmultiverse-sync.timer")
        #expect(disabled.detail == "dbmultiverse-sync.timer is disabled; last run never, next none planned")
        let stopped = timer(["LoadState": "loaded", "UnitFileState": "enabled", "ActiveState": "inactive"])
        #expect(stopped.status == .missing && stopped.fix == "systemctl --user start dbmultiverse-sync.timer")
        let absent = timer(["LoadState": "not-found"])
        #expect(absent.status == .missing && absent.fix == ServiceCheck.installFix)

        let cron = SyncTimerCheck(.noManager("no systemctl", cronLines: ["30 19 * * 0,3,5 dbmultiverse sync"])).result(surroundings)
        #expect(cron.status == .ok && cron.detail.hasSuffix("your crontab runs dbmultiverse sync (1 line)"))
    }

    @Test func theCrontabIsReadOnlyWithoutAUserManager() {
        let crontab = "# m h dom mon dow command\n30 19 * * 0,3,5 dbmultiverse sync >/dev/null\n# 0 12 * * * dbmultiverse sync\n"
        let answers = ["crontab": CommandOutput(status: 0, stdout: crontab, stderr: "")]
        let surroundings = Self.surroundings(answers)
        #expect(SyncTimerCheck.read(surroundings, units: .noManager("x")) == .noManager("x", cronLines: ["30 19 * * 0,3,5 dbmultiverse sync >/dev/null"]))
        #expect(SyncTimerCheck.read(surroundings, units: .manager([:])) == .timer([:]))
        #expect((surroundings.commands as? Answers)?.calls == [["crontab", "-l"]])
    }

    @Test func aSystemctlWithoutUnixTimestampsIsAskedAgain() {
        final class OldSystemctl: CommandRunning, @unchecked Sendable {
            func run(_ arguments: [String], timeout: Duration) -> CommandOutput? {
                arguments.contains("--timestamp=unix")
                    ? CommandOutput(status: 1, stdout: "", stderr: "systemctl: unrecognized option '--timestamp=unix'")
                    : CommandOutput(status: 0, stdout: "Id=dbmultiverse-sync.timer\nUnitFileState=enabled\n", stderr: "")
            }
        }
        let surroundings = Surroundings(environment: [:], now: Self.now, commands: OldSystemctl())
        #expect(SystemdUnits.read(surroundings) == .manager(["dbmultiverse-sync.timer": ["Id": "dbmultiverse-sync.timer", "UnitFileState": "enabled"]]))
    }

    @Test func theNotifierLineSaysHowToStartIt() {
        let surroundings = Self.surroundings()
        func notifier(_ units: SystemdUnits, _ autostart: NotifierCheck.Autostart = .none) -> CheckResult {
            NotifierCheck(.init(owner: .unowned, units: units, autostart: autostart)).result(surroundings)
        }
        let unit = SystemdUnits.notifierUnit
        #expect(notifier(.manager([unit: ["LoadState": "loaded", "UnitFileState": "disabled"]])).fix == "systemctl --user enable --now \(unit)")
        #expect(notifier(.manager([unit: ["LoadState": "loaded", "UnitFileState": "masked"]])).status == .off)
        #expect(notifier(.manager([unit: ["LoadState": "loaded", "UnitFileState": "enabled", "ActiveState": "failed"]])).detail
                == "not running: \(unit) is enabled but not running (failed)")
        let hidden = notifier(.noManager("no systemctl"), .hidden("/home/reader/.config/autostart/com.nobadi.DBMultiverse.Notifier.desktop"))
        #expect(hidden.status == .off && hidden.detail == "not running: turned off (Hidden=true in ~/.config/autostart/com.nobadi.DBMultiverse.Notifier.desktop)")
        let autostart = notifier(.noManager("no systemctl"), .entry("/etc/xdg/autostart/com.nobadi.DBMultiverse.Notifier.desktop"))
        #expect(autostart.status == .missing && autostart.fix == "dbmultiverse notifier & (your session's next login starts it)")
        let running = NotifierCheck(.init(owner: .owned(.init(uniqueName: ":1.7", pid: 4242)), units: .noManager(""), autostart: .none))
        #expect(running.result(surroundings) == CheckResult("notifier", .ok, "running (pid 4242)"))
    }

    /// A notifier older than the installed one — its binary replaced or removed since it started
    /// (an upgrade it did not follow), or another version than this installation's — is no
    /// "✓ running": the line says so and how to replace it, per kind of session.
    @Test func theNotifierLineSaysWhenWhatRunsIsNotWhatIsInstalled() {
        let surroundings = Self.surroundings()
        let binary = "/usr/libexec/dbmultiverse/dbmultiverse-notifier"
        let owner = DoctorBus.Lookup.owned(.init(uniqueName: ":1.7", pid: 4242))
        let manager = SystemdUnits.manager([SystemdUnits.notifierUnit: ["LoadState": "loaded", "UnitFileState": "enabled"]])
        func line(_ running: RunningExecutable, _ units: SystemdUnits = .noManager("no systemctl")) -> CheckResult {
            NotifierCheck(.init(owner: owner, units: units, autostart: .none, running: running)).result(surroundings)
        }
        #expect(line(RunningExecutable(link: binary, version: ProjectInfo.version)) == CheckResult("notifier", .ok, "running (pid 4242)"))
        #expect(line(RunningExecutable(link: binary + " (deleted)", version: nil), manager)
                    == CheckResult("notifier", .missing, "running (pid 4242), but its binary \(binary) was replaced or removed since it started",
                                   fix: "systemctl --user restart dbmultiverse-notifier.service"))
        #expect(line(RunningExecutable(link: binary + " (deleted)", version: nil)).fix == "kill 4242 && dbmultiverse notifier &")
        #expect(line(RunningExecutable(link: binary, version: "0.0.9"))
                    == CheckResult("notifier", .missing, "running (pid 4242) version 0.0.9, but this installation is \(ProjectInfo.version)",
                                   fix: "kill 4242 && dbmultiverse notifier &"))
    }

    /// The service line says the same of an older service (it stays ✓: it answers), with the way to
    /// replace it.
    @Test func theServiceLineSaysWhenWhatAnswersIsNotWhatIsInstalled() {
        let view = EntryView.placeholder(family: .medium, date: 0)
        let surroundings = Surroundings(environment: ["HOME": "/home/reader"], now: Self.now, commands: Answers([:]))
        let binary = "/usr/libexec/dbmultiverse/dbmultiverse-service"
        let replaced = ServiceCheck(.answered(wasRunning: true, view: view, executable: binary + " (deleted)", version: nil)).result(surroundings)
        #expect(replaced.status == .ok && replaced.detail.hasSuffix("; \(binary) (deleted): the binary was replaced since it started"), "\(replaced)")
        #expect(replaced.fix == ServiceCheck.restartFix)
        let older = ServiceCheck(.answered(wasRunning: true, view: view, executable: binary, version: "0.0.9")).result(surroundings)
        #expect(older.status == .ok && older.detail.hasSuffix("; \(binary) 0.0.9 (this command is \(ProjectInfo.version))"), "\(older)")
        #expect(older.fix == ServiceCheck.restartFix)
        let current = ServiceCheck(.answered(wasRunning: true, view: view, executable: binary, version: ProjectInfo.version)).result(surroundings)
        #expect(current.fix == nil)
    }

    // MARK: Files

    @Test func hostManifestsAreCheckedAsBrowsersReadThem() throws {
        let executable = "/bin/sh"
        func manifest(_ name: String = "com.nobadi.dbmultiverse", path: String = executable, key: String, allowed: String) -> [UInt8] {
            Array("{\"name\": \"\(name)\", \"type\": \"stdio\", \"path\": \"\(path)\", \"\(key)\": [\"\(allowed)\"]}".utf8)
        }
        let origin = "chrome-extension://ggedickjhdkhcjapnhgdobjneiagnckh/"
        #expect(HostManifest.problem(in: manifest(key: "allowed_origins", allowed: origin), family: .chromium) == nil)
        #expect(HostManifest.problem(in: manifest(key: "allowed_extensions", allowed: "dbmultiverse@nobadi.com"), family: .firefox) == nil)
        #expect(HostManifest.problem(in: manifest(key: "allowed_extensions", allowed: "dbmultiverse@nobadi.com"), family: .chromium)
                == "its allowed_origins lacks \(origin)")
        #expect(HostManifest.problem(in: manifest("other.host", key: "allowed_origins", allowed: origin), family: .chromium)
                == "its name is not com.nobadi.dbmultiverse")
        #expect(HostManifest.problem(in: manifest(path: "/nonexistent/dbmultiverse", key: "allowed_origins", allowed: origin), family: .chromium)
                == "its path /nonexistent/dbmultiverse is no executable")
        #expect(HostManifest.problem(in: Array("[1]".utf8), family: .firefox) == "not a JSON object")
    }

    @Test func aBrowserWhoseFamilyTalkedFromAnotherBrowserHasNotTalked() throws {
        let home = try makeTemporaryDirectory("dbm-doctor-browser")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let folder = home + "/.config/google-chrome/NativeMessagingHosts"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "{\"name\": \"com.nobadi.dbmultiverse\", \"type\": \"stdio\", \"path\": \"/bin/sh\", \"allowed_origins\": [\"chrome-extension://ggedickjhdkhcjapnhgdobjneiagnckh/\"]}"
            .write(toFile: folder + "/com.nobadi.dbmultiverse.json", atomically: true, encoding: .utf8)
        let surroundings = Self.surroundings(home: home)
        let chrome = FoundBrowser(kind: try #require(BrowserKind.all.first { $0.name == "google-chrome" }), packaging: .native, path: "/usr/bin/google-chrome")
        let brave = BrowserContacts(contacts: [.chromium: .init(at: Self.now - 300, browser: "brave")])
        let result = BrowserCheck(BrowserCheck.read(chrome, contacts: brave, surroundings)).result(surroundings)
        #expect(result.status == .missing, "\(result)")
        #expect(result.detail == "host manifest ~/.config/google-chrome/NativeMessagingHosts/com.nobadi.dbmultiverse.json ✓, the extension never talked to the host (the chromium family's last contact: brave, 5 min ago)")
        #expect(result.fix?.hasPrefix("chrome://extensions → Developer mode → Load unpacked → ") == true, "\(result)")
        let chromeContact = BrowserContacts(contacts: [.chromium: .init(at: Self.now - 300, browser: "chrome")])
        #expect(BrowserCheck(BrowserCheck.read(chrome, contacts: chromeContact, surroundings)).result(surroundings).status == .ok)

        let snap = FoundBrowser(kind: try #require(BrowserKind.all.first { $0.name == "firefox" }), packaging: .snap, path: "/snap/bin/firefox")
        let confined = BrowserCheck(BrowserCheck.read(snap, contacts: BrowserContacts(), surroundings)).result(surroundings)
        #expect(confined.name == "browser firefox (snap)" && confined.status == .unavailable && confined.fix?.hasPrefix("dbmultiverse import-history") == true)
    }

    @Test func gsettingsStringArraysAreRead() {
        #expect(GnomeExtensionCheck.parseStrings("@as []\n") == [])
        #expect(GnomeExtensionCheck.parseStrings("['a@b.c', 'dbmultiverse@nobadi.com']\n") == ["a@b.c", "dbmultiverse@nobadi.com"])
        #expect(GnomeExtensionCheck.parseStrings("[\"it's@x\", 'q\\'s@y']") == ["it's@x", "q's@y"])
    }

    @Test func theCatalogueIsStaleAfterEightDays() throws {
        let surroundings = Self.surroundings()
        let chapter = try Catalogue.Chapter(number: 1, name: "One", startPage: 1, endPage: 24, universe: nil, thumbnailURL: "")
        func catalogue(fetchedAt: Int64, _ language: SiteLanguage = .english) throws -> CheckResult {
            let stored = try Catalogue(language: language, chapters: [chapter], latestPage: 30,
                                       fetch: .init(url: "https://x/", etag: nil, lastModified: nil, fetchedAt: fetchedAt))
            return CatalogueCheck(.catalogue(language, .valid(stored))).result(surroundings)
        }
        #expect(try catalogue(fetchedAt: Self.now - 3 * 86_400) == CheckResult("catalogue", .ok, "en: 1 chapter, latest page 30, fetched 3 days ago"))
        let stale = try catalogue(fetchedAt: Self.now - 9 * 86_400, try SiteLanguage(validating: "fr"))
        #expect(stale.status == .missing && stale.fix == "dbmultiverse sync --language fr" && stale.detail.hasSuffix("(older than 8 days)"))
        let corrupt = CatalogueCheck(.catalogue(.english, .invalid(reason: "bad JSON"))).result(surroundings)
        #expect(corrupt.status == .missing && corrupt.fix == "dbmultiverse sync --force")
    }

    @Test func theSyncFolderLineNamesTheFolderAndTheComputersSeen() {
        let surroundings = Surroundings(environment: ["HOME": "/home/reader"], now: Self.now, commands: Answers([:]))
        #expect(SyncFolderCheck(.off).result(surroundings) == nil, "no line while sharing is off")
        let seen = SyncFolderCheck(.present(path: "/home/reader/Sync/dbm", computers: [
            .init(name: "Laptop", readAt: Self.now - 180, isThisComputer: false),
            .init(name: "Desk", readAt: Self.now - 7200, isThisComputer: true),
        ], unusable: 1)).result(surroundings)
        #expect(seen == CheckResult("sync folder", .ok, "~/Sync/dbm: Laptop read 3 min ago, Desk (this computer) read 2 h ago, 1 unusable record skipped"))
        #expect(SyncFolderCheck(.present(path: "/s", computers: [], unusable: 0)).result(surroundings)?.detail == "/s: no computer has written there yet")
        let away = SyncFolderCheck(.missing(path: "/media/usb/dbm")).result(surroundings)
        #expect(away?.status == .missing && away?.detail.hasPrefix("/media/usb/dbm is not there (removed, or its drive not mounted)") == true)
        #expect(away?.fix?.hasSuffix("dbmultiverse sync-folder FOLDER") == true)
        #expect(SyncFolderCheck(.badSetting("use an absolute path")).result(surroundings)?.status == .missing)
    }

    @Test func theReportsEssentialsAreTheServiceAndTheDataFolder() {
        let working = DoctorReport(checks: [CheckResult("service", .ok, "answering"), CheckResult("data folder", .ok, "~/d"),
                                            CheckResult("tray host", .missing, "none", fix: "add a tray")])
        #expect(working.essentialsWork)
        #expect(working.text.split(separator: "\n").prefix(4) == ["✓ service: answering", "✓ data folder: ~/d", "✗ tray host: none", "    fix: add a tray"])
        #expect(working.json == #"{"ok":true,"checks":[{"name":"service","status":"ok","detail":"answering","fix":null},{"name":"data folder","status":"ok","detail":"~/d","fix":null},{"name":"tray host","status":"missing","detail":"none","fix":"add a tray"}]}"#)
        #expect(!DoctorReport(checks: [CheckResult("service", .ok, "answering")]).essentialsWork)
        #expect(!DoctorReport(checks: [CheckResult("service", .missing, "no"), CheckResult("data folder", .ok, "~/d")]).essentialsWork)
    }

    @Test func theTrayLineIsOffWhenTheUserTurnedTheItemOff() {
        let surroundings = Self.surroundings()
        func tray(config: String = "", desktop: String = "", gnomeCard: Bool = false, watcher: DoctorBus.Lookup = .unowned) -> CheckResult {
            TrayHostCheck(.init(watcher: watcher, items: ["org.kde.StatusNotifierItem-77-1/StatusNotifierItem"],
                                config: ConfigFile(text: config), desktop: desktop, notifierPID: 77, gnomeCardEnabled: gnomeCard))
                .result(surroundings)
        }
        let off = tray(config: "tray = no\n")
        #expect(off.status == .off && off.fix == "remove the tray = no line from /home/reader/.config/dbmultiverse/config", "\(off)")
        #expect(tray(desktop: "ubuntu:GNOME").fix?.hasPrefix("gnome-extensions enable dbmultiverse@nobadi.com") == true)
        #expect(tray(desktop: "GNOME", gnomeCard: true).status == .unavailable)
        #expect(tray(desktop: "KDE").fix?.hasPrefix("add a system tray to your panel") == true)
        #expect(tray(watcher: .owned(.init(uniqueName: ":1.3", pid: 12))) == CheckResult(
            "tray host", .ok, "org.kde.StatusNotifierWatcher (pid 12), the notifier's item registered"))
    }

    @Test func aDataFolderThatCannotBeMadeIsNotUsable() throws {
        let base = try makeTemporaryDirectory("dbm-doctor-data")
        defer { try? FileManager.default.removeItem(atPath: base) }
        try "not a folder".write(toFile: base + "/file", atomically: true, encoding: .utf8)
        func check(_ folder: String) -> CheckResult {
            let surroundings = Surroundings(environment: ["HOME": "/home/reader", "DBMULTIVERSE_DATA_DIR": folder], now: Self.now,
                                            commands: Answers([:]))
            return DataFolderCheck(DataFolderCheck.read(surroundings)).result(surroundings)
        }
        #expect(check(base + "/file") == CheckResult("data folder", .missing, "\(base)/file is not a folder", fix: "mv \(base)/file \(base)/file.old"))
        let below = check(base + "/file/data")
        #expect(below.status == .missing && below.detail == "\(base)/file/data cannot be made: \(base)/file is not a folder", "\(below)")
        #expect(check(base + "/new/data").status == .ok)
        try "{\"number\": 0}".write(toFile: base + "/currentChapterData.json", atomically: true, encoding: .utf8)
        let corrupt = check(base)
        #expect(corrupt.status == .ok && corrupt.detail.contains("currentChapterData.json is unusable"), "\(corrupt)")
        #expect(!DoctorReport(checks: [CheckResult("service", .ok, "answering"), check(base + "/file")]).essentialsWork)
    }

    // MARK: The cards' builds

    /// The GNOME Shell extension's line says which build is installed against the shell here: the
    /// build and version when it fits; the command that points it at the other build when that one
    /// fits; and for a shell newer than any build is tested on, that it is untested and how to try it
    /// anyway — never a silent "OUT OF DATE".
    @Test func theGnomeLineSaysWhichBuildAgainstWhichShell() {
        let surroundings = Self.surroundings()
        let build43 = CardBuilds.Build(name: "gnome-shell-43", versions: [43, 44])
        let build45 = CardBuilds.Build(name: "gnome-shell-45", versions: [45, 46, 47, 48, 49, 50, 51])
        let folder = "/usr/share/gnome-shell/extensions/dbmultiverse@nobadi.com"
        // select-cards's choice for `shell` (its rule is CardSelectionTests').
        func line(_ installed: CardBuilds.Build, shell: String, select: String? = "sudo /usr/libexec/dbmultiverse/select-cards") -> CheckResult {
            let chosen = Int(shell.prefix { $0 != "." })! <= 44 ? build43 : build45
            return GnomeExtensionCheck(.init(installed: folder, enabled: .success([GnomeExtensionCheck.uuid]), userExtensionsDisabled: false,
                                             builds: CardBuilds(installed: installed, all: [build43, build45], selectCommand: select),
                                             shell: .success(CardChoice(version: shell, build: chosen.name)))).result(surroundings)
        }
        #expect(line(build45, shell: "48.7") == CheckResult("GNOME Shell extension", .ok,
                                                            "installed in \(folder) (the build for GNOME 45–51; GNOME Shell 48.7 here), turned on"))
        #expect(line(build43, shell: "43.9").detail == "installed in \(folder) (the build for GNOME 43–44; GNOME Shell 43.9 here), turned on")
        #expect(line(build43, shell: "48.7") == CheckResult("GNOME Shell extension", .missing,
                                                            "installed in \(folder) is the build for GNOME 43–44, but GNOME Shell 48.7 is installed",
                                                            fix: "sudo /usr/libexec/dbmultiverse/select-cards (it points the extension at the build for GNOME 45–51)"))
        #expect(line(build43, shell: "48.7", select: nil).fix == ServiceCheck.installFix)
        let untested = line(build45, shell: "52.0")
        #expect(untested.status == .missing)
        #expect(untested.detail == "installed in \(folder): GNOME Shell 52.0 is newer than the card is tested on (up to 51), so the shell does not load it")
        #expect(untested.fix == "to try it anyway: gsettings set org.gnome.shell disable-extension-version-validation true, then log in again")
        #expect(line(build43, shell: "42.5").status == .unavailable)
        // No version to compare (no gnome-shell --version, or metadata without shell-version): the line as before.
        let unknown = GnomeExtensionCheck(.init(installed: folder, enabled: .success([]), userExtensionsDisabled: false)).result(surroundings)
        #expect(unknown.detail == "installed in \(folder), not turned on")
        // No select-cards (a build without the repository's desktop/, a partial install): said, with where it was looked for.
        let unanswered = GnomeExtensionCheck(.init(installed: folder, enabled: .success([]), userExtensionsDisabled: false,
                                                   builds: CardBuilds(installed: build45, all: [build45], selectCommand: nil),
                                                   shell: .failure(.init(looked: ["/usr/libexec/dbmultiverse/select-cards"])))).result(surroundings)
        #expect(unanswered.detail == "installed in \(folder) (the build for GNOME 45–51; which build fits cannot be told: select-cards did not answer"
                    + " (looked for /usr/libexec/dbmultiverse/select-cards)), not turned on")
    }

    /// What select-cards leaves at a card's place (it is not its own) is said on the card's line,
    /// with what to do: another extension or widget in the card's folder, a link someone made, a
    /// folder that leads elsewhere (where select-cards links nothing); a link of one's own to a
    /// checkout of the card is named as such.
    @Test func theCardLinesSayWhatStandsInTheCardsPlace() {
        let surroundings = Self.surroundings()
        let place = "/usr/share/gnome-shell/extensions/dbmultiverse@nobadi.com"
        let build = "/usr/share/dbmultiverse/cards/gnome-shell-45"
        func gnome(installed: String?, uuid: String? = GnomeExtensionCheck.uuid, _ found: CardPlace) -> CheckResult {
            GnomeExtensionCheck(.init(installed: installed, enabled: .success([GnomeExtensionCheck.uuid]), userExtensionsDisabled: false,
                                      uuid: uuid, place: .init(path: place, place: found, build: build))).result(surroundings)
        }
        let foreign = gnome(installed: place, uuid: "other@example.org", .other)
        #expect(foreign.status == .missing && foreign.detail == "\(place) holds other@example.org, not DBMultiverse's card: select-cards leaves it as it is")
        #expect(foreign.fix?.hasPrefix("move it out of /usr/share/gnome-shell/extensions, then run ") == true, "\(foreign)")
        let dangling = gnome(installed: nil, .otherLink("/home/admin/src/card"))
        #expect(dangling.detail == "not installed: \(place) is a link to /home/admin/src/card, which select-cards leaves as it is")
        let elsewhere = gnome(installed: nil, .folderLink("/srv/extensions"))
        #expect(elsewhere.detail == "not installed: /usr/share/gnome-shell/extensions leads to /srv/extensions through a link, where select-cards links no card")
        #expect(elsewhere.fix == "sudo ln -s \(build) /srv/extensions/dbmultiverse@nobadi.com")
        #expect(gnome(installed: nil, .empty).fix == ServiceCheck.installFix)
        let own = gnome(installed: place, .otherLink("/home/admin/src/card"))
        #expect(own == CheckResult("GNOME Shell extension", .ok,
                                   "installed in \(place), a link of your own to /home/admin/src/card (select-cards leaves it as it is), turned on"))

        let plasmoid = "/usr/share/plasma/plasmoids/com.nobadi.dbmultiverse"
        let otherWidget = PlasmaWidgetCheck(.foreign(plasmoid, id: "org.example.clock")).result(surroundings)
        #expect(otherWidget.status == .missing && otherWidget.detail == "\(plasmoid) holds org.example.clock, not DBMultiverse's card: select-cards leaves it as it is")
        let notOurs = PlasmaWidgetCheck(.notInstalled, place: .init(path: plasmoid, place: .other, build: "/usr/share/dbmultiverse/cards/plasma-6"))
            .result(surroundings)
        #expect(notOurs.detail == "not installed: \(plasmoid) is not DBMultiverse's card, which select-cards leaves as it is")
    }

    /// select-cards --query's lines as doctor reads them.
    @Test func selectCardsAnswersAreRead() {
        let answer = SelectCards.Answer(selector: "/usr/libexec/dbmultiverse/select-cards", output: """
            gnome-shell 48.7 gnome-shell-45
            plasma - plasma-6
            place gnome-shell other-link /home/admin/my card
            place plasma folder-link /srv/plasma stuff

            """)
        #expect(answer.choices["gnome-shell"] == .some(CardChoice(version: "48.7", build: "gnome-shell-45")))
        #expect(answer.choices["plasma"] == .some(nil))
        #expect(answer.places == ["gnome-shell": .otherLink("/home/admin/my card"), "plasma": .folderLink("/srv/plasma stuff")])
        #expect(answer.placePath("plasma") == "/usr/share/plasma/plasmoids/com.nobadi.dbmultiverse")
        #expect(answer.buildPath("gnome-shell-45") == "/usr/share/dbmultiverse/cards/gnome-shell-45")
    }

    @Test func thePlasmaLineSaysWhenTheBuildIsForTheOtherPlasma() {
        let surroundings = Self.surroundings()
        let (plasma5, plasma6) = (CardBuilds.Build(name: "plasma-5", versions: [5]), CardBuilds.Build(name: "plasma-6", versions: [6]))
        let folder = "/usr/share/plasma/plasmoids/com.nobadi.dbmultiverse"
        func line(_ installed: CardBuilds.Build, plasma: Int) -> CheckResult {
            let builds = CardBuilds(installed: installed, all: [plasma5, plasma6], selectCommand: "sudo /usr/libexec/dbmultiverse/select-cards")
            return PlasmaWidgetCheck(.installed(folder, added: true), build: .success(.init(builds: builds, plasma: plasma, chosen: "plasma-\(plasma)")))
                .result(surroundings)
        }
        #expect(line(plasma6, plasma: 6) == CheckResult("Plasma widget", .ok, "installed in \(folder) (the build for Plasma 6), added to the desktop or a panel"))
        #expect(line(plasma5, plasma: 6) == CheckResult("Plasma widget", .missing, "installed in \(folder) is the build for Plasma 5, but Plasma 6 is installed",
                                                        fix: "sudo /usr/libexec/dbmultiverse/select-cards (it points the widget at the build for Plasma 6)"))
    }

    // MARK: Updates

    /// Where updates come from: apt's answer for its sources folder (its shell quoting read back),
    /// the repository's file there (comments and field case as deb822 allows), turned off by
    /// `Enabled: no`; no file, or no apt, says there are no updates.
    @Test func theUpdatesLineNamesTheRepositoryAptReads() throws {
        let folder = try makeTemporaryDirectory("dbm-apt-sources")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func reading(_ sources: String?, aptConfig: CommandOutput? = nil) throws -> UpdatesCheck.Reading {
            let file = folder + "/dbmultiverse.sources"
            if let sources { try sources.write(toFile: file, atomically: true, encoding: .utf8) } else { try? FileManager.default.removeItem(atPath: file) }
            let answer = aptConfig ?? CommandOutput(status: 0, stdout: "FOLDER='\(folder)/'\n", stderr: "")
            return UpdatesCheck.read(Self.surroundings(["apt-config": answer]))
        }
        let sources = "# the project's repository\nTypes: deb\nuris: https://example.org/apt/\n  https://mirror.example.org/apt/\nSuites: stable\nComponents: main\n"
        let found = try reading(sources)
        #expect(found == .repository(file: folder + "/dbmultiverse.sources", uris: ["https://example.org/apt/", "https://mirror.example.org/apt/"],
                                     suites: ["stable"], enabled: true))
        #expect(UpdatesCheck(found).result(Self.surroundings()) == CheckResult(
            "updates", .ok, "from https://example.org/apt/ https://mirror.example.org/apt/, suite stable (\(folder)/dbmultiverse.sources): apt upgrade installs new versions"))
        let off = try reading(sources + "Enabled: no\n")
        #expect(UpdatesCheck(off).result(Self.surroundings()) == CheckResult(
            "updates", .off, "the repository in \(folder)/dbmultiverse.sources is turned off (Enabled: no)",
            fix: "remove the Enabled: no line from \(folder)/dbmultiverse.sources"))
        #expect(try reading(nil) == .noRepository(folder: folder + "/"))
        #expect(UpdatesCheck(.noRepository(folder: folder + "/")).result(Self.surroundings()) == CheckResult(
            "updates", .unavailable, "installed without a repository: no updates",
            fix: "add the repository as the Install section of /usr/share/doc/dbmultiverse/README.md says"))
        #expect(try reading(sources, aptConfig: CommandOutput(status: 100, stdout: "", stderr: "E: broken")) == .noApt)
        #expect(UpdatesCheck.read(Self.surroundings()) == .noApt) // no apt-config at all
        #expect(UpdatesCheck.parseShellAssignment("FOLDER='/etc/it'\\''s/'\n", name: "FOLDER") == "/etc/it's/")
    }

    // MARK: The process runner

    @Test func theRunnerReadsBothStreamsAndStopsAtItsDeadline() {
        let runner = ProcessRunner(environment: ["PATH": "/usr/bin:/bin"])
        let output = runner.run(["sh", "-c", "echo out; echo err >&2; exit 3"], timeout: .seconds(5))
        #expect(output == CommandOutput(status: 3, stdout: "out\n", stderr: "err\n"))
        #expect(runner.run(["no-such-command-here"], timeout: .seconds(1)) == nil)

        let started = Date()
        let stuck = runner.run(["sleep", "30"], timeout: .milliseconds(300))
        #expect(stuck?.status == nil && Date().timeIntervalSince(started) < 5, "\(String(describing: stuck))")
        // A child that closes its output and goes on is still bounded (the pidfd, not the pipes).
        let quiet = runner.run(["sh", "-c", "exec >&- 2>&-; sleep 30"], timeout: .milliseconds(300))
        #expect(quiet?.status == nil && Date().timeIntervalSince(started) < 10)
    }

    /// What a command leaves behind in its process group goes with it: killed at the deadline with
    /// the command, or at once when the command ends — a grandchild holding the output pipes (a
    /// desktop program that hangs under select-cards) neither makes doctor wait for the deadline nor
    /// outlives it.
    @Test func theRunnerEndsWhatTheCommandLeftBehind() {
        let runner = ProcessRunner(environment: ["PATH": "/usr/bin:/bin"])
        let marker = "30.\(getpid())\(Int.random(in: 1000...9999))"
        let started = Date()
        let ended = runner.run(["sh", "-c", "sleep \(marker) & echo done"], timeout: .seconds(20))
        #expect(ended == CommandOutput(status: 0, stdout: "done\n", stderr: ""))
        #expect(Date().timeIntervalSince(started) < 10, "waited \(Date().timeIntervalSince(started)) s for what the command left")
        let leftAfterEnd = processesLeft(containing: marker)
        #expect(leftAfterEnd.isEmpty, "\(leftAfterEnd)")

        let stuck = runner.run(["sh", "-c", "sleep \(marker) & sleep \(marker)"], timeout: .milliseconds(300))
        #expect(stuck?.status == nil)
        let leftAfterDeadline = processesLeft(containing: marker)
        #expect(leftAfterDeadline.isEmpty, "\(leftAfterDeadline)")
    }
}
