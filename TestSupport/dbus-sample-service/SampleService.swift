// Serves the binding's sample object on the session (or starter) bus until SIGTERM: the
// activatable peer of the binding's tests, and the subject of its idle measurement.
import DBus
import DBusTestSupport
import EventLoop
import Glibc

@main
enum SampleService {
    static func main() {
        do {
            let loop = try EventLoop()
            // `weak loop`: the loop owns this handler; a strong capture would be a cycle.
            let stopOnSignal = try loop.handleSignals([SIGTERM, SIGINT]) { [weak loop] _ in loop?.stop() }
            let connection = try Connection(.starter, loop: loop)
            connection.onDisconnect = { loop.stop() }
            let server = try ObjectServer(connection: connection)
            let sample = try SampleObject(server: server)
            guard try connection.requestNameBlocking(SampleObject.busName) == .primaryOwner else {
                printError("\(SampleObject.busName) is already owned")
                exit(1)
            }
            try loop.run()
            withExtendedLifetime((stopOnSignal, sample)) {}
        } catch {
            printError("\(error)")
            exit(1)
        }
    }
}

private func printError(_ text: String) {
    let line = "dbus-sample-service: \(text)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}
