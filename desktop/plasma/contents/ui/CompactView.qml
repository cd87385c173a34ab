// The widget in a panel (DESIGN §15): the icon and the small rendering (`Ch. 42 · 35%`,
// `Ch. 42 · 35% · 3 new`, or `Read Multiverse Reader`). Plain Qt Quick like Card.qml, so
// qmltestrunner tests it; main.qml makes a click open the card.
import QtQuick 2.15
import QtQuick.Controls 2.15
import QtQuick.Layouts 1.15

RowLayout {
    id: compact

    /// The entry, as in Card.qml.
    property var entry: null
    property url icon: Qt.resolvedUrl("../images/com.nobadi.DBMultiverse.svg")
    /// The colour of every text: main.qml hands in the Plasma theme's; a label's own by default.
    property color textColor: paletteSource.color
    property var tr: function (text, argument) { return argument === undefined ? text : text.replace("%1", argument) }

    readonly property bool placeholder: !entry || entry["is-placeholder"] === true
    /// The small rendering, as `dbmultiverse entry --family small` prints it.
    readonly property string text: placeholder ? tr("Read Multiverse Reader")
        : tr("Ch. %1", entry.chapter) + " · " + tr("%1%", entry.progress)
            + ((entry["new-pages"] || 0) > 0 ? " · " + tr("%1 new", entry["new-pages"]) : "")

    spacing: 4

    Image {
        source: compact.icon
        sourceSize.width: height
        sourceSize.height: height
        fillMode: Image.PreserveAspectFit
        Layout.fillHeight: true
        Layout.preferredWidth: height
        Layout.minimumHeight: 16
        Accessible.ignored: true
    }
    Label {
        color: compact.textColor
        objectName: "smallRendering"
        text: compact.text
        verticalAlignment: Text.AlignVCenter
        Layout.fillHeight: true
    }

    Label {
        id: paletteSource
        visible: false
    }
}
