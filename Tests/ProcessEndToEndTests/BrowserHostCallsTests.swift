import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import SiteTestSupport
import Testing
import TestingTraits

/// What one page read in the browser costs on the bus: the native messaging host hands the service
/// what it read in one call, and the service alone decides whether it is another chapter — asking
/// the host for that chapter's cover on the call's channel, not by another call. Counted by
/// dbus-monitor on the private bus the real service is activated on.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct BrowserHostCallsTests {
    @Test func aNewChaptersPageIsOneCallFromTheHostToTheService() throws {
        let session = try BrowserSession()
        defer { session.stop() }
        // The service running (activated) before the count starts, and its unique name.
        #expect(try session.service.cli("entry").status == 0)
        let owner = try session.service.tool("dbus-send", "--print-reply=literal", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                             "org.freedesktop.DBus.GetNameOwner", "string:com.nobadi.DBMultiverse")
        let unique = owner.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(owner.status == 0 && unique.hasPrefix(":"), "\(owner)")
        let monitor = try StreamingCommand(["dbus-monitor", "--address", session.bus.address,
                                            "type='method_call'", "type='signal',member='TimelinesReloaded'"])
        defer { monitor.stop() }
        try monitor.waitForLine(timeout: 10, "dbus-monitor's start") { $0.contains("NameAcquired") }
        let start = monitor.output.count

        let host = try HostProcess(arguments: HostProcess.chromiumArguments, environment: session.environment)
        try host.write(BrowserHostProcessTests.frame(#"{"type":"page","url":"\#(session.site.origin)/en/page-130.html"}"#))
        let reply = String(decoding: try host.reply(), as: UTF8.self)
        #expect(reply.hasPrefix(#"{"ok":true"#), "\(reply)")
        host.closeInput()
        let result = try host.waitForExit(timeout: 10)
        #expect(result.status == 0, "\(result)")
        // The chapter change is published once the cover is in: the count covers the whole read.
        try monitor.waitForLine(from: start, timeout: 30, "the chapter change") { $0.contains("member=TimelinesReloaded") }

        let calls = monitor.output[start...].filter {
            $0.hasPrefix("method call") && ($0.contains("destination=com.nobadi.DBMultiverse ") || $0.contains("destination=\(unique) "))
        }
        #expect(calls.count == 1, "\(calls.joined(separator: "\n"))")
        #expect(calls.first?.contains("member=UpdatePage") == true, "\(calls)")
        // The chapter came with its cover (asked of the host on the call's channel).
        let entry = try session.service.cli("entry", "--format", "json")
        #expect(entry.stdout.contains(#""chapter":5,"#) && entry.stdout.contains(#""image-path":"\#(session.dataFolder)/"#), "\(entry)")
    }
}
