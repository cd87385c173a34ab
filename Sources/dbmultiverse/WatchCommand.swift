import ArgumentParser
import ComicDomain
import DBus
import Desktop
import EventLoop
import Glibc

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the entry now and one line per reload (for status bars); follows service restarts.")

    @OptionGroup var options: EntryOptions

    func run() throws {
        let caller = try BlockingCaller()
        let connection = caller.connection
        let format = options.format, family = options.family
        var failure: DBusError?
        connection.onDisconnect = {
            failure = DBusError.disconnected("the session bus went away")
            caller.loop.stop()
        }
        // Subscribe first, then read the current entry: no reload can fall in between.
        try connection.addMatchBlocking(MatchRule(sender: WidgetBus.busName, path: WidgetBus.objectPath,
                                                  interface: WidgetBus.widgetInterface, member: "TimelinesReloaded"))
        let reloads = connection.subscribe(
            MatchRule(path: WidgetBus.objectPath, interface: WidgetBus.widgetInterface, member: "TimelinesReloaded"),
            addMatch: false
        ) { signal in
            guard let (_, _, entry) = try? signal.decode(String.self, String.self, [String: Variant].self),
                  let parsed = try? ChapterEntry(dbusDictionary: entry) else { return }
            Output.line(parsed.formatted(format, family: family))
        }
        let ownerRule = MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                  member: "NameOwnerChanged", arg0: WidgetBus.busName.rawValue)
        // A restarted service may start from other storage: show its entry once it is back.
        let restarts = connection.subscribe(ownerRule) { signal in
            guard let (_, _, newOwner) = try? signal.decode(String.self, String.self, String.self), !newOwner.isEmpty else { return }
            printSnapshot(caller, format: format, family: family, activate: false)
        }
        printSnapshot(caller, format: format, family: family, activate: true)
        while failure == nil { try caller.loop.run() }
        withExtendedLifetime((reloads, restarts)) {}
        throw failure!
    }

    private func printSnapshot(_ caller: BlockingCaller, format: EntryFormat, family: WidgetFamily, activate: Bool) {
        let message = Message.methodCall(destination: WidgetBus.busName, path: WidgetBus.objectPath,
                                         interface: WidgetBus.widgetInterface, member: "GetSnapshot")
        message.append(family.rawValue)
        message.autoStart = activate
        caller.connection.call(message) { result in
            var entry: ChapterEntry?
            if let dictionary = try? result.get().decode([String: Variant].self) {
                entry = try? ChapterEntry(dbusDictionary: dictionary)
            }
            // No service (and none to activate): show the placeholder until one appears.
            Output.line((entry ?? .placeholder(family: family, date: 0)).formatted(format, family: family))
        }
    }
}
