@testable import ComicDomain
import Testing

/// A fake monotonic time line: `at(seconds)` is that many seconds after an arbitrary origin.
private func at(_ seconds: Double) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: 1_000_000_000_000 + Int64(seconds * 1_000_000_000))
}

private func state(_ chapter: Int, _ progress: Int) -> SyncState {
    SyncState(chapter: chapter, progress: progress)
}

@Suite("Sync rules", .timeLimit(.minutes(1)))
struct SyncEngineTests {
    /// An engine that has just synced chapter 42 at `progress`, at time 0.
    private func engine(syncedProgress progress: Int = 30) -> SyncEngine {
        var engine = SyncEngine(lastSynced: state(42, progress), now: at(0))
        #expect(engine.start(current: state(42, progress), now: at(0)) == nil)
        return engine
    }

    @Test func constantsMatchTheContract() {
        #expect(SyncEngine.debounce == .seconds(2))
        #expect(SyncEngine.periodicInterval == .seconds(3600))
        #expect(SyncEngine.progressThreshold == 5)
        #expect(ReloadReason.allCases.map(\.rawValue) == ["chapter-change", "progress-change", "requested", "periodic", "pages-published"])
    }

    // MARK: Chapter rule

    @Test func chapterChangeReloadsAtOnce() {
        var engine = engine()
        let reload = engine.chapterUpdated(state(43, 0), now: at(10))
        #expect(reload == Reload(reason: .chapterChange, state: state(43, 0)))
        #expect(engine.lastSynced == state(43, 0))
        #expect(engine.nextDeadline == at(10 + 3600), "the hour counts from this reload")
    }

    @Test func sameChapterUpdateIsARequestedReload() {
        var engine = engine()
        #expect(engine.chapterUpdated(state(42, 31), now: at(1)) == Reload(reason: .requested, state: state(42, 31)))
        #expect(engine.lastSynced == state(42, 31))
    }

    @Test func firstChapterEverIsAChapterChange() {
        var engine = SyncEngine(lastSynced: nil, now: at(0))
        #expect(engine.start(current: nil, now: at(0)) == nil)
        #expect(engine.chapterUpdated(state(1, 0), now: at(1)) == Reload(reason: .chapterChange, state: state(1, 0)))
    }

    @Test func chapterChangeCancelsAPendingDebounce() {
        var engine = engine()
        engine.progressUpdated(state(42, 50), now: at(1))
        #expect(engine.nextDeadline == at(3))
        #expect(engine.chapterUpdated(state(43, 0), now: at(2)) == Reload(reason: .chapterChange, state: state(43, 0)))
        #expect(engine.debounceDeadline == nil)
        #expect(engine.nextDeadline == at(3602))
        #expect(engine.timerFired(now: at(3)).isEmpty, "no progress reload after the chapter changed")
    }

    // MARK: Progress rule

    @Test func burstOfProgressUpdatesGivesOneReloadTwoSecondsAfterTheLast() {
        var engine = engine(syncedProgress: 30)
        var instant = 0.0
        for progress in 31...40 {
            instant += 0.5
            engine.progressUpdated(state(42, progress), now: at(instant))
            #expect(engine.nextDeadline == at(instant + 2), "each change restarts the wait")
            // The loop's timer never fires inside a burst: the previous deadline moved away.
            #expect(engine.timerFired(now: at(instant + 0.25)).isEmpty)
        }
        #expect(instant == 5)
        #expect(engine.timerFired(now: at(6.999)).isEmpty, "not before 2 s after the last change")
        #expect(engine.timerFired(now: at(7)) == [Reload(reason: .progressChange, state: state(42, 40))])
        #expect(engine.lastSynced == state(42, 40))
        #expect(engine.nextDeadline == at(3607))
        #expect(engine.timerFired(now: at(8)).isEmpty, "exactly one reload")
    }

    @Test(arguments: [
        (30, 34, false), (30, 26, false), (30, 30, false),
        (30, 35, true), (30, 25, true), (30, 0, true),
        (97, 100, true), (99, 100, true), (100, 100, false), (100, 97, false),
        (0, 4, false), (0, 5, true),
    ])
    func progressReloadNeedsFivePointsOrReaching100(synced: Int, progress: Int, reloads: Bool) {
        var engine = engine(syncedProgress: synced)
        engine.progressUpdated(state(42, progress), now: at(1))
        let reloadsFired = engine.timerFired(now: at(3))
        #expect(reloadsFired == (reloads ? [Reload(reason: .progressChange, state: state(42, progress))] : []))
        #expect(engine.lastSynced == state(42, reloads ? progress : synced))
        #expect(engine.debounceDeadline == nil, "the debounce is dropped either way")
        #expect(engine.nextDeadline == at(reloads ? 3603 : 3600))
    }

    @Test func smallStepsAccumulateAgainstTheLastSyncedProgress() {
        var engine = engine(syncedProgress: 30)
        engine.progressUpdated(state(42, 33), now: at(1))
        #expect(engine.timerFired(now: at(3)).isEmpty)
        engine.progressUpdated(state(42, 35), now: at(10))
        #expect(engine.timerFired(now: at(12)) == [Reload(reason: .progressChange, state: state(42, 35))])
    }

    @Test func requestedReloadCarriesTheLatestProgressAndDropsTheDebounce() {
        var engine = engine(syncedProgress: 30)
        engine.progressUpdated(state(42, 50), now: at(1))
        #expect(engine.reloadRequested(current: state(42, 50), now: at(2)) == Reload(reason: .requested, state: state(42, 50)))
        #expect(engine.debounceDeadline == nil)
        #expect(engine.timerFired(now: at(3)).isEmpty)
    }

    // MARK: Periodic rule

    @Test func periodicReloadAfterExactlyAnHourWithoutReloads() {
        var engine = engine()
        #expect(engine.nextDeadline == at(3600))
        #expect(engine.timerFired(now: at(3599.999)).isEmpty)
        #expect(engine.timerFired(now: at(3600)) == [Reload(reason: .periodic, state: state(42, 30))])
        #expect(engine.nextDeadline == at(7200), "re-armed after the periodic reload itself")
    }

    @Test func periodicDeadlineIsReArmedByEveryReload() {
        var engine = engine()
        _ = engine.reloadRequested(current: state(42, 30), now: at(1800))
        #expect(engine.nextDeadline == at(5400))
        #expect(engine.timerFired(now: at(3600)).isEmpty)
        _ = engine.chapterUpdated(state(43, 0), now: at(4000))
        engine.progressUpdated(state(43, 10), now: at(5000))
        #expect(engine.timerFired(now: at(5002)) == [Reload(reason: .progressChange, state: state(43, 10))])
        #expect(engine.nextDeadline == at(8602))
        #expect(engine.timerFired(now: at(8602)) == [Reload(reason: .periodic, state: state(43, 10))])
    }

    @Test func periodicReloadUsesTheReReadStorage() {
        var engine = engine()
        #expect(engine.timerFired(now: at(3600), current: nil) == [Reload(reason: .periodic, state: nil)])
        #expect(engine.lastSynced == nil)
        #expect(engine.current == nil)
    }

    @Test func dueDebounceAndHourGiveOneReload() {
        var engine = engine(syncedProgress: 30)
        engine.progressUpdated(state(42, 60), now: at(3598))
        #expect(engine.nextDeadline == at(3600))
        #expect(engine.timerFired(now: at(3600)) == [Reload(reason: .progressChange, state: state(42, 60))])
        #expect(engine.nextDeadline == at(7200))
        // When the progress rule says nothing, the hour still reloads.
        engine.progressUpdated(state(42, 61), now: at(7198))
        #expect(engine.timerFired(now: at(7200)) == [Reload(reason: .periodic, state: state(42, 61))])
    }

    @Test func nextDeadlineIsTheEarlierOne() {
        var engine = engine()
        #expect(engine.nextDeadline == at(3600))
        engine.progressUpdated(state(42, 31), now: at(100))
        #expect(engine.nextDeadline == at(102))
        #expect(engine.periodicDeadline == at(3600))
        #expect(engine.debounceDeadline == at(102))
        _ = engine.timerFired(now: at(102))
        #expect(engine.nextDeadline == at(3600))
    }

    // MARK: Start

    @Test func startCatchesUpAChapterChangedWhileStopped() {
        var engine = SyncEngine(lastSynced: state(41, 100), now: at(0))
        #expect(engine.start(current: state(42, 10), now: at(0)) == Reload(reason: .chapterChange, state: state(42, 10)))
        #expect(engine.lastSynced == state(42, 10))
    }

    @Test func startWithNothingSyncedYetReloadsAStoredChapter() {
        var engine = SyncEngine(lastSynced: nil, now: at(0))
        #expect(engine.start(current: state(5, 50), now: at(0)) == Reload(reason: .chapterChange, state: state(5, 50)))
    }

    @Test func startAppliesTheProgressRuleToProgressChangedWhileStopped() {
        var engine = SyncEngine(lastSynced: state(42, 30), now: at(0))
        #expect(engine.start(current: state(42, 50), now: at(0)) == nil)
        #expect(engine.nextDeadline == at(2))
        #expect(engine.timerFired(now: at(2)) == [Reload(reason: .progressChange, state: state(42, 50))])

        var quiet = SyncEngine(lastSynced: state(42, 30), now: at(0))
        #expect(quiet.start(current: state(42, 32), now: at(0)) == nil)
        #expect(quiet.timerFired(now: at(2)).isEmpty, "less than 5 points: nothing")
    }

    @Test func startWithEqualStatesDoesNothing() {
        var engine = SyncEngine(lastSynced: state(42, 30), now: at(0))
        #expect(engine.start(current: state(42, 30), now: at(0)) == nil)
        #expect(engine.nextDeadline == at(3600))
        #expect(engine.current == state(42, 30))
    }

    @Test func startWithNoChapterLeftShowsThePlaceholder() {
        var engine = SyncEngine(lastSynced: state(42, 30), now: at(0))
        #expect(engine.start(current: nil, now: at(0)) == Reload(reason: .chapterChange, state: nil))
        #expect(engine.lastSynced == nil)
        var fresh = SyncEngine(lastSynced: nil, now: at(0))
        #expect(fresh.start(current: nil, now: at(0)) == nil)
    }

    // MARK: Storage changes seen by the folder watch

    @Test func storageChangesFollowTheUpdateRules() {
        var engine = engine(syncedProgress: 30)
        #expect(engine.storageChanged(state(42, 30), now: at(1)) == nil, "our own write echoed back")
        #expect(engine.storageChanged(state(42, 45), now: at(2)) == nil)
        #expect(engine.nextDeadline == at(4))
        #expect(engine.storageChanged(state(44, 0), now: at(3)) == Reload(reason: .chapterChange, state: state(44, 0)))
        #expect(engine.debounceDeadline == nil)
        #expect(engine.storageChanged(nil, now: at(5)) == Reload(reason: .chapterChange, state: nil))
        #expect(engine.storageChanged(nil, now: at(6)) == nil, "already showing the placeholder")
        #expect(engine.storageChanged(state(44, 0), now: at(7)) == Reload(reason: .chapterChange, state: state(44, 0)))
    }

    @Test func clearingCancelsThePendingDebounce() {
        var engine = engine()
        engine.progressUpdated(state(42, 90), now: at(1))
        #expect(engine.chapterCleared(now: at(2)) == Reload(reason: .chapterChange, state: nil))
        #expect(engine.debounceDeadline == nil)
        #expect(engine.timerFired(now: at(3)).isEmpty)
        #expect(engine.chapterCleared(now: at(4)) == nil)
    }

    // MARK: Specials (docs/usage.md#the-comics-site): a chapter is (universe, chapter)

    @Test func theSameNumberInASpecialIsAnotherChapter() {
        var engine = engine()
        let special = SyncState(chapter: 42, progress: 30, universe: 3)
        #expect(engine.storageChanged(special, now: at(1)) == Reload(reason: .chapterChange, state: special))
        #expect(engine.chapterUpdated(state(42, 30), now: at(2)) == Reload(reason: .chapterChange, state: state(42, 30)),
                "back to the main story's chapter 42")
        // Within the special, progress is debounced as anywhere.
        _ = engine.storageChanged(special, now: at(3))
        let further = SyncState(chapter: 42, progress: 80, universe: 3)
        #expect(engine.storageChanged(further, now: at(4)) == nil)
        #expect(engine.timerFired(now: at(6)) == [Reload(reason: .progressChange, state: further)])
    }

    // MARK: Pages rule (docs/notifications.md)

    private func reading(_ progress: Int, latest: Int?, language: String = "en") -> SyncState {
        SyncState(chapter: 42, progress: progress, latestPage: latest.map { .init(page: $0, language: language) })
    }

    /// An engine that synced chapter 42 at 30 % with the catalogue's latest page at 980.
    private func engineWithCatalogue() -> SyncEngine {
        var engine = SyncEngine(lastSynced: reading(30, latest: 980), now: at(0))
        #expect(engine.start(current: reading(30, latest: 980), now: at(0)) == nil)
        return engine
    }

    @Test func aGrowingLatestPageIsPagesPublishedAtOnce() {
        var engine = engineWithCatalogue()
        engine.progressUpdated(reading(40, latest: 980), now: at(1))
        let published = engine.storageChanged(reading(40, latest: 983), now: at(2))
        #expect(published == Reload(reason: .pagesPublished, state: reading(40, latest: 983)), "carrying the progress too")
        #expect(engine.debounceDeadline == nil, "the pending progress went with it")
        #expect(engine.lastSynced == reading(40, latest: 983))
        #expect(engine.storageChanged(reading(40, latest: 983), now: at(3)) == nil, "once per latest page")
    }

    @Test func aLatestPageThatFallsAppearsOrChangesLanguageIsNoNewPages() {
        var engine = engineWithCatalogue()
        #expect(engine.storageChanged(reading(30, latest: 975), now: at(1)) == Reload(reason: .requested, state: reading(30, latest: 975)),
                "a rollback: the counts change, nothing is published")
        #expect(engine.storageChanged(reading(30, latest: 980), now: at(2)) == Reload(reason: .pagesPublished, state: reading(30, latest: 980)),
                "growing again after a rollback")
        #expect(engine.storageChanged(reading(30, latest: 990, language: "fr"), now: at(3))
                == Reload(reason: .requested, state: reading(30, latest: 990, language: "fr")), "another language's catalogue")
        #expect(engine.storageChanged(reading(30, latest: nil), now: at(4)) == Reload(reason: .requested, state: reading(30, latest: nil)),
                "the catalogue gone")
        #expect(engine.storageChanged(reading(30, latest: 2000), now: at(5)) == Reload(reason: .requested, state: reading(30, latest: 2000)),
                "a first catalogue is no publication")
    }

    @Test func startCatchesUpPagesPublishedWhileStopped() {
        var engine = SyncEngine(lastSynced: reading(30, latest: 980), now: at(0))
        #expect(engine.start(current: reading(30, latest: 985), now: at(0)) == Reload(reason: .pagesPublished, state: reading(30, latest: 985)))
        // An old file (no latest page) and a catalogue: the counts appear, nothing is announced.
        var old = SyncEngine(lastSynced: state(42, 30), now: at(0))
        #expect(old.start(current: reading(30, latest: 985), now: at(0)) == Reload(reason: .requested, state: reading(30, latest: 985)))
    }

    @Test func aChapterChangeWinsOverNewPages() {
        var engine = engineWithCatalogue()
        let next = SyncState(chapter: 43, progress: 0, latestPage: .init(page: 990, language: "en"))
        #expect(engine.storageChanged(next, now: at(1)) == Reload(reason: .chapterChange, state: next))
    }

    @Test func extremeStatesDoNotTrap() {
        var engine = SyncEngine(lastSynced: state(1, Int.min), now: MonotonicInstant(nanoseconds: .max))
        engine.progressUpdated(state(1, Int.max), now: MonotonicInstant(nanoseconds: .max))
        #expect(engine.nextDeadline == MonotonicInstant(nanoseconds: .max))
        #expect(engine.timerFired(now: MonotonicInstant(nanoseconds: .max)).map(\.reason) == [.progressChange])
    }
}

@Suite("Monotonic instants", .timeLimit(.minutes(1)))
struct MonotonicInstantTests {
    @Test func arithmetic() {
        let base = MonotonicInstant(nanoseconds: 1_000)
        #expect(base + .seconds(2) == MonotonicInstant(nanoseconds: 2_000_001_000))
        #expect(base + .milliseconds(-1) == MonotonicInstant(nanoseconds: -999_000))
        #expect((base + .seconds(3600)) - base == .seconds(3600))
        #expect(base - (base + .nanoseconds(5)) == .nanoseconds(-5))
        #expect(MonotonicInstant(nanoseconds: .max) + .seconds(1) == MonotonicInstant(nanoseconds: .max))
        #expect(MonotonicInstant(nanoseconds: .min) + .seconds(-1) == MonotonicInstant(nanoseconds: .min))
        #expect(MonotonicInstant(nanoseconds: .max) - MonotonicInstant(nanoseconds: .min) == .nanoseconds(Int64.max))
        #expect(base < base + .nanoseconds(1))
    }

}
