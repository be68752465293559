/* UTouch QML module: GestureArea (see gesture-area.h and doc/qml.md). */
#include "gesture-area.h"

#include <QCoreApplication>
#include <QQmlInfo>
#include <QQuickWindow>
#include <QScreen>
#include <QTouchEvent>
#include <QWheelEvent>
#include <cmath>
/*
 * Qt's platform input interface, the way every real touch enters Qt: the
 * replayed touches take it so that Qt delivers them like real ones
 * (doc/qml.md, "Ownership and replay").  No public API injects touches
 * with their positions, timestamps and velocities; the doc says what was
 * tried and how it fails.
 */
#include <QtGui/private/qhighdpiscaling_p.h>
#include <qpa/qwindowsysteminterface.h>

#include <functional>
#include <memory>

#include <utouch/frame_handle.h>

#include "gesture.h"
#include "subscription.h"

namespace {

constexpr UFWindowId Window = 1;
constexpr unsigned int MaxTouches = 32;
/* Qt point ids of the two virtual touches of a touchpad pinch or Ctrl+wheel zoom. */
constexpr int VirtualIds[2] = {-1, -2};
/* Half the distance between the virtual touches at the start (px). */
constexpr qreal VirtualRadius = 50;
/* A Ctrl+wheel zoom ends this long (ms) after its last wheel event. */
constexpr int WheelEndMs = 250;

/* Decrements the nesting depth and runs the area's pending work at the outermost level. */
struct Step {
	int &depth;
	std::function<void()> done;
	Step(int &d, std::function<void()> f) : depth(d), done(std::move(f)) { depth++; }
	~Step()
	{
		if (--depth == 0)
			done();
	}
};

const char *
statusName(UGStatus st)
{
	switch (st) {
	case UGStatusSuccess: return "success";
	case UGStatusErrorResources: return "out of memory";
	case UGStatusErrorInvalidValue: return "invalid value";
	case UGStatusErrorInvalidSubscription: return "inconsistent touch counts";
	case UGStatusErrorInvalidGesture: return "no undecided gesture has this id";
	case UGStatusErrorAtomicity:
		return "atomic subscriptions cannot be accepted or rejected, and all subscriptions "
		       "of an area must agree on atomic";
	default: return "error";
	}
}

} // namespace

UTouchGestureArea::UTouchGestureArea(QQuickItem *parent)
	: QQuickItem(parent)
{
	setAcceptTouchEvents(true);
	setAcceptedMouseButtons(Qt::NoButton);
	m_clock.start();
	m_timer.setSingleShot(true);
	m_timer.setTimerType(Qt::PreciseTimer);
	connect(&m_timer, &QTimer::timeout, this, &UTouchGestureArea::onTimer);
	m_wheelEnd.setSingleShot(true);
	connect(&m_wheelEnd, &QTimer::timeout, this, [this] {
		if (m_virtual.active)
			virtualEnd(m_lastTime + uint64_t(WheelEndMs));
	});

	if (grail_new(&m_grail) != UGStatusSuccess) {
		m_grail = nullptr;
		qmlWarning(this) << "GestureArea: grail_new failed (out of memory or file descriptors)";
		return;
	}
	m_device = frame_backend_device_new();
	if (!m_device) {
		qmlWarning(this) << "GestureArea: out of memory";
		return;
	}
	frame_backend_device_set_name(m_device, "QML touch");
	frame_backend_device_set_direct(m_device, 1);
	frame_backend_device_set_independent(m_device, 0);
	frame_backend_device_set_semi_mt(m_device, 0);
	frame_backend_device_set_max_touches(m_device, MaxTouches);
	frame_backend_device_set_window_resolution(m_device, UTouchSubscription::PixelsPerMetre,
						   UTouchSubscription::PixelsPerMetre);
	utouch_frame_backend_device_set_touch_handler(m_device, onTouchDecision, this);
	if (utouch_frame_builder_new(m_device, Window, 1, &m_builder) != UFStatusSuccess) {
		m_builder = nullptr;
		qmlWarning(this) << "GestureArea: out of memory";
		return;
	}
	UFEvent ev = nullptr;
	if (utouch_frame_device_event_new(m_device, UFEventTypeDeviceAdded, 0, &ev) ==
	    UFStatusSuccess) {
		grail_process_frame_event(m_grail, ev);
		frame_event_unref(ev);
	}
}

UTouchGestureArea::~UTouchGestureArea()
{
	m_timer.stop();
	if (m_device)
		utouch_frame_backend_device_set_touch_handler(m_device, nullptr, nullptr);
	if (m_grail) {
		for (Sub &s : m_subs)
			if (s.active)
				grail_subscription_deactivate(m_grail, s.grail);
		grail_delete(m_grail);
	}
	for (Sub &s : m_subs)
		grail_subscription_delete(s.grail);
	utouch_frame_builder_delete(m_builder);
	if (m_device)
		frame_backend_device_delete(m_device);
}

void
UTouchGestureArea::setReplayRejected(bool v)
{
	if (m_replayRejected == v)
		return;
	m_replayRejected = v;
	Q_EMIT replayRejectedChanged();
}

int
UTouchGestureArea::heldTouches() const
{
	int n = 0;
	for (const Touch &t : m_touches)
		n += t.route == Held;
	return n;
}

int
UTouchGestureArea::claimedTouches() const
{
	int n = 0;
	for (const Touch &t : m_touches)
		n += t.route == Claimed;
	return n;
}

/* ---- subscriptions ---- */

void
UTouchGestureArea::componentComplete()
{
	QQuickItem::componentComplete();
	m_complete = true;
	scanSubscriptions();
}

void
UTouchGestureArea::childEvent(QChildEvent *event)
{
	QQuickItem::childEvent(event);
	if (!m_complete)
		return;
	if (event->added())
		scanSubscriptions();
	else if (event->removed())
		removeSubscription(event->child());
}

void
UTouchGestureArea::scanSubscriptions()
{
	for (QObject *o : children())
		if (auto *s = qobject_cast<UTouchSubscription *>(o))
			addSubscription(s);
}

void
UTouchGestureArea::addSubscription(UTouchSubscription *s)
{
	for (const Sub &x : m_subs)
		if (x.qml == s)
			return;
	UGSubscription g = nullptr;
	if (!m_grail || grail_subscription_new(&g) != UGStatusSuccess) {
		s->setError(QStringLiteral("out of memory"));
		return;
	}
	m_subs.append(Sub{s, g, false});
	connect(s, &UTouchSubscription::settingsChanged, this, [this, s] { applySubscription(s); });
	connect(s, &QObject::destroyed, this, [this, s] { removeSubscription(s); });
	applySubscription(s);
}

void
UTouchGestureArea::removeSubscription(QObject *o)
{
	for (int i = 0; i < m_subs.size(); i++) {
		if (m_subs[i].qml != o)
			continue;
		Step step(m_depth, [this] { flush(); });
		Sub s = m_subs.takeAt(i);
		disconnect(s.qml, nullptr, this, nullptr);
		if (s.active)
			grail_subscription_deactivate(m_grail, s.grail);
		/* the cancelled gestures' End slices name it: take them now */
		m_subs.append(Sub{nullptr, s.grail, false});
		takeSlices();
		m_subs.removeLast();
		grail_subscription_delete(s.grail);
		return;
	}
}

void
UTouchGestureArea::applySubscription(UTouchSubscription *s)
{
	Sub *sub = nullptr;
	for (Sub &x : m_subs)
		if (x.qml == s)
			sub = &x;
	if (!sub)
		return;
	Step step(m_depth, [this] { flush(); });
	if (sub->active) {
		/* its gestures in progress are cancelled (ended, canceled) */
		grail_subscription_deactivate(m_grail, sub->grail);
		sub->active = false;
	}
	UFDevice dev = frame_backend_device_get_device(m_device);
	UFWindowId win = Window;
	grail_subscription_set_property(sub->grail, UGSubscriptionPropertyDevice, &dev);
	grail_subscription_set_property(sub->grail, UGSubscriptionPropertyWindow, &win);
	QString what;
	UGStatus st = s->apply(sub->grail, &what);
	if (st != UGStatusSuccess) {
		s->setError(QStringLiteral("%1: %2").arg(what, QLatin1String(statusName(st))));
		qmlWarning(s) << "Subscription: " << s->error();
		return;
	}
	if (!s->isEnabled()) {
		s->setError(QString());
		return;
	}
	st = grail_subscription_activate(m_grail, sub->grail);
	if (st != UGStatusSuccess) {
		s->setError(QLatin1String(statusName(st)));
		qmlWarning(s) << "Subscription: " << s->error();
		return;
	}
	sub->active = true;
	s->setError(QString());
}

UTouchSubscription *
UTouchGestureArea::qmlSubscription(UGSubscription s) const
{
	for (const Sub &x : m_subs)
		if (x.grail == s)
			return x.qml;
	return nullptr;
}

/* ---- frames ---- */

/* Add (@p begin) or change touch @p id in the frame being built (begun on
 * the first change); @p pos NULL keeps the position. */
void
UTouchGestureArea::frameTouch(UFTouchId id, bool begin, bool end, const QPointF *pos,
			      uint64_t time)
{
	struct utouch_frame_touch_op op = {};

	if (utouch_frame_builder_begin(m_builder) != UFStatusSuccess)
		return;
	op.kind = begin ? UTOUCH_FRAME_OP_BEGIN : end ? UTOUCH_FRAME_OP_END : UTOUCH_FRAME_OP_UPDATE;
	op.id = id;
	op.time = time;
	op.start_time = time;
	if (pos) {
		op.set = UTOUCH_FRAME_SET_POSITION | 1u << UFAxisTypeX | 1u << UFAxisTypeY;
		op.window_x = op.values[UFAxisTypeX] = float(pos->x());
		op.window_y = op.values[UFAxisTypeY] = float(pos->y());
	}
	utouch_frame_builder_touch(m_builder, &op);
}

/* Send the frame being built, if any, to grail. */
void
UTouchGestureArea::frameEnd(uint64_t time)
{
	UFEvent ev = nullptr;

	if (utouch_frame_builder_end(m_builder, time, &ev) != UFStatusSuccess)
		return;
	grail_process_frame_event(m_grail, ev);
	frame_event_unref(ev);
}

/* ---- time ---- */

void
UTouchGestureArea::noteTime(quint64 timestamp)
{
	/* grail needs a clock that never goes back */
	m_lastTime = qMax<uint64_t>(m_lastTime, timestamp);
	m_clockAtLast = m_clock.elapsed();
}

uint64_t
UTouchGestureArea::grailNow() const
{
	return m_lastTime + uint64_t(qMax<qint64>(0, m_clock.elapsed() - m_clockAtLast));
}

void
UTouchGestureArea::armTimer()
{
	uint64_t due = m_grail ? grail_next_timeout(m_grail) : 0;

	if (!due) {
		m_timer.stop();
		return;
	}
	uint64_t now = grailNow();
	m_timer.start(due > now ? int(qMin<uint64_t>(due - now, 1u << 30)) : 0);
}

void
UTouchGestureArea::onTimer()
{
	Step step(m_depth, [this] { flush(); });
	grail_update_time(m_grail, grailNow());
}

/* ---- touch input ---- */

/* A new touch @p id (Qt point id) at @p pos (item coordinates), held, into grail's frame. */
void
UTouchGestureArea::addTouch(int id, QPointF pos)
{
	UFTouchId gid = m_nextGrailId++;
	m_touches.insert(id, Touch{gid, Held, false, true, -1, QPointF()});
	/*
	 * grail id -> Qt id outlives the touch (a gesture's End slice still
	 * names it); long gone touches are forgotten
	 */
	if (m_qtIds.size() > 4096) {
		m_qtIds.removeIf([gid](const auto &e) { return e.key() + 2048 < gid; });
		m_lost.removeIf([gid](UFTouchId l) { return l + 2048 < gid; });
	}
	m_qtIds.insert(gid, id);
	frameTouch(gid, true, false, &pos, m_lastTime);
}

void
UTouchGestureArea::touchEvent(QTouchEvent *event)
{
	if (!m_grail || !m_builder || event->pointingDevice() == m_replayDevice) {
		/* our own replayed touches are for the items below */
		event->ignore();
		for (const QEventPoint &p : event->points())
			const_cast<QEventPoint &>(p).setAccepted(false);
		return;
	}
	if (event->type() == QEvent::TouchCancel) {
		cancelAll();
		event->accept();
		return;
	}
	watchDevice(event->pointingDevice());
	Step step(m_depth, [this] { flush(); });
	bool mine = false;
	QList<LoggedEvent> forwarded;

	noteTime(event->timestamp());
	m_frames++;
	for (const QEventPoint &p : event->points()) {
		const int id = p.id();
		auto &mp = const_cast<QEventPoint &>(p);
		auto it = m_touches.find(id);
		if (p.state() == QEventPoint::State::Pressed) {
			if (it != m_touches.end()) {
				/* the id was reused: the old touch was lost unnoticed */
				loseTouch(id, false);
			}
			if (m_touches.size() >= int(MaxTouches)) {
				mp.setAccepted(false);
				continue;
			}
			addTouch(id, p.position());
			it = m_touches.find(id);
		} else if (it == m_touches.end()) {
			mp.setAccepted(false); /* not ours */
			continue;
		}
		mine = true;
		mp.setAccepted(true);
		const bool released = p.state() == QEventPoint::State::Released;
		const LoggedEvent logged{m_frames, id, p.state(), p.scenePosition(),
					 p.globalPosition(), event->timestamp(), event->pointingDevice()};
		if (it->route == Held || it->route == Unclaimed)
			m_log.append(logged);
		else if (it->route == Forwarded)
			forwarded.append(logged);
		if (it->inGrail && p.state() != QEventPoint::State::Pressed &&
		    (p.state() != QEventPoint::State::Stationary || released)) {
			const QPointF pos = p.position();
			frameTouch(it->grailId, false, released, &pos, m_lastTime);
		}
		if (released) {
			it->released = true;
			it->inGrail = false;
			if (it->route == Claimed || it->route == Dropped)
				m_touches.erase(it);
		}
	}
	frameEnd(m_lastTime);
	/* touches replayed earlier follow their replay */
	if (!forwarded.isEmpty())
		queueReplay(forwarded);
	if (mine)
		event->accept();
	else
		event->ignore();
	Q_EMIT touchesChanged();
}

/* Hear about grabs of @p device's points: another grabber may take ours. */
void
UTouchGestureArea::watchDevice(const QPointingDevice *device)
{
	if (device)
		connect(device, &QPointingDevice::grabChanged, this, &UTouchGestureArea::onGrabChanged,
			Qt::UniqueConnection);
}

/*
 * Our exclusive grab of a point ended while the touch is down: an item
 * took the point over (grabTouchPoints(), a filtering parent) or the grab
 * was cancelled (ungrabTouchPoints()).
 */
void
UTouchGestureArea::onGrabChanged(QObject *grabber, QPointingDevice::GrabTransition transition,
				 const QPointerEvent *, const QEventPoint &point)
{
	if (grabber != this || sender() == m_replayDevice)
		return;
	if (transition != QPointingDevice::CancelGrabExclusive &&
	    transition != QPointingDevice::UngrabExclusive)
		return;
	if (point.state() == QEventPoint::State::Released)
		return;
	auto it = m_touches.find(point.id());
	if (it == m_touches.end() || it->released)
		return;
	Step step(m_depth, [this] { flush(); });
	loseTouch(point.id());
	Q_EMIT touchesChanged();
}

/*
 * Touch @p id is gone without a release (taken by another grabber, or
 * its id reused): it ends in grail, and the gestures that had it end
 * cancelled; its held events are dropped, a replay of it is released.
 * With @p endFrame false the end joins the frame being built (a touch
 * event in progress) instead of making one of its own.
 */
void
UTouchGestureArea::loseTouch(int id, bool endFrame)
{
	auto it = m_touches.find(id);
	if (it == m_touches.end())
		return;
	if (it->inGrail) {
		frameTouch(it->grailId, false, true, nullptr, m_lastTime);
		if (endFrame)
			frameEnd(m_lastTime);
	}
	m_lost.insert(it->grailId);
	m_log.removeIf([id](const LoggedEvent &e) { return e.id == id; });
	m_replayIds.removeAll(id);
	if (it->route == Forwarded && it->replayId >= 0) {
		const LoggedEvent up{++m_frames, id, QEventPoint::State::Released, QPointF(),
				     it->lastGlobal, m_lastTime, nullptr};
		queueReplay({up});
	}
	m_touches.remove(id);
}

/*
 * Keep the grab of the touches the area holds (undecided, claimed, or
 * replayed from it), so that pointer handlers below do not take them
 * past their thresholds, whatever their grabPermissions; an item that
 * takes the points anyway is heard in onGrabChanged().
 */
void
UTouchGestureArea::updateGrab()
{
	bool hold = false;
	for (const Touch &t : std::as_const(m_touches))
		hold = hold || (!t.released && t.route != Dropped);
	if (keepTouchGrab() != hold)
		setKeepTouchGrab(hold);
}

/* ---- touchpad pinches and Ctrl+wheel: two virtual touches ---- */

bool
UTouchGestureArea::event(QEvent *event)
{
	if (event->type() == QEvent::NativeGesture && m_grail && m_builder) {
		nativeGesture(static_cast<QNativeGestureEvent *>(event));
		return event->isAccepted();
	}
	return QQuickItem::event(event);
}

/*
 * A touchpad pinch as the platform reports it (as PinchHandler takes it):
 * Begin, Zoom (scale factor - 1) and Rotate (degrees, clockwise) steps,
 * End.  It becomes two virtual touches about the pointer, 2 x 50 px
 * apart, that follow the zoom and rotation, so that grail recognizes the
 * pinch (and rotate, and drag if the pointer moves) through the area's
 * own subscriptions.
 */
void
UTouchGestureArea::nativeGesture(QNativeGestureEvent *ev)
{
	switch (ev->gestureType()) {
	case Qt::BeginNativeGesture:
		virtualBegin(ev->position(), ev->timestamp());
		break;
	case Qt::ZoomNativeGesture:
	case Qt::RotateNativeGesture:
	case Qt::PanNativeGesture:
		if (!m_virtual.active)
			virtualBegin(ev->position(), ev->timestamp());
		if (ev->gestureType() == Qt::ZoomNativeGesture)
			m_virtual.scale *= qMax<qreal>(0.01, 1 + ev->value());
		else if (ev->gestureType() == Qt::RotateNativeGesture)
			m_virtual.angle += ev->value();
		else
			m_virtual.centre += ev->delta();
		if (ev->gestureType() != Qt::PanNativeGesture)
			m_virtual.centre = ev->position();
		virtualMove(ev->timestamp());
		break;
	case Qt::EndNativeGesture:
		if (m_virtual.active)
			virtualEnd(ev->timestamp());
		break;
	default:
		ev->ignore();
		return;
	}
	ev->accept();
}

/*
 * Ctrl+wheel zooms (as in browsers and image viewers): each notch of 120
 * scales the virtual touches by sqrt(2), the step of Qt Quick's
 * WheelHandler; the zoom ends 250 ms after the last wheel event, or at
 * the first wheel event without Ctrl.  Other wheel events are not the
 * area's.
 */
void
UTouchGestureArea::wheelEvent(QWheelEvent *event)
{
	if (!m_grail || !m_builder || !(event->modifiers() & Qt::ControlModifier)) {
		if (m_virtual.active && m_wheelEnd.isActive())
			virtualEnd(event->timestamp());
		event->ignore();
		return;
	}
	const int delta = event->angleDelta().y() ? event->angleDelta().y() : event->angleDelta().x();
	if (!m_virtual.active)
		virtualBegin(event->position(), event->timestamp());
	m_virtual.scale *= std::pow(2.0, delta / 240.0);
	m_virtual.centre = event->position();
	virtualMove(event->timestamp());
	m_wheelEnd.start(WheelEndMs);
	event->accept();
}

/* Two virtual touches begin about @p centre (item coordinates). */
void
UTouchGestureArea::virtualBegin(QPointF centre, quint64 timestamp)
{
	Step step(m_depth, [this] { flush(); });
	for (int id : VirtualIds)
		if (m_touches.contains(id))
			loseTouch(id);
	noteTime(timestamp);
	m_frames++;
	m_virtual = Virtual{true, centre, 1, 0};
	for (int k = 0; k < 2; k++)
		addTouch(VirtualIds[k], centre + QPointF(k ? VirtualRadius : -VirtualRadius, 0));
	frameEnd(m_lastTime);
	Q_EMIT touchesChanged();
}

/* The virtual touches move to the current centre, scale and angle. */
void
UTouchGestureArea::virtualMove(quint64 timestamp)
{
	Step step(m_depth, [this] { flush(); });
	noteTime(timestamp);
	m_frames++;
	const qreal a = qDegreesToRadians(m_virtual.angle);
	const QPointF arm(VirtualRadius * m_virtual.scale * std::cos(a),
			  VirtualRadius * m_virtual.scale * std::sin(a));
	for (int k = 0; k < 2; k++) {
		auto it = m_touches.find(VirtualIds[k]);
		if (it == m_touches.end() || !it->inGrail)
			continue;
		const QPointF pos = m_virtual.centre + (k ? arm : -arm);
		frameTouch(it->grailId, false, false, &pos, m_lastTime);
	}
	frameEnd(m_lastTime);
}

/* The virtual touches lift. */
void
UTouchGestureArea::virtualEnd(quint64 timestamp)
{
	Step step(m_depth, [this] { flush(); });
	m_wheelEnd.stop();
	m_virtual.active = false;
	noteTime(timestamp);
	m_frames++;
	for (int id : VirtualIds) {
		auto it = m_touches.find(id);
		if (it == m_touches.end())
			continue;
		if (it->inGrail)
			frameTouch(it->grailId, false, true, nullptr, m_lastTime);
		it->inGrail = false;
		it->released = true;
		if (it->route != Held && it->route != Unclaimed)
			m_touches.erase(it);
	}
	frameEnd(m_lastTime);
	Q_EMIT touchesChanged();
}

void
UTouchGestureArea::itemChange(ItemChange change, const ItemChangeData &value)
{
	QQuickItem::itemChange(change, value);
	if ((change == ItemVisibleHasChanged || change == ItemEnabledHasChanged) && !value.boolValue)
		cancelAll();
	else if (change == ItemSceneChange && !value.window)
		cancelAll();
}

/*
 * The touches went away without being released (TouchCancel, the item was
 * hidden or disabled): grail cancels every gesture, held events are
 * dropped.
 */
void
UTouchGestureArea::cancelAll()
{
	if (!m_grail || m_touches.isEmpty())
		return;
	Step step(m_depth, [this] { flush(); });
	for (Sub &s : m_subs)
		if (s.active)
			grail_subscription_deactivate(m_grail, s.grail);
	takeSlices();
	for (const Touch &t : std::as_const(m_touches))
		if (t.inGrail)
			frameTouch(t.grailId, false, true, nullptr, m_lastTime);
	frameEnd(m_lastTime);
	/* touches replayed below are cancelled there too */
	bool replayed = false;
	for (const Touch &t : std::as_const(m_touches))
		replayed = replayed || (t.route == Forwarded && t.replayId >= 0);
	if (replayed) {
		m_replays.append(ReplayFrame{m_replayWindow, m_lastTime, {}, {}, true});
		sendReplaysLater();
	}
	m_touches.clear();
	m_log.clear();
	m_replayIds.clear();
	m_decisions.clear();
	for (Sub &s : m_subs)
		if (s.active)
			grail_subscription_activate(m_grail, s.grail);
	Q_EMIT touchesChanged();
}

/* ---- grail's decisions and slices ---- */

UFStatus
UTouchGestureArea::onTouchDecision(void *data, UFWindowId window, UFTouchId id, int accept)
{
	(void)window;
	auto *a = static_cast<UTouchGestureArea *>(data);
	a->m_decisions.append(qMakePair(id, accept != 0));
	return UFStatusSuccess;
}

bool
UTouchGestureArea::takeDecisions()
{
	if (m_decisions.isEmpty())
		return false;
	const auto decisions = m_decisions;
	m_decisions.clear();
	for (const auto &d : decisions) {
		auto q = m_qtIds.find(d.first);
		if (q == m_qtIds.end())
			continue;
		const int id = *q;
		auto it = m_touches.find(id);
		if (it == m_touches.end() || it->grailId != d.first || it->route != Held)
			continue;
		if (d.second) {
			it->route = Claimed;
			for (int i = m_log.size() - 1; i >= 0; i--)
				if (m_log[i].id == id)
					m_log.removeAt(i);
			if (it->released) {
				m_touches.erase(it);
			}
			Q_EMIT touchClaimed(id);
		} else {
			it->route = Unclaimed;
			m_replayIds.append(id);
			Q_EMIT touchUnclaimed(id);
		}
	}
	Q_EMIT touchesChanged();
	return true;
}

/*
 * Rejected touches leave grail's frame: no gesture can want them again.
 * Returns whether a frame was sent.
 */
bool
UTouchGestureArea::endUnclaimedInGrail()
{
	bool any = false;
	for (Touch &t : m_touches) {
		if (t.route == Unclaimed && t.inGrail) {
			frameTouch(t.grailId, false, true, nullptr, m_lastTime);
			t.inGrail = false;
			any = true;
		}
	}
	if (any)
		frameEnd(m_lastTime);
	return any;
}

bool
UTouchGestureArea::takeSlices()
{
	UGEvent ev;
	bool any = false;

	while (m_grail && grail_get_event(m_grail, &ev) == UGStatusSuccess) {
		any = true;
		dispatch(ev);
		grail_event_unref(ev);
	}
	return any;
}

void
UTouchGestureArea::dispatch(UGEvent ev)
{
	UGSlice s = nullptr;

	if (grail_event_get_type(ev) != UGEventTypeSlice ||
	    grail_event_get_property(ev, UGEventPropertySlice, &s) != UGStatusSuccess || !s)
		return;
	const unsigned int gid = grail_slice_get_id(s);
	const UGGestureState state = grail_slice_get_state(s);
	UTouchSubscription *sub = qmlSubscription(grail_slice_get_subscription(s));
	UTouchGesture *g = m_gestures.value(gid);
	if (!g) {
		if (state != UGGestureStateBegin || !sub)
			return;
		g = new UTouchGesture(this, gid, sub);
		m_gestures.insert(gid, g);
	}
	QList<int> ids;
	QList<QPointF> points;
	UFFrame frame = grail_slice_get_frame(s);
	const unsigned int n = grail_slice_get_num_touches(s);
	for (unsigned int i = 0; i < n; i++) {
		UFTouchId tid = 0;
		UFTouch touch = nullptr;
		grail_slice_get_touch_id(s, i, &tid);
		ids.append(m_qtIds.value(tid, -1));
		if (frame && frame_frame_get_touch_by_id(frame, tid, &touch) == UFStatusSuccess && touch)
			points.append(QPointF(frame_touch_get_window_x(touch),
					      frame_touch_get_window_y(touch)));
		else
			points.append(QPointF());
	}
	g->update(s, grail_event_get_time(ev), ids, points);
	if (state == UGGestureStateEnd) {
		/* a touch taken from the area ends its gestures as cancelled */
		for (unsigned int i = 0; i < n; i++) {
			UFTouchId tid = 0;
			grail_slice_get_touch_id(s, i, &tid);
			if (m_lost.contains(tid))
				g->markCanceled();
		}
	}
	QPointer<UTouchGesture> alive(g);
	switch (state) {
	case UGGestureStateBegin:
		Q_EMIT sub->began(g);
		if (alive)
			Q_EMIT gestureBegan(g);
		break;
	case UGGestureStateUpdate:
		Q_EMIT sub->updated(g);
		if (alive)
			Q_EMIT gestureUpdated(g);
		break;
	case UGGestureStateEnd:
		Q_EMIT sub->ended(g);
		if (alive)
			Q_EMIT gestureEnded(g);
		if (alive) {
			/* undecided at its end: give the touches back */
			if (g->decision() == UTouchGesture::Undecided && !g->canceled())
				grail_reject_gesture(m_grail, gid);
			forgetGesture(g);
		}
		break;
	}
}

void
UTouchGestureArea::forgetGesture(UTouchGesture *g)
{
	m_gestures.remove(g->grailId());
	g->deleteLater();
}

bool
UTouchGestureArea::decide(UTouchGesture *g, bool accept)
{
	if (!m_grail || m_gestures.value(g->grailId()) != g) {
		qmlWarning(this) << "Gesture." << (accept ? "accept" : "reject")
				 << "(): the gesture has ended or was decided";
		return false;
	}
	Step step(m_depth, [this] { flush(); });
	UGStatus st = accept ? grail_accept_gesture(m_grail, g->grailId())
			     : grail_reject_gesture(m_grail, g->grailId());
	if (st != UGStatusSuccess) {
		qmlWarning(this) << "Gesture." << (accept ? "accept" : "reject") << "(): "
				 << statusName(st);
		return false;
	}
	g->setDecision(accept ? UTouchGesture::Accepted : UTouchGesture::Rejected);
	if (!accept)
		forgetGesture(g);
	return true;
}

/*
 * The outermost step's end: carry out grail's decisions, deliver its
 * slices (handlers may decide gestures, which queues more), end rejected
 * touches in grail, until nothing is left; then schedule the replay and arm
 * the timer.
 */
void
UTouchGestureArea::flush()
{
	m_depth++;
	for (;;) {
		bool work = takeDecisions();
		work = takeSlices() || work;
		if (!work && !endUnclaimedInGrail())
			break;
	}
	m_depth--;
	if (!m_replayIds.isEmpty() && !m_replayingNow)
		replay();
	updateGrab();
	armTimer();
}

/*
 * The device the replayed touches come from: one per area, a touchscreen
 * registered with Qt like a real one, so that Qt tracks its points.
 */
QPointingDevice *
UTouchGestureArea::replayDevice()
{
	if (!m_replayDevice) {
		static qint64 nextSystemId = 0x75740000;
		m_replayDevice = new QPointingDevice(
			QStringLiteral("utouch replay"), nextSystemId++, QInputDevice::DeviceType::TouchScreen,
			QPointingDevice::PointerType::Finger,
			QInputDevice::Capability::Position | QInputDevice::Capability::Area,
			int(MaxTouches), 0, QString(), QPointingDeviceUniqueId(), this);
		QWindowSystemInterface::registerInputDevice(m_replayDevice);
	}
	return m_replayDevice;
}

/*
 * Queue @p events (of Forwarded touches, oldest first) for replay through
 * the window: one touch event per original event, with the replay
 * touches that are down and not in it as stationary points, as a
 * touchscreen reports them.  A touch gets its replay id at its press and
 * is forgotten after its release once lifted.
 */
void
UTouchGestureArea::queueReplay(const QList<LoggedEvent> &events)
{
	QQuickWindow *win = window();
	if (!win || events.isEmpty())
		return;
	m_replayWindow = win;
	for (int i = 0; i < events.size();) {
		ReplayFrame f{win, events[i].timestamp, {}, {}, false};
		QList<int> inFrame;
		int j = i;
		for (; j < events.size() && events[j].frame == events[i].frame; j++) {
			const LoggedEvent &e = events[j];
			auto it = m_touches.find(e.id);
			if (it == m_touches.end() || it->route != Forwarded)
				continue;
			if (e.state == QEventPoint::State::Pressed)
				it->replayId = replayIdFor(e.id);
			if (it->replayId < 0)
				continue;
			if (e.state != QEventPoint::State::Released || e.device)
				it->lastGlobal = e.globalPos;
			f.points.append(qMakePair(it->replayId, e.state));
			f.globals.append(it->lastGlobal);
			inFrame.append(e.id);
			if (e.state == QEventPoint::State::Released)
				it->replayId = -1;
		}
		i = j;
		if (f.points.isEmpty())
			continue;
		for (auto it = m_touches.cbegin(); it != m_touches.cend(); ++it) {
			if (it->route == Forwarded && it->replayId >= 0 && !inFrame.contains(it.key())) {
				f.points.append(qMakePair(it->replayId, QEventPoint::State::Stationary));
				f.globals.append(it->lastGlobal);
			}
		}
		m_replays.append(f);
	}
	/* lifted touches whose replay ended are done */
	m_touches.removeIf([](const auto &e) {
		return e.value().route == Forwarded && e.value().released && e.value().replayId < 0;
	});
	sendReplaysLater();
}

/*
 * The replay id of touch @p id: the same id, as the items below would
 * have seen it, unless a replay touch that is down has it (touches of two
 * devices with one id); then one above any id a device gives.
 */
int
UTouchGestureArea::replayIdFor(int id)
{
	bool used = false;
	for (const Touch &t : std::as_const(m_touches))
		used = used || t.replayId == id;
	if (!used)
		return id;
	return (1 << 24) + (m_nextReplayId++ & 0xffffff);
}

/*
 * Replays are sent from the event loop, not from inside the delivery of
 * the event that caused them: Qt delivers them as new input.
 */
void
UTouchGestureArea::sendReplaysLater()
{
	if (m_replaysQueued || m_replays.isEmpty())
		return;
	m_replaysQueued = true;
	QMetaObject::invokeMethod(this, &UTouchGestureArea::sendReplays, Qt::QueuedConnection);
}

void
UTouchGestureArea::sendReplays()
{
	m_replaysQueued = false;
	const QList<ReplayFrame> frames = m_replays;
	m_replays.clear();
	QPointingDevice *dev = replayDevice();
	for (const ReplayFrame &f : frames) {
		if (!f.window)
			continue;
		if (f.cancel) {
			QWindowSystemInterface::handleTouchCancelEvent<QWindowSystemInterface::SynchronousDelivery>(
				f.window, ulong(f.timestamp), dev);
			continue;
		}
		QList<QWindowSystemInterface::TouchPoint> points;
		const QRectF screen = f.window->screen() ? f.window->screen()->geometry() : QRectF();
		for (int k = 0; k < f.points.size(); k++) {
			QWindowSystemInterface::TouchPoint tp;
			const QPointF native = QHighDpi::toNativeGlobalPosition(f.globals[k], f.window.data());
			tp.id = f.points[k].first;
			tp.state = f.points[k].second;
			tp.pressure = tp.state == QEventPoint::State::Released ? 0 : 1;
			tp.area = QRectF(native - QPointF(0.5, 0.5), QSizeF(1, 1));
			if (screen.width() > 0 && screen.height() > 0)
				tp.normalPosition = QPointF((f.globals[k].x() - screen.x()) / screen.width(),
							    (f.globals[k].y() - screen.y()) / screen.height());
			points.append(tp);
		}
		QWindowSystemInterface::handleTouchEvent<QWindowSystemInterface::SynchronousDelivery>(
			f.window, ulong(f.timestamp), dev, points);
	}
	/* a handler below may have queued more */
	sendReplaysLater();
}

/*
 * Touch @p id, still down, is about to be replayed (its logged events are
 * @p events): the handlers below that watch its real point (passive
 * grabbers, such as a DragHandler that saw it pass) stop watching, or
 * they would take its later moves twice, from the real point and from
 * the replay, which keeps the id.  The replay gives them the touch anew.
 */
void
UTouchGestureArea::stopWatchers(const QList<LoggedEvent> &events, int id)
{
	const QPointingDevice *device = nullptr;
	for (const LoggedEvent &e : events)
		if (e.id == id && e.device)
			device = e.device;
	if (!device || device == m_replayDevice)
		return;
	QTouchEvent watch(QEvent::TouchUpdate, device, Qt::NoModifier,
			  {QEventPoint(id, QEventPoint::State::Stationary, QPointF(), QPointF())});
	if (!watch.passiveGrabbers(watch.point(0)).isEmpty())
		watch.clearPassiveGrabbers(watch.point(0));
}

/*
 * Replay the events of rejected touches, in the order they came, through
 * the window (queueReplay); the touches' later events follow.  With
 * replayRejected false they are dropped.
 */
void
UTouchGestureArea::replay()
{
	m_replayingNow = true;
	while (!m_replayIds.isEmpty()) {
		const QList<int> ids = m_replayIds;
		m_replayIds.clear();
		QList<LoggedEvent> events;
		for (int i = 0; i < m_log.size();) {
			if (ids.contains(m_log[i].id))
				events.append(m_log.takeAt(i));
			else
				i++;
		}
		for (int id : ids) {
			auto it = m_touches.find(id);
			if (it == m_touches.end())
				continue;
			const bool replayable = m_replayRejected && id >= 0;
			it->route = replayable ? Forwarded : Dropped;
			if (replayable && !it->released)
				stopWatchers(events, id);
			if (!replayable && it->released)
				m_touches.erase(it);
		}
		queueReplay(events);
	}
	m_replayingNow = false;
	Q_EMIT touchesChanged();
}
