// The card (docs/plasma.md): draws the view the service publishes with the entry — the cover,
// title, name, progress bar and progress-text, new-pages-text and the actions as buttons — and
// decides nothing. No Plasmoid in it, so qmltestrunner tests it; desktop/plasma/build.sh keeps the
// lines marked //5 or //6 for its build.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import QtQuick.Window 2.15
import org.kde.plasma.components 3.0 as PlasmaComponents3 //5
import org.kde.kirigami 2.20 as Kirigami //5
import org.kde.plasma.components as PlasmaComponents3 //6
import org.kde.kirigami as Kirigami //6
import "placeholder.js" as Placeholder

ColumnLayout {
    id: card

    /// The entry: the object `dbmultiverse watch --format json --next` prints (the keys of
    /// `entry --format json`, the view among them); the placeholder while no service answers.
    property var entry: Placeholder.entry()
    /// Shown as the cover when the entry has none or it can't be read.
    property url icon: Qt.resolvedUrl("../images/com.nobadi.DBMultiverse.svg")

    /// A button was pressed: its action of the view (org.freedesktop.Application's) and its
    /// parameter, 0 for none.
    signal activated(string action, int parameter)

    /// The height that holds the most a view has — a title, the name on its three lines, the
    /// progress bar and its text, the new pages, two rows of buttons — from single lines' heights
    /// only, so at any width: what the desktop should give the card when it places it (a desktop
    /// may not grow a widget it placed; Plasma 6's plasmoidviewer did not).
    readonly property real fullHeight: {
        var line = progressText.implicitHeight
        var details = title.implicitHeight + 3 * line + progressBar.implicitHeight + line + newPagesText.implicitHeight
            + 4 * detailsColumn.spacing
        var button = actions.count > 0 && actions.itemAt(0) ? actions.itemAt(0).implicitHeight : line
        return Math.max(coverBox.Layout.preferredHeight, details) + spacing + 2 * button + buttons.rowSpacing
    }
    /// The narrowest the card can be: its two columns of buttons side by side.
    readonly property real minimumWidth: 2 * buttons.buttonWidth + buttons.columnSpacing

    spacing: Kirigami.Units.largeSpacing

    RowLayout {
        spacing: Kirigami.Units.largeSpacing
        Layout.fillWidth: true

        // The cover, aspect kept; the icon where there is none or it can't be read.
        Item {
            id: coverBox
            Layout.preferredWidth: Kirigami.Units.gridUnit * 5
            Layout.preferredHeight: Kirigami.Units.gridUnit * 7
            Layout.alignment: Qt.AlignTop

            Image {
                id: cover
                objectName: "cover"
                anchors.fill: parent
                source: card.entry["image-path"] ? "file://" + card.entry["image-path"] : ""
                visible: status === Image.Ready
                fillMode: Image.PreserveAspectFit
                // Decoded at the screen's device pixels: sharp at any scale.
                sourceSize.height: height * Screen.devicePixelRatio
                Accessible.ignored: true
            }
            Kirigami.Icon {
                objectName: "coverIcon"
                anchors.centerIn: parent
                width: Kirigami.Units.iconSizes.huge
                height: width
                source: card.icon
                visible: !cover.visible
                Accessible.ignored: true
            }
        }

        ColumnLayout {
            id: detailsColumn
            spacing: Kirigami.Units.smallSpacing
            Layout.fillWidth: true
            Layout.alignment: Qt.AlignTop

            PlasmaComponents3.Label {
                id: title
                objectName: "title"
                text: card.entry.title
                visible: text !== ""
                font.weight: Font.Bold
                elide: Text.ElideRight
                Layout.fillWidth: true
                Layout.preferredWidth: Kirigami.Units.gridUnit * 10 // a basis: the card's width decides
            }
            PlasmaComponents3.Label {
                objectName: "name"
                text: card.entry.name
                textFormat: Text.PlainText // from the web: never markup
                visible: text !== ""
                wrapMode: Text.Wrap
                // Aligned as the name reads: reset to Qt's own choice, which right-aligns a
                // right-to-left text (Arabic, Hebrew); Plasma 6's Label sets AlignLeft.
                horizontalAlignment: undefined
                maximumLineCount: 3
                elide: Text.ElideRight
                Layout.fillWidth: true
                Layout.preferredWidth: Kirigami.Units.gridUnit * 10
            }
            PlasmaComponents3.ProgressBar {
                id: progressBar
                objectName: "progressBar"
                visible: progressText.visible
                from: 0
                to: 100
                value: card.entry.progress
                Layout.fillWidth: true
                Accessible.name: progressText.text
            }
            PlasmaComponents3.Label {
                id: progressText
                objectName: "progressText"
                text: card.entry["progress-text"]
                visible: text !== ""
            }
            PlasmaComponents3.Label {
                id: newPagesText
                objectName: "newPagesText"
                text: card.entry["new-pages-text"]
                visible: text !== ""
                font.weight: Font.Bold
            }
        }
    }

    // The actions two to a row, in columns of one width (the widest button's), an odd last one
    // across both: a block whose height does not depend on the card's width (the card's height
    // follows it), with no button left alone at the end of a ragged row.
    GridLayout {
        id: buttons
        objectName: "buttons"
        columns: 2
        columnSpacing: Kirigami.Units.smallSpacing
        rowSpacing: Kirigami.Units.smallSpacing
        Layout.fillWidth: true

        /// The widest button's own width: each button is at least as wide.
        property real buttonWidth: 0
        function measureButtons() {
            var widest = 0
            for (var i = 0; i < actions.count; i++) {
                var button = actions.itemAt(i)
                if (button) widest = Math.max(widest, button.implicitWidth)
            }
            buttonWidth = widest
        }

        Repeater {
            id: actions
            model: card.entry.actions
            onItemAdded: buttons.measureButtons()
            onItemRemoved: buttons.measureButtons()
            PlasmaComponents3.Button {
                text: modelData.label
                onClicked: card.activated(modelData.action, modelData.parameter || 0)
                onImplicitWidthChanged: buttons.measureButtons()
                Layout.fillWidth: true
                Layout.minimumWidth: buttons.buttonWidth
                Layout.preferredWidth: buttons.buttonWidth
                Layout.columnSpan: index === actions.count - 1 && index % 2 === 0 ? 2 : 1
            }
        }
    }
}
