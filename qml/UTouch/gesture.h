/*
 * UTouch QML module: Gesture, one gesture as grail reports it.
 *
 * A Gesture object is created by a GestureArea when grail hands out the
 * first slice of a gesture, updated in place from every later slice, and
 * passed to the began/updated/ended signals of the area and of the
 * gesture's Subscription.  It is deleted once the gesture ended or was
 * rejected (after the signal handlers returned); keep its values, not the
 * object.  Positions are in the GestureArea's coordinates (logical
 * pixels), times in ms of the touch events' clock.
 */
#ifndef UTOUCH_QML_GESTURE_H
#define UTOUCH_QML_GESTURE_H

#include <QList>
#include <QMatrix4x4>
#include <QObject>
#include <QPointF>
#include <QPointer>
#include <QtQml/qqmlregistration.h>

#include <oif/grail.h>

class UTouchGestureArea;
class UTouchSubscription;
Q_MOC_INCLUDE("subscription.h")

class UTouchGesture : public QObject
{
	Q_OBJECT
	QML_NAMED_ELEMENT(Gesture)
	QML_UNCREATABLE("Gesture objects come from a GestureArea's signals")
	Q_PROPERTY(int id READ id CONSTANT)
	Q_PROPERTY(UTouchSubscription *subscription READ subscription CONSTANT)
	Q_PROPERTY(State state READ state NOTIFY changed)
	Q_PROPERTY(Classes recognized READ recognized NOTIFY changed)
	Q_PROPERTY(QList<int> touches READ touches NOTIFY changed)
	Q_PROPERTY(QList<QPointF> points READ points NOTIFY changed)
	Q_PROPERTY(QPointF centroid READ centroid NOTIFY changed)
	Q_PROPERTY(QPointF originalCentroid READ originalCentroid NOTIFY changed)
	Q_PROPERTY(qreal radius READ radius NOTIFY changed)
	Q_PROPERTY(qreal originalRadius READ originalRadius NOTIFY changed)
	Q_PROPERTY(QPointF translation READ translation NOTIFY changed)
	Q_PROPERTY(qreal scale READ scale NOTIFY changed)
	Q_PROPERTY(qreal rotation READ rotation NOTIFY changed)
	Q_PROPERTY(QPointF deltaTranslation READ deltaTranslation NOTIFY changed)
	Q_PROPERTY(qreal deltaScale READ deltaScale NOTIFY changed)
	Q_PROPERTY(qreal deltaRotation READ deltaRotation NOTIFY changed)
	Q_PROPERTY(QPointF centerOfRotation READ centerOfRotation NOTIFY changed)
	Q_PROPERTY(QMatrix4x4 transform READ transform NOTIFY changed)
	Q_PROPERTY(QMatrix4x4 deltaTransform READ deltaTransform NOTIFY changed)
	Q_PROPERTY(QPointF velocity READ velocity NOTIFY changed)
	Q_PROPERTY(bool constructionFinished READ constructionFinished NOTIFY changed)
	Q_PROPERTY(bool canceled READ canceled NOTIFY changed)
	Q_PROPERTY(int tapCount READ tapCount NOTIFY changed)
	Q_PROPERTY(qreal time READ time NOTIFY changed)
	Q_PROPERTY(Decision decision READ decision NOTIFY decisionChanged)

public:
	/**
	 * Gesture classes, the bits of Subscription.gestures and
	 * Gesture.recognized (a flags type: Gesture.Pinch | Gesture.Drag).
	 */
	enum Class {
		Drag = UGGestureTypeDrag,
		Pinch = UGGestureTypePinch,
		Rotate = UGGestureTypeRotate,
		Tap = UGGestureTypeTap,
		Touch = UGGestureTypeTouch,
		Hold = UGGestureTypeHold,
	};
	Q_DECLARE_FLAGS(Classes, Class)
	Q_FLAG(Classes)
	/** Where the gesture is in its life: Began, Updated, Ended. */
	enum State { Began, Updated, Ended };
	Q_ENUM(State)
	/** What the application decided: Undecided, Accepted, Rejected. */
	enum Decision { Undecided, Accepted, Rejected };
	Q_ENUM(Decision)

	/** A gesture of @p area for grail gesture @p id; the area fills it in. */
	UTouchGesture(UTouchGestureArea *area, unsigned int id, UTouchSubscription *sub);

	/** grail's gesture id, unique per GestureArea. */
	int id() const { return int(m_id); }
	/** The Subscription the gesture belongs to. */
	UTouchSubscription *subscription() const { return m_sub; }
	/** The state of the last slice. */
	State state() const { return m_state; }
	/** The Gesture.Class bits recognised so far (they only grow). */
	Classes recognized() const { return Classes(m_recognized); }
	/** The Qt touch point ids of the gesture's touches, in joining order. */
	QList<int> touches() const { return m_touches; }
	/** The positions of those touches. */
	QList<QPointF> points() const { return m_points; }
	/** The centroid of the touches. */
	QPointF centroid() const { return m_originalCentroid + translation(); }
	/** The centroid when the touch count last changed. */
	QPointF originalCentroid() const { return m_originalCentroid; }
	/** Mean distance of the touches from their centroid (0 for one touch). */
	qreal radius() const { return m_originalRadius * scale(); }
	/** That distance when the touch count last changed. */
	qreal originalRadius() const { return m_originalRadius; }
	/** Travel of the centroid since originalCentroid. */
	QPointF translation() const;
	/** Scale since the touch count last changed (1: unchanged). */
	qreal scale() const;
	/** Rotation in degrees, clockwise positive, since the touch count last changed. */
	qreal rotation() const;
	/** Travel of the centroid since the previous slice. */
	QPointF deltaTranslation() const;
	/** Scale since the previous slice. */
	qreal deltaScale() const;
	/** Rotation in degrees since the previous slice. */
	qreal deltaRotation() const;
	/** Fixed point of the transform since the previous slice ((0, 0) when none). */
	QPointF centerOfRotation() const { return m_centerOfRotation; }
	/**
	 * grail's cumulative transform as a matrix that maps where the touches
	 * were when the count last changed to where they are: scale and
	 * rotation about originalCentroid, then its travel.
	 */
	QMatrix4x4 transform() const { return toMatrix(m_cumulative, m_originalCentroid); }
	/** The same since the previous slice (about the previous centroid). */
	QMatrix4x4 deltaTransform() const { return toMatrix(m_delta, centroid() - deltaTranslation()); }
	/** Velocity of the centroid in pixels per second. */
	QPointF velocity() const { return m_velocity; }
	/** No touch will join or leave the gesture any more. */
	bool constructionFinished() const { return m_constructionFinished; }
	/** The gesture ended because grail cancelled it (another one took its touches). */
	bool canceled() const { return m_canceled; }
	/** 1, 2, 3... for single, double, triple taps once a tap is recognised; else 0. */
	int tapCount() const { return m_tapCount; }
	/** Time of the last slice in ms (the touch events' clock). */
	qreal time() const { return qreal(m_time); }
	/** The application's decision. */
	Decision decision() const { return m_decision; }

	/**
	 * Accept the gesture: its touches stay with the GestureArea, every
	 * other undecided gesture sharing a touch is cancelled (it ends with
	 * canceled set) and construction is finished.  Returns false (with a
	 * warning) when grail refuses: the gesture is decided or gone, or its
	 * subscription is atomic.
	 */
	Q_INVOKABLE bool accept();
	/**
	 * Reject the gesture: no further signals for it; its touches go to the
	 * items below once no other gesture holds them.  Returns false (with a
	 * warning) when grail refuses, as for accept().
	 */
	Q_INVOKABLE bool reject();

	/** Fill in the values of @p slice (time @p time); the area calls it. */
	void update(UGSlice slice, uint64_t time, const QList<int> &touches,
		    const QList<QPointF> &points);
	/** Mark the gesture cancelled (its touches were taken from the area). */
	void markCanceled() { m_canceled = true; }
	/** Set the decision without telling grail (the area calls it). */
	void setDecision(Decision d);
	/** The gesture's grail id. */
	unsigned int grailId() const { return m_id; }

Q_SIGNALS:
	/** Any value changed (emitted before the area's signals). */
	void changed();
	/** decision changed. */
	void decisionChanged();

private:
	static QMatrix4x4 toMatrix(const float (&m)[2][3], QPointF pivot);

	QPointer<UTouchGestureArea> m_area;
	unsigned int m_id;
	UTouchSubscription *m_sub;
	State m_state = Began;
	int m_recognized = 0;
	QList<int> m_touches;
	QList<QPointF> m_points;
	QPointF m_originalCentroid;
	qreal m_originalRadius = 0;
	QPointF m_centerOfRotation;
	float m_cumulative[2][3] = {{1, 0, 0}, {0, 1, 0}};
	float m_delta[2][3] = {{1, 0, 0}, {0, 1, 0}};
	QPointF m_velocity;
	bool m_constructionFinished = false;
	bool m_canceled = false;
	int m_tapCount = 0;
	uint64_t m_time = 0;
	Decision m_decision = Undecided;
};

Q_DECLARE_OPERATORS_FOR_FLAGS(UTouchGesture::Classes)

#endif
