/*
 * Tests for the evdev stream path: ut_evstream (input events -> frames of
 * touch operations, protocol B natively and protocol A through mtdev) and
 * ut_framer_build() (touch operations -> frame events of the frame library).
 *
 * Device capabilities are built with libevdev_new(); events are pushed one
 * by one and the frames delivered to the callback are recorded.  Frame
 * sequences are compared as strings: "B1 U2|E1" is a frame holding a begin
 * of touch 1 and an update of touch 2, followed by a frame holding the end
 * of touch 1 (B begin, U update, E end, O own, P pending end).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libevdev/libevdev.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>

#include "input/evdev/evstream.h"
#include "input/evdev/framer.h"
#include "test-support.h"

/* ------------------------------------------------------------------ */
/* Device capabilities                                                 */

#define XMIN 100
#define XMAX 2100
#define YMIN 0
#define YMAX 1536
#define XRES 40 /* units/mm */
#define YRES 20

enum {
	CAPS_SLOTS = 1u << 0,    /* ABS_MT_SLOT: protocol B */
	CAPS_TRACKING = 1u << 1, /* ABS_MT_TRACKING_ID */
	CAPS_EXTRA = 1u << 2,    /* ABS_MT_PRESSURE, ABS_MT_TOUCH_MAJOR */
	CAPS_NO_X = 1u << 3,
	CAPS_NO_Y = 1u << 4,
};
#define CAPS_B (CAPS_SLOTS | CAPS_TRACKING)

static void
enable_abs(struct libevdev *d, unsigned int code, int min, int max, int res)
{
	struct input_absinfo a;

	memset(&a, 0, sizeof(a));
	a.minimum = min;
	a.maximum = max;
	a.resolution = res;
	assert_int_equal(libevdev_enable_event_code(d, EV_ABS, code, &a), 0);
}

static struct libevdev *
new_caps(unsigned int flags)
{
	struct libevdev *d = libevdev_new();

	assert_non_null(d);
	libevdev_set_name(d, "Test Touch");
	if (!(flags & CAPS_NO_X))
		enable_abs(d, ABS_MT_POSITION_X, XMIN, XMAX, XRES);
	if (!(flags & CAPS_NO_Y))
		enable_abs(d, ABS_MT_POSITION_Y, YMIN, YMAX, YRES);
	if (flags & CAPS_SLOTS)
		enable_abs(d, ABS_MT_SLOT, 0, 9, 0);
	if (flags & CAPS_TRACKING)
		enable_abs(d, ABS_MT_TRACKING_ID, 0, 65535, 0);
	if (flags & CAPS_EXTRA) {
		enable_abs(d, ABS_MT_TOUCH_MAJOR, 0, 50, 0);
		enable_abs(d, ABS_MT_PRESSURE, 0, 255, 0);
	}
	return d;
}

/* ------------------------------------------------------------------ */
/* Recording frames                                                    */

#define MAX_FRAMES 64
#define MAX_REC_OPS 256

struct rec {
	size_t nframes;
	uint64_t usec[MAX_FRAMES];
	size_t first[MAX_FRAMES];
	size_t count[MAX_FRAMES];
	struct ut_touch_op ops[MAX_REC_OPS];
	size_t nops;
	char str[2048];
};

static void
collect(void *data, uint64_t usec, const struct ut_touch_op *ops, size_t nops)
{
	struct rec *r = data;

	assert_true(nops > 0);
	assert_true(r->nframes < MAX_FRAMES);
	assert_true(r->nops + nops <= MAX_REC_OPS);
	r->usec[r->nframes] = usec;
	r->first[r->nframes] = r->nops;
	r->count[r->nframes] = nops;
	memcpy(&r->ops[r->nops], ops, nops * sizeof(*ops));
	r->nops += nops;
	r->nframes++;
}

static char
kind_char(enum ut_op_kind k)
{
	switch (k) {
	case UT_OP_BEGIN: return 'B';
	case UT_OP_UPDATE: return 'U';
	case UT_OP_END: return 'E';
	case UT_OP_OWN: return 'O';
	case UT_OP_PENDING_END: return 'P';
	}
	return '?';
}

/* The recorded frames from @p from on, as "B1 B2|U1". */
static const char *
seq_from(struct rec *r, size_t from)
{
	size_t len = 0;

	r->str[0] = '\0';
	for (size_t f = from; f < r->nframes; f++) {
		for (size_t k = 0; k < r->count[f]; k++) {
			const struct ut_touch_op *op = &r->ops[r->first[f] + k];
			int n = snprintf(r->str + len, sizeof(r->str) - len, "%s%c%u",
					 f > from && k == 0 ? "|" : k > 0 ? " " : "",
					 kind_char(op->kind), (unsigned)op->id);

			assert_true(n > 0 && (size_t)n < sizeof(r->str) - len);
			len += (size_t)n;
		}
	}
	return r->str;
}

static const char *
seq(struct rec *r)
{
	return seq_from(r, 0);
}

static const struct ut_touch_op *
op_at(const struct rec *r, size_t frame, size_t k)
{
	assert_true(frame < r->nframes);
	assert_true(k < r->count[frame]);
	return &r->ops[r->first[frame] + k];
}

static void
check_pos(const struct ut_touch_op *op, float dx, float dy, float wx, float wy)
{
	assert_float_equal(op->dx, dx, 1e-4);
	assert_float_equal(op->dy, dy, 1e-4);
	assert_float_equal(op->wx, wx, 1e-3);
	assert_float_equal(op->wy, wy, 1e-3);
}

static void
check_times(const struct rec *r, size_t from, size_t n, uint64_t usec)
{
	assert_true(from + n <= r->nframes);
	for (size_t f = from; f < from + n; f++)
		assert_int_equal(r->usec[f], usec);
}

/* ------------------------------------------------------------------ */
/* Pushing events                                                      */

#define T(n) (UINT64_C(1000000000) + (uint64_t)(n) * 10000u) /* usec */

static void
put(struct ut_evstream *s, uint64_t usec, unsigned int type, unsigned int code,
    int value)
{
	struct input_event ev = ut_test_event(usec, (uint16_t)type, (uint16_t)code, value);

	ut_evstream_push(s, &ev);
}

static void
mt(struct ut_evstream *s, uint64_t t, unsigned int code, int value)
{
	put(s, t, EV_ABS, code, value);
}

static void
syn(struct ut_evstream *s, uint64_t t)
{
	put(s, t, EV_SYN, SYN_REPORT, 0);
}

static void
mt_report(struct ut_evstream *s, uint64_t t)
{
	put(s, t, EV_SYN, SYN_MT_REPORT, 0);
}

/* protocol B: a new touch in @p slot */
static void
b_down(struct ut_evstream *s, uint64_t t, int slot, int tid, int x, int y)
{
	mt(s, t, ABS_MT_SLOT, slot);
	mt(s, t, ABS_MT_TRACKING_ID, tid);
	mt(s, t, ABS_MT_POSITION_X, x);
	mt(s, t, ABS_MT_POSITION_Y, y);
}

static void
b_move(struct ut_evstream *s, uint64_t t, int slot, int x, int y)
{
	mt(s, t, ABS_MT_SLOT, slot);
	mt(s, t, ABS_MT_POSITION_X, x);
	mt(s, t, ABS_MT_POSITION_Y, y);
}

static void
b_up(struct ut_evstream *s, uint64_t t, int slot)
{
	mt(s, t, ABS_MT_SLOT, slot);
	mt(s, t, ABS_MT_TRACKING_ID, -1);
}

/* protocol A: one contact */
static void
a_contact(struct ut_evstream *s, uint64_t t, int tid, int x, int y)
{
	if (tid >= 0)
		mt(s, t, ABS_MT_TRACKING_ID, tid);
	mt(s, t, ABS_MT_POSITION_X, x);
	mt(s, t, ABS_MT_POSITION_Y, y);
	mt_report(s, t);
}

static struct ut_evstream *
new_stream(const struct libevdev *caps, const struct ut_evstream_opts *o,
	   struct rec *r)
{
	struct ut_evstream *s = ut_evstream_new(caps, o, collect, r);

	assert_non_null(s);
	return s;
}

/* ------------------------------------------------------------------ */
/* Protocol B                                                          */

static void
test_b_lifecycle(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct ut_evstream_opts o = { .direct = -1 };
	struct rec r = { 0 };
	struct ut_evstream *s = new_stream(caps, &o, &r);
	const struct ut_touch_op *op;

	assert_int_equal(ut_evstream_protocol(s), 'B');
	assert_int_equal(ut_evstream_is_direct(s), 1);

	/* two touches appear in one report: one frame, ids in order */
	b_down(s, T(1), 0, 40, 600, 300);
	b_down(s, T(1), 1, 41, 1100, 1000);
	syn(s, T(1));
	assert_string_equal(seq(&r), "B1 B2");
	check_times(&r, 0, 1, T(1));
	op = op_at(&r, 0, 0);
	check_pos(op, 600, 300, 256, 150);
	assert_true((op->axis_mask & 0x3u) == 0x3u);
	assert_float_equal(op->axis[0], 600, 0);
	assert_float_equal(op->axis[1], 300, 0);
	check_pos(op_at(&r, 0, 1), 1100, 1000, 512, 500);

	/* one touch moves */
	b_move(s, T(2), 0, 850, 300);
	syn(s, T(2));
	assert_string_equal(seq(&r), "B1 B2|U1");
	check_times(&r, 1, 1, T(2));
	check_pos(op_at(&r, 1, 0), 850, 300, 384, 150);

	/* reports that change nothing give no frame */
	syn(s, T(3));
	mt(s, T(4), ABS_MT_SLOT, 1);
	mt(s, T(4), ABS_MT_TRACKING_ID, 41); /* same tracking id */
	syn(s, T(4));
	put(s, T(5), EV_KEY, BTN_TOUCH, 1);
	put(s, T(5), EV_ABS, ABS_X, 700);
	syn(s, T(5));
	b_move(s, T(6), 5, 900, 900); /* a free slot */
	syn(s, T(6));
	b_up(s, T(7), 6); /* release of a free slot */
	syn(s, T(7));
	assert_int_equal(r.nframes, 2);

	/* an end and an update in one report, in slot order */
	mt(s, T(8), ABS_MT_SLOT, 1);
	mt(s, T(8), ABS_MT_POSITION_Y, 1100);
	b_up(s, T(8), 0);
	syn(s, T(8));
	assert_string_equal(seq(&r), "B1 B2|U1|E1 U2");
	check_times(&r, 2, 1, T(8));
	check_pos(op_at(&r, 2, 0), 850, 300, 384, 150); /* last position */
	check_pos(op_at(&r, 2, 1), 1100, 1100, 512, 550);

	b_up(s, T(9), 1);
	syn(s, T(9));
	/* a reused slot gives a new id */
	b_down(s, T(10), 0, 42, 200, 200);
	syn(s, T(10));
	b_up(s, T(11), 0);
	syn(s, T(11));
	assert_string_equal(seq(&r), "B1 B2|U1|E1 U2|E2|B3|E3");
	check_times(&r, 3, 1, T(9));
	check_times(&r, 4, 1, T(10));
	check_times(&r, 5, 1, T(11));
	check_pos(op_at(&r, 4, 0), 200, 200, 51.2f, 100);

	ut_evstream_destroy(s);
	libevdev_free(caps);
}

/* The frame time is the time of the SYN_REPORT, seconds and microseconds
 * combined. */
static void
test_b_frame_time(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct rec r = { 0 };
	struct ut_evstream *s = new_stream(caps, NULL, &r);
	const uint64_t t_ev = UINT64_C(12) * 1000000u + 345678u;
	const uint64_t t_syn = UINT64_C(13) * 1000000u + 5u;

	b_down(s, t_ev, 0, 1, 500, 500);
	syn(s, t_syn);
	assert_string_equal(seq(&r), "B1");
	assert_int_equal(r.usec[0], t_syn);

	ut_evstream_destroy(s);
	libevdev_free(caps);
}

/* Every ABS_MT axis counts as a change and travels in the operation. */
static void
test_b_all_axes_change(void **state)
{
	static const struct {
		unsigned int code;
		int axis;
		int value;
	} ax[] = {
		{ ABS_MT_TOUCH_MAJOR, UFAxisTypeTouchMajor, 31 },
		{ ABS_MT_TOUCH_MINOR, UFAxisTypeTouchMinor, 17 },
		{ ABS_MT_WIDTH_MAJOR, UFAxisTypeWidthMajor, 40 },
		{ ABS_MT_WIDTH_MINOR, UFAxisTypeWidthMinor, 20 },
		{ ABS_MT_ORIENTATION, UFAxisTypeOrientation, -3 },
		{ ABS_MT_TOOL_TYPE, UFAxisTypeTool, MT_TOOL_PEN },
		{ ABS_MT_BLOB_ID, UFAxisTypeBlobId, 7 },
		{ ABS_MT_PRESSURE, UFAxisTypePressure, 80 },
		{ ABS_MT_DISTANCE, UFAxisTypeDistance, 2 },
	};
	const size_t n = sizeof(ax) / sizeof(ax[0]);
	struct libevdev *caps = new_caps(CAPS_B | CAPS_EXTRA);
	struct rec r = { 0 };
	struct ut_evstream *s = new_stream(caps, NULL, &r);
	uint32_t mask = 0x3u;

	b_down(s, T(1), 0, 1, 500, 500);
	syn(s, T(1));
	assert_int_equal(op_at(&r, 0, 0)->axis_mask, 0x3u);
	for (size_t i = 0; i < n; i++) {
		const struct ut_touch_op *op;

		mt(s, T(2 + i), ax[i].code, ax[i].value);
		syn(s, T(2 + i));
		assert_int_equal(r.nframes, i + 2);
		op = op_at(&r, i + 1, 0);
		assert_int_equal(op->kind, UT_OP_UPDATE);
		assert_int_equal(op->id, 1);
		mask |= 1u << ax[i].axis;
		assert_int_equal(op->axis_mask, mask);
		assert_float_equal(op->axis[ax[i].axis], (float)ax[i].value, 0);
		/* the position is carried along */
		check_pos(op, 500, 500, 204.8f, 250);
	}
	/* the tracking id is not an axis value of the touch */
	assert_int_equal(mask & (1u << UFAxisTypeTrackingId), 0);

	ut_evstream_destroy(s);
	libevdev_free(caps);
}

static void
test_b_touch_begins_and_ends_in_one_report(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct rec r = { 0 };
	struct ut_evstream_opts o = { 0 };
	struct ut_evstream *s;

	for (int variant = 0; variant < 3; variant++) {
		static const char *const want[] = {
			"B1 B2|U1 B3|E3|U2",
			"B1|B2|U1|B3|E3|U2",
			"B1 B2|O1 O2|U1 B3|E3|U2|O3",
		};

		memset(&r, 0, sizeof(r));
		memset(&o, 0, sizeof(o));
		o.split = variant == 1;
		o.own = variant == 2 ? UT_OWN_EVENT : UT_OWN_BEGIN;
		s = new_stream(caps, &o, &r);
		b_down(s, T(1), 0, 10, 500, 500);
		b_down(s, T(1), 2, 11, 900, 900);
		syn(s, T(1));
		b_move(s, T(2), 0, 510, 500);
		b_down(s, T(2), 1, 12, 700, 700);
		mt(s, T(2), ABS_MT_TRACKING_ID, -1);
		b_move(s, T(2), 2, 910, 900);
		syn(s, T(2));
		assert_string_equal(seq(&r), want[variant]);
		for (size_t f = 0; f < r.nframes; f++)
			assert_int_equal(r.usec[f], f < (variant == 0 ? 1u : 2u) ? T(1) : T(2));
		ut_evstream_destroy(s);
	}
	/* the end carries the position of the touch */
	check_pos(op_at(&r, 3, 0), 700, 700, 307.2f, 350);
	libevdev_free(caps);
}

/* A tracking id replaced without a release first closes what the report
 * changed so far, then ends the old touch, then begins a new one. */
static void
test_b_tracking_id_change(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct rec r = { 0 };
	struct ut_evstream *s = new_stream(caps, NULL, &r);

	b_down(s, T(1), 0, 10, 500, 500);
	b_down(s, T(1), 1, 11, 900, 900);
	syn(s, T(1));

	b_move(s, T(2), 1, 920, 900);
	mt(s, T(2), ABS_MT_SLOT, 0);
	mt(s, T(2), ABS_MT_TRACKING_ID, 12);
	mt(s, T(2), ABS_MT_POSITION_X, 300);
	syn(s, T(3));
	assert_string_equal(seq(&r), "B1 B2|U2|E1|B3");
	check_times(&r, 1, 2, T(2)); /* at the tracking id event */
	check_times(&r, 3, 1, T(3));
	check_pos(op_at(&r, 2, 0), 500, 500, 204.8f, 250); /* old position */
	check_pos(op_at(&r, 3, 0), 300, 500, 102.4f, 250);

	/* nothing pending before the change: just the end, then the begin */
	mt(s, T(4), ABS_MT_TRACKING_ID, 13);
	syn(s, T(5));
	assert_string_equal(seq_from(&r, 4), "E3|B4");
	check_times(&r, 4, 1, T(4));
	check_times(&r, 5, 1, T(5));

	ut_evstream_destroy(s);
	libevdev_free(caps);
}

/* A slot released and reused within one report ends the old touch. */
static void
test_b_release_and_reuse_in_one_report(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct rec r = { 0 };
	struct ut_evstream *s = new_stream(caps, NULL, &r);

	b_down(s, T(1), 0, 10, 500, 500);
	b_down(s, T(1), 1, 11, 900, 900);
	syn(s, T(1));

	b_move(s, T(2), 1, 920, 900);
	b_up(s, T(2), 0);
	mt(s, T(2), ABS_MT_TRACKING_ID, 12);
	mt(s, T(2), ABS_MT_POSITION_X, 400);
	syn(s, T(3));
	assert_string_equal(seq(&r), "B1 B2|E1 U2|B3");
	check_times(&r, 1, 1, T(2));
	check_times(&r, 2, 1, T(3));
	check_pos(op_at(&r, 1, 0), 500, 500, 204.8f, 250);
	check_pos(op_at(&r, 2, 0), 400, 500, 153.6f, 250);

	b_up(s, T(4), 0);
	b_up(s, T(4), 1);
	syn(s, T(4));
	syn(s, T(5));
	assert_string_equal(seq(&r), "B1 B2|E1 U2|B3|E3 E2");

	ut_evstream_destroy(s);
	libevdev_free(caps);
}

/* A touch that begins and is replaced within one report is still announced
 * and ended, so no id is skipped silently. */
static void
test_b_begin_and_reuse_in_one_report(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct rec r = { 0 };
	struct ut_evstream *s = new_stream(caps, NULL, &r);

	/* begin, release and reuse */
	mt(s, T(1), ABS_MT_SLOT, 0);
	mt(s, T(1), ABS_MT_TRACKING_ID, 5);
	mt(s, T(1), ABS_MT_POSITION_X, 500);
	mt(s, T(1), ABS_MT_POSITION_Y, 500);
	mt(s, T(1), ABS_MT_TRACKING_ID, -1);
	mt(s, T(1), ABS_MT_TRACKING_ID, 6);
	syn(s, T(2));
	assert_string_equal(seq(&r), "B1|E1|B2");
	check_times(&r, 0, 1, T(1));
	check_times(&r, 2, 1, T(2));

	/* begin and a new tracking id without a release */
	b_up(s, T(3), 0);
	syn(s, T(3));
	mt(s, T(4), ABS_MT_TRACKING_ID, 7);
	mt(s, T(4), ABS_MT_TRACKING_ID, 8);
	syn(s, T(5));
	assert_string_equal(seq_from(&r, 3), "E2|B3|E3|B4");

	ut_evstream_destroy(s);
	libevdev_free(caps);
}

static void
test_b_bad_slots_and_other_events(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct rec r = { 0 };
	struct ut_evstream *s = new_stream(caps, NULL, &r);
	/* the device has slots 0..9: 10 and 63 are out of its range too */
	static const int bad[] = { 10, 63, 64, -1, 1000, INT32_MIN };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		b_down(s, T(1), bad[i], 5, 500, 500);
		syn(s, T(1));
		mt(s, T(2), ABS_MT_TRACKING_ID, -1);
		syn(s, T(2));
	}
	assert_int_equal(r.nframes, 0);

	b_down(s, T(3), 3, 5, 500, 500);
	put(s, T(3), EV_KEY, BTN_TOUCH, 1);
	syn(s, T(3));
	assert_string_equal(seq(&r), "B1");
	check_pos(op_at(&r, 0, 0), 500, 500, 204.8f, 250);

	/* other event types, non-MT axes and SYN codes other than REPORT,
	 * while slot 3 is current */
	put(s, T(4), EV_KEY, BTN_TOUCH, 0);
	put(s, T(4), EV_KEY, BTN_TOOL_FINGER, 1);
	put(s, T(4), EV_MSC, MSC_TIMESTAMP, 1234);
	put(s, T(4), EV_REL, REL_X, 5);
	put(s, T(4), EV_ABS, ABS_X, 700);
	put(s, T(4), EV_ABS, ABS_PRESSURE, 50);
	put(s, T(4), EV_SYN, SYN_MT_REPORT, 0);
	put(s, T(4), EV_SYN, SYN_CONFIG, 0);
	syn(s, T(4));
	assert_int_equal(r.nframes, 1);

	/* events after a bad slot do not reach the previous slot */
	mt(s, T(5), ABS_MT_SLOT, 99);
	mt(s, T(5), ABS_MT_POSITION_X, 1999);
	mt(s, T(5), ABS_MT_TRACKING_ID, -1);
	syn(s, T(5));
	assert_int_equal(r.nframes, 1);
	b_up(s, T(6), 3);
	syn(s, T(6));
	assert_string_equal(seq(&r), "B1|E1");
	check_times(&r, 1, 1, T(6));
	check_pos(op_at(&r, 1, 0), 500, 500, 204.8f, 250);

	ut_evstream_destroy(s);
	libevdev_free(caps);
}

/* ------------------------------------------------------------------ */
/* Window scaling and direct/indirect                                  */

static void
test_scaling(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct rec r = { 0 };
	struct ut_evstream_opts o = { .direct = -1 };
	struct ut_evstream *s;

	/* default 1024x768: corners and a point outside the range */
	s = new_stream(caps, &o, &r);
	b_down(s, T(1), 0, 1, XMIN, YMIN);
	b_down(s, T(1), 1, 2, XMAX, YMAX);
	b_down(s, T(1), 2, 3, 2600, -96);
	syn(s, T(1));
	assert_string_equal(seq(&r), "B1 B2 B3");
	check_pos(op_at(&r, 0, 0), XMIN, YMIN, 0, 0);
	check_pos(op_at(&r, 0, 1), XMAX, YMAX, 1024, 768);
	check_pos(op_at(&r, 0, 2), 2600, -96, 1280, -48);
	ut_evstream_destroy(s);

	/* a custom screen */
	memset(&r, 0, sizeof(r));
	o.screen_w = 2000;
	o.screen_h = 1000;
	s = new_stream(caps, &o, &r);
	b_down(s, T(1), 0, 1, 1100, 300);
	syn(s, T(1));
	check_pos(op_at(&r, 0, 0), 1100, 300, 1000, 195.3125f);
	ut_evstream_destroy(s);

	/* non-positive sizes fall back to the defaults */
	memset(&r, 0, sizeof(r));
	o.screen_w = -5;
	o.screen_h = 0;
	s = new_stream(caps, &o, &r);
	b_down(s, T(1), 0, 1, 1100, 300);
	syn(s, T(1));
	check_pos(op_at(&r, 0, 0), 1100, 300, 512, 150);
	ut_evstream_destroy(s);
	libevdev_free(caps);

	/* an axis without a range passes values through */
	caps = libevdev_new();
	enable_abs(caps, ABS_MT_POSITION_X, 50, 50, 0);
	enable_abs(caps, ABS_MT_POSITION_Y, -200, 200, 0);
	enable_abs(caps, ABS_MT_SLOT, 0, 1, 0);
	memset(&r, 0, sizeof(r));
	s = new_stream(caps, NULL, &r);
	b_down(s, T(1), 0, 1, 70, 0);
	syn(s, T(1));
	check_pos(op_at(&r, 0, 0), 70, 0, 70, 384);
	ut_evstream_destroy(s);
	libevdev_free(caps);
}

static void
test_direct_detection(void **state)
{
	struct libevdev *none = new_caps(CAPS_B);
	struct libevdev *direct = new_caps(CAPS_B);
	struct libevdev *pointer = new_caps(CAPS_B);
	struct libevdev *finger = new_caps(CAPS_B);
	struct libevdev *both = new_caps(CAPS_B);
	struct rec r = { 0 };
	struct ut_evstream_opts o = { 0 };
	struct ut_evstream *s;

	assert_int_equal(libevdev_enable_property(direct, INPUT_PROP_DIRECT), 0);
	assert_int_equal(libevdev_enable_property(pointer, INPUT_PROP_POINTER), 0);
	assert_int_equal(libevdev_enable_event_code(finger, EV_KEY, BTN_TOOL_FINGER, NULL), 0);
	assert_int_equal(libevdev_enable_property(both, INPUT_PROP_DIRECT), 0);
	assert_int_equal(libevdev_enable_event_code(both, EV_KEY, BTN_TOOL_FINGER, NULL), 0);

	assert_int_equal(ut_evdev_caps_is_direct(none), 1);
	assert_int_equal(ut_evdev_caps_is_direct(direct), 1);
	assert_int_equal(ut_evdev_caps_is_direct(pointer), 0);
	assert_int_equal(ut_evdev_caps_is_direct(finger), 0);
	assert_int_equal(ut_evdev_caps_is_direct(both), 1);

	/* detection: NULL options or direct = -1 */
	s = new_stream(pointer, NULL, &r);
	assert_int_equal(ut_evstream_is_direct(s), 0);
	ut_evstream_destroy(s);
	o.direct = -1;
	s = new_stream(finger, &o, &r);
	assert_int_equal(ut_evstream_is_direct(s), 0);
	ut_evstream_destroy(s);
	s = new_stream(direct, &o, &r);
	assert_int_equal(ut_evstream_is_direct(s), 1);
	ut_evstream_destroy(s);

	/* the override wins over the capabilities */
	o.direct = 1;
	s = new_stream(pointer, &o, &r);
	assert_int_equal(ut_evstream_is_direct(s), 1);
	ut_evstream_destroy(s);
	o.direct = 0;
	s = new_stream(direct, &o, &r);
	assert_int_equal(ut_evstream_is_direct(s), 0);
	ut_evstream_destroy(s);
	o.direct = 7;
	s = new_stream(finger, &o, &r);
	assert_int_equal(ut_evstream_is_direct(s), 1);
	ut_evstream_destroy(s);

	assert_int_equal(r.nframes, 0);
	libevdev_free(none);
	libevdev_free(direct);
	libevdev_free(pointer);
	libevdev_free(finger);
	libevdev_free(both);
}

/* ------------------------------------------------------------------ */
/* Orderings                                                           */

/* slot 1 holds touch 1; the report begins touches in slots 0 and 2 (ids 2
 * and 3) and moves touch 1 */
static const char *
run_ordering(const struct libevdev *caps, struct ut_evstream_opts o, struct rec *r)
{
	struct ut_evstream *s;

	memset(r, 0, sizeof(*r));
	s = new_stream(caps, &o, r);
	b_down(s, T(1), 1, 10, 500, 500);
	syn(s, T(1));
	b_down(s, T(2), 0, 11, 300, 300);
	b_move(s, T(2), 1, 510, 500);
	b_down(s, T(2), 2, 12, 700, 700);
	syn(s, T(2));
	b_move(s, T(3), 0, 310, 300);
	b_move(s, T(3), 1, 520, 500);
	b_move(s, T(3), 2, 710, 700);
	syn(s, T(3));
	b_up(s, T(4), 0);
	b_up(s, T(4), 1);
	b_up(s, T(4), 2);
	syn(s, T(4));
	ut_evstream_destroy(s);
	return seq(r);
}

static void
test_orderings(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct rec r;
	struct ut_evstream_opts o = { 0 };

	assert_string_equal(run_ordering(caps, o, &r), "B1|B2 U1 B3|U2 U1 U3|E2 E1 E3");
	assert_int_equal(r.nframes, 4);
	for (size_t f = 0; f < 4; f++)
		assert_int_equal(r.usec[f], T(f + 1));

	o.reverse = 1;
	assert_string_equal(run_ordering(caps, o, &r), "B1|B3 U1 B2|U3 U1 U2|E3 E1 E2");

	o.reverse = 0;
	o.begin_first = 1;
	assert_string_equal(run_ordering(caps, o, &r), "B1|B2 B3 U1|U2 U1 U3|E2 E1 E3");

	o.reverse = 1;
	assert_string_equal(run_ordering(caps, o, &r), "B1|B3 B2 U1|U3 U1 U2|E3 E1 E2");

	o.reverse = 0;
	o.begin_first = 0;
	o.split = 1;
	assert_string_equal(run_ordering(caps, o, &r),
			    "B1|B2|U1|B3|U2|U1|U3|E2|E1|E3");
	/* every frame of a report carries the report's time */
	check_times(&r, 0, 1, T(1));
	check_times(&r, 1, 3, T(2));
	check_times(&r, 4, 3, T(3));
	check_times(&r, 7, 3, T(4));

	o.reverse = 1;
	o.begin_first = 1;
	assert_string_equal(run_ordering(caps, o, &r),
			    "B1|B3|B2|U1|U3|U1|U2|E3|E1|E2");
	libevdev_free(caps);
}

/* ------------------------------------------------------------------ */
/* Ownership                                                           */

static void
test_own_begin(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct rec r;
	struct ut_evstream_opts o = { .own = UT_OWN_BEGIN };
	struct ut_evstream *s;

	assert_string_equal(run_ordering(caps, o, &r), "B1|B2 U1 B3|U2 U1 U3|E2 E1 E3");

	/* nothing waits for ownership */
	memset(&r, 0, sizeof(r));
	s = new_stream(caps, &o, &r);
	b_down(s, T(1), 0, 1, 500, 500);
	syn(s, T(1));
	assert_int_equal(ut_evstream_grant(s, 1, T(2)), -ENOENT);
	assert_string_equal(seq(&r), "B1");
	ut_evstream_destroy(s);
	libevdev_free(caps);
}

static void
test_own_event_split(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct rec r;
	struct ut_evstream_opts o = { .own = UT_OWN_EVENT, .split = 1 };

	assert_string_equal(run_ordering(caps, o, &r),
			    "B1|O1|B2|O2|U1|B3|O3|U2|U1|U3|E2|E1|E3");
	/* the ownership frame follows its begin at the same time, with the
	 * same touch values */
	check_times(&r, 0, 2, T(1));
	check_times(&r, 2, 5, T(2));
	assert_int_equal(op_at(&r, 3, 0)->id, 2);
	check_pos(op_at(&r, 3, 0), 300, 300, 102.4f, 150);

	/* the X11 preset: split, reverse, ownership events */
	o.reverse = 1;
	assert_string_equal(run_ordering(caps, o, &r),
			    "B1|O1|B3|O3|U1|B2|O2|U3|U1|U2|E3|E1|E2");
	libevdev_free(caps);
}

static void
test_own_event_report(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct rec r;
	struct ut_evstream_opts o = { .own = UT_OWN_EVENT };

	/* one ownership frame after the report, new touches in order */
	assert_string_equal(run_ordering(caps, o, &r),
			    "B1|O1|B2 U1 B3|O2 O3|U2 U1 U3|E2 E1 E3");
	check_times(&r, 0, 2, T(1));
	check_times(&r, 2, 2, T(2));

	o.reverse = 1;
	assert_string_equal(run_ordering(caps, o, &r),
			    "B1|O1|B3 U1 B2|O3 O2|U3 U1 U2|E3 E1 E2");
	o.begin_first = 1;
	assert_string_equal(run_ordering(caps, o, &r),
			    "B1|O1|B3 B2 U1|O3 O2|U3 U1 U2|E3 E1 E2");
	libevdev_free(caps);
}

static void
test_own_manual(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct rec r = { 0 };
	struct ut_evstream_opts o = { .own = UT_OWN_MANUAL };
	struct ut_evstream *s = new_stream(caps, &o, &r);
	const struct ut_touch_op *op;

	b_down(s, T(1), 0, 10, 500, 500);
	b_down(s, T(1), 1, 11, 900, 900);
	syn(s, T(1));
	assert_string_equal(seq(&r), "B1 B2");

	/* touch 1 lifts before it is owned: a pending end */
	b_move(s, T(2), 0, 600, 500);
	b_up(s, T(2), 0);
	syn(s, T(2));
	assert_string_equal(seq(&r), "B1 B2|P1");
	check_pos(op_at(&r, 1, 0), 600, 500, 256, 250);

	/* the grant: an ownership frame and the end, at the grant's time */
	assert_int_equal(ut_evstream_grant(s, 1, T(3)), 0);
	assert_string_equal(seq(&r), "B1 B2|P1|O1|E1");
	check_times(&r, 2, 2, T(3));
	op = op_at(&r, 3, 0);
	check_pos(op, 600, 500, 256, 250);

	/* only once; unknown ids */
	assert_int_equal(ut_evstream_grant(s, 1, T(4)), -ENOENT);
	assert_int_equal(ut_evstream_grant(s, 99, T(4)), -ENOENT);
	assert_int_equal(ut_evstream_grant(s, 0, T(4)), -ENOENT);
	assert_int_equal(ut_evstream_grant(NULL, 2, T(4)), -ENOENT);
	assert_int_equal(r.nframes, 4);

	/* a touch still down: just the ownership frame, and a normal end */
	assert_int_equal(ut_evstream_grant(s, 2, T(5)), 0);
	assert_string_equal(seq(&r), "B1 B2|P1|O1|E1|O2");
	check_times(&r, 4, 1, T(5));
	b_move(s, T(6), 1, 910, 900);
	syn(s, T(6));
	b_up(s, T(7), 1);
	syn(s, T(7));
	assert_string_equal(seq(&r), "B1 B2|P1|O1|E1|O2|U2|E2");
	assert_int_equal(ut_evstream_grant(s, 2, T(8)), -ENOENT);

	/* begins and lifts in one report */
	b_down(s, T(9), 3, 12, 700, 700);
	mt(s, T(9), ABS_MT_TRACKING_ID, -1);
	syn(s, T(9));
	assert_string_equal(seq_from(&r, 7), "B3|P3");
	assert_int_equal(ut_evstream_grant(s, 3, T(10)), 0);
	assert_string_equal(seq_from(&r, 7), "B3|P3|O3|E3");
	check_times(&r, 9, 2, T(10));

	/* granted out of order */
	b_down(s, T(11), 0, 13, 100, 100);
	b_down(s, T(11), 1, 14, 200, 200);
	b_down(s, T(11), 2, 15, 300, 300);
	syn(s, T(11));
	assert_int_equal(ut_evstream_grant(s, 5, T(12)), 0);
	assert_int_equal(ut_evstream_grant(s, 4, T(12)), 0);
	b_up(s, T(13), 0);
	b_up(s, T(13), 1);
	b_up(s, T(13), 2);
	syn(s, T(13));
	assert_int_equal(ut_evstream_grant(s, 6, T(14)), 0);
	assert_string_equal(seq_from(&r, 11), "B4 B5 B6|O5|O4|E4 E5 P6|O6|E6");

	ut_evstream_destroy(s);
	libevdev_free(caps);
}

/* UT_OWN_MANUAL with UT_EVSTREAM_MAX_SLOTS touches waiting for their grant:
 * a further touch cannot wait and is owned at once; once a grant frees a
 * place, new touches wait again. */
static void
test_own_manual_waiting_full(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct rec r = { 0 };
	struct ut_evstream_opts o = { .own = UT_OWN_MANUAL };
	struct ut_evstream *s = new_stream(caps, &o, &r);
	int t = 1;

	(void)state;
	for (int i = 0; i < UT_EVSTREAM_MAX_SLOTS; i++, t++) {
		memset(&r, 0, sizeof(r));
		b_down(s, T(t), i % 10, 100 + i, 500, 500);
		b_up(s, T(t), i % 10);
		syn(s, T(t));
		assert_int_equal(r.nframes, 2);
		assert_int_equal(op_at(&r, 0, 0)->kind, UT_OP_BEGIN);
		assert_int_equal(op_at(&r, 1, 0)->kind, UT_OP_PENDING_END);
		assert_int_equal(op_at(&r, 1, 0)->id, (uint32_t)i + 1);
	}

	/* touch 65: owned with its begin, a plain end, nothing to grant */
	memset(&r, 0, sizeof(r));
	b_down(s, T(t), 0, 500, 600, 600);
	syn(s, T(t));
	b_up(s, T(t + 1), 0);
	syn(s, T(t + 1));
	assert_string_equal(seq(&r), "B65|O65|E65");
	check_times(&r, 0, 2, T(t));
	assert_int_equal(ut_evstream_grant(s, 65, T(t + 2)), -ENOENT);

	/* a grant frees a place: touch 66 waits */
	memset(&r, 0, sizeof(r));
	assert_int_equal(ut_evstream_grant(s, 7, T(t + 3)), 0);
	b_down(s, T(t + 4), 1, 501, 700, 700);
	syn(s, T(t + 4));
	b_up(s, T(t + 5), 1);
	syn(s, T(t + 5));
	assert_string_equal(seq(&r), "O7|E7|B66|P66");
	assert_int_equal(ut_evstream_grant(s, 66, T(t + 6)), 0);
	assert_string_equal(seq(&r), "O7|E7|B66|P66|O66|E66");

	/* the ones still waiting are there to grant */
	assert_int_equal(ut_evstream_grant(s, 1, T(t + 7)), 0);
	assert_int_equal(ut_evstream_grant(s, 64, T(t + 7)), 0);
	assert_int_equal(ut_evstream_grant(s, 7, T(t + 7)), -ENOENT);

	ut_evstream_destroy(s);
	libevdev_free(caps);
}

/* ------------------------------------------------------------------ */
/* Protocol A                                                          */

static void
test_protocol_a_without_ids(void **state)
{
	struct libevdev *caps = new_caps(0);
	struct rec r = { 0 };
	struct ut_evstream *s = new_stream(caps, NULL, &r);

	assert_int_equal(ut_evstream_protocol(s), 'A');

	a_contact(s, T(1), -1, 600, 300);
	a_contact(s, T(1), -1, 1100, 1000);
	assert_int_equal(r.nframes, 0); /* nothing before SYN_REPORT */
	syn(s, T(1));
	assert_string_equal(seq(&r), "B1 B2");
	check_times(&r, 0, 1, T(1));
	check_pos(op_at(&r, 0, 0), 600, 300, 256, 150);
	check_pos(op_at(&r, 0, 1), 1100, 1000, 512, 500);

	/* the contacts in the other order: matched by position */
	a_contact(s, T(2), -1, 1100, 1010);
	a_contact(s, T(2), -1, 610, 300);
	syn(s, T(2));
	assert_string_equal(seq(&r), "B1 B2|U1 U2");
	check_pos(op_at(&r, 1, 0), 610, 300, 261.12f, 150);
	check_pos(op_at(&r, 1, 1), 1100, 1010, 512, 505);

	/* the same contacts again: nothing changed */
	a_contact(s, T(3), -1, 610, 300);
	a_contact(s, T(3), -1, 1100, 1010);
	syn(s, T(3));
	assert_int_equal(r.nframes, 2);

	/* the first lifts, then the second */
	a_contact(s, T(4), -1, 1100, 1010);
	syn(s, T(4));
	mt_report(s, T(5));
	syn(s, T(5));
	assert_string_equal(seq(&r), "B1 B2|U1 U2|E1|E2");
	check_times(&r, 2, 1, T(4));
	check_times(&r, 3, 1, T(5));

	/* a new contact gets a new id */
	a_contact(s, T(6), -1, 200, 200);
	syn(s, T(6));
	/* mtdev drops a report without any MT data: the lift needs an empty
	 * SYN_MT_REPORT (or BTN_TOUCH, see below) */
	syn(s, T(7));
	assert_int_equal(r.nframes, 5);
	mt_report(s, T(8));
	syn(s, T(8));
	assert_string_equal(seq(&r), "B1 B2|U1 U2|E1|E2|B3|E3");

	ut_evstream_destroy(s);
	libevdev_free(caps);
}

static void
test_protocol_a_with_ids(void **state)
{
	struct libevdev *caps = new_caps(CAPS_TRACKING | CAPS_EXTRA);
	struct rec r = { 0 };
	struct ut_evstream *s = new_stream(caps, NULL, &r);

	assert_int_equal(ut_evstream_protocol(s), 'A');

	a_contact(s, T(1), 7, 600, 300);
	a_contact(s, T(1), 9, 1100, 1000);
	syn(s, T(1));
	assert_string_equal(seq(&r), "B1 B2");

	/* contact 9 lifts, contact 7 moves, contact 8 appears */
	mt(s, T(2), ABS_MT_PRESSURE, 40);
	a_contact(s, T(2), 7, 650, 300);
	a_contact(s, T(2), 8, 1500, 1200);
	syn(s, T(2));
	assert_string_equal(seq(&r), "B1 B2|U1 E2 B3");
	check_times(&r, 1, 1, T(2));
	check_pos(op_at(&r, 1, 0), 650, 300, 281.6f, 150);
	assert_true(op_at(&r, 1, 0)->axis_mask & (1u << UFAxisTypePressure));
	assert_float_equal(op_at(&r, 1, 0)->axis[UFAxisTypePressure], 40, 0);
	check_pos(op_at(&r, 1, 2), 1500, 1200, 716.8f, 600);

	/* all lift: a report with BTN_TOUCH and no contacts */
	put(s, T(3), EV_KEY, BTN_TOUCH, 0);
	syn(s, T(3));
	assert_string_equal(seq(&r), "B1 B2|U1 E2 B3|E1 E3");
	check_times(&r, 2, 1, T(3));

	ut_evstream_destroy(s);
	libevdev_free(caps);
}

/* The same motion told in protocol A and protocol B gives the same frames. */
struct motion_step {
	int n;
	struct { int tid, x, y; } c[3];
};

static const struct motion_step motion[] = {
	{ 1, { { 1, 400, 400 } } },
	{ 2, { { 1, 420, 410 }, { 2, 1400, 900 } } },
	{ 2, { { 1, 440, 420 }, { 2, 1380, 900 } } },
	{ 3, { { 1, 460, 430 }, { 2, 1360, 900 }, { 3, 800, 1300 } } },
	{ 2, { { 2, 1340, 910 }, { 3, 820, 1290 } } },
	{ 1, { { 3, 840, 1280 } } },
	{ 2, { { 3, 860, 1270 }, { 4, 200, 100 } } },
	{ 0, { { 0, 0, 0 } } },
};

static void
play_b(struct ut_evstream *s)
{
	int slot_of[8] = { -1, -1, -1, -1, -1, -1, -1, -1 };
	int used[4] = { 0 };

	for (size_t i = 0; i < sizeof(motion) / sizeof(motion[0]); i++) {
		const struct motion_step *m = &motion[i];
		uint64_t t = T(i + 1);

		/* lifted contacts */
		for (int tid = 1; tid < 8; tid++) {
			int present = 0;

			for (int k = 0; k < m->n; k++)
				present |= m->c[k].tid == tid;
			if (slot_of[tid] >= 0 && !present) {
				b_up(s, t, slot_of[tid]);
				used[slot_of[tid]] = 0;
				slot_of[tid] = -1;
			}
		}
		for (int k = 0; k < m->n; k++) {
			int tid = m->c[k].tid;

			if (slot_of[tid] < 0) {
				int sl = 0;

				while (used[sl])
					sl++;
				used[sl] = 1;
				slot_of[tid] = sl;
				b_down(s, t, sl, 100 + tid, m->c[k].x, m->c[k].y);
			} else {
				b_move(s, t, slot_of[tid], m->c[k].x, m->c[k].y);
			}
		}
		syn(s, t);
	}
}

static void
play_a(struct ut_evstream *s, int with_ids)
{
	for (size_t i = 0; i < sizeof(motion) / sizeof(motion[0]); i++) {
		const struct motion_step *m = &motion[i];
		uint64_t t = T(i + 1);

		for (int k = 0; k < m->n; k++)
			a_contact(s, t, with_ids ? m->c[k].tid : -1, m->c[k].x,
				  m->c[k].y);
		if (m->n == 0)
			mt_report(s, t);
		syn(s, t);
	}
}

static void
check_same_frames(const struct rec *a, const struct rec *b)
{
	assert_int_equal(a->nframes, b->nframes);
	assert_int_equal(a->nops, b->nops);
	for (size_t f = 0; f < a->nframes; f++) {
		assert_int_equal(a->usec[f], b->usec[f]);
		assert_int_equal(a->count[f], b->count[f]);
	}
	for (size_t k = 0; k < a->nops; k++) {
		const struct ut_touch_op *p = &a->ops[k], *q = &b->ops[k];

		assert_int_equal(p->kind, q->kind);
		assert_int_equal(p->id, q->id);
		check_pos(p, q->dx, q->dy, q->wx, q->wy);
	}
}

/* libmtdev never returns from a report with 32 or more contacts: the stream
 * passes the first UT_EVSTREAM_MAX_CONTACTS_A and counts the rest. */
static void
test_protocol_a_too_many_contacts(void **state)
{
	struct libevdev *caps = new_caps(0);
	struct rec r = { 0 };
	struct ut_evstream *s = new_stream(caps, NULL, &r);
	size_t begins = 0, updates = 0, ends = 0;

	for (int rep = 0; rep < 3; rep++) {
		for (int c = 0; c < 40; c++)
			a_contact(s, T(1 + rep), -1, 110 + 50 * c + 7 * rep, 100 + 30 * c);
		syn(s, T(1 + rep));
	}
	mt_report(s, T(4));
	syn(s, T(4));
	assert_int_equal(ut_evstream_dropped(s), 3 * (40 - UT_EVSTREAM_MAX_CONTACTS_A));
	for (size_t i = 0; i < r.nops; i++) {
		begins += r.ops[i].kind == UT_OP_BEGIN;
		updates += r.ops[i].kind == UT_OP_UPDATE;
		ends += r.ops[i].kind == UT_OP_END;
	}
	assert_int_equal(begins, UT_EVSTREAM_MAX_CONTACTS_A);
	assert_int_equal(ends, UT_EVSTREAM_MAX_CONTACTS_A);
	assert_int_equal(updates, 2 * UT_EVSTREAM_MAX_CONTACTS_A);
	/* the first 31 contacts are kept, the later ones never appear */
	for (size_t i = 0; i < r.nops; i++)
		assert_true(r.ops[i].dx < 110 + 50 * UT_EVSTREAM_MAX_CONTACTS_A);

	assert_int_equal(ut_evstream_max_contacts(s), UT_EVSTREAM_MAX_CONTACTS_A);
	/* a report with exactly the bound and a partial contact after it */
	for (int c = 0; c < UT_EVSTREAM_MAX_CONTACTS_A; c++)
		a_contact(s, T(5), -1, 110 + 50 * c, 600);
	mt(s, T(5), ABS_MT_POSITION_X, 2000);
	syn(s, T(5));
	assert_int_equal(ut_evstream_dropped(s), 3 * (40 - UT_EVSTREAM_MAX_CONTACTS_A));
	ut_evstream_destroy(s);
	libevdev_free(caps);
}

/* With its own tracking ids, a device may need two slots per contact in
 * mtdev: the bound is lower, and new ids in every report never hang. */
static void
test_protocol_a_too_many_contacts_with_ids(void **state)
{
	struct libevdev *caps = new_caps(CAPS_TRACKING);
	struct rec r = { 0 };
	struct ut_evstream *s = new_stream(caps, NULL, &r);
	size_t begins = 0;

	assert_int_equal(ut_evstream_max_contacts(s), UT_EVSTREAM_MAX_CONTACTS_A_IDS);
	for (int rep = 0; rep < 4; rep++) {
		for (int c = 0; c < 20; c++)
			a_contact(s, T(1 + rep), 100 * rep + c, 110 + 50 * c, 100 + 30 * rep);
		syn(s, T(1 + rep));
	}
	for (size_t i = 0; i < r.nops; i++)
		begins += r.ops[i].kind == UT_OP_BEGIN;
	assert_int_equal(begins, 4 * UT_EVSTREAM_MAX_CONTACTS_A_IDS);
	assert_int_equal(ut_evstream_dropped(s), 4 * (20 - UT_EVSTREAM_MAX_CONTACTS_A_IDS));
	ut_evstream_destroy(s);
	libevdev_free(caps);
}

/* An axis the device declares but a contact leaves out: mtdev would read
 * uninitialised memory; the stream fills in 0 the first time and the
 * contact's earlier value afterwards, so the result does not depend on
 * the heap. */
static void
test_protocol_a_missing_axis(void **state)
{
	struct libevdev *caps = new_caps(CAPS_EXTRA);
	struct rec r = { 0 };
	struct ut_evstream *s = new_stream(caps, NULL, &r);

	/* no major ever: mtdev takes a zero major for a lifted finger */
	a_contact(s, T(1), -1, 600, 300);
	syn(s, T(1));
	assert_int_equal(r.nframes, 0);

	mt(s, T(2), ABS_MT_TOUCH_MAJOR, 30);
	a_contact(s, T(2), -1, 600, 300);
	syn(s, T(2));
	assert_string_equal(seq(&r), "B1");
	assert_float_equal(op_at(&r, 0, 0)->axis[2], 30, 0);
	/* the major is left out again: the contact keeps its 30 */
	a_contact(s, T(3), -1, 700, 300);
	syn(s, T(3));
	assert_string_equal(seq(&r), "B1|U1");
	assert_float_equal(op_at(&r, 1, 0)->axis[2], 30, 0);
	assert_float_equal(op_at(&r, 1, 0)->dx, 700, 0);
	assert_int_equal(ut_evstream_dropped(s), 0);
	ut_evstream_destroy(s);
	libevdev_free(caps);
}

static void
test_protocol_a_equals_b(void **state)
{
	struct libevdev *caps_b = new_caps(CAPS_B);
	struct libevdev *caps_a = new_caps(0);
	struct libevdev *caps_a_ids = new_caps(CAPS_TRACKING);
	struct rec *rb = calloc(3, sizeof(*rb));
	struct rec *ra = rb + 1, *rai = rb + 2;
	struct ut_evstream *s;

	assert_non_null(rb);
	s = new_stream(caps_b, NULL, rb);
	play_b(s);
	ut_evstream_destroy(s);
	s = new_stream(caps_a, NULL, ra);
	play_a(s, 0);
	ut_evstream_destroy(s);
	s = new_stream(caps_a_ids, NULL, rai);
	play_a(s, 1);
	ut_evstream_destroy(s);

	assert_string_equal(seq(rb), "B1|U1 B2|U1 U2|U1 U2 B3|E1 U2 U3|E2 U3|B4 U3|E4 E3");
	check_same_frames(ra, rb);
	check_same_frames(rai, rb);
	free(rb);
	libevdev_free(caps_b);
	libevdev_free(caps_a);
	libevdev_free(caps_a_ids);
}

/* ------------------------------------------------------------------ */
/* Creation and NULL safety                                            */

static void
test_new_and_null_safety(void **state)
{
	struct libevdev *no_x = new_caps(CAPS_B | CAPS_NO_X);
	struct libevdev *no_y = new_caps(CAPS_B | CAPS_NO_Y);
	struct libevdev *caps = new_caps(CAPS_B);
	struct rec r = { 0 };
	struct ut_evstream *s;
	struct input_event ev;

	errno = 0;
	assert_null(ut_evstream_new(no_x, NULL, collect, &r));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(ut_evstream_new(no_y, NULL, collect, &r));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(ut_evstream_new(NULL, NULL, collect, &r));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(ut_evstream_new(caps, NULL, NULL, &r));
	assert_int_equal(errno, EINVAL);

	ut_evstream_destroy(NULL);
	memset(&ev, 0, sizeof(ev));
	ev.type = EV_SYN;
	ut_evstream_push(NULL, &ev);
	assert_int_equal(ut_evstream_protocol(NULL), 0);
	assert_int_equal(ut_evstream_is_direct(NULL), 0);

	/* NULL options: detection and the default screen */
	s = new_stream(caps, NULL, &r);
	ut_evstream_push(s, NULL);
	b_down(s, T(1), 0, 1, 1100, 1000);
	ut_evstream_push(s, NULL);
	syn(s, T(1));
	assert_string_equal(seq(&r), "B1");
	check_pos(op_at(&r, 0, 0), 1100, 1000, 512, 500);
	assert_int_equal(ut_evstream_is_direct(s), 1);
	ut_evstream_destroy(s);

	libevdev_free(no_x);
	libevdev_free(no_y);
	libevdev_free(caps);
}

/* ------------------------------------------------------------------ */
/* The framer                                                          */

static void
check_axis(UFDevice d, UFAxisType type, float min, float max, float res)
{
	UFAxis a = NULL;

	assert_int_equal(frame_device_get_axis_by_type(d, type, &a), UFStatusSuccess);
	assert_non_null(a);
	assert_int_equal(frame_axis_get_type(a), type);
	assert_float_equal(frame_axis_get_minimum(a), min, 0);
	assert_float_equal(frame_axis_get_maximum(a), max, 0);
	assert_float_equal(frame_axis_get_resolution(a), res, 0);
}

static void
test_framer_device(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B | CAPS_EXTRA);
	struct ut_device_opts o = { .name = NULL, .direct = 1, .window_res = 3779.5f };
	UFBackendDevice bd = ut_framer_device_new(caps, &o);
	UFDevice d;
	const char *name = NULL;
	int direct = -1, semi = -1, indep = -1;
	unsigned int touches = 0, naxes = 0;
	float res = 0;
	UFAxis a = NULL;

	assert_non_null(bd);
	d = frame_backend_device_get_device(bd);
	assert_non_null(d);
	assert_int_equal(frame_device_get_property(d, UFDevicePropertyName, &name),
			 UFStatusSuccess);
	assert_string_equal(name, "Test Touch");
	assert_int_equal(frame_device_get_property(d, UFDevicePropertyDirect, &direct),
			 UFStatusSuccess);
	assert_int_equal(direct, 1);
	assert_int_equal(frame_device_get_property(d, UFDevicePropertyIndependent, &indep),
			 UFStatusSuccess);
	assert_int_equal(indep, 0);
	assert_int_equal(frame_device_get_property(d, UFDevicePropertySemiMT, &semi),
			 UFStatusSuccess);
	assert_int_equal(semi, 0);
	assert_int_equal(frame_device_get_property(d, UFDevicePropertyMaxTouches, &touches),
			 UFStatusSuccess);
	assert_int_equal(touches, 10);
	assert_int_equal(frame_device_get_property(d, UFDevicePropertyWindowResolutionX, &res),
			 UFStatusSuccess);
	assert_float_equal(res, 3779.5f, 0);
	assert_float_equal(frame_device_get_window_resolution_y(d), 3779.5f, 0);

	/* X, Y, TouchMajor, TrackingId, Pressure; not the slot */
	assert_int_equal(frame_device_get_property(d, UFDevicePropertyNumAxes, &naxes),
			 UFStatusSuccess);
	assert_int_equal(naxes, 5);
	assert_int_equal(frame_device_get_num_axes(d), 5);
	check_axis(d, UFAxisTypeX, XMIN, XMAX, XRES * 1000.f);
	check_axis(d, UFAxisTypeY, YMIN, YMAX, YRES * 1000.f);
	check_axis(d, UFAxisTypeTouchMajor, 0, 50, 0);
	check_axis(d, UFAxisTypeTrackingId, 0, 65535, 0);
	check_axis(d, UFAxisTypePressure, 0, 255, 0);
	assert_int_equal(frame_device_get_axis_by_type(d, UFAxisTypeDistance, &a),
			 UFStatusErrorInvalidAxis);
	assert_int_equal(frame_device_get_axis_by_index(d, 4, &a), UFStatusSuccess);
	assert_int_equal(frame_axis_get_type(a), UFAxisTypePressure);
	frame_backend_device_delete(bd);
	libevdev_free(caps);

	/* protocol A, semi-MT, indirect, a given name, no window resolution */
	caps = new_caps(0);
	assert_int_equal(libevdev_enable_property(caps, INPUT_PROP_SEMI_MT), 0);
	o.name = "Given Name";
	o.direct = 0;
	o.window_res = 0;
	bd = ut_framer_device_new(caps, &o);
	assert_non_null(bd);
	d = frame_backend_device_get_device(bd);
	assert_int_equal(frame_device_get_property(d, UFDevicePropertyName, &name),
			 UFStatusSuccess);
	assert_string_equal(name, "Given Name");
	assert_int_equal(frame_device_get_property(d, UFDevicePropertyDirect, &direct),
			 UFStatusSuccess);
	assert_int_equal(direct, 0);
	assert_int_equal(frame_device_get_property(d, UFDevicePropertySemiMT, &semi),
			 UFStatusSuccess);
	assert_int_equal(semi, 1);
	assert_int_equal(frame_device_get_property(d, UFDevicePropertyMaxTouches, &touches),
			 UFStatusSuccess);
	assert_int_equal(touches, 64);
	assert_float_equal(frame_device_get_window_resolution_x(d), 0, 0);
	assert_int_equal(frame_device_get_num_axes(d), 2);
	frame_backend_device_delete(bd);

	/* no name anywhere */
	libevdev_set_name(caps, "");
	o.name = NULL;
	bd = ut_framer_device_new(caps, &o);
	assert_non_null(bd);
	d = frame_backend_device_get_device(bd);
	assert_int_equal(frame_device_get_property(d, UFDevicePropertyName, &name),
			 UFStatusSuccess);
	assert_string_equal(name, "utouch device");
	frame_backend_device_delete(bd);
	libevdev_free(caps);
}

static struct ut_touch_op
mkop(enum ut_op_kind kind, uint32_t id, float dx, float dy)
{
	struct ut_touch_op op;

	memset(&op, 0, sizeof(op));
	op.kind = kind;
	op.id = id;
	op.dx = dx;
	op.dy = dy;
	op.wx = dx / 2;
	op.wy = dy / 4;
	op.axis_mask = 0x3u;
	op.axis[0] = dx;
	op.axis[1] = dy;
	return op;
}

static UFFrame
frame_of(UFEvent ev, uint64_t time_ms)
{
	UFFrame fr = NULL;
	UFEventType type = UFEventTypeDeviceAdded;
	uint64_t t = 0;

	assert_non_null(ev);
	assert_int_equal(frame_event_get_property(ev, UFEventPropertyType, &type),
			 UFStatusSuccess);
	assert_int_equal(type, UFEventTypeFrame);
	assert_int_equal(frame_event_get_property(ev, UFEventPropertyTime, &t),
			 UFStatusSuccess);
	assert_int_equal(t, time_ms);
	assert_int_equal(frame_event_get_property(ev, UFEventPropertyFrame, &fr),
			 UFStatusSuccess);
	assert_non_null(fr);
	return fr;
}

static UFTouch
touch_of(UFFrame fr, UFTouchId id, UFTouchState st, uint64_t time_ms)
{
	UFTouch t = NULL;

	assert_int_equal(frame_frame_get_touch_by_id(fr, id, &t), UFStatusSuccess);
	assert_non_null(t);
	assert_int_equal(frame_touch_get_id(t), id);
	assert_int_equal(frame_touch_get_state(t), st);
	assert_int_equal(frame_touch_get_time(t), time_ms);
	return t;
}

static int
touch_flag(UFTouch t, UFTouchProperty p)
{
	int v = -1;

	assert_int_equal(frame_touch_get_property(t, p, &v), UFStatusSuccess);
	return v;
}

static unsigned int
frame_uint(UFFrame fr, UFFrameProperty p)
{
	unsigned int v = 12345;

	assert_int_equal(frame_frame_get_property(fr, p, &v), UFStatusSuccess);
	return v;
}

static void
test_framer_build(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct ut_device_opts dopts = { .direct = 1 };
	UFBackendDevice bd = ut_framer_device_new(caps, &dopts);
	struct ut_frame_builder f;
	struct ut_touch_op ops[4];
	UFEvent ev;
	UFFrame fr;
	UFTouch t;
	UFWindowId win = 0;
	float v = 0;

	assert_non_null(bd);
	ut_frame_builder_init(&f, bd, 42, 0);
	assert_null(f.prev);

	/* two begins */
	ops[0] = mkop(UT_OP_BEGIN, 1, 100, 200);
	ops[0].axis_mask |= 1u << UFAxisTypePressure;
	ops[0].axis[UFAxisTypePressure] = 50;
	ops[0].axis[UFAxisTypeTouchMajor] = 9; /* not in the mask */
	ops[1] = mkop(UT_OP_BEGIN, 2, 300, 400);
	ev = ut_framer_build(&f, 10, ops, 2);
	fr = frame_of(ev, 10);
	assert_ptr_equal(frame_frame_get_device(fr), frame_backend_device_get_device(bd));
	assert_int_equal(frame_frame_get_property(fr, UFFramePropertyWindowId, &win),
			 UFStatusSuccess);
	assert_int_equal(win, 42);
	assert_int_equal(frame_frame_get_num_touches(fr), 2);
	assert_int_equal(frame_uint(fr, UFFramePropertyActiveTouches), 2);
	t = touch_of(fr, 1, UFTouchStateBegin, 10);
	assert_int_equal(frame_touch_get_start_time(t), 10);
	assert_float_equal(frame_touch_get_window_x(t), 50, 0);
	assert_float_equal(frame_touch_get_window_y(t), 50, 0);
	assert_float_equal(frame_touch_get_device_x(t), 100, 0);
	assert_float_equal(frame_touch_get_device_y(t), 200, 0);
	assert_int_equal(frame_touch_get_value(t, UFAxisTypePressure, &v), UFStatusSuccess);
	assert_float_equal(v, 50, 0);
	assert_int_equal(frame_touch_get_value(t, UFAxisTypeTouchMajor, &v),
			 UFStatusErrorInvalidAxis);
	assert_int_equal(touch_flag(t, UFTouchPropertyOwned), 0);
	assert_int_equal(touch_flag(t, UFTouchPropertyPendingEnd), 0);
	t = touch_of(fr, 2, UFTouchStateBegin, 10);
	assert_float_equal(frame_touch_get_device_x(t), 300, 0);
	frame_event_unref(ev);
	assert_non_null(f.prev);

	/* touch 1 moves; touch 2 is carried over unchanged */
	ops[0] = mkop(UT_OP_UPDATE, 1, 110, 220);
	ev = ut_framer_build(&f, 20, ops, 1);
	fr = frame_of(ev, 20);
	assert_int_equal(frame_frame_get_num_touches(fr), 2);
	t = touch_of(fr, 1, UFTouchStateUpdate, 20);
	assert_float_equal(frame_touch_get_device_x(t), 110, 0);
	assert_float_equal(frame_touch_get_window_y(t), 55, 0);
	assert_int_equal(frame_touch_get_start_time(t), 10);
	/* the pressure stays from the begin */
	assert_int_equal(frame_touch_get_value(t, UFAxisTypePressure, &v), UFStatusSuccess);
	assert_float_equal(v, 50, 0);
	t = touch_of(fr, 2, UFTouchStateUpdate, 10);
	assert_float_equal(frame_touch_get_device_x(t), 300, 0);
	assert_float_equal(frame_touch_get_window_x(t), 150, 0);
	frame_event_unref(ev);

	/* ownership, a pending end, and operations on unknown touches */
	ops[0] = mkop(UT_OP_OWN, 2, 0, 0);
	ops[1] = mkop(UT_OP_PENDING_END, 1, 120, 240);
	ops[2] = mkop(UT_OP_UPDATE, 77, 1, 1);
	ops[3] = mkop(UT_OP_END, 78, 1, 1);
	ev = ut_framer_build(&f, 30, ops, 4);
	fr = frame_of(ev, 30);
	assert_int_equal(frame_frame_get_num_touches(fr), 2);
	assert_int_equal(frame_frame_get_touch_by_id(fr, 77, &t), UFStatusErrorInvalidTouch);
	assert_int_equal(frame_frame_get_touch_by_id(fr, 78, &t), UFStatusErrorInvalidTouch);
	t = touch_of(fr, 2, UFTouchStateUpdate, 30);
	assert_int_equal(touch_flag(t, UFTouchPropertyOwned), 1);
	assert_int_equal(touch_flag(t, UFTouchPropertyPendingEnd), 0);
	/* ownership leaves the values alone */
	assert_float_equal(frame_touch_get_device_x(t), 300, 0);
	t = touch_of(fr, 1, UFTouchStateUpdate, 30);
	assert_int_equal(touch_flag(t, UFTouchPropertyOwned), 0);
	assert_int_equal(touch_flag(t, UFTouchPropertyPendingEnd), 1);
	assert_float_equal(frame_touch_get_device_x(t), 120, 0);
	frame_event_unref(ev);

	/* the end: state End in this frame, gone from the next */
	ops[0] = mkop(UT_OP_END, 1, 125, 245);
	ev = ut_framer_build(&f, 40, ops, 1);
	fr = frame_of(ev, 40);
	assert_int_equal(frame_frame_get_num_touches(fr), 2);
	assert_int_equal(frame_uint(fr, UFFramePropertyActiveTouches), 2);
	t = touch_of(fr, 1, UFTouchStateEnd, 40);
	assert_float_equal(frame_touch_get_device_x(t), 125, 0);
	assert_int_equal(touch_flag(t, UFTouchPropertyPendingEnd), 1);
	frame_event_unref(ev);

	ev = ut_framer_build(&f, 50, NULL, 0);
	fr = frame_of(ev, 50);
	assert_int_equal(frame_frame_get_num_touches(fr), 1);
	assert_int_equal(frame_uint(fr, UFFramePropertyActiveTouches), 1);
	assert_int_equal(frame_frame_get_touch_by_id(fr, 1, &t), UFStatusErrorInvalidTouch);
	t = touch_of(fr, 2, UFTouchStateUpdate, 30);
	assert_int_equal(touch_flag(t, UFTouchPropertyOwned), 1);
	/* an op on an ended touch changes nothing */
	frame_event_unref(ev);
	ops[0] = mkop(UT_OP_OWN, 1, 0, 0);
	ev = ut_framer_build(&f, 60, ops, 1);
	fr = frame_of(ev, 60);
	assert_int_equal(frame_frame_get_num_touches(fr), 1);
	assert_int_equal(frame_frame_get_touch_by_id(fr, 1, &t), UFStatusErrorInvalidTouch);
	frame_event_unref(ev);

	ut_frame_builder_fini(&f);
	assert_null(f.prev);
	ut_frame_builder_fini(&f);

	/* new touches start owned when asked to */
	ut_frame_builder_init(&f, bd, 7, 1);
	ops[0] = mkop(UT_OP_BEGIN, 9, 1, 2);
	ev = ut_framer_build(&f, 70, ops, 1);
	fr = frame_of(ev, 70);
	assert_int_equal(frame_frame_get_window_id(fr), 7);
	t = touch_of(fr, 9, UFTouchStateBegin, 70);
	assert_int_equal(touch_flag(t, UFTouchPropertyOwned), 1);
	ut_frame_builder_fini(&f);
	/* the event keeps its frame after the framer let go */
	assert_int_equal(frame_frame_get_num_touches(fr), 1);
	frame_event_unref(ev);

	frame_backend_device_delete(bd);
	libevdev_free(caps);
}

/* A begin for an id the frame already holds changes nothing (and the
 * refused touch is freed: run under ASan). */
static void
test_framer_duplicate_begin(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct ut_device_opts dopts = { .direct = 1 };
	UFBackendDevice bd = ut_framer_device_new(caps, &dopts);
	struct ut_frame_builder f;
	struct ut_touch_op ops[2];
	UFEvent ev;
	UFFrame fr;
	UFTouch t;

	assert_non_null(bd);
	ut_frame_builder_init(&f, bd, 3, 0);
	ops[0] = mkop(UT_OP_BEGIN, 1, 100, 200);
	ops[1] = mkop(UT_OP_BEGIN, 1, 5, 6);
	ev = ut_framer_build(&f, 10, ops, 2);
	fr = frame_of(ev, 10);
	assert_int_equal(frame_frame_get_num_touches(fr), 1);
	t = touch_of(fr, 1, UFTouchStateBegin, 10);
	assert_float_equal(frame_touch_get_device_x(t), 100, 0);
	frame_event_unref(ev);

	ops[0] = mkop(UT_OP_BEGIN, 1, 7, 8);
	ev = ut_framer_build(&f, 20, ops, 1);
	fr = frame_of(ev, 20);
	assert_int_equal(frame_frame_get_num_touches(fr), 1);
	t = touch_of(fr, 1, UFTouchStateUpdate, 10);
	assert_float_equal(frame_touch_get_device_x(t), 100, 0);
	assert_int_equal(frame_touch_get_start_time(t), 10);
	frame_event_unref(ev);

	ut_frame_builder_fini(&f);
	frame_backend_device_delete(bd);
	libevdev_free(caps);
}

/* ------------------------------------------------------------------ */
/* evstream -> framer                                                  */

struct pipe {
	struct ut_frame_builder f;
	UFEvent last;
	unsigned int nframes;
};

static void
to_framer(void *data, uint64_t usec, const struct ut_touch_op *ops, size_t nops)
{
	struct pipe *p = data;

	if (p->last)
		frame_event_unref(p->last);
	p->last = ut_framer_build(&p->f, usec / 1000u, ops, nops);
	assert_non_null(p->last);
	p->nframes++;
}

static void
test_pipeline_manual_ownership(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct ut_device_opts dopts = { .direct = 1 };
	UFBackendDevice bd = ut_framer_device_new(caps, &dopts);
	struct ut_evstream_opts o = { .own = UT_OWN_MANUAL };
	struct pipe p = { 0 };
	struct ut_evstream *s;
	UFFrame fr;
	UFTouch t;

	assert_non_null(bd);
	ut_frame_builder_init(&p.f, bd, 5, 0);
	s = ut_evstream_new(caps, &o, to_framer, &p);
	assert_non_null(s);

	b_down(s, T(1), 0, 1, 1100, 1000);
	syn(s, T(1));
	fr = frame_of(p.last, T(1) / 1000u);
	t = touch_of(fr, 1, UFTouchStateBegin, T(1) / 1000u);
	assert_float_equal(frame_touch_get_window_x(t), 512, 1e-3);
	assert_float_equal(frame_touch_get_window_y(t), 500, 1e-3);
	assert_int_equal(touch_flag(t, UFTouchPropertyOwned), 0);

	b_up(s, T(2), 0);
	syn(s, T(2));
	fr = frame_of(p.last, T(2) / 1000u);
	t = touch_of(fr, 1, UFTouchStateUpdate, T(2) / 1000u);
	assert_int_equal(touch_flag(t, UFTouchPropertyPendingEnd), 1);
	assert_int_equal(touch_flag(t, UFTouchPropertyOwned), 0);

	assert_int_equal(ut_evstream_grant(s, 1, T(3)), 0);
	assert_int_equal(p.nframes, 4);
	fr = frame_of(p.last, T(3) / 1000u);
	t = touch_of(fr, 1, UFTouchStateEnd, T(3) / 1000u);
	assert_int_equal(touch_flag(t, UFTouchPropertyOwned), 1);

	b_down(s, T(4), 0, 2, 600, 300);
	syn(s, T(4));
	fr = frame_of(p.last, T(4) / 1000u);
	assert_int_equal(frame_frame_get_num_touches(fr), 1);
	touch_of(fr, 2, UFTouchStateBegin, T(4) / 1000u);

	ut_evstream_destroy(s);
	frame_event_unref(p.last);
	ut_frame_builder_fini(&p.f);
	frame_backend_device_delete(bd);
	libevdev_free(caps);
}

/* End of input: the ends ut_evstream_end_all() makes are cut off, the
 * lifts before it and the changes of the report it closes are not. */
static void
test_end_all_cut_off(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct libevdev *caps_a = new_caps(0);
	struct rec r = { 0 };
	struct ut_evstream *s = new_stream(caps, NULL, &r);

	(void)state;
	b_down(s, T(1), 0, 10, 500, 500);
	b_down(s, T(1), 1, 11, 900, 900);
	b_down(s, T(1), 2, 12, 1300, 900);
	syn(s, T(1));
	b_up(s, T(2), 0);
	syn(s, T(2));
	/* a report in progress: touch 2 moved, no SYN_REPORT yet */
	b_move(s, T(3), 1, 950, 900);
	assert_int_equal(ut_evstream_end_all(s, T(3)), 2);
	/* touch 2 ends where the report in progress moved it */
	assert_string_equal(seq(&r), "B1 B2 B3|E1|E2 E3");
	assert_int_equal(op_at(&r, 1, 0)->cut_off, 0);   /* a lift */
	check_pos(op_at(&r, 2, 0), 950, 900, 435.2f, 450);
	assert_int_equal(op_at(&r, 2, 0)->cut_off, 1);
	assert_int_equal(op_at(&r, 2, 1)->cut_off, 1);
	for (size_t k = 0; k < r.count[0]; k++)
		assert_int_equal(op_at(&r, 0, k)->cut_off, 0);
	/* the stream goes on: later lifts are lifts again */
	b_down(s, T(4), 0, 13, 500, 500);
	syn(s, T(4));
	b_up(s, T(5), 0);
	syn(s, T(5));
	assert_string_equal(seq_from(&r, 3), "B4|E4");
	assert_int_equal(op_at(&r, 4, 0)->cut_off, 0);
	assert_int_equal(ut_evstream_end_all(s, T(6)), 0);
	assert_int_equal(r.nframes, 5);
	ut_evstream_destroy(s);

	/* protocol A */
	memset(&r, 0, sizeof(r));
	s = new_stream(caps_a, NULL, &r);
	a_contact(s, T(1), -1, 600, 300);
	a_contact(s, T(1), -1, 1100, 1000);
	syn(s, T(1));
	assert_int_equal(ut_evstream_end_all(s, T(2)), 2);
	assert_string_equal(seq(&r), "B1 B2|E1 E2");
	assert_int_equal(op_at(&r, 1, 0)->cut_off, 1);
	assert_int_equal(op_at(&r, 1, 1)->cut_off, 1);
	ut_evstream_destroy(s);

	/* manual ownership: a cut-off pending end, and its end at the grant */
	struct ut_evstream_opts o = { .own = UT_OWN_MANUAL };
	memset(&r, 0, sizeof(r));
	s = new_stream(caps, &o, &r);
	b_down(s, T(1), 0, 10, 500, 500);
	syn(s, T(1));
	assert_int_equal(ut_evstream_end_all(s, T(2)), 1);
	assert_int_equal(ut_evstream_grant(s, 1, T(3)), 0);
	assert_string_equal(seq(&r), "B1|P1|O1|E1");
	assert_int_equal(op_at(&r, 1, 0)->cut_off, 1);
	assert_int_equal(op_at(&r, 2, 0)->cut_off, 0);
	assert_int_equal(op_at(&r, 3, 0)->cut_off, 1);
	ut_evstream_destroy(s);
	libevdev_free(caps_a);
	libevdev_free(caps);
}

/* The framer marks the frame of a cut-off end (frame-peer.h,
 * ut_frame_cut_off()); no other frame. */
static void
test_pipeline_cut_off(void **state)
{
	struct libevdev *caps = new_caps(CAPS_B);
	struct ut_device_opts dopts = { .direct = 1 };
	UFBackendDevice bd = ut_framer_device_new(caps, &dopts);
	struct pipe p = { 0 };
	struct ut_evstream *s;
	UFFrame fr;

	(void)state;
	assert_non_null(bd);
	ut_frame_builder_init(&p.f, bd, 5, 1);
	s = ut_evstream_new(caps, NULL, to_framer, &p);
	assert_non_null(s);

	b_down(s, T(1), 0, 1, 1100, 1000);
	b_down(s, T(1), 1, 2, 600, 1000);
	syn(s, T(1));
	assert_false(ut_frame_cut_off(frame_of(p.last, T(1) / 1000u)));
	b_up(s, T(2), 0);
	syn(s, T(2));
	fr = frame_of(p.last, T(2) / 1000u);
	touch_of(fr, 1, UFTouchStateEnd, T(2) / 1000u);
	assert_false(ut_frame_cut_off(fr));
	assert_int_equal(ut_evstream_end_all(s, T(3)), 1);
	assert_int_equal(p.nframes, 3);
	fr = frame_of(p.last, T(3) / 1000u);
	touch_of(fr, 2, UFTouchStateEnd, T(3) / 1000u);
	assert_true(ut_frame_cut_off(fr));
	/* the next frame starts unmarked */
	b_down(s, T(4), 0, 3, 600, 300);
	syn(s, T(4));
	assert_false(ut_frame_cut_off(frame_of(p.last, T(4) / 1000u)));

	ut_evstream_destroy(s);
	frame_event_unref(p.last);
	ut_frame_builder_fini(&p.f);
	frame_backend_device_delete(bd);
	libevdev_free(caps);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_b_lifecycle),
		cmocka_unit_test(test_b_frame_time),
		cmocka_unit_test(test_b_all_axes_change),
		cmocka_unit_test(test_b_touch_begins_and_ends_in_one_report),
		cmocka_unit_test(test_b_tracking_id_change),
		cmocka_unit_test(test_b_release_and_reuse_in_one_report),
		cmocka_unit_test(test_b_begin_and_reuse_in_one_report),
		cmocka_unit_test(test_b_bad_slots_and_other_events),
		cmocka_unit_test(test_scaling),
		cmocka_unit_test(test_direct_detection),
		cmocka_unit_test(test_orderings),
		cmocka_unit_test(test_own_begin),
		cmocka_unit_test(test_own_event_split),
		cmocka_unit_test(test_own_event_report),
		cmocka_unit_test(test_own_manual),
		cmocka_unit_test(test_own_manual_waiting_full),
		cmocka_unit_test(test_protocol_a_without_ids),
		cmocka_unit_test(test_protocol_a_with_ids),
		cmocka_unit_test(test_protocol_a_too_many_contacts),
		cmocka_unit_test(test_protocol_a_too_many_contacts_with_ids),
		cmocka_unit_test(test_protocol_a_missing_axis),
		cmocka_unit_test(test_protocol_a_equals_b),
		cmocka_unit_test(test_new_and_null_safety),
		cmocka_unit_test(test_framer_device),
		cmocka_unit_test(test_framer_build),
		cmocka_unit_test(test_framer_duplicate_begin),
		cmocka_unit_test(test_pipeline_manual_ownership),
		cmocka_unit_test(test_end_all_cut_off),
		cmocka_unit_test(test_pipeline_cut_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
