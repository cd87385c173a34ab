import DBusTestSupport
import Foundation
import Testing
import TestingTraits

/// The Plasma widget's card and panel rendering under qmltestrunner, offscreen, for both builds:
/// `scripts/plasmoid-qml-tests.sh` (Qt 5 for Plasma 5, Qt 6 for Plasma 6; each build's QML must also
/// parse with its Qt's qmllint).
@Suite(.timeLimit(.minutes(3)), .offThePool) struct PlasmoidQMLTests {
    static let script = repositoryRoot.appendingPathComponent("scripts/plasmoid-qml-tests.sh").path
    /// The test functions of the QML test file: each build must run them all and pass them all.
    static let testFunctions: Int = {
        let file = repositoryRoot.appendingPathComponent("desktop/plasma/tests/tst_card.qml").path
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return text.components(separatedBy: "function test_").count - 1
    }()

    @Test func bothBuildsPassTheCardTests() throws {
        #expect(Self.testFunctions >= 10, "the card's tests were found")
        let run = try runCommand([Self.script], environment: testEnvironment(), timeout: 150)
        print("plasmoid-qml-tests.sh exited \(run.status)\n\(run.stdout)\(run.stderr)")
        #expect(run.status == 0, "\(run)")
        // qmltestrunner counts initTestCase and cleanupTestCase too.
        let totals = "Totals: \(Self.testFunctions + 2) passed, 0 failed, 0 skipped"
        #expect(run.stdout.components(separatedBy: totals).count - 1 == 2, "both builds: \(totals)\n\(run.stdout)")
        #expect(run.stdout.contains("Using QtTest library 5.15"), "the Plasma 5 build under Qt 5")
        #expect(run.stdout.contains("Using QtTest library 6."), "the Plasma 6 build under Qt 6")
        #expect(!run.stdout.contains("FAIL"), "\(run.stdout)")
    }
}
