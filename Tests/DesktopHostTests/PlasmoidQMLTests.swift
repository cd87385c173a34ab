import DBusTestSupport
import DesktopTestSupport
import WidgetTestSupport
import Foundation
import Testing
import TestingTraits

/// The Plasma widget's card and panel rendering under qmltestrunner, offscreen, in every state of
/// ViewState's table, for both builds:
/// `scripts/test/plasmoid-qml-tests.sh` (Qt 5 for Plasma 5, Qt 6 for Plasma 6; each build's QML must also
/// parse with its Qt's qmllint).
@Suite(.timeLimit(.minutes(10)), .offThePool) struct PlasmoidQMLTests {
    static let script = repositoryRoot.appendingPathComponent("scripts/test/plasmoid-qml-tests.sh").path
    /// The test functions of the QML test file: each build must run them all and pass them all.
    static let testFunctions: Int = {
        let file = repositoryRoot.appendingPathComponent("desktop/plasma/tests/tst_card.qml").path
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return text.components(separatedBy: "function test_").count - 1 - (text.components(separatedBy: "_data()").count - 1)
    }()

    /// The Plasma 5 build runs here; the Plasma 6 build is linted here and runs where Plasma 6's QML
    /// modules are (a Debian 13 chroot): its card imports PlasmaComponents3 and Kirigami.
    @Test func bothBuildsPassTheCardTests() throws {
        #expect(Self.testFunctions >= 6, "the card's tests were found")
        let folder = try makeTemporaryDirectory("dbm-card-states")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try ViewState.statesScript().write(toFile: folder + "/states.js", atomically: true, encoding: .utf8)
        var environment = testEnvironment()
        environment["STATES"] = folder + "/states.js"
        let run = try runCommand([Self.script], environment: environment, timeout: 150)
        print("plasmoid-qml-tests.sh exited \(run.status)\n\(run.stdout)\(run.stderr)")
        #expect(run.status == 0, "\(run)")
        // qmltestrunner counts initTestCase and cleanupTestCase too, and each state of the table.
        let totals = "Totals: \(Self.testFunctions + 2 + ViewState.all.count - 1) passed, 0 failed, 0 skipped"
        let plasma6Here = FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/qt6/qml/org/kde/plasma/components")
        #expect(run.stdout.components(separatedBy: totals).count - 1 == (plasma6Here ? 2 : 1), "\(totals)\n\(run.stdout)")
        #expect(run.stdout.contains("Using QtTest library 5.15"), "the Plasma 5 build under Qt 5")
        #expect(run.stdout.contains(plasma6Here ? "Using QtTest library 6." : "== Plasma 6: no qmltestrunner run here"), "\(run.stdout)")
        for state in ViewState.all {
            #expect(run.stdout.contains("PASS   : qmltestrunner::Card::test_eachStateShowsExactlyItsView(\(state.name))"), "\(state.name)")
        }
        #expect(!run.stdout.contains("FAIL"), "\(run.stdout)")
    }
}
