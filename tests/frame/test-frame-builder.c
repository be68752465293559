/*
 * Tests of the frame builder (UTouchFrameBuilder, <utouch/frame_handle.h>):
 * the frames a sequence of touch operations gives, compared field by field
 * with what the frame backend API (borrow, set, give) makes, and the
 * errors of bad calls.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>
#include <utouch/frame_handle.h>

#include "test-support.h"

/* Untyped calls, bypassing the C11 _Generic macros. */
#define ev_prop(e, p, v) (frame_event_get_property)((e), (p), (v))
#define fr_prop(f, p, v) (frame_frame_get_property)((f), (p), (v))
#define to_prop(t, p, v) (frame_touch_get_property)((t), (p), (v))

#define XY (1u << UFAxisTypeX | 1u << UFAxisTypeY)

static UFBackendDevice
make_device(void)
{
	UFBackendDevice dev = frame_backend_device_new();

	assert_non_null(dev);
	frame_backend_device_set_name(dev, "builder pad");
	frame_backend_device_add_axis(dev, UFAxisTypeX, 0.0f, 1000.0f, 50000.0f);
	frame_backend_device_add_axis(dev, UFAxisTypeY, 0.0f, 600.0f, 40000.0f);
	frame_backend_device_add_axis(dev, UFAxisTypePressure, 0.0f, 255.0f, 0.0f);
	return dev;
}

static struct utouch_frame_touch_op
op_at(enum utouch_frame_op_kind kind, UFTouchId id, uint64_t time, float x, float y)
{
	return (struct utouch_frame_touch_op){
		.kind = kind, .id = id, .time = time, .start_time = time,
		.set = UTOUCH_FRAME_SET_POSITION | XY,
		.window_x = x, .window_y = y,
		.values = { [UFAxisTypeX] = x * 10.0f, [UFAxisTypeY] = y * 10.0f },
	};
}

static void
apply(UTouchFrameBuilder b, struct utouch_frame_touch_op op)
{
	assert_int_equal(utouch_frame_builder_touch(b, &op), UFStatusSuccess);
}

static UFFrame
frame_of(UFEvent ev)
{
	UFFrame fr = NULL;

	assert_int_equal(frame_event_get_type(ev), UFEventTypeFrame);
	assert_int_equal(ev_prop(ev, UFEventPropertyFrame, &fr), UFStatusSuccess);
	assert_non_null(fr);
	return fr;
}

static UFTouch
touch_of(UFFrame fr, UFTouchId id)
{
	UFTouch t = NULL;

	assert_int_equal(frame_frame_get_touch_by_id(fr, id, &t), UFStatusSuccess);
	return t;
}

static int
owned(UFTouch t)
{
	int v = -1;

	assert_int_equal(to_prop(t, UFTouchPropertyOwned, &v), UFStatusSuccess);
	return v;
}

static int
pending_end(UFTouch t)
{
	int v = -1;

	assert_int_equal(to_prop(t, UFTouchPropertyPendingEnd, &v), UFStatusSuccess);
	return v;
}

/* begin, update, end: states, times, positions, values, copy on write */
static void
test_sequence(void **state)
{
	UFBackendDevice dev = make_device();
	UTouchFrameBuilder b = NULL;
	UFEvent e1, e2, e3, e4;
	UFFrame fr;
	UFTouch t;
	unsigned int active = 0;
	UFWindowId win = 0;
	uint64_t start = 0;
	struct utouch_frame_touch_op op;

	assert_int_equal(utouch_frame_builder_new(dev, 77, 1, &b), UFStatusSuccess);
	assert_non_null(b);

	/* two touches begin; touch 2 carries a pressure */
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	apply(b, op_at(UTOUCH_FRAME_OP_BEGIN, 1, 100, 10.0f, 20.0f));
	op = op_at(UTOUCH_FRAME_OP_BEGIN, 2, 100, 30.0f, 40.0f);
	op.start_time = 90;
	op.set |= 1u << UFAxisTypePressure;
	op.values[UFAxisTypePressure] = 55.0f;
	apply(b, op);
	assert_int_equal(utouch_frame_builder_end(b, 101, &e1), UFStatusSuccess);
	assert_int_equal(frame_event_get_time(e1), 101);
	fr = frame_of(e1);
	assert_ptr_equal(frame_frame_get_device(fr), frame_backend_device_get_device(dev));
	assert_int_equal(fr_prop(fr, UFFramePropertyWindowId, &win), UFStatusSuccess);
	assert_int_equal(win, 77);
	assert_int_equal(fr_prop(fr, UFFramePropertyActiveTouches, &active), UFStatusSuccess);
	assert_int_equal(active, 2);
	assert_int_equal(frame_frame_get_num_touches(fr), 2);
	t = touch_of(fr, 1);
	assert_int_equal(frame_touch_get_state(t), UFTouchStateBegin);
	assert_int_equal(frame_touch_get_time(t), 100);
	assert_int_equal(frame_touch_get_start_time(t), 100);
	assert_true(frame_touch_get_window_x(t) == 10.0f);
	assert_true(frame_touch_get_window_y(t) == 20.0f);
	assert_true(frame_touch_get_device_x(t) == 100.0f);
	assert_true(frame_touch_get_device_y(t) == 200.0f);
	assert_int_equal(owned(t), 1);
	assert_int_equal(pending_end(t), 0);
	assert_int_not_equal(frame_touch_get_value(t, UFAxisTypePressure, &(float){ 0 }),
			     UFStatusSuccess);
	t = touch_of(fr, 2);
	assert_int_equal(to_prop(t, UFTouchPropertyStartTime, &start), UFStatusSuccess);
	assert_int_equal(start, 90);
	{
		float p = 0;

		assert_int_equal(frame_touch_get_value(t, UFAxisTypePressure, &p), UFStatusSuccess);
		assert_true(p == 55.0f);
	}

	/* touch 1 moves; touch 2 is carried over as an update */
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	apply(b, op_at(UTOUCH_FRAME_OP_UPDATE, 1, 110, 15.0f, 25.0f));
	assert_int_equal(utouch_frame_builder_end(b, 111, &e2), UFStatusSuccess);
	fr = frame_of(e2);
	t = touch_of(fr, 1);
	assert_int_equal(frame_touch_get_state(t), UFTouchStateUpdate);
	assert_int_equal(frame_touch_get_time(t), 110);
	assert_int_equal(frame_touch_get_start_time(t), 100);
	assert_true(frame_touch_get_window_x(t) == 15.0f);
	assert_true(frame_touch_get_device_y(t) == 250.0f);
	{
		float px = 0;

		assert_int_equal(frame_frame_get_previous_touch_value(fr, t, UFAxisTypeX, &px),
				 UFStatusSuccess);
		assert_true(px == 100.0f);
	}
	t = touch_of(fr, 2);
	assert_int_equal(frame_touch_get_state(t), UFTouchStateUpdate);
	assert_int_equal(frame_touch_get_time(t), 100);
	/* the first frame is unchanged */
	assert_true(frame_touch_get_window_x(touch_of(frame_of(e1), 1)) == 10.0f);
	assert_int_equal(frame_touch_get_state(touch_of(frame_of(e1), 2)), UFTouchStateBegin);

	/* a frame without operations shares every touch with the previous one */
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	op = op_at(UTOUCH_FRAME_OP_END, 2, 120, 31.0f, 41.0f);
	apply(b, op);
	assert_int_equal(utouch_frame_builder_end(b, 121, &e3), UFStatusSuccess);
	fr = frame_of(e3);
	assert_ptr_equal(touch_of(fr, 1), touch_of(frame_of(e2), 1));
	t = touch_of(fr, 2);
	assert_int_equal(frame_touch_get_state(t), UFTouchStateEnd);
	assert_int_equal(frame_touch_get_time(t), 120);
	assert_true(frame_touch_get_window_y(t) == 41.0f);
	assert_int_equal(fr_prop(fr, UFFramePropertyActiveTouches, &active), UFStatusSuccess);
	assert_int_equal(active, 2);

	/* an ended touch is gone from the next frame and cannot be changed */
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	op = op_at(UTOUCH_FRAME_OP_UPDATE, 2, 130, 1.0f, 1.0f);
	assert_int_equal(utouch_frame_builder_touch(b, &op), UFStatusErrorInvalidTouch);
	assert_int_equal(utouch_frame_builder_end(b, 131, &e4), UFStatusSuccess);
	fr = frame_of(e4);
	assert_int_equal(frame_frame_get_num_touches(fr), 1);
	assert_int_equal(fr_prop(fr, UFFramePropertyActiveTouches, &active), UFStatusSuccess);
	assert_int_equal(active, 1);

	/* the events outlive the builder and the device handle */
	utouch_frame_builder_delete(b);
	frame_backend_device_delete(dev);
	assert_int_equal(frame_touch_get_state(touch_of(frame_of(e3), 2)), UFTouchStateEnd);
	frame_event_unref(e1);
	frame_event_unref(e2);
	frame_event_unref(e3);
	frame_event_unref(e4);
}

/*
 * Touches carried over unchanged are shared with the previous frame (the
 * builder takes their references only when the frame is ended or
 * cancelled): every frame keeps its touches, whichever of the builder and
 * the events goes first, with more touches than the 64 the builder
 * tracks that way too.  Run under ASan, a missing or extra reference shows.
 */
static void
test_carried_references(void **state)
{
	enum { MANY = 70 };
	UFBackendDevice dev = make_device();
	UTouchFrameBuilder b = NULL;
	UFEvent e1, e2, e3, e4;
	UFFrame fr;

	assert_int_equal(utouch_frame_builder_new(dev, 9, 1, &b), UFStatusSuccess);
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	for (UFTouchId id = 1; id <= MANY; id++)
		apply(b, op_at(UTOUCH_FRAME_OP_BEGIN, id, 10, (float)id, 1.0f));
	assert_int_equal(utouch_frame_builder_end(b, 10, &e1), UFStatusSuccess);

	/* every touch becomes an update (copied); then two of them move */
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	assert_int_equal(utouch_frame_builder_end(b, 20, &e2), UFStatusSuccess);
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	apply(b, op_at(UTOUCH_FRAME_OP_UPDATE, 3, 30, 300.0f, 2.0f));
	apply(b, op_at(UTOUCH_FRAME_OP_UPDATE, 67, 30, 6700.0f, 2.0f));
	assert_int_equal(utouch_frame_builder_end(b, 30, &e3), UFStatusSuccess);
	fr = frame_of(e3);
	assert_int_equal(frame_frame_get_num_touches(fr), MANY);
	assert_true(frame_touch_get_window_x(touch_of(fr, 3)) == 300.0f);
	assert_true(frame_touch_get_window_x(touch_of(fr, 67)) == 6700.0f);
	assert_ptr_not_equal(touch_of(fr, 3), touch_of(frame_of(e2), 3));
	assert_ptr_not_equal(touch_of(fr, 67), touch_of(frame_of(e2), 67));
	assert_ptr_equal(touch_of(fr, 4), touch_of(frame_of(e2), 4));
	assert_ptr_equal(touch_of(fr, 68), touch_of(frame_of(e2), 68));
	assert_true(frame_touch_get_window_x(touch_of(frame_of(e2), 3)) == 3.0f);
	assert_true(frame_touch_get_window_x(touch_of(frame_of(e2), 67)) == 67.0f);

	/* a cancelled frame gives back what it borrowed, changed or not */
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	apply(b, op_at(UTOUCH_FRAME_OP_UPDATE, 5, 40, 500.0f, 2.0f));
	apply(b, op_at(UTOUCH_FRAME_OP_END, 66, 40, 66.0f, 2.0f));
	utouch_frame_builder_cancel(b);
	assert_true(frame_touch_get_window_x(touch_of(fr, 5)) == 5.0f);
	assert_int_equal(frame_touch_get_state(touch_of(fr, 66)), UFTouchStateUpdate);

	/* the earlier events go first; then one ends a touch, and the frame
	 * after it no longer has it */
	frame_event_unref(e1);
	frame_event_unref(e2);
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	apply(b, op_at(UTOUCH_FRAME_OP_END, 1, 50, 1.0f, 1.0f));
	assert_int_equal(utouch_frame_builder_end(b, 50, &e4), UFStatusSuccess);
	assert_int_equal(frame_touch_get_state(touch_of(frame_of(e4), 1)), UFTouchStateEnd);
	frame_event_unref(e4);
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	assert_int_equal(utouch_frame_builder_end(b, 60, &e4), UFStatusSuccess);
	assert_int_equal(frame_frame_get_num_touches(frame_of(e4)), MANY - 1);
	assert_int_not_equal(frame_frame_get_touch_by_id(frame_of(e4), 1, &(UFTouch){ NULL }),
			     UFStatusSuccess);

	/* deleting the builder while a frame borrows touches */
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	utouch_frame_builder_delete(b);
	frame_backend_device_delete(dev);
	assert_true(frame_touch_get_window_x(touch_of(fr, 67)) == 6700.0f);
	assert_true(frame_touch_get_window_x(touch_of(frame_of(e4), 70)) == 70.0f);
	frame_event_unref(e3);
	frame_event_unref(e4);
}

/* ownership and pending end, as X11 and the evdev stream report them */
static void
test_own_pending(void **state)
{
	UFBackendDevice dev = make_device();
	UTouchFrameBuilder b = NULL;
	struct utouch_frame_touch_op op;
	UFEvent ev;
	UFTouch t;

	assert_int_equal(utouch_frame_builder_new(dev, 1, 0, &b), UFStatusSuccess);
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	apply(b, op_at(UTOUCH_FRAME_OP_BEGIN, 5, 10, 1.0f, 2.0f));
	apply(b, op_at(UTOUCH_FRAME_OP_BEGIN, 6, 10, 3.0f, 4.0f));
	assert_int_equal(utouch_frame_builder_end(b, 10, &ev), UFStatusSuccess);
	assert_int_equal(owned(touch_of(frame_of(ev), 5)), 0);
	frame_event_unref(ev);

	/* OWN changes ownership and time only */
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	apply(b, op_at(UTOUCH_FRAME_OP_OWN, 5, 20, 99.0f, 99.0f));
	/* PENDING_END moves the touch and marks it */
	apply(b, op_at(UTOUCH_FRAME_OP_PENDING_END, 6, 20, 3.5f, 4.5f));
	assert_int_equal(utouch_frame_builder_end(b, 20, &ev), UFStatusSuccess);
	t = touch_of(frame_of(ev), 5);
	assert_int_equal(owned(t), 1);
	assert_int_equal(frame_touch_get_time(t), 20);
	assert_true(frame_touch_get_window_x(t) == 1.0f);
	assert_int_equal(pending_end(t), 0);
	t = touch_of(frame_of(ev), 6);
	assert_int_equal(owned(t), 0);
	assert_int_equal(pending_end(t), 1);
	assert_true(frame_touch_get_window_x(t) == 3.5f);
	assert_int_equal(frame_touch_get_state(t), UFTouchStateUpdate);
	frame_event_unref(ev);

	/* SET_PENDING_END sets the flag either way, also with an end; an
	 * operation without position keeps it */
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	op = op_at(UTOUCH_FRAME_OP_UPDATE, 6, 30, 0.0f, 0.0f);
	op.set = UTOUCH_FRAME_SET_PENDING_END;
	op.pending_end = 0;
	apply(b, op);
	op = op_at(UTOUCH_FRAME_OP_END, 5, 30, 0.0f, 0.0f);
	op.set = UTOUCH_FRAME_SET_PENDING_END;
	op.pending_end = 1;
	apply(b, op);
	assert_int_equal(utouch_frame_builder_end(b, 30, &ev), UFStatusSuccess);
	t = touch_of(frame_of(ev), 6);
	assert_int_equal(pending_end(t), 0);
	assert_true(frame_touch_get_window_x(t) == 3.5f);
	assert_int_equal(frame_touch_get_time(t), 30);
	t = touch_of(frame_of(ev), 5);
	assert_int_equal(pending_end(t), 1);
	assert_int_equal(frame_touch_get_state(t), UFTouchStateEnd);
	assert_true(frame_touch_get_window_x(t) == 1.0f);
	frame_event_unref(ev);

	utouch_frame_builder_delete(b);
	frame_backend_device_delete(dev);
}

/* Every property of two frames' touches matches. */
static void
assert_same_frames(UFFrame a, UFFrame b)
{
	assert_int_equal(frame_frame_get_num_touches(a), frame_frame_get_num_touches(b));
	assert_int_equal(frame_frame_get_window_id(a), frame_frame_get_window_id(b));
	for (unsigned int i = 0; i < frame_frame_get_num_touches(a); i++) {
		UFTouch ta = NULL, tb = NULL;

		assert_int_equal(frame_frame_get_touch_by_index(a, i, &ta), UFStatusSuccess);
		assert_int_equal(frame_frame_get_touch_by_index(b, i, &tb), UFStatusSuccess);
		assert_int_equal(frame_touch_get_id(ta), frame_touch_get_id(tb));
		for (int p = UFTouchPropertyId; p <= UFTouchPropertyPendingEnd; p++) {
			uint64_t va = 0, vb = 0;   /* big enough for every type */
			UFStatus sa = to_prop(ta, (UFTouchProperty)p, &va);
			UFStatus sb = to_prop(tb, (UFTouchProperty)p, &vb);

			assert_int_equal(sa, sb);
			assert_memory_equal(&va, &vb, sizeof(va));
		}
		for (int ax = 0; ax < UTOUCH_FRAME_NUM_AXES; ax++) {
			float va = -1, vb = -1;

			assert_int_equal(frame_touch_get_value(ta, (UFAxisType)ax, &va),
					 frame_touch_get_value(tb, (UFAxisType)ax, &vb));
			assert_true(va == vb);
		}
	}
}

/* The touch change of @p op through the backend API (borrow/new, set, give). */
static void
backend_apply(UFBackendFrame fr, const struct utouch_frame_touch_op *op, int own_at_begin)
{
	UFBackendTouch t = NULL;

	if (op->kind == UTOUCH_FRAME_OP_BEGIN) {
		t = frame_backend_touch_new();
		assert_non_null(t);
		frame_backend_touch_set_id(t, op->id);
		frame_backend_touch_set_start_time(t, op->start_time);
		frame_backend_touch_set_owned(t, own_at_begin);
		frame_backend_touch_set_pending_end(t, 0);
	} else {
		assert_int_equal(frame_backend_frame_borrow_touch_by_id(fr, op->id, &t),
				 UFStatusSuccess);
	}
	frame_backend_touch_set_time(t, op->time);
	if (op->kind == UTOUCH_FRAME_OP_OWN) {
		frame_backend_touch_set_owned(t, 1);
	} else {
		frame_backend_touch_set_window_pos(t, op->window_x, op->window_y);
		for (int ax = 0; ax < UTOUCH_FRAME_NUM_AXES; ax++)
			if (op->set & (1u << ax))
				frame_backend_touch_set_value(t, (UFAxisType)ax, op->values[ax]);
		if (op->kind == UTOUCH_FRAME_OP_END)
			frame_backend_touch_set_ended(t);
		if (op->kind == UTOUCH_FRAME_OP_PENDING_END)
			frame_backend_touch_set_pending_end(t, 1);
	}
	assert_int_equal(frame_backend_frame_give_touch(fr, &t), UFStatusSuccess);
}

/* The builder makes what producers made with the backend API. */
static void
test_same_as_backend_api(void **state)
{
	static const struct { int frame; enum utouch_frame_op_kind kind; UFTouchId id; } script[] = {
		{ 0, UTOUCH_FRAME_OP_BEGIN, 1 }, { 0, UTOUCH_FRAME_OP_BEGIN, 2 },
		{ 1, UTOUCH_FRAME_OP_UPDATE, 2 }, { 1, UTOUCH_FRAME_OP_OWN, 1 },
		{ 2, UTOUCH_FRAME_OP_BEGIN, 3 }, { 2, UTOUCH_FRAME_OP_PENDING_END, 1 },
		{ 3, UTOUCH_FRAME_OP_END, 1 }, { 3, UTOUCH_FRAME_OP_UPDATE, 3 },
		{ 4, UTOUCH_FRAME_OP_END, 2 }, { 4, UTOUCH_FRAME_OP_END, 3 },
		{ 5, UTOUCH_FRAME_OP_BEGIN, 4 },
	};
	UFBackendDevice dev = make_device();
	UTouchFrameBuilder b = NULL;
	UFBackendFrame prev = NULL;
	size_t k = 0;

	assert_int_equal(utouch_frame_builder_new(dev, 9, 0, &b), UFStatusSuccess);
	for (int f = 0; f <= 5; f++) {
		UFBackendFrame fr = prev ? frame_backend_frame_create_next(prev)
					 : frame_backend_frame_new();
		UFEvent ev = NULL;

		assert_non_null(fr);
		frame_backend_frame_set_device(fr, dev);
		frame_backend_frame_set_window_id(fr, 9);
		assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
		for (; k < sizeof(script) / sizeof(script[0]) && script[k].frame == f; k++) {
			uint64_t time = 1000 + (uint64_t)f * 10 + k;
			struct utouch_frame_touch_op op =
				op_at(script[k].kind, script[k].id, time, (float)(f * 7 + k),
				      (float)(f * 3 + k));

			op.set |= 1u << UFAxisTypePressure;
			op.values[UFAxisTypePressure] = (float)k;
			apply(b, op);
			backend_apply(fr, &op, 0);
		}
		assert_int_equal(utouch_frame_builder_end(b, 1000 + (uint64_t)f * 10, &ev),
				 UFStatusSuccess);
		assert_same_frames(frame_of(ev), frame_backend_frame_get_frame(fr));
		frame_event_unref(ev);
		if (prev)
			frame_backend_frame_delete(prev);
		prev = fr;
	}
	frame_backend_frame_delete(prev);
	utouch_frame_builder_delete(b);
	frame_backend_device_delete(dev);
}

/* begin twice keeps the frame; cancel drops it */
static void
test_begin_cancel(void **state)
{
	UFBackendDevice dev = make_device();
	UTouchFrameBuilder b = NULL;
	UFEvent ev;

	assert_int_equal(utouch_frame_builder_new(dev, 1, 1, &b), UFStatusSuccess);
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	apply(b, op_at(UTOUCH_FRAME_OP_BEGIN, 1, 5, 1.0f, 1.0f));
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	apply(b, op_at(UTOUCH_FRAME_OP_BEGIN, 2, 5, 2.0f, 2.0f));
	assert_int_equal(utouch_frame_builder_end(b, 5, &ev), UFStatusSuccess);
	assert_int_equal(frame_frame_get_num_touches(frame_of(ev)), 2);
	frame_event_unref(ev);

	/* a cancelled frame leaves no trace */
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	apply(b, op_at(UTOUCH_FRAME_OP_END, 1, 6, 1.0f, 1.0f));
	apply(b, op_at(UTOUCH_FRAME_OP_BEGIN, 3, 6, 3.0f, 3.0f));
	utouch_frame_builder_cancel(b);
	assert_int_equal(utouch_frame_builder_end(b, 6, &ev), UFStatusErrorGeneric);
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	assert_int_equal(utouch_frame_builder_end(b, 7, &ev), UFStatusSuccess);
	assert_int_equal(frame_frame_get_num_touches(frame_of(ev)), 2);
	assert_int_equal(frame_touch_get_state(touch_of(frame_of(ev), 1)), UFTouchStateUpdate);
	frame_event_unref(ev);

	utouch_frame_builder_cancel(b);   /* nothing being built: no-op */
	utouch_frame_builder_cancel(NULL);
	utouch_frame_builder_delete(NULL);
	/* deleting with a frame being built releases it */
	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	utouch_frame_builder_delete(b);
	frame_backend_device_delete(dev);
}

static void
test_errors(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	UFBackendDevice dev = make_device();
	UTouchFrameBuilder b = NULL;
	struct utouch_frame_touch_op op = op_at(UTOUCH_FRAME_OP_BEGIN, 1, 1, 1.0f, 1.0f);
	UFEvent ev = NULL;

	assert_int_equal(utouch_frame_builder_new(NULL, 1, 1, &b), UFStatusErrorGeneric);
	assert_null(b);
	assert_int_equal(utouch_frame_builder_new(dev, 1, 1, NULL), UFStatusErrorGeneric);
	assert_int_equal(utouch_frame_builder_begin(NULL), UFStatusErrorGeneric);
	assert_int_equal(utouch_frame_builder_touch(NULL, &op), UFStatusErrorGeneric);
	assert_int_equal(utouch_frame_builder_end(NULL, 1, &ev), UFStatusErrorGeneric);
	assert_null(ev);

	assert_int_equal(utouch_frame_builder_new(dev, 1, 1, &b), UFStatusSuccess);
	/* no frame being built */
	assert_int_equal(utouch_frame_builder_touch(b, &op), UFStatusErrorGeneric);
	assert_int_equal(utouch_frame_builder_end(b, 1, &ev), UFStatusErrorGeneric);
	assert_null(ev);

	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	assert_int_equal(utouch_frame_builder_touch(b, NULL), UFStatusErrorGeneric);
	assert_int_equal(utouch_frame_builder_end(b, 1, NULL), UFStatusErrorGeneric);
	apply(b, op);
	/* a begin of a held id */
	assert_int_equal(utouch_frame_builder_touch(b, &op), UFStatusErrorTouchIdExists);
	/* other kinds on an id the frame does not hold */
	op.kind = UTOUCH_FRAME_OP_UPDATE;
	op.id = 2;
	assert_int_equal(utouch_frame_builder_touch(b, &op), UFStatusErrorInvalidTouch);
	op.kind = UTOUCH_FRAME_OP_OWN;
	assert_int_equal(utouch_frame_builder_touch(b, &op), UFStatusErrorInvalidTouch);
	/* unknown kinds, unknown set bits, values that are not finite */
	op = op_at((enum utouch_frame_op_kind)5, 1, 2, 5.0f, 5.0f);
	assert_int_equal(utouch_frame_builder_touch(b, &op), UFStatusErrorGeneric);
	op = op_at((enum utouch_frame_op_kind)-1, 1, 2, 5.0f, 5.0f);
	assert_int_equal(utouch_frame_builder_touch(b, &op), UFStatusErrorGeneric);
	op = op_at(UTOUCH_FRAME_OP_UPDATE, 1, 2, 5.0f, 5.0f);
	op.set |= 1u << UTOUCH_FRAME_NUM_AXES;
	assert_int_equal(utouch_frame_builder_touch(b, &op), UFStatusErrorInvalidAxis);
	op = op_at(UTOUCH_FRAME_OP_UPDATE, 1, 2, NAN, 5.0f);
	assert_int_equal(utouch_frame_builder_touch(b, &op), UFStatusErrorInvalidAxis);
	op = op_at(UTOUCH_FRAME_OP_UPDATE, 1, 2, 5.0f, 5.0f);
	op.values[UFAxisTypeY] = INFINITY;
	assert_int_equal(utouch_frame_builder_touch(b, &op), UFStatusErrorInvalidAxis);
	/* a value that is not set may be anything */
	op.set &= ~(1u << UFAxisTypeY);
	op.time = 3;
	apply(b, op);
	assert_int_equal(utouch_frame_builder_end(b, 3, &ev), UFStatusSuccess);
	/* none of the refused operations changed the touch */
	{
		UFTouch t = touch_of(frame_of(ev), 1);

		assert_int_equal(frame_frame_get_num_touches(frame_of(ev)), 1);
		assert_int_equal(frame_touch_get_time(t), 3);
		assert_true(frame_touch_get_window_x(t) == 5.0f);
		assert_true(frame_touch_get_device_y(t) == 10.0f);
	}
	frame_event_unref(ev);
	utouch_frame_builder_delete(b);
	frame_backend_device_delete(dev);
	UT_CLIENT_BUGS_END(7);
}

static void
test_device_events(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	UFBackendDevice dev = make_device();
	UFEventType types[2] = { UFEventTypeDeviceAdded, UFEventTypeDeviceRemoved };
	UFEvent ev = NULL;

	for (int i = 0; i < 2; i++) {
		UFDevice d = NULL;
		UFFrame fr = NULL;

		assert_int_equal(utouch_frame_device_event_new(dev, types[i], 1234 + (uint64_t)i, &ev),
				 UFStatusSuccess);
		assert_int_equal(frame_event_get_type(ev), types[i]);
		assert_int_equal(frame_event_get_time(ev), 1234 + (uint64_t)i);
		assert_int_equal(ev_prop(ev, UFEventPropertyDevice, &d), UFStatusSuccess);
		assert_ptr_equal(d, frame_backend_device_get_device(dev));
		assert_int_not_equal(ev_prop(ev, UFEventPropertyFrame, &fr), UFStatusSuccess);
		frame_event_unref(ev);
	}
	ev = NULL;
	assert_int_equal(utouch_frame_device_event_new(dev, UFEventTypeFrame, 1, &ev),
			 UFStatusErrorGeneric);
	assert_int_equal(utouch_frame_device_event_new(NULL, UFEventTypeDeviceAdded, 1, &ev),
			 UFStatusErrorGeneric);
	assert_int_equal(utouch_frame_device_event_new(dev, UFEventTypeDeviceAdded, 1, NULL),
			 UFStatusErrorGeneric);
	assert_null(ev);
	frame_backend_device_delete(dev);
	UT_CLIENT_BUGS_END(3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequence),
		cmocka_unit_test(test_carried_references),
		cmocka_unit_test(test_own_pending),
		cmocka_unit_test(test_same_as_backend_api),
		cmocka_unit_test(test_begin_cancel),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_device_events),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
