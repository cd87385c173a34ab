// The widget in a panel (docs/plasma.md): the icon and the entry's panel-text. No Plasmoid in it,
// like Card.qml, so qmltestrunner tests it; main.qml makes a click open the card.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.components 3.0 as PlasmaComponents3 //5
import org.kde.kirigami 2.20 as Kirigami //5
import org.kde.plasma.components as PlasmaComponents3 //6
import org.kde.kirigami as Kirigami //6
import "placeholder.js" as Placeholder

RowLayout {
    id: compact

    /// The entry, as in Card.qml.
    property var entry: Placeholder.entry()
    property url icon: Qt.resolvedUrl("../images/com.nobadi.DBMultiverse.svg")
    readonly property string text: entry["panel-text"]

    spacing: Kirigami.Units.smallSpacing

    Kirigami.Icon {
        source: compact.icon
        Layout.fillHeight: true
        Layout.preferredWidth: height
        Layout.minimumHeight: Kirigami.Units.iconSizes.small
        Accessible.ignored: true
    }
    PlasmaComponents3.Label {
        objectName: "panelText"
        text: compact.text
        textFormat: Text.PlainText
        verticalAlignment: Text.AlignVCenter
        Layout.fillHeight: true
    }
}
