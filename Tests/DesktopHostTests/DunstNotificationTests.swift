import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Testing
import TestingTraits

/// The notifications in a real notification server: `scripts/real-hosts/real-notification-daemon.sh` with the
/// built binary — Debian's dunst under Xvfb, the service and the notifier on a private bus. It
/// checks that dunst displays the chapter notification and the announcement of new pages (and takes
/// a screenshot of each, the README's pictures), that a progress change notifies nothing, that the
/// next chapter replaces the standing notification and that a click on it opens the chapter; then
/// it reads back from dunst what it displayed. The screenshots stay in a folder the test prints, for
/// a person to look at.
///
/// Off the cooperative pool: the script blocks for a few seconds.
@Suite(.timeLimit(.minutes(10)), .holds(.desktopSession), .offThePool) struct DunstNotificationTests {
    /// Why dunst can't be run here, or nil when it can.
    static let unavailable = hostUnavailable(
        tools: ["dunst", "dunstctl", "Xvfb", "import", "convert", "dbus-daemon", "dbus-monitor", "gdbus"],
        needs: "the notifications' server needs dunst, xvfb, imagemagick, dbus-bin, libglib2.0-bin")

    @Test(.enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func dunstShowsTheChapterAndTheNewPagesAndAClickOpensTheChapter() async throws {
        let (run, shots) = try await runHostCheck("real-notification-daemon.sh", name: "notify", shotsUse: [],
                                            session: ("NOTIFY_CHECK_FOLDER", [.sockets]), timeout: 90)
        #expect(run.status == 0, "\(run)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        // What dunst displayed, newest first, as its history has it: the cover as the image (in the
        // data folder, whose name has a space), the progress as its bar, the action behind a click.
        let history = lines.drop { $0 != "--- dunstctl history (what dunst displayed, read back from dunst, newest first)" }.dropFirst()
            .prefix { !$0.hasPrefix("---") }
        // The reader of scripts/lib/demo-story.sh (its name has an `&`, escaped in the body: dunst takes markup).
        let (chapter, progress) = (DemoStory.chapter, DemoStory.progress)
        let title = "Chapter \(chapter): \(DemoStory.name)"
        let shown = try #require(history.first { $0.contains("\"summary\": \"Chapter \(chapter):") }, "\(run.stdout)")
        #expect(shown.hasPrefix("{\"summary\": \"\(title)\", \"body\": \"\(progress)% read\", \"icon_path\": \""), "\(shown)")
        #expect(shown.hasSuffix("data dir/chapterCoverImage.jpg\", \"progress\": \(progress), \"category\": \"x-dbmultiverse.chapter.changed\", \"default_action_name\": \"default\"}"), "\(shown)")
        let body = "After " + title.replacingOccurrences(of: "&", with: "&amp;")
        #expect(history.contains { $0.hasPrefix("{\"summary\": \"\(DemoStory.newPages) new pages\", \"body\": \"\(body)\", \"icon_path\": \"")
            && $0.hasSuffix(#""category": "x-dbmultiverse.pages.published", "default_action_name": "default"}"#) }, "\(history)")
        #expect(history.first?.hasPrefix(#"{"summary": "Chapter 44: Nothing to <escape> & all", "body": "100% read""#) == true, "\(history)")
        #expect(history.count == 3, "chapter 43's notification was replaced, not kept: \(history)")
        #expect(lines.contains("chapter 43, then 44: 1 notification displayed"))
        #expect(lines.contains(#"click →  int32 44  string "dbmultiverse://chapter/44" "#), "\(run.stdout)")
        try expectScreenshots(["chapter.png", "new-pages.png"], in: shots, largerThan: 10000)
    }
}
