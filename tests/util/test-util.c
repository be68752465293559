/*
 * Unit tests of the helpers in src/util/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_class_table),
		cmocka_unit_test(test_class_find),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
