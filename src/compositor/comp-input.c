/*
 * Touch input: the public calls through which the compositor hands over
 * its touches, and asks about them.  Entry points: each changes touch state
 * (comp-touch.c, comp-hold.c), passes frames to grail and ends with the
 * step (comp-step.c); events it delivers at once go to the queue.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compositor/comp-private.h"
#include "util/clock.h"

/* The arguments every input call takes; a bad one is a bug of the caller. */
static __attribute__((noinline, cold)) int
check_failed(struct utouch_comp *comp, struct utouch_comp_device *dev, const char *func)
{
	if (!comp)
		ut_log_client_bug(NULL, func, "NULL context");
	else
		ut_log_client_bug(&comp->log, func, "%s device",
				  dev ? "unknown or removed" : "NULL");
	return -EINVAL;
}

static inline int
check(struct utouch_comp *comp, struct utouch_comp_device *dev, const char *func)
{
	if (__builtin_expect(uc_device_known(comp, dev), 1))
		return 0;
	return check_failed(comp, dev, func);
}

static __attribute__((noinline, cold)) int
position_failed(struct utouch_comp *comp, const char *func, double x, double y, double sx,
		double sy)
{
	ut_log_client_bug(&comp->log, func,
			  "position %g,%g (surface %g,%g) is not finite or beyond the float range",
			  x, y, sx, sy);
	return -EINVAL;
}

static inline int
check_position(struct utouch_comp *comp, const char *func, double x, double y, double sx,
	       double sy)
{
	/* the recognizer works in float: a global position beyond its range
	 * would reach it as infinity, which the frame refuses, and the touch
	 * would never be decided (false for NaN as well) */
	if (__builtin_expect(fabs(x) <= FLT_MAX && fabs(y) <= FLT_MAX && isfinite(sx) &&
			     isfinite(sy), 1))
		return 0;
	return position_failed(comp, func, x, y, sx, sy);
}

/* An input event at @time: returns its time in the recognizer's clock. */
static uint64_t
tick(struct utouch_comp *comp, uint64_t time)
{
	uint64_t t = time > UC_TIME_MAX - comp->time_shift ? UC_TIME_MAX : time + comp->time_shift;

	/* jitter of a few microseconds goes to grail as it is; a step back
	 * rebases the input clock onto the recognizer's */
	if (t + UC_CLOCK_STEP_US < comp->input_now) {
		comp->time_shift += comp->input_now - t;
		t = comp->input_now;
	}
	if (t > comp->input_now)
		comp->input_now = t;
	comp->clock_offset = (int64_t)ut_mono_us() - (int64_t)t;
	if (t > comp->now)
		comp->now = t;
	return t;
}

static int
zone_contains(const struct uc_zone *z, double x, double y)
{
	const struct utouch_comp_rect *r = &z->region;

	if (r->width <= 0 || r->height <= 0)
		return 1;
	return x >= r->x && y >= r->y && x < r->x + r->width && y < r->y + r->height;
}

UTOUCH_COMP_PUBLIC int
utouch_comp_touch_down(struct utouch_comp *comp, struct utouch_comp_device *dev,
		       int32_t id, uint64_t time, double x, double y,
		       void *surface, void *client, double sx, double sy)
{
	struct uc_touch *t;
	uint32_t zones = 0;
	int hold = 0;

	if (check(comp, dev, __func__) < 0 || check_position(comp, __func__, x, y, sx, sy) < 0)
		return -EINVAL;
	if (uc_touch_find(comp, dev, id)) {
		uc_log(comp, UT_LOG_WARNING, "device bug: %s: touch %d is down already",
		       dev->name, (int)id);
		return -EEXIST;
	}
	if (uc_grow((void **)&dev->changed, &dev->capchanged, dev->nchanged + 1,
		    sizeof(*dev->changed)) < 0) {
		uc_out_of_memory(comp, "a touch down was refused");
		return -ENOMEM;
	}
	for (unsigned int z = 0; z < comp->nzones; z++) {
		if (comp->zones[z].nsubs && zone_contains(&comp->zones[z], x, y)) {
			zones |= 1u << z;
			if (comp->zones[z].nhold)
				hold = 1;
		}
	}
	t = uc_touch_new(comp);
	if (!t) {
		uc_out_of_memory(comp, "a touch down was refused");
		return -ENOMEM;
	}
	t->dev = dev;
	t->id = id;
	t->surface = surface;
	t->client = client;
	t->x = x;
	t->y = y;
	t->sx = sx;
	t->sy = sy;
	t->zones = t->undecided = zones;
	t->down = 1;
	t->route = !zones ? UTOUCH_COMP_ROUTE_DELIVER
		: hold ? UTOUCH_COMP_ROUTE_HOLD : UTOUCH_COMP_ROUTE_FORWARD;
	t->start = t->time = tick(comp, time);
	if (t->route != UTOUCH_COMP_ROUTE_DELIVER || uc_hold_behind(comp, t)) {
		/* held, or forwarded at the end of the frame once grail saw it,
		 * or behind an earlier touch of the device and client that is
		 * held */
		if (uc_hold(comp, t, UC_HELD_DOWN, time) < 0) {
			uc_touch_free(comp, t);
			uc_out_of_memory(comp, "a touch down was refused");
			return -ENOMEM;
		}
	} else {
		uc_emit_touch(comp, UTOUCH_COMP_EVENT_TOUCH_DOWN, t, time, x, y, sx, sy, 0);
	}
	uc_touch_mark_changed(dev, t);   /* room reserved above */
	return 0;
}

static void
deliver_or_hold(struct utouch_comp *comp, struct uc_touch *t, enum uc_held_type type,
		enum utouch_comp_event_type etype, uint64_t time)
{
	switch (t->route) {
	case UTOUCH_COMP_ROUTE_DELIVER:
		if (!t->nheld && !uc_hold_behind(comp, t)) {
			uc_emit_touch(comp, etype, t, time, t->x, t->y, t->sx, t->sy, 0);
			break;
		}
		/* earlier events of it, or of an undecided touch of its device
		 * and client, still wait in the buffer: keep the order */
		if (!t->nheld) {
			/* only other touches' wait: out of memory, an event out
			 * of order beats one lost */
			if (uc_hold(comp, t, type, time) < 0) {
				uc_out_of_memory(comp, "a touch event was delivered out of order");
				uc_emit_touch(comp, etype, t, time, t->x, t->y, t->sx, t->sy, 0);
			}
			break;
		}
		/* fall through */
	case UTOUCH_COMP_ROUTE_HOLD:
	case UTOUCH_COMP_ROUTE_FORWARD:
		if (uc_hold(comp, t, type, time) < 0)
			uc_out_of_memory(comp, "a touch event was dropped");
		break;
	default:
		break;
	}
}

UTOUCH_COMP_PUBLIC int
utouch_comp_touch_motion(struct utouch_comp *comp, struct utouch_comp_device *dev,
			 int32_t id, uint64_t time, double x, double y, double sx, double sy)
{
	struct uc_touch *t;

	if (check(comp, dev, __func__) < 0 || check_position(comp, __func__, x, y, sx, sy) < 0)
		return -EINVAL;
	t = uc_touch_find(comp, dev, id);
	if (!t) {
		uc_log(comp, UT_LOG_DEBUG, "%s: motion of touch %d, which is not down", dev->name,
		       (int)id);
		return -ENOENT;
	}
	if (uc_touch_mark_changed(dev, t) < 0) {
		uc_out_of_memory(comp, "a touch motion was refused");
		return -ENOMEM;
	}
	t->time = tick(comp, time);
	t->x = x;
	t->y = y;
	t->sx = sx;
	t->sy = sy;
	deliver_or_hold(comp, t, UC_HELD_MOTION, UTOUCH_COMP_EVENT_TOUCH_MOTION, time);
	return 0;
}

static struct uc_touch *
end_touch(struct utouch_comp *comp, struct utouch_comp_device *dev, int32_t id,
	  uint64_t time, int *err, const char *func)
{
	struct uc_touch *t;
	size_t slot;
	uint64_t now;

	*err = check(comp, dev, func);
	if (*err < 0)
		return NULL;
	t = uc_touch_find(comp, dev, id);
	if (!t) {
		uc_log(comp, UT_LOG_DEBUG, "%s: end of touch %d, which is not down", dev->name,
		       (int)id);
		*err = -ENOENT;
		return NULL;
	}
	now = tick(comp, time);
	slot = (size_t)(t - comp->touches);
	if (t->zones & ~t->framed_zones) {
		/* grail must see the begin before the end */
		uc_step_grail(dev, now);
		uc_step_end(comp);
		t = &comp->touches[slot];
	}
	if (uc_touch_mark_changed(dev, t) < 0) {
		uc_out_of_memory(comp, "a touch end was refused");
		*err = -ENOMEM;
		return NULL;
	}
	t->time = now;
	t->down = 0;
	return t;
}

UTOUCH_COMP_PUBLIC int
utouch_comp_touch_up(struct utouch_comp *comp, struct utouch_comp_device *dev,
		     int32_t id, uint64_t time)
{
	int err;
	struct uc_touch *t = end_touch(comp, dev, id, time, &err, __func__);

	if (!t)
		return err;
	deliver_or_hold(comp, t, UC_HELD_UP, UTOUCH_COMP_EVENT_TOUCH_UP, time);
	return 0;
}

UTOUCH_COMP_PUBLIC int
utouch_comp_touch_cancel(struct utouch_comp *comp, struct utouch_comp_device *dev,
			 int32_t id, uint64_t time)
{
	int err;
	struct uc_touch *t = end_touch(comp, dev, id, time, &err, __func__);

	if (!t)
		return err;
	if (t->seen && (t->route == UTOUCH_COMP_ROUTE_DELIVER ||
			t->route == UTOUCH_COMP_ROUTE_FORWARD))
		uc_queue_cancel(comp, t, time);
	uc_hold_drop(comp, t);
	t->replay = 0;
	if (t->route != UTOUCH_COMP_ROUTE_SYSTEM)
		t->route = UTOUCH_COMP_ROUTE_CANCELLED;
	uc_step_end(comp);
	return 0;
}

UTOUCH_COMP_PUBLIC int
utouch_comp_touch_frame(struct utouch_comp *comp, struct utouch_comp_device *dev,
			uint64_t time)
{
	uint64_t now;

	if (check(comp, dev, __func__) < 0)
		return -EINVAL;
	now = tick(comp, time);
	uc_emit_frame(comp, time);
	comp->frame_seq++;
	uc_step_grail(dev, now);
	uc_step_end(comp);
	uc_emit_frame(comp, time);
	return 0;
}

UTOUCH_COMP_PUBLIC enum utouch_comp_route
utouch_comp_touch_get_route(struct utouch_comp *comp, struct utouch_comp_device *dev,
			    int32_t id)
{
	struct uc_touch *t;

	if (check(comp, dev, __func__) < 0)
		return UTOUCH_COMP_ROUTE_NONE;
	t = uc_touch_find(comp, dev, id);
	if (!t)
		return UTOUCH_COMP_ROUTE_NONE;
	if (t->replay)
		return UTOUCH_COMP_ROUTE_DELIVER;
	return t->route;
}

UTOUCH_COMP_PUBLIC size_t
utouch_comp_get_held_count(struct utouch_comp *comp)
{
	return comp ? comp->held_live : 0;
}

UTOUCH_COMP_PUBLIC size_t
utouch_comp_get_touch_count(struct utouch_comp *comp)
{
	return comp ? comp->live_touches : 0;
}

/* ---- surfaces and clients that go away ---- */

static void
forget_target(struct utouch_comp *comp, void *surface, void *client)
{
	uc_touch_forget_target(comp, surface, client);
	uc_queue_forget_target(comp, surface, client);
	uc_step_end(comp);
}

UTOUCH_COMP_PUBLIC void
utouch_comp_surface_destroyed(struct utouch_comp *comp, void *surface)
{
	if (comp && surface)
		forget_target(comp, surface, NULL);
}

UTOUCH_COMP_PUBLIC void
utouch_comp_client_destroyed(struct utouch_comp *comp, void *client)
{
	if (comp && client)
		forget_target(comp, NULL, client);
}
