/*
 * The C side of utouch on the web: a thin layer over the frame producer API
 * and grail that the WebAssembly build exports to JavaScript (web/utouch.js).
 *
 * One context is one device with one window.  JavaScript creates the
 * context, declares subscriptions, then feeds frames of touch operations
 * (begin/update/end/own/pending-end) and pulls the slices grail produced
 * one at a time through a buffer of doubles (layout: UT_WEB_SLICE_*).
 * Times are passed as doubles (milliseconds) so that no 64-bit integer has
 * to cross the JavaScript boundary.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>

#include <emscripten/emscripten.h>
#include <oif/frame.h>
#include <oif/frame_backend.h>
#include <oif/grail.h>
#include <utouch/frame_handle.h>

#define UT_WEB_MAX_SUBS 32
#define UT_WEB_MAX_TOUCHES 32
#define UT_WEB_WINDOW 1
#define UT_WEB_MAX_DECISIONS 256

/* Slice buffer layout (indices into the array of doubles). */
enum {
	UT_WEB_SLICE_ID, UT_WEB_SLICE_STATE, UT_WEB_SLICE_SUB, UT_WEB_SLICE_RECOGNIZED,
	UT_WEB_SLICE_NTOUCHES, UT_WEB_SLICE_CF, UT_WEB_SLICE_CANCELED, UT_WEB_SLICE_TIME,
	UT_WEB_SLICE_OCX, UT_WEB_SLICE_OCY, UT_WEB_SLICE_R0, UT_WEB_SLICE_CORX,
	UT_WEB_SLICE_CORY,
	UT_WEB_SLICE_C = 13,   /* 6 values: cumulative transform, rows 0 and 1 */
	UT_WEB_SLICE_D = 19,   /* 6 values: transform since the previous slice */
	UT_WEB_SLICE_VX = 25, UT_WEB_SLICE_VY, UT_WEB_SLICE_TAPS, UT_WEB_SLICE_EDGE,
	UT_WEB_SLICE_TOUCHES = 29,
	UT_WEB_SLICE_SIZE = UT_WEB_SLICE_TOUCHES + UT_WEB_MAX_TOUCHES,
};

struct ut_web {
	UGHandle grail;
	UFBackendDevice device;
	UTouchFrameBuilder frames;  /* window UT_WEB_WINDOW */
	int nsubs;
	UGSubscription subs[UT_WEB_MAX_SUBS];
	double slice[UT_WEB_SLICE_SIZE];
	/* touch decisions grail made (frame_accept/reject_touch), oldest first */
	double decisions[UT_WEB_MAX_DECISIONS];
	int ndecisions, decisions_lost;
};

/* The device's touch handler: remember grail's decision for JavaScript. */
static UFStatus
on_touch_decision(void *data, UFWindowId window, UFTouchId id, int accept)
{
	struct ut_web *w = data;

	if (w->ndecisions >= UT_WEB_MAX_DECISIONS) {
		w->decisions_lost++;
		return UFStatusErrorResources;
	}
	w->decisions[w->ndecisions++] = accept ? (double)id : -(double)id;
	return UFStatusSuccess;
}

/*
 * emscripten's libc declares eventfd() but has none.  grail and frame only
 * write to and read from their descriptor to make it readable for poll();
 * on the web nothing polls (JavaScript runs grail's timeouts on timers and
 * fetches events after every frame), so a descriptor that swallows writes
 * and reads as empty keeps their behaviour.
 */
int
eventfd(unsigned int count, int flags)
{
	return open("/dev/null", O_RDWR | ((flags & EFD_CLOEXEC) ? O_CLOEXEC : 0));
}

/* Give @p ev (may be NULL: out of memory) to grail and drop it. */
static int
send_event(struct ut_web *w, UFStatus status, UFEvent ev)
{
	if (status != UFStatusSuccess)
		return UGStatusErrorResources;
	grail_process_frame_event(w->grail, ev);
	frame_event_unref(ev);
	return UGStatusSuccess;
}

/**
 * Create a context: grail and one device (window 1), announced with a
 * DeviceAdded event at @p time.  @p res_x / @p res_y are the device's axis
 * resolutions in units per metre (used by grail for indirect devices),
 * @p window_res the window resolution in px/m (direct devices; 0: grail's
 * default).  New touches are owned from their begin when @p own_at_begin.
 * Returns NULL on failure.
 */
EMSCRIPTEN_KEEPALIVE struct ut_web *
ut_web_new(int direct, double xmin, double xmax, double res_x, double ymin,
	   double ymax, double res_y, double window_res, int own_at_begin, double time)
{
	struct ut_web *w = calloc(1, sizeof(*w));
	UFStatus status;
	UFEvent ev = NULL;

	if (!w)
		return NULL;
	if (grail_new(&w->grail) != UGStatusSuccess)
		goto fail;
	w->device = frame_backend_device_new();
	if (!w->device)
		goto fail;
	frame_backend_device_set_name(w->device, "web touch");
	frame_backend_device_set_direct(w->device, direct);
	frame_backend_device_set_independent(w->device, 0);
	frame_backend_device_set_semi_mt(w->device, 0);
	frame_backend_device_set_max_touches(w->device, UT_WEB_MAX_TOUCHES);
	frame_backend_device_set_window_resolution(w->device, (float)window_res,
						   (float)window_res);
	frame_backend_device_add_axis(w->device, UFAxisTypeX, (float)xmin, (float)xmax,
				      (float)res_x);
	frame_backend_device_add_axis(w->device, UFAxisTypeY, (float)ymin, (float)ymax,
				      (float)res_y);
	if (utouch_frame_builder_new(w->device, UT_WEB_WINDOW, own_at_begin,
				     &w->frames) != UFStatusSuccess)
		goto fail;
	utouch_frame_backend_device_set_touch_handler(w->device, on_touch_decision, w);
	status = utouch_frame_device_event_new(w->device, UFEventTypeDeviceAdded,
					       (uint64_t)time, &ev);
	if (send_event(w, status, ev) != UGStatusSuccess)
		goto fail;
	return w;
fail:
	utouch_frame_builder_delete(w->frames);
	if (w->device)
		frame_backend_device_delete(w->device);
	if (w->grail)
		grail_delete(w->grail);
	free(w);
	return NULL;
}

/** Delete a context, its subscriptions and frames; NULL is allowed. */
EMSCRIPTEN_KEEPALIVE void
ut_web_delete(struct ut_web *w)
{
	if (!w)
		return;
	utouch_frame_builder_delete(w->frames);
	grail_delete(w->grail);
	for (int i = 0; i < w->nsubs; i++)
		grail_subscription_delete(w->subs[i]);
	utouch_frame_backend_device_set_touch_handler(w->device, NULL, NULL);
	frame_backend_device_delete(w->device);
	free(w);
}

/**
 * Take the oldest touch decision grail made: the touch id when grail
 * accepted the touch (a gesture the client accepted holds it), minus the id
 * when it rejected it (no gesture wants it any more), 0 when there is none.
 * Up to 256 decisions are kept between calls; more are counted in
 * ut_web_decisions_lost().
 */
EMSCRIPTEN_KEEPALIVE double
ut_web_next_decision(struct ut_web *w)
{
	double d;

	if (w->ndecisions == 0)
		return 0;
	d = w->decisions[0];
	memmove(w->decisions, w->decisions + 1, (size_t)(w->ndecisions - 1) * sizeof(double));
	w->ndecisions--;
	return d;
}

/** Decisions dropped because JavaScript did not take them in time. */
EMSCRIPTEN_KEEPALIVE int
ut_web_decisions_lost(struct ut_web *w)
{
	return w->decisions_lost;
}

/**
 * Create a subscription (touch counts: @p min / @p max 0 leave grail's
 * default).  Returns its index (>= 0), or a negative grail status.  Set
 * timeouts and thresholds with ut_web_sub_set(), then activate it.
 */
EMSCRIPTEN_KEEPALIVE int
ut_web_subscribe(struct ut_web *w, unsigned int mask, unsigned int start,
		 unsigned int min, unsigned int max, int atomic)
{
	UGSubscription sub;
	UFDevice dev = frame_backend_device_get_device(w->device);
	UFWindowId win = UT_WEB_WINDOW;
	UGStatus st;

	if (w->nsubs >= UT_WEB_MAX_SUBS)
		return -(int)UGStatusErrorResources;
	st = grail_subscription_new(&sub);
	if (st != UGStatusSuccess)
		return -(int)st;
#define SET(p, v) do { st = grail_subscription_set_property(sub, p, v); \
		       if (st != UGStatusSuccess) goto fail; } while (0)
	SET(UGSubscriptionPropertyDevice, &dev);
	SET(UGSubscriptionPropertyWindow, &win);
	SET(UGSubscriptionPropertyMask, &mask);
	SET(UGSubscriptionPropertyTouchesStart, &start);
	if (min)
		SET(UGSubscriptionPropertyTouchesMinimum, &min);
	if (max)
		SET(UGSubscriptionPropertyTouchesMaximum, &max);
	SET(UGSubscriptionPropertyAtomicGestures, &atomic);
#undef SET
	w->subs[w->nsubs] = sub;
	return w->nsubs++;
fail:
	grail_subscription_delete(sub);
	return -(int)st;
}

/* The values ut_web_sub_set() sets, by key (web/recognizer.js has the same order). */
enum ut_web_value_type { UT_WEB_MS, UT_WEB_FLOAT, UT_WEB_UINT };
static const struct {
	UGSubscriptionProperty prop;
	enum ut_web_value_type type;
} ut_web_keys[] = {
	/* 0-3: drag, pinch, rotate, tap timeouts; 4-7: their thresholds */
	{ UGSubscriptionPropertyDragTimeout, UT_WEB_MS },
	{ UGSubscriptionPropertyPinchTimeout, UT_WEB_MS },
	{ UGSubscriptionPropertyRotateTimeout, UT_WEB_MS },
	{ UGSubscriptionPropertyTapTimeout, UT_WEB_MS },
	{ UGSubscriptionPropertyDragThreshold, UT_WEB_FLOAT },
	{ UGSubscriptionPropertyPinchThreshold, UT_WEB_FLOAT },
	{ UGSubscriptionPropertyRotateThreshold, UT_WEB_FLOAT },
	{ UGSubscriptionPropertyTapThreshold, UT_WEB_FLOAT },
	/* 8-16: the utouch extensions */
	{ UGSubscriptionPropertyHoldTimeout, UT_WEB_MS },
	{ UGSubscriptionPropertyHoldThreshold, UT_WEB_FLOAT },
	{ UGSubscriptionPropertyMultiTapTimeout, UT_WEB_MS },
	{ UGSubscriptionPropertyMultiTapThreshold, UT_WEB_FLOAT },
	{ UGSubscriptionPropertyMultiTapMaximum, UT_WEB_UINT },
	{ UGSubscriptionPropertyEdgeSwipeEdges, UT_WEB_UINT },
	{ UGSubscriptionPropertyEdgeSwipeMargin, UT_WEB_FLOAT },
	{ UGSubscriptionPropertyEdgeSwipeVelocity, UT_WEB_FLOAT },
	{ UGSubscriptionPropertyVelocityWindow, UT_WEB_MS },
};

/**
 * Set property @p key (an index into ut_web_keys: timeouts and thresholds
 * of the primitives, hold, multi-tap, edge swipe and velocity window) of
 * subscription @p index before it is activated.  Times are ms, counts and
 * edge bits whole numbers.  Returns a grail status; grail checks the ranges.
 */
EMSCRIPTEN_KEEPALIVE int
ut_web_sub_set(struct ut_web *w, int index, int key, double value)
{
	if (index < 0 || index >= w->nsubs || key < 0 ||
	    key >= (int)(sizeof(ut_web_keys) / sizeof(ut_web_keys[0])))
		return UGStatusErrorInvalidValue;
	UGSubscription sub = w->subs[index];
	UGSubscriptionProperty prop = ut_web_keys[key].prop;

	switch (ut_web_keys[key].type) {
	case UT_WEB_MS: {
		if (!(value >= 0) || value > 1e15)
			return UGStatusErrorInvalidValue;
		uint64_t ms = (uint64_t)value;
		return grail_subscription_set_property(sub, prop, &ms);
	}
	case UT_WEB_UINT: {
		if (!(value >= 0) || value > 4294967295.0 || value != (double)(unsigned int)value)
			return UGStatusErrorInvalidValue;
		unsigned int u = (unsigned int)value;
		return grail_subscription_set_property(sub, prop, &u);
	}
	case UT_WEB_FLOAT:
	default: {
		float f = (float)value;
		return grail_subscription_set_property(sub, prop, &f);
	}
	}
}

/**
 * Delete the last subscription created when it is @p index, e.g. after
 * ut_web_sub_set() or ut_web_sub_activate() refused it (it must not be
 * active).  Returns 0, or -1 when @p index is not the last one.
 */
EMSCRIPTEN_KEEPALIVE int
ut_web_sub_drop(struct ut_web *w, int index)
{
	if (index < 0 || index != w->nsubs - 1)
		return -1;
	grail_subscription_delete(w->subs[index]);
	w->subs[index] = NULL;
	w->nsubs--;
	return 0;
}

/** Activate subscription @p index; returns a grail status. */
EMSCRIPTEN_KEEPALIVE int
ut_web_sub_activate(struct ut_web *w, int index)
{
	if (index < 0 || index >= w->nsubs)
		return UGStatusErrorInvalidValue;
	return grail_subscription_activate(w->grail, w->subs[index]);
}

/** Deactivate subscription @p index (its gestures end); nothing for a bad index. */
EMSCRIPTEN_KEEPALIVE void
ut_web_sub_deactivate(struct ut_web *w, int index)
{
	if (index >= 0 && index < w->nsubs)
		grail_subscription_deactivate(w->grail, w->subs[index]);
}

/** Start a frame: the touches of the previous one carry over (a frame
 * begun and not ended is dropped).  Returns 0 or -1. */
EMSCRIPTEN_KEEPALIVE int
ut_web_frame_begin(struct ut_web *w)
{
	utouch_frame_builder_cancel(w->frames);
	return utouch_frame_builder_begin(w->frames) == UFStatusSuccess ? 0 : -1;
}

/**
 * Apply one operation to the frame being built: @p kind an enum
 * utouch_frame_op_kind (web/recognizer.js numbers them the same), window
 * position @p x, @p y and device X/Y values @p dx, @p dy (what grail uses
 * for indirect devices) at @p time.  Returns 0,
 * or -1 when there is no frame, a begin repeats a live id, another
 * operation names an id the frame does not hold, the kind is unknown or a
 * value is not finite (nothing changes).
 */
EMSCRIPTEN_KEEPALIVE int
ut_web_touch(struct ut_web *w, int kind, unsigned int id, double x, double y,
	     double dx, double dy, double time)
{
	struct utouch_frame_touch_op op = {
		.kind = (enum utouch_frame_op_kind)kind,
		.id = id,
		.time = (uint64_t)time,
		.start_time = (uint64_t)time,
		.set = UTOUCH_FRAME_SET_POSITION | 1u << UFAxisTypeX | 1u << UFAxisTypeY,
		.window_x = (float)x,
		.window_y = (float)y,
		.values = { [UFAxisTypeX] = (float)dx, [UFAxisTypeY] = (float)dy },
	};

	return utouch_frame_builder_touch(w->frames, &op) == UFStatusSuccess ? 0 : -1;
}

/** Send the frame being built to grail at @p time.  Returns 0 or -1. */
EMSCRIPTEN_KEEPALIVE int
ut_web_frame_end(struct ut_web *w, double time)
{
	UFEvent ev = NULL;
	UFStatus status = utouch_frame_builder_end(w->frames, (uint64_t)time, &ev);

	return send_event(w, status, ev) == UGStatusSuccess ? 0 : -1;
}

static int
sub_index(const struct ut_web *w, UGSubscription sub)
{
	for (int i = 0; i < w->nsubs; i++)
		if (w->subs[i] == sub)
			return i;
	return -1;
}

static void
put_transform(double *out, const UGTransform *m)
{
	for (int r = 0; r < 2; r++)
		for (int c = 0; c < 3; c++)
			out[r * 3 + c] = (*m)[r][c];
}

/**
 * Fetch the next slice into the slice buffer (ut_web_slice_buffer()).
 * Events that are not slices are dropped.  Returns 1 for a slice, 0 when
 * grail has nothing queued.
 */
EMSCRIPTEN_KEEPALIVE int
ut_web_next_slice(struct ut_web *w)
{
	UGEvent ev;

	while (grail_get_event(w->grail, &ev) == UGStatusSuccess) {
		UGSlice s;
		double *o = w->slice;

		if (grail_event_get_type(ev) != UGEventTypeSlice ||
		    grail_event_get_property(ev, UGEventPropertySlice, &s) != UGStatusSuccess) {
			grail_event_unref(ev);
			continue;
		}
		unsigned int n = grail_slice_get_num_touches(s);

		if (n > UT_WEB_MAX_TOUCHES)
			n = UT_WEB_MAX_TOUCHES;
		o[UT_WEB_SLICE_ID] = grail_slice_get_id(s);
		o[UT_WEB_SLICE_STATE] = grail_slice_get_state(s);
		o[UT_WEB_SLICE_SUB] = sub_index(w, grail_slice_get_subscription(s));
		o[UT_WEB_SLICE_RECOGNIZED] = grail_slice_get_recognized(s);
		o[UT_WEB_SLICE_NTOUCHES] = n;
		o[UT_WEB_SLICE_CF] = grail_slice_get_construction_finished(s);
		o[UT_WEB_SLICE_CANCELED] = grail_slice_get_canceled(s);
		o[UT_WEB_SLICE_TIME] = (double)grail_event_get_time(ev);
		o[UT_WEB_SLICE_OCX] = grail_slice_get_original_center_x(s);
		o[UT_WEB_SLICE_OCY] = grail_slice_get_original_center_y(s);
		o[UT_WEB_SLICE_R0] = grail_slice_get_original_radius(s);
		o[UT_WEB_SLICE_CORX] = grail_slice_get_center_of_rotation_x(s);
		o[UT_WEB_SLICE_CORY] = grail_slice_get_center_of_rotation_y(s);
		put_transform(o + UT_WEB_SLICE_C, grail_slice_get_cumulative_transform(s));
		put_transform(o + UT_WEB_SLICE_D, grail_slice_get_transform(s));
		o[UT_WEB_SLICE_VX] = grail_slice_get_velocity_x(s);
		o[UT_WEB_SLICE_VY] = grail_slice_get_velocity_y(s);
		o[UT_WEB_SLICE_TAPS] = grail_slice_get_tap_count(s);
		o[UT_WEB_SLICE_EDGE] = grail_slice_get_edge(s);
		for (unsigned int i = 0; i < n; i++) {
			UFTouchId id = 0;

			grail_slice_get_touch_id(s, i, &id);
			o[UT_WEB_SLICE_TOUCHES + i] = (double)id;
		}
		grail_event_unref(ev);
		return 1;
	}
	return 0;
}

/** The slice buffer: UT_WEB_SLICE_SIZE doubles. */
EMSCRIPTEN_KEEPALIVE double *
ut_web_slice_buffer(struct ut_web *w)
{
	return w->slice;
}

/** Accept gesture @p id; returns a grail status. */
EMSCRIPTEN_KEEPALIVE int
ut_web_accept(struct ut_web *w, unsigned int id)
{
	return grail_accept_gesture(w->grail, id);
}

/** Reject gesture @p id; returns a grail status. */
EMSCRIPTEN_KEEPALIVE int
ut_web_reject(struct ut_web *w, unsigned int id)
{
	return grail_reject_gesture(w->grail, id);
}

/** Time (ms) of grail's next timeout, 0 when none is pending. */
EMSCRIPTEN_KEEPALIVE double
ut_web_next_timeout(struct ut_web *w)
{
	return (double)grail_next_timeout(w->grail);
}

/** Tell grail the time is now @p time (ms); it runs the timeouts due. */
EMSCRIPTEN_KEEPALIVE void
ut_web_update_time(struct ut_web *w, double time)
{
	grail_update_time(w->grail, (uint64_t)time);
}
