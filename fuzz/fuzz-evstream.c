/*
 * libFuzzer target for the evdev event path: raw `struct input_event`s of a
 * protocol A or protocol B device, with any capabilities and stream
 * options, go
 *
 * - straight into ut_evstream (protocol A through libmtdev), each frame of
 *   operations into ut_framer_build(), or
 * - through a pipe into the live module's raw stream reader
 *   (ut_evdev_live_add_fd), which reads them like a device node and ends
 *   every touch when the writer closes the pipe.
 *
 * Input: a header of 8 bytes, then records of 7 bytes (see read_header and
 * next_event).  Checked after every frame:
 *
 * - every frame has operations; a touch id begins once and gets no
 *   operation after its end except ownership (for a touch that began and
 *   ended in one report); updates, ends and pending ends name a live touch;
 * - no more touches are down than the stream has slots, and no more wait
 *   with a pending end for their grant (none is ever granted here) than
 *   that either;
 * - protocol B frames carry the time of the event that closed them;
 * - the framer builds a frame for every frame of operations;
 * - on the live path, the stream is removed at end of input and no touch
 *   is left without its end.
 *
 * Hangs (libmtdev never returns on a report of 32 contacts) show as
 * libFuzzer timeouts; the sanitizers catch the rest.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libevdev/libevdev.h>
#include <oif/frame.h>
#include <oif/frame_backend.h>

#include "geis/evdev-live.h"
#include "input/evdev/evstream.h"
#include "input/evdev/framer.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_NAME "fuzz-evstream"
#define FUZZ_TRACE_ENV "FUZZ_EVSTREAM_TRACE"
#include "fuzz-common.h"

#define MAX_IDS 4096
#define MAX_EVENTS 2048

/* what the target knows about the touches it was told about */
struct model {
	uint8_t live[MAX_IDS];   /* 1 while begun and not ended */
	uint8_t seen[MAX_IDS];   /* 1 once begun */
	uint8_t pending[MAX_IDS]; /* 1 between its pending end and its end */
	int nlive;
	int npending;
	char protocol;
	uint64_t last_usec;      /* time of the event pushed last */
	struct ut_frame_builder framer;
	int have_framer;
	int removed;
};

static void
check_ops(struct model *m, uint64_t usec, const struct ut_touch_op *ops, size_t nops)
{
	CHECK(nops > 0, "a frame without operations");
	if (m->protocol == 'B')
		CHECK(usec == m->last_usec, "frame time %llu, closing event %llu",
		      (unsigned long long)usec, (unsigned long long)m->last_usec);
	for (size_t i = 0; i < nops; i++) {
		uint32_t id = ops[i].id;

		trace("  op %d id %u", (int)ops[i].kind, id);
		CHECK(id > 0 && id < MAX_IDS, "touch id %u out of range", id);
		switch (ops[i].kind) {
		case UT_OP_BEGIN:
			CHECK(!m->seen[id], "touch id %u begins twice", id);
			m->seen[id] = 1;
			m->live[id] = 1;
			m->nlive++;
			break;
		case UT_OP_END:
			CHECK(m->live[id], "end of touch %u that is not live", id);
			m->live[id] = 0;
			m->nlive--;
			m->npending -= m->pending[id];
			m->pending[id] = 0;
			break;
		case UT_OP_OWN:
			/* a touch that began and ended in one report gets its
			 * ownership after its end, as in the reference harness
			 * (the framer ignores it) */
			CHECK(m->seen[id], "ownership of touch %u that never began", id);
			break;
		case UT_OP_PENDING_END:
			CHECK(m->live[id] && !m->pending[id],
			      "pending end of touch %u that is not down", id);
			m->pending[id] = 1;
			m->npending++;
			break;
		case UT_OP_UPDATE:
			CHECK(m->live[id] && !m->pending[id],
			      "update of touch %u that is not down", id);
			break;
		default:
			fail("unknown operation kind %d", (int)ops[i].kind);
		}
	}
	/* a touch with a pending end has left its slot; at most
	 * UT_EVSTREAM_MAX_SLOTS of them wait for their grant */
	CHECK(m->nlive - m->npending <= UT_EVSTREAM_MAX_SLOTS, "%d touches down",
	      m->nlive - m->npending);
	CHECK(m->npending <= UT_EVSTREAM_MAX_SLOTS, "%d pending ends", m->npending);
}

static void
on_frame(void *data, uint64_t usec, const struct ut_touch_op *ops, size_t nops)
{
	struct model *m = data;
	UFEvent ev;

	check_ops(m, usec, ops, nops);
	if (!m->have_framer)
		return;
	ev = ut_framer_build(&m->framer, usec / 1000, ops, nops);
	CHECK(ev != NULL, "the framer built no frame");
	frame_event_unref(ev);
}

/* ------------------------------------------------------------------ */
/* input                                                               */

struct setup {
	struct libevdev *caps;
	struct ut_evstream_opts opts;
	int live_path;
};

static void
enable_abs(struct libevdev *d, unsigned int code, int32_t min, int32_t max)
{
	struct input_absinfo a;

	memset(&a, 0, sizeof(a));
	a.minimum = min;
	a.maximum = max;
	a.resolution = 10;
	libevdev_enable_event_code(d, EV_ABS, code, &a);
}

/* flags, own mode and slot count, x/y ranges */
static void
read_header(struct reader *r, struct setup *st)
{
	uint8_t flags = u8(r), b = u8(r);
	int16_t xmin = (int16_t)u16(r), xmax = (int16_t)u16(r);
	uint16_t ymax = u16(r);

	st->caps = libevdev_new();
	CHECK(st->caps != NULL, "libevdev_new");
	libevdev_set_name(st->caps, "fuzz");
	enable_abs(st->caps, ABS_MT_POSITION_X, xmin, xmax);
	enable_abs(st->caps, ABS_MT_POSITION_Y, 0, ymax);
	if (flags & 0x01)
		enable_abs(st->caps, ABS_MT_SLOT, 0, b >> 2);
	if (flags & 0x02)
		enable_abs(st->caps, ABS_MT_TRACKING_ID, 0, 65535);
	if (flags & 0x04) {
		enable_abs(st->caps, ABS_MT_TOUCH_MAJOR, 0, 255);
		enable_abs(st->caps, ABS_MT_PRESSURE, 0, 255);
		enable_abs(st->caps, ABS_MT_ORIENTATION, -90, 90);
	}
	memset(&st->opts, 0, sizeof(st->opts));
	st->opts.split = !!(flags & 0x08);
	st->opts.reverse = !!(flags & 0x10);
	st->opts.begin_first = !!(flags & 0x20);
	st->opts.split_begins = !!(flags & 0x40);
	st->opts.own = (enum ut_own_mode)((b & 3) % 3);
	st->opts.direct = -1;
	st->live_path = !!(flags & 0x80);
}

/* One event of 7 bytes: kind, code, value (4), time step. */
static int
next_event(struct reader *r, uint64_t *usec, struct input_event *ev)
{
	uint8_t kind, code, dt;
	uint32_t value;

	if (!more(r))
		return 0;
	kind = u8(r);
	code = u8(r);
	value = u32(r);
	dt = u8(r);
	if (kind & 0x80)
		*usec = *usec > dt ? *usec - dt : 0;   /* clocks step back */
	else
		*usec += (uint64_t)dt * 100u;
	memset(ev, 0, sizeof(*ev));
	ev->input_event_sec = (time_t)(*usec / 1000000u);
	ev->input_event_usec = (suseconds_t)(*usec % 1000000u);
	switch (kind & 7) {
	case 0:
		ev->type = EV_SYN;
		ev->code = SYN_REPORT;
		break;
	case 1:
		ev->type = EV_SYN;
		ev->code = SYN_MT_REPORT;
		break;
	case 2:
		ev->type = EV_ABS;
		ev->code = (uint16_t)(ABS_MT_SLOT + code % 17);
		ev->value = (int32_t)value;
		return 1;
	case 3:
	case 4:
		ev->type = EV_ABS;
		ev->code = (kind & 7) == 3 ? ABS_MT_POSITION_X : ABS_MT_POSITION_Y;
		ev->value = kind & 0x40 ? (int32_t)value : (int32_t)(value % 2048);
		return 1;
	case 5:
		ev->type = EV_ABS;
		ev->code = ABS_MT_TRACKING_ID;
		ev->value = (int32_t)(value % 64) - 1;
		break;
	case 6:
		ev->type = EV_ABS;
		ev->code = ABS_MT_SLOT;
		ev->value = kind & 0x40 ? (int32_t)value : (int32_t)(value % 70) - 2;
		break;
	default:
		ev->type = (uint16_t)(code % (EV_MAX + 1));
		ev->code = (uint16_t)(value % (KEY_MAX + 1));
		ev->value = (int32_t)(value >> 16);
		break;
	}
	return 1;
}

/* ------------------------------------------------------------------ */
/* the two paths                                                       */

static void
run_stream(struct setup *st, struct reader *r)
{
	struct model m;
	struct ut_evstream *s;
	struct input_event ev;
	UFBackendDevice dev;
	uint64_t usec = 1000000;

	memset(&m, 0, sizeof(m));
	s = ut_evstream_new(st->caps, &st->opts, on_frame, &m);
	CHECK(s != NULL, "no stream for a device with X and Y");
	m.protocol = ut_evstream_protocol(s);
	dev = ut_framer_device_new(st->caps, &(struct ut_device_opts){ .direct = 1 });
	if (dev) {
		ut_frame_builder_init(&m.framer, dev, 1, st->opts.own == UT_OWN_BEGIN);
		m.have_framer = 1;
	}
	for (int n = 0; n < MAX_EVENTS && next_event(r, &usec, &ev); n++) {
		trace("event %u %u %d at %llu", ev.type, ev.code, ev.value,
		      (unsigned long long)usec);
		m.last_usec = usec;
		ut_evstream_push(s, &ev);
	}
	ut_evstream_destroy(s);
	if (m.have_framer)
		ut_frame_builder_fini(&m.framer);
	if (dev)
		frame_backend_device_delete(dev);
}

static void
live_ops(void *data, struct ut_evdev_live_device *dev, uint64_t time_ms,
	 const struct ut_touch_op *ops, size_t nops)
{
	struct model *m = data;

	(void)dev;
	(void)time_ms;
	m->protocol = 'L'; /* the live module adds frames of its own */
	check_ops(m, 0, ops, nops);
}

static void
live_removed(void *data, struct ut_evdev_live_device *dev, UFDevice device)
{
	struct model *m = data;

	(void)dev;
	(void)device;
	m->removed = 1;
}

static void
run_live(struct setup *st, struct reader *r)
{
	struct ut_evdev_live_config cfg;
	struct ut_evdev_live_callbacks cb;
	struct ut_evdev_live *l;
	struct input_event ev;
	struct model m;
	uint64_t usec = 1000000;
	int fds[2];

	memset(&m, 0, sizeof(m));
	memset(&cfg, 0, sizeof(cfg));
	memset(&cb, 0, sizeof(cb));
	cfg.dir = "/nonexistent/utouch-fuzz";
	cb.frame_ops = live_ops;
	cb.device_removed = live_removed;
	l = ut_evdev_live_new(&cfg, &cb, &m);
	CHECK(l != NULL, "ut_evdev_live_new: %d", errno);
	CHECK(pipe(fds) == 0, "pipe");
	/* the input is small enough for the pipe's buffer */
	for (int n = 0; n < MAX_EVENTS && next_event(r, &usec, &ev); n++) {
		trace("event %u %u %d at %llu", ev.type, ev.code, ev.value,
		      (unsigned long long)usec);
		CHECK(write(fds[1], &ev, sizeof(ev)) == (ssize_t)sizeof(ev), "write");
	}
	close(fds[1]);
	if (ut_evdev_live_add_fd(l, fds[0], st->caps, "fuzz")) {
		for (int i = 0; i < 1000 && !m.removed; i++)
			ut_evdev_live_dispatch(l);
		CHECK(m.removed, "the stream was not removed at end of input");
		CHECK(m.nlive == 0, "%d touches never ended", m.nlive);
	}
	ut_evdev_live_destroy(l);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reader r = { data, size, 0 };
	struct setup st;

	if (size > 8 + 7 * MAX_EVENTS)
		return 0;
	read_header(&r, &st);
	if (st.live_path)
		run_live(&st, &r);
	else
		run_stream(&st, &r);
	libevdev_free(st.caps);
	return 0;
}
