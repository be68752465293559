/*
 * UTouch QML module: GestureArea, an item that recognises gestures from
 * its own touch events with grail, in-process.
 *
 * The area is one frame device (direct, 3780 px/m) with one window; every
 * touch that begins on it becomes a frame touch, owned by the area from
 * its begin.  Its Subscription children are grail subscriptions.  grail's
 * gesture slices become Gesture objects and began/updated/ended signals
 * (on the area and on the subscription); the application accepts or
 * rejects gestures, and grail decides each touch: a touch held by an
 * accepted gesture stays with the area, a touch no gesture wants any more
 * is replayed, in order, to the items below as ordinary touch events
 * (doc/qml.md, "Ownership and replay").  grail's timeouts run on a QTimer
 * in the time base of the touch events.
 */
#ifndef UTOUCH_QML_GESTURE_AREA_H
#define UTOUCH_QML_GESTURE_AREA_H

#include <QElapsedTimer>
#include <QEventPoint>
#include <QHash>
#include <QList>
#include <QPointer>
#include <QQuickItem>
#include <QTimer>

#include <oif/frame.h>
#include <oif/frame_backend.h>
#include <utouch/frame_handle.h>
#include <oif/grail.h>

class UTouchGesture;
class UTouchSubscription;
class QPointingDevice;

class UTouchGestureArea : public QQuickItem
{
	Q_OBJECT
	Q_PROPERTY(bool replayRejected READ replayRejected WRITE setReplayRejected
		   NOTIFY replayRejectedChanged)
	Q_PROPERTY(int heldTouches READ heldTouches NOTIFY touchesChanged)
	Q_PROPERTY(int claimedTouches READ claimedTouches NOTIFY touchesChanged)

public:
	/** An area with grail's handle and its device. */
	explicit UTouchGestureArea(QQuickItem *parent = nullptr);
	~UTouchGestureArea() override;

	/** Rejected touches go to the items below (default true); false drops them. */
	bool replayRejected() const { return m_replayRejected; }
	/** Set replayRejected. */
	void setReplayRejected(bool v);
	/** Touches grail has not decided yet (their events are held). */
	int heldTouches() const;
	/** Touches an accepted gesture holds. */
	int claimedTouches() const;

	/** Accept (@p accept) or reject gesture @p g; Gesture.accept()/reject() call it. */
	bool decide(UTouchGesture *g, bool accept);

Q_SIGNALS:
	/** A gesture began (after its Subscription's began). */
	void gestureBegan(UTouchGesture *gesture);
	/** A gesture changed. */
	void gestureUpdated(UTouchGesture *gesture);
	/** A gesture ended. */
	void gestureEnded(UTouchGesture *gesture);
	/** grail gave touch @p id (a Qt point id) to an accepted gesture. */
	void touchClaimed(int id);
	/** No gesture wants touch @p id: it goes to the items below. */
	void touchUnclaimed(int id);
	/** replayRejected changed. */
	void replayRejectedChanged();
	/** heldTouches or claimedTouches changed. */
	void touchesChanged();

protected:
	void componentComplete() override;
	void touchEvent(QTouchEvent *event) override;
	void childEvent(QChildEvent *event) override;
	void itemChange(ItemChange change, const ItemChangeData &value) override;

private:
	/*
	 * Held: grail undecided, events logged.  Claimed: an accepted gesture
	 * holds it.  Unclaimed: rejected, waiting for replay().  Forwarded:
	 * replayed; later events go to `target`.  Dropped: rejected and no
	 * item below took it (or replayRejected is false).
	 */
	enum Route { Held, Claimed, Unclaimed, Forwarded, Dropped };
	struct Touch {
		UFTouchId grailId;
		Route route;
		bool released;   /* lifted (its release is in the log if held) */
		bool inGrail;    /* grail's frame still has it */
		QPointer<QQuickItem> target;
	};
	struct LoggedEvent {
		quint64 frame;   /* events of one QTouchEvent share it */
		int id;
		QEventPoint::State state;
		QPointF scenePos, globalPos;
		quint64 timestamp;
		const QPointingDevice *device;
	};
	struct Sub {
		UTouchSubscription *qml;
		UGSubscription grail;
		bool active;
	};

	static UFStatus onTouchDecision(void *data, UFWindowId window, UFTouchId id, int accept);
	void addSubscription(UTouchSubscription *s);
	void removeSubscription(QObject *s);
	void applySubscription(UTouchSubscription *s);
	void scanSubscriptions();
	UTouchSubscription *qmlSubscription(UGSubscription s) const;
	void frameTouch(UFTouchId id, bool begin, bool end, const QPointF *pos, uint64_t time);
	void frameEnd(uint64_t time);
	uint64_t grailNow() const;
	void noteTime(quint64 timestamp);
	void flush();
	bool takeDecisions();
	bool takeSlices();
	void dispatch(UGEvent ev);
	void forgetGesture(UTouchGesture *g);
	bool endUnclaimedInGrail();
	void cancelAll();
	void replay();
	QList<QQuickItem *> itemsBelow(QPointF scenePos) const;
	void collectItems(QQuickItem *item, QPointF scenePos, QList<QQuickItem *> &out) const;
	bool deliver(QQuickItem *target, const QList<LoggedEvent> &events);
	void armTimer();
	void onTimer();

	UGHandle m_grail = nullptr;
	UFBackendDevice m_device = nullptr;
	UTouchFrameBuilder m_builder = nullptr;  /* window Window */
	QList<Sub> m_subs;
	bool m_complete = false;
	bool m_replayRejected = true;
	UFTouchId m_nextGrailId = 1;
	QHash<int, Touch> m_touches;          /* by Qt point id */
	QHash<UFTouchId, int> m_qtIds;        /* grail id -> Qt point id */
	QList<LoggedEvent> m_log;             /* held touches' events, oldest first */
	quint64 m_frames = 0;
	QList<QPair<UFTouchId, bool>> m_decisions;
	QHash<unsigned int, UTouchGesture *> m_gestures;
	QList<int> m_replayIds;               /* rejected, waiting for replay() */
	bool m_replayingNow = false;
	int m_depth = 0;
	QTimer m_timer;
	QElapsedTimer m_clock;
	uint64_t m_lastTime = 0;              /* grail time of the last input (ms) */
	qint64 m_clockAtLast = 0;             /* m_clock then */
};

#endif
