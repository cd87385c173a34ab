import Foundation
import Synchronization

/// What the suite's tests share with each other and with the user's desktop, and how many tests
/// may hold each at once.
///
/// Every private `dbus-daemon` and every service under test holds an inotify instance, and Linux
/// allows 128 per user by default (`fs.inotify.max_user_instances`), shared with everything else
/// the user runs; run unbounded, the suite held ~190 at its peak on two cores. A real desktop
/// client (a browser, a shell, a tray host) takes seconds of both cores, and the timings those
/// tests check only hold when one runs at a time. Tests take a place with the `.holds(…)` trait
/// (TestingTraits), which waits without blocking a thread.
package enum TestResource: String, Sendable, CaseIterable {
    /// Private buses and the services on them: each test case holding one may start as many as it
    /// needs (a bus and its service; a second bus for a restart).
    case privateBuses = "private buses"
    /// A real desktop client and its session (browser, GNOME Shell, plasmoidviewer, sway and Waybar,
    /// dunst): one suite at a time.
    case desktopSession = "a desktop session"
    /// The package's checks in the release chroots (PackageQATests): each test waits minutes for a
    /// verdict made in the background, or makes it; one at a time, beside the background's own.
    case packageChecks = "the package's checks"

    /// How many holders at once. With 16 test cases holding buses, the suite held at most ~35
    /// inotify instances (scripts/test/run-tests.sh prints its peak) and ran as fast as unbounded within
    /// noise on two cores: the long pole is FaultTests, one test after another.
    package var places: Int {
        switch self {
        case .privateBuses: 16
        case .desktopSession, .packageChecks: 1
        }
    }

    /// The places of this resource, one set for the whole test process.
    package var slots: Slots {
        switch self {
        case .privateBuses: Self.busSlots
        case .desktopSession: Self.desktopSlots
        case .packageChecks: Self.packageCheckSlots
        }
    }

    private static let busSlots = Slots(TestResource.privateBuses)
    private static let desktopSlots = Slots(TestResource.desktopSession)
    private static let packageCheckSlots = Slots(TestResource.packageChecks)

    /// The resources the current task holds (set by `Slots.holding`, inherited by child tasks).
    @TaskLocal package static var held: Set<TestResource> = []

    /// Whether this process is the test runner (the `.xctest` bundle SwiftPM runs), where every
    /// private bus must be started by a test holding `.privateBuses`. The benchmark and the sample
    /// service start buses of their own, outside any test.
    static let runningTests = CommandLine.arguments.first?.hasSuffix(".xctest") ?? false

    /// A counting semaphore whose waiters suspend (no thread blocks), served in arrival order.
    package final class Slots: Sendable {
        private struct State {
            var free: Int
            var waiting: [CheckedContinuation<Void, Never>] = []
        }
        private let resource: TestResource
        private let state: Mutex<State>

        init(_ resource: TestResource) {
            self.resource = resource
            state = Mutex(State(free: resource.places))
        }

        /// Runs `body` holding one place, waiting for one first when all are taken.
        package func holding<T>(_ body: () async throws -> T) async rethrows -> T {
            await acquire()
            defer { release() }
            return try await TestResource.$held.withValue(TestResource.held.union([resource])) {
                try await body()
            }
        }

        private func acquire() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let granted = state.withLock { state -> Bool in
                    guard state.free > 0 else {
                        state.waiting.append(continuation)
                        return false
                    }
                    state.free -= 1
                    return true
                }
                if granted { continuation.resume() }
            }
        }

        private func release() {
            // A waiter takes the place over directly, so a newcomer cannot overtake it.
            let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard !state.waiting.isEmpty else {
                    state.free += 1
                    return nil
                }
                return state.waiting.removeFirst()
            }
            next?.resume()
        }
    }
}
