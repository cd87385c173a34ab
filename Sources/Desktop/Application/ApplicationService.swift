internal import ComicDomain
public import DBus

/// `org.freedesktop.Application` on the widget's object (DESIGN §6): deep links in, browser out.
/// Every link is validated before any is opened; each opened chapter is announced with
/// `OpenRequested` for reader apps on the bus.
public final class ApplicationService {
    private let widget: WidgetService
    private let opener: ChapterOpener
    private var exported: ExportedInterface<FreedesktopApplication>?

    public init(widget: WidgetService, opener: ChapterOpener) throws(DBusError) {
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
                    var links: [DeepLink] = []
                    for uri in uris { links.append(try DeepLink(parsing: uri)) } // all first: nothing opens on a bad one
                    for link in links { open(link, LaunchContext(platformData: platformData)) }
                },
                Method(FreedesktopApplication.activateAction) { [unowned self] name, parameter, platformData in
                    let context = LaunchContext(platformData: platformData)
                    switch try ApplicationAction(name: name, parameter: parameter) {
                    case .openChapter(let chapter): open(try DeepLink(chapter: chapter), context)
                    case .openCurrent: openCurrent(context)
                    case .openChapterList: launch(ComicSite.url(page: nil, language: widget.stored?.language), context)
                    }
                },
            ]
        )
    }

    private func openCurrent(_ context: LaunchContext) {
        if let stored = widget.stored, let link = try? DeepLink(chapter: stored.number) {
            open(link, context)
        } else {
            launch(ComicSite.url(page: nil, language: nil), context)
        }
    }

    private func open(_ link: DeepLink, _ context: LaunchContext) {
        widget.announceOpen(link)
        // The page is known only for the chapter being read; other chapters open the chapter list,
        // in the reader's language either way.
        let stored = widget.stored
        let page = stored?.number == link.chapter ? stored?.page : nil
        launch(ComicSite.url(page: page, language: stored?.language), context)
    }

    private func launch(_ url: String, _ context: LaunchContext) {
        opener.open(url: url, activationToken: context.activationToken, startupID: context.startupID)
    }
}
