import ComicDomain
import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import WidgetTestSupport
import Foundation
import Testing
import TestingTraits

/// The cards where the readers are: the same checks as GnomeShellCardTests and PlasmaCardTests,
/// with the same assertions, on the desktops of Debian 12, 13 and sid, each from the installed
/// package. `scripts/real-hosts/release-check.sh` builds the .deb (scripts/packaging/test-package.sh: debian/'s own
/// build on this machine, kept between runs; for GNOME Shell 48 and 51 the package built in that
/// release's build chroot, scripts/packaging/chroot-package.sh: SourcePackageBuildTests), makes or reuses the release's debootstrap chroot
/// (scripts/real-hosts/release-chroot.sh, cached in /var/cache/dbmultiverse-tests), installs the .deb with
/// apt-get into a throw-away copy of it and runs the check there. `make test` starts both at its
/// beginning, in the background (scripts/test/run-tests.sh); a test finds them ready or waits for them.
/// Nothing is skipped under `make test`: a chroot or package that cannot be made fails the test with
/// its log. A plain `swift test` leaves them to `make test` unless they are prepared (ReleasePreparation).
///
/// Each test holds the desktop session while it runs (one at a time, their timings hold only then:
/// a test function, unlike a suite, holds it per test case); off the
/// cooperative pool: a run blocks for a minute or more, several on a fresh machine.
@Suite(.timeLimit(.minutes(25)), .offThePool, .leftToMakeTestUnlessPrepared(.desktops)) struct ReleaseCardTests {
    /// The shell a release has, as `gnome-shell --version` prints it.
    static let gnomeShell = ["bookworm": "GNOME Shell 43.", "trixie": "GNOME Shell 48.", "sid": "GNOME Shell 51."]

    @Test("Desktop: GNOME Shell 43 (Debian 12 bookworm), the card from the installed package", .holds(.desktopSession, .eachTestCase))
    func gnomeShell43() async throws { try await checkGnomeShell(on: "bookworm") }

    @Test("Desktop: GNOME Shell 48 (Debian 13 trixie), the card from the package built in trixie")
    func gnomeShell48() async throws { try await checkGnomeShellOfPackageBuilt(in: "trixie") }

    @Test("Desktop: GNOME Shell 51 (Debian sid), the card from the package built in sid")
    func gnomeShell51() async throws { try await checkGnomeShellOfPackageBuilt(in: "sid") }

    /// The card from the package built in `release`'s own build chroot: that build awaited first,
    /// without the desktop session (minutes on a fresh machine; SourcePackageBuildTests reports how
    /// it went), then the check, holding the session.
    func checkGnomeShellOfPackageBuilt(in release: String) async throws {
        let build = try await runLongCommand(["nice", "-n", "19", repositoryRoot.appendingPathComponent("scripts/packaging/chroot-package.sh").path, release],
                                             timeout: 1500)
        try #require(build.status == 0, "no package built in \(release): \(build.stderr)")
        try await TestResource.desktopSession.slots.holding { try await checkGnomeShell(on: release, builtIn: true) }
    }

    @Test("Desktop: Plasma 5.27 (Debian 12 bookworm), the widget from the installed package", .holds(.desktopSession, .eachTestCase))
    func plasma5() async throws { try await checkPlasma(on: "bookworm", build: 5, workspace: "4:5.27.") }

    @Test("Desktop: Plasma 6.3 (Debian 13 trixie), the widget from the installed package", .holds(.desktopSession, .eachTestCase))
    func plasma6() async throws { try await checkPlasma(on: "trixie", build: 6, workspace: "4:6.3.") }

    // The looks readers use, per desktop: each look a test case of its desktop's test (the summary
    // lists them under Desktops:), all of a desktop's measured in one session (LooksSessions).
    static let looks = LooksSessions()

    @Test("Desktop: GNOME Shell 43 (Debian 12 bookworm), the card in each look", .serialized,
          arguments: CardLook.allCases)
    func gnomeShell43Looks(_ look: CardLook) async throws { look.expect(in: try await looks("gnome-shell-looks.sh", on: "bookworm")) }

    @Test("Desktop: GNOME Shell 48 (Debian 13 trixie), the card in each look", .serialized,
          arguments: CardLook.allCases)
    func gnomeShell48Looks(_ look: CardLook) async throws { look.expect(in: try await looks("gnome-shell-looks.sh", on: "trixie")) }

    @Test("Desktop: GNOME Shell 51 (Debian sid), the card in each look", .serialized,
          arguments: CardLook.allCases)
    func gnomeShell51Looks(_ look: CardLook) async throws { look.expect(in: try await looks("gnome-shell-looks.sh", on: "sid")) }

    @Test("Desktop: Plasma 5.27 (Debian 12 bookworm), the widget in each look", .serialized,
          arguments: CardLook.allCases)
    func plasma5Looks(_ look: CardLook) async throws { look.expect(in: try await looks("plasma-card-looks.sh", on: "bookworm")) }

    @Test("Desktop: Plasma 6.3 (Debian 13 trixie), the widget in each look", .serialized,
          arguments: CardLook.allCases)
    func plasma6Looks(_ look: CardLook) async throws { look.expect(in: try await looks("plasma-card-looks.sh", on: "trixie")) }

    /// What the looks check printed on a release, run once for all its looks, holding the desktop
    /// session while it runs (the other cases read what it printed). Held here, not by a trait: a
    /// `.wholeSuite` place declared on a test function was never taken (its scope is given per test
    /// case), and five looks sessions ran beside each other and beside the other desktops' checks.
    func looks(_ check: String, on release: String) async throws -> CommandResult {
        try await Self.looks.run("\(check)@\(release)") {
            try await TestResource.desktopSession.slots.holding { try await runHostCheck("release-check.sh", [release, check], withBinary: false, name: "looks-\(release)",
                             shotsUse: [.otherUsers], timeout: 1200, shown: withoutShellLog).run }
        }
    }

    /// `builtIn`: the package built in the release's own build chroot, else the one built on this machine.
    func checkGnomeShell(on release: String, builtIn: Bool = false) async throws {
        let (run, shots) = try await runHostCheck("release-check.sh", [release, "gnome-shell-check.sh"] + (builtIn ? ["--built-in", release] : []),
                                            withBinary: false, name: "gnome-\(release)", shotsUse: [.otherUsers], timeout: 1200, shown: withoutShellLog)
        #expect(run.stdout.contains(builtIn ? ", built in \(release)" : ", built on this machine"), "\(run.stdout)")
        let shell = try #require(Self.gnomeShell[release])
        #expect(run.stdout.split(separator: "\n").contains { $0.hasPrefix(shell) }, "the \(release) chroot's shell is not \(shell)x: \(run.stdout)")
        try expectGnomeShellCard(run, shots: shots)
    }

    func checkPlasma(on release: String, build: Int, workspace: String) async throws {
        let (run, shots) = try await runHostCheck("release-check.sh", [release, "plasma-card-check.sh"], withBinary: false, name: "plasma-\(release)",
                                            shotsUse: [.otherUsers], timeout: 1200)
        #expect(run.stdout.contains("(Plasma \(build) build; plasma-workspace \(workspace)"),
                "the package installed no Plasma \(build) widget on plasma-workspace \(workspace)x: \(run.stdout)")
        try expectPlasmaCard(run, shots: shots)
    }

    /// The package built on this machine, with Debian 12's names for the libraries it loads with
    /// dlopen, on sid: apt installs it with sid's packages of those names (libcurl4t64, which
    /// provides libcurl4; libxml2, sid's compatibility library with Debian 12's libxml2.so.2) and
    /// its programs run (the same checks as SourcePackageBuildTests' for the packages built in sid and trixie).
    @Test func thePackageBuiltOnThisMachineRunsOnSid() async throws {
        let package = try await runLongCommand(["nice", "-n", "19", repositoryRoot.appendingPathComponent("scripts/packaging/test-package.sh").path], timeout: 1500)
        let deb = try #require(package.status == 0 ? package.stdout.split(separator: "\n").last.map(String.init) : nil, "no package: \(package)")
        try await expectInstalledProgramsRun(deb, in: "sid")
    }

    /// A dist-upgrade from Debian 12 keeps the card (docs/gnome-shell.md, docs/plasma.md): in the
    /// Debian 13 chroot, with the links as a Debian 12 install leaves them, gnome-shell and
    /// plasma-workspace unpacked again by dpkg (as an upgrade unpacks them) make dpkg's file trigger
    /// run the package's postinst, which points the links at the builds for GNOME 48 and Plasma 6;
    /// removing the package leaves no link (scripts/real-hosts/release-upgrade-check.sh).
    // Held like the desktop checks: one release run at a time, each waiting without taking one of
    // the threads for blocking tests (the other suites' tests need them).
    @Test("Desktop: the cards follow an upgrade to Debian 13's GNOME Shell 48 and Plasma 6 (dpkg trigger)", .holds(.desktopSession, .eachTestCase))
    func theCardsFollowTheDesktopsUpgrade() async throws {
        let run = try await runLongCommand([repositoryRoot.appendingPathComponent("scripts/real-hosts/release-upgrade-check.sh").path, "trixie"],
                                           timeout: 1200)
        print("release-upgrade-check.sh exited \(run.status)\n\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(run.status == 0, "\(run)")
        #expect(lines.contains("installed: ../../dbmultiverse/cards/gnome-shell-45 ../../dbmultiverse/cards/plasma-6"), "\(run.stdout)")
        #expect(lines.contains("as after Debian 12: ../../dbmultiverse/cards/gnome-shell-43 ../../dbmultiverse/cards/plasma-5"), "\(run.stdout)")
        #expect(lines.contains("dpkg: Processing triggers for dbmultiverse (\(ProjectInfo.version)) ..."), "\(run.stdout)")
        #expect(lines.contains("after the desktop's upgrade: ../../dbmultiverse/cards/gnome-shell-45 ../../dbmultiverse/cards/plasma-6"), "\(run.stdout)")
        #expect(lines.contains("removed: none none"), "\(run.stdout)")
    }

    /// The Plasma 6 build's card under Qt 6's qmltestrunner with Plasma 6's QML modules
    /// (PlasmaComponents3, Kirigami), which Debian 12 lacks: scripts/test/plasmoid-qml-tests.sh 6 in the
    /// Debian 13 chroot, every state of ViewState's table (PlasmoidQMLTests runs the Plasma 5 build
    /// on this machine).
    @Test("Desktop: Plasma 6.3 (Debian 13 trixie), the widget's QML tests under Qt 6", .holds(.desktopSession, .eachTestCase))
    func plasma6CardTests() async throws {
        let folder = try makeTemporaryDirectory("dbm-card-states-6")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try ViewState.statesScript().write(toFile: folder + "/states.js", atomically: true, encoding: .utf8)
        let chroot = repositoryRoot.appendingPathComponent("scripts/real-hosts/release-chroot.sh").path
        let prepare = try await runLongCommand(["nice", "-n", "19", chroot, "prepare", "trixie"], timeout: 1200)
        #expect(prepare.status == 0, "\(prepare)")
        let root = repositoryRoot.path
        let run = try runCommand([chroot, "run", "trixie", "--bind", "\(root):\(root)", "--bind", "\(folder):\(folder)", "--",
                                  "env", "-i", "PATH=/usr/bin:/bin", "LANG=C.UTF-8", "TMPDIR=/tmp", "STATES=\(folder)/states.js",
                                  root + "/scripts/test/plasmoid-qml-tests.sh", "6"],
                                 environment: testEnvironment(), timeout: 300)
        print("plasmoid-qml-tests.sh 6 (trixie) exited \(run.status)\n\(run.stdout)\(run.stderr)")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("Using QtTest library 6."), "\(run.stdout)")
        let totals = "Totals: \(PlasmoidQMLTests.testFunctions + 2 + ViewState.all.count - 1) passed, 0 failed, 0 skipped"
        #expect(run.stdout.contains(totals), "\(totals)\n\(run.stdout)")
        for state in ViewState.all {
            #expect(run.stdout.contains("PASS   : qmltestrunner::Card::test_eachStateShowsExactlyItsView(\(state.name))"), "\(state.name)")
        }
        #expect(!run.stdout.contains("FAIL"), "\(run.stdout)")
    }
}
