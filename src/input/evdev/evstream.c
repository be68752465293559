/*
 * evdev event stream -> frames of touch operations.  See evstream.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libevdev/libevdev.h>
#include <mtdev-plumbing.h>

#include "input/evdev/evstream.h"
#include "util/clock.h"

#define MAX_SLOTS UT_EVSTREAM_MAX_SLOTS
/* an ownership frame may list every slot plus every touch waiting for
 * ownership; a split frame holds one operation */
#define MAX_OPS (2 * MAX_SLOTS)

struct slot {
	int tracking;         /* kernel tracking id, -1 when the slot is free */
	int active;           /* the touch has been announced with a begin */
	int begin_pending;
	int end_pending;
	int changed;
	uint32_t id;
	int32_t value[UT_OP_NUM_AXES];
	uint32_t mask;        /* which value[] entries were ever reported */
};

/* a touch that lifted in UT_OWN_MANUAL mode before it was owned */
struct waiting {
	uint32_t id;
	int ended;            /* it has a pending end */
	struct ut_touch_op last;
};

struct ut_evstream {
	struct ut_evstream_opts opts;
	ut_evstream_frame_fn fn;
	void *data;

	struct input_absinfo ax, ay;
	int direct;
	char protocol;
	int nslots;
	struct slot slots[MAX_SLOTS];
	int cur;
	uint32_t next_id;

	struct waiting waiting[MAX_SLOTS];
	int nwaiting;
	int cutting;          /* inside ut_evstream_end_all(): ends are cut off */

	struct mtdev *mtdev;  /* protocol A only */
	int a_contacts;       /* contacts closed in the current A report */
	int a_max;            /* the bound on a_contacts */
	unsigned long a_dropped;
	uint32_t a_axes;      /* axes the device declares, by axis index */
	uint32_t a_seen;      /* axes the current contact has reported */
	int32_t a_last[UT_EVSTREAM_MAX_CONTACTS_A][UT_OP_NUM_AXES];

	/* the frame being assembled */
	struct ut_touch_op ops[MAX_OPS];
	size_t nops;
	int frame_open;
	uint64_t frame_usec;
};

/* evdev ABS_MT_* code -> UFAxisType index, or -1 */
static int
axis_of_code(unsigned int code)
{
	switch (code) {
	case ABS_MT_POSITION_X: return 0;
	case ABS_MT_POSITION_Y: return 1;
	case ABS_MT_TOUCH_MAJOR: return 2;
	case ABS_MT_TOUCH_MINOR: return 3;
	case ABS_MT_WIDTH_MAJOR: return 4;
	case ABS_MT_WIDTH_MINOR: return 5;
	case ABS_MT_ORIENTATION: return 6;
	case ABS_MT_TOOL_TYPE: return 7;
	case ABS_MT_BLOB_ID: return 8;
	case ABS_MT_TRACKING_ID: return 9;
	case ABS_MT_PRESSURE: return 10;
	case ABS_MT_DISTANCE: return 11;
	default: return -1;
	}
}

int
ut_evdev_caps_is_direct(const struct libevdev *caps)
{
	if (libevdev_has_property(caps, INPUT_PROP_DIRECT))
		return 1;
	if (libevdev_has_property(caps, INPUT_PROP_POINTER) ||
	    libevdev_has_event_code(caps, EV_KEY, BTN_TOOL_FINGER))
		return 0;
	return 1;
}

static float
scale(const struct input_absinfo *a, int32_t v, double size)
{
	double range = (double)a->maximum - (double)a->minimum;

	if (range <= 0)
		return (float)v;
	return (float)(((double)v - a->minimum) * size / range);
}

static void
fill_op(const struct ut_evstream *s, const struct slot *sl,
	struct ut_touch_op *op, enum ut_op_kind kind)
{
	memset(op, 0, sizeof(*op));
	op->kind = kind;
	op->id = sl->id;
	op->dx = (float)sl->value[0];
	op->dy = (float)sl->value[1];
	op->wx = scale(&s->ax, sl->value[0], s->opts.screen_w);
	op->wy = scale(&s->ay, sl->value[1], s->opts.screen_h);
	op->axis_mask = sl->mask | 0x3u;
	for (int i = 0; i < UT_OP_NUM_AXES; i++)
		op->axis[i] = (float)sl->value[i];
}

static void
frame_flush(struct ut_evstream *s)
{
	if (s->frame_open && s->nops > 0) {
		size_t nbegin = 0;
		for (size_t i = 0; i < s->nops; i++)
			nbegin += s->ops[i].kind == UT_OP_BEGIN;
		if (!s->opts.split_begins || nbegin <= 1) {
			s->fn(s->data, s->frame_usec, s->ops, s->nops);
		} else {
			/* the other changes with the first new touch, then
			 * every further new touch in a frame of its own */
			struct ut_touch_op first[MAX_OPS];
			size_t n = 0, seen = 0;
			for (size_t i = 0; i < s->nops; i++)
				if (s->ops[i].kind != UT_OP_BEGIN || seen++ == 0) {
					first[n] = s->ops[i];
					first[n++].more = 1;
				}
			s->fn(s->data, s->frame_usec, first, n);
			seen = 0;
			for (size_t i = 0; i < s->nops; i++) {
				if (s->ops[i].kind != UT_OP_BEGIN || seen++ == 0)
					continue;
				struct ut_touch_op op = s->ops[i];

				op.more = seen < nbegin;
				s->fn(s->data, s->frame_usec, &op, 1);
			}
		}
	}
	s->nops = 0;
	s->frame_open = 0;
}

static void
frame_start(struct ut_evstream *s, uint64_t usec)
{
	frame_flush(s);
	s->frame_open = 1;
	s->frame_usec = usec;
}

static void
frame_add(struct ut_evstream *s, const struct ut_touch_op *op)
{
	/* MAX_OPS covers every slot plus every waiting touch, which is the
	 * most one frame can hold; anything beyond is a bug, not input */
	if (s->nops < MAX_OPS)
		s->ops[s->nops++] = *op;
}

/* Add an operation, starting a frame first when split mode asks for one
 * frame per operation or when none is open. */
static void
emit(struct ut_evstream *s, uint64_t usec, const struct ut_touch_op *op)
{
	if (s->opts.split || !s->frame_open)
		frame_start(s, usec);
	frame_add(s, op);
}

static void
emit_alone(struct ut_evstream *s, uint64_t usec, const struct ut_touch_op *op)
{
	frame_start(s, usec);
	frame_add(s, op);
}

static struct waiting *
find_waiting(struct ut_evstream *s, uint32_t id)
{
	for (int i = 0; i < s->nwaiting; i++)
		if (s->waiting[i].id == id)
			return &s->waiting[i];
	return NULL;
}

static void
drop_waiting(struct ut_evstream *s, struct waiting *w)
{
	*w = s->waiting[--s->nwaiting];
}

/* The touch in @p sl lifted: end it, or in manual ownership mode give it a
 * pending end when it is not owned yet. */
static void
end_touch(struct ut_evstream *s, uint64_t usec, struct slot *sl)
{
	struct ut_touch_op op;
	struct waiting *w = find_waiting(s, sl->id);

	if (w) {
		fill_op(s, sl, &op, UT_OP_PENDING_END);
		op.cut_off = s->cutting;
		emit(s, usec, &op);
		w->ended = 1;
		w->last = op;
		return;
	}
	fill_op(s, sl, &op, UT_OP_END);
	op.cut_off = s->cutting;
	emit(s, usec, &op);
}

static int
slot_has_work(const struct slot *sl)
{
	return sl->begin_pending || sl->end_pending ||
	       (sl->active && sl->changed);
}

/* SYN_REPORT: turn what changed since the last report into frames. */
static void
sync_report(struct ut_evstream *s, uint64_t usec)
{
	uint32_t owned[MAX_SLOTS];
	int nowned = 0;
	int any = 0;

	for (int i = 0; i < s->nslots; i++)
		any |= slot_has_work(&s->slots[i]);
	if (!any)
		return;

	s->frame_open = 0;
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1 && !s->opts.begin_first)
			break;
		for (int k = 0; k < s->nslots; k++) {
			int i = s->opts.reverse ? s->nslots - 1 - k : k;
			struct slot *sl = &s->slots[i];
			struct ut_touch_op op;

			/* with begin_first, the first pass only announces
			 * new touches */
			if (s->opts.begin_first && pass == 0 &&
			    !sl->begin_pending)
				continue;

			if (sl->begin_pending) {
				fill_op(s, sl, &op, UT_OP_BEGIN);
				emit(s, usec, &op);
				sl->active = 1;
				sl->begin_pending = 0;
				sl->changed = 0;
				/* in manual mode, a touch beginning while
				 * MAX_SLOTS touches wait for their grant is
				 * owned at once: it cannot wait, and a touch
				 * nobody can own would never end cleanly */
				if (s->opts.own == UT_OWN_EVENT ||
				    (s->opts.own == UT_OWN_MANUAL &&
				     s->nwaiting == MAX_SLOTS)) {
					if (s->opts.split) {
						op.kind = UT_OP_OWN;
						emit_alone(s, usec, &op);
					} else {
						owned[nowned++] = sl->id;
					}
				} else if (s->opts.own == UT_OWN_MANUAL) {
					struct waiting *w = &s->waiting[s->nwaiting++];
					w->id = sl->id;
					w->ended = 0;
					w->last = op;
				}
				if (sl->end_pending) {
					/* began and lifted within one report:
					 * the end gets a frame of its own */
					frame_start(s, usec);
					end_touch(s, usec, sl);
					frame_flush(s);
					sl->active = 0;
					sl->end_pending = 0;
				}
			} else if (sl->end_pending) {
				if (sl->active)
					end_touch(s, usec, sl);
				sl->active = 0;
				sl->end_pending = 0;
				sl->changed = 0;
			} else if (sl->active && sl->changed) {
				fill_op(s, sl, &op, UT_OP_UPDATE);
				emit(s, usec, &op);
				sl->changed = 0;
			}
		}
	}

	if (nowned > 0) {
		frame_start(s, usec);
		for (int k = 0; k < nowned; k++) {
			struct ut_touch_op op;
			memset(&op, 0, sizeof(op));
			op.kind = UT_OP_OWN;
			op.id = owned[k];
			frame_add(s, &op);
		}
	}
	frame_flush(s);
}

static void
set_tracking(struct ut_evstream *s, struct slot *sl, int32_t value,
	     uint64_t usec)
{
	if (value < 0) {
		if (sl->tracking >= 0)
			sl->end_pending = 1;
		sl->tracking = -1;
		return;
	}
	if (sl->tracking == value)
		return;
	if ((sl->active || sl->begin_pending) &&
	    (sl->tracking >= 0 || sl->end_pending)) {
		/* the slot is reused before the report that frees it
		 * was closed: finish the old touch first (it may not even
		 * have been announced yet) */
		sync_report(s, usec);
		if (sl->active) {
			sl->end_pending = 1;
			sync_report(s, usec);
		}
	}
	sl->tracking = value;
	sl->id = s->next_id++;
	sl->begin_pending = 1;
	sl->end_pending = 0;
}

/* one protocol-B event */
static void
handle_event(struct ut_evstream *s, uint16_t type, uint16_t code,
	     int32_t value, uint64_t usec)
{
	struct slot *sl;
	int axis;

	if (type == EV_SYN && code == SYN_REPORT) {
		sync_report(s, usec);
		return;
	}
	if (type != EV_ABS)
		return;
	if (code == ABS_MT_SLOT) {
		s->cur = (value >= 0 && value < s->nslots) ? value : -1;
		return;
	}
	if (s->cur < 0)
		return; /* events for a slot we cannot hold */
	sl = &s->slots[s->cur];
	if (code == ABS_MT_TRACKING_ID) {
		set_tracking(s, sl, value, usec);
		return;
	}
	axis = axis_of_code(code);
	if (axis < 0)
		return;
	sl->value[axis] = value;
	sl->mask |= 1u << axis;
	sl->changed = 1;
}

static int
setup_mtdev(struct ut_evstream *s, const struct libevdev *caps)
{
	s->mtdev = mtdev_new();
	if (!s->mtdev || mtdev_init(s->mtdev) != 0)
		return -ENOMEM;
	for (unsigned int code = ABS_MT_TOUCH_MAJOR; code <= ABS_MT_TOOL_Y; code++) {
		const struct input_absinfo *a;

		if (axis_of_code(code) < 0 || code == ABS_MT_SLOT ||
		    !libevdev_has_event_code(caps, EV_ABS, code))
			continue;
		a = libevdev_get_abs_info(caps, code);
		s->a_axes |= 1u << axis_of_code(code);
		mtdev_set_mt_event(s->mtdev, (int)code, 1);
		mtdev_set_abs_minimum(s->mtdev, (int)code, a->minimum);
		mtdev_set_abs_maximum(s->mtdev, (int)code, a->maximum);
		mtdev_set_abs_fuzz(s->mtdev, (int)code, a->fuzz);
		mtdev_set_abs_resolution(s->mtdev, (int)code, a->resolution);
	}
	s->a_max = libevdev_has_event_code(caps, EV_ABS, ABS_MT_TRACKING_ID)
			   ? UT_EVSTREAM_MAX_CONTACTS_A_IDS
			   : UT_EVSTREAM_MAX_CONTACTS_A;
	s->mtdev->caps.has_mtdata = 1;
	s->mtdev->caps.has_slot = 0;
	return 0;
}

struct ut_evstream *
ut_evstream_new(const struct libevdev *caps, const struct ut_evstream_opts *opts,
		ut_evstream_frame_fn fn, void *data)
{
	struct ut_evstream *s;

	if (!caps || !fn ||
	    !libevdev_has_event_code(caps, EV_ABS, ABS_MT_POSITION_X) ||
	    !libevdev_has_event_code(caps, EV_ABS, ABS_MT_POSITION_Y)) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		errno = ENOMEM;
		return NULL;
	}
	if (opts)
		s->opts = *opts;
	else
		s->opts.direct = -1;
	if (s->opts.screen_w <= 0)
		s->opts.screen_w = 1024;
	if (s->opts.screen_h <= 0)
		s->opts.screen_h = 768;
	s->fn = fn;
	s->data = data;
	s->ax = *libevdev_get_abs_info(caps, ABS_MT_POSITION_X);
	s->ay = *libevdev_get_abs_info(caps, ABS_MT_POSITION_Y);
	s->direct = s->opts.direct >= 0 ? !!s->opts.direct
					 : ut_evdev_caps_is_direct(caps);
	s->next_id = 1;
	s->nslots = MAX_SLOTS;
	for (int i = 0; i < MAX_SLOTS; i++)
		s->slots[i].tracking = -1;

	if (libevdev_has_event_code(caps, EV_ABS, ABS_MT_SLOT)) {
		const struct input_absinfo *slot = libevdev_get_abs_info(caps, ABS_MT_SLOT);

		s->protocol = 'B';
		s->cur = 0;
		/* the device's own slots only: events for others are ignored */
		if (slot->maximum >= 0 && slot->maximum < MAX_SLOTS)
			s->nslots = slot->maximum + 1;
	} else {
		s->protocol = 'A';
		if (setup_mtdev(s, caps) != 0) {
			ut_evstream_destroy(s);
			errno = ENOMEM;
			return NULL;
		}
	}
	return s;
}

void
ut_evstream_destroy(struct ut_evstream *s)
{
	if (!s)
		return;
	/* mtdev_delete() frees only the struct; the converter state that
	 * mtdev_init() allocated goes with mtdev_close() */
	if (s->mtdev)
		mtdev_close_delete(s->mtdev);
	free(s);
}

static void put_a(struct ut_evstream *s, const struct input_event *ev);

/* A protocol A contact is about to be closed by @p syn.  mtdev collects
 * the contacts of a report in uninitialised memory, so an axis the device
 * declares but the contact did not report would take whatever is there.
 * Give such an axis what the contact at the same position of an earlier
 * report had, or 0 the first time.  Positions are left alone (mtdev drops
 * a contact without both), and so is an empty contact, which is how
 * protocol A says "no touches". */
static void
complete_contact(struct ut_evstream *s, const struct input_event *syn)
{
	uint32_t missing = !s->a_seen ? 0 : s->a_axes & ~s->a_seen &
			   ~(1u << axis_of_code(ABS_MT_POSITION_X)) &
			   ~(1u << axis_of_code(ABS_MT_POSITION_Y));

	for (unsigned int code = ABS_MT_TOUCH_MAJOR; missing && code <= ABS_MT_DISTANCE;
	     code++) {
		int axis = axis_of_code(code);
		struct input_event ev = *syn;

		if (axis < 0 || !(missing & (1u << axis)))
			continue;
		ev.type = EV_ABS;
		ev.code = (uint16_t)code;
		ev.value = s->a_last[s->a_contacts - 1][axis];
		put_a(s, &ev);
		missing &= ~(1u << axis);
	}
	s->a_seen = 0;
}

void
ut_evstream_push(struct ut_evstream *s, const struct input_event *ev)
{
	if (!s || !ev)
		return;
	if (ev->type == EV_ABS && ev->code > ABS_MAX)
		return; /* no device has such an axis; mtdev indexes by code */
	if (!s->mtdev) {
		handle_event(s, ev->type, ev->code, ev->value, ut_input_event_usec(ev));
		return;
	}
	if (ev->type == EV_SYN && ev->code == SYN_REPORT) {
		s->a_contacts = 0;
		s->a_seen = 0;
	} else if (ev->type == EV_SYN && ev->code == SYN_MT_REPORT) {
		if (s->a_contacts >= s->a_max) {
			s->a_dropped++;
			return;
		}
		s->a_contacts++;
		complete_contact(s, ev);
	} else if (ev->type == EV_ABS && ev->code == ABS_MT_SLOT) {
		/* a device without slots cannot send one; mtdev would switch
		 * to reading protocol B and never end the touches it has */
		return;
	} else if (ev->type == EV_ABS && ev->code >= ABS_MT_TOUCH_MAJOR) {
		if (s->a_contacts >= s->a_max)
			return; /* a contact beyond the bound: mtdev never sees it */
		int axis = axis_of_code(ev->code);

		if (axis >= 0) {
			s->a_seen |= 1u << axis;
			s->a_last[s->a_contacts][axis] = ev->value;
		}
	}
	put_a(s, ev);
}

/* one event into mtdev, and whatever it has ready into the slot reader */
static void
put_a(struct ut_evstream *s, const struct input_event *ev)
{
	mtdev_put_event(s->mtdev, ev);
	while (!mtdev_empty(s->mtdev)) {
		struct input_event out;

		mtdev_get_event(s->mtdev, &out);
		handle_event(s, out.type, out.code, out.value, ut_input_event_usec(&out));
	}
}

static size_t
count_active(const struct ut_evstream *s)
{
	size_t n = 0;

	for (int i = 0; i < s->nslots; i++)
		n += s->slots[i].active != 0;
	return n;
}

size_t
ut_evstream_end_all(struct ut_evstream *s, uint64_t usec)
{
	struct input_event ev;
	size_t n;

	if (!s)
		return 0;
	memset(&ev, 0, sizeof(ev));
	ev.input_event_sec = (time_t)(usec / 1000000u);
	ev.input_event_usec = (suseconds_t)(usec % 1000000u);
	ev.type = EV_SYN;
	/* every end made from here on is a cut, not a lift (end_touch()) */
	s->cutting = 1;
	if (s->mtdev) {
		/* the first report closes whatever contacts mtdev holds (it
		 * passes nothing when it holds none); a report with an empty
		 * contact list is how protocol A says "no touches" */
		ev.code = SYN_REPORT;
		ut_evstream_push(s, &ev);
		n = count_active(s);
		ev.code = SYN_MT_REPORT;
		ut_evstream_push(s, &ev);
		ev.code = SYN_REPORT;
		ut_evstream_push(s, &ev);
	} else {
		/* one report: what the cut-off report changed goes with the ends */
		n = 0;
		for (int i = 0; i < s->nslots; i++) {
			n += s->slots[i].tracking >= 0;
			set_tracking(s, &s->slots[i], -1, usec);
		}
		sync_report(s, usec);
	}
	s->cutting = 0;
	return n;
}

int
ut_evstream_grant(struct ut_evstream *s, uint32_t id, uint64_t usec)
{
	struct waiting *w = s ? find_waiting(s, id) : NULL;
	struct ut_touch_op op;

	if (!w)
		return -ENOENT;
	op = w->last;
	op.kind = UT_OP_OWN;
	op.cut_off = 0;
	emit_alone(s, usec, &op);
	if (w->ended) {
		/* a cut-off pending end stays a cut-off end */
		op.kind = UT_OP_END;
		op.cut_off = w->last.cut_off;
		emit_alone(s, usec, &op);
	}
	frame_flush(s);
	drop_waiting(s, w);
	return 0;
}

int
ut_evstream_max_contacts(const struct ut_evstream *s)
{
	return s && s->mtdev ? s->a_max : 0;
}

unsigned long
ut_evstream_dropped(const struct ut_evstream *s)
{
	return s ? s->a_dropped : 0;
}

char
ut_evstream_protocol(const struct ut_evstream *s)
{
	return s ? s->protocol : 0;
}

int
ut_evstream_is_direct(const struct ut_evstream *s)
{
	return s ? s->direct : 0;
}
