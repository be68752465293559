// A Qt Quick window with a MultiPointTouchArea that prints the touch points
// Qt hands it, as a user's QML program would get them, for wlcomp-toolkits:
//   qml: ready / pressed ID X Y / updated ID X Y / released ID X Y / canceled N
// Run with QT_WAYLAND_DISABLE_WINDOWDECORATION=1: X, Y are then surface-local.
import QtQuick
import QtQuick.Window

Window {
    width: 400
    height: 600
    visible: true
    title: "Q"
    function show(what, pts) {
        for (var i = 0; i < pts.length; i++)
            console.log(what, pts[i].pointId, pts[i].x.toFixed(2), pts[i].y.toFixed(2))
    }
    Component.onCompleted: console.log("ready")
    MultiPointTouchArea {
        anchors.fill: parent
        onPressed: (pts) => show("pressed", pts)
        onUpdated: (pts) => show("updated", pts)
        onReleased: (pts) => show("released", pts)
        onCanceled: (pts) => console.log("canceled", pts.length)
    }
}
