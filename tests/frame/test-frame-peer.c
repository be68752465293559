/*
 * frame-peer.h: the inline accessors grail reads frames with report what
 * the public getters report, and the layout fingerprint is frame's own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>
#include <utouch/frame_handle.h>

#include "frame/frame-peer.h"

#define XY (1u << UFAxisTypeX | 1u << UFAxisTypeY)

static void
test_layout(void **state)
{
	(void)state;
	assert_int_equal(ut_frame_peer_layout(), UT_FRAME_PEER_LAYOUT);
}

static void
apply(UTouchFrameBuilder b, enum utouch_frame_op_kind kind, UFTouchId id, uint64_t time,
      float x, float y, uint32_t set)
{
	struct utouch_frame_touch_op op = {
		.kind = kind, .id = id, .time = time, .start_time = 100 + id,
		.set = set, .window_x = x, .window_y = y,
		.values = { [UFAxisTypeX] = x * 10.0f, [UFAxisTypeY] = y * 10.0f },
	};

	assert_int_equal(utouch_frame_builder_touch(b, &op), UFStatusSuccess);
}

static UFFrame
frame_of(UFEvent ev)
{
	UFFrame fr = NULL;

	assert_int_equal((frame_event_get_property)(ev, UFEventPropertyFrame, &fr),
			 UFStatusSuccess);
	return fr;
}

/* every field of every touch, through both ways of reading it */
static void
check_frame(UFEvent ev)
{
	struct ut_frame_event_view view;
	UFFrame fr = NULL;

	ut_frame_event_view(ev, &view);
	assert_int_equal(view.type, frame_event_get_type(ev));
	assert_int_equal(view.time, frame_event_get_time(ev));
	assert_int_equal((frame_event_get_property)(ev, UFEventPropertyFrame, &fr),
			 UFStatusSuccess);
	assert_ptr_equal(view.frame, fr);
	assert_ptr_equal(view.device, frame_frame_get_device(fr));
	assert_int_equal(view.window, frame_frame_get_window_id(fr));
	assert_int_equal(view.num_touches, frame_frame_get_num_touches(fr));
	for (unsigned int i = 0; i < view.num_touches; i++) {
		const struct UFTouch_ *t = ut_frame_touch_at(fr, i);
		UFTouch pub = NULL;
		int owned = -1, pending = -1;

		assert_int_equal(frame_frame_get_touch_by_index(fr, i, &pub), UFStatusSuccess);
		assert_ptr_equal(t, pub);
		assert_int_equal(t->id, frame_touch_get_id(pub));
		assert_int_equal(t->state, frame_touch_get_state(pub));
		assert_int_equal(t->time, frame_touch_get_time(pub));
		assert_int_equal(t->start_time, frame_touch_get_start_time(pub));
		assert_true(t->window_x == frame_touch_get_window_x(pub));
		assert_true(t->window_y == frame_touch_get_window_y(pub));
		assert_true(ut_frame_touch_dev_x(t) == frame_touch_get_device_x(pub));
		assert_true(ut_frame_touch_dev_y(t) == frame_touch_get_device_y(pub));
		if ((frame_touch_get_property)(pub, UFTouchPropertyOwned, &owned) != UFStatusSuccess)
			owned = 0;
		if ((frame_touch_get_property)(pub, UFTouchPropertyPendingEnd, &pending) !=
		    UFStatusSuccess)
			pending = 0;
		assert_int_equal(ut_frame_touch_owned(t), owned != 0);
		assert_int_equal(ut_frame_touch_pending_end(t), pending != 0);
	}
}

static void
test_accessors_match_getters(void **state)
{
	UFBackendDevice dev = frame_backend_device_new();
	UTouchFrameBuilder b = NULL;
	UFEvent ev = NULL;

	(void)state;
	assert_non_null(dev);
	frame_backend_device_add_axis(dev, UFAxisTypeX, 0.0f, 1000.0f, 50000.0f);
	frame_backend_device_add_axis(dev, UFAxisTypeY, 0.0f, 600.0f, 40000.0f);
	assert_int_equal(utouch_frame_builder_new(dev, 7, 0, &b), UFStatusSuccess);

	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	apply(b, UTOUCH_FRAME_OP_BEGIN, 1, 1000, 10.5f, 20.25f,
	      UTOUCH_FRAME_SET_POSITION | XY);
	/* no device axes for this one: its device coordinates read 0 */
	apply(b, UTOUCH_FRAME_OP_BEGIN, 2, 1000, 30.0f, 40.0f, UTOUCH_FRAME_SET_POSITION);
	assert_int_equal(utouch_frame_builder_end(b, 1000, &ev), UFStatusSuccess);
	check_frame(ev);
	assert_true(ut_frame_touch_dev_x(ut_frame_touch_at(frame_of(ev), 1)) == 0.0f);
	/* the inline reference calls keep and then release the event */
	ut_frame_event_ref_inline(ev);
	ut_frame_event_unref_inline(ev);
	check_frame(ev);
	frame_event_unref(ev);

	assert_int_equal(utouch_frame_builder_begin(b), UFStatusSuccess);
	apply(b, UTOUCH_FRAME_OP_OWN, 1, 1010, 0.0f, 0.0f, 0);
	apply(b, UTOUCH_FRAME_OP_PENDING_END, 2, 1010, 0.0f, 0.0f, 0);
	apply(b, UTOUCH_FRAME_OP_UPDATE, 1, 1010, 11.0f, 21.0f, UTOUCH_FRAME_SET_POSITION | XY);
	assert_int_equal(utouch_frame_builder_end(b, 1010, &ev), UFStatusSuccess);
	check_frame(ev);
	assert_true(ut_frame_touch_owned(ut_frame_touch_at(frame_of(ev), 0)));
	assert_true(ut_frame_touch_pending_end(ut_frame_touch_at(frame_of(ev), 1)));
	frame_event_unref(ev);

	utouch_frame_builder_delete(b);
	frame_backend_device_delete(dev);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_accessors_match_getters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
