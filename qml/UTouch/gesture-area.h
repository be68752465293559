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
 * is replayed, in order, through the window as touches of a device of the
 * area's own, so that Qt delivers them to the items, pointer handlers and
 * mouse areas below as it delivers real touches (doc/qml.md, "Ownership
 * and replay").  While it holds touches the area keeps their grab
 * (keepTouchGrab); a touch taken from it anyway ends in grail and cancels
 * its gestures.  Touchpad pinches (QNativeGestureEvent) and Ctrl+wheel
 * become two virtual touches.  grail's timeouts run on a QTimer in the
 * time base of the touch events.
 */
#ifndef UTOUCH_QML_GESTURE_AREA_H
#define UTOUCH_QML_GESTURE_AREA_H

#include <QElapsedTimer>
#include <QEventPoint>
#include <QHash>
#include <QList>
#include <QPointer>
#include <QPointingDevice>
#include <QQuickItem>
#include <QSet>
#include <QTimer>
#include <QtQml/qqmlregistration.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>
#include <utouch/frame_handle.h>
#include <oif/grail.h>

class UTouchGesture;
class UTouchSubscription;
class QNativeGestureEvent;
class QQuickWindow;

Q_MOC_INCLUDE("gesture.h")

class UTouchGestureArea : public QQuickItem
{
	Q_OBJECT
	QML_NAMED_ELEMENT(GestureArea)
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
	bool event(QEvent *event) override;
	void touchEvent(QTouchEvent *event) override;
	void wheelEvent(QWheelEvent *event) override;
	void childEvent(QChildEvent *event) override;
	void itemChange(ItemChange change, const ItemChangeData &value) override;

private:
	/*
	 * Held: grail undecided, events logged.  Claimed: an accepted gesture
	 * holds it.  Unclaimed: rejected, waiting for replay().  Forwarded:
	 * replayed through the window as replay touch `replayId`; its later
	 * events follow.  Dropped: rejected and not replayed (replayRejected
	 * is false, or a virtual touch).
	 */
	enum Route { Held, Claimed, Unclaimed, Forwarded, Dropped };
	struct Touch {
		UFTouchId grailId;
		Route route;
		bool released;   /* lifted (its release is in the log if held) */
		bool inGrail;    /* grail's frame still has it */
		int replayId;    /* id on the replay device once Forwarded, else -1 */
		QPointF lastGlobal; /* where the replay touch last was (global) */
	};
	/* One touch event to replay through a window (or a cancel). */
	struct ReplayFrame {
		QPointer<QQuickWindow> window;
		quint64 timestamp;
		QList<QPair<int, QEventPoint::State>> points; /* replay id, state */
		QList<QPointF> globals;
		bool cancel;
	};
	/* A touchpad pinch or Ctrl+wheel zoom played as two virtual touches. */
	struct Virtual {
		bool active = false;
		QPointF centre;      /* item coordinates */
		qreal scale = 1, angle = 0; /* angle in degrees, clockwise */
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
	void queueReplay(const QList<LoggedEvent> &events);
	void stopWatchers(const QList<LoggedEvent> &events, int id);
	void sendReplays();
	void sendReplaysLater();
	int replayIdFor(int id);
	QPointingDevice *replayDevice();
	void watchDevice(const QPointingDevice *device);
	void onGrabChanged(QObject *grabber, QPointingDevice::GrabTransition transition,
			   const QPointerEvent *event, const QEventPoint &point);
	void loseTouch(int id, bool endFrame = true);
	void updateGrab();
	void nativeGesture(QNativeGestureEvent *event);
	void virtualBegin(QPointF centre, quint64 timestamp);
	void virtualMove(quint64 timestamp);
	void virtualEnd(quint64 timestamp);
	void addTouch(int id, QPointF pos);
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
	QPointingDevice *m_replayDevice = nullptr; /* replayed touches come from it */
	int m_nextReplayId = 1;
	QList<ReplayFrame> m_replays;         /* waiting for sendReplays() */
	bool m_replaysQueued = false;
	QPointer<QQuickWindow> m_replayWindow; /* where replays went last */
	QSet<UFTouchId> m_lost;               /* taken from the area: their gestures are cancelled */
	Virtual m_virtual;
	QTimer m_wheelEnd;                    /* ends a Ctrl+wheel zoom */
	int m_depth = 0;
	QTimer m_timer;
	QElapsedTimer m_clock;
	uint64_t m_lastTime = 0;              /* grail time of the last input (ms) */
	qint64 m_clockAtLast = 0;             /* m_clock then */
};

#endif
