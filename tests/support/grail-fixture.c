/*
 * Test fixture for grail; see grail-fixture.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <utouch/frame_handle.h>

#include "frame/frame-private.h"
#include "grail-fixture.h"

static UFStatus
touch_handler(void *data, UFWindowId window, UFTouchId touch_id, int accept)
{
	struct fixture *fx = data;
	(void)window;
	assert_true(touch_id < FX_MAX_TOUCH_IDS);
	if (accept) {
		fx->accepted[touch_id]++;
	} else {
		if (!fx->rejected[touch_id])
			fx->rejected_at[touch_id] = fx->time;
		fx->rejected[touch_id]++;
	}
	return UFStatusSuccess;
}

/* A frame event of @frame, or a device event of @bdev (frame NULL). */
static void
send_event(struct fixture *fx, UFEventType type, UFBackendFrame frame, UFBackendDevice bdev)
{
	UFEvent ev = frame_event_new();
	assert_non_null(ev);
	frame_event_set_type(ev, type);
	if (type == UFEventTypeFrame)
		frame_event_set_frame(ev, frame);
	else
		frame_event_set_device(ev, bdev);
	frame_event_set_time(ev, fx->time);
	grail_process_frame_event(fx->grail, ev);
	frame_event_unref(ev);
}

void
fx_device_event(struct fixture *fx, UFEventType type, UFBackendDevice bdev)
{
	send_event(fx, type, NULL, bdev);
}

struct fixture *
fx_new(void)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	assert_non_null(fx);
	fx->time = 1000;
	fx->policy = FX_POLICY_NONE;
	assert_int_equal(grail_new(&fx->grail), UGStatusSuccess);

	fx->bdev = frame_backend_device_new();
	assert_non_null(fx->bdev);
	frame_backend_device_set_name(fx->bdev, "grail test device");
	frame_backend_device_set_direct(fx->bdev, 1);
	frame_backend_device_set_independent(fx->bdev, 0);
	frame_backend_device_set_semi_mt(fx->bdev, 0);
	frame_backend_device_set_max_touches(fx->bdev, 10);
	frame_backend_device_set_window_resolution(fx->bdev, 3764.70f, 3764.70f);
	frame_backend_device_add_axis(fx->bdev, UFAxisTypeX, 0, 10000, 3764.70f);
	frame_backend_device_add_axis(fx->bdev, UFAxisTypeY, 0, 10000, 3764.70f);
	utouch_frame_backend_device_set_touch_handler(fx->bdev, touch_handler, fx);
	fx->device = frame_backend_device_get_device(fx->bdev);
	fx_device_event(fx, UFEventTypeDeviceAdded, fx->bdev);
	return fx;
}

static void
fx_release(struct fixture *fx)
{
	if (fx->prev)
		frame_backend_frame_delete(fx->prev);
	fx->prev = NULL;
	grail_delete(fx->grail);
	fx->grail = NULL;
	for (unsigned int i = 0; i < fx->nsubs; i++)
		grail_subscription_delete(fx->subs[i]);
	fx->nsubs = 0;
}

void
fx_free(struct fixture *fx)
{
	fx_release(fx);
	for (unsigned int i = 0; i < FX_MAX_TOUCH_IDS; i++) {
		unsigned int total = fx->accepted[i] + fx->rejected[i];
		if (total != 0 && total != 1)
			fail_msg("touch %u accepted %u and rejected %u times", i,
				 fx->accepted[i], fx->rejected[i]);
	}
	utouch_frame_backend_device_set_touch_handler(fx->bdev, NULL, NULL);
	frame_backend_device_delete(fx->bdev);
	free(fx);
}

void
fx_free_nocheck(struct fixture *fx)
{
	fx_release(fx);
	utouch_frame_backend_device_set_touch_handler(fx->bdev, NULL, NULL);
	frame_backend_device_delete(fx->bdev);
	free(fx);
}

static UGSubscription
subscribe(struct fixture *fx, UGGestureTypeMask mask, unsigned int start, unsigned int min,
	  unsigned int max, int atomic)
{
	UGSubscription sub;
	UFWindowId win = FX_WINDOW;
	assert_int_equal(grail_subscription_new(&sub), UGStatusSuccess);
	assert_int_equal(grail_subscription_set_property(sub, UGSubscriptionPropertyDevice,
							 &fx->device),
			 UGStatusSuccess);
	assert_int_equal(grail_subscription_set_property(sub, UGSubscriptionPropertyWindow,
							 &win),
			 UGStatusSuccess);
	assert_int_equal(grail_subscription_set_property(sub, UGSubscriptionPropertyMask,
							 &mask),
			 UGStatusSuccess);
	assert_int_equal(grail_subscription_set_property(
				 sub, UGSubscriptionPropertyTouchesStart, &start),
			 UGStatusSuccess);
	if (min)
		assert_int_equal(grail_subscription_set_property(
					 sub, UGSubscriptionPropertyTouchesMinimum, &min),
				 UGStatusSuccess);
	if (max)
		assert_int_equal(grail_subscription_set_property(
					 sub, UGSubscriptionPropertyTouchesMaximum, &max),
				 UGStatusSuccess);
	assert_int_equal(grail_subscription_set_property(
				 sub, UGSubscriptionPropertyAtomicGestures, &atomic),
			 UGStatusSuccess);
	assert_int_equal(grail_subscription_activate(fx->grail, sub), UGStatusSuccess);
	assert_true(fx->nsubs < sizeof(fx->subs) / sizeof(fx->subs[0]));
	fx->subs[fx->nsubs++] = sub;
	return sub;
}

UGSubscription
fx_subscribe(struct fixture *fx, UGGestureTypeMask mask, unsigned int start,
	     unsigned int min, unsigned int max)
{
	return subscribe(fx, mask, start, min, max, 0);
}

UGSubscription
fx_subscribe_atomic(struct fixture *fx, UGGestureTypeMask mask, unsigned int start,
		    unsigned int min, unsigned int max)
{
	return subscribe(fx, mask, start, min, max, 1);
}

static UFBackendFrame
next_frame(struct fixture *fx)
{
	UFBackendFrame f = fx->prev ? frame_backend_frame_create_next(fx->prev)
				    : frame_backend_frame_new();
	assert_non_null(f);
	frame_backend_frame_set_device(f, fx->bdev);
	frame_backend_frame_set_window_id(f, FX_WINDOW);
	return f;
}

/* Give grail the frame; what it queues stays in its queue. */
static void
send_frame_queued(struct fixture *fx, UFBackendFrame f)
{
	frame_backend_frame_set_active_touches(
		f, frame_frame_get_num_touches(frame_backend_frame_get_frame(f)));
	send_event(fx, UFEventTypeFrame, f, NULL);
	if (fx->prev)
		frame_backend_frame_delete(fx->prev);
	fx->prev = f;
}

static void
send_frame(struct fixture *fx, UFBackendFrame f)
{
	send_frame_queued(fx, f);
	fx_process(fx);
}

static void
set_pos(UFBackendTouch t, float x, float y)
{
	/* window 1024x768 pixels mapped onto 0..10000 device units */
	frame_backend_touch_set_window_pos(t, x * 1024.0f / 10000.0f, y * 768.0f / 10000.0f);
	frame_backend_touch_set_value(t, UFAxisTypeX, x);
	frame_backend_touch_set_value(t, UFAxisTypeY, y);
}

static void
add_new_touch(struct fixture *fx, UFBackendFrame f, UFTouchId id, float x, float y, int owned)
{
	UFBackendTouch t = frame_backend_touch_new();
	assert_non_null(t);
	frame_backend_touch_set_id(t, id);
	frame_backend_touch_set_start_time(t, fx->time);
	frame_backend_touch_set_time(t, fx->time);
	frame_backend_touch_set_owned(t, owned);
	frame_backend_touch_set_pending_end(t, 0);
	set_pos(t, x, y);
	assert_int_equal(frame_backend_frame_give_touch(f, &t), UFStatusSuccess);
}

static void
begin(struct fixture *fx, UFTouchId id, float x, float y, int owned)
{
	UFBackendFrame f = next_frame(fx);
	add_new_touch(fx, f, id, x, y, owned);
	send_frame(fx, f);
}

void
fx_begin_many(struct fixture *fx, unsigned int n, const UFTouchId *ids, const float *xs,
	      const float *ys)
{
	UFBackendFrame f = next_frame(fx);
	for (unsigned int i = 0; i < n; i++)
		add_new_touch(fx, f, ids[i], xs[i], ys[i], 1);
	send_frame(fx, f);
}

void
fx_begin(struct fixture *fx, UFTouchId id, float x, float y)
{
	begin(fx, id, x, y, 0);
}

void
fx_begin_owned(struct fixture *fx, UFTouchId id, float x, float y)
{
	begin(fx, id, x, y, 1);
}

static UFBackendTouch
borrow(UFBackendFrame f, UFTouchId id)
{
	UFBackendTouch t = NULL;
	assert_int_equal(frame_backend_frame_borrow_touch_by_id(f, id, &t), UFStatusSuccess);
	return t;
}

void
fx_move(struct fixture *fx, UFTouchId id, float x, float y)
{
	fx_move_many(fx, 1, &id, &x, &y);
}

static UFBackendFrame
moved_frame(struct fixture *fx, unsigned int n, const UFTouchId *ids, const float *xs,
	    const float *ys)
{
	UFBackendFrame f = next_frame(fx);
	for (unsigned int i = 0; i < n; i++) {
		UFBackendTouch t = borrow(f, ids[i]);
		set_pos(t, xs[i], ys[i]);
		frame_backend_touch_set_time(t, fx->time);
		assert_int_equal(frame_backend_frame_give_touch(f, &t), UFStatusSuccess);
	}
	return f;
}

void
fx_move_many(struct fixture *fx, unsigned int n, const UFTouchId *ids, const float *xs,
	     const float *ys)
{
	send_frame(fx, moved_frame(fx, n, ids, xs, ys));
}

void
fx_move_many_queued(struct fixture *fx, unsigned int n, const UFTouchId *ids,
		    const float *xs, const float *ys)
{
	send_frame_queued(fx, moved_frame(fx, n, ids, xs, ys));
}

void
fx_own(struct fixture *fx, UFTouchId id)
{
	UFBackendFrame f = next_frame(fx);
	UFBackendTouch t = borrow(f, id);
	frame_backend_touch_set_owned(t, 1);
	frame_backend_touch_set_time(t, fx->time);
	assert_int_equal(frame_backend_frame_give_touch(f, &t), UFStatusSuccess);
	send_frame(fx, f);
}

void
fx_pending_end(struct fixture *fx, UFTouchId id)
{
	UFBackendFrame f = next_frame(fx);
	UFBackendTouch t = borrow(f, id);
	frame_backend_touch_set_pending_end(t, 1);
	frame_backend_touch_set_time(t, fx->time);
	assert_int_equal(frame_backend_frame_give_touch(f, &t), UFStatusSuccess);
	send_frame(fx, f);
}

void
fx_end(struct fixture *fx, UFTouchId id)
{
	UFBackendFrame f = next_frame(fx);
	UFBackendTouch t = borrow(f, id);
	frame_backend_touch_set_ended(t);
	frame_backend_touch_set_time(t, fx->time);
	assert_int_equal(frame_backend_frame_give_touch(f, &t), UFStatusSuccess);
	send_frame(fx, f);
}

void
fx_cut_off(struct fixture *fx, unsigned int n, const UFTouchId *ids)
{
	UFBackendFrame f = next_frame(fx);
	for (unsigned int i = 0; i < n; i++) {
		UFBackendTouch t = borrow(f, ids[i]);
		frame_backend_touch_set_ended(t);
		frame_backend_touch_set_time(t, fx->time);
		assert_int_equal(frame_backend_frame_give_touch(f, &t), UFStatusSuccess);
	}
	ut_frame_mark_cut_off(f);
	send_frame(fx, f);
}

void
fx_update_time(struct fixture *fx, uint64_t t)
{
	fx->time = t;
	grail_update_time(fx->grail, t);
	fx_process(fx);
}

void
fx_run_timers(struct fixture *fx, uint64_t t)
{
	uint64_t nt = grail_next_timeout(fx->grail);
	uint64_t tt = nt;
	while (nt && tt <= t) {
		fx->time = tt;   /* for the touch handler: when grail decides */
		grail_update_time(fx->grail, tt);
		fx_process(fx);
		uint64_t n2 = grail_next_timeout(fx->grail);
		if (!n2)
			break;
		tt = n2 <= tt ? tt + 1 : n2;
		nt = n2;
	}
	fx->time = t;
}

void
fx_process(struct fixture *fx)
{
	UGEvent ev;
	while (grail_get_event(fx->grail, &ev) == UGStatusSuccess) {
		assert_int_equal(grail_event_get_type(ev), UGEventTypeSlice);
		UGSlice s = NULL;
		assert_int_equal(grail_event_get_property(ev, UGEventPropertySlice, &s),
				 UGStatusSuccess);
		assert_true(fx->nslices < FX_MAX_SLICES);
		struct fx_slice *r = &fx->slices[fx->nslices++];
		r->id = grail_slice_get_id(s);
		r->state = grail_slice_get_state(s);
		r->sub = grail_slice_get_subscription(s);
		r->recognized = grail_slice_get_recognized(s);
		r->num_touches = grail_slice_get_num_touches(s);
		assert_true(r->num_touches >= 1 && r->num_touches <= 5);
		for (unsigned int i = 0; i < r->num_touches; i++)
			assert_int_equal(grail_slice_get_touch_id(s, i, &r->touches[i]),
					 UGStatusSuccess);
		UFTouchId dummy;
		assert_int_equal(grail_slice_get_touch_id(s, r->num_touches, &dummy),
				 UGStatusErrorInvalidIndex);
		r->cf = grail_slice_get_construction_finished(s);
		r->canceled = grail_slice_get_canceled(s);
		r->vx = grail_slice_get_velocity_x(s);
		r->vy = grail_slice_get_velocity_y(s);
		r->taps = grail_slice_get_tap_count(s);
		r->edge = grail_slice_get_edge(s);
		r->time = grail_event_get_time(ev);
		r->ocx = grail_slice_get_original_center_x(s);
		r->ocy = grail_slice_get_original_center_y(s);
		r->r0 = grail_slice_get_original_radius(s);
		memcpy(r->T, *grail_slice_get_cumulative_transform(s), sizeof(r->T));
		memcpy(r->dT, *grail_slice_get_transform(s), sizeof(r->dT));
		r->corx = grail_slice_get_center_of_rotation_x(s);
		r->cory = grail_slice_get_center_of_rotation_y(s);
		assert_non_null(grail_slice_get_frame(s));

		/* invariants of the slice stream */
		assert_true(r->id < FX_MAX_GESTURES);
		if (fx->g_ended[r->id])
			fail_msg("gesture %u has a slice after its End", r->id);
		if (r->state == UGGestureStateBegin) {
			if (fx->g_begun[r->id])
				fail_msg("gesture %u begins twice", r->id);
			fx->g_begun[r->id] = true;
		} else if (!fx->g_begun[r->id]) {
			fail_msg("gesture %u updates before its Begin", r->id);
		}
		if (fx->g_cf[r->id] && !r->cf)
			fail_msg("construction_finished of gesture %u went back to 0", r->id);
		fx->g_cf[r->id] = r->cf != 0;
		if (r->state == UGGestureStateEnd) {
			if (!r->cf && !r->canceled)
				fail_msg("End slice of gesture %u without construction_finished",
					 r->id);
			fx->g_ended[r->id] = true;
		} else {
			assert_int_equal(r->canceled, 0);
		}

		if (fx->policy == FX_POLICY_ACCEPT && !fx->g_decided[r->id] && !r->canceled &&
		    r->state != UGGestureStateEnd) {
			fx->g_decided[r->id] = true;
			assert_int_equal(grail_accept_gesture(fx->grail, r->id),
					 UGStatusSuccess);
		}
		grail_event_unref(ev);
	}
}

unsigned int
fx_count(const struct fixture *fx, unsigned int gesture_id, UGGestureState state)
{
	unsigned int n = 0;
	for (unsigned int i = 0; i < fx->nslices; i++)
		if (fx->slices[i].id == gesture_id && fx->slices[i].state == state)
			n++;
	return n;
}

unsigned int
fx_count_gestures(const struct fixture *fx)
{
	unsigned int n = 0;
	for (unsigned int i = 0; i < FX_MAX_GESTURES; i++)
		if (fx->g_begun[i])
			n++;
	return n;
}

const struct fx_slice *
fx_first_of(const struct fixture *fx, unsigned int gesture_id)
{
	for (unsigned int i = 0; i < fx->nslices; i++)
		if (fx->slices[i].id == gesture_id)
			return &fx->slices[i];
	return NULL;
}

const struct fx_slice *
fx_last_of(const struct fixture *fx, unsigned int gesture_id)
{
	for (unsigned int i = fx->nslices; i > 0; i--)
		if (fx->slices[i - 1].id == gesture_id)
			return &fx->slices[i - 1];
	return NULL;
}

void
fx_check_all_ended(const struct fixture *fx)
{
	for (unsigned int i = 0; i < FX_MAX_GESTURES; i++)
		if (fx->g_begun[i] && !fx->g_ended[i])
			fail_msg("gesture %u was left open", i);
}
