/// Why a reload is signalled; the `reason` argument of `TimelinesReloaded`. A reason this
/// version does not know (a later service's) is kept as sent, as NotificationCloseReason does.
package struct ReloadReason: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }

    package static let chapterChange = ReloadReason(rawValue: "chapter-change")
    static let progressChange = ReloadReason(rawValue: "progress-change")
    static let requested = ReloadReason(rawValue: "requested")
    static let periodic = ReloadReason(rawValue: "periodic")
    /// The catalogue's latest page grew (docs/notifications.md): new pages were published.
    package static let pagesPublished = ReloadReason(rawValue: "pages-published")

    /// The reasons this version signals.
    package static let allCases: [ReloadReason] = [.chapterChange, .progressChange, .requested, .periodic, .pagesPublished]

    package var description: String { rawValue }
}

/// A reload the caller must perform: write `widgetSyncState.json` (or remove it when `state`
/// is nil), update the properties, and emit `TimelinesReloaded` once.
package struct Reload: Sendable, Equatable {
    /// Why.
    package var reason: ReloadReason
    /// The state signalled; nil means no current chapter (the placeholder).
    package var state: SyncState?

    /// A reload of `state` for `reason`.
    init(reason: ReloadReason, state: SyncState?) {
        self.reason = reason
        self.state = state
    }
}

/// The widget's sync rules (docs/dbus-api.md#the-sync-rules, docs/notifications.md) as a pure state machine: no I/O, no timers, no clock.
///
/// The caller feeds it what happened together with the current monotonic instant, performs
/// every returned `Reload`, and keeps one event-loop timer armed at `nextDeadline`, calling
/// `timerFired` when it expires. Every returned reload is considered done: the engine records
/// its state as `lastSynced`, re-arms the hourly deadline an hour later and drops any pending
/// debounce (a reload always carries the latest state).
package struct SyncEngine: Sendable {
    /// How long progress changes are debounced; each change restarts the wait.
    static let debounce: Duration = .seconds(2)
    /// The fallback refresh after the last reload (the timeline's `.after(1 hour)`).
    package static let periodicInterval: Duration = .seconds(3600)
    /// The progress movement, in points, that deserves a reload (reaching 100 always does).
    static let progressThreshold = 5

    /// The state of the last reload (as in `widgetSyncState.json`); nil when nothing is synced
    /// or the last reload showed the placeholder.
    private(set) var lastSynced: SyncState?
    /// The state in storage, as last reported; nil when there is no current chapter.
    private(set) var current: SyncState?
    /// When the pending progress debounce ends, if one is pending.
    private(set) var debounceDeadline: MonotonicInstant?
    /// When the hourly reload is due.
    private(set) var periodicDeadline: MonotonicInstant

    /// An engine that last synced `lastSynced` (read from `widgetSyncState.json`, nil when
    /// missing or invalid). The hourly deadline is armed at `now` + 1 h; call `start` next.
    package init(lastSynced: SyncState?, now: MonotonicInstant) {
        self.lastSynced = lastSynced
        self.current = nil
        self.debounceDeadline = nil
        self.periodicDeadline = now + Self.periodicInterval
    }

    /// When the caller's timer must fire next: the earlier of the debounce and hourly deadlines.
    package var nextDeadline: MonotonicInstant? {
        guard let debounceDeadline else { return periodicDeadline }
        return min(debounceDeadline, periodicDeadline)
    }

    /// At start: compares storage (`current`) with `lastSynced` and handles a difference like a
    /// change made while running: another chapter (or a chapter with nothing synced, or no
    /// chapter where one was synced) reloads at once with `chapter-change`; a latest page that
    /// grew meanwhile (pages published while the service was down) with `pages-published`; the
    /// same chapter with other progress starts the debounce (the progress rule then decides);
    /// equal states do nothing.
    package mutating func start(current: SyncState?, now: MonotonicInstant) -> Reload? {
        // Until storage says otherwise, it holds what was last synced.
        self.current = lastSynced
        return storageChanged(current, now: now)
    }

    /// Storage now holds `state` (a change noticed by watching the folder — the chapter data or
    /// the catalogue —, a page stored by `UpdatePage`, or storage re-read), nil when there is no
    /// valid chapter. Applies the rules in this order:
    /// - nil → `chapterCleared(now:)`;
    /// - same as `current` → nothing (e.g. the echo of our own write);
    /// - chapter rule: (universe, chapter) differs from `lastSynced` (or none synced) →
    ///   `chapter-change` at once;
    /// - pages rule: the latest page of the same language's catalogue grew past `lastSynced`'s →
    ///   `pages-published` at once; any other change of the latest page (a first catalogue, one
    ///   gone, a rollback, another language's) changes the entry's counts without new pages →
    ///   `requested` at once;
    /// - same chapter, other progress → the progress rule (debounced), nothing now.
    package mutating func storageChanged(_ state: SyncState?, now: MonotonicInstant) -> Reload? {
        guard let state else { return chapterCleared(now: now) }
        guard state != current else { return nil }
        if !state.isSameChapter(as: lastSynced) {
            current = state
            return reload(.chapterChange, now: now)
        }
        if let reason = Self.pagesReason(state.latestPage, since: lastSynced?.latestPage) {
            current = state
            return reload(reason, now: now)
        }
        progressUpdated(state, now: now)
        return nil
    }

    /// `UpdateChapter` stored `state`: reload at once, `chapter-change` when the chapter differs
    /// from `lastSynced` (or nothing is synced), else `requested`. Cancels a pending debounce.
    package mutating func chapterUpdated(_ state: SyncState, now: MonotonicInstant) -> Reload {
        current = state
        return reload(state.isSameChapter(as: lastSynced) ? .requested : .chapterChange, now: now)
    }

    /// `UpdateProgress` stored `state`: (re)starts the debounce; `timerFired` decides later.
    package mutating func progressUpdated(_ state: SyncState, now: MonotonicInstant) {
        current = state
        debounceDeadline = now + Self.debounce
    }

    /// `ReloadTimelines` / `ReloadAllTimelines`: reload `current` (storage just re-read) at once
    /// with reason `requested`.
    package mutating func reloadRequested(current: SyncState?, now: MonotonicInstant) -> Reload {
        self.current = current
        return reload(.requested, now: now)
    }

    /// Storage has no valid chapter any more (file removed or invalid). Cancels a pending
    /// debounce. When a chapter was synced, the widget must fall back to the placeholder: returns
    /// a `chapter-change` reload with a nil state (the caller removes `widgetSyncState.json`);
    /// otherwise nothing.
    mutating func chapterCleared(now: MonotonicInstant) -> Reload? {
        current = nil
        debounceDeadline = nil
        guard lastSynced != nil else { return nil }
        return reload(.chapterChange, now: now)
    }

    /// The caller's timer fired at `now`. Returns the reloads that are due, in order:
    /// - debounce due: `progress-change` if `current` progress moved at least
    ///   `progressThreshold` points from `lastSynced`, or reached 100 (and differs); a chapter
    ///   that differs from `lastSynced` (a change that skipped the chapter rule) reloads as
    ///   `chapter-change`; otherwise nothing, and the debounce is dropped.
    /// - hourly deadline due: `periodic` reload of `current`, unless a reload was just returned
    ///   (the hour counts from the last reload, and that one re-armed it).
    ///
    /// So at most one reload in practice; the array keeps callers simple. Calling it early is
    /// harmless: nothing is due, nothing happens.
    package mutating func timerFired(now: MonotonicInstant) -> [Reload] {
        var reloads: [Reload] = []
        if let deadline = debounceDeadline, deadline <= now {
            debounceDeadline = nil
            if let reason = progressReason() {
                reloads.append(reload(reason, now: now))
            }
        }
        if reloads.isEmpty, periodicDeadline <= now {
            reloads.append(reload(.periodic, now: now))
        }
        return reloads
    }

    /// `timerFired(now:)` after storage was re-read: `current` replaces the engine's view first
    /// (no rule is applied to the difference; the due reloads carry it).
    package mutating func timerFired(now: MonotonicInstant, current: SyncState?) -> [Reload] {
        self.current = current
        return timerFired(now: now)
    }

    /// The pages rule: `pages-published` when `latest` is the same language's latest page grown
    /// past `synced`; `requested` for any other difference; nil when they are equal.
    private static func pagesReason(_ latest: SyncState.LatestPage?, since synced: SyncState.LatestPage?) -> ReloadReason? {
        guard latest != synced else { return nil }
        if let latest, let synced, latest.language == synced.language, latest.page > synced.page { return .pagesPublished }
        return .requested
    }

    /// The reason the ended debounce deserves, or nil when the progress rule says nothing.
    private func progressReason() -> ReloadReason? {
        guard let current else { return nil }
        guard let last = lastSynced, current.isSameChapter(as: last) else { return .chapterChange }
        guard current.progress != last.progress else { return nil }
        // States are not range-checked here, so compute the distance without overflowing.
        let (difference, overflow) = current.progress.subtractingReportingOverflow(last.progress)
        let moved = overflow ? UInt.max : difference.magnitude
        return moved >= UInt(Self.progressThreshold) || current.progress == Limits.progress.upperBound ? .progressChange : nil
    }

    /// Records a reload of `current` as done.
    private mutating func reload(_ reason: ReloadReason, now: MonotonicInstant) -> Reload {
        lastSynced = current
        debounceDeadline = nil
        periodicDeadline = now + Self.periodicInterval
        return Reload(reason: reason, state: current)
    }
}
