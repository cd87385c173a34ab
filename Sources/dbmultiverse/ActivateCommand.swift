import ArgumentParser
import ComicDomain
import DBus
import Widget
import Localization

/// `activate [ACTION [NUMBER]]`: the application's actions (docs/dbus-api.md) from the command line,
/// as the tray menu and the Plasma card run them.
struct ActivateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activate",
        // TRANSLATORS: `activate --help`: org.freedesktop.Application is a D-Bus name, kept as it is.
        abstract: gettext("Run one of the application's actions (org.freedesktop.Application), as the tray menu does."),
        // TRANSLATORS: the action names (open-current, open-chapter, open-page, open-chapter-list),
        // NUMBER and the variables XDG_ACTIVATION_TOKEN and DESKTOP_STARTUP_ID stay as they are.
        discussion: gettext("Actions: open-current (the chapter being read), open-chapter NUMBER, open-page NUMBER, open-chapter-list (the site's chapter list). Without an action it activates the application (the chapter being read, or the chapter list when there is none). XDG_ACTIVATION_TOKEN and DESKTOP_STARTUP_ID are handed on, so the browser window gets focus."))

    // TRANSLATORS: the action names stay as they are: only "or" is translated.
    @Argument(help: ArgumentHelp(gettext("open-current, open-chapter, open-page or open-chapter-list."))) var action: String?
    // Text, read by the deep links' rule (no sign, no leading zero); `-1` is taken as the number
    // it is, not as an option, so it is said to be out of range.
    // TRANSLATORS: open-chapter and open-page are action names, kept as they are.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp(gettext("The chapter (open-chapter) or page (open-page), 1…99999."), valueName: "number"))
    var numbers: [String] = []

    private var number: String? { numbers.first }

    /// The action asked for, read as the service reads it (ApplicationAction); nil for `Activate`.
    func requested() throws -> ApplicationAction? {
        guard let action else { return nil }
        if numbers.count > 1 {
            // TRANSLATORS: `activate` was given two numbers; %s is the second.
            throw ValidationError(gettext("unexpected argument '%s': an action takes at most one number", numbers[1]))
        }
        // The number by the deep links' rule (no sign, no leading zero, in range), then the action
        // as the service reads it (ApplicationAction: its names, and which take a number).
        var parameter: [Variant] = []
        if let number {
            do {
                parameter = [Variant(Int32(try DeepLink.plainNumber(number, what: action == "open-page" ? "page" : "chapter")))]
            } catch {
                throw ValidationError(error.message)
            }
        }
        do {
            return try ApplicationAction(name: action, parameter: parameter)
        } catch let error as DBusError {
            throw ValidationError(error.message)
        } catch let error as ComicError {
            throw ValidationError(error.message)
        }
    }

    func validate() throws {
        _ = try requested()
    }

    func run() throws {
        let launch = LaunchContext(environment: environment())
        let widget = WidgetClient()
        if let action = try requested() {
            try BlockingCaller().call(widget.activateAction(action, launch))
        } else {
            try BlockingCaller().call(widget.activate(launch))
        }
    }
}
