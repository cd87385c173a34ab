import CDBus
import EventLoop

/// Drives one libdbus connection from an `EventLoop`: its watches become epoll sources (one per
/// descriptor, as libdbus may keep a read and a write watch on the same socket), its timeouts
/// become loop timers, and whenever libdbus has queued messages the loop drains
/// `dbus_connection_dispatch` until the status says nothing remains.
///
/// libdbus owns one retain of this object (released by its free-data callback), so it lives as
/// long as libdbus may call back into it. All callbacks happen on the loop thread, because only
/// the loop thread touches the connection.
///
/// When epoll refuses a descriptor, the watch-add callback returns FALSE (libdbus treats it as
/// out of memory: the set-up or the operation fails); when it refuses a change of the events
/// waited for, the connection can no longer be driven correctly and is closed, so its owner
/// hears `Disconnected` as for any lost bus.
final class LoopIntegration {
    private let loop: EventLoop
    private let connection: OpaquePointer
    private var descriptors: [Int32: Descriptor] = [:]
    private var timeouts: [OpaquePointer: EventLoop.Timer] = [:]
    private let drain = DrainState()
    /// The last failure to watch a descriptor, for the error of a failed set-up.
    private(set) var watchFailure: SystemError?

    /// Shared with posted work (the dispatch drain), which must not keep the connection or this
    /// object alive: work posted as the owner closes the connection may never run.
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

    /// Hooks the connection up to the loop. Throws when the loop can't watch its socket.
    static func install(loop: EventLoop, connection: OpaquePointer) throws(DBusError) {
        let integration = LoopIntegration(loop: loop, connection: connection)
        let watchData = Unmanaged.passRetained(integration).toOpaque()
        guard dbus_connection_set_watch_functions(connection, addWatch, removeWatch, toggleWatch, watchData, releaseIntegration) != 0 else {
            let reason = integration.watchFailure.map { "\($0)" } ?? "out of memory"
            throw DBusError(name: DBusError.Name.noMemory, message: "cannot watch the bus connection: \(reason)")
        }
        let timeoutData = Unmanaged.passRetained(integration).toOpaque()
        guard dbus_connection_set_timeout_functions(connection, addTimeout, removeTimeout, toggleTimeout, timeoutData, releaseIntegration) != 0 else {
            throw DBusError(name: DBusError.Name.noMemory, message: "cannot time the bus connection: out of memory")
        }
        let statusData = Unmanaged.passRetained(integration).toOpaque()
        dbus_connection_set_dispatch_status_function(connection, dispatchStatusChanged, statusData, releaseIntegration)
        // Messages may already be queued (e.g. read during the blocking Hello).
        integration.scheduleDispatch()
    }

    // MARK: Watches

    /// False when epoll refuses the descriptor.
    fileprivate func add(watch: OpaquePointer) -> Bool {
        let fd = dbus_watch_get_unix_fd(watch)
        if var entry = descriptors[fd] {
            entry.watches.append(watch)
            descriptors[fd] = entry
        } else {
            do {
                let source = try loop.watch(fd: fd, events: []) { [unowned self] events in
                    self.handle(fd: fd, events: events)
                }
                descriptors[fd] = Descriptor(source: source, watches: [watch])
            } catch {
                watchFailure = error
                return false
            }
        }
        refresh(fd: fd)
        return true
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
        do {
            try entry.source.setEvents(events)
        } catch {
            watchFailure = error
            closeConnection()
        }
    }

    /// Closes the connection from the loop, outside libdbus's callback.
    private func closeConnection() {
        loop.post { [drain, connection] in
            guard drain.attached else { return }
            dbus_connection_close(connection)
        }
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

// libdbus passes back the data pointer it was given and the watch or timeout it reports: never nil.
private func integration(_ data: UnsafeMutableRawPointer?) -> LoopIntegration {
    Unmanaged<LoopIntegration>.fromOpaque(data!).takeUnretainedValue()
}

private let releaseIntegration: DBusFreeFunction = { data in
    Unmanaged<LoopIntegration>.fromOpaque(data!).release()
}

private let addWatch: DBusAddWatchFunction = { watch, data in
    integration(data).add(watch: watch!) ? 1 : 0
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
