/*
 * The X11 backend without a server: argument checks and id conversions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <oif/frame_x11.h>
#include <utouch/frame_handle.h>
#include <X11/extensions/XInput2.h>

#include "test-support.h"

static void
test_new_bad_arguments(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	UFHandle handle = (UFHandle)(uintptr_t)0x1;

	assert_int_equal(frame_x11_new(NULL, &handle), UFStatusErrorGeneric);
	assert_null(handle);
	/* the out pointer is checked before the display is touched */
	assert_int_equal(frame_x11_new((Display *)(uintptr_t)0x10, NULL),
			 UFStatusErrorGeneric);
	assert_int_equal(frame_x11_new(NULL, NULL), UFStatusErrorGeneric);
	UT_CLIENT_BUGS_END(2);
}

static void
test_process_bad_arguments(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	XGenericEventCookie cookie;
	UFHandle plain;

	memset(&cookie, 0, sizeof(cookie));
	cookie.type = GenericEvent;
	cookie.evtype = XI_TouchBegin;
	assert_int_equal(frame_x11_process_event(NULL, &cookie), UFStatusErrorGeneric);

	/* a queue that frame_x11_new() did not make is not an X11 instance */
	assert_int_equal(utouch_frame_handle_new(&plain), UFStatusSuccess);
	assert_int_equal(frame_x11_process_event(plain, &cookie), UFStatusErrorGeneric);
	assert_int_equal(frame_x11_process_event(plain, NULL), UFStatusErrorGeneric);
	assert_int_equal(utouch_frame_handle_get_queue_length(plain), 0);
	/* and frame_x11_delete() leaves it alone (no double free below) */
	frame_x11_delete(plain);
	frame_x11_delete(NULL);
	utouch_frame_handle_delete(plain);
	UT_CLIENT_BUGS_END(2);
}

static void
test_accept_without_device(void **state)
{
	assert_int_equal(frame_x11_accept_touch(NULL, 1, 1), UFStatusErrorGeneric);
	assert_int_equal(frame_x11_reject_touch(NULL, 1, 1), UFStatusErrorGeneric);
}

static void
test_ids(void **state)
{
	assert_int_equal(frame_x11_create_window_id(0x400001), 0x400001);
	assert_int_equal(frame_x11_get_window_id(0x400001), 0x400001);
	assert_int_equal(frame_x11_get_window_id(frame_x11_create_window_id(0xffffffffUL)),
			 0xffffffffUL);
	assert_int_equal(frame_x11_create_touch_id(7), 7);
	assert_int_equal(frame_x11_create_touch_id(0xffffffffu), 0xffffffffu);
	assert_int_equal(frame_x11_get_touch_id(frame_x11_create_touch_id(123456u)), 123456u);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_bad_arguments),
		cmocka_unit_test(test_process_bad_arguments),
		cmocka_unit_test(test_accept_without_device),
		cmocka_unit_test(test_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
