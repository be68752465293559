/* Helpers shared by the C tests; see test-support.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "input/recording/recording.h"
#include "test-support.h"


struct input_event
ut_test_event(uint64_t usec, uint16_t type, uint16_t code, int32_t value)
{
	struct input_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.input_event_sec = (time_t)(usec / 1000000u);
	ev.input_event_usec = (suseconds_t)(usec % 1000000u);
	ev.type = type;
	ev.code = code;
	ev.value = value;
	return ev;
}

struct input_event
ut_test_recorded_event(const struct ut_recording *rec, size_t i)
{
	const struct ut_raw_event *r = &rec->events[i];

	return ut_test_event(r->usec, r->type, r->code, r->value);
}

void
ut_test_write_events(int fd, const struct input_event *evs, size_t n)
{
	const char *p = (const char *)evs;
	size_t left = n * sizeof(*evs);

	while (left > 0) {
		ssize_t w = write(fd, p, left);

		if (w <= 0)
			fail_msg("writing %zu bytes of events to fd %d failed", left, fd);
		p += w;
		left -= (size_t)w;
	}
}

void
ut_test_write_event(int fd, uint64_t usec, uint16_t type, uint16_t code, int32_t value)
{
	struct input_event ev = ut_test_event(usec, type, code, value);

	ut_test_write_events(fd, &ev, 1);
}

void
ut_test_write_touch(int fd, uint64_t usec, int slot, int tid, int x, int y)
{
	ut_test_write_event(fd, usec, EV_ABS, ABS_MT_SLOT, slot);
	if (tid)
		ut_test_write_event(fd, usec, EV_ABS, ABS_MT_TRACKING_ID, tid);
	ut_test_write_event(fd, usec, EV_ABS, ABS_MT_POSITION_X, x);
	ut_test_write_event(fd, usec, EV_ABS, ABS_MT_POSITION_Y, y);
}

const char *
ut_test_recording_path(const char *rel)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/data/recordings/%s", UT_TEST_SRCDIR, rel);
	return path;
}

struct ut_recording *
ut_test_load_recording(const char *rel)
{
	struct ut_recording *rec = NULL;
	char err[256] = "";
	const char *path = ut_test_recording_path(rel);

	if (ut_recording_load(path, NULL, &rec, err, sizeof(err)) != 0 || !rec)
		fail_msg("cannot load %s: %s", path, err);
	return rec;
}
