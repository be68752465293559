/* UTouch QML module: GestureArea (see gesture-area.h and doc/qml.md). */
#include "gesture-area.h"

#include <QQmlInfo>
#include <QQuickWindow>
#include <QTouchEvent>
#include <QtGui/private/qeventpoint_p.h>

#include <functional>
#include <memory>

#include <utouch/frame_handle.h>

#include "gesture.h"
#include "subscription.h"

namespace {

constexpr UFWindowId Window = 1;
constexpr unsigned int MaxTouches = 32;

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

void
UTouchGestureArea::touchEvent(QTouchEvent *event)
{
	if (!m_grail || !m_builder) {
		event->ignore();
		return;
	}
	if (event->type() == QEvent::TouchCancel) {
		cancelAll();
		event->accept();
		return;
	}
	Step step(m_depth, [this] { flush(); });
	bool mine = false;
	QHash<QQuickItem *, QList<LoggedEvent>> forwarded;

	noteTime(event->timestamp());
	m_frames++;
	for (const QEventPoint &p : event->points()) {
		const int id = p.id();
		auto &mp = const_cast<QEventPoint &>(p);
		auto it = m_touches.find(id);
		if (p.state() == QEventPoint::State::Pressed) {
			if (it != m_touches.end()) {
				/* the id was reused: the old touch was lost (ungrabbed) */
				if (it->inGrail)
					frameTouch(it->grailId, false, true, nullptr, m_lastTime);
				m_log.removeIf([id](const LoggedEvent &e) { return e.id == id; });
				m_replayIds.removeAll(id);
				m_touches.erase(it);
			}
			if (m_touches.size() >= int(MaxTouches)) {
				mp.setAccepted(false);
				continue;
			}
			UFTouchId gid = m_nextGrailId++;
			m_touches.insert(id, Touch{gid, Held, false, true, nullptr});
			/*
			 * grail id -> Qt id outlives the touch (a gesture's End slice
			 * still names it); long gone touches are forgotten
			 */
			if (m_qtIds.size() > 4096)
				m_qtIds.removeIf([gid](const auto &e) { return e.key() + 2048 < gid; });
			m_qtIds.insert(gid, id);
			{
				const QPointF pos = p.position();
				frameTouch(gid, true, false, &pos, m_lastTime);
			}
			it = m_touches.find(id);
		} else if (it == m_touches.end()) {
			mp.setAccepted(false); /* not ours (e.g. replayed earlier) */
			continue;
		}
		mine = true;
		mp.setAccepted(true);
		const bool released = p.state() == QEventPoint::State::Released;
		const LoggedEvent logged{m_frames, id, p.state(), p.scenePosition(),
					 p.globalPosition(), event->timestamp(), event->pointingDevice()};
		if (it->route == Held || it->route == Unclaimed) {
			m_log.append(logged);
		} else if (it->route == Forwarded) {
			if (it->target)
				forwarded[it->target.data()].append(logged);
		}
		if (it->inGrail && p.state() != QEventPoint::State::Pressed &&
		    (p.state() != QEventPoint::State::Stationary || released)) {
			const QPointF pos = p.position();
			frameTouch(it->grailId, false, released, &pos, m_lastTime);
		}
		if (released) {
			it->released = true;
			it->inGrail = false;
			if (it->route == Claimed || it->route == Forwarded || it->route == Dropped) {
				m_touches.erase(it);
			}
		}
	}
	frameEnd(m_lastTime);
	/* touches replayed earlier follow their item below */
	for (auto f = forwarded.begin(); f != forwarded.end(); ++f)
		deliver(f.key(), f.value());
	if (mine)
		event->accept();
	else
		event->ignore();
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
	/* touches that went to items below are cancelled there too */
	QList<QPointer<QQuickItem>> targets;
	for (const Touch &t : std::as_const(m_touches))
		if (t.route == Forwarded && t.target && !targets.contains(t.target))
			targets.append(t.target);
	m_touches.clear();
	m_log.clear();
	for (const QPointer<QQuickItem> &t : targets) {
		QTouchEvent cancel(QEvent::TouchCancel);
		if (t)
			QCoreApplication::sendEvent(t.data(), &cancel);
	}
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
	armTimer();
}

/*
 * Items below the area at @p scenePos that take touch events, topmost
 * first, in the order Qt Quick's delivery tries them (children in reverse
 * paint order before their parent), without the area and its children.
 */
QList<QQuickItem *>
UTouchGestureArea::itemsBelow(QPointF scenePos) const
{
	QList<QQuickItem *> out;
	if (window())
		collectItems(window()->contentItem(), scenePos, out);
	return out;
}

void
UTouchGestureArea::collectItems(QQuickItem *item, QPointF scenePos, QList<QQuickItem *> &out) const
{
	if (item == this || !item->isVisible() || !item->isEnabled())
		return;
	QList<QQuickItem *> kids = item->childItems();
	std::stable_sort(kids.begin(), kids.end(),
			 [](QQuickItem *a, QQuickItem *b) { return a->z() < b->z(); });
	for (auto k = kids.rbegin(); k != kids.rend(); ++k)
		collectItems(*k, scenePos, out);
	if (item->acceptTouchEvents() && item->contains(item->mapFromScene(scenePos)))
		out.append(item);
}

/*
 * Send @p events (one frame's points of touches that go to @p target) to
 * @p target as one QTouchEvent, positions in its coordinates.  Returns
 * whether it accepted the event.
 */
bool
UTouchGestureArea::deliver(QQuickItem *target, const QList<LoggedEvent> &events)
{
	QList<QEventPoint> points;
	bool pressed = true, released = true;
	for (const LoggedEvent &e : events) {
		points.append(QMutableEventPoint::withTimeStamp(
			ulong(e.timestamp), e.id, e.state, target->mapFromScene(e.scenePos),
			e.scenePos, e.globalPos));
		pressed = pressed && e.state == QEventPoint::State::Pressed;
		released = released && e.state == QEventPoint::State::Released;
	}
	/* a begin or end of the whole sequence for the target, else an update */
	bool others = false;
	for (auto it = m_touches.cbegin(); it != m_touches.cend(); ++it) {
		if (it->route != Forwarded || it->target != target)
			continue;
		bool inEvent = false;
		for (const LoggedEvent &e : events)
			inEvent = inEvent || e.id == it.key();
		others = others || !inEvent;
	}
	QEvent::Type type = pressed && !others ? QEvent::TouchBegin
			    : released && !others ? QEvent::TouchEnd : QEvent::TouchUpdate;
	QTouchEvent ev(type, events.first().device, Qt::NoModifier, points);
	ev.setTimestamp(events.first().timestamp);
	ev.setAccepted(true);
	QCoreApplication::sendEvent(target, &ev);
	return ev.isAccepted();
}

/*
 * Replay the events of rejected touches, in the order they came (one
 * QTouchEvent per original event and item), to the topmost item below the
 * touch's first position that takes touch events and accepts the press;
 * the touch's later events follow it there (Forwarded).
 */
void
UTouchGestureArea::replay()
{
	m_replayingNow = true;
	QPointer<UTouchGestureArea> self(this);
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
			if (it != m_touches.end())
				it->route = m_replayRejected ? Forwarded : Dropped;
		}
		for (int i = 0; m_replayRejected && i < events.size();) {
			int j = i;
			QHash<QQuickItem *, QList<LoggedEvent>> byTarget;
			QList<QQuickItem *> order;
			for (; j < events.size() && events[j].frame == events[i].frame; j++) {
				const LoggedEvent &e = events[j];
				auto it = m_touches.find(e.id);
				if (it == m_touches.end() || it->route != Forwarded)
					continue;
				if (e.state == QEventPoint::State::Pressed) {
					/* the first item below that takes the press */
					it->target = nullptr;
					for (QQuickItem *item : itemsBelow(e.scenePos)) {
						if (deliver(item, {e})) {
							it->target = item;
							break;
						}
						if (!self)
							return;
					}
					if (!it->target)
						it->route = Dropped;
					continue;
				}
				if (!it->target)
					continue;
				if (!byTarget.contains(it->target))
					order.append(it->target);
				byTarget[it->target].append(e);
			}
			for (QQuickItem *t : order) {
				deliver(t, byTarget[t]);
				if (!self)
					return;
			}
			i = j;
		}
		/* touches that were lifted are done */
		for (int id : ids) {
			auto it = m_touches.find(id);
			if (it != m_touches.end() && it->released) {
				m_touches.erase(it);
			}
		}
	}
	m_replayingNow = false;
	Q_EMIT touchesChanged();
}
