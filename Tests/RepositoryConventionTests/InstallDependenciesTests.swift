import DBusTestSupport
import DesktopTestSupport
import Foundation
import Testing
import TestingTraits

/// `scripts/test/install-deps.sh`, which `make test` runs first on a machine that has never seen the
/// project, against stand-ins for apt and dpkg on PATH (the real ones would change this machine):
/// what it asks apt to install, what it says, and what it does when apt fails.
@Suite(.timeLimit(.minutes(10)), .offThePool) struct InstallDependenciesTests {
    static let script = repositoryRoot.appendingPathComponent("scripts/test/install-deps.sh").path

    /// A machine for the script: `missing` packages are not installed (all others are), apt has a
    /// version of each but `unavailable`, and `apt-get` exits with `aptStatus`. `apt-cache policy`
    /// writes a megabyte after its answer, as a long policy does: a reader that stops at the match
    /// makes it die of SIGPIPE.
    struct Machine {
        var missing: [String] = []
        var unavailable: [String] = []
        var aptStatus = 0
        var interrupted = false
    }

    struct Run {
        let status: Int32
        let stderr: String
        /// Each apt-get and dpkg call, one line each (`apt-get update -qq`, `dpkg --configure -a`).
        let calls: [String]
    }

    private func run(on machine: Machine) throws -> Run {
        let folder = try makeTemporaryDirectory("dbm-install-deps", for: .programs)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bin = folder + "/bin", calls = folder + "/calls"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
        func list(_ names: [String]) -> String { names.map { " \($0) " }.joined() }
        try writeExecutable("""
            #!/bin/sh
            # dpkg-query -W -f='${Status}' PACKAGE
            for package; do :; done
            case '\(list(machine.missing))' in *" $package "*) exit 1;; esac
            printf 'install ok installed'
            """, to: bin + "/dpkg-query")
        try writeExecutable("""
            #!/bin/sh
            # apt-cache policy PACKAGE
            printf '%s:\\n  Installed: (none)\\n' "$2"
            case '\(list(machine.unavailable))' in
                *" $2 "*) printf '  Candidate: (none)\\n';;
                *) printf '  Candidate: 1.0-1\\n';;
            esac
            head -c 1048576 /dev/zero | tr '\\0' 'x'
            """, to: bin + "/apt-cache")
        try writeExecutable("""
            #!/bin/sh
            echo "apt-get $*" >> '\(calls)'
            echo "E: the stand-in apt-get says no" >&2
            exit \(machine.aptStatus)
            """, to: bin + "/apt-get")
        try writeExecutable("""
            #!/bin/sh
            echo "dpkg $*" >> '\(calls)'
            [ "$1" = --audit ] && \(machine.interrupted ? "echo 'The following packages are only half configured'" : "true")
            exit 0
            """, to: bin + "/dpkg")
        try writeExecutable("#!/bin/sh\nexec \"$@\"\n", to: bin + "/sudo")
        var environment = testEnvironment()
        environment["PATH"] = bin + ":/usr/bin:/bin"
        environment["INSTALL_LOG"] = folder + "/install.log"
        let result = try runCommand([Self.script], environment: environment, timeout: 30)
        let recorded = (try? String(contentsOfFile: calls, encoding: .utf8)) ?? ""
        return Run(status: result.status, stderr: result.stderr,
                   calls: recorded.split(separator: "\n").map(String.init).filter { $0 != "dpkg --audit" })
    }

    private let update = "apt-get -o DPkg::Lock::Timeout=600 update -qq"
    private func install(_ packages: String) -> String { "apt-get -o DPkg::Lock::Timeout=600 install -y -qq \(packages)" }

    @Test func withEverythingInstalledItAsksAptNothing() throws {
        let run = try run(on: Machine())
        #expect(run.status == 0 && run.calls.isEmpty && run.stderr.isEmpty, "\(run)")
    }

    /// The browsers are installed when apt has them, although apt-cache dies of SIGPIPE once the
    /// script has read what it needs (the pipefail bug that left them out).
    @Test func missingBrowsersAreInstalledWhenAptHasThem() throws {
        let run = try run(on: Machine(missing: ["chromium", "firefox-esr", "sway"]))
        #expect(run.status == 0, "\(run)")
        #expect(run.calls == [update, install("sway chromium firefox-esr")])
        #expect(run.stderr.contains("installing sway chromium firefox-esr"), "\(run.stderr)")
    }

    /// A browser apt does not have (a distribution that ships it as a snap) is said, once, and the
    /// rest is installed.
    @Test func aBrowserAptDoesNotHaveIsSaidAndTheRestInstalled() throws {
        let run = try run(on: Machine(missing: ["chromium", "firefox-esr"], unavailable: ["firefox-esr"]))
        #expect(run.status == 0, "\(run)")
        #expect(run.calls == [update, install("chromium")])
        #expect(run.stderr.contains("firefox-esr is not available from apt here; the tests that need it will be skipped"), "\(run.stderr)")
    }

    /// The cards' desktops come without their recommendations (a display manager, KDE's and
    /// GNOME's applications): the tests' headless sessions use none of them.
    @Test func theDesktopsComeWithoutTheirRecommendations() throws {
        let run = try run(on: Machine(missing: ["gnome-shell", "plasma-desktop", "sway"]))
        #expect(run.status == 0, "\(run)")
        #expect(run.calls == [update, install("--no-install-recommends gnome-shell plasma-desktop"), install("sway")])
    }

    @Test func aFailingAptShowsItsOutputAndFails() throws {
        let run = try run(on: Machine(missing: ["waybar"], aptStatus: 100))
        #expect(run.status == 100, "\(run)")
        #expect(run.calls == [update], "nothing is installed after a failed update")
        #expect(run.stderr.contains("apt-get update failed (exit 100)") && run.stderr.contains("E: the stand-in apt-get says no"),
                "\(run.stderr)")
    }

    @Test func anInterruptedDpkgIsFinishedFirst() throws {
        let run = try run(on: Machine(missing: ["waybar"], interrupted: true))
        #expect(run.status == 0, "\(run)")
        #expect(run.calls == ["dpkg --configure -a", update, install("waybar")])
        #expect(run.stderr.contains("dpkg was interrupted earlier; finishing it first"), "\(run.stderr)")
    }
}
