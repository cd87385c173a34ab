import DBusTestSupport
import Foundation
import Testing
import TestingTraits

/// The cards where the readers are: the same checks as GnomeShellCardTests and PlasmaCardTests,
/// with the same assertions, on the desktops of Debian 12, 13 and sid, each from the installed
/// package. `scripts/release-check.sh` builds the .deb (scripts/test-package.sh: debian/'s own
/// build, kept between runs), makes or reuses the release's debootstrap chroot
/// (scripts/release-chroot.sh, cached in /var/cache/dbmultiverse-tests), installs the .deb with
/// apt-get into a throw-away copy of it and runs the check there. `make test` starts both at its
/// beginning, in the background (scripts/run-tests.sh); a test finds them ready or waits for them.
/// Nothing is skipped: a chroot or package that cannot be made fails the test with its log.
///
/// Each test holds the desktop session while it runs (one at a time, their timings hold only then:
/// a test function, unlike a suite, holds it per test case); off the
/// cooperative pool: a run blocks for a minute or more, several on a fresh machine.
@Suite(.timeLimit(.minutes(25)), .offThePool) struct ReleaseCardTests {
    /// The shell a release has, as `gnome-shell --version` prints it.
    static let gnomeShell = ["bookworm": "GNOME Shell 43.", "trixie": "GNOME Shell 48.", "sid": "GNOME Shell 51."]

    @Test("Desktop: GNOME Shell 43 (Debian 12 bookworm), the card from the installed package", .holds(.desktopSession, .eachTestCase))
    func gnomeShell43() throws { try checkGnomeShell(on: "bookworm") }

    @Test("Desktop: GNOME Shell 48 (Debian 13 trixie), the card from the installed package", .holds(.desktopSession, .eachTestCase))
    func gnomeShell48() throws { try checkGnomeShell(on: "trixie") }

    @Test("Desktop: GNOME Shell 51 (Debian sid), the card from the installed package", .holds(.desktopSession, .eachTestCase))
    func gnomeShell51() throws { try checkGnomeShell(on: "sid") }

    @Test("Desktop: Plasma 5.27 (Debian 12 bookworm), the widget from the installed package", .holds(.desktopSession, .eachTestCase))
    func plasma5() throws { try checkPlasma(on: "bookworm", build: 5, workspace: "4:5.27.") }

    @Test("Desktop: Plasma 6.3 (Debian 13 trixie), the widget from the installed package", .holds(.desktopSession, .eachTestCase))
    func plasma6() throws { try checkPlasma(on: "trixie", build: 6, workspace: "4:6.3.") }

    func checkGnomeShell(on release: String) throws {
        let (run, shots) = try runHostCheck("release-check.sh", [release, "gnome-shell-check.sh"], withBinary: false, name: "gnome-\(release)",
                                            shotsUse: [.otherUsers], timeout: 1200, shown: withoutShellLog)
        let shell = try #require(Self.gnomeShell[release])
        #expect(run.stdout.split(separator: "\n").contains { $0.hasPrefix(shell) }, "the \(release) chroot's shell is not \(shell)x: \(run.stdout)")
        try expectGnomeShellCard(run, shots: shots)
    }

    func checkPlasma(on release: String, build: Int, workspace: String) throws {
        let (run, shots) = try runHostCheck("release-check.sh", [release, "plasma-card-check.sh"], withBinary: false, name: "plasma-\(release)",
                                            shotsUse: [.otherUsers], timeout: 1200)
        #expect(run.stdout.contains("(Plasma \(build) build; plasma-workspace \(workspace)"),
                "the package installed no Plasma \(build) widget on plasma-workspace \(workspace)x: \(run.stdout)")
        try expectPlasmaCard(run, shots: shots)
    }
}
