package import DBus
import ComicDomain

/// `org.freedesktop.Notifications` (Desktop Notifications Specification 1.2), the members the
/// notifier uses, and where the desktop's notification server lives.
package enum Notifications: DBusInterface {
    package static let name: InterfaceName = "org.freedesktop.Notifications"
    package static let object = RemoteObject(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications")

    package static let notify = method(
        "Notify",
        inputs: (Arg<String>("app_name"), Arg<UInt32>("replaces_id"), Arg<String>("app_icon"), Arg<String>("summary"),
                 Arg<String>("body"), Arg<[String]>("actions"), Arg<[String: Variant]>("hints"), Arg<Int32>("expire_timeout")),
        outputs: Arg<UInt32>("id"))
    package static let getCapabilities = method("GetCapabilities", inputs: (), outputs: Arg<[String]>("capabilities"))
    package static let closeNotification = method("CloseNotification", inputs: Arg<UInt32>("id"), outputs: ())
    /// The server's name, vendor and version, and the specification version it implements.
    package static let getServerInformation = method(
        "GetServerInformation", inputs: (),
        outputs: (Arg<String>("name"), Arg<String>("vendor"), Arg<String>("version"), Arg<String>("spec_version")))

    package static let actionInvoked = signal("ActionInvoked", Arg<UInt32>("id"), Arg<String>("action_key"))
    package static let notificationClosed = signal("NotificationClosed", Arg<UInt32>("id"), Arg<UInt32>("reason"))
    /// Specification 1.3: sent just before `ActionInvoked`.
    package static let activationToken = signal("ActivationToken", Arg<UInt32>("id"), Arg<String>("activation_token"))
}

/// The arguments of `Notify(s app_name, u replaces_id, s app_icon, s summary, s body, as actions,
/// a{sv} hints, i expire_timeout)`, in wire order.
package struct NotificationRequest: Sendable, Equatable {
    package var appName: String
    /// The id of the notification this one replaces in place, or 0 for a new one.
    package var replacesID: UInt32
    /// An icon-theme name or a `file://` URI; "" for none.
    package var appIcon: String
    /// Plain text: the specification gives the summary no markup.
    package var summary: String
    /// May hold the server's body markup when it advertises `body-markup` (see `body(_:for:)`).
    package var body: String
    /// Flat pairs as on the wire: key, label, key, label… (`"default"` is the click on the bubble).
    package var actions: [String]
    /// `urgency` (`y`), `category` (`s`), `desktop-entry` (`s`), `image-path` (`s`), …
    package var hints: [String: Variant]
    /// Milliseconds; -1 lets the server choose, 0 never expires.
    package var expireTimeout: Int32

    /// `text` as a body for a server with `capabilities`: escaped (`&`, `<`, `>`) for one that
    /// advertises `body-markup`, as it is for one that does not — the specification has those
    /// show the body as plain text, so an entity would show as typed (`&lt;b&gt;`).
    static func body(_ text: String, for capabilities: Set<String>) -> String {
        capabilities.contains("body-markup") ? escapedForMarkup(text) : text
    }

    package init(
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
    func notifyCall() -> MethodCall<UInt32> {
        Notifications.notify.call(on: Notifications.object, appName, replacesID, appIcon, summary, body, actions, hints, expireTimeout)
    }
}

/// Why a notification closed (`NotificationClosed`'s `reason`). Unknown values are kept as they came.
package struct NotificationCloseReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package var rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }
    static let expired = NotificationCloseReason(rawValue: 1)
    static let dismissed = NotificationCloseReason(rawValue: 2)
    package var description: String {
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
package enum NotificationSignal: Sendable, Equatable {
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
final class NotificationsClient {
    let connection: Connection

    init(connection: Connection) { self.connection = connection }

    /// `Notify`: shows (or replaces) a notification; completes with its id.
    @discardableResult
    func notify(
        _ request: NotificationRequest, timeout: Duration = .seconds(25),
        completion: @escaping (Result<UInt32, DBusError>) -> Void
    ) -> Connection.PendingCall {
        connection.call(request.notifyCall(), timeout: timeout, completion: completion)
    }

    /// `GetCapabilities`: `actions`, `body`, `body-markup`, `icon-static`, `persistence`, …
    @discardableResult
    func getCapabilities(
        timeout: Duration = .seconds(25), completion: @escaping (Result<[String], DBusError>) -> Void
    ) -> Connection.PendingCall {
        connection.call(Notifications.getCapabilities.call(on: Notifications.object), timeout: timeout, completion: completion)
    }

    /// `CloseNotification`: takes the notification `id` down (the server then emits
    /// `NotificationClosed` with reason 3).
    @discardableResult
    func closeNotification(
        _ id: UInt32, timeout: Duration = .seconds(25), completion: @escaping (Result<Void, DBusError>) -> Void
    ) -> Connection.PendingCall {
        connection.call(Notifications.closeNotification.call(on: Notifications.object, id), timeout: timeout, completion: completion)
    }

    /// Delivers the server's signals, only from the current owner of its name; a signal with
    /// other arguments than the specification's goes to `onMalformed`. Blocking until in place.
    func subscribe(
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
    func onServerChange(_ handler: @escaping (_ owner: String?) -> Void) throws(DBusError) -> Connection.SignalSubscription {
        try connection.onOwnerChange(of: Notifications.object.destination, handler)
    }
}
