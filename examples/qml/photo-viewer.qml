// A photo that one finger drags and two fingers drag, pinch and rotate,
// above a finger-painting area.  Gestures whose centroid is on the photo
// are accepted once their construction is finished; every other touch is
// rejected and reaches the painting area below as ordinary touch events.
// Run: build/examples/qml/utouch-qml-example examples/qml/photo-viewer.qml
import QtQuick
import UTouch

Rectangle {
    id: viewer
    width: 800; height: 600
    color: "white"
    property int strokes: 0
    property real photoScale: Math.hypot(photoMatrix.matrix.m11, photoMatrix.matrix.m21)
    property real photoRotation: Math.atan2(photoMatrix.matrix.m21, photoMatrix.matrix.m11) * 180 / Math.PI
    property vector3d photoCenter: photoMatrix.matrix.times(Qt.vector3d(photo.width / 2, photo.height / 2, 0))

    // the painting area: raw touches, one stroke per finger
    MultiPointTouchArea {
        id: paint
        anchors.fill: parent
        property var lines: ({})
        onPressed: (points) => {
            for (const p of points)
                lines[p.pointId] = [Qt.point(p.x, p.y)]
        }
        onUpdated: (points) => {
            for (const p of points)
                if (lines[p.pointId])
                    lines[p.pointId].push(Qt.point(p.x, p.y))
            canvas.requestPaint()
        }
        onReleased: (points) => {
            for (const p of points) {
                if (lines[p.pointId])
                    canvas.done.push(lines[p.pointId])
                delete lines[p.pointId]
                viewer.strokes++
            }
            canvas.requestPaint()
        }
        Canvas {
            id: canvas
            anchors.fill: parent
            property var done: []
            onPaint: {
                const ctx = getContext("2d")
                ctx.clearRect(0, 0, width, height)
                ctx.lineWidth = 4
                ctx.strokeStyle = "#2c3e50"
                const all = done.concat(Object.values(paint.lines))
                for (const l of all) {
                    ctx.beginPath()
                    l.forEach((p, i) => i ? ctx.lineTo(p.x, p.y) : ctx.moveTo(p.x, p.y))
                    ctx.stroke()
                }
            }
        }
    }

    // the photo, moved by grail's transforms
    Image {
        id: photo
        x: 0; y: 0
        width: 240; height: 180
        source: "photo.png"
        transform: Matrix4x4 { id: photoMatrix; matrix: Qt.matrix4x4(1, 0, 0, 280, 0, 1, 0, 60, 0, 0, 1, 0, 0, 0, 0, 1) }
    }

    GestureArea {
        id: area
        anchors.fill: parent
        property var undecided: ({})   // id -> gesture
        function onPhoto(g) {
            const p = photo.mapFromItem(area, g.centroid.x, g.centroid.y)
            return p.x >= 0 && p.y >= 0 && p.x <= photo.width && p.y <= photo.height
        }
        // Decide once no touch can join the gesture any more.  Of the
        // gestures sharing touches, the one with the most touches wins
        // (a two-finger pinch over each finger's own drag).
        function decide(g) {
            if (g.decision !== Gesture.Undecided || !g.constructionFinished)
                return
            if (!onPhoto(g)) {
                delete undecided[g.id]
                g.reject()
                return
            }
            for (const k in undecided) {
                const o = undecided[k]
                if (o !== g && o.touches.length > g.touches.length &&
                    o.touches.some((t) => g.touches.includes(t)))
                    return
            }
            delete undecided[g.id]
            if (g.accept())
                photoMatrix.matrix = g.transform.times(photoMatrix.matrix)
        }
        function began(g) {
            undecided[g.id] = g
            decide(g)
        }
        function updated(g) {
            if (g.decision === Gesture.Accepted)
                photoMatrix.matrix = g.deltaTransform.times(photoMatrix.matrix)
            else
                decide(g)
        }
        function ended(g) {
            delete undecided[g.id]
            if (g.decision === Gesture.Accepted)
                photoMatrix.matrix = g.deltaTransform.times(photoMatrix.matrix)
        }
        Subscription {
            gestures: Gesture.Drag
            touches: 1
            onBegan: (g) => area.began(g)
            onUpdated: (g) => area.updated(g)
            onEnded: (g) => area.ended(g)
        }
        Subscription {
            gestures: Gesture.Drag | Gesture.Pinch | Gesture.Rotate
            touches: 2
            onBegan: (g) => area.began(g)
            onUpdated: (g) => area.updated(g)
            onEnded: (g) => area.ended(g)
        }
    }
}
