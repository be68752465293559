/*
 * Tests for the recording parsers: evemu 1.0, evemu 2.x, libinput record
 * YAML, the device.prop fallback and every error message.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <libevdev/libevdev.h>

#include "input/recording/recording-private.h"
#include "input/recording/recording.h"
#include "input/recording/script.h"

/* ------------------------------------------------------------------ */
/* Fixtures: the same two-report touch recording in the three formats. */

#define B_ZERO "00 00 00 00 00 00 00 00\n"

/* Device lines; BTN_TOUCH (0x14a) is bit 2 of byte 41, the 2nd byte of the 6th B: 01 line. */
#define EVEMU_DEVICE_BODY                                                                 \
	"N: Test Touchscreen\n"                                                           \
	"I: 0003 1234 5678 0111\n"                                                        \
	"P: 02 00 00 00 00 00 00 00\n"                                                    \
	"B: 00 0b 00 00 00 00 00 00 00\n"                                                 \
	"B: 01 " B_ZERO "B: 01 " B_ZERO "B: 01 " B_ZERO "B: 01 " B_ZERO "B: 01 " B_ZERO \
	"B: 01 00 04 00 00 00 00 00 00\n"                                                 \
	"B: 01 " B_ZERO "B: 01 " B_ZERO "B: 01 " B_ZERO "B: 01 " B_ZERO "B: 01 " B_ZERO \
	"B: 01 " B_ZERO "B: 02 " B_ZERO "B: 03 03 00 00 00 00 80 60 02\n"

static const char evemu1_device[] = EVEMU_DEVICE_BODY
	"A: 00 0 9600 75 0\n"
	"A: 01 0 7200 75 0\n"
	"A: 2f 0 9 0 0\n"
	"A: 35 0 9600 75 0\n"
	"A: 36 0 7200 75 0\n"
	"A: 39 0 65535 0 0\n";

static const char evemu1_events[] =
	"E: 1327542640.244087 0003 0039 12\n"
	"E: 1327542640.244087 0003 0035 4753\n"
	"E: 1327542640.244087 0003 0036 3000\n"
	"E: 1327542640.244087 0001 014a 1\n"
	"E: 1327542640.244087 0000 0000 0\n"
	"E: 1327542640.256003 0003 0035 4760\n"
	"E: 1327542640.256003 0000 0000 0\n";

static const char evemu2_text[] =
	"# EVEMU 1.3\n"
	"# Kernel: 6.1.0-18-amd64\n"
	"# Input device name: \"Test Touchscreen\"\n"
	EVEMU_DEVICE_BODY
	"A: 00 0 9600 75 0 40\n"
	"A: 01 0 7200 75 0 40\n"
	"A: 2f 0 9 0 0 0\n"
	"A: 35 0 9600 75 0 40\n"
	"A: 36 0 7200 75 0 40\n"
	"A: 39 0 65535 0 0 0\n"
	"L: 00 0\n"
	"S: 00 0\n"
	"################################\n"
	"#      Waiting for events      #\n"
	"################################\n"
	"E: 0.000000 0003 0039 0012\t# EV_ABS / ABS_MT_TRACKING_ID   12\n"
	"E: 0.000000 0003 0035 4753\t# EV_ABS / ABS_MT_POSITION_X    4753\n"
	"E: 0.000000 0003 0036 3000\t# EV_ABS / ABS_MT_POSITION_Y    3000\n"
	"E: 0.000000 0001 014a 0001\t# EV_KEY / BTN_TOUCH            1\n"
	"E: 0.000000 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms\n"
	"E: 0.011916 0003 0035 4760\t# EV_ABS / ABS_MT_POSITION_X    4760\n"
	"E: 0.011916 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +11ms\n";

static const char yaml_text[] =
	"version: 1\n"
	"ndevices: 1\n"
	"libinput:\n"
	"  version: 1.22.1\n"
	"system:\n"
	"  kernel: \"6.1.0-18-amd64\"\n"
	"devices:\n"
	"- node: /dev/input/event5\n"
	"  evdev:\n"
	"    # Name: Test Touchscreen\n"
	"    name: Test Touchscreen\n"
	"    id: [3, 4660, 22136, 273]\n"
	"    codes:\n"
	"      0: [0, 1, 2, 3]\n"
	"      1: [330]\n"
	"      3: [0, 1, 47, 53, 54, 57]\n"
	"    absinfo:\n"
	"      0: [0, 9600, 75, 0, 40]\n"
	"      1: [0, 7200, 75, 0, 40]\n"
	"      47: [0, 9, 0, 0, 0]\n"
	"      53: [0, 9600, 75, 0, 40]\n"
	"      54: [0, 7200, 75, 0, 40]\n"
	"      57: [0, 65535, 0, 0, 0]\n"
	"    properties: [1]\n"
	"  hid: [1, 2, 3]\n"
	"  udev:\n"
	"    properties:\n"
	"    - ID_INPUT=1\n"
	"  events:\n"
	"  - evdev:\n"
	"    - [  0,      0,   3,  57,    12] # EV_ABS / ABS_MT_TRACKING_ID 12\n"
	"    - [  0,      0,   3,  53,  4753] # EV_ABS / ABS_MT_POSITION_X 4753\n"
	"    - [  0,      0,   3,  54,  3000]\n"
	"    - [  0,      0,   1, 330,     1]\n"
	"    - [  0,      0,   0,   0,     0]\n"
	"  - libinput:\n"
	"    - {type: TOUCH_DOWN, time: 0.0}\n"
	"  - evdev:\n"
	"    - [  0,  11916,   3,  53,  4760]\n"
	"    - [  0,  11916,   0,   0,     0]\n";

/* ------------------------------------------------------------------ */
/* Helpers */

static char *
concat(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 1);
	assert_non_null(s);
	memcpy(s, a, la);
	memcpy(s + la, b, lb + 1);
	return s;
}

static struct ut_recording *
parse_ok(const char *name, const char *text)
{
	char err[512] = "";
	struct ut_recording *rec = NULL;
	int rc = ut_recording_parse(name, text, strlen(text), &rec, err, sizeof(err));
	if (rc != 0)
		print_error("unexpected error: %s\n", err);
	assert_int_equal(rc, 0);
	assert_string_equal(err, "");
	assert_non_null(rec);
	return rec;
}

static void
expect_error_len(const char *name, const char *text, size_t len, int expected_rc,
		 const char *expected_msg)
{
	char err[512] = "stale";
	struct ut_recording *rec = (struct ut_recording *)&err;
	int rc = ut_recording_parse(name, text, len, &rec, err, sizeof(err));
	if (rc != expected_rc || strcmp(err, expected_msg) != 0)
		print_error("rc %d, message '%s'\n", rc, err);
	assert_int_equal(rc, expected_rc);
	assert_string_equal(err, expected_msg);
	assert_null(rec);
}

static void
expect_error(const char *name, const char *text, int expected_rc, const char *expected_msg)
{
	expect_error_len(name, text, strlen(text), expected_rc, expected_msg);
}

static void
assert_event(const struct ut_raw_event *ev, uint64_t usec, uint16_t type, uint16_t code,
	     int32_t value)
{
	assert_int_equal(ev->usec, usec);
	assert_int_equal(ev->type, type);
	assert_int_equal(ev->code, code);
	assert_int_equal(ev->value, value);
}

static void
assert_abs(const struct libevdev *dev, unsigned int code, int min, int max, int fuzz,
	   int flat, int res)
{
	assert_true(libevdev_has_event_code(dev, EV_ABS, code));
	const struct input_absinfo *abs = libevdev_get_abs_info(dev, code);
	assert_non_null(abs);
	assert_int_equal(abs->minimum, min);
	assert_int_equal(abs->maximum, max);
	assert_int_equal(abs->fuzz, fuzz);
	assert_int_equal(abs->flat, flat);
	assert_int_equal(abs->resolution, res);
}

/* The device the three fixtures describe; @p res is 0 for evemu 1.0. */
static void
assert_test_device(const struct libevdev *dev, int res)
{
	assert_string_equal(libevdev_get_name(dev), "Test Touchscreen");
	assert_int_equal(libevdev_get_id_bustype(dev), 0x3);
	assert_int_equal(libevdev_get_id_vendor(dev), 0x1234);
	assert_int_equal(libevdev_get_id_product(dev), 0x5678);
	assert_int_equal(libevdev_get_id_version(dev), 0x0111);
	assert_true(libevdev_has_property(dev, INPUT_PROP_DIRECT));
	assert_false(libevdev_has_property(dev, INPUT_PROP_POINTER));
	assert_true(libevdev_has_event_type(dev, EV_KEY));
	assert_true(libevdev_has_event_type(dev, EV_ABS));
	assert_false(libevdev_has_event_type(dev, EV_REL));
	assert_true(libevdev_has_event_code(dev, EV_KEY, BTN_TOUCH));
	assert_false(libevdev_has_event_code(dev, EV_KEY, BTN_LEFT));
	assert_false(libevdev_has_event_code(dev, EV_ABS, ABS_PRESSURE));
	assert_abs(dev, ABS_X, 0, 9600, 75, 0, res);
	assert_abs(dev, ABS_Y, 0, 7200, 75, 0, res);
	assert_abs(dev, ABS_MT_SLOT, 0, 9, 0, 0, 0);
	assert_abs(dev, ABS_MT_POSITION_X, 0, 9600, 75, 0, res);
	assert_abs(dev, ABS_MT_POSITION_Y, 0, 7200, 75, 0, res);
	assert_abs(dev, ABS_MT_TRACKING_ID, 0, 65535, 0, 0, 0);
	assert_int_equal(libevdev_get_num_slots(dev), 10);
}

/* The events of the fixtures, with @p t0 the time of the first report. */
static void
assert_test_events(const struct ut_recording *rec, uint64_t t0)
{
	assert_int_equal(rec->nevents, 7);
	assert_event(&rec->events[0], t0, EV_ABS, ABS_MT_TRACKING_ID, 12);
	assert_event(&rec->events[1], t0, EV_ABS, ABS_MT_POSITION_X, 4753);
	assert_event(&rec->events[2], t0, EV_ABS, ABS_MT_POSITION_Y, 3000);
	assert_event(&rec->events[3], t0, EV_KEY, BTN_TOUCH, 1);
	assert_event(&rec->events[4], t0, EV_SYN, SYN_REPORT, 0);
	assert_event(&rec->events[5], t0 + 11916, EV_ABS, ABS_MT_POSITION_X, 4760);
	assert_event(&rec->events[6], t0 + 11916, EV_SYN, SYN_REPORT, 0);
}

/* A temporary directory removed by the test that made it. */
struct tmpdir {
	char path[64];
	char files[8][128];
	int nfiles;
};

static void
tmpdir_make(struct tmpdir *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->path, sizeof(d->path), "/tmp/ut-recording-XXXXXX");
	assert_non_null(mkdtemp(d->path));
}

static const char *
tmpdir_write(struct tmpdir *d, const char *name, const char *text)
{
	assert_true(d->nfiles < 8);
	char tmp[128];
	snprintf(tmp, sizeof(tmp), "%s/%s", d->path, name);
	char *path = d->files[d->nfiles++];
	memcpy(path, tmp, sizeof(tmp));
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	assert_int_equal(fclose(f), 0);
	return path;
}

static void
tmpdir_remove(struct tmpdir *d)
{
	for (int i = 0; i < d->nfiles; i++)
		unlink(d->files[i]);
	assert_int_equal(rmdir(d->path), 0);
}

/* ------------------------------------------------------------------ */
/* Formats */

static void
test_evemu1_inline(void **state)
{
	char *text = concat(evemu1_device, evemu1_events);
	struct ut_recording *rec = parse_ok("inline.evemu", text);
	assert_int_equal(rec->format, UT_RECORDING_EVEMU_1);
	assert_string_equal(rec->path, "inline.evemu");
	assert_test_device(rec->dev, 0);
	assert_test_events(rec, UINT64_C(1327542640244087));
	ut_recording_free(rec);
	free(text);
}

/* Touch positions need a range: none, or an empty one, would give
 * made-up coordinates. */
static void
test_position_ranges(void **state)
{
	static const struct {
		const char *name, *text, *msg;
	} cases[] = {
		{ "inv.evemu", "N: T\nA: 35 500 100 0 0\nA: 36 0 100 0 0\nE: 1.0 0 0 0\n",
		  "inv.evemu:2: ABS_MT_POSITION_X range 500..100 is empty (the minimum must be "
		  "below the maximum)" },
		{ "flat.evemu", "N: T\nA: 35 0 100 0 0\nA: 36 7 7 0 0\nE: 1.0 0 0 0\n",
		  "flat.evemu:3: ABS_MT_POSITION_Y range 7..7 is empty (the minimum must be "
		  "below the maximum)" },
		/* enabled by B: 03 (bits 0x35 and 0x36) without any A: line */
		{ "noaxes.evemu", "N: T\nB: 00 0b\nB: 03 00 00 00 00 00 00 60 00\nE: 1.0 0 0 0\n",
		  "noaxes.evemu:3: ABS_MT_POSITION_X is enabled but has no range (an A: line is "
		  "missing)" },
		{ "noy.evemu", "N: T\nB: 03 00 00 00 00 00 00 60 00\nA: 35 0 9 0 0\nE: 1.0 0 0 0\n",
		  "noy.evemu:2: ABS_MT_POSITION_Y is enabled but has no range (an A: line is "
		  "missing)" },
		{ "inv.yml", "version: 1\ndevices:\n- evdev:\n    codes: {3: [53, 54]}\n"
		  "    absinfo: {53: [0, 100, 0, 0, 5], 54: [50, -50, 0, 0, 5]}\n"
		  "  events:\n  - evdev: [[0, 0, 0, 0, 0]]\n",
		  "inv.yml:5: ABS_MT_POSITION_Y range 50..-50 is empty (the minimum must be "
		  "below the maximum)" },
		{ "noabs.yml", "version: 1\ndevices:\n- evdev:\n    codes: {3: [53, 54]}\n"
		  "  events:\n  - evdev: [[0, 0, 0, 0, 0]]\n",
		  "noabs.yml:4: ABS_MT_POSITION_X is enabled but has no range (an absinfo entry "
		  "is missing)" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_error(cases[i].name, cases[i].text, -EINVAL, cases[i].msg);
}

/* Real devices stamp the events of a report one by one, and a stamp can
 * lie a few microseconds before the previous one: kept as written. */
static void
test_small_backsteps(void **state)
{
	static const char evemu[] =
		"N: Test\nA: 35 0 100 0 0\nA: 36 0 100 0 0\n"
		"E: 1327542640.244095 0003 0035 10\n"
		"E: 1327542640.244090 0003 0036 20\n"
		"E: 1327542640.244096 0000 0000 0\n"
		"E: 1327542640.243096 0003 0035 11\n"
		"E: 1327542640.244100 0000 0000 0\n";
	static const char yaml[] =
		"version: 1\ndevices:\n- evdev:\n    codes:\n      3: [53, 54]\n"
		"    absinfo: {53: [0, 100, 0, 0, 5], 54: [0, 50, 0, 0, 5]}\n"
		"  events:\n  - evdev:\n    - [1, 5, 3, 53, 10]\n    - [1, 0, 3, 54, 20]\n"
		"    - [1, 6, 0, 0, 0]\n";
	struct ut_recording *rec = parse_ok("ntrig.evemu", evemu);

	assert_int_equal(rec->nevents, 5);
	assert_event(&rec->events[0], UINT64_C(1327542640244095), EV_ABS, ABS_MT_POSITION_X, 10);
	assert_event(&rec->events[1], UINT64_C(1327542640244090), EV_ABS, ABS_MT_POSITION_Y, 20);
	assert_event(&rec->events[3], UINT64_C(1327542640243096), EV_ABS, ABS_MT_POSITION_X, 11);
	ut_recording_free(rec);
	rec = parse_ok("ntrig.yml", yaml);
	assert_int_equal(rec->nevents, 3);
	assert_event(&rec->events[1], UINT64_C(1000000), EV_ABS, ABS_MT_POSITION_Y, 20);
	ut_recording_free(rec);
}

/* A frame has the time of its SYN_REPORT, as in the original; when that
 * stamp lies before the previous frame's (or before the first event), the
 * frame keeps the previous time, so frame times never go back. */
static void
test_backstep_frame_times(void **state)
{
	static const char evemu[] =
		"N: Test\nA: 2f 0 9 0 0\nA: 35 0 100 0 0\nA: 36 0 100 0 0\nA: 39 0 65535 0 0\n"
		"E: 5.002000 0003 002f 0\n"
		"E: 5.001990 0003 0039 1\n"        /* before the first event */
		"E: 5.002000 0003 0035 10\n"
		"E: 5.001999 0000 0000 0\n"        /* frame 1: ms 5001 -> kept at 5002 */
		"E: 5.012000 0003 0035 20\n"
		"E: 5.011999 0003 0036 20\n"
		"E: 5.012000 0000 0000 0\n"        /* frame 2: ms 5012 */
		"E: 5.012500 0003 0035 30\n"
		"E: 5.011999 0000 0000 0\n"        /* frame 3: ms 5011 -> kept at 5012 */
		"E: 5.032000 0003 0039 -1\n"
		"E: 5.032000 0000 0000 0\n";       /* frame 4: ms 5032 */
	struct ut_recording *rec = parse_ok("backstep.evemu", evemu);
	struct ut_evstream_opts o = { .direct = -1, .own = UT_OWN_BEGIN };
	struct ut_script s;

	assert_int_equal(ut_script_build(&s, rec, &o), 0);
	assert_int_equal(s.nframes, 4);
	assert_int_equal(s.frames[0].time, UT_SCRIPT_TIME_BASE_MS);
	assert_int_equal(s.frames[1].time, UT_SCRIPT_TIME_BASE_MS + 10);
	assert_int_equal(s.frames[2].time, UT_SCRIPT_TIME_BASE_MS + 10);
	assert_int_equal(s.frames[3].time, UT_SCRIPT_TIME_BASE_MS + 30);
	assert_int_equal(s.last_time, UT_SCRIPT_TIME_BASE_MS + 30);
	ut_script_release(&s);
	ut_recording_free(rec);
}

static void
test_evemu2_inline(void **state)
{
	struct ut_recording *rec = parse_ok("inline.evemu2", evemu2_text);
	assert_int_equal(rec->format, UT_RECORDING_EVEMU_2);
	assert_test_device(rec->dev, 40);
	assert_test_events(rec, 0);
	ut_recording_free(rec);
}

static void
test_yaml_inline(void **state)
{
	struct ut_recording *rec = parse_ok("inline.yml", yaml_text);
	assert_int_equal(rec->format, UT_RECORDING_LIBINPUT_RECORD);
	assert_test_device(rec->dev, 40);
	assert_test_events(rec, 0);
	ut_recording_free(rec);
}

/* evemu 2.x and YAML versions of one recording give the same data. */
static void
test_roundtrip_evemu2_yaml(void **state)
{
	struct ut_recording *a = parse_ok("a.evemu", evemu2_text);
	struct ut_recording *b = parse_ok("b.yml", yaml_text);

	assert_int_equal(a->nevents, b->nevents);
	assert_memory_equal(a->events, b->events, a->nevents * sizeof(*a->events));
	for (unsigned int code = 0; code <= ABS_MAX; code++) {
		assert_int_equal(libevdev_has_event_code(a->dev, EV_ABS, code),
				 libevdev_has_event_code(b->dev, EV_ABS, code));
		if (!libevdev_has_event_code(a->dev, EV_ABS, code))
			continue;
		assert_memory_equal(libevdev_get_abs_info(a->dev, code),
				    libevdev_get_abs_info(b->dev, code),
				    sizeof(struct input_absinfo));
	}
	for (unsigned int code = 0; code <= KEY_MAX; code++)
		assert_int_equal(libevdev_has_event_code(a->dev, EV_KEY, code),
				 libevdev_has_event_code(b->dev, EV_KEY, code));
	for (unsigned int prop = 0; prop <= INPUT_PROP_MAX; prop++)
		assert_int_equal(libevdev_has_property(a->dev, prop),
				 libevdev_has_property(b->dev, prop));
	assert_string_equal(libevdev_get_name(a->dev), libevdev_get_name(b->dev));
	ut_recording_free(a);
	ut_recording_free(b);
}

static void
test_evemu_props_continue(void **state)
{
	/* The second P: line continues the mask: bit 0 of byte 2 = property 16. */
	static const char text[] = "P: 00 00\n"
				   "P: 00 00 00 00 00 00\n"
				   "P: 01\n"
				   "A: 35 0 10 0 0\n"
				   "E: 0.000000 0000 0000 0\n";
	expect_error("p.evemu", text, -EINVAL, "p.evemu:3: P: line sets bit 64, above the maximum 31");

	static const char ok[] = "P: 00 00\n"
				 "P: 04\n"
				 "E: 0.000001 0000 0000 0\n";
	struct ut_recording *rec = parse_ok("p.evemu", ok);
	assert_true(libevdev_has_property(rec->dev, 18));
	assert_false(libevdev_has_property(rec->dev, INPUT_PROP_DIRECT));
	assert_int_equal(rec->nevents, 1);
	assert_event(&rec->events[0], 1, EV_SYN, SYN_REPORT, 0);
	ut_recording_free(rec);
}

static void
test_evemu_values(void **state)
{
	static const char text[] = "N:   Spaced Name  \r\n"
				   "\r\n"
				   "A: 35 -100 100 0 0\n"
				   "E: 5.000007 0003 0035 -0001\r\n"
				   "   E: 5.000007 0003 0035 +17";
	struct ut_recording *rec = parse_ok("values.evemu", text);
	assert_string_equal(libevdev_get_name(rec->dev), "Spaced Name");
	assert_abs(rec->dev, ABS_MT_POSITION_X, -100, 100, 0, 0, 0);
	assert_int_equal(rec->nevents, 2);
	assert_event(&rec->events[0], UINT64_C(5000007), EV_ABS, ABS_MT_POSITION_X, -1);
	assert_event(&rec->events[1], UINT64_C(5000007), EV_ABS, ABS_MT_POSITION_X, 17);
	assert_int_equal(rec->format, UT_RECORDING_EVEMU_1);
	ut_recording_free(rec);
}

static const char yaml_keyboard_dev[] =
	"- node: /dev/input/event1\n"
	"  evdev:\n"
	"    name: Keyboard\n"
	"    id: [17, 1, 1, 43841]\n"
	"    codes:\n"
	"      1: [30]\n"
	"    properties: []\n"
	"  events:\n"
	"  - evdev:\n"
	"    - [1, 0, 1, 30, 1]\n"
	"    - [1, 0, 0, 0, 0]\n";

static const char yaml_touch_dev[] =
	"- node: /dev/input/event2\n"
	"  evdev:\n"
	"    name: Touch\n"
	"    id: [3, 2, 3, 4]\n"
	"    codes: {3: [53, 54]}\n"
	"    absinfo: {53: [0, 100, 0, 0, 5], 54: [0, 50, 0, 0, 5]}\n"
	"    properties: [1]\n"
	"  events:\n"
	"  - evdev:\n"
	"    - [2, 500, 3, 53, 10]\n"
	"    - [2, 500, 0, 0, 0]\n";

static const char yaml_silent_dev[] =
	"- node: /dev/input/event3\n"
	"  evdev:\n"
	"    name: Silent\n"
	"    id: [3, 2, 3, 4]\n"
	"    codes: {3: [53]}\n"
	"    absinfo: {53: [0, 100, 0, 0, 5]}\n"
	"  events: []\n";

static void
test_yaml_multiple_devices(void **state)
{
	char buf[4096];

	/* A touch device wins over an earlier device with events. */
	snprintf(buf, sizeof(buf), "version: 1\nndevices: 3\ndevices:\n%s%s%s", yaml_silent_dev,
		 yaml_keyboard_dev, yaml_touch_dev);
	struct ut_recording *rec = parse_ok("multi.yml", buf);
	assert_string_equal(libevdev_get_name(rec->dev), "Touch");
	assert_int_equal(rec->nevents, 2);
	assert_event(&rec->events[0], UINT64_C(2000500), EV_ABS, ABS_MT_POSITION_X, 10);
	assert_abs(rec->dev, ABS_MT_POSITION_X, 0, 100, 0, 0, 5);
	ut_recording_free(rec);

	/* No touch device with events: the first device with events. */
	snprintf(buf, sizeof(buf), "version: 1\ndevices:\n%s%s", yaml_silent_dev,
		 yaml_keyboard_dev);
	rec = parse_ok("multi.yml", buf);
	assert_string_equal(libevdev_get_name(rec->dev), "Keyboard");
	assert_int_equal(libevdev_get_id_bustype(rec->dev), 17);
	assert_int_equal(libevdev_get_id_version(rec->dev), 43841);
	assert_true(libevdev_has_event_code(rec->dev, EV_KEY, KEY_A));
	assert_int_equal(rec->nevents, 2);
	assert_event(&rec->events[0], UINT64_C(1000000), EV_KEY, KEY_A, 1);
	ut_recording_free(rec);

	/* Only silent devices. */
	snprintf(buf, sizeof(buf), "version: 1\ndevices:\n%s", yaml_silent_dev);
	expect_error("multi.yml", buf, -EINVAL, "multi.yml: no events");
}

static void
test_yaml_old_absinfo_list(void **state)
{
	static const char text[] = "version: 1\n"
				   "devices:\n"
				   "- evdev:\n"
				   "    name: Old\n"
				   "    absinfo: [[53, 1, 99, 2, 3, 4]]\n"
				   "  events:\n"
				   "  - evdev: [[0, 1, 3, 53, 7]]\n";
	struct ut_recording *rec = parse_ok("old.yml", text);
	assert_abs(rec->dev, ABS_MT_POSITION_X, 1, 99, 2, 3, 4);
	assert_event(&rec->events[0], 1, EV_ABS, ABS_MT_POSITION_X, 7);
	ut_recording_free(rec);
}

/* ------------------------------------------------------------------ */
/* Files */

/* The test device in each format: a.evemu (evemu 1), b.evemu (evemu 2),
 * c.yml (libinput record), in a fresh temporary folder. */
static void
write_format_files(struct tmpdir *d, const char *paths[3])
{
	char *evemu1 = concat(evemu1_device, evemu1_events);

	tmpdir_make(d);
	paths[0] = tmpdir_write(d, "a.evemu", evemu1);
	paths[1] = tmpdir_write(d, "b.evemu", evemu2_text);
	paths[2] = tmpdir_write(d, "c.yml", yaml_text);
	free(evemu1);
}

static void
test_load_files(void **state)
{
	struct tmpdir d;
	const char *paths[3];
	write_format_files(&d, paths);
	const enum ut_recording_format formats[3] = { UT_RECORDING_EVEMU_1,
						      UT_RECORDING_EVEMU_2,
						      UT_RECORDING_LIBINPUT_RECORD };
	const uint64_t t0[3] = { UINT64_C(1327542640244087), 0, 0 };

	for (int i = 0; i < 3; i++) {
		char err[512] = "";
		struct ut_recording *rec = NULL;
		int rc = ut_recording_load(paths[i], NULL, &rec, err, sizeof(err));
		assert_int_equal(rc, 0);
		assert_string_equal(err, "");
		assert_string_equal(rec->path, paths[i]);
		assert_int_equal(rec->format, formats[i]);
		assert_test_device(rec->dev, i == 0 ? 0 : 40);
		assert_test_events(rec, t0[i]);
		ut_recording_free(rec);
	}
	tmpdir_remove(&d);
}

/* Read every event of a reader into a recording-like list for comparing. */
static size_t
read_events(struct ut_recording_reader *r, struct ut_raw_event *out, size_t max)
{
	struct ut_raw_event ev;
	size_t n = 0;
	int rc;

	while ((rc = ut_recording_next(r, &ev)) > 0) {
		assert_true(n < max);
		out[n++] = ev;
	}
	assert_int_equal(rc, 0);
	assert_string_equal(r->error, "");
	/* at the end it stays at the end */
	assert_int_equal(ut_recording_next(r, &ev), 0);
	return n;
}

/* A streamed file gives the events a whole load keeps, again after a
 * rewind, in every format. */
static void
test_stream_files(void **state)
{
	struct tmpdir d;
	const char *paths[3];
	write_format_files(&d, paths);

	for (int i = 0; i < 3; i++) {
		char err[512] = "stale";
		struct ut_recording *rec = NULL;
		struct ut_recording_reader *r = NULL;
		struct ut_raw_event evs[64];

		assert_int_equal(ut_recording_load(paths[i], NULL, &rec, err, sizeof(err)), 0);
		assert_int_equal(ut_recording_open(paths[i], NULL, &r, err, sizeof(err)), 0);
		assert_string_equal(err, "");
		assert_int_equal(r->nevents, rec->nevents);
		assert_int_equal(r->first_usec, rec->events[0].usec);
		assert_int_equal(r->format, rec->format);
		assert_string_equal(libevdev_get_name(r->dev), libevdev_get_name(rec->dev));
		for (int pass = 0; pass < 2; pass++) {
			size_t n = read_events(r, evs, 64);
			assert_int_equal(n, rec->nevents);
			assert_memory_equal(evs, rec->events, n * sizeof(*evs));
			assert_int_equal(ut_recording_rewind(r), 0);
		}
		ut_recording_close(r);
		ut_recording_free(rec);
	}
	tmpdir_remove(&d);
}

/* A pipe cannot be read twice: it is copied on the way, and errors still
 * name their line. */
static void
test_stream_pipe(void **state)
{
	static const char *const texts[2] = { evemu2_text, yaml_text };

	for (int i = 0; i < 2; i++) {
		int fds[2];
		char path[64], err[512] = "";
		struct ut_recording *whole = NULL;
		struct ut_recording_reader *r = NULL;
		struct ut_raw_event evs[64];

		assert_int_equal(pipe(fds), 0);
		assert_int_equal(write(fds[1], texts[i], strlen(texts[i])),
				 (ssize_t)strlen(texts[i]));
		close(fds[1]);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[0]);
		assert_int_equal(ut_recording_open(path, NULL, &r, err, sizeof(err)), 0);
		close(fds[0]);
		assert_int_equal(ut_recording_parse("mem", texts[i], strlen(texts[i]), &whole,
						    err, sizeof(err)), 0);
		assert_int_equal(read_events(r, evs, 64), whole->nevents);
		assert_memory_equal(evs, whole->events, whole->nevents * sizeof(*evs));
		ut_recording_close(r);
		ut_recording_free(whole);
	}

	/* a bad line at the end of a pipe: refused when opened, with its line */
	int fds[2];
	char path[64], err[512] = "";
	struct ut_recording_reader *r = (struct ut_recording_reader *)&err;
	static const char bad[] = "N: x\nA: 35 0 100 0 0\nA: 36 0 100 0 0\n"
				  "E: 1.000000 0003 0035 1\nE: 1.000000 0000 0000 0\nQ: 1\n";
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], bad, sizeof(bad) - 1), (ssize_t)sizeof(bad) - 1);
	close(fds[1]);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[0]);
	assert_int_equal(ut_recording_open(path, NULL, &r, err, sizeof(err)), -EINVAL);
	close(fds[0]);
	assert_null(r);
	char want[128];
	snprintf(want, sizeof(want), "%s:6: unknown line type 'Q:'", path);
	assert_string_equal(err, want);

	/* endless inputs are refused as they are copied, not when the disk
	 * is full: a NUL byte stops the copy (/dev/zero at once, a text that
	 * turns to NULs on its line) */
	assert_int_equal(ut_recording_open("/dev/zero", NULL, &r, err, sizeof(err)), -EINVAL);
	assert_null(r);
	assert_string_equal(err, "/dev/zero:1: NUL byte in the file");
	static const char nul_on_3[] = "N: x\nA: 35 0 100 0 0\nA: 36 \0 100 0 0\n";
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], nul_on_3, sizeof(nul_on_3) - 1),
			 (ssize_t)sizeof(nul_on_3) - 1);
	close(fds[1]);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[0]);
	assert_int_equal(ut_recording_open(path, NULL, &r, err, sizeof(err)), -EINVAL);
	close(fds[0]);
	snprintf(want, sizeof(want), "%s:3: NUL byte in the file", path);
	assert_string_equal(err, want);
}

/* A file longer than one chunk is read across chunk boundaries, lines
 * split between chunks included, with the same events as a whole parse. */
static void
test_stream_many_chunks(void **state)
{
	struct tmpdir d;
	tmpdir_make(&d);
	size_t cap = 4 * UT_REC_CHUNK, len = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	len += (size_t)snprintf(text, cap, "N: x\nA: 35 0 1000 0 0\nA: 36 0 1000 0 0\n");
	unsigned n = 0;
	while (len + 128 < cap) {
		len += (size_t)snprintf(text + len, cap - len,
					"E: %u.%06u 0003 0035 %u\nE: %u.%06u 0000 0000 0\n",
					1 + n / 100, (n % 100) * 10000, n % 1000,
					1 + n / 100, (n % 100) * 10000);
		n++;
	}
	const char *path = tmpdir_write(&d, "big.evemu", text);
	struct ut_recording *whole = NULL, *loaded = NULL;
	struct ut_recording_reader *r = NULL;
	char err[512] = "";
	assert_int_equal(ut_recording_parse("big", text, len, &whole, err, sizeof(err)), 0);
	assert_int_equal(whole->nevents, 2 * n);
	assert_int_equal(ut_recording_load(path, NULL, &loaded, err, sizeof(err)), 0);
	assert_int_equal(loaded->nevents, whole->nevents);
	assert_memory_equal(loaded->events, whole->events,
			    whole->nevents * sizeof(*whole->events));
	assert_int_equal(ut_recording_open(path, NULL, &r, err, sizeof(err)), 0);
	struct ut_raw_event ev;
	size_t i = 0;
	int rc;
	while ((rc = ut_recording_next(r, &ev)) > 0) {
		assert_true(i < whole->nevents);
		assert_memory_equal(&ev, &whole->events[i], sizeof(ev));
		i++;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(i, whole->nevents);
	ut_recording_close(r);
	ut_recording_free(whole);
	ut_recording_free(loaded);
	free(text);
	tmpdir_remove(&d);
}

static void
test_load_device_prop_fallback(void **state)
{
	struct tmpdir d;
	tmpdir_make(&d);
	tmpdir_write(&d, "device.prop", evemu1_device);
	const char *events = tmpdir_write(&d, "drag.record", evemu1_events);

	char err[512] = "";
	struct ut_recording *rec = NULL;
	assert_int_equal(ut_recording_load(events, NULL, &rec, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_test_device(rec->dev, 0);
	assert_test_events(rec, UINT64_C(1327542640244087));
	assert_string_equal(rec->path, events);
	ut_recording_free(rec);
	tmpdir_remove(&d);
}

static void
test_load_device_prop_missing(void **state)
{
	struct tmpdir d;
	tmpdir_make(&d);
	const char *events = tmpdir_write(&d, "drag.record", evemu1_events);

	char err[512], expected[512];
	struct ut_recording *rec = NULL;
	assert_int_equal(ut_recording_load(events, NULL, &rec, err, sizeof(err)), -EINVAL);
	snprintf(expected, sizeof(expected),
		 "%s: no device description (no N:, I:, P:, B: or A: lines) and no %s/device.prop",
		 events, d.path);
	assert_string_equal(err, expected);
	assert_null(rec);
	tmpdir_remove(&d);
}

static void
test_load_device_file(void **state)
{
	struct tmpdir d;
	tmpdir_make(&d);
	/* The explicit device file wins over device.prop and the file's own lines. */
	tmpdir_write(&d, "device.prop", "N: Wrong\nA: 35 0 1 0 0\n");
	const char *dev = tmpdir_write(&d, "touchscreen.desc", evemu1_device);
	char *with_own = concat("N: Own Name\n", evemu1_events);
	const char *events = tmpdir_write(&d, "drag.record", with_own);

	char err[512] = "";
	struct ut_recording *rec = NULL;
	assert_int_equal(ut_recording_load(events, dev, &rec, err, sizeof(err)), 0);
	assert_test_device(rec->dev, 0);
	assert_test_events(rec, UINT64_C(1327542640244087));
	ut_recording_free(rec);

	/* Events in a device file are refused, naming the device file. */
	const char *bad = tmpdir_write(&d, "bad.desc", "N: Dev\nE: 0.000000 0000 0000 0\n");
	char expected[512];
	rec = NULL;
	assert_int_equal(ut_recording_load(events, bad, &rec, err, sizeof(err)), -EINVAL);
	snprintf(expected, sizeof(expected), "%s:2: E: line in a device description file", bad);
	assert_string_equal(err, expected);
	assert_null(rec);

	/* A device file without description lines. */
	const char *empty = tmpdir_write(&d, "empty.desc", "# nothing\n");
	assert_int_equal(ut_recording_load(events, empty, &rec, err, sizeof(err)), -EINVAL);
	snprintf(expected, sizeof(expected),
		 "%s: no device description (no N:, I:, P:, B: or A: lines)", empty);
	assert_string_equal(err, expected);

	free(with_own);
	tmpdir_remove(&d);
}

static void
test_load_missing_file(void **state)
{
	char err[512];
	struct ut_recording *rec = NULL;
	assert_int_equal(ut_recording_load("/nonexistent/x.evemu", NULL, &rec, err, sizeof(err)),
			 -ENOENT);
	assert_string_equal(err, "/nonexistent/x.evemu: cannot open: No such file or directory");
	assert_null(rec);

	/* A NULL error buffer is allowed. */
	assert_int_equal(ut_recording_load("/nonexistent/x.evemu", NULL, &rec, NULL, 0), -ENOENT);

	struct tmpdir d;
	tmpdir_make(&d);
	assert_int_equal(ut_recording_load(d.path, NULL, &rec, err, sizeof(err)), -EISDIR);
	tmpdir_remove(&d);
}

/* ------------------------------------------------------------------ */
/* Errors: evemu */

struct error_case {
	const char *text;
	int rc;
	const char *msg;
};

static void
run_error_cases(const char *name, const struct error_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		print_message("case %zu\n", i);
		expect_error(name, cases[i].text, cases[i].rc, cases[i].msg);
	}
}

static void
test_evemu_errors(void **state)
{
	static const struct error_case cases[] = {
		{ "N: x\nX: 1 2\n", -EINVAL, "bad.evemu:2: unknown line type 'X:'" },
		{ "N: x\nhello\n", -EINVAL,
		  "bad.evemu:2: unrecognised line (expected N:, I:, P:, B:, A:, L:, S:, E: or a "
		  "# comment)" },
		{ "N: x\nE: 1.000000 0003\n", -EINVAL,
		  "bad.evemu:2: malformed E: line (expected 'E: <sec>.<usec> <type> <code> "
		  "<value>')" },
		{ "E: 1 0003 0035 1\n", -EINVAL,
		  "bad.evemu:1: malformed E: line (expected 'E: <sec>.<usec> <type> <code> "
		  "<value>')" },
		{ "E: 1.0000001 0003 0035 1\n", -EINVAL,
		  "bad.evemu:1: malformed E: line (expected 'E: <sec>.<usec> <type> <code> "
		  "<value>')" },
		{ "E: 1.000000 0003 0035 12x\n", -EINVAL,
		  "bad.evemu:1: malformed E: line (expected 'E: <sec>.<usec> <type> <code> "
		  "<value>')" },
		{ "E: 1.000000 0003 0035 1 2\n", -EINVAL,
		  "bad.evemu:1: malformed E: line (expected 'E: <sec>.<usec> <type> <code> "
		  "<value>')" },
		{ "E: 1.000000 0003 0035 99999999999\n", -EINVAL,
		  "bad.evemu:1: number out of range in E: line" },
		{ "E: 1.000000 10003 0035 1\n", -EINVAL,
		  "bad.evemu:1: number out of range in E: line" },
		{ "E: 99999999999999999999.000000 0003 0035 1\n", -EINVAL,
		  "bad.evemu:1: event time out of range" },
		{ "E: 1.000000 0020 0000 0\n", -EINVAL,
		  "bad.evemu:1: event type 0x20 out of range (max 0x1f)" },
		{ "E: 1.000000 0003 0040 0\n", -EINVAL,
		  "bad.evemu:1: event code 0x40 out of range for type 0x3 (max 0x3f)" },
		{ "E: 1.000000 0016 0000 0\n", -EINVAL,
		  "bad.evemu:1: event type 0x16 has no event codes" },
		{ "E: 2.000000 0000 0000 0\nE: 1.998999 0000 0000 0\n", -EINVAL,
		  "bad.evemu:2: time goes backwards by more than 1000 us (1.998999 after "
		  "2.000000)" },
		/* measured from the latest time, not from the previous event */
		{ "E: 2.000000 0000 0000 0\nE: 1.999500 0000 0000 0\nE: 1.999000 0000 0000 0\n"
		  "E: 1.998999 0000 0000 0\n", -EINVAL,
		  "bad.evemu:4: time goes backwards by more than 1000 us (1.998999 after "
		  "2.000000)" },
		{ "E: 2.000000 0000 0000 0\nE: 2.000000 0003", -EINVAL,
		  "bad.evemu:2: malformed E: line (expected 'E: <sec>.<usec> <type> <code> "
		  "<value>') (the file ends in the middle of this line)" },
		{ "A: 35 0 abc 0 0\n", -EINVAL,
		  "bad.evemu:1: malformed A: line (expected 'A: <code> <min> <max> <fuzz> "
		  "<flat> [<resolution>]')" },
		{ "A: 35 0 1 0\n", -EINVAL,
		  "bad.evemu:1: malformed A: line (expected 'A: <code> <min> <max> <fuzz> "
		  "<flat> [<resolution>]')" },
		{ "A: 35 0 1 0 0 0 0\n", -EINVAL,
		  "bad.evemu:1: malformed A: line (expected 'A: <code> <min> <max> <fuzz> "
		  "<flat> [<resolution>]')" },
		{ "A: 35 0 3000000000 0 0\n", -EINVAL,
		  "bad.evemu:1: number out of range in A: line" },
		{ "A: 40 0 1 0 0\n", -EINVAL,
		  "bad.evemu:1: A: axis code 0x40 out of range (max 0x3f)" },
		{ "A: 35 0 1 0 0\nA: 35 0 1 0 0\n", -EINVAL,
		  "bad.evemu:2: duplicate A: line for axis 0x35" },
		{ "A: 2f 0 100000 0 0\n", -EINVAL,
		  "bad.evemu:1: ABS_MT_SLOT range 0..100000 not supported (need 0..0-255)" },
		{ "A: 2f 0 -1 0 0\n", -EINVAL,
		  "bad.evemu:1: ABS_MT_SLOT range 0..-1 not supported (need 0..0-255)" },
		{ "I: 0003 1234\n", -EINVAL,
		  "bad.evemu:1: malformed I: line (expected 'I: <bus> <vendor> <product> "
		  "<version>' in hex)" },
		{ "I: 0003 1234 5678 10000\n", -EINVAL,
		  "bad.evemu:1: number out of range in I: line" },
		{ "I: 1 2 3 4\nI: 1 2 3 4\n", -EINVAL, "bad.evemu:2: duplicate I: line" },
		{ "N: a\nN: b\n", -EINVAL, "bad.evemu:2: duplicate N: line" },
		{ "B: 20 00\n", -EINVAL, "bad.evemu:1: B: event type 0x20 out of range (max 0x1f)" },
		{ "B: 03 00 00 00 00 00 00 00 00 01\n", -EINVAL,
		  "bad.evemu:1: B: line sets bit 64, above the maximum 63" },
		{ "B: 03\n", -EINVAL,
		  "bad.evemu:1: malformed B: line (expected 'B: <type> <byte> ...' in hex)" },
		{ "B: 03 100\n", -EINVAL, "bad.evemu:1: number out of range in B: line" },
		{ "P: zz\n", -EINVAL,
		  "bad.evemu:1: malformed P: line (expected 'P: <byte> ...' in hex)" },
		{ "# EVEMU 2.0\nN: x\n", -EINVAL,
		  "bad.evemu:1: unsupported evemu file version (expected '# EVEMU 1.x')" },
		{ "N: x\nA: 35 0 1 0 0\n", -EINVAL, "bad.evemu: no events" },
		{ "", -EINVAL, "bad.evemu: no events" },
		{ "# only a comment\n\n", -EINVAL, "bad.evemu: no events" },
		{ "E: 1.000000 0000 0000 0\n", -EINVAL,
		  "bad.evemu: no device description (no N:, I:, P:, B: or A: lines)" },
		{ "L: 00 1\nS: 00 1\nE: 1.000000 0000 0000 0\n", -EINVAL,
		  "bad.evemu: no device description (no N:, I:, P:, B: or A: lines)" },
	};
	run_error_cases("bad.evemu", cases, sizeof(cases) / sizeof(cases[0]));
}

static void
test_evemu_long_line(void **state)
{
	static char text[UT_RECORDING_MAX_LINE + 64];
	size_t n = UT_RECORDING_MAX_LINE + 10;
	strcpy(text, "N: x\nN: ");
	memset(text + 8, 'a', n);
	strcpy(text + 8 + n, "\n");
	expect_error("long.evemu", text, -E2BIG, "long.evemu:2: line longer than 4096 bytes");

	/* A line of exactly the limit is fine. */
	memset(text, 'a', UT_RECORDING_MAX_LINE);
	memcpy(text, "# ", 2);
	strcpy(text + UT_RECORDING_MAX_LINE, "\nN: x\nE: 0.000000 0000 0000 0\n");
	struct ut_recording *rec = parse_ok("long.evemu", text);
	assert_int_equal(rec->nevents, 1);
	ut_recording_free(rec);
}

static void
test_nul_byte(void **state)
{
	static const char text[] = "N: x\nA: 35 0 1 0 0\nE: 0.0\0 0000 0000 0\n";
	expect_error_len("nul.evemu", text, sizeof(text) - 1, -EINVAL,
			 "nul.evemu:3: NUL byte in the file");
	static const char ytext[] = "version: 1\n\0devices: []\n";
	expect_error_len("nul.yml", ytext, sizeof(ytext) - 1, -EINVAL,
			 "nul.yml:2: NUL byte in the file");
}

static void
test_too_many_events(void **state)
{
	/* Writing 16M events takes too long; start the list at the limit instead. */
	char err[256] = "";
	struct ut_parse p = { .name = "many.evemu", .err = err, .errlen = sizeof(err) };
	struct ut_event_vec vec = { .events = NULL, .n = UT_RECORDING_MAX_EVENTS,
				    .cap = UT_RECORDING_MAX_EVENTS, .store = true };
	assert_int_equal(ut__rec_push_event(&p, &vec, 7, 0, 0, EV_SYN, SYN_REPORT, 0), -E2BIG);
	assert_string_equal(err, "many.evemu:7: more than 16777216 events");

	struct ut_event_vec ok = { .store = true };
	err[0] = '\0';
	assert_int_equal(ut__rec_push_event(&p, &ok, 1, 1, 2, EV_SYN, SYN_REPORT, 0), 0);
	assert_int_equal(ok.n, 1);
	assert_int_equal(ok.events[0].usec, 1000002);
	ut__rec_event_vec_release(&ok);
	assert_null(ok.events);
}

static void
test_error_buffer_small(void **state)
{
	/* A short buffer truncates but stays terminated. */
	char err[8];
	struct ut_recording *rec = NULL;
	assert_int_equal(ut_recording_parse("name.evemu", "X: 1\n", 5, &rec, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "name.ev");
	assert_int_equal(ut_recording_parse("name.evemu", "X: 1\n", 5, &rec, NULL, 0), -EINVAL);
	assert_null(rec);

	/* Empty input, even without a buffer. */
	assert_int_equal(ut_recording_parse("empty", NULL, 0, &rec, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "empty: ");
}

/* ------------------------------------------------------------------ */
/* Errors: YAML */

/* A YAML file without libinput record's keys is no recording at all. */
#define NOT_A_RECORDING(line, detail)                                                   \
	"bad.yml:" line ": not an evemu or libinput-record recording (evemu files have " \
	"lines such as \"N: name\", libinput record files are YAML with a 'devices' "    \
	"list; as YAML: " detail ")"

static void
test_yaml_errors(void **state)
{
	static const struct error_case cases[] = {
		{ "version: 1\nfoo: [1, 2\nbar: baz\n", -EINVAL,
		  "bad.yml:3: YAML syntax error at column 4: did not find expected ',' or ']' "
		  "while parsing a flow sequence" },
		{ "version: 1\ndevices: 5\n", -EINVAL,
		  "bad.yml:2: expected a list for devices, found a scalar" },
		{ "- 1\n- 2\n", -EINVAL,
		  NOT_A_RECORDING("1", "expected a mapping at the top level, found a list") },
		{ "version: 1\n", -EINVAL, "bad.yml: no 'devices' list" },
		{ "version: 1\ndevices: []\n", -EINVAL, "bad.yml: the 'devices' list is empty" },
		{ "version: 2\ndevices: []\n", -EINVAL,
		  "bad.yml:1: unsupported libinput record version 2 (expected 1)" },
		{ "version: one\n", -EINVAL,
		  "bad.yml:1: expected an integer for version, found 'one'" },
		{ "ndevices: -1\n", -EINVAL,
		  "bad.yml:1: ndevices out of range (0..2147483647): '-1'" },
		{ "a: &x 1\nb: *x\n", -EINVAL, NOT_A_RECORDING("2", "YAML aliases are not supported") },
		{ "version: 1\ndevices:\n- evdev: [1]\n", -EINVAL,
		  "bad.yml:3: expected a mapping for evdev, found a list" },
		{ "version: 1\ndevices:\n- events:\n  - evdev: [[0, 0, 3, 53]]\n", -EINVAL,
		  "bad.yml:4: an event needs 5 numbers [sec, usec, type, code, value]" },
		{ "version: 1\ndevices:\n- events:\n  - evdev: [[0, 0, 3, 53, 1, 2]]\n", -EINVAL,
		  "bad.yml:4: too many numbers in an event (expected 5)" },
		{ "version: 1\ndevices:\n- events:\n  - evdev: [[99999999999999999999999, 0, 3, "
		  "53, 1]]\n",
		  -EINVAL,
		  "bad.yml:4: an event out of range (-2147483648..1125899906842624): "
		  "'99999999999999999999999'" },
		{ "version: 1\ndevices:\n- events:\n  - evdev: [[0, -1, 3, 53, 1]]\n", -EINVAL,
		  "bad.yml:4: negative number in an event" },
		{ "version: 1\ndevices:\n- events:\n  - evdev: [[0, 1000000, 3, 53, 1]]\n", -EINVAL,
		  "bad.yml:4: event time out of range" },
		{ "version: 1\ndevices:\n- events:\n  - evdev: [[0, 0, 3, 53, 2147483648]]\n",
		  -EINVAL, "bad.yml:4: number out of range in an event" },
		{ "version: 1\ndevices:\n- events:\n  - evdev: [[0, 0, 40, 0, 1]]\n", -EINVAL,
		  "bad.yml:4: event type 0x28 out of range (max 0x1f)" },
		{ "version: 1\ndevices:\n- events:\n  - evdev: [[0, 0, 3, 64, 1]]\n", -EINVAL,
		  "bad.yml:4: event code 0x40 out of range for type 0x3 (max 0x3f)" },
		{ "version: 1\ndevices:\n- events:\n  - evdev: [[1, 0, 0, 0, 0]]\n"
		  "  - evdev:\n    - [0, 5, 0, 0, 0]\n",
		  -EINVAL, "bad.yml:6: time goes backwards by more than 1000 us (0.000005 after "
		  "1.000000)" },
		{ "version: 1\ndevices:\n- events:\n  - [1, 2]\n", -EINVAL,
		  "bad.yml:4: expected a mapping for an item of events, found a list" },
		{ "version: 1\ndevices:\n- evdev:\n    id: [1, 2, 3]\n", -EINVAL,
		  "bad.yml:4: evdev id needs 4 numbers [bus, vendor, product, version]" },
		{ "version: 1\ndevices:\n- evdev:\n    id: [1, 2, 3, 65536]\n", -EINVAL,
		  "bad.yml:4: evdev id out of range (0..65535): '65536'" },
		{ "version: 1\ndevices:\n- evdev:\n    codes: {3: [64]}\n", -EINVAL,
		  "bad.yml:4: event code out of range (0..63): '64'" },
		{ "version: 1\ndevices:\n- evdev:\n    codes: {32: [0]}\n", -EINVAL,
		  "bad.yml:4: event type out of range (0..31): '32'" },
		{ "version: 1\ndevices:\n- evdev:\n    codes: {22: [0]}\n", -EINVAL,
		  "bad.yml:4: event type 22 has no event codes" },
		{ "version: 1\ndevices:\n- evdev:\n    absinfo: {53: [0, 1, 0, 0]}\n", -EINVAL,
		  "bad.yml:4: absinfo needs 5 numbers [min, max, fuzz, flat, resolution]" },
		{ "version: 1\ndevices:\n- evdev:\n    absinfo: {47: [0, 9999, 0, 0, 0]}\n", -EINVAL,
		  "bad.yml:4: ABS_MT_SLOT range 0..9999 not supported (need 0..0-255)" },
		{ "version: 1\ndevices:\n- evdev:\n    absinfo: {64: [0, 1, 0, 0, 0]}\n", -EINVAL,
		  "bad.yml:4: absinfo axis code out of range (0..63): '64'" },
		{ "version: 1\ndevices:\n- evdev:\n    properties: [32]\n", -EINVAL,
		  "bad.yml:4: input property out of range (0..31): '32'" },
		{ "version: 1\ndevices:\n- evdev:\n    name: [a]\n", -EINVAL,
		  "bad.yml:4: expected a scalar for evdev name, found a list" },
		{ "version: 1\ndevices:\n- evdev: {name: x}\n", -EINVAL, "bad.yml: no events" },
		{ "version: 1\ndevices:\n- events:\n  - evdev: [[0, 0, 0, 0, 0]]\n", -EINVAL,
		  "bad.yml: no device description (no N:, I:, P:, B: or A: lines)" },
		{ "version: 1\ndevices: []\n---\nversion: 1\n", -EINVAL,
		  "bad.yml:3: more than one YAML document in the file" },
		{ "version: 1\n\xc3\x28: 1\n", -EINVAL,
		  /* libyaml's scanner fails ahead of the first key */
		  NOT_A_RECORDING("2", "YAML error: invalid trailing UTF-8 octet") },
	};
	run_error_cases("bad.yml", cases, sizeof(cases) / sizeof(cases[0]));
}

static void
test_yaml_deep_nesting(void **state)
{
	char buf[256] = "devices:\n- node: ";
	size_t n = strlen(buf);
	for (int i = 0; i < 40; i++)
		buf[n++] = '[';
	for (int i = 0; i < 40; i++)
		buf[n++] = ']';
	buf[n++] = '\n';
	buf[n] = '\0';
	expect_error("deep.yml", buf, -EINVAL, "deep.yml:2: YAML nested deeper than 32 levels");

	/* At the top level too. */
	memcpy(buf, "unknown:\n        ", 17);
	expect_error("deep.yml", buf, -EINVAL,
		     "deep.yml:2: not an evemu or libinput-record recording (evemu files have "
		     "lines such as \"N: name\", libinput record files are YAML with a 'devices' "
		     "list; as YAML: YAML nested deeper than 32 levels)");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_evemu1_inline),
		cmocka_unit_test(test_evemu2_inline),
		cmocka_unit_test(test_small_backsteps),
		cmocka_unit_test(test_position_ranges),
		cmocka_unit_test(test_backstep_frame_times),
		cmocka_unit_test(test_yaml_inline),
		cmocka_unit_test(test_roundtrip_evemu2_yaml),
		cmocka_unit_test(test_evemu_props_continue),
		cmocka_unit_test(test_evemu_values),
		cmocka_unit_test(test_yaml_multiple_devices),
		cmocka_unit_test(test_yaml_old_absinfo_list),
		cmocka_unit_test(test_load_files),
		cmocka_unit_test(test_load_device_prop_fallback),
		cmocka_unit_test(test_load_device_prop_missing),
		cmocka_unit_test(test_load_device_file),
		cmocka_unit_test(test_load_missing_file),
		cmocka_unit_test(test_evemu_errors),
		cmocka_unit_test(test_evemu_long_line),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_stream_files),
		cmocka_unit_test(test_stream_pipe),
		cmocka_unit_test(test_stream_many_chunks),
		cmocka_unit_test(test_too_many_events),
		cmocka_unit_test(test_error_buffer_small),
		cmocka_unit_test(test_yaml_errors),
		cmocka_unit_test(test_yaml_deep_nesting),
	};
	return cmocka_run_group_tests_name("recording", tests, NULL, NULL);
}
