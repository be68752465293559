/*
 * Helpers shared by the C tests (tests/support/, linked through
 * test_support_dep).  They fail the running cmocka test on error, so a
 * test can call them without checking.
 */
#ifndef UTOUCH_TEST_SUPPORT_H
#define UTOUCH_TEST_SUPPORT_H

#include <linux/input.h>
#include <stddef.h>
#include <stdint.h>

struct ut_recording;

/**
 * Fail the running cmocka test unless @p cond holds, printing the
 * condition and a printf-style diagnostic (e.g. the output a check looked
 * at): assert_true() with a message.
 */
#define UT_ASSERT_MSG(cond, ...) \
	do { \
		if (!(cond)) { \
			print_error("%s\n", #cond); \
			print_error(__VA_ARGS__); \
			print_error("\n"); \
			fail(); \
		} \
	} while (0)

/** The evdev event at @p usec microseconds (seconds and microseconds split
 *  as the kernel does); every other field zero. */
struct input_event ut_test_event(uint64_t usec, uint16_t type, uint16_t code, int32_t value);

/** Event @p i of a loaded recording as a struct input_event. */
struct input_event ut_test_recorded_event(const struct ut_recording *rec, size_t i);

/** Write @p n events to @p fd completely (short writes are continued);
 *  fails the test when a write fails. */
void ut_test_write_events(int fd, const struct input_event *evs, size_t n);

/** ut_test_write_events() of the single event ut_test_event(usec, ...). */
void ut_test_write_event(int fd, uint64_t usec, uint16_t type, uint16_t code, int32_t value);

/** The full path of @p rel under data/recordings of the source tree, in a
 *  static buffer (valid until the next call). */
const char *ut_test_recording_path(const char *rel);

/** Load the recording @p rel (under data/recordings); fails the test when
 *  it cannot.  Free it with ut_recording_free(). */
struct ut_recording *ut_test_load_recording(const char *rel);

#endif
