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
        abstract: "Run one of the application's actions (org.freedesktop.Application), as the tray menu does.",
        discussion: """
            Actions: open-current (the chapter being read), open-chapter NUMBER, open-page NUMBER, \
            open-chapter-list (the site's chapter list). Without an action it activates the \
            application (the chapter being read, or the chapter list when there is none). \
            XDG_ACTIVATION_TOKEN and DESKTOP_STARTUP_ID are handed on, so the browser window gets focus.
            """)

    @Argument(help: "open-current, open-chapter, open-page or open-chapter-list.") var action: String?
    @Argument(help: "The chapter (open-chapter) or page (open-page), 1…99999.") var number: Int?

    /// The action asked for, read as the service reads it (ApplicationAction); nil for `Activate`.
    func requested() throws -> ApplicationAction? {
        guard let action else { return nil }
        let requested: ApplicationAction
        do {
            requested = try ApplicationAction(name: action, parameter: number.map { [Variant(Int32(clamping: $0))] } ?? [])
        } catch let error as DBusError {
            throw ValidationError(error.message)
        } catch let error as ComicError {
            throw ValidationError(error.message)
        }
        switch (requested, number) {
        case (.openChapter, let number?) where !Limits.chapters.contains(number):
            throw ValidationError(gettext("chapter %d is out of range %d…%d", number, Limits.chapters.lowerBound, Limits.chapters.upperBound))
        case (.openPage, let number?) where !Limits.pages.contains(number):
            throw ValidationError(gettext("page %d is out of range %d…%d", number, Limits.pages.lowerBound, Limits.pages.upperBound))
        default:
            return requested
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
