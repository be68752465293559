/*
 * A checker of evdev protocol B streams, independent of utouch's own
 * reader: what a kernel client (libinput, a compositor) relies on in a
 * stream, and the touches it carries.  For the tests of the touch proxy's
 * clone (tests/gestured, tests/proxy).
 */
#ifndef UTOUCH_TEST_EVDEV_CHECK_H
#define UTOUCH_TEST_EVDEV_CHECK_H

#include <linux/input.h>
#include <stddef.h>

struct libevdev;

#define EC_MAX_TOUCHES 32
#define EC_MAX_POS 4096

/** The touches of a stream, in order of appearance. */
struct ec_touches {
	int n;                                   /**< touches that began */
	int npos[EC_MAX_TOUCHES];                /**< positions of each */
	int x[EC_MAX_TOUCHES][EC_MAX_POS], y[EC_MAX_TOUCHES][EC_MAX_POS];
	int ended[EC_MAX_TOUCHES];
	int reports;                             /**< SYN_REPORTs */
};

/**
 * Read @p n events of a device described by @p dev and collect its
 * touches (one position per report that began or moved a touch).  With
 * @p strict, fail the running cmocka test unless the stream is one a
 * proxy's clone must give: a new tracking id only in a free slot, -1 only
 * in a used one, no values for free slots, BTN_TOUCH set exactly while a
 * touch is down, exactly one BTN_TOOL_* (the one for the count, when the
 * device has it) while touches are down and none otherwise, ABS_X/ABS_Y
 * of the oldest touch, MSC_TIMESTAMP never going back, the last report
 * closed and every touch ended.
 */
void ec_read(const struct libevdev *dev, const struct input_event *ev, size_t n,
	     struct ec_touches *out, int strict);

/**
 * Fail the running test unless every touch of @p orig is in @p got, in
 * the same order, ended, with the same first and last positions and the
 * positions between a subsequence of the original's (a held history is
 * compressed); with @p exact, every position.
 */
void ec_assert_whole(const struct ec_touches *orig, const struct ec_touches *got, int exact);

#endif
