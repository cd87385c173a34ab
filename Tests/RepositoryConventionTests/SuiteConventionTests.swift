import DesktopTestSupport
import Foundation
import Testing

/// What every test suite of the package keeps to, checked in the sources of all test targets
/// (Swift Testing does not show a test the other suites and their traits).
@Suite(.timeLimit(.minutes(1))) struct SuiteConventionTests {
    /// Every suite has a time limit, so that a hung test fails instead of stalling the run; a file
    /// with tests declares its suite, which is where the limit goes. A suite whose tests wait for a
    /// shared place — a private-bus or desktop place (`.holds`), a thread off the pool
    /// (`.offThePool`) — has at least 10 minutes: the wait counts against the limit. Every test
    /// starts at once and queues for the places; on a fresh machine, with the release chroots, the
    /// packages and their QA building beside the run, the queue for the 16 bus places took over
    /// 3 minutes to drain (run on 2 cores: 130 tests out of time at 3 minutes, 10 at 2, 13 at 1).
    @Test func everySuiteHasATimeLimit() throws {
        // Spelled in two parts so that this file's own text is not taken for an attribute.
        let suiteAttribute = "@" + "Suite", testAttribute = "@" + "Test"
        let tests = repositoryRoot.appendingPathComponent("Tests")
        let files = try FileManager.default.subpathsOfDirectory(atPath: tests.path).filter { $0.hasSuffix(".swift") }
        var suites = 0
        var problems: [String] = []
        for file in files.sorted() {
            let lines = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.drop { $0 == " " } }
            let attributes = lines.indices.filter { lines[$0].hasPrefix(suiteAttribute) }
            if attributes.isEmpty, lines.contains(where: { $0.hasPrefix(testAttribute) }) {
                problems.append("\(file): tests without a \(suiteAttribute) declaration")
            }
            for start in attributes {
                // The attribute runs to its type's declaration, possibly over several lines.
                let end = lines[start...].firstIndex { $0.contains("struct ") || $0.contains("class ") || $0.contains("enum ") }
                let attribute = lines[start...(end ?? start)].joined(separator: " ")
                if !attribute.contains(".timeLimit(") { problems.append("\(file):\(start + 1): no .timeLimit in \(attribute)") }
                let minutes = attribute.firstMatch(of: /\.timeLimit\(\.minutes\((\d+)\)\)/).flatMap { Int($0.1) }
                if let minutes, minutes < 10, attribute.contains(".holds(") || attribute.contains(".offThePool") {
                    problems.append("\(file):\(start + 1): waits for a shared place with \(minutes) minutes for the wait and the tests: \(attribute)")
                }
            }
            suites += attributes.count
        }
        #expect(suites >= 30, "found only \(suites) suites under \(tests.path)")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
