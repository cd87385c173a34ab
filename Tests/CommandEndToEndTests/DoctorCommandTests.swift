import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Testing
import TestingTraits
import Widget

/// The built `dbmultiverse doctor` on a private bus, in a temporary home: a bare one (nothing
/// installed, no systemd user manager) and a complete one (the service activatable, the notifier
/// running, a notification server and a tray watcher on the bus — peers that are not ours, played
/// by stand-ins —, the host manifests `scripts/build/browser-hosts.sh` writes, the host's record of the
/// extensions' visits, a catalogue, the GNOME extension and the Plasma widget installed and on).
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .offThePool,
       .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct DoctorCommandTests {
    /// What a machine without a systemd user manager answers (containers, ssh without a session).
    static let noManager = "echo 'Failed to connect to bus: No medium found' >&2; exit 1"

    /// Runs `body` in a bare home (nothing installed, no systemd user manager) on a private bus.
    func inABareHome(_ body: (PrivateBus, DoctorHome) throws -> Void) throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let home = try DoctorHome()
        defer { home.remove() }
        try home.standIn("systemctl", Self.noManager)
        try body(bus, home)
    }

    @Test func aBareInstallationFailsAndSaysWhatFixesEachPiece() throws {
        try inABareHome { bus, home in
            try home.standIn("gsettings", "case \"$3\" in enabled-extensions) echo '@as []';; *) echo false;; esac")
            try home.standIn("crontab", "echo \"no crontab for $USER\" >&2; exit 1")

            let result = try home.doctor(bus: bus)
            #expect(result.status == 1, "\(result)")
            let lines = DoctorLine.parse(result.stdout)
            let service = try #require(lines["service"], "\(result.stdout)")
            #expect(service.mark == "✗" && service.detail.contains("ServiceUnknown"), "\(service)")
            #expect(service.fix == "fix: sudo apt install dbmultiverse (or make install, from the source)")
            #expect(lines["data folder"]?.mark == "✓", "the folder can be made: \(result.stdout)")
            #expect(lines["notifier"]?.fix == "fix: dbmultiverse notifier & (and add it to your session's startup)", "\(result.stdout)")
            #expect(lines["notification server"]?.fix == "fix: sudo apt install dunst (or your desktop's own notification server)")
            #expect(lines["tray host"]?.fix?.hasPrefix("fix: add a system tray to your panel") == true, "\(result.stdout)")
            #expect(lines["sync timer"]?.detail.contains("no systemd user manager (Failed to connect to bus: No medium found)") == true)
            #expect(lines["sync timer"]?.fix?.contains("crontab -e, and add: 30 19 * * 0,3,5 dbmultiverse sync") == true)
            #expect(lines["catalogue"]?.fix == "fix: dbmultiverse sync", "\(result.stdout)")
            // The browsers this machine has (the suite's: Firefox ESR and Chromium), without manifests.
            for browser in ["firefox-esr", "chromium"] where FileManager.default.isExecutableFile(atPath: "/usr/bin/" + browser) {
                let line = try #require(lines["browser \(browser)"], "\(result.stdout)")
                #expect(line.mark == "✗" && line.fix != nil, "\(line)")
            }
            // Every piece that is missing says what fixes it, on the line below.
            for line in lines where line.mark == "✗" {
                #expect(line.fix?.hasPrefix("fix: ") == true, "\(line)")
            }
            #expect(result.stdout.hasSuffix("The essentials do not work: see the service and data folder lines.\n"))
            #expect(home.toolCalls.contains("systemctl --user show"), "\(home.toolCalls)")
            #expect(home.toolCalls.contains("crontab -l"), "\(home.toolCalls)")

            let json = try home.doctor("--format", "json", bus: bus)
            #expect(json.status == 1)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
            #expect(object["ok"] as? Bool == false)
            let checks = try #require(object["checks"] as? [[String: Any]])
            #expect(checks.map { $0["name"] as? String } == lines.map(\.name))
            #expect(checks.first?["status"] as? String == "missing" && checks.first?["fix"] as? String == "sudo apt install dbmultiverse (or make install, from the source)")

            let usage = try home.doctor("--format", "xml", bus: bus)
            #expect(usage.status == 2 && usage.stdout.isEmpty && usage.stderr.contains("'xml' is invalid for '--format"), "\(usage)")
        }
    }

    @Test func aCompleteInstallationPassesEveryCheck() async throws {
        let service = try ActivatedService()
        defer { service.stop() }
        let bus = service.bus
        let home = try DoctorHome(dataFolder: service.folder)
        defer { home.remove() }
        // Times in the middle of the hours they are said in, so a slow machine still says the same.
        let now = Int64(Date().timeIntervalSince1970)

        // The desktop's peers, which are not ours.
        let notifications = FakeNotificationServer(address: bus.address)
        try notifications.start()
        defer { notifications.stop() }
        let watcher = FakeStatusNotifierWatcher(address: bus.address)
        try watcher.start()
        defer { watcher.stop() }
        try home.standIn("systemctl", """
            printf 'Id=dbmultiverse-notifier.service\\nLoadState=loaded\\nUnitFileState=enabled\\nActiveState=active\\n\\n'
            printf 'Id=dbmultiverse-sync.timer\\nLoadState=loaded\\nUnitFileState=enabled\\nActiveState=active\\n'
            printf 'LastTriggerUSec=@\(now - 9000)\\nNextElapseUSecRealtime=@\(now + 19800)\\n'
            """)
        try home.standIn("gsettings", "case \"$3\" in enabled-extensions) echo \"['other@example.com', 'dbmultiverse@nobadi.com']\";; *) echo false;; esac")

        // What installing writes, by the installers' own scripts.
        let install = try runCommand([repositoryRoot.path + "/scripts/build/browser-hosts.sh", "install", Binary.dbmultiverse],
                                     environment: home.environment(bus: bus))
        try #require(install.status == 0, "\(install)")
        try home.write("{\"uuid\": \"dbmultiverse@nobadi.com\"}\n", to: ".local/share/gnome-shell/extensions/dbmultiverse@nobadi.com/metadata.json")
        try home.write("{\"KPlugin\": {\"Id\": \"com.nobadi.dbmultiverse\"}}\n", to: ".local/share/plasma/plasmoids/com.nobadi.dbmultiverse/metadata.json")
        try home.write("[Containments][1][Applets][7]\nimmutability=1\nplugin=com.nobadi.dbmultiverse\n",
                       to: ".config/plasma-org.kde.plasma.desktop-appletsrc")
        // The project's apt repository, as the keyring package adds it.
        let sources = try String(contentsOf: repositoryRoot.appendingPathComponent("debian/archive-keyring/dbmultiverse.sources"), encoding: .utf8)
        try sources.write(toFile: home.aptSources + "/dbmultiverse.sources", atomically: true, encoding: .utf8)
        let publishedURL = try #require(sources.split(separator: "\n").first { $0.hasPrefix("URIs: ") }?.dropFirst(6))
        // What the programs store: the host's record of each extension's start, a catalogue.
        let folder = DataFolder(path: service.folder)
        try folder.writeBrowserContacts(BrowserContacts(contacts: [
            .firefox: .init(at: now - 9000, browser: "firefox-esr"), .chromium: .init(at: now - 5400, browser: "chromium"),
        ]))
        let chapter = try Catalogue.Chapter(number: 1, name: "A Really Strange Tournament!", startPage: 1, endPage: 24, universe: nil, thumbnailURL: "")
        try folder.writeCatalogue(try Catalogue(language: .english, chapters: [chapter], latestPage: 24,
                                                fetch: .init(url: "http://127.0.0.1/en/chapters.html", etag: nil, lastModified: nil, fetchedAt: now - 5400)))

        // The notifier, whose tray item registers with the watcher (its entry starts the service).
        let notifier = try StreamingCommand(["sh", "-c", "exec \"$0\" notifier 2>&1", Binary.dbmultiverse], environment: home.environment(bus: bus))
        defer { notifier.stop() }
        _ = try await next(watcher.registrations, within: 15, "the notifier's tray item")

        let result = try home.doctor(bus: bus)
        #expect(result.status == 0, "\(result)")
        let lines = DoctorLine.parse(result.stdout)
        for line in lines { #expect(line.mark == "✓" && line.fix == nil, "\(line)") }
        #expect(lines["service"]?.detail.hasPrefix("answering (already running): Read Multiverse Reader; \(Binary.service) \(ProjectInfo.version)") == true,
                "\(result.stdout)")
        #expect(lines["notifier"]?.detail == "running (pid \(notifier.processIdentifier))", "\(result.stdout)")
        #expect(lines["notification server"]?.detail.hasPrefix("\(FakeNotificationServer.serverName) 1.0 (DBMultiverse tests, specification 1.2") == true)
        #expect(lines["tray host"]?.detail.hasSuffix("the notifier's item registered") == true, "\(result.stdout)")
        #expect(lines["sync timer"]?.detail.hasPrefix("enabled, last run 2 h ago (") == true && lines["sync timer"]?.detail.contains("next in 5 h (") == true,
                "\(result.stdout)")
        #expect(lines["catalogue"]?.detail == "en: 1 chapter, latest page 24, fetched 1 h ago", "\(result.stdout)")
        #expect(lines["updates"]?.detail == "from \(publishedURL), suite stable (\(home.aptSources)/dbmultiverse.sources): apt upgrade installs new versions",
                "\(result.stdout)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/firefox-esr") {
            #expect(lines["browser firefox-esr"]?.detail == "host manifest ~/.mozilla/native-messaging-hosts/com.nobadi.dbmultiverse.json ✓, the extension last talked to the host 2 h ago",
                    "\(result.stdout)")
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") {
            #expect(lines["browser chromium"]?.detail == "host manifest ~/.config/chromium/NativeMessagingHosts/com.nobadi.dbmultiverse.json ✓, the extension last talked to the host 1 h ago",
                    "\(result.stdout)")
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/gnome-shell") {
            #expect(lines["GNOME Shell extension"]?.detail == "installed in ~/.local/share/gnome-shell/extensions/dbmultiverse@nobadi.com, turned on")
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/plasmashell") {
            // The home's stand-in widget asks for no Plasma 6 API: a Plasma 5 build, as Debian 12's Plasma.
            #expect(lines["Plasma widget"]?.detail == "installed in ~/.local/share/plasma/plasmoids/com.nobadi.dbmultiverse (the build for Plasma 5), added to the desktop or a panel")
        }
        #expect(home.toolCalls.contains("systemctl --user show --no-pager"), "\(home.toolCalls)")
        #expect(result.stdout.hasSuffix("The essentials work (the service answers, the data folder is usable).\n"))

        // The same for scripts.
        let json = try home.doctor("--format", "json", bus: bus)
        #expect(json.status == 0, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
        #expect(object["ok"] as? Bool == true)
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.map { $0["name"] as? String } == lines.map(\.name))
        for check in checks { #expect(check["status"] as? String == "ok" && check["fix"] is NSNull, "\(check)") }
    }

    /// Peers that own their names but never answer (the notification server, the tray watcher, a
    /// service) cost the doctor its overall deadline (5 s), not a timeout each (3 s, 3 s, 3 s).
    @Test func aPeerThatNeverAnswersDoesNotHangIt() throws {
        try inABareHome { bus, home in
            // Owns the names, and its loop never runs: calls to it are never read.
            let silent = try BusHost(address: bus.address)
            for name: BusName in ["org.freedesktop.Notifications", "org.kde.StatusNotifierWatcher", "com.nobadi.DBMultiverse"] {
                try silent.own(name)
            }
            defer { _ = silent.stop() }

            let started = Date()
            let result = try home.doctor(bus: bus)
            let seconds = Date().timeIntervalSince(started)
            #expect(result.status == 1 && !result.timedOut, "\(result)")
            let line = try #require(DoctorLine.parse(result.stdout)["notification server"], "\(result.stdout)")
            #expect(line.mark == "✗" && line.detail.contains("did not answer GetServerInformation within "), "\(line)")
            // Three waits of 3 s each took 9 s and more; bounded by the 5 s, the rest is the process and its commands.
            #expect(seconds < 8.9, "the doctor took \(seconds) s")
        }
    }
}
