// The card (docs/plasma.md): draws the view the service publishes with the entry — the cover,
// title, name, progress bar and progress-text, new-pages-text and the actions as buttons — and
// decides nothing. No Plasmoid in it, so qmltestrunner tests it; desktop/plasma/build.sh keeps the
// lines marked //5 or //6 for its build.
import QtQuick 2.15
import QtQuick.Layouts 1.15
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

    spacing: Kirigami.Units.largeSpacing

    RowLayout {
        spacing: Kirigami.Units.largeSpacing
        Layout.fillWidth: true

        // The cover, aspect kept; the icon where there is none or it can't be read.
        Item {
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
                sourceSize.height: height * 2
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
            spacing: Kirigami.Units.smallSpacing
            Layout.fillWidth: true
            Layout.alignment: Qt.AlignTop

            PlasmaComponents3.Label {
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
                maximumLineCount: 3
                elide: Text.ElideRight
                Layout.fillWidth: true
                Layout.preferredWidth: Kirigami.Units.gridUnit * 10
            }
            PlasmaComponents3.ProgressBar {
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
                objectName: "newPagesText"
                text: card.entry["new-pages-text"]
                visible: text !== ""
                font.weight: Font.Bold
            }
        }
    }

    Flow {
        objectName: "buttons"
        spacing: Kirigami.Units.smallSpacing
        Layout.fillWidth: true

        Repeater {
            model: card.entry.actions
            PlasmaComponents3.Button {
                text: modelData.label
                onClicked: card.activated(modelData.action, modelData.parameter || 0)
            }
        }
    }
}
