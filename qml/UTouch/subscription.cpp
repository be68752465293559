/* UTouch QML module: Subscription (see subscription.h). */
#include "subscription.h"

#include <QtMath>

namespace {

/* How a QML value maps to a grail property's value. */
enum Unit { Pixels, Ratio, Degrees, Millis, Count };

uint64_t
grailTimeout(UGSubscription sub, UGSubscriptionProperty p)
{
	uint64_t v = 0;
	grail_subscription_get_property(sub, p, &v);
	return v;
}

float
grailFloat(UGSubscription sub, UGSubscriptionProperty p)
{
	float v = 0;
	grail_subscription_get_property(sub, p, &v);
	return v;
}

UGStatus
setReal(UGSubscription sub, UGSubscriptionProperty p, Unit unit, qreal value)
{
	float v;

	switch (unit) {
	case Pixels: v = float(value / UTouchSubscription::PixelsPerMetre); break;
	case Degrees: v = float(qDegreesToRadians(value)); break;
	default: v = float(value); break;
	}
	return grail_subscription_set_property(sub, p, &v);
}

UGStatus
setTimeout(UGSubscription sub, UGSubscriptionProperty p, int ms)
{
	if (ms < 0)
		return UGStatusErrorInvalidValue;
	uint64_t v = uint64_t(ms);
	return grail_subscription_set_property(sub, p, &v);
}

} // namespace

UTouchSubscription::UTouchSubscription(QObject *parent)
	: QObject(parent)
{
	/* grail's defaults, read from grail so that there is one source */
	UGSubscription s = nullptr;
	grail_subscription_new(&s);
	m_dragThreshold = qreal(grailFloat(s, UGSubscriptionPropertyDragThreshold)) * PixelsPerMetre;
	m_pinchThreshold = qreal(grailFloat(s, UGSubscriptionPropertyPinchThreshold));
	m_rotateThreshold = qRadiansToDegrees(qreal(grailFloat(s, UGSubscriptionPropertyRotateThreshold)));
	m_tapThreshold = qreal(grailFloat(s, UGSubscriptionPropertyTapThreshold)) * PixelsPerMetre;
	m_holdThreshold = qreal(grailFloat(s, UGSubscriptionPropertyHoldThreshold)) * PixelsPerMetre;
	m_multiTapThreshold = qreal(grailFloat(s, UGSubscriptionPropertyMultiTapThreshold)) * PixelsPerMetre;
	m_dragTimeout = int(grailTimeout(s, UGSubscriptionPropertyDragTimeout));
	m_pinchTimeout = int(grailTimeout(s, UGSubscriptionPropertyPinchTimeout));
	m_rotateTimeout = int(grailTimeout(s, UGSubscriptionPropertyRotateTimeout));
	m_tapTimeout = int(grailTimeout(s, UGSubscriptionPropertyTapTimeout));
	m_holdTimeout = int(grailTimeout(s, UGSubscriptionPropertyHoldTimeout));
	m_multiTapTimeout = int(grailTimeout(s, UGSubscriptionPropertyMultiTapTimeout));
	m_velocityWindow = int(grailTimeout(s, UGSubscriptionPropertyVelocityWindow));
	unsigned int max = 0;
	grail_subscription_get_property(s, UGSubscriptionPropertyMultiTapMaximum, &max);
	m_multiTapMaximum = int(max);
	grail_subscription_delete(s);
}

void
UTouchSubscription::setError(const QString &error)
{
	if (m_error == error)
		return;
	m_error = error;
	Q_EMIT errorChanged();
}

template <typename T>
void
UTouchSubscription::set(T &member, T value)
{
	if (member == value)
		return;
	member = value;
	Q_EMIT settingsChanged();
}

void UTouchSubscription::setEnabled(bool v) { set(m_enabled, v); }
void UTouchSubscription::setGestures(UTouchGesture::Classes v) { set(m_gestures, v); }
void UTouchSubscription::setTouches(int v) { set(m_touches, v); }
void UTouchSubscription::setMinimumTouches(int v) { set(m_minimumTouches, v); }
void UTouchSubscription::setMaximumTouches(int v) { set(m_maximumTouches, v); }
void UTouchSubscription::setAtomic(bool v) { set(m_atomic, v); }
void UTouchSubscription::setDragThreshold(qreal v) { set(m_dragThreshold, v); }
void UTouchSubscription::setDragTimeout(int v) { set(m_dragTimeout, v); }
void UTouchSubscription::setPinchThreshold(qreal v) { set(m_pinchThreshold, v); }
void UTouchSubscription::setPinchTimeout(int v) { set(m_pinchTimeout, v); }
void UTouchSubscription::setRotateThreshold(qreal v) { set(m_rotateThreshold, v); }
void UTouchSubscription::setRotateTimeout(int v) { set(m_rotateTimeout, v); }
void UTouchSubscription::setTapThreshold(qreal v) { set(m_tapThreshold, v); }
void UTouchSubscription::setTapTimeout(int v) { set(m_tapTimeout, v); }
void UTouchSubscription::setHoldThreshold(qreal v) { set(m_holdThreshold, v); }
void UTouchSubscription::setHoldTimeout(int v) { set(m_holdTimeout, v); }
void UTouchSubscription::setMultiTapThreshold(qreal v) { set(m_multiTapThreshold, v); }
void UTouchSubscription::setMultiTapTimeout(int v) { set(m_multiTapTimeout, v); }
void UTouchSubscription::setMultiTapMaximum(int v) { set(m_multiTapMaximum, v); }
void UTouchSubscription::setVelocityWindow(int v) { set(m_velocityWindow, v); }

UGStatus
UTouchSubscription::apply(UGSubscription sub, QString *what) const
{
	struct Value {
		UGSubscriptionProperty p;
		Unit unit;
		qreal v;
		const char *name;
	};
	const Value values[] = {
		{UGSubscriptionPropertyMask, Count, qreal(m_gestures.toInt()), "gestures"},
		{UGSubscriptionPropertyTouchesStart, Count, qreal(m_touches), "touches"},
		{UGSubscriptionPropertyTouchesMinimum, Count, qreal(m_minimumTouches), "minimumTouches"},
		{UGSubscriptionPropertyTouchesMaximum, Count, qreal(m_maximumTouches), "maximumTouches"},
		{UGSubscriptionPropertyMultiTapMaximum, Count, qreal(m_multiTapMaximum), "multiTapMaximum"},
		{UGSubscriptionPropertyDragTimeout, Millis, qreal(m_dragTimeout), "dragTimeout"},
		{UGSubscriptionPropertyPinchTimeout, Millis, qreal(m_pinchTimeout), "pinchTimeout"},
		{UGSubscriptionPropertyRotateTimeout, Millis, qreal(m_rotateTimeout), "rotateTimeout"},
		{UGSubscriptionPropertyTapTimeout, Millis, qreal(m_tapTimeout), "tapTimeout"},
		{UGSubscriptionPropertyHoldTimeout, Millis, qreal(m_holdTimeout), "holdTimeout"},
		{UGSubscriptionPropertyMultiTapTimeout, Millis, qreal(m_multiTapTimeout), "multiTapTimeout"},
		{UGSubscriptionPropertyVelocityWindow, Millis, qreal(m_velocityWindow), "velocityWindow"},
		{UGSubscriptionPropertyDragThreshold, Pixels, m_dragThreshold, "dragThreshold"},
		{UGSubscriptionPropertyPinchThreshold, Ratio, m_pinchThreshold, "pinchThreshold"},
		{UGSubscriptionPropertyRotateThreshold, Degrees, m_rotateThreshold, "rotateThreshold"},
		{UGSubscriptionPropertyTapThreshold, Pixels, m_tapThreshold, "tapThreshold"},
		{UGSubscriptionPropertyHoldThreshold, Pixels, m_holdThreshold, "holdThreshold"},
		{UGSubscriptionPropertyMultiTapThreshold, Pixels, m_multiTapThreshold, "multiTapThreshold"},
	};
	UGStatus st;

	for (const Value &x : values) {
		if (x.unit == Millis) {
			st = setTimeout(sub, x.p, int(x.v));
		} else if (x.unit != Count) {
			st = setReal(sub, x.p, x.unit, x.v);
		} else if ((x.p == UGSubscriptionPropertyTouchesMinimum ||
			    x.p == UGSubscriptionPropertyTouchesMaximum) && x.v == 0) {
			continue; /* 0: unset, grail's default */
		} else if (x.v < 0) {
			st = UGStatusErrorInvalidValue;
		} else {
			unsigned int u = unsigned(x.v);
			st = grail_subscription_set_property(sub, x.p, &u);
		}
		if (st != UGStatusSuccess) {
			*what = QString::fromLatin1(x.name);
			return st;
		}
	}
	int atomic = m_atomic ? 1 : 0;
	st = grail_subscription_set_property(sub, UGSubscriptionPropertyAtomicGestures, &atomic);
	if (st != UGStatusSuccess)
		*what = QStringLiteral("atomic");
	return st;
}
