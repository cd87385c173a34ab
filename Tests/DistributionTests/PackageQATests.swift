import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Testing
import TestingTraits

/// The package as Debian judges packages, and its life on a reader's machine, on Debian 12, 13 and
/// sid (docs/development.md, "The package's QA"): `scripts/packaging/package-qa.sh` runs each check on the
/// package `make test` builds (scripts/packaging/test-package.sh) in the releases' cached chroots and keeps
/// its verdict, keyed by what it read (the .deb, the source package, the scripts, the chroot);
/// `make test` starts them all in the background once the package and the chroots are ready
/// (scripts/test/run-tests.sh), and each test here waits for its check's verdict or runs it. Nothing
/// is skipped under `make test`: a check that cannot run fails with its log (a plain `swift test`
/// leaves them to `make test` unless the package and the chroots are prepared: ReleasePreparation). One test at a time (`.packageChecks`), and
/// no test holds a thread while it waits (the checks take minutes; the threads for blocking tests are
/// few, and the other suites need them): the script runs on a thread of its own, the test awaits it.
@Suite(.timeLimit(.minutes(45)), .holds(.packageChecks), .leftToMakeTestUnlessPrepared(.packageQA)) struct PackageQATests {
    /// `package-qa.sh ARGUMENTS`, its output printed (the full output log keeps it).
    func qa(_ arguments: [String]) async throws -> CommandResult {
        let script = repositoryRoot.appendingPathComponent("scripts/packaging/package-qa.sh").path
        let run = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<CommandResult, any Error>) in
            Thread.detachNewThread {
                continuation.resume(with: Result { try runCommand([script] + arguments, environment: testEnvironment(), timeout: 2400) })
            }
        }
        print("package-qa.sh \(arguments.joined(separator: " ")) exited \(run.status)\n\(run.stdout)\(run.stderr)")
        return run
    }

    @Test("Debian QA: life cycle on Debian 12 bookworm (install, upgrade, downgrade, remove, purge; paths not the package's; a hanging gnome-shell)")
    func lifeCycleOnBookworm() async throws { try await lifeCycle("bookworm") }
    @Test("Debian QA: life cycle on Debian 13 trixie (install, upgrade, downgrade, remove, purge; paths not the package's; a hanging gnome-shell)")
    func lifeCycleOnTrixie() async throws { try await lifeCycle("trixie") }
    @Test("Debian QA: life cycle on Debian sid (install, upgrade, downgrade, remove, purge; paths not the package's; a hanging gnome-shell)")
    func lifeCycleOnSid() async throws { try await lifeCycle("sid") }

    @Test("Debian QA: piuparts on Debian 12 bookworm (install and purge; upgrade from the previous version)")
    func piupartsOnBookworm() async throws { try await piuparts("bookworm") }
    @Test("Debian QA: piuparts on Debian 13 trixie (install and purge; upgrade from the previous version)")
    func piupartsOnTrixie() async throws { try await piuparts("trixie") }
    @Test("Debian QA: piuparts on Debian sid (install and purge; upgrade from the previous version)")
    func piupartsOnSid() async throws { try await piuparts("sid") }

    @Test("Debian QA: autopkgtest on Debian 12 bookworm (debian/tests, by its own autopkgtest)")
    func autopkgtestOnBookworm() async throws { try await autopkgtest("bookworm") }
    @Test("Debian QA: autopkgtest on Debian 13 trixie (debian/tests, by its own autopkgtest)")
    func autopkgtestOnTrixie() async throws { try await autopkgtest("trixie") }
    @Test("Debian QA: autopkgtest on Debian sid (debian/tests, by its own autopkgtest)")
    func autopkgtestOnSid() async throws { try await autopkgtest("sid") }

    /// sid's lintian on the .deb, the source package and the .changes: no error, no warning (every
    /// override in debian/ says why).
    @Test("Debian QA: lintian (sid) on the .deb, the source package and the .changes: no error, no warning")
    func lintian() async throws {
        let run = try await qa(["lintian"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("lintian exited 0"), "\(run.stdout)")
        let faults = run.stdout.split(separator: "\n").filter { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }
        #expect(faults.isEmpty, "\(faults.joined(separator: "\n"))")
    }

    /// Install the previous version (the same package repacked with a lower version), a reader's
    /// session (the notifier as its autostart entry starts it, the service by D-Bus activation, a
    /// chapter, settings, a catalogue, the browsers' contact record), upgrade, downgrade, upgrade:
    /// each time the notifier runs the installed binary within 10 s in the same process, the service
    /// that ran ends and the one that answers is the installed one, nothing of the reader's changes;
    /// remove: nothing of ours runs within 10 s; purge: nothing of the package's is left. Then what
    /// is not the package's at a card's place is left by install and purge, which succeed, and
    /// doctor says so; a gnome-shell that hangs costs install, the trigger and doctor their deadline
    /// only; a root apt run with a user's HOME writes nothing there (release-lifecycle-check.sh).
    func lifeCycle(_ release: String) async throws {
        let run = try await qa(["lifecycle", release])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(run.status == 0, "\(run)")
        #expect(lines.contains("0 failed"), "\(run.stdout)")
        #expect(!lines.contains { $0.hasPrefix("FAIL") }, "\(run.stdout)")
        for step in ["upgrade: the notifier (pid", "downgrade: the notifier (pid", "remove: nothing of the package's runs within 10 s",
                     "purge: no file or folder of the package's is left", "  the other extension's folder is as it was",
                     "  the admin's link is as it was", "  nothing is written in the reader's home",
                     "a gnome-shell that hangs: apt-get install --reinstall exits 0 within 60 s, dpkg healthy"] {
            #expect(lines.contains { $0.hasPrefix("ok: " + step) }, "no passed check '\(step)…' in\n\(run.stdout)")
        }
    }

    /// piuparts installs and purges the package on a minbase chroot with systemd-sysv and checks
    /// that nothing is left; then installs the previous version from a repository, upgrades to this
    /// one and purges.
    func piuparts(_ release: String) async throws {
        let run = try await qa(["piuparts", release])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("PASS: All tests."), "\(run.stdout)")
        #expect(run.stdout.contains("PASS: Installation and purging test."), "\(run.stdout)")
        #expect(run.stdout.contains("PASS: Installation, upgrade and purging tests."), "\(run.stdout)")
    }

    /// debian/tests/control's tests: the installed service answers `dbmultiverse entry` on a private
    /// bus; the deep-link handler is registered.
    func autopkgtest(_ release: String) async throws {
        let run = try await qa(["autopkgtest", release])
        #expect(run.status == 0, "\(run)")
        for test in ["service-answers", "deep-link-handler"] {
            #expect(run.stdout.split(separator: "\n").contains { $0.hasPrefix(test) && $0.hasSuffix(" PASS") }, "\(test): \(run.stdout)")
        }
    }
}
