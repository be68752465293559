/*
 * The test backend ("com.canonical.oif.backend.mock", UTOUCH_GEIS_INIT_MOCK):
 * what geis 2.2's test backend showed a program, so that programs and their
 * unit tests can exercise the API without any device.
 *
 * - one device, "abs-test-device", device id 0: a direct touch device with
 *   5 touches and X/Y axes 0..1000;
 * - one gesture class, "poke", class id 2100 (no grail recognizer: the
 *   backend makes its gestures itself);
 * - every activation of a subscription queues one GESTURE_BEGIN (an
 *   activation before the backend started queues it once the start-up
 *   events are queued, if the subscription is still active then, so a
 *   program that subscribes before its first dispatch knows the class
 *   "poke" before it sees the gesture, as with geis 2.2): one group
 *   (id 1) holding one frame (id 1) of class "poke" with fixed attributes
 *   (device id 13, timestamp 1, root / event / child window 2 / 3 / 4,
 *   focus 123.456 / 987.654, gesture name "mock gesture") and as many
 *   touches as the lowest count the subscription's filters allow (1..5);
 * - accepting and rejecting succeed; the recognizer's configuration items
 *   (atomic, tentative and synchronous events, thresholds and timeouts) are
 *   GEIS_STATUS_NOT_SUPPORTED.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <oif/frame_backend.h>

#include "geis-private.h"

#define MOCK_CLASS_NAME "poke"
#define MOCK_CLASS_ID 2100
/* a mask bit no grail gesture type uses: the class of the mock's frames */
#define MOCK_CLASS_MASK (1u << 30)
#define MOCK_TOUCHES 5

/* A gesture of an activation made before the start, queued at the start. */
struct mock_pending {
	GeisInteger sub_id;
	GeisEvent ev;
};

struct mock_backend {
	struct geis_backend base;
	UFBackendDevice device;
	GeisGestureClass poke;
	int started;
	struct mock_pending *pending;
	unsigned int npending, cappending;
};

/* Whether the instance's subscription @p id exists and is active. */
static int
sub_active(Geis geis, GeisInteger id)
{
	ut_list_for_each(pos, &geis->subs) {
		if (gs_sub_of(pos)->id == id)
			return gs_sub_of(pos)->active;
	}
	return 0;
}

static int
mock_start(struct geis_backend *base)
{
	struct mock_backend *be = (struct mock_backend *)base;

	be->device = frame_backend_device_new();
	if (!be->device)
		return -ENOMEM;
	frame_backend_device_set_name(be->device, "abs-test-device");
	frame_backend_device_set_direct(be->device, 1);
	frame_backend_device_set_independent(be->device, 0);
	frame_backend_device_set_max_touches(be->device, MOCK_TOUCHES);
	frame_backend_device_add_axis(be->device, UFAxisTypeX, 0.0f, 1000.0f, 10000.0f);
	frame_backend_device_add_axis(be->device, UFAxisTypeY, 0.0f, 1000.0f, 10000.0f);
	gs_core_class_available(base->geis, be->poke);
	if (gs_core_device_added_as(base->geis, frame_backend_device_get_device(be->device), 0) < 0)
		return -ENOMEM;
	be->started = 1;
	for (unsigned int i = 0; i < be->npending; i++) {
		if (sub_active(base->geis, be->pending[i].sub_id))
			gs_enqueue(base->geis, be->pending[i].ev);
		else
			geis_event_delete(be->pending[i].ev);
	}
	be->npending = 0;
	return 0;
}

static void
mock_destroy(struct geis_backend *base)
{
	struct mock_backend *be = (struct mock_backend *)base;

	if (be->device) {
		gs_core_device_removed(base->geis, frame_backend_device_get_device(be->device));
		frame_backend_device_delete(be->device);
	}
	geis_gesture_class_unref(be->poke);
	for (unsigned int i = 0; i < be->npending; i++)
		geis_event_delete(be->pending[i].ev);
	free(be->pending);
	free(be);
}

static uint64_t
mock_now(struct geis_backend *base)
{
	(void)base;
	return 1;
}

/* The lowest touch count in 1..MOCK_TOUCHES that every "touches" term of
 * @p f allows, or 0 when none does. */
static int
filter_lowest_touches(GeisFilter f)
{
	int lo = 1, hi = MOCK_TOUCHES;

	for (GeisSize i = 0; f && i < f->nterms; i++) {
		const struct geis_term *t = &f->terms[i];
		int n;

		if (t->facility != GEIS_FILTER_CLASS ||
		    strcmp(t->name, GEIS_GESTURE_ATTRIBUTE_TOUCHES) != 0)
			continue;
		n = (int)t->v.i;
		switch (t->op) {
		case GEIS_FILTER_OP_EQ:
			if (n > lo) lo = n;
			if (n < hi) hi = n;
			break;
		case GEIS_FILTER_OP_NE:
			if (lo == n) lo++;
			if (hi == n) hi--;
			break;
		case GEIS_FILTER_OP_GT:
			if (n + 1 > lo) lo = n + 1;
			break;
		case GEIS_FILTER_OP_GE:
			if (n > lo) lo = n;
			break;
		case GEIS_FILTER_OP_LT:
			if (n - 1 < hi) hi = n - 1;
			break;
		case GEIS_FILTER_OP_LE:
			if (n < hi) hi = n;
			break;
		}
	}
	return lo <= hi ? lo : 0;
}

static int
add_frame_attrs(struct geis_attr_bag *a, int touches)
{
	int err = 0;

	err |= gs_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_DEVICE_ID, 13);
	err |= gs_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_TIMESTAMP, 1);
	err |= gs_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_ROOT_WINDOW_ID, 2);
	err |= gs_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_EVENT_WINDOW_ID, 3);
	err |= gs_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_CHILD_WINDOW_ID, 4);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_FOCUS_X, 123.456f);
	err |= gs_attr_bag_add_float(a, GEIS_GESTURE_ATTRIBUTE_FOCUS_Y, 987.654f);
	err |= gs_attr_bag_add_string(a, GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME, "mock gesture");
	err |= gs_attr_bag_add_integer(a, GEIS_GESTURE_ATTRIBUTE_TOUCHES, touches);
	return err;
}

/* The GESTURE_BEGIN one activation produces. */
static GeisEvent
mock_event(Geis geis, int touches)
{
	GeisEvent ev = gs_event_new(GEIS_EVENT_GESTURE_BEGIN);
	struct _GeisFrame *f;
	int err = 0;

	if (!ev)
		return NULL;
	f = gs_event_add_frame(ev, geis, 1, 1, (GeisSize)touches);
	if (!f)
		goto fail;
	f->mask = MOCK_CLASS_MASK;
	for (int i = 0; i < 9; i++)
		f->matrix[i] = i % 4 == 0 ? 1.0f : 0.0f;
	for (int i = 0; i < touches; i++) {
		struct _GeisTouch *t = &ev->touchset->touches[i];

		f->touchids[i] = (GeisTouchId)i;
		t->id = (GeisTouchId)i;
		gs_attr_bag_init(&t->attrs);
		err |= gs_attr_bag_add_integer(&t->attrs, GEIS_TOUCH_ATTRIBUTE_ID, i);
		err |= gs_attr_bag_add_float(&t->attrs, GEIS_TOUCH_ATTRIBUTE_X, 123.456f);
		err |= gs_attr_bag_add_float(&t->attrs, GEIS_TOUCH_ATTRIBUTE_Y, 987.654f);
	}
	err |= add_frame_attrs(&f->attrs, touches);
	err |= gs_attr_bag_add_pointer(&ev->attrs, GEIS_EVENT_ATTRIBUTE_GROUPSET, ev->groupset);
	err |= gs_attr_bag_add_pointer(&ev->attrs, GEIS_EVENT_ATTRIBUTE_TOUCHSET, ev->touchset);
	err |= gs_attr_bag_add_boolean(&ev->attrs, GEIS_EVENT_ATTRIBUTE_CONSTRUCTION_FINISHED,
					 GEIS_TRUE);
	if (err)
		goto fail;
	return ev;
fail:
	geis_event_delete(ev);
	return NULL;
}

static GeisStatus
mock_activate(struct geis_backend *base, GeisSubscription sub)
{
	struct mock_backend *be = (struct mock_backend *)base;
	Geis geis = base->geis;
	GeisFilter f = gs_sub_first_filter(sub);
	int touches = 0;
	GeisEvent ev;

	/* no filter: every count; else the lowest any filter allows */
	do {
		int n = filter_lowest_touches(f);

		if (n && (!touches || n < touches))
			touches = n;
	} while (f && (f = gs_sub_next_filter(sub, f)));
	if (!touches) {
		gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
				"subscription \"%s\": no touch count from 1 to %d satisfies "
				"its filters", sub->name, MOCK_TOUCHES);
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	ev = mock_event(geis, touches);
	if (!ev || (!be->started &&
		    !UT_ARRAY_RESERVE(be->pending, be->cappending, be->npending + 1, 4))) {
		if (ev)
			geis_event_delete(ev);
		gs_error_push(geis, GEIS_STATUS_UNKNOWN_ERROR,
				"out of memory building a gesture event");
		return GEIS_STATUS_UNKNOWN_ERROR;
	}
	if (!be->started) {
		/* after the start-up events, which tell the class */
		be->pending[be->npending++] = (struct mock_pending){ sub->id, ev };
		return GEIS_STATUS_SUCCESS;
	}
	gs_enqueue(geis, ev);
	gs_wake(geis);
	return GEIS_STATUS_SUCCESS;
}

static const struct geis_backend_ops mock_ops = {
	.name = "mock",
	.start = mock_start,
	.destroy = mock_destroy,
	.now = mock_now,
	.activate = mock_activate,
};

struct geis_backend *
gs_backend_mock_new(Geis geis)
{
	struct mock_backend *be = calloc(1, sizeof(*be));

	if (!be)
		return NULL;
	be->base.ops = &mock_ops;
	be->base.geis = geis;
	be->poke = gs_gesture_class_new(MOCK_CLASS_NAME, MOCK_CLASS_ID, MOCK_CLASS_MASK);
	if (!be->poke) {
		free(be);
		return NULL;
	}
	return &be->base;
}
