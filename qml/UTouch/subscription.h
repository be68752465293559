/*
 * UTouch QML module: Subscription, the gestures a GestureArea asks grail
 * for.
 *
 * Declared as a child of a GestureArea (like Qt Quick's pointer handlers):
 *
 *   GestureArea {
 *       Subscription { gestures: Gesture.Pinch; touches: 2
 *                      onBegan: (g) => g.accept() }
 *   }
 *
 * Each Subscription is one grail subscription on the area's device and
 * window.  Defaults are grail's.  Distances are logical pixels (grail's
 * metres at 3780 px/m, i.e. 96 px per inch, Qt's logical DPI), angles
 * degrees, times ms; a timeout of 0 means no time limit (hold: not
 * allowed).  Changes apply to gestures that begin afterwards; a value grail
 * refuses leaves the subscription inactive and says why in `error`.
 */
#ifndef UTOUCH_QML_SUBSCRIPTION_H
#define UTOUCH_QML_SUBSCRIPTION_H

#include <QObject>
#include <QString>
#include <QtQml/qqmlregistration.h>

#include <oif/grail.h>

#include "gesture.h"

class UTouchSubscription : public QObject
{
	Q_OBJECT
	QML_NAMED_ELEMENT(Subscription)
	Q_PROPERTY(bool enabled MEMBER m_enabled WRITE setEnabled NOTIFY settingsChanged)
	Q_PROPERTY(UTouchGesture::Classes gestures MEMBER m_gestures WRITE setGestures NOTIFY settingsChanged)
	Q_PROPERTY(int touches MEMBER m_touches WRITE setTouches NOTIFY settingsChanged)
	Q_PROPERTY(int minimumTouches MEMBER m_minimumTouches WRITE setMinimumTouches NOTIFY settingsChanged)
	Q_PROPERTY(int maximumTouches MEMBER m_maximumTouches WRITE setMaximumTouches NOTIFY settingsChanged)
	Q_PROPERTY(bool atomic MEMBER m_atomic WRITE setAtomic NOTIFY settingsChanged)
	Q_PROPERTY(qreal dragThreshold MEMBER m_dragThreshold WRITE setDragThreshold NOTIFY settingsChanged)
	Q_PROPERTY(int dragTimeout MEMBER m_dragTimeout WRITE setDragTimeout NOTIFY settingsChanged)
	Q_PROPERTY(qreal pinchThreshold MEMBER m_pinchThreshold WRITE setPinchThreshold NOTIFY settingsChanged)
	Q_PROPERTY(int pinchTimeout MEMBER m_pinchTimeout WRITE setPinchTimeout NOTIFY settingsChanged)
	Q_PROPERTY(qreal rotateThreshold MEMBER m_rotateThreshold WRITE setRotateThreshold NOTIFY settingsChanged)
	Q_PROPERTY(int rotateTimeout MEMBER m_rotateTimeout WRITE setRotateTimeout NOTIFY settingsChanged)
	Q_PROPERTY(qreal tapThreshold MEMBER m_tapThreshold WRITE setTapThreshold NOTIFY settingsChanged)
	Q_PROPERTY(int tapTimeout MEMBER m_tapTimeout WRITE setTapTimeout NOTIFY settingsChanged)
	Q_PROPERTY(qreal holdThreshold MEMBER m_holdThreshold WRITE setHoldThreshold NOTIFY settingsChanged)
	Q_PROPERTY(int holdTimeout MEMBER m_holdTimeout WRITE setHoldTimeout NOTIFY settingsChanged)
	Q_PROPERTY(qreal multiTapThreshold MEMBER m_multiTapThreshold WRITE setMultiTapThreshold NOTIFY settingsChanged)
	Q_PROPERTY(int multiTapTimeout MEMBER m_multiTapTimeout WRITE setMultiTapTimeout NOTIFY settingsChanged)
	Q_PROPERTY(int multiTapMaximum MEMBER m_multiTapMaximum WRITE setMultiTapMaximum NOTIFY settingsChanged)
	Q_PROPERTY(int velocityWindow MEMBER m_velocityWindow WRITE setVelocityWindow NOTIFY settingsChanged)
	Q_PROPERTY(QString error READ error NOTIFY errorChanged)

public:
	/** Pixels per metre of grail's thresholds: Qt's 96 logical px per inch. */
	static constexpr float PixelsPerMetre = 96.0f / 0.0254f;

	/** A subscription with grail's defaults. */
	explicit UTouchSubscription(QObject *parent = nullptr);

	/** Why grail refused the subscription, or "" while it is active. */
	QString error() const { return m_error; }
	/** Set by the area after applying or activating. */
	void setError(const QString &error);
	/** Whether the subscription takes part (set from QML). */
	bool isEnabled() const { return m_enabled; }
	/**
	 * Write every property to @p sub (device and window are the area's).
	 * Returns UGStatusSuccess or the first status grail refused a value with;
	 * @p what then names the property.
	 */
	UGStatus apply(UGSubscription sub, QString *what) const;

	void setEnabled(bool v);
	void setGestures(UTouchGesture::Classes v);
	void setTouches(int v);
	void setMinimumTouches(int v);
	void setMaximumTouches(int v);
	void setAtomic(bool v);
	void setDragThreshold(qreal v);
	void setDragTimeout(int v);
	void setPinchThreshold(qreal v);
	void setPinchTimeout(int v);
	void setRotateThreshold(qreal v);
	void setRotateTimeout(int v);
	void setTapThreshold(qreal v);
	void setTapTimeout(int v);
	void setHoldThreshold(qreal v);
	void setHoldTimeout(int v);
	void setMultiTapThreshold(qreal v);
	void setMultiTapTimeout(int v);
	void setMultiTapMaximum(int v);
	void setVelocityWindow(int v);

Q_SIGNALS:
	/** A gesture of this subscription began (first slice grail handed out). */
	void began(UTouchGesture *gesture);
	/** It changed. */
	void updated(UTouchGesture *gesture);
	/** It ended (gesture.canceled when grail cancelled it). */
	void ended(UTouchGesture *gesture);
	/** A property changed; the area applies it. */
	void settingsChanged();
	/** error changed. */
	void errorChanged();

private:
	template <typename T> void set(T &member, T value);

	bool m_enabled = true;
	UTouchGesture::Classes m_gestures;
	int m_touches = 2;
	int m_minimumTouches = 0;
	int m_maximumTouches = 0;
	bool m_atomic = false;
	qreal m_dragThreshold, m_pinchThreshold, m_rotateThreshold, m_tapThreshold;
	qreal m_holdThreshold, m_multiTapThreshold;
	int m_dragTimeout, m_pinchTimeout, m_rotateTimeout, m_tapTimeout, m_holdTimeout;
	int m_multiTapTimeout, m_multiTapMaximum, m_velocityWindow;
	QString m_error;
};

#endif
