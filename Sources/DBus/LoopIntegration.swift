internal import CDBus

/// Drives one libdbus connection from an `EventLoop`: its watches become epoll sources (one per
/// descriptor, as libdbus may keep a read and a write watch on the same socket), its timeouts
/// become loop timers, and whenever libdbus has queued messages the loop drains
/// `dbus_connection_dispatch` until the status says nothing remains.
///
/// libdbus owns one retain of this object (released by its free-data callback), so it lives as
/// long as libdbus may call back into it. All callbacks happen on the loop thread, because only
/// the loop thread touches the connection.
final class LoopIntegration {
    private let loop: EventLoop
    private let connection: OpaquePointer
    private var descriptors: [Int32: Descriptor] = [:]
    private var timeouts: [OpaquePointer: EventLoop.Timer] = [:]
    private let drain = DrainState()

    /// Shared with the posted dispatch drain, which must not keep the connection (or this object)
    /// alive: a drain posted as the owner closes the connection after the loop's last run never
    /// runs, and the connection reference it used to hold kept the connection, this object and the
    /// loop alive for good (LSan, at every command's exit).
    private final class DrainState {
        var posted = false
        /// Cleared when libdbus releases this object, which it does on finalizing the connection.
        var attached = true
    }

    private struct Descriptor {
        var source: EventLoop.IOSource
        var watches: [OpaquePointer]
    }

    init(loop: EventLoop, connection: OpaquePointer) {
        self.loop = loop
        self.connection = connection
    }

    deinit { drain.attached = false }

    /// Hooks the connection up to the loop.
    static func install(loop: EventLoop, connection: OpaquePointer) {
        let integration = LoopIntegration(loop: loop, connection: connection)
        let watchData = Unmanaged.passRetained(integration).toOpaque()
        dbus_connection_set_watch_functions(connection, addWatch, removeWatch, toggleWatch, watchData, releaseIntegration)
        let timeoutData = Unmanaged.passRetained(integration).toOpaque()
        dbus_connection_set_timeout_functions(connection, addTimeout, removeTimeout, toggleTimeout, timeoutData, releaseIntegration)
        let statusData = Unmanaged.passRetained(integration).toOpaque()
        dbus_connection_set_dispatch_status_function(connection, dispatchStatusChanged, statusData, releaseIntegration)
        // Messages may already be queued (e.g. read during the blocking Hello).
        integration.scheduleDispatch()
    }

    // MARK: Watches

    fileprivate func add(watch: OpaquePointer) {
        let fd = dbus_watch_get_unix_fd(watch)
        if var entry = descriptors[fd] {
            entry.watches.append(watch)
            descriptors[fd] = entry
        } else {
            let source = loop.watch(fd: fd, events: []) { [unowned self] events in
                self.handle(fd: fd, events: events)
            }
            descriptors[fd] = Descriptor(source: source, watches: [watch])
        }
        refresh(fd: fd)
    }

    fileprivate func remove(watch: OpaquePointer) {
        let fd = dbus_watch_get_unix_fd(watch)
        guard var entry = descriptors[fd] else { return }
        entry.watches.removeAll { $0 == watch }
        if entry.watches.isEmpty {
            entry.source.cancel()
            descriptors[fd] = nil
        } else {
            descriptors[fd] = entry
            refresh(fd: fd)
        }
    }

    /// Waits for the union of what the descriptor's enabled watches want.
    fileprivate func refresh(fd: Int32) {
        guard let entry = descriptors[fd] else { return }
        var events: EventLoop.IOEvents = []
        for watch in entry.watches where dbus_watch_get_enabled(watch) != 0 {
            let flags = dbus_watch_get_flags(watch)
            if flags & DBUS_WATCH_READABLE.rawValue != 0 { events.insert(.readable) }
            if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events.insert(.writable) }
        }
        entry.source.setEvents(events)
    }

    private func handle(fd: Int32, events: EventLoop.IOEvents) {
        guard let entry = descriptors[fd] else { return }
        var flags: UInt32 = 0
        if events.contains(.readable) { flags |= DBUS_WATCH_READABLE.rawValue }
        if events.contains(.writable) { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if events.contains(.error) { flags |= DBUS_WATCH_ERROR.rawValue }
        if events.contains(.hangup) { flags |= DBUS_WATCH_HANGUP.rawValue }
        // Handling one watch may remove another; only hand over watches still registered.
        for watch in entry.watches where descriptors[fd]?.watches.contains(watch) == true {
            guard dbus_watch_get_enabled(watch) != 0 else { continue }
            let wanted = dbus_watch_get_flags(watch) | DBUS_WATCH_ERROR.rawValue | DBUS_WATCH_HANGUP.rawValue
            let relevant = flags & wanted
            if relevant != 0 { _ = dbus_watch_handle(watch, relevant) }
        }
        scheduleDispatch()
    }

    // MARK: Timeouts

    fileprivate func add(timeout: OpaquePointer) {
        let timer = loop.makeTimer { [unowned self] in
            _ = dbus_timeout_handle(timeout)
            // libdbus timeouts repeat until removed or disabled.
            self.arm(timeout)
            self.scheduleDispatch()
        }
        timeouts[timeout] = timer
        arm(timeout)
    }

    fileprivate func remove(timeout: OpaquePointer) {
        timeouts.removeValue(forKey: timeout)?.cancel()
    }

    fileprivate func arm(_ timeout: OpaquePointer) {
        guard let timer = timeouts[timeout] else { return }
        if dbus_timeout_get_enabled(timeout) != 0 {
            timer.schedule(at: EventLoop.now() + Int64(dbus_timeout_get_interval(timeout)) * 1_000_000)
        } else {
            timer.cancel()
        }
    }

    // MARK: Dispatch

    /// Posts a dispatch drain when messages are queued. `knownPending` skips asking libdbus, which
    /// must not be re-entered from its own status callback.
    fileprivate func scheduleDispatch(knownPending: Bool = false) {
        guard !drain.posted else { return }
        guard knownPending || dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS else { return }
        drain.posted = true
        // Not `self`: the drain may outlive it. Attached means not finalized (both on this thread).
        loop.post { [drain, connection] in
            drain.posted = false
            guard drain.attached else { return }
            // Its own reference while draining: a handler may drop the connection's last one.
            dbus_connection_ref(connection)
            while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
            dbus_connection_unref(connection)
        }
    }
}

private func integration(_ data: UnsafeMutableRawPointer?) -> LoopIntegration {
    Unmanaged<LoopIntegration>.fromOpaque(data!).takeUnretainedValue()
}

private let releaseIntegration: DBusFreeFunction = { data in
    Unmanaged<LoopIntegration>.fromOpaque(data!).release()
}

private let addWatch: DBusAddWatchFunction = { watch, data in
    integration(data).add(watch: watch!)
    return 1
}
private let removeWatch: DBusRemoveWatchFunction = { watch, data in integration(data).remove(watch: watch!) }
private let toggleWatch: DBusWatchToggledFunction = { watch, data in
    integration(data).refresh(fd: dbus_watch_get_unix_fd(watch!))
}

private let addTimeout: DBusAddTimeoutFunction = { timeout, data in
    integration(data).add(timeout: timeout!)
    return 1
}
private let removeTimeout: DBusRemoveTimeoutFunction = { timeout, data in integration(data).remove(timeout: timeout!) }
private let toggleTimeout: DBusTimeoutToggledFunction = { timeout, data in integration(data).arm(timeout!) }

private let dispatchStatusChanged: DBusDispatchStatusFunction = { _, status, data in
    if status == DBUS_DISPATCH_DATA_REMAINS { integration(data).scheduleDispatch(knownPending: true) }
}
