import ComicDomain
import DBus
import Widget

/// `org.freedesktop.Application` on the widget's object (docs/dbus-api.md): deep links in, browser out.
/// Every link is validated before any is opened; each opened chapter or page is announced with
/// `OpenRequested` for reader apps on the bus.
final class ApplicationService {
    private let widget: WidgetService
    private let opener: ChapterOpener
    private var exported: ExportedInterface<FreedesktopApplication>?

    init(widget: WidgetService, opener: ChapterOpener) throws(DBusError) {
        self.widget = widget
        self.opener = opener
        exported = try widget.server.export(interface, at: WidgetBus.objectPath)
    }

    private var interface: Interface<FreedesktopApplication> {
        Interface(
            methods: [
                Method(FreedesktopApplication.activate) { [unowned self] platformData in
                    openCurrent(LaunchContext(platformData: platformData))
                },
                Method(FreedesktopApplication.open) { [unowned self] uris, platformData in
                    var links: [ComicLink] = []
                    for uri in uris { links.append(try ComicLink(parsing: uri)) } // all first: nothing opens on a bad one
                    for link in links { open(link, LaunchContext(platformData: platformData)) }
                },
                Method(FreedesktopApplication.activateAction) { [unowned self] name, parameter, platformData in
                    let context = LaunchContext(platformData: platformData)
                    switch try ApplicationAction(name: name, parameter: parameter) {
                    case .openChapter(let chapter): open(.chapter(try DeepLink(chapter: chapter)), context)
                    case .openPage(let page): open(try ComicLink(page: page), context)
                    case .openCurrent: openCurrent(context)
                    case .openChapterList: launch(ComicSite.url(page: nil, language: widget.language.code, origin: opener.origin), context)
                    }
                },
            ]
        )
    }

    /// The chapter being read: the current entry's deep link (ChapterEntry.deepLink decides a
    /// special's page link); the chapter list with nothing read yet.
    private func openCurrent(_ context: LaunchContext) {
        // Nothing read yet, or a link that does not parse (then there is no page of it to open): the site.
        guard widget.stored != nil, let link = try? ComicLink(parsing: widget.currentEntry(family: .medium).deepLink) else {
            launch(ComicSite.url(page: nil, language: widget.language.code, origin: opener.origin), context)
            return
        }
        open(link, context)
    }

    private func open(_ link: ComicLink, _ context: LaunchContext) {
        widget.announceOpen(link)
        let stored = widget.stored
        let page: Int? = switch link {
        case .page(let page): page
        // The page is known only for the main-story chapter being read; other chapters open the
        // chapter list, in the reader's language either way.
        case .chapter(let chapter): stored?.isChapter(chapter.chapter, universe: nil) == true ? stored?.page : nil
        }
        launch(ComicSite.url(page: page, language: widget.language.code, origin: opener.origin), context)
    }

    private func launch(_ url: String, _ context: LaunchContext) {
        opener.open(url: url, activationToken: context.activationToken, startupID: context.startupID)
    }
}
