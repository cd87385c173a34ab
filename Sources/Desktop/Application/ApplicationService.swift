internal import ComicDomain
public import DBus

/// `org.freedesktop.Application` on the widget's object (DESIGN §6): deep links in, browser out.
/// Every link is validated before any is opened; each opened chapter is announced with
/// `OpenRequested` for reader apps on the bus.
public final class ApplicationService {
    private let widget: WidgetService
    private let opener: ChapterOpener

    public init(widget: WidgetService, opener: ChapterOpener) throws(DBusError) {
        self.widget = widget
        self.opener = opener
        try widget.server.export(interface, at: WidgetBus.objectPath)
    }

    private var interface: Interface {
        Interface(
            WidgetBus.applicationInterface,
            methods: [
                Method("Activate", inputs: Arg<[String: Variant]>("platform_data"), outputs: ()) {
                    [unowned self] (platformData: [String: Variant]) in
                    openCurrent(platformData)
                },
                Method("Open", inputs: (Arg<[String]>("uris"), Arg<[String: Variant]>("platform_data")), outputs: ()) {
                    [unowned self] (uris: [String], platformData: [String: Variant]) in
                    var links: [DeepLink] = []
                    for uri in uris { links.append(try DeepLink(parsing: uri)) } // all first: nothing opens on a bad one
                    for link in links { open(link, platformData) }
                },
                Method("ActivateAction",
                       inputs: (Arg<String>("action_name"), Arg<[Variant]>("parameter"), Arg<[String: Variant]>("platform_data")),
                       outputs: ()) { [unowned self] (name: String, parameter: [Variant], platformData: [String: Variant]) in
                    switch name {
                    case "open-chapter":
                        guard parameter.count == 1, case .int32(let chapter) = parameter[0].value else {
                            throw DBusError.invalidArgs("action 'open-chapter' takes one int32 parameter (the chapter), got \(parameter.map(\.value.signature.rawValue))")
                        }
                        open(try DeepLink(chapter: Int(chapter)), platformData)
                    case "open-current":
                        openCurrent(platformData)
                    default:
                        throw ComicError(.unknownAction, "unknown action '\(name)': the actions are open-chapter and open-current")
                    }
                },
            ]
        )
    }

    private func openCurrent(_ platformData: [String: Variant]) {
        if let stored = widget.stored, let link = try? DeepLink(chapter: stored.number) {
            open(link, platformData)
        } else {
            launch(ComicSite.url(page: nil, language: nil), platformData)
        }
    }

    private func open(_ link: DeepLink, _ platformData: [String: Variant]) {
        widget.server.emit(WidgetService.openRequested, from: WidgetBus.objectPath, interface: WidgetBus.widgetInterface,
                           Int32(link.chapter), link.uri)
        // The page is known only for the chapter being read; other chapters open the chapter list,
        // in the reader's language either way.
        let stored = widget.stored
        let page = stored?.number == link.chapter ? stored?.page : nil
        launch(ComicSite.url(page: page, language: stored?.language), platformData)
    }

    private func launch(_ url: String, _ platformData: [String: Variant]) {
        let token = try? platformData["activation-token"]?.get(String.self)
        let startupID = try? platformData["desktop-startup-id"]?.get(String.self)
        opener.open(url: url, activationToken: token ?? nil, startupID: startupID ?? nil)
    }
}
