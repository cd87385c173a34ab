import Widget
import DBus
import Follower
import Glibc

extension Bench {
    /// `TimelinesReloaded` → `Notify` received, with the real notifier and a recording
    /// `org.freedesktop.Notifications` in this process.
    func measureNotification() throws -> [Row] {
        try startRecordingNotificationServer()
        try startStandInWatcher()
        notifierPID = spawn(notifierCommand)
        var notifyLatency = Samples()
        if notifierPID > 0 {
            // The notifier subscribes before it is ready; wait until its connection shows up by
            // giving it a chapter change it must answer.
            var ready = false
            for attempt in 0..<50 where !ready {
                let before = events.count(of: "notify")
                try writeExternally(chapter: 300 + attempt % 2)
                ready = wait(timeout: 0.2) { self.events.count(of: "notify") > before }
            }
            for index in 0..<200 where ready {
                let before = events.count(of: "notify")
                let update = widget.updateChapter(400 + index % 2, name: "Notified \(index)", progress: 20)
                connection.call(update.message) { _ in }
                _ = wait(timeout: 5) { self.events.count(of: "notify") > before }
                notifyLatency.add(events.last(of: "notify") - events.last(of: "chapter-change"))
                drainService()
            }
        }
        if notifyLatency.count == 0 {
            // No notifier answered (not built in, or it exited): leave it out of the idle figures.
            if notifierPID > 0 { kill(notifierPID, SIGKILL); var status: Int32 = 0; waitpid(notifierPID, &status, 0) }
            notifierPID = 0
        }
        return [Row(name: "TimelinesReloaded → Notify received p50 / p99", value: notifyLatency.p50 / 1e3, unit: "µs / \(format(notifyLatency.p99 / 1e3)) µs",
                    target: "p99 ≤ 5 ms", met: notifyLatency.count > 0 && notifyLatency.p99 <= 5e6)]
    }

    /// Owns org.freedesktop.Notifications on the bench's own connection and records Notify.
    func startRecordingNotificationServer() throws {
        let server = try ObjectServer(connection: connection)
        var nextID: UInt32 = 0
        let events = self.events
        let exported = try server.export(Interface<Notifications>(methods: [
            Method(Notifications.getCapabilities) { ["actions", "body", "body-markup"] },
            Method(Notifications.notify) { _, _, _, _, _, _, _, _ in
                events.record("notify")
                nextID += 1
                return nextID
            },
        ]), at: Notifications.object.path)
        _ = try connection.requestNameBlocking(Notifications.object.destination)
        notificationServer = (server, exported)
    }

    /// `dbmultiverse open` → `OpenRequested` (includes the command's own start-up).
    func measureOpen() -> [Row] {
        var openLatency = Samples()
        for index in 0..<10 {
            var pid: pid_t = -1
            openLatency.add(latency(until: "open-requested") { pid = spawn([binary, "open", "dbmultiverse://chapter/\(index + 1)"]) })
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        return [Row(name: "dbmultiverse open → OpenRequested p50", value: openLatency.p50 / 1e6, unit: "ms")]
    }
}
