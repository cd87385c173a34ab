import ArgumentParser
package import ComicDomain
import DBus
import Widget
import Localization

extension WidgetFamily: ExpressibleByArgument {}
extension EntryFormat: ExpressibleByArgument {}

struct EntryOptions: ParsableArguments {
    // TRANSLATORS: small and medium are values of --family, kept as they are.
    @Option(help: ArgumentHelp(gettext("The widget family: small or medium.")))
    var family: WidgetFamily = .medium

    // TRANSLATORS: text, json and waybar are values of --format, kept as they are (Waybar is a program).
    @Option(help: ArgumentHelp(gettext("Output: text, json (the entry's keys), or waybar (Waybar custom-module JSON).")))
    var format: EntryFormat = .text
}

struct EntryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entry", abstract: gettext("Print the current entry (starts the service if needed)."))

    @OptionGroup var options: EntryOptions

    func run() throws {
        let view = try BlockingCaller().call(WidgetClient().snapshot(family: options.family))
        Output.line(view.formatted(options.format, family: options.family))
    }
}
