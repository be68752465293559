/*
 * The touch proxy: hold, consume, forward and replay touches between a
 * grabbed device and its clone; see geis-proxy.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <libevdev/libevdev.h>
#include <utouch/frame_handle.h>

#include "geis-private.h"
#include "geis-proxy.h"
#include "geis-router.h"
#include "proxy-output.h"
#include "util/clock.h"

/* positions a held touch keeps; a longer hold keeps every other one */
#define HIST 32
/* windows that may have to decide one touch */
#define MAX_WINDOWS 8
/* touches followed at once (live and held); more than a device reports */
#define MAX_TOUCHES (2 * UT_EVSTREAM_MAX_SLOTS)
/* events of one report: every slot with every axis, plus the rest */
#define MAX_REPORT (UT_EVSTREAM_MAX_SLOTS * (UT_OP_NUM_AXES + 2) + 64)
/* the axis index of ABS_MT_TRACKING_ID: the clone numbers its own */
#define AXIS_TRACKING 9

/* UFAxisType index -> ABS_MT_* code (evstream.c maps the other way) */
static const unsigned int axis_code[UT_OP_NUM_AXES] = {
	ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TOUCH_MAJOR, ABS_MT_TOUCH_MINOR,
	ABS_MT_WIDTH_MAJOR, ABS_MT_WIDTH_MINOR, ABS_MT_ORIENTATION, ABS_MT_TOOL_TYPE,
	ABS_MT_BLOB_ID, ABS_MT_TRACKING_ID, ABS_MT_PRESSURE, ABS_MT_DISTANCE,
};

/* the fingers count BTN_TOOL_* codes: 1 .. 5 */
static const unsigned int tool_code[5] = {
	BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP,
	BTN_TOOL_QUINTTAP,
};

enum route {
	R_FREE = 0,
	R_HELD,       /* waiting for grail's decision */
	R_FORWARD,    /* on the clone */
	R_CONSUMED,   /* a system gesture took it */
	R_REPLAY,     /* rejected everywhere: history goes out at the next flush */
	R_BYPASS,     /* began before the grab: the desktop has it */
};

struct sample {
	uint64_t seq;    /* the frame it came in */
	enum ut_op_kind kind;
	int32_t v[UT_OP_NUM_AXES];
	uint32_t mask;
};

struct ptouch {
	enum route route;
	uint32_t id;
	UFWindowId undecided[MAX_WINDOWS];
	unsigned int nundecided;
	int slot;        /* clone slot, -1 while not on the clone */
	int ended;       /* the real touch lifted */
	struct sample hist[HIST];
	unsigned int nhist;
};

struct cslot {
	uint32_t touch;  /* 0: free */
	int32_t tid;
	int32_t v[UT_OP_NUM_AXES];
	uint32_t mask;
};

struct geis_proxy {
	Geis geis;
	UFBackendDevice device;
	struct libevdev *desc;          /* the clone's description */
	struct proxy_output *out;
	int kick_fd;                    /* eventfd: a replay is due */
	uint64_t seq;
	struct ptouch touches[MAX_TOUCHES];
	/* the clone */
	struct cslot slots[UT_EVSTREAM_MAX_SLOTS];
	int nslots;
	int cur_slot;
	int32_t next_tid;
	int btn_touch;
	unsigned int tool;               /* BTN_TOOL_* down, 0: none */
	int dev_fingers;                 /* the device's own BTN_TOOL_* count, 0: none */
	int32_t abs_x, abs_y, abs_p;
	int has_tool[5], has_btn_touch, has_abs_x, has_abs_y, has_abs_p, has_timestamp;
	uint64_t first_ms, last_ms;
	/* the report being built */
	struct input_event report[MAX_REPORT];
	size_t nreport;
	/* the device's report goes on in the next frame (split_begins):
	 * the clone's report stays open, one SYN_REPORT per device report */
	int report_open;
	int report_changed;
	uint64_t report_ms;
	/* pass-through events waiting for their report */
	struct input_event raw[64];
	size_t nraw;
	int bypass;                      /* not grabbed yet (gs_proxy_set_bypass) */
	int replay_due;
	uint64_t due_ms;                 /* when the first pending replay was decided */
	int failed;
};

/* ---- the clone's reports ---- */

static void
put(struct geis_proxy *p, unsigned int type, unsigned int code, int32_t value)
{
	if (p->nreport < MAX_REPORT - 1)
		p->report[p->nreport++] = (struct input_event){
			.type = (__u16)type, .code = (__u16)code, .value = value
		};
}

static void
put_slot(struct geis_proxy *p, int slot)
{
	if (p->cur_slot != slot && p->nslots > 1)
		put(p, EV_ABS, ABS_MT_SLOT, slot);
	p->cur_slot = slot;
}

static int32_t
rescale(const struct libevdev *d, unsigned int from, unsigned int to, int32_t v)
{
	const struct input_absinfo *a = libevdev_get_abs_info(d, from);
	const struct input_absinfo *b = libevdev_get_abs_info(d, to);

	if (!a || !b || a->maximum <= a->minimum ||
	    (a->minimum == b->minimum && a->maximum == b->maximum))
		return v;
	return b->minimum + (int32_t)lround(((double)v - a->minimum) *
					    ((double)b->maximum - b->minimum) /
					    ((double)a->maximum - a->minimum));
}

/* The fingers the clone counts for @p n touches on it.  A touchpad that
 * counts more fingers than it has slots (2 slots and BTN_TOOL_TRIPLETAP,
 * older PS/2 ones) tracks only some of them: the others go with the
 * tracked ones when every touch down on the device is the clone's, so
 * that libinput's three-finger taps and swipes still work there. */
static int
clone_fingers(const struct geis_proxy *p, int n)
{
	if (n == 0 || p->dev_fingers <= n || p->dev_fingers <= p->nslots)
		return n;
	for (int i = 0; i < MAX_TOUCHES; i++)
		if (p->touches[i].route != R_FREE && p->touches[i].route != R_FORWARD)
			return n;
	return p->dev_fingers;
}

/* the touches on the clone; *oldest (if @oldest): the slot of the
 * oldest, -1 none */
static int
clone_touches(const struct geis_proxy *p, int *oldest)
{
	int n = 0, first = -1;

	for (int s = 0; s < p->nslots; s++) {
		if (!p->slots[s].touch)
			continue;
		n++;
		if (first < 0 || p->slots[s].tid - p->slots[first].tid < 0)
			first = s;
	}
	if (oldest)
		*oldest = first;
	return n;
}

/* the BTN_TOOL_* for @p fingers: the highest the device has up to it */
static unsigned int
tool_for(const struct geis_proxy *p, int fingers)
{
	for (int i = fingers > 5 ? 4 : fingers - 1; i >= 0; i--)
		if (p->has_tool[i])
			return tool_code[i];
	return 0;
}

/* BTN_TOUCH, BTN_TOOL_*, the pointer emulation, MSC_TIMESTAMP and the
 * SYN_REPORT that end every report; then the report is written. */
static void
end_report(struct geis_proxy *p, uint64_t time_ms)
{
	int oldest;
	int n = clone_touches(p, &oldest);

	if (oldest >= 0) {
		const struct cslot *o = &p->slots[oldest];
		int32_t x = rescale(p->desc, ABS_MT_POSITION_X, ABS_X, o->v[0]);
		int32_t y = rescale(p->desc, ABS_MT_POSITION_Y, ABS_Y, o->v[1]);

		if (p->has_abs_x && x != p->abs_x)
			put(p, EV_ABS, ABS_X, p->abs_x = x);
		if (p->has_abs_y && y != p->abs_y)
			put(p, EV_ABS, ABS_Y, p->abs_y = y);
		if (p->has_abs_p && (o->mask & (1u << 10))) {
			int32_t pr = rescale(p->desc, ABS_MT_PRESSURE, ABS_PRESSURE, o->v[10]);

			if (pr != p->abs_p)
				put(p, EV_ABS, ABS_PRESSURE, p->abs_p = pr);
		}
	} else if (p->has_abs_p && p->abs_p != 0) {
		put(p, EV_ABS, ABS_PRESSURE, p->abs_p = 0);
	}
	if (p->has_btn_touch && p->btn_touch != (n > 0))
		put(p, EV_KEY, BTN_TOUCH, p->btn_touch = n > 0);
	unsigned int tool = tool_for(p, clone_fingers(p, n));

	if (tool != p->tool) {
		if (p->tool)
			put(p, EV_KEY, p->tool, 0);
		if (tool)
			put(p, EV_KEY, tool, 1);
		p->tool = tool;
	}
	for (size_t i = 0; i < p->nraw; i++)
		if (p->nreport < MAX_REPORT - 2)
			p->report[p->nreport++] = p->raw[i];
	p->nraw = 0;
	if (p->nreport == 0)
		return;
	/* the clone's clock never goes back: a replay is stamped when it
	 * leaves, and a report read after it may carry an earlier time */
	if (time_ms < p->last_ms)
		time_ms = p->last_ms;
	p->last_ms = time_ms;
	if (!p->first_ms)
		p->first_ms = time_ms;
	if (p->has_timestamp)
		put(p, EV_MSC, MSC_TIMESTAMP, (int32_t)(uint32_t)((time_ms - p->first_ms) * 1000u));
	p->report[p->nreport++] = (struct input_event){ .type = EV_SYN, .code = SYN_REPORT };
	for (size_t i = 0; i < p->nreport; i++)
		ut_input_event_set_usec(&p->report[i], time_ms * 1000u);
	int rc = proxy_output_write(p->out, p->report, p->nreport);

	p->nreport = 0;
	if (rc < 0 && !p->failed) {
		/* once, where the user sees it: what the clone lost is gone */
		p->failed = 1;
		gs_core_warning(p->geis, GEIS_STATUS_UNKNOWN_ERROR,
				"proxy: writing to the clone of \"%s\" failed: %s",
				libevdev_get_name(p->desc), strerror(-rc));
	}
}

/* Close the device's report: the clone's report goes out when a touch on
 * it changed or device events wait to pass through. */
static void
close_report(struct geis_proxy *p, uint64_t time_ms)
{
	if (p->report_changed || p->nraw)
		end_report(p, time_ms);
	p->report_changed = 0;
}

/* One sample of a touch onto the clone (begin, update or end). */
static void
emit(struct geis_proxy *p, struct ptouch *t, enum ut_op_kind kind, const int32_t *v,
     uint32_t mask)
{
	if (kind == UT_OP_BEGIN && t->slot < 0) {
		for (int s = 0; s < p->nslots && t->slot < 0; s++)
			if (!p->slots[s].touch)
				t->slot = s;
		if (t->slot < 0)
			return;   /* more touches than the device has slots: left out */
		struct cslot *c = &p->slots[t->slot];

		memset(c, 0, sizeof(*c));
		c->touch = t->id;
		c->tid = p->next_tid;
		p->next_tid = (p->next_tid + 1) & 0xffff;
		put_slot(p, t->slot);
		put(p, EV_ABS, ABS_MT_TRACKING_ID, c->tid);
		kind = UT_OP_UPDATE;
		c->mask = 0;
	}
	if (t->slot < 0)
		return;
	struct cslot *c = &p->slots[t->slot];

	if (kind == UT_OP_END) {
		put_slot(p, t->slot);
		put(p, EV_ABS, ABS_MT_TRACKING_ID, -1);
		c->touch = 0;
		t->slot = -1;
		return;
	}
	if (kind != UT_OP_UPDATE)
		return;
	for (int i = 0; i < UT_OP_NUM_AXES; i++) {
		uint32_t bit = 1u << i;

		if (i == AXIS_TRACKING || !(mask & bit) ||
		    !libevdev_has_event_code(p->desc, EV_ABS, axis_code[i]))
			continue;
		if ((c->mask & bit) && c->v[i] == v[i])
			continue;
		put_slot(p, t->slot);
		put(p, EV_ABS, axis_code[i], v[i]);
		c->v[i] = v[i];
		c->mask |= bit;
	}
}

/* ---- touches ---- */

static struct ptouch *
find(struct geis_proxy *p, uint32_t id)
{
	for (int i = 0; i < MAX_TOUCHES; i++)
		if (p->touches[i].route != R_FREE && p->touches[i].id == id)
			return &p->touches[i];
	return NULL;
}

static void
record(struct ptouch *t, uint64_t seq, enum ut_op_kind kind, const int32_t *v, uint32_t mask)
{
	if (t->nhist == HIST) {
		/* compress: keep the begin and every other later sample */
		unsigned int n = 1;

		for (unsigned int i = 2; i < HIST; i += 2)
			t->hist[n++] = t->hist[i];
		t->nhist = n;
	}
	struct sample *s = &t->hist[t->nhist++];

	s->seq = seq;
	s->kind = kind;
	s->mask = mask;
	memcpy(s->v, v, sizeof(s->v));
}

static void
kick(struct geis_proxy *p)
{
	uint64_t one = 1;

	if (!p->replay_due)
		p->due_ms = gs_now(p->geis);
	p->replay_due = 1;
	if (p->kick_fd >= 0 && write(p->kick_fd, &one, sizeof(one)) < 0) {
		/* the counter is set already */
	}
}

static void
decided_everywhere(struct geis_proxy *p, struct ptouch *t)
{
	if (t->nundecided > 0 || t->route != R_HELD)
		return;
	t->route = R_REPLAY;
	kick(p);
}

/* Replay the history of every rejected touch, interleaved by frame.  The
 * replay is stamped with the time grail released the first of them: in
 * real time the next dispatch comes within microseconds of it, and in a
 * recording's virtual time (--fast) that is when the clone gets it, not
 * whenever the next frame or dispatch comes. */
static void
flush(struct geis_proxy *p)
{
	unsigned int next[MAX_TOUCHES] = { 0 };
	uint64_t now = p->due_ms;

	/* a replay never splits a device's report; it follows it */
	if (!p->replay_due || p->report_open)
		return;
	p->replay_due = 0;
	for (;;) {
		uint64_t seq = UINT64_MAX;

		for (int i = 0; i < MAX_TOUCHES; i++) {
			struct ptouch *t = &p->touches[i];

			if (t->route == R_REPLAY && next[i] < t->nhist && t->hist[next[i]].seq < seq)
				seq = t->hist[next[i]].seq;
		}
		if (seq == UINT64_MAX)
			break;
		for (int i = 0; i < MAX_TOUCHES; i++) {
			struct ptouch *t = &p->touches[i];

			if (t->route != R_REPLAY || next[i] >= t->nhist || t->hist[next[i]].seq != seq)
				continue;
			const struct sample *s = &t->hist[next[i]++];

			emit(p, t, s->kind, s->v, s->mask);
		}
		end_report(p, now);
	}
	for (int i = 0; i < MAX_TOUCHES; i++) {
		struct ptouch *t = &p->touches[i];

		if (t->route != R_REPLAY)
			continue;
		t->nhist = 0;
		t->route = t->ended ? R_FREE : R_FORWARD;
	}
}

static UFStatus
on_decision(void *data, UFWindowId window, UFTouchId id, int accept)
{
	struct geis_proxy *p = data;
	struct ptouch *t = find(p, (uint32_t)id);

	if (!t || t->route != R_HELD)
		return UFStatusSuccess;
	if (accept) {
		/* one system gesture is enough to take it */
		t->route = t->ended ? R_FREE : R_CONSUMED;
		t->nhist = 0;
		t->nundecided = 0;
		return UFStatusSuccess;
	}
	for (unsigned int i = 0; i < t->nundecided; i++) {
		if (t->undecided[i] == window) {
			t->undecided[i] = t->undecided[--t->nundecided];
			break;
		}
	}
	decided_everywhere(p, t);
	return UFStatusSuccess;
}

static void
on_kick(void *data, int fd, uint32_t events)
{
	struct geis_proxy *p = data;
	uint64_t v;

	(void)events;
	if (read(fd, &v, sizeof(v)) < 0) {
		/* nothing to consume */
	}
	flush(p);
}

void
gs_proxy_frame(struct geis_proxy *p, const struct geis_router *router, uint64_t time_ms,
		 const struct ut_touch_op *ops, size_t nops)
{
	int more = nops > 0 && ops[nops - 1].more;

	/* a frame that continues the device's report (a further new touch
	 * of it) adds to the open report: its held samples share the
	 * report's number, so a replay keeps them together too */
	if (!p->report_open) {
		flush(p);
		p->seq++;
	}
	for (size_t i = 0; i < nops; i++) {
		const struct ut_touch_op *op = &ops[i];
		struct ptouch *t = find(p, op->id);
		int32_t v[UT_OP_NUM_AXES];

		for (int a = 0; a < UT_OP_NUM_AXES; a++)
			v[a] = (int32_t)lrintf(op->axis[a]);
		if (op->kind == UT_OP_BEGIN && !t) {
			for (int k = 0; k < MAX_TOUCHES && !t; k++)
				if (p->touches[k].route == R_FREE)
					t = &p->touches[k];
			if (!t)
				continue;   /* cannot happen: more than the stream follows */
			memset(t, 0, sizeof(*t));
			t->id = op->id;
			t->slot = -1;
			t->nundecided = p->bypass ? 0 : (unsigned int)gs_router_touch_windows(
				router, op->wx, op->wy, t->undecided, MAX_WINDOWS);
			t->route = p->bypass ? R_BYPASS : t->nundecided ? R_HELD : R_FORWARD;
		}
		if (!t)
			continue;   /* began before the proxy did */
		if (op->kind != UT_OP_BEGIN && op->kind != UT_OP_UPDATE && op->kind != UT_OP_END)
			continue;   /* ownership: the clone has no such thing */
		if (op->kind == UT_OP_END)
			t->ended = 1;
		switch (t->route) {
		case R_HELD:
		case R_REPLAY:
			record(t, p->seq, op->kind, v, op->axis_mask);
			break;
		case R_FORWARD:
			emit(p, t, op->kind, v, op->axis_mask);
			p->report_changed = 1;
			if (t->ended)
				t->route = R_FREE;
			break;
		case R_CONSUMED:
		case R_BYPASS:
			if (t->ended)
				t->route = R_FREE;
			break;
		case R_FREE:
			break;
		}
	}
	p->report_open = more;
	p->report_ms = time_ms;
	if (more)
		return;
	close_report(p, time_ms);
	/* a replay decided while the report was open */
	flush(p);
}

void
gs_proxy_raw_event(struct geis_proxy *p, const struct input_event *ev)
{
	if (ev->type == EV_KEY) {
		/* the device's finger count, for fingers it does not track */
		for (int i = 0; i < 5; i++) {
			if (ev->code != tool_code[i])
				continue;
			if (ev->value)
				p->dev_fingers = i + 1;
			else if (p->dev_fingers == i + 1)
				p->dev_fingers = 0;
			return;   /* the clone's own, from its touches */
		}
	}
	if (p->bypass)
		return;   /* the desktop reads the device itself */
	switch (ev->type) {
	case EV_SYN:
		/* what passed through, or a count of untracked fingers that
		 * changed in a report that moved no touch (the clone's
		 * touches counted only when nothing passed through) */
		if (ev->code == SYN_REPORT && !p->report_open &&
		    (p->nraw > 0 ||
		     tool_for(p, clone_fingers(p, clone_touches(p, NULL))) != p->tool)) {
			uint64_t ms = ut_input_event_usec(ev) / 1000u;

			end_report(p, ms ? ms : gs_now(p->geis));
		}
		return;
	case EV_KEY:
		if (ev->code == BTN_TOUCH)
			return;   /* the clone's own, from its touches */
		break;
	case EV_MSC:
		if (ev->code == MSC_TIMESTAMP)
			return;
		break;
	case EV_REL:
	case EV_SW:
		break;
	default:
		return;   /* EV_ABS: touch state; the rest is no input */
	}
	if (!libevdev_has_event_code(p->desc, ev->type, ev->code))
		return;
	if (p->nraw < sizeof(p->raw) / sizeof(p->raw[0]))
		p->raw[p->nraw++] = *ev;
}

void
gs_proxy_set_bypass(struct geis_proxy *p, int on)
{
	if (p)
		p->bypass = !!on;
}

void
gs_proxy_window_gone(struct geis_proxy *p, UFWindowId window)
{
	for (int i = 0; i < MAX_TOUCHES; i++) {
		struct ptouch *t = &p->touches[i];

		if (t->route == R_HELD)
			on_decision(p, window, t->id, 0);
	}
}

void
gs_proxy_release(struct geis_proxy *p)
{
	if (!p)
		return;
	if (p->report_open) {
		/* the rest of the device's report never comes */
		p->report_open = 0;
		close_report(p, p->report_ms);
	}
	for (int i = 0; i < MAX_TOUCHES; i++) {
		struct ptouch *t = &p->touches[i];

		if (t->route == R_HELD) {
			t->nundecided = 0;
			decided_everywhere(p, t);
		}
	}
	flush(p);
}

size_t
gs_proxy_held(const struct geis_proxy *p)
{
	size_t n = 0;

	for (int i = 0; p && i < MAX_TOUCHES; i++)
		n += p->touches[i].route == R_HELD || p->touches[i].route == R_REPLAY;
	return n;
}

/* ---- life ---- */

/* The clone's description: the device's, named with the suffix, with
 * slots even when the device speaks protocol A. */
static struct libevdev *
describe(const struct libevdev *caps)
{
	struct libevdev *d = libevdev_new();
	char name[256];

	if (!d)
		return NULL;
	snprintf(name, sizeof(name), "%s%s", libevdev_get_name(caps), GEIS_PROXY_NAME_SUFFIX);
	libevdev_set_name(d, name);
	if (libevdev_get_phys(caps))
		libevdev_set_phys(d, libevdev_get_phys(caps));
	libevdev_set_id_bustype(d, libevdev_get_id_bustype(caps));
	libevdev_set_id_vendor(d, libevdev_get_id_vendor(caps));
	libevdev_set_id_product(d, libevdev_get_id_product(caps));
	libevdev_set_id_version(d, libevdev_get_id_version(caps));
	for (unsigned int prop = 0; prop <= INPUT_PROP_MAX; prop++)
		if (libevdev_has_property(caps, prop))
			libevdev_enable_property(d, prop);
	for (unsigned int type = EV_KEY; type <= EV_MAX; type++) {
		int max = libevdev_event_type_get_max(type);

		if (max < 0 || !libevdev_has_event_type(caps, type) || type == EV_REP ||
		    type == EV_FF || type == EV_PWR || type == EV_FF_STATUS)
			continue;
		libevdev_enable_event_type(d, type);
		for (int code = 0; code <= max; code++) {
			if (!libevdev_has_event_code(caps, type, (unsigned int)code))
				continue;
			if (type != EV_ABS) {
				libevdev_enable_event_code(d, type, (unsigned int)code, NULL);
				continue;
			}
			/* no fuzz: the kernel filtered the values on the real
			 * device already, and it filters every device's, a
			 * uinput one's too: a fuzz here would smooth them a
			 * second time, away from what the device reported */
			struct input_absinfo abs = *libevdev_get_abs_info(caps, (unsigned int)code);

			abs.fuzz = 0;
			libevdev_enable_event_code(d, type, (unsigned int)code, &abs);
		}
	}
	if (!libevdev_has_event_code(d, EV_ABS, ABS_MT_SLOT)) {
		struct input_absinfo slot = { .minimum = 0, .maximum = 9 };

		libevdev_enable_event_code(d, EV_ABS, ABS_MT_SLOT, &slot);
	}
	/* the clone numbers its touches itself, 0 .. 65535 as the kernel's
	 * protocol B devices do, whatever range a protocol A device gave
	 * its tracking ids (0 .. 15 on some touchpads) */
	struct input_absinfo tid = { .minimum = 0, .maximum = 65535 };

	libevdev_enable_event_code(d, EV_ABS, ABS_MT_TRACKING_ID, &tid);
	return d;
}

struct geis_proxy *
gs_proxy_new(Geis geis, const struct geis_proxy_config *cfg, const struct libevdev *caps,
	       UFBackendDevice device, unsigned int index)
{
	struct geis_proxy *p = calloc(1, sizeof(*p));
	char err[512];

	if (!p || !(p->desc = describe(caps))) {
		free(p);
		gs_core_error(geis, GEIS_STATUS_UNKNOWN_ERROR, "proxy: out of memory");
		return NULL;
	}
	p->geis = geis;
	p->device = device;
	p->kick_fd = -1;
	if (cfg->output) {
		char path[4096];

		if (index > 1)
			snprintf(path, sizeof(path), "%s.%u", cfg->output, index);
		else
			snprintf(path, sizeof(path), "%s", cfg->output);
		p->out = proxy_output_evemu(path, p->desc, err, sizeof(err));
	} else {
		p->out = proxy_output_uinput(cfg->uinput ? cfg->uinput : "/dev/uinput", p->desc,
					     err, sizeof(err));
	}
	if (!p->out) {
		gs_core_error(geis, GEIS_STATUS_UNKNOWN_ERROR, "proxy: %s: %s",
				libevdev_get_name(caps), err);
		libevdev_free(p->desc);
		free(p);
		return NULL;
	}
	const struct input_absinfo *slot = libevdev_get_abs_info(p->desc, ABS_MT_SLOT);

	p->nslots = slot ? slot->maximum + 1 : 1;
	if (p->nslots > UT_EVSTREAM_MAX_SLOTS)
		p->nslots = UT_EVSTREAM_MAX_SLOTS;
	p->cur_slot = -1;
	p->abs_x = p->abs_y = INT32_MIN;
	for (int i = 0; i < 5; i++)
		p->has_tool[i] = libevdev_has_event_code(p->desc, EV_KEY, tool_code[i]);
	p->has_btn_touch = libevdev_has_event_code(p->desc, EV_KEY, BTN_TOUCH);
	p->has_abs_x = libevdev_has_event_code(p->desc, EV_ABS, ABS_X);
	p->has_abs_y = libevdev_has_event_code(p->desc, EV_ABS, ABS_Y);
	p->has_abs_p = libevdev_has_event_code(p->desc, EV_ABS, ABS_PRESSURE);
	p->has_timestamp = libevdev_has_event_code(p->desc, EV_MSC, MSC_TIMESTAMP);
	p->kick_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (p->kick_fd < 0 || gs_mux_add(geis, p->kick_fd, EPOLLIN, on_kick, p) < 0) {
		gs_core_error(geis, GEIS_STATUS_UNKNOWN_ERROR, "proxy: eventfd: %s",
				strerror(errno));
		if (p->kick_fd >= 0)
			close(p->kick_fd);
		proxy_output_close(p->out);
		libevdev_free(p->desc);
		free(p);
		return NULL;
	}
	utouch_frame_backend_device_set_touch_handler(device, on_decision, p);
	return p;
}

void
gs_proxy_destroy(struct geis_proxy *p)
{
	if (!p)
		return;
	gs_proxy_release(p);
	/* every touch still on the clone ends */
	for (int i = 0; i < MAX_TOUCHES; i++) {
		struct ptouch *t = &p->touches[i];

		if (t->route != R_FREE && t->slot >= 0)
			emit(p, t, UT_OP_END, NULL, 0);
		t->route = R_FREE;
	}
	end_report(p, gs_now(p->geis));
	utouch_frame_backend_device_set_touch_handler(p->device, NULL, NULL);
	gs_mux_remove(p->geis, p->kick_fd);
	close(p->kick_fd);
	proxy_output_close(p->out);
	libevdev_free(p->desc);
	free(p);
}
