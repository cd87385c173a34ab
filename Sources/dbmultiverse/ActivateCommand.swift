import ArgumentParser
import ComicDomain
import DBus
import Widget

/// `activate [ACTION [NUMBER]]`: the application's actions (DESIGN §6, §14) from the command line,
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
    // Text, read by the deep links' rule (no sign, no leading zero); `-1` is taken as the number
    // it is, not as an option, so it is said to be out of range.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The chapter (open-chapter) or page (open-page), 1…99999.", valueName: "number"))
    var numbers: [String] = []

    private var number: String? { numbers.first }

    /// The action asked for; nil for `Activate`.
    func requested() throws -> ApplicationAction? {
        if numbers.count > 1 { throw ValidationError("unexpected argument '\(numbers[1])': an action takes at most one number") }
        func numbered(_ what: String) throws -> Int {
            guard let number else { throw ValidationError("\(action ?? "") needs a \(what) number") }
            do {
                return try DeepLink.plainNumber(number, what: what)
            } catch {
                throw ValidationError(error.message)
            }
        }
        func alone(_ action: ApplicationAction) throws -> ApplicationAction {
            if let number { throw ValidationError("\(action.name) takes no number (got \(number))") }
            return action
        }
        switch action {
        case nil: return nil
        case "open-chapter": return .openChapter(try numbered("chapter"))
        case "open-page": return .openPage(try numbered("page"))
        case "open-current": return try alone(.openCurrent)
        case "open-chapter-list": return try alone(.openChapterList)
        case let other?:
            throw ValidationError("unknown action '\(other)': the actions are open-current, open-chapter NUMBER, open-page NUMBER and open-chapter-list")
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
