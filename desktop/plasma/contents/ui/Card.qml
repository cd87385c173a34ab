// The card (DESIGN §15): what the widget shows for one entry, and its buttons. Plain Qt Quick,
// the same file for Plasma 5 (Qt 5) and Plasma 6 (Qt 6), with no Plasmoid in it, so qmltestrunner
// tests it. It decides nothing: every number and every action comes from the entry that
// `dbmultiverse watch --next` printed, and each button asks for an action of the service.
import QtQuick 2.15
import QtQuick.Controls 2.15
import QtQuick.Layouts 1.15

ColumnLayout {
    id: card

    /// The entry: the object `dbmultiverse watch --format json --next` prints (the keys of
    /// `entry --format json`); null until the first answer, shown as the placeholder.
    property var entry: null
    /// Shown as the cover when the entry has none or it can't be read.
    property url icon: Qt.resolvedUrl("../images/com.nobadi.DBMultiverse.svg")
    /// Translations: main.qml hands in Plasma's i18n and i18np; plain substitution without them.
    /// The colour of every text: main.qml hands in the Plasma theme's; a label's own by default.
    property color textColor: paletteSource.color
    property var tr: function (text, argument) { return argument === undefined ? text : text.replace("%1", argument) }
    property var trPlural: function (one, many, count) { return (count === 1 ? one : many).replace("%1", count) }

    /// A button was pressed: one of the application's actions (DESIGN §6, §14) with its number
    /// (open-chapter, open-page) or 0.
    signal activated(string action, int number)

    readonly property bool placeholder: !entry || entry["is-placeholder"] === true
    readonly property int newPages: placeholder ? 0 : (entry["new-pages"] || 0)
    readonly property int nextChapter: placeholder ? 0 : (entry["next-chapter"] || 0)
    readonly property int firstUnreadPage: entry ? (entry["first-unread-page"] || 0) : 0
    readonly property string coverPath: entry ? (entry["image-path"] || "") : ""

    spacing: 8

    RowLayout {
        spacing: 12
        Layout.fillWidth: true

        // The cover, aspect kept; the icon where there is none or it can't be read.
        Item {
            Layout.preferredWidth: 96
            Layout.preferredHeight: 128
            Layout.alignment: Qt.AlignTop

            Image {
                id: cover
                objectName: "cover"
                anchors.fill: parent
                source: card.coverPath === "" ? "" : "file://" + card.coverPath
                visible: status === Image.Ready
                fillMode: Image.PreserveAspectFit
                sourceSize.height: 256
                Accessible.ignored: true
            }
            Image {
                objectName: "coverIcon"
                anchors.centerIn: parent
                width: 64
                height: 64
                source: card.icon
                sourceSize.width: 64
                sourceSize.height: 64
                visible: !cover.visible
                Accessible.ignored: true
            }
        }

        ColumnLayout {
            spacing: 4
            Layout.fillWidth: true
            Layout.alignment: Qt.AlignTop

            Label {

                color: card.textColor
                objectName: "heading"
                visible: !card.placeholder
                text: !card.entry || card.placeholder ? ""
                    : (card.entry.universe || 0) > 0
                        ? card.tr("Special Universe %1", card.entry.universe) + " · " + card.tr("Chapter %1", card.entry.chapter)
                        : card.tr("Chapter %1", card.entry.chapter)
                font.bold: true
                font.pointSize: Qt.application.font.pointSize * 1.3
                Layout.fillWidth: true
                Layout.preferredWidth: 160 // a basis: the card's width decides, not the text's
                elide: Text.ElideRight
            }
            Label {
                color: card.textColor
                objectName: "name"
                text: card.placeholder ? card.tr("Read Multiverse Reader — start with Chapter 1") : card.entry.name
                wrapMode: Text.Wrap
                maximumLineCount: 3
                elide: Text.ElideRight
                Layout.fillWidth: true
                Layout.preferredWidth: 160
            }
            ProgressBar {
                objectName: "progressBar"
                visible: !card.placeholder
                from: 0
                to: 100
                value: card.placeholder ? 0 : card.entry.progress
                Layout.fillWidth: true
                Accessible.name: progressLabel.text
            }
            Label {
                color: card.textColor
                id: progressLabel
                objectName: "progress"
                visible: !card.placeholder
                text: card.placeholder ? "" : card.tr("%1% read", card.entry.progress)
            }
            Label {
                color: card.textColor
                objectName: "newPages"
                visible: card.newPages > 0
                text: card.newPages > 0 ? card.trPlural("1 new page", "%1 new pages", card.newPages) : ""
                font.bold: true
            }
        }
    }

    Flow {
        objectName: "buttons"
        spacing: 6
        Layout.fillWidth: true

        Button {
            objectName: "startReading"
            visible: card.placeholder
            text: card.tr("Start reading")
            onClicked: card.activated("open-chapter", 1)
        }
        Button {
            objectName: "continueReading"
            visible: !card.placeholder
            text: card.tr("Continue reading")
            onClicked: card.activated("open-current", 0)
        }
        Button {
            objectName: "nextChapter"
            visible: card.nextChapter > 0
            text: card.tr("Next chapter")
            onClicked: card.activated("open-chapter", card.nextChapter)
        }
        Button {
            objectName: "readNewPages"
            visible: card.newPages > 0 && card.firstUnreadPage > 0
            text: card.tr("Read new pages")
            onClicked: card.activated("open-page", card.firstUnreadPage)
        }
        Button {
            objectName: "chapterList"
            visible: !card.placeholder
            text: card.tr("Chapter list")
            onClicked: card.activated("open-chapter-list", 0)
        }
    }

    Label {
        id: paletteSource
        visible: false
    }
}
