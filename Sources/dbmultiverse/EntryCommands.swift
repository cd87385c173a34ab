public import ArgumentParser
public import ComicDomain
import DBus
import Widget

extension WidgetFamily: ExpressibleByArgument {}
extension EntryFormat: ExpressibleByArgument {}

struct EntryOptions: ParsableArguments {
    @Option(help: "The widget family: small or medium.")
    var family: WidgetFamily = .medium

    @Option(help: "Output: text, json (the entry's keys), or waybar (Waybar custom-module JSON).")
    var format: EntryFormat = .text
}

struct EntryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entry", abstract: "Print the current entry (starts the service if needed).")

    @OptionGroup var options: EntryOptions

    func run() throws {
        let entry = try BlockingCaller().call(WidgetClient().snapshot(family: options.family))
        Output.line(entry.formatted(options.format, family: options.family))
    }
}
