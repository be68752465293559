// The bug game of the original uTouch: pinch a bug to squash it.  Several
// bugs; two hands pinch two bugs at once.  grail proposes a pinch for
// every pair of touches that landed together; the game accepts the pinches
// whose centroid is on a bug and rejects the others.
// Run: build/examples/qml/utouch-qml-example examples/qml/bug-game.qml
import QtQuick
import UTouch

Rectangle {
    id: game
    width: 800; height: 480
    color: "#f4f1e8"
    property int squashed: 0

    Repeater {
        id: bugs
        model: [Qt.point(160, 240), Qt.point(400, 160), Qt.point(640, 240), Qt.point(400, 380)]
        delegate: Rectangle {
            property bool dead: false
            property real size: 1
            property int gesture: -1      // the pinch that holds this bug
            x: modelData.x - width / 2; y: modelData.y - height / 2
            width: 110 * size; height: 70 * size; radius: height / 2
            color: dead ? "#c0392b" : "#27ae60"
            Text { anchors.centerIn: parent; text: parent.dead ? "squashed" : "bug " + index }
        }
    }

    function bugAt(p) {
        for (let i = 0; i < bugs.count; i++) {
            const b = bugs.itemAt(i)
            if (!b.dead && b.gesture < 0 && b.contains(b.mapFromItem(area, p.x, p.y)))
                return b
        }
        return null
    }
    function bugOf(g) {
        for (let i = 0; i < bugs.count; i++)
            if (bugs.itemAt(i).gesture === g.id)
                return bugs.itemAt(i)
        return null
    }

    GestureArea {
        id: area
        anchors.fill: parent
        Subscription {
            gestures: Gesture.Pinch
            touches: 2
            onBegan: (g) => {
                const b = game.bugAt(g.centroid)
                if (b) {
                    b.gesture = g.id
                    g.accept()
                } else {
                    g.reject()
                }
            }
            onUpdated: (g) => {
                const b = game.bugOf(g)
                if (!b || b.dead)
                    return
                b.size = Math.min(1, g.scale)
                if (g.scale < 0.6) {
                    b.dead = true
                    game.squashed++
                }
            }
            onEnded: (g) => {
                const b = game.bugOf(g)
                if (b) {
                    b.gesture = -1
                    if (!b.dead)
                        b.size = 1
                }
            }
        }
    }
}
