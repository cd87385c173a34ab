package import DBusTestSupport
import Foundation
import Synchronization
package import Testing

/// The looks the cards are checked in on every desktop (scripts/real-hosts/gnome-shell-looks.sh,
/// plasma-card-looks.sh): each look is set, then the card measured (inside its background, its
/// cover at device pixels, no text clipped, a right-to-left name aligned right, the colours of the
/// desktop's own calendar beside it), and the check prints `look: NAME: ok (what it measured)`.
package enum CardLook: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case standard = "default"
    case otherColourScheme = "the other colour scheme"
    case accentColour = "an accent colour"
    case scale2AtStart = "scale 2 at start"
    case scale1To2 = "scale 1 → 2"
    case textScaled = "text scaled 1.5"
    case longName = "a 120-character name"
    case arabicName = "an Arabic name"

    package var testDescription: String { rawValue }

    /// Expects the look's line in what a looks check printed; and the check to have passed, unless
    /// another look is what failed (that look's case says so).
    package func expect(in run: CommandResult, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let measured = { (look: CardLook) in lines.contains { $0.hasPrefix("look: \(look.rawValue): ok (") } }
        let failure = lines.first { $0.hasPrefix("FAIL: ") } ?? "exited \(run.status)"
        #expect(measured(self), "\(rawValue): \(failure)\n\(run.stdout)\(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.status == 0 || !Self.allCases.allSatisfy(measured), "every look measured, then: \(failure)\n\(run)",
                sourceLocation: sourceLocation)
    }
}

/// One looks session per desktop, shared by its looks (each a test case): the first case runs it,
/// the others read what it printed — one shell or viewer session for all the looks of a desktop.
package final class LooksSessions: Sendable {
    private let runs = Mutex<[String: Result<CommandResult, SessionFailed>]>([:])

    package init() {}

    package struct SessionFailed: Error, CustomStringConvertible {
        package let description: String
    }

    /// The session named `key`, run by `make` the first time it is asked for.
    package func run(_ key: String, _ make: () async throws -> CommandResult) async throws -> CommandResult {
        if let known = runs.withLock({ $0[key] }) { return try known.get() }
        let result: Result<CommandResult, SessionFailed>
        do { result = .success(try await make()) } catch { result = .failure(SessionFailed(description: "\(key): \(error)")) }
        runs.withLock { $0[key] = result }
        return try result.get()
    }
}
