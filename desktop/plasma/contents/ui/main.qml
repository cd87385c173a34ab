// The DBMultiverse widget (docs/plasma.md), for Plasma 5 and Plasma 6 from this one file:
// desktop/plasma/build.sh keeps the lines marked //5 or //6 for its build and drops the others.
// It owns the data source and chooses the representations; Card.qml and CompactView.qml show.
//
// Data: `dbmultiverse watch --format json --next [--after TOKEN]` through the executable data
// engine, as a long-poll: each answer is the entry (with its token), and the command runs again
// at once with that token, to exit only at the next change: between changes the one thing running
// is that blocked command. Only a failed or unreadable answer starts a timer: the question is asked
// again after a delay that grows (1 s, doubled up to a minute) until an answer is read.
import QtQuick 2.15 //5
import QtQuick //6
import QtQuick.Layouts 1.15 //5
import QtQuick.Layouts //6
import org.kde.plasma.plasmoid 2.0 //5
import org.kde.plasma.plasmoid //6
import org.kde.plasma.core 2.0 as PlasmaCore //5
import org.kde.plasma.core as PlasmaCore //6
import org.kde.plasma.plasma5support as P5Support //6
import org.kde.kirigami 2.20 as Kirigami //5
import org.kde.kirigami as Kirigami //6
import "placeholder.js" as Placeholder

Item { //5
PlasmoidItem { //6
    id: root

    /// The installed binary, written in by `make install` (desktop/plasma/build.sh).
    readonly property string binary: "@DBMULTIVERSE@"
    /// The last entry shown (the placeholder while no service answers) and its token.
    property var entry: placeholder()
    property string token: ""
    /// The wait before asking again after a failed or unreadable answer, in ms.
    property int retryDelay: 1000

    /// The next question: `exec`, so that the shell the engine starts leaves only the command.
    readonly property string watchCommand: "exec " + shellWord(binary) + " watch --format json --next"
        + (token === "" ? "" : " --after " + token)

    /// The no-service placeholder in the session's language (the widget's i18n catalogue).
    function placeholder() {
        return Placeholder.entry(function (text) { return i18n(text) })
    }

    function shellWord(text) {
        return "'" + text.replace(/'/g, "'\\''") + "'"
    }

    /// Runs one of the view's actions, as the tray menu does.
    function activate(action, parameter) {
        var command = "exec " + shellWord(binary) + " activate " + shellWord(action) + (parameter > 0 ? " " + parameter : "")
        runner.connectSource(command)
    }

    /// An answer that could not be used: ask again later, each time waiting longer.
    function retryLater(why) {
        console.warn("dbmultiverse: " + why + "; asking again in " + retryDelay + " ms")
        retry.interval = retryDelay
        retry.start()
        retryDelay = Math.min(retryDelay * 2, 60000)
    }

    Plasmoid.icon: "com.nobadi.DBMultiverse" //5
    Plasmoid.toolTipMainText: "DBMultiverse" //5
    toolTipMainText: "DBMultiverse" //6

    // The card itself on the desktop, whatever room it has; the compact form in a panel (a click
    // opens the card). Said, not left to Plasma: Plasma 6's desktop takes a widget's size hints
    // from its compact form unless the full one is the form it prefers.
    Plasmoid.preferredRepresentation: Plasmoid.formFactor === PlasmaCore.Types.Planar ? Plasmoid.fullRepresentation : Plasmoid.compactRepresentation //5
    preferredRepresentation: Plasmoid.formFactor === PlasmaCore.Types.Planar ? fullRepresentation : compactRepresentation //6
    Plasmoid.compactRepresentation: MouseArea { //5
    compactRepresentation: MouseArea { //6
        Layout.minimumWidth: compactView.implicitWidth
        Layout.preferredWidth: compactView.implicitWidth
        function toggle() {
            plasmoid.expanded = !plasmoid.expanded //5
            root.expanded = !root.expanded //6
        }
        onClicked: toggle()
        Accessible.name: compactView.text
        Accessible.role: Accessible.Button
        Accessible.onPressAction: toggle()

        CompactView {
            id: compactView
            anchors.fill: parent
            entry: root.entry
        }
    }

    // The card fits its content: its own size plus the margins.
    Plasmoid.fullRepresentation: Item { //5
    fullRepresentation: Item { //6
        Layout.minimumWidth: Math.max(Kirigami.Units.gridUnit * 16, card.minimumWidth) + 2 * Kirigami.Units.largeSpacing
        Layout.preferredWidth: Math.max(Kirigami.Units.gridUnit * 20, card.minimumWidth) + 2 * Kirigami.Units.largeSpacing
        // Room for the most a view has from the start (Card.fullHeight, at any width): a desktop sizes
        // a widget when it places it and may not grow it later (Plasma 6 gave the card the
        // placeholder's height, and the buttons of the entry that followed fell below it).
        Layout.minimumHeight: card.fullHeight + 2 * Kirigami.Units.largeSpacing
        Layout.preferredHeight: Layout.minimumHeight

        Card {
            id: card
            anchors.top: parent.top
            anchors.left: parent.left
            anchors.right: parent.right
            anchors.margins: Kirigami.Units.largeSpacing
            entry: root.entry
            onActivated: function (action, parameter) { root.activate(action, parameter) }
        }
    }

    Timer {
        id: retry
        onTriggered: watcher.connectSource(root.watchCommand)
    }

    PlasmaCore.DataSource { //5
    P5Support.DataSource { //6
        id: watcher
        engine: "executable"
        Component.onCompleted: connectSource(root.watchCommand)
        onNewData: function (sourceName, data) {
            disconnectSource(sourceName)
            if (data["exit code"] !== 0) {
                // No service answered (or no bus, no binary): the placeholder until one does.
                root.entry = root.placeholder()
                root.token = ""
                root.retryLater(sourceName + " exited " + data["exit code"] + ": " + data.stderr)
                return
            }
            var answer
            try {
                answer = JSON.parse(data.stdout)
            } catch (error) {
                root.retryLater("unreadable answer (" + error + "): " + data.stdout)
                return
            }
            if (typeof answer !== "object" || answer === null || typeof answer.token !== "string" || !Array.isArray(answer.actions)) {
                root.retryLater("an answer without a token or actions: " + data.stdout)
                return
            }
            // The wait between retries starts again only at a change (the answer to an --after
            // poll): the immediate answer of a service that then dies at once (restarted by each
            // poll) would otherwise reset it, and the widget would restart it every second.
            if (root.token !== "") {
                root.retryDelay = 1000
            }
            root.entry = answer
            root.token = answer.token
            connectSource(root.watchCommand)
        }
    }

    PlasmaCore.DataSource { //5
    P5Support.DataSource { //6
        id: runner
        engine: "executable"
        onNewData: function (sourceName, data) {
            disconnectSource(sourceName)
            if (data["exit code"] !== 0) {
                console.warn("dbmultiverse: " + sourceName + " exited " + data["exit code"] + ": " + data.stderr)
            }
        }
    }
}
