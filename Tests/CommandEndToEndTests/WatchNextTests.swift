import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
import Widget
import Foundation
import Testing
import TestingTraits

/// `dbmultiverse watch --format json --next [--after TOKEN]` (docs/gnome-shell.md, docs/plasma.md), the long-poll the Plasma
/// widget runs: the built binary against an activatable service on a private bus.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct WatchNextTests {
    /// One answer: the entry's keys plus `token`.
    struct Answer {
        let object: [String: Any]
        var token: String { object["token"] as? String ?? "" }
        var chapter: Int? { object["chapter"] as? Int }
        var isPlaceholder: Bool? { object["is-placeholder"] as? Bool }
    }

    func answer(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Answer {
        #expect(text.hasSuffix("\n") && text.dropLast().split(separator: "\n").count == 1, "one line: \(text)", sourceLocation: sourceLocation)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)",
                                  sourceLocation: sourceLocation)
        return Answer(object: object)
    }

    /// Runs `watch --format json --next [--after after]` to its answer.
    func next(_ service: ActivatedService, after: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> Answer {
        let run = try runCommand([Binary.dbmultiverse, "watch", "--format", "json", "--next"] + (after.map { ["--after", $0] } ?? []),
                                 environment: service.environment, timeout: 15)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)", sourceLocation: sourceLocation)
        return try answer(run.stdout, sourceLocation: sourceLocation)
    }

    /// Starts a `--next --after after` that is to wait.
    func waiting(_ service: ActivatedService, after: String) throws -> StreamingCommand {
        try StreamingCommand([Binary.dbmultiverse, "watch", "--format", "json", "--next", "--after", after], environment: service.environment)
    }

    /// Its one answer, and its exit.
    func answer(of command: StreamingCommand, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Answer {
        let (_, line) = try command.waitForLine(timeout: 15, what) { _ in true }
        // Signal 0 sends nothing: this waits for the command to exit on its own, with status 0.
        #expect(try command.terminate(0, timeout: 10) == 0, "exited on its own after its answer", sourceLocation: sourceLocation)
        return try answer(line + "\n", sourceLocation: sourceLocation)
    }

    /// A service with the reader on chapter 42, and the answer that shows it.
    func serviceShowingChapter42(sourceLocation: SourceLocation = #_sourceLocation) throws -> (ActivatedService, Answer) {
        let service = try ActivatedService()
        do {
            #expect(try service.cli("update", "--chapter", "42", "--name", "Vegeta", "--progress", "35").status == 0, sourceLocation: sourceLocation)
            return (service, try next(service, sourceLocation: sourceLocation))
        } catch {
            service.stop()
            throw error
        }
    }

    @Test func answersAtOnceWithTheEntryAndItsToken() async throws {
        let service = try ActivatedService()
        defer { service.stop() }
        // No --after: the current entry at once (the service started by activation: the placeholder).
        let placeholder = try next(service)
        #expect(Set(placeholder.object.keys) == entryKeys.union(["token"]))
        #expect(placeholder.isPlaceholder == true)
        #expect(EntryView.isToken(placeholder.token), "\(placeholder.token)")

        #expect(try service.cli("update", "--chapter", "42", "--name", "Vegeta & <Goku>", "--progress", "35").status == 0)
        let chapter = try next(service, after: placeholder.token)
        #expect(chapter.chapter == 42)
        #expect(chapter.token != placeholder.token)
        // The keys and values of `entry --format json`, and the token.
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(try service.cli("entry", "--format", "json").stdout.utf8)) as? [String: Any])
        // Compared as JSON with sorted keys: a dictionary's description has no fixed order.
        func json(_ value: Any?) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: [value ?? NSNull()], options: [.sortedKeys]), as: UTF8.self)
        }
        for key in entryKeys where key != "date" {
            #expect(try json(chapter.object[key]) == (try json(entry[key])), "\(key)")
        }
        // The same entry has the same token, whenever asked.
        #expect(try next(service).token == chapter.token)
        #expect(try next(service, after: placeholder.token).token == chapter.token)
        // The widget's exact command line runs without the argument parser; any other spelling
        // goes through it, with the same answer.
        let reordered = try runCommand([Binary.dbmultiverse, "watch", "--next", "--after", placeholder.token, "--family", "medium", "--format", "json"],
                                       environment: service.environment)
        #expect(reordered.status == 0, "\(reordered)")
        #expect(try answer(reordered.stdout).token == chapter.token)
    }

    /// The answer waits for the reload that changes something: a reload of the same entry (only its
    /// date is new) and a progress step the rules hold back are no answer.
    @Test func waitsForTheReloadThatChangesTheEntry() async throws {
        let (service, shown) = try serviceShowingChapter42()
        defer { service.stop() }
        let waiter = try waiting(service, after: shown.token)
        defer { waiter.stop() }
        #expect(try service.cli("reload").status == 0)
        #expect(try service.cli("progress", "37").status == 0)
        #expect(try service.cli("update", "--chapter", "43", "--name", "Next", "--progress", "10").status == 0)
        let changed = try answer(of: waiter, "the answer after the chapter change")
        #expect(changed.chapter == 43, "the first answer is the change: \(changed.object)")
        #expect(waiter.output.count == 1, "\(waiter.output)")
    }

    /// A burst of updates, followed as the widget follows it (each answer's token passed to the
    /// next question), ends with the last one shown.
    @Test func aBurstEndsWithTheLastUpdateShown() async throws {
        let (service, chapter42) = try serviceShowingChapter42()
        defer { service.stop() }
        var shown = chapter42
        let waiter = try waiting(service, after: shown.token)
        defer { waiter.stop() }
        for chapter in 43...47 {
            #expect(try service.cli("update", "--chapter", "\(chapter)", "--name", "Chapter \(chapter)", "--progress", "0").status == 0)
        }
        shown = try answer(of: waiter, "the first answer of the burst")
        var answers = [shown.chapter]
        while shown.chapter != 47, answers.count < 6 {
            shown = try next(service, after: shown.token)
            answers.append(shown.chapter)
        }
        #expect(answers.last == 47, "\(answers)")
        // And the question after the last answer waits again, for the next change.
        let last = try waiting(service, after: shown.token)
        defer { last.stop() }
        #expect(try service.cli("update", "--chapter", "48", "--name", "After", "--progress", "0").status == 0)
        #expect(try answer(of: last, "the change after the burst").chapter == 48)
    }

    /// Issue 30, defect 6: a question that was waiting when the service was killed printed the
    /// placeholder with exit 0, and the next question (after the placeholder's token) never started
    /// the service again. The service is bus-activatable: it is started again, the stored entry
    /// has the same token, so the question goes on waiting, for a real change.
    @Test func aKilledServiceIsStartedAgainAndItsEntryKept() async throws {
        let (service, chapter) = try serviceShowingChapter42()
        defer { service.stop() }
        let waiter = try waiting(service, after: chapter.token)
        defer { waiter.stop() }
        let client = try await BusClient.connect(.address(service.bus.address))
        let owners = try await service.ownerChanges(client)
        kill(try service.servicePID(), SIGKILL)
        let (_, _, gone) = try await DBusTestSupport.next(owners, "the killed service to lose its name").decode(String.self, String.self, String.self)
        #expect(gone.isEmpty)
        let (_, _, back) = try await DBusTestSupport.next(owners, "the service started again by the question")
            .decode(String.self, String.self, String.self)
        #expect(!back.isEmpty)
        #expect(waiter.output.isEmpty && waiter.terminationStatus == nil, "still waiting: \(waiter.output)")
        #expect(try service.cli("update", "--chapter", "43", "--name", "Next", "--progress", "10").status == 0)
        #expect(try answer(of: waiter, "the change after the restart").chapter == 43)

        // Asked with the placeholder's token while no service runs: it is started, with the stored entry.
        kill(try service.servicePID(), SIGKILL)
        _ = try await DBusTestSupport.next(owners, "the service to lose its name again")
        let placeholder = EntryView.placeholder(family: .medium, date: 0).token
        let returned = try next(service, after: placeholder)
        #expect(returned.chapter == 43 && returned.isPlaceholder == false)
    }

    /// Issue 30, defect 6: a frozen service (SIGSTOP) answered as the placeholder, exit 0, after
    /// 25 s. It is an error now: exit 1, nothing on stdout, the message naming the service and the bus.
    @Test func aFrozenServiceIsAnErrorNotAPlaceholder() async throws {
        let (service, _) = try serviceShowingChapter42()
        defer { service.stop() }
        let pid = try service.servicePID()
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        let started = Date()
        let run = try runCommand([Binary.dbmultiverse, "watch", "--format", "json", "--next"], environment: service.environment, timeout: 30)
        let seconds = Date().timeIntervalSince(started)
        #expect(run.status == 1 && !run.timedOut && run.stdout.isEmpty, "\(run)")
        let bus = String(service.bus.address.split(separator: ",").first ?? "")
        #expect(run.stderr.contains("com.nobadi.DBMultiverse did not answer Get within 10 s on the bus at \(bus)"), "\(run.stderr)")
        #expect(seconds < 20, "took \(seconds) s")
    }

    /// The same for the status bars' `watch`: a frozen service printed the error and then the
    /// placeholder line. Now the error only; the watch goes on, and the entry shows once the
    /// service answers again (its next reload).
    @Test func aFrozenServiceShowsNoPlaceholderInTheStatusBar() async throws {
        let (service, _) = try serviceShowingChapter42()
        defer { service.stop() }
        let pid = try service.servicePID()
        kill(pid, SIGSTOP)
        var frozen = true
        defer { if frozen { kill(pid, SIGCONT) } }
        let watch = try StreamingCommand([Binary.dbmultiverse, "watch", "--format", "text"], environment: service.environment)
        defer { watch.stop() }
        let bus = String(service.bus.address.split(separator: ",").first ?? "")
        try watch.waitForError(timeout: 20, "error naming the frozen service and the bus") {
            $0.contains("com.nobadi.DBMultiverse did not answer GetSnapshot within 10 s on the bus at \(bus)")
        }
        #expect(watch.output.isEmpty, "no placeholder: \(watch.output)")
        kill(pid, SIGCONT)
        frozen = false
        #expect(try service.cli("update", "--chapter", "43", "--name", "Next", "--progress", "10").status == 0)
        let (_, line) = try watch.waitForLine(timeout: 15, "the entry once the service answers") { _ in true }
        #expect(line.contains("43"), "\(line)")
    }

    @Test func badArgumentsExitTwoWithAMessage() async throws {
        let service = try ActivatedService()
        defer { service.stop() }
        let cases: [([String], String)] = [
            (["watch", "--next"], "--format json"),
            (["watch", "--next", "--format", "text"], "--format json"),
            (["watch", "--next", "--format", "waybar"], "--format json"),
            (["watch", "--format", "json", "--after", "0123456789abcdef"], "--after goes with --next"),
            (["watch", "--format", "json", "--next", "--after", "xyz"], "malformed token 'xyz'"),
            (["watch", "--format", "json", "--next", "--after", "0123456789ABCDEF"], "malformed token"),
            (["watch", "--format", "json", "--next", "--after", "0123456789abcdef0"], "malformed token"),
            (["watch", "--format", "json", "--next", "--after", ""], "malformed token"),
            (["watch", "--format", "json", "--next", "--after"], "--after"),
        ]
        for (arguments, message) in cases {
            let run = try runCommand([Binary.dbmultiverse] + arguments, environment: service.environment)
            #expect(run.status == 2 && run.stdout.isEmpty, "\(arguments): \(run)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        // Nothing was asked of the bus: no service was started.
        #expect(try service.tool("busctl", "--address=\(service.bus.address)", "status", "com.nobadi.DBMultiverse").status != 0)
    }
}
