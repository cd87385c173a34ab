import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Testing
import TestingTraits

/// The tray item in a real host: `scripts/real-hosts/tray-host-check.sh` with the built binary, installed
/// into a temporary prefix — Waybar's tray (Debian's waybar, which runs the watcher itself) under
/// headless sway, run as `nobody` when the tests run as root (sway refuses root), with the README's
/// `custom/dbmultiverse` module beside it. It checks that Waybar's watcher lists the item and that
/// the module shows the entry, screenshots the bar and the opened menu with grim, clicks
/// "Continue reading" and the icon, sees the service open the chapter, and restarts Waybar to see
/// the item register with the new watcher. The screenshots stay in a folder the test prints, for a
/// person to look at.
///
/// Off the cooperative pool: the script blocks for ~10 s, and on two cores a blocked pool thread
/// delays other suites' tasks (a CI run saw CallLifecycleTests' 200 ms call timeout end after 15 s).
@Suite(.timeLimit(.minutes(10)), .holds(.desktopSession), .offThePool) struct TrayHostTests {
    /// Why the host can't be run here, or nil when it can. Waybar's module is read as a screen reader
    /// reads it (AT-SPI).
    static let unavailable = hostUnavailable(
        tools: ["sway", "waybar", "grim", "swaymsg", "cc", "dbus-monitor", "gdbus", "busctl", "convert"],
        files: ["/usr/lib/python3/dist-packages/pyatspi", "/usr/libexec/at-spi-bus-launcher"],
        needs: "the real tray host needs sway, waybar, grim, dbus-bin, libglib2.0-bin, a C compiler, imagemagick, python3-pyatspi, at-spi2-core",
        asNobody: "sway")

    @Test(.enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func waybarShowsTheItemAndItsMenuOpensAChapter() async throws {
        // The session installs and runs the binary from its folder, as another user, with sockets in it.
        let (run, shots) = try await runHostCheck("tray-host-check.sh", name: "tray", shotsUse: [.otherUsers],
                                            session: ("TRAY_CHECK_FOLDER", [.programs, .otherUsers, .sockets]), timeout: 150)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("RegisteredStatusNotifierItems: as 1 \"org.kde.StatusNotifierItem-"), "\(run.stdout)")
        // The README's custom module beside the tray, as AT-SPI reads Waybar's label: the reader of
        // scripts/lib/demo-story.sh.
        #expect(run.stdout.contains("Waybar's module: label: 📖 \(DemoStory.small)\n"), "\(run.stdout)")
        let chapter = DemoStory.chapter
        #expect(run.stdout.contains("Continue reading →  int32 \(chapter)  string \"dbmultiverse://chapter/\(chapter)\""), "\(run.stdout)")
        #expect(run.stdout.contains("Waybar restarted: watcher :"), "\(run.stdout)")
        try expectScreenshots(["bar.png", "menu.png", "bar-after-restart.png"], in: shots, largerThan: 1000)
    }
}
