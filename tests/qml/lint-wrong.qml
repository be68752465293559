// A wrong use of the UTouch module: qmllint (test qml-lint) must report
// the misspelt property and the unknown enum value through UTouch.qmltypes.
import QtQuick
import UTouch

GestureArea {
    Subscription {
        gestures: Gesture.Pinch | Gesture.Swipe
        toches: 2
    }
}
