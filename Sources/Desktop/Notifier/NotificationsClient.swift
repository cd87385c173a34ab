public import DBus

/// `org.freedesktop.Notifications` (Desktop Notifications Specification 1.2), the members the
/// notifier uses, and where the desktop's notification server lives.
public enum Notifications: DBusInterface {
    public static let name: InterfaceName = "org.freedesktop.Notifications"
    public static let object = RemoteObject(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications")

    public static let notify = method(
        "Notify",
        inputs: (Arg<String>("app_name"), Arg<UInt32>("replaces_id"), Arg<String>("app_icon"), Arg<String>("summary"),
                 Arg<String>("body"), Arg<[String]>("actions"), Arg<[String: Variant]>("hints"), Arg<Int32>("expire_timeout")),
        outputs: Arg<UInt32>("id"))
    public static let getCapabilities = method("GetCapabilities", inputs: (), outputs: Arg<[String]>("capabilities"))

    public static let actionInvoked = signal("ActionInvoked", Arg<UInt32>("id"), Arg<String>("action_key"))
    public static let notificationClosed = signal("NotificationClosed", Arg<UInt32>("id"), Arg<UInt32>("reason"))
    /// Specification 1.3: sent just before `ActionInvoked`.
    public static let activationToken = signal("ActivationToken", Arg<UInt32>("id"), Arg<String>("activation_token"))
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

    /// The `Notify` call carrying this request; its reply is the notification's id.
    public func notifyCall() -> MethodCall<UInt32> {
        Notifications.notify.call(on: Notifications.object, appName, replacesID, appIcon, summary, body, actions, hints, expireTimeout)
    }
}

/// Why a notification closed (`NotificationClosed`'s `reason`). Unknown values are kept as they came.
public struct NotificationCloseReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let expired = NotificationCloseReason(rawValue: 1)
    public static let dismissed = NotificationCloseReason(rawValue: 2)
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

}

/// A typed, callback-based client of `org.freedesktop.Notifications` on a `Connection`, on the
/// interface's declarations.
///
/// Confined to the connection's loop thread, like the connection; completions run there.
public final class NotificationsClient {
    public let connection: Connection

    public init(connection: Connection) { self.connection = connection }

    /// `Notify`: shows (or replaces) a notification; completes with its id.
    @discardableResult
    public func notify(
        _ request: NotificationRequest, timeout: Duration = .seconds(25),
        completion: @escaping (Result<UInt32, DBusError>) -> Void
    ) -> Connection.PendingCall {
        connection.call(request.notifyCall(), timeout: timeout, completion: completion)
    }

    /// `GetCapabilities`: `actions`, `body`, `body-markup`, `icon-static`, `persistence`, …
    @discardableResult
    public func getCapabilities(
        timeout: Duration = .seconds(25), completion: @escaping (Result<[String], DBusError>) -> Void
    ) -> Connection.PendingCall {
        connection.call(Notifications.getCapabilities.call(on: Notifications.object), timeout: timeout, completion: completion)
    }

    /// Delivers the server's signals, only from the current owner of its name; a signal with
    /// other arguments than the specification's goes to `onMalformed`. Blocking until in place.
    public func subscribe(
        onMalformed: ((DBusError) -> Void)? = nil, _ handler: @escaping (NotificationSignal) -> Void
    ) throws(DBusError) -> [Connection.SignalSubscription] {
        let server = Notifications.object
        return [
            try connection.subscribe(Notifications.actionInvoked, from: server, onMalformed: onMalformed) { id, key in
                handler(.actionInvoked(id: id, actionKey: key))
            },
            try connection.subscribe(Notifications.notificationClosed, from: server, onMalformed: onMalformed) { id, reason in
                handler(.notificationClosed(id: id, reason: NotificationCloseReason(rawValue: reason)))
            },
            try connection.subscribe(Notifications.activationToken, from: server, onMalformed: onMalformed) { id, token in
                handler(.activationToken(id: id, token: token))
            },
        ]
    }

    /// Calls `handler` when the notification server changes: with its new unique name, or nil
    /// when it left the bus. Blocking until in place.
    public func onServerChange(_ handler: @escaping (_ owner: String?) -> Void) throws(DBusError) -> Connection.SignalSubscription {
        try connection.onOwnerChange(of: Notifications.object.destination, handler)
    }
}
