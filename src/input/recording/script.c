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
	if (s->made > 0 && t < s->prev)
		t = s->prev;

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
	s->made++;
	s->prev = t;
}

static void
push_raw(struct ut_script *s, const struct ut_raw_event *r)
{
	struct input_event ev;

	memset(&ev, 0, sizeof(ev));
	ut_input_event_set_usec(&ev, r->usec);
	ev.type = r->type;
	ev.code = r->code;
	ev.value = r->value;
	ut_evstream_push(s->stream, &ev);
	if (r->usec > s->latest)
		s->latest = r->usec;
}

/* A recording cut off with fingers down ends them at its last event, as a
 * live stream does at end of input. */
static void
finish_stream(struct ut_script *s, int any_events)
{
	if (any_events && !s->oom)
		s->ended_at_end = ut_evstream_end_all(s->stream, s->latest);
	s->dropped = ut_evstream_dropped(s->stream);
	s->max_contacts = ut_evstream_max_contacts(s->stream);
}

/* A fresh evdev stream for @p dev with s->opts, and an empty script. */
static int
start_stream(struct ut_script *s, const struct libevdev *dev)
{
	if (s->stream)
		ut_evstream_destroy(s->stream);
	s->stream = ut_evstream_new(dev, &s->opts, on_frame, s);
	if (!s->stream)
		return -errno;
	s->protocol = ut_evstream_protocol(s->stream);
	s->direct = ut_evstream_is_direct(s->stream);
	s->nframes = s->nops = s->next = s->made = 0;
	s->latest = s->prev = 0;
	s->at_end = 0;
	return 0;
}

int
ut_script_build(struct ut_script *s, const struct ut_recording *rec,
	     const struct ut_evstream_opts *opts)
{
	int rc;

	memset(s, 0, sizeof(*s));
	s->opts = *opts;
	if ((rc = start_stream(s, rec->dev)) < 0)
		return rc;
	if (rec->nevents > 0)
		s->usec0 = rec->events[0].usec;
	for (size_t i = 0; i < rec->nevents && !s->oom; i++)
		push_raw(s, &rec->events[i]);
	finish_stream(s, rec->nevents > 0);
	ut_evstream_destroy(s->stream);
	s->stream = NULL;
	if (s->oom) {
		ut_script_release(s);
		return -ENOMEM;
	}
	s->total_frames = s->nframes;
	s->total_ops = s->nops;
	s->last_time = s->prev;
	return 0;
}

int
ut_script_open(struct ut_script *s, struct ut_recording_reader *reader,
	       const struct ut_evstream_opts *opts)
{
	const struct ut_script_frame *f;
	int rc;

	memset(s, 0, sizeof(*s));
	s->reader = reader;
	s->opts = *opts;
	s->usec0 = reader->first_usec;
	rc = start_stream(s, reader->dev);
	if (rc < 0) {
		s->reader = NULL;
		return rc;
	}
	/* the totals: one run through the whole recording */
	while ((rc = ut_script_next(s, &f)) > 0) {
		s->total_frames++;
		s->total_ops += f->count;
	}
	if (rc == 0) {
		s->last_time = s->prev;
		rc = ut_script_rewind(s);
	}
	if (rc < 0) {
		ut_script_release(s);
		return rc;
	}
	return 0;
}

int
ut_script_next_streamed(struct ut_script *s, const struct ut_script_frame **f)
{
	if (!s->reader)
		return 0;
	/* streamed: the frames handed out are done with */
	s->nframes = s->nops = s->next = 0;
	while (s->nframes == 0 && !s->at_end && !s->oom) {
		struct ut_raw_event r;
		int rc = ut_recording_next(s->reader, &r);

		if (rc < 0)
			return rc;
		if (rc == 0) {
			s->at_end = 1;
			finish_stream(s, s->reader->nevents > 0);
			break;
		}
		push_raw(s, &r);
	}
	if (s->oom)
		return -ENOMEM;
	if (s->next < s->nframes) {
		*f = &s->frames[s->next++];
		return 1;
	}
	return 0;
}

int
ut_script_rewind(struct ut_script *s)
{
	if (!s->reader) {
		s->next = 0;
		return 0;
	}
	int rc = ut_recording_rewind(s->reader);
	if (rc < 0)
		return rc;
	return start_stream(s, s->reader->dev);
}

void
ut_script_release(struct ut_script *s)
{
	if (s->stream)
		ut_evstream_destroy(s->stream);
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
