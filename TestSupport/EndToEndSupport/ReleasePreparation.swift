import DBusTestSupport
import DesktopTestSupport
import Foundation
package import Testing

/// What the release suites run on that takes `make test` minutes to tens of minutes to prepare: the
/// package built on this machine and one version on (scripts/packaging/test-package.sh), the packages
/// built in sid and trixie (scripts/packaging/chroot-package.sh), the releases' chroots
/// (scripts/real-hosts/release-chroot.sh), the QA's verdicts on the package (scripts/packaging/package-qa.sh). Under `make test` (scripts/test/run-tests.sh sets
/// `MAKE_TEST`) every release suite runs, and prepares what it needs; in a plain `swift test` a
/// release suite runs only when what it needs is prepared for the tree as it is, and is otherwise
/// left to `make test`, which the run says in one line.
package enum ReleasePreparation {
    /// A piece one of the release suites needs, named as its script names it.
    enum Piece: String, CaseIterable, Sendable {
        case bookworm, trixie, sid, sidBuild = "sid-build", trixieBuild = "trixie-build"
        case package = "the package", nextPackage = "the package one version on"
        case sidPackage = "the package built in sid", trixiePackage = "the package built in trixie"
        case qaVerdicts = "the QA's verdicts on the package"

        static let chroots: [Piece] = [.bookworm, .trixie, .sid, .sidBuild, .trixieBuild]
    }

    /// What a release suite does, with the pieces it needs.
    package enum Work: String, CaseIterable, Sendable {
        case desktops = "the cards on other releases"
        case plasma6 = "Plasma 6 in the trixie chroot"
        case packageQA = "Debian's QA of the package"
        case repository = "the apt repository"
        case builds = "the trixie and sid builds"

        var needs: [Piece] {
            switch self {
            case .desktops: [.package, .sidPackage, .trixiePackage, .bookworm, .trixie, .sid]
            case .plasma6: [.trixie]
            case .packageQA: [.package, .qaVerdicts, .bookworm, .trixie, .sid]
            case .repository: [.package, .nextPackage, .bookworm, .trixie, .sid]
            case .builds: [.sidPackage, .trixiePackage, .sidBuild, .trixieBuild, .sid, .trixie]
            }
        }
    }

    /// Whether this is `make test`'s run (scripts/test/run-tests.sh).
    static let underMakeTest = ProcessInfo.processInfo.environment["MAKE_TEST"] == "1"

    /// The pieces prepared for the tree as it is, asked once per run (a few seconds: each script
    /// hashes the tracked files as it does before a build; nothing is built or waited for). The
    /// work left for want of the others is said once, on one line.
    static let prepared: Set<Piece> = {
        var prepared = Set<Piece>()
        let script = { (path: String) in repositoryRoot.appendingPathComponent(path).path }
        let checks: [(Piece, [String])] = [
            (.package, [script("scripts/packaging/test-package.sh"), "--ready"]),
            (.nextPackage, [script("scripts/packaging/test-package.sh"), "--next", "--ready"]),
            (.sidPackage, [script("scripts/packaging/chroot-package.sh"), "sid", "--ready"]),
            (.trixiePackage, [script("scripts/packaging/chroot-package.sh"), "trixie", "--ready"]),
            (.qaVerdicts, [script("scripts/packaging/package-qa.sh"), "ready"]),
        ] + Piece.chroots.map { ($0, [script("scripts/real-hosts/release-chroot.sh"), "ready", $0.rawValue]) }
        for (piece, command) in checks where (try? runCommand(command, environment: testEnvironment(), timeout: 60))?.status == 0 {
            prepared.insert(piece)
        }
        let left = Work.allCases.filter { !$0.needs.allSatisfy(prepared.contains) }
        if !left.isEmpty {
            let missing = Piece.allCases.filter { !prepared.contains($0) }.map(\.rawValue)
            print("left to make test: \(left.map(\.rawValue).joined(separator: ", ")) (not prepared for this tree: "
                  + "\(missing.joined(separator: ", ")); make test prepares them)")
        }
        return prepared
    }()

    static func isReady(_ work: Work) -> Bool { underMakeTest || work.needs.allSatisfy(prepared.contains) }
}

extension Trait where Self == ConditionTrait {
    /// Runs under `make test`, or where what `work` needs is prepared for the tree as it is (a
    /// previous `make test`); otherwise the test is left to `make test` (ReleasePreparation).
    package static func leftToMakeTestUnlessPrepared(_ work: ReleasePreparation.Work) -> Self {
        .enabled(if: ReleasePreparation.isReady(work), Comment(rawValue: "left to make test: \(work.rawValue) (not prepared for this tree)"))
    }
}
