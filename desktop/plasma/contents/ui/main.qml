// The DBMultiverse widget (DESIGN §15), for Plasma 5 and Plasma 6 from this one file:
// scripts/plasmoid.sh keeps the lines marked //5 or //6 for its build and drops the others.
// It owns the data source and chooses the representations; Card.qml and CompactView.qml show.
//
// Data: `dbmultiverse watch --format json --next [--after TOKEN]` through the executable data
// engine, as a long-poll: each answer is the entry (with its token), and the command runs again
// at once with that token, to exit only at the next change. No timer: between changes the one
// thing running is that blocked command.
import QtQuick 2.15 //5
import QtQuick //6
import QtQuick.Layouts 1.15 //5
import QtQuick.Layouts //6
import org.kde.plasma.plasmoid 2.0 //5
import org.kde.plasma.plasmoid //6
import org.kde.plasma.core 2.0 as PlasmaCore //5
import org.kde.plasma.plasma5support as P5Support //6
import org.kde.kirigami as Kirigami //6

Item { //5
PlasmoidItem { //6
    id: root

    /// The installed binary, written in by `make install` (scripts/plasmoid.sh).
    readonly property string binary: "@DBMULTIVERSE@"
    /// The last entry shown (null before the first answer) and its token.
    property var entry: null
    property string token: ""

    /// The next question: `exec`, so that the shell the engine starts leaves only the command.
    readonly property string watchCommand: "exec " + shellWord(binary) + " watch --format json --next"
        + (token === "" ? "" : " --after " + token)

    function shellWord(text) {
        return "'" + text.replace(/'/g, "'\\''") + "'"
    }

    /// The theme's text colour, for the card's and the panel's texts.
    readonly property color textColor: PlasmaCore.ColorScope.textColor //5
    readonly property color textColor: Kirigami.Theme.textColor //6

    function translate(text, argument) {
        return argument === undefined ? i18n(text) : i18n(text, argument)
    }

    function translatePlural(one, many, count) {
        return i18np(one, many, count)
    }

    /// Runs one of the application's actions, as the tray menu does.
    function activate(action, number) {
        var command = "exec " + shellWord(binary) + " activate " + action + (number > 0 ? " " + number : "")
        runner.connectSource(command)
    }

    Plasmoid.icon: "com.nobadi.DBMultiverse" //5
    Plasmoid.toolTipMainText: "DBMultiverse" //5
    toolTipMainText: "DBMultiverse" //6

    // No switch sizes: Plasma then shows the compact form in a panel (a click opens the card) and
    // the card itself on the desktop, whatever room either has.
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
            tr: root.translate
            textColor: root.textColor
        }
    }

    Plasmoid.fullRepresentation: Item { //5
    fullRepresentation: Item { //6
        Layout.minimumWidth: Math.round(Qt.application.font.pixelSize * 20)
        Layout.minimumHeight: card.implicitHeight + 24
        Layout.preferredWidth: Math.round(Qt.application.font.pixelSize * 26)
        Layout.preferredHeight: card.implicitHeight + 24

        Card {
            id: card
            anchors.fill: parent
            anchors.margins: 12
            entry: root.entry
            tr: root.translate
            trPlural: root.translatePlural
            textColor: root.textColor
            onActivated: function (action, number) { root.activate(action, number) }
        }
    }

    PlasmaCore.DataSource { //5
    P5Support.DataSource { //6
        id: watcher
        engine: "executable"
        Component.onCompleted: connectSource(root.watchCommand)
        onNewData: function (sourceName, data) {
            disconnectSource(sourceName)
            if (data["exit code"] !== 0) {
                // No bus, or no binary: nothing would change by asking again at once.
                console.warn("dbmultiverse: " + sourceName + " exited " + data["exit code"] + ": " + data.stderr)
                return
            }
            var answer = JSON.parse(data.stdout)
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
