package import DBus
import Glibc
import Localization

/// The session bus as the checks ask it: who owns a name, which process that is, what the bus
/// can start, and calls — each with a bounded timeout, so a peer that never answers costs at most
/// that long.
package final class DoctorBus {
    /// A name's owner: its unique name and process.
    struct Owner: Sendable, Equatable, CustomStringConvertible {
        let uniqueName: String
        let pid: UInt32?

        /// As a line names it: `pid 4242`, or the unique name when the bus does not say.
        var description: String { pid.map { "pid \($0)" } ?? uniqueName }

        init(uniqueName: String, pid: UInt32?) {
            self.uniqueName = uniqueName
            self.pid = pid
        }
    }

    /// Who owns a name, as a check found it: the owner, nobody, or no session bus to ask.
    enum Lookup: Sendable, Equatable {
        case owned(Owner)
        case unowned
        /// No session bus (why).
        case noBus(String)

        var owner: Owner? {
            guard case .owned(let owner) = self else { return nil }
            return owner
        }
    }

    /// How long a check waits for a peer that is not ours.
    static let peerTimeout = Duration.seconds(3)
    /// How long all the calls together may take, from the connection on: three silent peers (the
    /// service, the notification server, the tray watcher) cost this, not three timeouts each. A
    /// service started by activation has its own time (`ServiceCheck.timeout`): a program starting.
    static let overallTimeout = Duration.seconds(5)
    /// The shortest wait a call is given once the overall time is spent: enough for the bus itself
    /// (it answers at once), not for a peer that does not.
    static let callAfterDeadline = Duration.milliseconds(250)
    /// How long the bus itself may take to answer its own first call: a bus answers at once, and
    /// every check asks it something, so one that does not is no bus to check anything on.
    static let busTimeout = Duration.seconds(2)

    private let caller: BlockingCaller
    private let deadline = ContinuousClock.now + overallTimeout

    /// Connects to `address` (the session bus by default) and asks the bus its id. A bus that does
    /// not answer its connection (`peerTimeout`) or that call (`busTimeout`: one that answers
    /// `Hello` and nothing else) is no bus: the error says so, and no check waits on it again.
    package init(address: Connection.Address = .session) throws(DBusError) {
        do {
            caller = try BlockingCaller(address: address, connectTimeout: Self.peerTimeout)
        } catch let error as DBusError {
            throw error
        } catch {
            throw DBusError.failed("\(error)")
        }
        do throws(DBusError) {
            _ = try caller.call(BusDriver.getID.call(on: BusDriver.object), timeout: Self.busTimeout)
        } catch {
            // (deinit closes the connection.)
            guard error.name == DBusError.Name.noReply || error.name == DBusError.Name.timeout else { throw error }
            throw DBusError.disconnected(gettext("the session bus at %s takes connections but does not answer within %d s (it is stuck, or not a bus)",
                                                 caller.connection.address, Int(Self.busTimeout.components.seconds)))
        }
    }

    deinit { caller.connection.close() }

    /// Sends `call` and waits at most `timeout` for its reply and, `withinOverall`, no longer than
    /// what is left of the overall time (`overallTimeout`; `callAfterDeadline` once it is spent).
    func call<Reply>(_ call: MethodCall<Reply>, timeout: Duration = peerTimeout, withinOverall: Bool = true) -> Result<Reply, DBusError> {
        let bounded = withinOverall ? min(timeout, max(deadline - ContinuousClock.now, Self.callAfterDeadline)) : timeout
        do throws(DBusError) {
            return .success(try caller.call(call, timeout: bounded))
        } catch {
            return .failure(error)
        }
    }

    /// The owner of `name`, nil when it has none (or the bus does not say).
    func owner(of name: String) -> Owner? {
        guard case .success(let unique) = call(BusDriver.getNameOwner.call(on: BusDriver.object, name)) else { return nil }
        // The pid is only shown: left out when the bus does not say it.
        let pid = try? call(BusDriver.getConnectionUnixProcessID.call(on: BusDriver.object, unique)).get()
        return Owner(uniqueName: unique, pid: pid)
    }

    /// `owner(of: name)` as a lookup.
    func lookUp(_ name: String) -> Lookup { owner(of: name).map(Lookup.owned) ?? .unowned }

    /// Whether the bus would start `name` (an activation file for it in its service folders).
    func isActivatable(_ name: String) -> Bool {
        // A bus that does not list them: not activatable, as far as doctor can tell.
        (try? call(BusDriver.listActivatableNames.call(on: BusDriver.object)).get().contains(name)) ?? false
    }
}

/// The executable a running process of ours runs, and its version (`--version`), read through
/// /proc: a process started before its binary was replaced (an upgrade) or removed runs the old one,
/// which the kernel then shows as `PATH (deleted)`.
struct RunningExecutable: Sendable, Equatable {
    /// `/proc/PID/exe`'s target as the kernel shows it.
    var link: String
    /// `--version`'s first line, nil when replaced or when it does not answer.
    var version: String?

    init(link: String, version: String?) { (self.link, self.version) = (link, version) }

    static let replacedSuffix = " (deleted)"

    /// The binary's path, without the kernel's suffix.
    var path: String { isReplaced ? String(link.dropLast(Self.replacedSuffix.count)) : link }
    var isReplaced: Bool { link.hasSuffix(Self.replacedSuffix) }

    /// Nil when /proc does not say (another user's process, no /proc).
    static func read(pid: UInt32, _ surroundings: Surroundings) -> RunningExecutable? {
        guard let link = Files.linkTarget("/proc/\(pid)/exe") else { return nil }
        guard !link.hasSuffix(replacedSuffix),
              let output = surroundings.commands.run([link, "--version"], timeout: .seconds(3)), output.succeeded
        else { return RunningExecutable(link: link, version: nil) }
        return RunningExecutable(link: link, version: output.stdout.split(separator: "\n").first.map(String.init))
    }
}
