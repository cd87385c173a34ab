import ComicDomain
package import DBus

/// The actions of `org.freedesktop.Application.ActivateAction` (docs/dbus-api.md): the service reads
/// them with `init(name:parameter:)`, the client sends `name` and `parameter`.
package enum ApplicationAction: Sendable, Equatable {
    /// `open-chapter`, parameter one `i`: that chapter.
    case openChapter(Int)
    /// `open-page`, parameter one `i`: that page of the comic (a page link's target).
    case openPage(Int)
    /// `open-current`: the chapter being read ("Continue reading").
    case openCurrent
    /// `open-chapter-list`: the site's chapter list, in the reader's language.
    case openChapterList

    package var name: String {
        switch self {
        case .openChapter: "open-chapter"
        case .openPage: "open-page"
        case .openCurrent: "open-current"
        case .openChapterList: "open-chapter-list"
        }
    }

    package var parameter: [Variant] {
        switch self {
        case .openChapter(let number), .openPage(let number): [Variant(Int32(clamping: number))]
        case .openCurrent, .openChapterList: []
        }
    }

    /// Reads an action as the bus carries it (and as `dbmultiverse activate` names it). An unknown
    /// name is `UnknownAction`; a parameter of the wrong shape (missing, extra, not one `i`)
    /// `InvalidArgs`. Numbers are range-checked by whoever opens them.
    package init(name: String, parameter: [Variant]) throws {
        func number(_ what: String) throws(DBusError) -> Int {
            guard parameter.count == 1, case .int32(let number) = parameter[0].value else {
                throw DBusError.invalidArgs("\(name) needs a \(what) number (one int32 parameter), got \(parameter.map(\.value.signature.rawValue))")
            }
            return Int(number)
        }
        func alone(_ action: ApplicationAction) throws(DBusError) -> ApplicationAction {
            guard parameter.isEmpty else {
                throw DBusError.invalidArgs("\(name) takes no number (no parameter), got \(parameter.map(\.value.signature.rawValue))")
            }
            return action
        }
        switch name {
        case "open-chapter":
            self = .openChapter(try number("chapter"))
        case "open-page":
            self = .openPage(try number("page"))
        case "open-current":
            self = try alone(.openCurrent)
        case "open-chapter-list":
            self = try alone(.openChapterList)
        default:
            throw ComicError(.unknownAction, "unknown action '\(name)': the actions are open-chapter, open-page, open-current and open-chapter-list")
        }
    }
}

/// What lets the opened window take focus: the `platform_data` of `org.freedesktop.Application`'s
/// methods, as far as this application reads it.
package struct LaunchContext: Sendable, Equatable {
    /// Wayland's `XDG_ACTIVATION_TOKEN` (`activation-token`).
    package var activationToken: String?
    /// X11's `DESKTOP_STARTUP_ID` (`desktop-startup-id`).
    package var startupID: String?

    package init(activationToken: String? = nil, startupID: String? = nil) {
        self.activationToken = activationToken
        self.startupID = startupID
    }

    /// From a process's environment: how a launcher hands a token to the program it starts.
    package init(environment: [String: String]) {
        self.init(activationToken: environment["XDG_ACTIVATION_TOKEN"], startupID: environment["DESKTOP_STARTUP_ID"])
    }

    /// The keys of `platform_data` read here.
    static let activationTokenKey = VariantKey<String>("activation-token")
    static let startupIDKey = VariantKey<String>("desktop-startup-id")

    /// From `platform_data`; values of another type than `s` are ignored.
    package init(platformData: [String: Variant]) {
        self.init(activationToken: platformData[Self.activationTokenKey], startupID: platformData[Self.startupIDKey])
    }

    var platformData: [String: Variant] {
        var data: [String: Variant] = [:]
        data[Self.activationTokenKey] = activationToken
        data[Self.startupIDKey] = startupID
        return data
    }
}
