#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "input/recording/script.h"
#include "util/array.h"
#include "util/clock.h"

static void
on_frame(void *data, uint64_t usec, const struct ut_touch_op *ops, size_t nops)
{
	struct ut_script *s = data;
	struct ut_script_frame *f;
	uint64_t t = UT_SCRIPT_TIME_BASE_MS;

	/* A frame has the time of the event that closed it, as in the
	 * original.  Event stamps may step back a little (see
	 * UT_RECORDING_MAX_BACKSTEP_USEC); frame times never do, and none
	 * lies before the first event. */
	if (usec / 1000 > s->usec0 / 1000)
		t += usec / 1000 - s->usec0 / 1000;
	if (s->nframes > 0 && t < s->last_time)
		t = s->last_time;

	if (s->oom ||
	    !UT_ARRAY_RESERVE(s->frames, s->capframes, s->nframes + 1, 256) ||
	    !UT_ARRAY_RESERVE(s->ops, s->capops, s->nops + nops, 256)) {
		s->oom = 1;
		return;
	}
	f = &s->frames[s->nframes++];
	f->time = t;
	f->first = s->nops;
	f->count = nops;
	memcpy(&s->ops[s->nops], ops, nops * sizeof(*ops));
	s->nops += nops;
	if (t > s->last_time)
		s->last_time = t;
}

int
ut_script_build(struct ut_script *s, const struct ut_recording *rec,
	     const struct ut_evstream_opts *opts)
{
	struct ut_evstream *st;
	uint64_t latest = 0;

	memset(s, 0, sizeof(*s));
	st = ut_evstream_new(rec->dev, opts, on_frame, s);
	if (!st)
		return -errno;
	s->protocol = ut_evstream_protocol(st);
	s->direct = ut_evstream_is_direct(st);
	if (rec->nevents > 0)
		s->usec0 = rec->events[0].usec;
	for (size_t i = 0; i < rec->nevents && !s->oom; i++) {
		const struct ut_raw_event *r = &rec->events[i];
		struct input_event ev;

		memset(&ev, 0, sizeof(ev));
		ut_input_event_set_usec(&ev, r->usec);
		ev.type = r->type;
		ev.code = r->code;
		ev.value = r->value;
		ut_evstream_push(st, &ev);
		if (r->usec > latest)
			latest = r->usec;
	}
	/* a recording cut off with fingers down ends them at its last
	 * event, as a live stream does at end of input */
	if (rec->nevents > 0 && !s->oom)
		s->ended_at_end = ut_evstream_end_all(st, latest);
	s->dropped = ut_evstream_dropped(st);
	s->max_contacts = ut_evstream_max_contacts(st);
	ut_evstream_destroy(st);
	if (s->oom) {
		ut_script_release(s);
		return -ENOMEM;
	}
	return 0;
}

void
ut_script_release(struct ut_script *s)
{
	free(s->ops);
	free(s->frames);
	memset(s, 0, sizeof(*s));
}

const char *
ut_script_op_name(enum ut_op_kind kind)
{
	switch (kind) {
	case UT_OP_BEGIN: return "begin";
	case UT_OP_UPDATE: return "update";
	case UT_OP_END: return "end";
	case UT_OP_OWN: return "owned";
	case UT_OP_PENDING_END: return "pending-end";
	}
	return "?";
}
