/*
 * Unit tests of the helpers in src/util/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <poll.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/gesture-class.h"

/* ------------------------------------------------------------------ */
/* gesture classes                                                     */

static void
test_class_table(void **state)
{
	(void)state;
	assert_int_equal(UT_NUM_GESTURE_CLASSES, 5);
	assert_string_equal(ut_gesture_classes[0].name, "Drag");
	assert_int_equal(ut_gesture_classes[0].id, 0);
	assert_int_equal(ut_gesture_classes[3].id, 15);
	assert_int_equal(ut_gesture_classes[4].id, 32);
	assert_int_equal(ut_gesture_class_mask_all(), 0x1f);
	/* the first class in table order wins */
	assert_string_equal(ut_gesture_class_by_mask(UGGestureTypeTap |
						     UGGestureTypePinch)->name, "Pinch");
	assert_string_equal(ut_gesture_class_by_mask(UGGestureTypeTouch)->key, "touch");
	assert_null(ut_gesture_class_by_mask(0));
	assert_null(ut_gesture_class_by_mask(0x20));
}

static void
test_class_find(void **state)
{
	(void)state;
	assert_int_equal(ut_gesture_class_find("rotate", 6, 0), 2);
	assert_int_equal(ut_gesture_class_find("Rotate", 6, 0), -1);
	assert_int_equal(ut_gesture_class_find("Rotate", 6, 1), 2);
	/* a prefix of the input, not a prefix of the key */
	assert_int_equal(ut_gesture_class_find("tap+drag", 3, 0), 3);
	assert_int_equal(ut_gesture_class_find("ta", 2, 0), -1);
	assert_int_equal(ut_gesture_class_find("", 0, 0), -1);
	assert_int_equal(ut_gesture_class_find("all", 3, 1), -1);
}

/* ------------------------------------------------------------------ */
/* time                                                                */

static void
test_input_event_time(void **state)
{
	struct input_event ev;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ut_input_event_set_usec(&ev, 1234567891ull);
	assert_int_equal(ev.input_event_sec, 1234);
	assert_int_equal(ev.input_event_usec, 567891);
	assert_int_equal(ut_input_event_usec(&ev), 1234567891ull);
	ut_input_event_set_usec(&ev, 999999);
	assert_int_equal(ev.input_event_sec, 0);
	assert_int_equal(ev.input_event_usec, 999999);
}

static void
test_mono(void **state)
{
	uint64_t ms = ut_mono_ms(), us = ut_mono_us(), ms2 = ut_mono_ms();

	(void)state;
	/* the two readings agree to the millisecond */
	assert_true(us / 1000 >= ms);
	assert_true(us / 1000 <= ms2);
}

static int
readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, timeout_ms) == 1 && (p.revents & POLLIN);
}

static void
test_timerfd(void **state)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	struct itimerspec its;
	uint64_t n;

	(void)state;
	assert_true(fd >= 0);
	/* a delay of 0 fires at once instead of disarming */
	assert_int_equal(ut_timerfd_arm_ms(fd, 0), 0);
	assert_true(readable(fd, 1000));
	assert_int_equal(read(fd, &n, sizeof(n)), sizeof(n));
	assert_int_equal(n, 1);
	/* a long delay is armed with the right value, then disarmed */
	assert_int_equal(ut_timerfd_arm_ms(fd, 60500), 0);
	assert_int_equal(timerfd_gettime(fd, &its), 0);
	assert_true(its.it_value.tv_sec == 60 || its.it_value.tv_sec == 59);
	assert_int_equal(its.it_interval.tv_sec, 0);
	assert_int_equal(ut_timerfd_disarm(fd), 0);
	assert_int_equal(timerfd_gettime(fd, &its), 0);
	assert_int_equal(its.it_value.tv_sec, 0);
	assert_int_equal(its.it_value.tv_nsec, 0);
	assert_false(readable(fd, 0));
	close(fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_class_table),
		cmocka_unit_test(test_class_find),
		cmocka_unit_test(test_input_event_time),
		cmocka_unit_test(test_mono),
		cmocka_unit_test(test_timerfd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
