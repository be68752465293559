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

/** What ut_test_log_record() heard: how many messages, and the last
 *  one's level and text. */
struct ut_test_log {
	int n;
	int level;
	char msg[1024];
};

/**
 * A log handler of the shape grail_set_log_handler() takes (level -1
 * debug, 0 warning, 1 error) that records into the struct ut_test_log
 * @p data.
 */
void ut_test_log_record(void *data, int level, const char *msg);

/*
 * Client bugs.  A program linked with test_support_dep fails the running
 * test on a "client bug:" message (a public function called with a bad
 * argument, util/log.h) that the test did not announce, as libinput's
 * litest does: such a message in a test that passes valid arguments is a
 * bug in the test or in the library.  A test that passes bad arguments on
 * purpose announces how many client bugs it provokes, or wraps each call
 * in UT_EXPECT_CLIENT_BUG().
 */

/** The next @p n client-bug messages are expected (replaces any earlier
 *  allowance; 0: none is). */
void ut_test_expect_client_bugs(unsigned int n);

/** Client-bug messages seen since the program started. */
unsigned int ut_test_client_bugs_seen(void);

/** Evaluate @p expr, which must log exactly one client bug, to its value. */
#define UT_EXPECT_CLIENT_BUG(expr) __extension__ ({ \
	unsigned int ut_seen_ = ut_test_client_bugs_seen(); \
	ut_test_expect_client_bugs(1); \
	__typeof__(expr) ut_value_ = (expr); \
	ut_test_expect_client_bugs(0); \
	UT_ASSERT_MSG(ut_test_client_bugs_seen() == ut_seen_ + 1, \
		      "%s logged %u client bugs, expected 1", #expr, \
		      ut_test_client_bugs_seen() - ut_seen_); \
	ut_value_; })

/** Start a stretch of a test that provokes client bugs on purpose... */
#define UT_CLIENT_BUGS_BEGIN() \
	unsigned int ut_bugs0_ = ut_test_client_bugs_seen(); \
	ut_test_expect_client_bugs(~0u)

/** ...and end it: exactly @p n client bugs were logged in it. */
#define UT_CLIENT_BUGS_END(n) \
	do { \
		ut_test_expect_client_bugs(0); \
		assert_int_equal(ut_test_client_bugs_seen() - ut_bugs0_, (n)); \
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

/** A protocol B touch's state at @p usec: ABS_MT_SLOT @p slot, then
 *  ABS_MT_TRACKING_ID @p tid unless it is 0 (a touch going on), then
 *  ABS_MT_POSITION_X/Y; no SYN_REPORT. */
void ut_test_write_touch(int fd, uint64_t usec, int slot, int tid, int x, int y);

/** The full path of @p rel under data/recordings of the source tree, in a
 *  static buffer (valid until the next call). */
const char *ut_test_recording_path(const char *rel);

/** Load the recording @p rel (under data/recordings); fails the test when
 *  it cannot.  Free it with ut_recording_free(). */
struct ut_recording *ut_test_load_recording(const char *rel);

#endif
