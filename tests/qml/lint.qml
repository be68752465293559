// A correct use of the UTouch module: qmllint (test qml-lint) must find
// nothing to say about it.
import QtQuick
import UTouch

Item {
    id: root
    width: 400
    height: 300
    property real zoom: 1
    property int claimed: area.claimedTouches

    GestureArea {
        id: area
        anchors.fill: parent
        replayRejected: true
        onGestureBegan: (gesture) => console.log(gesture.id, gesture.centroid)
        onGestureEnded: (gesture) => { if (gesture.canceled) console.log("cancelled") }
        onTouchClaimed: (id) => console.log("claimed", id)
        onTouchUnclaimed: (id) => console.log("unclaimed", id)

        Subscription {
            id: pinch
            gestures: Gesture.Pinch | Gesture.Rotate
            touches: 2
            pinchThreshold: 1.1
            onBegan: (gesture) => {
                if (gesture.recognized & Gesture.Pinch)
                    gesture.accept()
                else
                    gesture.reject()
            }
            onUpdated: (gesture) => root.zoom = gesture.scale
        }
        Subscription {
            gestures: Gesture.Tap
            touches: 1
            multiTapMaximum: 2
            onEnded: (gesture) => console.log(gesture.tapCount, gesture.state === Gesture.Ended)
        }
    }
    Text { text: pinch.error }
}
