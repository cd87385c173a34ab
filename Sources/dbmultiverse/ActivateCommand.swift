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
    @Argument(help: "The chapter (open-chapter) or page (open-page), 1…99999.") var number: Int?

    /// The action asked for; nil for `Activate`.
    func requested() throws -> ApplicationAction? {
        func numbered(_ what: String, _ range: ClosedRange<Int>) throws -> Int {
            guard let number else { throw ValidationError("\(action ?? "") needs a \(what) number") }
            guard range.contains(number) else {
                throw ValidationError("\(what) \(number) is out of range \(range.lowerBound)…\(range.upperBound)")
            }
            return number
        }
        func alone(_ action: ApplicationAction) throws -> ApplicationAction {
            if let number { throw ValidationError("\(action.name) takes no number (got \(number))") }
            return action
        }
        switch action {
        case nil: return nil
        case "open-chapter": return .openChapter(try numbered("chapter", Limits.chapters))
        case "open-page": return .openPage(try numbered("page", Limits.pages))
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
