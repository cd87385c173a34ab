import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Testing
import TestingTraits

/// The GitHub workflows (.github/workflows/, docs/releasing.md): what GitHub would run cannot run
/// here, so they pass the linters GitHub's users run — actionlint and zizmor --offline
/// (scripts/test/workflow-lint.sh) — and say what the release procedure promises.
@Suite(.timeLimit(.minutes(10)), .offThePool) struct WorkflowTests {
    static let folder = repositoryRoot.appendingPathComponent(".github/workflows")

    /// Awaited on a thread of its own: the first run installs the linters from PyPI.
    static func lint(_ folder: String) async throws -> CommandResult {
        let run = try await runLongCommand([repositoryRoot.appendingPathComponent("scripts/test/workflow-lint.sh").path, folder], timeout: 240)
        print("workflow-lint.sh \(folder) exited \(run.status)\n\(run.stdout)\(run.stderr)")
        return run
    }

    @Test func actionlintAndZizmorFindNothing() async throws {
        let run = try await Self.lint(Self.folder.path)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("actionlint actionlint.kjanat.dev 1.17.0: no finding in release.yml test.yml"), "\(run.stdout)")
        #expect(run.stdout.contains("zizmor 1.32.0 --offline: No findings to report."), "\(run.stdout)")
    }

    /// The linters do fail: an action by tag and a value of the event in a script are findings.
    @Test func theLintersFindAnUnpinnedActionAndATemplateInjection() async throws {
        let folder = try makeTemporaryDirectory("dbm-workflows")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            name: careless
            on: pull_request
            permissions: {}
            jobs:
              echo:
                runs-on: ubuntu-24.04
                steps:
                  - uses: actions/checkout@v4
                  - run: echo "${{ github.event.pull_request.title }}"
            """.write(toFile: folder + "/careless.yml", atomically: true, encoding: .utf8)
        let run = try await Self.lint(folder)
        #expect(run.status != 0)
        #expect(run.stdout.contains("unpinned-uses") && run.stdout.contains("template-injection"), "\(run.stdout)")
    }

    /// Every action pinned by a full commit hash; no permission unless a job asks for it; the
    /// release on a v* tag, in the `release` environment whose secret is the archive key; pull
    /// requests run `make test`.
    @Test func theWorkflowsDoWhatTheReleaseProcedureSays() throws {
        let release = try String(contentsOf: Self.folder.appendingPathComponent("release.yml"), encoding: .utf8)
        let test = try String(contentsOf: Self.folder.appendingPathComponent("test.yml"), encoding: .utf8)
        for workflow in [release, test] {
            let uses = workflow.split(separator: "\n").filter { $0.contains("uses: ") }
            #expect(!uses.isEmpty)
            for line in uses {
                let reference = line.split(separator: "@").last?.prefix(40) ?? ""
                #expect(reference.count == 40 && reference.allSatisfy(\.isHexDigit), "not pinned by a commit hash: \(line)")
            }
            #expect(workflow.contains("\npermissions: {}\n"))
            #expect(workflow.contains("image: debian:bookworm") && workflow.contains("scripts/ci/install-toolchain.sh 6.3.1"))
            #expect(workflow.contains("run: make test\n"))
        }
        #expect(release.contains("  push:\n    tags: [\"v*\"]\n") && release.contains("environment: release"))
        #expect(release.contains("ARCHIVE_SIGNING_KEY: ${{ secrets.ARCHIVE_SIGNING_KEY }}"))
        #expect(release.components(separatedBy: "secrets.").count == 3, "the archive key is the only secret, in its two jobs")
        #expect(test.contains("on:\n  pull_request:\n"))
    }
}
