// The card and the panel rendering (Card.qml, CompactView.qml) under qmltestrunner, offscreen:
// scripts/test/plasmoid-qml-tests.sh runs this file in a built package. The states are the table every
// face is tested with (states.js, written by PlasmoidQMLTests from its Swift table: each entry as
// `dbmultiverse watch --format json --next` prints it); each must show exactly its view.
import QtQuick 2.15
import QtTest 1.2
import "../contents/ui"
import "states.js" as States

// TestCase is an invisible item: the card and the panel go into the visible root beside it.
Item {
    id: window
    width: 480
    height: 480

TestCase {
    id: test
    name: "Card"
    when: windowShown

    Component { id: cardComponent; Card { width: 460 } }
    Component { id: compactComponent; CompactView { height: 24 } }
    SignalSpy { id: activations; signalName: "activated" }

    function makeCard(value) {
        var card = createTemporaryObject(cardComponent, window, value === undefined ? {} : { "entry": value })
        verify(card !== null, "the card was made")
        activations.clear()
        activations.target = card
        return card
    }

    function child(card, name) {
        var found = findChild(card, name)
        verify(found !== null, "the card has " + name)
        return found
    }

    /// The visible buttons, in order.
    function buttons(card) {
        var row = child(card, "buttons"), found = []
        for (var i = 0; i < row.children.length; i++) {
            var item = row.children[i]
            if (item.visible && item.text !== undefined) found.push(item)
        }
        return found
    }

    /// What the card shows, as [objectName or "button", text] pairs of its visible texts.
    function shown(card) {
        var items = []
        var names = ["title", "name", "progressText", "newPagesText"]
        for (var i = 0; i < names.length; i++) {
            var label = child(card, names[i])
            if (label.visible) items.push([names[i], label.text])
        }
        var list = buttons(card)
        for (var j = 0; j < list.length; j++) items.push(["button", list[j].text])
        return items
    }

    /// What the view says the card shows.
    function expected(entry) {
        var items = []
        var keys = [["title", "title"], ["name", "name"], ["progressText", "progress-text"], ["newPagesText", "new-pages-text"]]
        for (var i = 0; i < keys.length; i++)
            if (entry[keys[i][1]] !== "") items.push([keys[i][0], entry[keys[i][1]]])
        for (var j = 0; j < entry.actions.length; j++) items.push(["button", entry.actions[j].label])
        return items
    }

    function test_eachStateShowsExactlyItsView_data() {
        return States.states.map(function (state) { return { tag: state.name, entry: state.entry } })
    }

    function test_eachStateShowsExactlyItsView(data) {
        var card = makeCard(data.entry)
        compare(JSON.stringify(shown(card)), JSON.stringify(expected(data.entry)))
        compare(child(card, "progressBar").visible, data.entry["progress-text"] !== "")
        compare(child(card, "name").textFormat, Text.PlainText)
        // Each button asks for its action of the view, with its parameter (0 for none).
        var list = buttons(card)
        for (var i = 0; i < list.length; i++) mouseClick(list[i])
        compare(activations.count, data.entry.actions.length)
        for (var j = 0; j < data.entry.actions.length; j++) {
            compare(activations.signalArguments[j][0], data.entry.actions[j].action)
            compare(activations.signalArguments[j][1], data.entry.actions[j].parameter || 0)
        }
        // The panel shows the view's panel-text.
        var compact = createTemporaryObject(compactComponent, window, { "entry": data.entry })
        compare(findChild(compact, "panelText").text, data.entry["panel-text"])
    }

    function test_withNoEntryTheCardsOwnPlaceholderIsTheServicesPlaceholderView() {
        var placeholder = States.states[0].entry
        verify(placeholder["is-placeholder"], "the table starts with the placeholder")
        var card = makeCard()
        compare(JSON.stringify(shown(card)), JSON.stringify(expected(placeholder)))
        var compact = createTemporaryObject(compactComponent, window, {})
        compare(compact.text, placeholder["panel-text"])
    }

    function test_theCardFitsItsContent() {
        var card = makeCard(States.states[1].entry)
        var list = buttons(card)
        var last = list[list.length - 1]
        var bottom = last.mapToItem(card, 0, last.height).y
        verify(bottom <= card.implicitHeight + 1, "the last button inside the card: " + bottom + " > " + card.implicitHeight)
    }

    /// The buttons two to a row in columns of one width, an odd last one across the row: no
    /// button alone at the end of a ragged row, for each number of actions a view has.
    function test_theButtonsAreTwoToARow() {
        var reading = States.states[1].entry
        verify(reading.actions.length >= 4, "the reading state has four actions")
        for (var count = 1; count <= 4; count++) {
            var entry = JSON.parse(JSON.stringify(reading))
            entry.actions = entry.actions.slice(0, count)
            var card = makeCard(entry)
            var list = buttons(card), row = child(card, "buttons")
            compare(list.length, count)
            for (var i = 0; i < list.length; i++) {
                if (i === list.length - 1 && i % 2 === 0) {
                    fuzzyCompare(list[i].width, row.width, 1, count + " actions: the last one across the row")
                    continue
                }
                var partner = list[i % 2 === 0 ? i + 1 : i - 1]
                compare(list[i].y, partner.y, count + " actions: " + list[i].text + " beside " + partner.text)
                fuzzyCompare(list[i].width, partner.width, 1, count + " actions: " + list[i].text + " as wide as " + partner.text)
            }
        }
    }

    /// The card's height follows its content at any width the desktop gives it: the last button
    /// ends inside the card, narrow or wide.
    function test_theCardsHeightFollowsItsContentAtEveryWidth() {
        var widths = [260, 380, 620]
        for (var w = 0; w < widths.length; w++) {
            var card = makeCard(States.states[1].entry)
            card.width = widths[w]
            waitForRendering(card)
            var list = buttons(card), last = list[list.length - 1]
            var bottom = last.mapToItem(card, 0, last.height).y
            verify(bottom <= card.height + 1, widths[w] + " px: the last button ends at " + bottom + ", the card at " + card.height)
        }
    }

    /// The room the card asks for from the start holds the most a view has (a three-line name,
    /// four buttons), whatever the view it shows.
    function test_theCardsFullHeightHoldsEveryView() {
        var longName = ""
        for (var i = 0; i < 32; i++) longName += "Vegeta Goku "
        var fullest = JSON.parse(JSON.stringify(States.states[1].entry))
        fullest.name = longName.trim()
        var most = makeCard(fullest)
        compare(child(most, "name").lineCount, 3)
        for (var s = 0; s < States.states.length; s++) {
            var card = makeCard(States.states[s].entry)
            verify(card.fullHeight >= most.implicitHeight - 1, States.states[s].name + ": room for the fullest view: "
                   + card.fullHeight + " < " + most.implicitHeight)
            verify(card.fullHeight >= card.implicitHeight, States.states[s].name + ": room for its own view")
        }
    }

    function test_aLongNameIsCutNotSpilled() {
        var longName = ""
        for (var i = 0; i < 32; i++) longName += "Vegeta Goku "
        var entry = JSON.parse(JSON.stringify(States.states[1].entry))
        var shortWidth = makeCard(entry).implicitWidth
        entry.name = longName.trim()
        var card = makeCard(entry)
        var name = child(card, "name")
        compare(name.text, longName.trim())
        verify(name.lineCount <= 3, "at most three lines, got " + name.lineCount)
        verify(name.truncated, "the long name is elided")
        compare(card.implicitWidth, shortWidth, "the card does not grow with the name")
    }

    function test_aMissingCoverShowsTheIcon() {
        var entry = JSON.parse(JSON.stringify(States.states[1].entry))
        entry["image-path"] = "/nonexistent/chapterCoverImage.jpg"
        var card = makeCard(entry)
        var cover = child(card, "cover"), icon = child(card, "coverIcon")
        tryCompare(cover, "status", Image.Error)
        verify(!cover.visible)
        verify(icon.visible)
    }

    function test_aCoverIsShownWithItsAspectKept() {
        var path = String(Qt.resolvedUrl("cover.png")).replace("file://", "")
        var entry = JSON.parse(JSON.stringify(States.states[1].entry))
        entry["image-path"] = path
        var card = makeCard(entry)
        var cover = child(card, "cover")
        tryCompare(cover, "status", Image.Ready)
        verify(cover.visible)
        verify(!child(card, "coverIcon").visible)
        compare(cover.fillMode, Image.PreserveAspectFit)
        // cover.png is 40×80: drawn half as wide as high, whatever the box.
        fuzzyCompare(cover.paintedWidth * 2, cover.paintedHeight, 1)
    }
}
}
