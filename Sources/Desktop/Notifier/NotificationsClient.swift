public import DBus

/// Where the desktop's notification server lives (Desktop Notifications Specification 1.2).
public enum NotificationsBus {
    public static let busName: BusName = "org.freedesktop.Notifications"
    public static let objectPath: ObjectPath = "/org/freedesktop/Notifications"
    public static let interface: InterfaceName = "org.freedesktop.Notifications"
}

/// The arguments of `Notify(s app_name, u replaces_id, s app_icon, s summary, s body, as actions,
/// a{sv} hints, i expire_timeout)`, in wire order.
public struct NotificationRequest: Sendable, Equatable {
    public var appName: String
    /// The id of the notification this one replaces in place, or 0 for a new one.
    public var replacesID: UInt32
    /// An icon-theme name or a `file://` URI; "" for none.
    public var appIcon: String
    /// Plain text: the specification gives the summary no markup.
    public var summary: String
    /// May hold the server's body markup when it advertises `body-markup`.
    public var body: String
    /// Flat pairs as on the wire: key, label, key, label… (`"default"` is the click on the bubble).
    public var actions: [String]
    /// `urgency` (`y`), `category` (`s`), `desktop-entry` (`s`), `image-path` (`s`), …
    public var hints: [String: Variant]
    /// Milliseconds; -1 lets the server choose, 0 never expires.
    public var expireTimeout: Int32

    public init(
        appName: String, replacesID: UInt32 = 0, appIcon: String = "", summary: String, body: String = "",
        actions: [String] = [], hints: [String: Variant] = [:], expireTimeout: Int32 = -1
    ) {
        self.appName = appName
        self.replacesID = replacesID
        self.appIcon = appIcon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.hints = hints
        self.expireTimeout = expireTimeout
    }

    /// The `Notify` method call carrying this request.
    public func message() -> Message {
        let message = Message.methodCall(destination: NotificationsBus.busName, path: NotificationsBus.objectPath,
                                         interface: NotificationsBus.interface, member: "Notify")
        message.append(appName, replacesID, appIcon, summary, body, actions, hints, expireTimeout)
        return message
    }

    /// Reads a received `Notify` call (for servers and test doubles); `InvalidArgs` on another signature.
    public init(notifyCall message: Message) throws(DBusError) {
        let (appName, replacesID, appIcon, summary, body, actions, hints, expireTimeout) = try message.decode(
            String.self, UInt32.self, String.self, String.self, String.self, [String].self, [String: Variant].self, Int32.self)
        self.init(appName: appName, replacesID: replacesID, appIcon: appIcon, summary: summary, body: body,
                  actions: actions, hints: hints, expireTimeout: expireTimeout)
    }
}

/// The answer of `GetServerInformation() → (s name, s vendor, s version, s spec_version)`.
public struct NotificationServerInformation: Sendable, Equatable {
    public var name: String
    public var vendor: String
    public var version: String
    public var specVersion: String
    public init(name: String, vendor: String, version: String, specVersion: String) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.specVersion = specVersion
    }
}

/// Why a notification closed (`NotificationClosed`'s `reason`). Unknown values are kept as they came.
public struct NotificationCloseReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let expired = NotificationCloseReason(rawValue: 1)
    public static let dismissed = NotificationCloseReason(rawValue: 2)
    public static let closedByCall = NotificationCloseReason(rawValue: 3)
    public static let undefined = NotificationCloseReason(rawValue: 4)
    public var description: String {
        switch rawValue {
        case 1: "expired"
        case 2: "dismissed"
        case 3: "closed by CloseNotification"
        case 4: "undefined"
        default: "reason \(rawValue)"
        }
    }
}

/// A signal of the notification server.
public enum NotificationSignal: Sendable, Equatable {
    /// `ActionInvoked(u id, s action_key)`: the user chose an action (`"default"`: clicked the bubble).
    case actionInvoked(id: UInt32, actionKey: String)
    /// `NotificationClosed(u id, u reason)`.
    case notificationClosed(id: UInt32, reason: NotificationCloseReason)
    /// `ActivationToken(u id, s token)` (specification 1.3): sent just before `ActionInvoked`, for
    /// handing focus to the window the action opens.
    case activationToken(id: UInt32, token: String)

    /// The signal a message carries, or nil when it is none of these (another member, or
    /// arguments of another signature: data from the bus is never trusted).
    public init?(_ message: Message) {
        guard message.kind == .signal, message.interface == NotificationsBus.interface.rawValue else { return nil }
        switch message.member {
        case "ActionInvoked":
            guard let (id, key) = try? message.decode(UInt32.self, String.self) else { return nil }
            self = .actionInvoked(id: id, actionKey: key)
        case "NotificationClosed":
            guard let (id, reason) = try? message.decode(UInt32.self, UInt32.self) else { return nil }
            self = .notificationClosed(id: id, reason: NotificationCloseReason(rawValue: reason))
        case "ActivationToken":
            guard let (id, token) = try? message.decode(UInt32.self, String.self) else { return nil }
            self = .activationToken(id: id, token: token)
        default:
            return nil
        }
    }
}

/// A typed, callback-based client of `org.freedesktop.Notifications` on a `Connection`.
///
/// Confined to the connection's loop thread, like the connection; completions run there.
public final class NotificationsClient {
    public let connection: Connection

    public init(connection: Connection) { self.connection = connection }

    /// The match rule for the server's signals: whoever owns `org.freedesktop.Notifications`
    /// now (the bus resolves the well-known sender when it routes).
    public static let signalRule = MatchRule(
        sender: NotificationsBus.busName, path: NotificationsBus.objectPath, interface: NotificationsBus.interface)

    /// `Notify`: shows (or replaces) a notification; completes with its id.
    @discardableResult
    public func notify(
        _ request: NotificationRequest, timeout: Duration = .seconds(25),
        completion: @escaping (Result<UInt32, DBusError>) -> Void
    ) -> Connection.PendingCall {
        connection.call(request.message(), timeout: timeout) { result in
            completion(result.flatMap { reply in Result { () throws(DBusError) in try reply.decode(UInt32.self) } })
        }
    }

    /// `GetCapabilities`: `actions`, `body`, `body-markup`, `icon-static`, `persistence`, …
    @discardableResult
    public func getCapabilities(
        timeout: Duration = .seconds(25), completion: @escaping (Result<[String], DBusError>) -> Void
    ) -> Connection.PendingCall {
        connection.call(Self.call("GetCapabilities"), timeout: timeout) { result in
            completion(result.flatMap { reply in Result { () throws(DBusError) in try reply.decode([String].self) } })
        }
    }

    /// `GetServerInformation`.
    @discardableResult
    public func getServerInformation(
        timeout: Duration = .seconds(25),
        completion: @escaping (Result<NotificationServerInformation, DBusError>) -> Void
    ) -> Connection.PendingCall {
        connection.call(Self.call("GetServerInformation"), timeout: timeout) { result in
            completion(result.flatMap { reply in
                Result { () throws(DBusError) in
                    let (name, vendor, version, spec) = try reply.decode(String.self, String.self, String.self, String.self)
                    return NotificationServerInformation(name: name, vendor: vendor, version: version, specVersion: spec)
                }
            })
        }
    }

    /// `CloseNotification`: the server closes it and emits `NotificationClosed` (reason 3).
    @discardableResult
    public func closeNotification(
        _ id: UInt32, timeout: Duration = .seconds(25), completion: @escaping (Result<Void, DBusError>) -> Void
    ) -> Connection.PendingCall {
        let message = Self.call("CloseNotification")
        message.append(id)
        return connection.call(message, timeout: timeout) { result in completion(result.map { _ in () }) }
    }

    /// Delivers the server's signals. With `addMatch: false` the caller has already added
    /// `signalRule` (e.g. with `addMatchBlocking`).
    public func subscribe(addMatch: Bool = true, _ handler: @escaping (NotificationSignal) -> Void) -> Connection.SignalSubscription {
        connection.subscribe(Self.signalRule, addMatch: addMatch) { message in
            if let signal = NotificationSignal(message) { handler(signal) }
        }
    }

    private static func call(_ member: MemberName) -> Message {
        Message.methodCall(destination: NotificationsBus.busName, path: NotificationsBus.objectPath,
                           interface: NotificationsBus.interface, member: member)
    }
}
