import DBusTestSupport
import Foundation
import Testing
import TestingTraits

/// The card in a real GNOME Shell: `scripts/gnome-shell-check.sh` with the built binary — Debian's
/// gnome-shell 43 headless, private buses, run as `nobody` when the tests run as root, the extension
/// and the service installed by `make install` into a temporary prefix. Through AT-SPI it reads the
/// top bar and the card, clicks each button with mutter's remote-desktop pointer and sees the service
/// open the chapter (OpenRequested, and the browser it starts, here a recorder, with the activation
/// token), measures each change from its PropertiesChanged to the AT-SPI event, stops the service
/// (the placeholder) and starts it again with Start reading, disables and enables the extension. The screenshots stay in a folder the test
/// prints, for a person to look at.
///
/// One desktop session at a time (its timings hold only then), holding a place of private buses
/// for its own (a system bus, a session bus and the accessibility bus); off the cooperative pool:
/// the script blocks for ~40 s.
@Suite(.timeLimit(.minutes(3)), .holds(.desktopSession), .holds(.privateBuses, .wholeSuite), .offThePool) struct GnomeShellCardTests {
    static let script = repositoryRoot.appendingPathComponent("scripts/gnome-shell-check.sh").path

    /// Why the shell can't be run here, or nil when it can.
    static let unavailable: String? = {
        let tools = ["gnome-shell", "gnome-extensions", "gsettings", "gjs", "dbus-run-session", "dbus-daemon"]
            + (getuid() == 0 ? ["setpriv"] : [])
        for tool in tools where !isOnPath(tool) {
            return "\(tool) is not installed (the card's shell needs gnome-shell, gjs, dbus-daemon)"
        }
        if !FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/pyatspi") {
            return "python3-pyatspi is not installed"
        }
        if getuid() == 0, getpwnam("nobody") == nil { return "no user nobody to run the shell as" }
        return FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse) ? nil : "dbmultiverse is not built"
    }()

    @Test(.enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func theTopBarAndTheCardFollowTheServiceAndOpenChapters() throws {
        let shots = try makeTemporaryDirectory("dbm-gnome-shots", for: [.otherUsers])
        let sessionFolder = try makeTemporaryDirectory("dbm-gnome-check", for: [.programs, .otherUsers, .sockets])
        defer { try? FileManager.default.removeItem(atPath: sessionFolder) }
        var environment = testEnvironment()
        environment["SCREENSHOT_DIR"] = shots
        environment["CARD_CHECK_FOLDER"] = sessionFolder
        let run = try runCommand([Self.script, Binary.dbmultiverse], environment: environment, timeout: 150)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        print("gnome-shell-check.sh exited \(run.status); screenshots in \(shots)\n" + lines.filter { !$0.contains("GNOME Shell-") }.joined(separator: "\n"))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(lines.contains("top bar: \"Read Multiverse Reader\" (dbmultiverse entry --family small: \"Read Multiverse Reader\")"))
        #expect(lines.contains("placeholder card: label \"Read Multiverse Reader — start with Chapter 1\" | button \"Start reading\""))
        #expect(lines.contains("Start reading -> OpenRequested(1, 'dbmultiverse://chapter/1')"))
        // The reader of scripts/demo-story.sh: chapter 42, 35% read, 3 new pages.
        let (chapter, progress) = (DemoStory.chapter, DemoStory.progress)
        #expect(lines.contains("card: label \"Chapter \(chapter)\" | label \"\(DemoStory.name)\" | level bar \"\(progress)% read (\(String(format: "%.2f", Double(progress) / 100)))\""
                               + " | label \"\(progress)% read\" | label \"\(DemoStory.newPages) new pages\" | button \"Continue reading\""
                               + " | button \"Next chapter\" | button \"Read new pages\" | button \"Chapter list\""), "\(run.stdout)")
        #expect(lines.contains("Continue reading -> OpenRequested(\(chapter), 'dbmultiverse://chapter/\(chapter)')"))
        #expect(lines.contains("Read new pages -> OpenRequested(\(chapter), 'dbmultiverse://page/\(DemoStory.page + 1)')"))
        #expect(lines.contains { $0.hasPrefix("Chapter list -> browser: url=https://www.dragonball-multiverse.com/en/chapters.html") })
        // The timings, from the signal to what AT-SPI reads (the script fails past 1 s).
        for change in ["chapter change: \"Ch. \(chapter) · \(progress - 5)%\" shown ", "progress change: \"\(DemoStory.small)\" shown "] {
            let line = try #require(lines.first { $0.hasPrefix(change) }, "\(change)")
            let milliseconds = Int(line.dropFirst(change.count).prefix { $0.isNumber }) ?? .max
            #expect(milliseconds <= 1000, "\(line)")
        }
        #expect(lines.contains("card with no service: label \"Read Multiverse Reader — start with Chapter 1\" | button \"Start reading\""))
        #expect(lines.contains("service back: top bar \"\(DemoStory.small)\""))
        #expect(lines.contains("disable -> enable: top bar \"\(DemoStory.small)\""))
        #expect(lines.contains("the shell logged nothing about the extension"))
        #expect(lines.last == "screenshots: \(shots)" && lines.contains("PASS"))
        for shot in ["placeholder.png", "panel.png", "card.png", "panel-no-service.png"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: shots + "/" + shot)
            #expect((attributes[.size] as? Int ?? 0) > 1000, "\(shot) is missing or empty")
        }
    }
}
