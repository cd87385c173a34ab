import ComicDomain
import DBus
import Widget

extension WidgetService {
    /// The service's implementation of `Widget1`: dispatch, argument checking, properties and the
    /// introspection XML come from the declaration, the behaviour from here.
    var widgetInterface: Interface<Widget1> {
        Interface(
            methods: [
                .encoded(Widget1.getCurrentEntry) { [unowned self] in
                    encodedEntry(family: .medium)
                },
                Method(Widget1.getPlaceholder) { [unowned self] family in
                    EntryView.placeholder(family: try WidgetFamily(validating: family), date: clock.unixSeconds()).dbusDictionary
                },
                .encoded(Widget1.getSnapshot) { [unowned self] family in
                    encodedEntry(family: try WidgetFamily(validating: family))
                },
                Method(Widget1.getTimeline) { [unowned self] family in
                    let view = servedView(family: try WidgetFamily(validating: family))
                    return ([view.dbusDictionary], "after", clock.unixSeconds() + SyncEngine.periodicInterval.components.seconds)
                },
                Method(Widget1.reloadTimelines) { [unowned self] kind in
                    try WidgetKind.validate(kind)
                    reloadRequested()
                },
                Method(Widget1.reloadAllTimelines) { [unowned self] in
                    reloadRequested()
                },
                Method(Widget1.updateChapter) { [unowned self] chapter, name, progress, cover, options in
                    try updateChapter(chapter: chapter, name: name, progress: progress, cover: cover, options: options)
                },
                Method(Widget1.updatePage) { [unowned self] page, language, chapter, name, progress, cover, options in
                    try updatePage(page: page, language: language, chapter: chapter, name: name, progress: progress,
                                   cover: cover, options: options)
                },
                Method(Widget1.updateProgress) { [unowned self] progress in
                    try updateProgress(progress)
                },
            ],
            properties: [
                Property(Widget1.kind) { WidgetKind.name },
                Property(Widget1.entry) { [unowned self] in published.dbusDictionary },
                Property(Widget1.lastReload) { [unowned self] in lastReload },
            ] + EntryKeys.properties { [unowned self] in published },
            signals: Widget1.timelinesReloaded, Widget1.openRequested
        )
    }
}
