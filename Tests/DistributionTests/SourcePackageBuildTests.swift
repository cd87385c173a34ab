import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Testing
import TestingTraits

/// The source package that `make dist` makes, built as other Debian releases build it
/// (scripts/packaging/chroot-package.sh): in a clean sid chroot with its Build-Depends from Debian's
/// archive, Debian's swiftlang among them, and the network off, as a Debian buildd builds it; and
/// in a clean Debian 13 chroot with this machine's swift.org toolchain, as a Debian 13 machine
/// builds it. The sid build is the test that the C shims (Sources/CSiteLibraries,
/// Sources/CImageDecoding) call libcurl and libxml2 as their newest headers allow: sid's curl.h
/// type-checks `curl_easy_setopt` with macros, libxml2 2.12 and later pass the error handler a
/// const error; a call those headers reject fails the build, and this test with the build's log.
/// Then each .deb is checked where it was built (the libraries its binaries load with dlopen are
/// the ones its Depends and Recommends name: scripts/packaging/dlopen-check.sh), and installed
/// into the release's chroot, where its programs run (scripts/packaging/installed-programs-check.sh).
/// ReleaseCardTests' GNOME Shell 51 (sid) and GNOME Shell 48 (trixie) checks install these packages.
/// `make test` starts both builds in the background at its start (scripts/test/run-tests.sh); a
/// test waits for its build. Each writes the Swift that built its package to
/// .build/test-results/builds/RELEASE.txt, for the run's summary. Left to `make test` by a plain
/// `swift test` unless both packages are built for the tree as it is (ReleasePreparation).
@Suite(.timeLimit(.minutes(25)), .offThePool, .leftToMakeTestUnlessPrepared(.builds)) struct SourcePackageBuildTests {
    @Test("Build: Debian sid with Debian's swiftlang, network off (the C shims against sid's curl and libxml2 headers); installed, its programs run")
    func sid() async throws { try await buildAndRun(in: "sid", libxml2: "libxml2.so.16") { $0.hasPrefix("/usr/libexec/swift/bin/") } }

    @Test("Build: Debian 13 trixie with the swift.org toolchain, network off; installed, its programs run")
    func trixie() async throws { try await buildAndRun(in: "trixie", libxml2: "libxml2.so.2") { !$0.hasPrefix("/usr/libexec/swift/") } }

    /// Builds the package in `release`'s build chroot (awaited on a thread of its own: minutes on
    /// a fresh machine), expects the Swift that `isExpectedSwift` accepts (its path) and the libxml2
    /// soname the release's headers describe, then installs it into the release's chroot and runs
    /// its programs there.
    func buildAndRun(in release: String, libxml2: String, isExpectedSwift: (String) -> Bool) async throws {
        let scripts = repositoryRoot.appendingPathComponent("scripts")
        let build = try await runLongCommand(["nice", "-n", "19", scripts.appendingPathComponent("packaging/chroot-package.sh").path, release], timeout: 1500)
        print("chroot-package.sh \(release) exited \(build.status)\n\(build.stdout)\(build.stderr)")
        #expect(build.status == 0, """
            the source package did not build in \(release) with its Build-Depends, offline: the C shims compile here against \
            \(release)'s curl, libxml2, libjpeg and libpng headers, which may reject a call (the build's log's end):
            \(build.stderr)
            """)
        let lines = build.stdout.split(separator: "\n").map(String.init)
        let swift = try #require(lines.first { $0.hasPrefix("swift: Swift version 6.") }, "no Swift version: \(build.stdout)")
        let swiftPath = String(swift.split(separator: ", ").last ?? "")
        #expect(isExpectedSwift(swiftPath), "\(release) built with \(swiftPath)")
        #expect(lines.contains { $0.hasPrefix("✓ \(libxml2): ") }, "the binaries do not load \(libxml2), declared: \(build.stdout)")
        #expect(lines.filter { $0.hasPrefix("✓ lib") }.count == 4 && !lines.contains { $0.hasPrefix("✘") }, "\(build.stdout)")
        let deb = try #require(lines.last.flatMap { $0.hasSuffix(".deb") ? $0 : nil }, "no package: \(build.stdout)")
        let outcome = lines.first { $0.hasPrefix("chroot-package: \(release): ") }.map { "; " + $0.dropFirst("chroot-package: \(release): ".count) } ?? ""
        try record(release: release, swift.dropFirst("swift: ".count) + outcome)

        try await expectInstalledProgramsRun(deb, in: release)
    }

    /// What the summary shows beside the test: the Swift that built the package, and the build's time.
    func record(release: String, _ text: String) throws {
        let folder = repositoryRoot.appendingPathComponent(".build/test-results/builds")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try (text + "\n").write(to: folder.appendingPathComponent("\(release).txt"), atomically: true, encoding: .utf8)
    }
}
