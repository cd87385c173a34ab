// The card and the panel rendering (Card.qml, CompactView.qml) under qmltestrunner, offscreen:
// scripts/plasmoid-qml-tests.sh runs this file in a built package (Qt 5 for Plasma 5, Qt 6 for
// Plasma 6). Entries are what `dbmultiverse watch --format json --next` prints.
import QtQuick 2.15
import QtQuick.Controls 2.15
import QtTest 1.2
import "../contents/ui"

// TestCase is an invisible item: the card and the panel go into the visible root beside it.
Item {
    id: window
    width: 480
    height: 360

TestCase {
    id: test
    name: "Card"
    when: windowShown

    readonly property var chapter42: ({
        "chapter": 42, "name": "Vegeta & <Goku>", "progress": 35, "image-path": "",
        "deep-link": "dbmultiverse://chapter/42", "date": 1795323865, "family": "medium",
        "is-placeholder": false, "universe": 0, "latest-page": 0, "new-pages": 0,
        "next-chapter": 43, "first-unread-page": 0, "token": "0123456789abcdef"
    })

    function entry(changes) {
        var copy = JSON.parse(JSON.stringify(chapter42))
        for (var key in changes) copy[key] = changes[key]
        return copy
    }

    Component { id: cardComponent; Card { width: 460 } }
    Component { id: compactComponent; CompactView { height: 24 } }
    SignalSpy { id: activations; signalName: "activated" }

    function makeCard(value) {
        var card = createTemporaryObject(cardComponent, window, { "entry": value })
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

    /// The texts of the visible buttons, in order.
    function visibleButtons(card) {
        var row = child(card, "buttons"), texts = []
        for (var i = 0; i < row.children.length; i++) {
            var item = row.children[i]
            if (item.visible && item.text !== undefined) texts.push(item.text)
        }
        return texts
    }

    /// The action of the nth activation, as [name, number].
    function activation(n) {
        return [activations.signalArguments[n][0], activations.signalArguments[n][1]]
    }

    function click(card, name) {
        var button = child(card, name)
        verify(button.visible, name + " is shown")
        mouseClick(button)
    }

    function test_aChapterShowsItsNumberNameProgressAndButtons() {
        var card = makeCard(chapter42)
        compare(child(card, "heading").text, "Chapter 42")
        compare(child(card, "name").text, "Vegeta & <Goku>")
        compare(child(card, "progress").text, "35% read")
        compare(child(card, "progressBar").value, 35)
        verify(!child(card, "newPages").visible)
        compare(visibleButtons(card), ["Continue reading", "Next chapter", "Chapter list"])
        // The name is plain text, never markup.
        compare(child(card, "name").textFormat === Text.RichText, false)
        verify(child(card, "name").contentWidth > 0)
    }

    function test_eachButtonAsksForItsAction() {
        var card = makeCard(entry({ "new-pages": 3, "latest-page": 2453, "first-unread-page": 2451 }))
        click(card, "continueReading")
        click(card, "nextChapter")
        click(card, "readNewPages")
        click(card, "chapterList")
        compare(activations.count, 4)
        compare(activation(0), ["open-current", 0])
        compare(activation(1), ["open-chapter", 43])
        compare(activation(2), ["open-page", 2451])
        compare(activation(3), ["open-chapter-list", 0])
    }

    function test_newPagesAreCountedAndOffered() {
        var card = makeCard(entry({ "new-pages": 3, "latest-page": 2453, "first-unread-page": 2451 }))
        compare(child(card, "newPages").text, "3 new pages")
        verify(child(card, "newPages").visible)
        compare(visibleButtons(card), ["Continue reading", "Next chapter", "Read new pages", "Chapter list"])
        card.entry = entry({ "new-pages": 1, "latest-page": 2451, "first-unread-page": 2451 })
        compare(child(card, "newPages").text, "1 new page")
    }

    function test_theLastChapterHasNoNextChapterButton() {
        var card = makeCard(entry({ "next-chapter": 0 }))
        compare(visibleButtons(card), ["Continue reading", "Chapter list"])
    }

    function test_thePlaceholderOffersToStartReading() {
        var placeholder = entry({ "chapter": 1, "name": "A Really Strange Tournament!", "progress": 0,
            "is-placeholder": true, "next-chapter": 2, "deep-link": "dbmultiverse://chapter/1" })
        var card = makeCard(placeholder)
        compare(child(card, "name").text, "Read Multiverse Reader — start with Chapter 1")
        verify(!child(card, "heading").visible)
        verify(!child(card, "progress").visible)
        verify(!child(card, "progressBar").visible)
        compare(visibleButtons(card), ["Start reading"])
        click(card, "startReading")
        compare(activation(0), ["open-chapter", 1])
        // Before the first answer (no entry yet) the card is the placeholder too.
        var empty = makeCard(null)
        compare(visibleButtons(empty), ["Start reading"])
    }

    function test_aSpecialNamesItsUniverse() {
        var card = makeCard(entry({ "universe": 3, "chapter": 2, "deep-link": "dbmultiverse://page/1203" }))
        compare(child(card, "heading").text, "Special Universe 3 · Chapter 2")
    }

    function test_aLongNameIsCutNotSpilled() {
        var longName = ""
        for (var i = 0; i < 32; i++) longName += "Vegeta Goku "
        var card = makeCard(entry({ "name": longName.trim() }))
        var name = child(card, "name")
        compare(name.text, longName.trim())
        verify(name.lineCount <= 3, "at most three lines, got " + name.lineCount)
        verify(name.truncated, "the long name is elided")
        verify(name.width <= card.width, "the name fits the card's width")
        verify(card.implicitWidth <= 480, "the card does not grow with the name: " + card.implicitWidth)
    }

    function test_aMissingCoverShowsTheIcon() {
        var card = makeCard(entry({ "image-path": "/nonexistent/chapterCoverImage.jpg" }))
        var cover = child(card, "cover"), icon = child(card, "coverIcon")
        tryCompare(cover, "status", Image.Error)
        verify(!cover.visible)
        verify(icon.visible)
        compare(icon.source, card.icon)
        tryCompare(icon, "status", Image.Ready)
        var none = makeCard(chapter42)
        verify(child(none, "coverIcon").visible)
        verify(!child(none, "cover").visible)
    }

    function test_aCoverIsShownWithItsAspectKept() {
        var path = String(Qt.resolvedUrl("cover.png")).replace("file://", "")
        var card = makeCard(entry({ "image-path": path }))
        var cover = child(card, "cover")
        tryCompare(cover, "status", Image.Ready)
        verify(cover.visible)
        verify(!child(card, "coverIcon").visible)
        compare(String(cover.source), "file://" + path)
        compare(cover.fillMode, Image.PreserveAspectFit)
        // cover.png is 40×80: drawn half as wide as high, whatever the box.
        fuzzyCompare(cover.paintedWidth * 2, cover.paintedHeight, 1)
    }

    function test_thePanelShowsTheSmallRendering() {
        var compact = createTemporaryObject(compactComponent, window, { "entry": chapter42 })
        compare(compact.text, "Ch. 42 · 35%")
        compare(findChild(compact, "smallRendering").text, "Ch. 42 · 35%")
        compact.entry = entry({ "new-pages": 3, "first-unread-page": 2451 })
        compare(compact.text, "Ch. 42 · 35% · 3 new")
        compact.entry = entry({ "is-placeholder": true, "chapter": 1, "progress": 0 })
        compare(compact.text, "Read Multiverse Reader")
        compact.entry = null
        compare(compact.text, "Read Multiverse Reader")
    }
}
}
