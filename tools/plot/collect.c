#include <stdlib.h>
#include <string.h>

#include <oif/frame.h>

#include "plot.h"
#include "util/array.h"

struct collector {
	struct replay_run run;
	struct plot_data *d;
	enum replay_policy policy;
	uint64_t t;               /* time of the frame being replayed */
};

/* Room for one more element of @p size in *@p arr of *@p cap elements. */
static void
add_point(struct plot_data *d, struct plot_point **pts, size_t *n, size_t *cap,
	  double x, double y, uint64_t t)
{
	if (*n && (*pts)[*n - 1].x == x && (*pts)[*n - 1].y == y)
		return;
	if (!UT_ARRAY_RESERVE(*pts, *cap, *n + 1, 16)) {
		d->oom = 1;
		return;
	}
	(*pts)[(*n)++] = (struct plot_point){ x, y, t };
}

static struct plot_touch *
touch_of(struct plot_data *d, uint32_t id, int create)
{
	struct plot_touch *tp;

	/* ids count up from 1 in order of appearance: search from the end */
	for (size_t i = d->ntouches; i-- > 0;)
		if (d->touches[i].id == id)
			return &d->touches[i];
	if (!create)
		return NULL;
	if (!UT_ARRAY_RESERVE(d->touches, d->captouches, d->ntouches + 1, 16)) {
		d->oom = 1;
		return NULL;
	}
	tp = &d->touches[d->ntouches++];
	memset(tp, 0, sizeof(*tp));
	tp->id = id;
	return tp;
}

static void
on_frame(struct replay_run *run, const struct ut_script_frame *f)
{
	struct collector *col = run->data;
	struct plot_data *d = col->d;
	uint64_t t = f->time - UT_SCRIPT_TIME_BASE_MS;

	col->t = t;
	if (t > d->t_last)
		d->t_last = t;
	for (size_t k = 0; k < f->count; k++) {
		const struct ut_touch_op *op = &run->script->ops[f->first + k];
		struct plot_touch *tp;

		if (op->kind == UT_OP_OWN)
			continue;
		tp = touch_of(d, op->id, op->kind == UT_OP_BEGIN);
		if (!tp)
			continue;
		if (op->kind == UT_OP_BEGIN && tp->npts == 0)
			tp->t_begin = t;
		/* the space grail works in: window coordinates for direct
		 * devices, device coordinates for indirect ones */
		if (run->script->direct)
			add_point(d, &tp->pts, &tp->npts, &tp->cap, op->wx, op->wy, t);
		else
			add_point(d, &tp->pts, &tp->npts, &tp->cap, op->dx, op->dy, t);
		if (op->kind == UT_OP_END || op->kind == UT_OP_PENDING_END) {
			tp->ended = 1;
			tp->t_end = t;
		}
	}
}

static struct plot_gesture *
gesture_of(struct plot_data *d, unsigned int id)
{
	struct plot_gesture *g;

	for (size_t i = d->ngestures; i-- > 0;)
		if (d->gestures[i].id == id)
			return &d->gestures[i];
	if (!UT_ARRAY_RESERVE(d->gestures, d->capgestures, d->ngestures + 1, 16)) {
		d->oom = 1;
		return NULL;
	}
	g = &d->gestures[d->ngestures++];
	memset(g, 0, sizeof(*g));
	g->id = id;
	return g;
}

static void
mark(struct plot_gesture *g, enum plot_event_kind k, uint64_t t, double x, double y)
{
	if (plot_has(g, k))
		return;
	g->has |= 1u << k;
	g->ev[k] = (struct plot_event){ t, x, y };
}

static void
on_slice(struct replay_run *run, UGEvent ev, UGSlice slice, int sub)
{
	struct collector *col = run->data;
	struct plot_data *d = col->d;
	struct plot_gesture *g = gesture_of(d, grail_slice_get_id(slice));
	const UGTransform *C = grail_slice_get_cumulative_transform(slice);
	uint64_t t = grail_event_get_time(ev) - UT_SCRIPT_TIME_BASE_MS;
	double x = grail_slice_get_original_center_x(slice) + (*C)[0][2];
	double y = grail_slice_get_original_center_y(slice) + (*C)[1][2];
	enum replay_decision dec;

	if (!g)
		return;
	if (t > d->t_last)
		d->t_last = t;
	if (!plot_has(g, PLOT_EV_BEGIN)) {
		g->sub = sub;
		g->ntouches = grail_slice_get_num_touches(slice);
		for (unsigned int i = 0; i < g->ntouches && i < 8; i++) {
			UFTouchId id = 0;

			grail_slice_get_touch_id(slice, i, &id);
			g->touches[i] = (uint32_t)id;
		}
		mark(g, PLOT_EV_BEGIN, t, x, y);
	}
	add_point(d, &g->pts, &g->npts, &g->cap, x, y, t);
	g->recognized = grail_slice_get_recognized(slice);
	if (g->recognized)
		mark(g, PLOT_EV_RECOGNIZED, t, x, y);
	if (grail_slice_get_state(slice) == UGGestureStateEnd)
		mark(g, grail_slice_get_canceled(slice) ? PLOT_EV_CANCELED : PLOT_EV_END,
		     t, x, y);
	dec = replay_run_decide(run, col->policy, slice, sub, &g->decided);
	if (dec == REPLAY_ACCEPTED)
		mark(g, PLOT_EV_ACCEPTED, t, x, y);
	else if (dec == REPLAY_REJECTED)
		mark(g, PLOT_EV_REJECTED, t, x, y);
}

static int
cmp_touch(const void *a, const void *b)
{
	uint32_t x = ((const struct plot_touch *)a)->id, y = ((const struct plot_touch *)b)->id;

	return x < y ? -1 : x > y;
}

int
plot_collect(struct plot_data *d, const struct replay_opts *opts,
	     const struct ut_recording *rec, struct ut_script *script,
	     char *err, size_t errlen)
{
	struct collector col;

	memset(d, 0, sizeof(*d));
	memset(&col, 0, sizeof(col));
	col.d = d;
	col.policy = opts->policy;
	replay_opts_configure(opts, &col.run, rec->dev, script);
	col.run.on_slice = on_slice;
	col.run.on_frame = on_frame;
	col.run.data = &col;
	if (replay_run_setup(&col.run) < 0) {
		snprintf(err, errlen, "%s", col.run.error);
		return -1;
	}
	if (replay_run_frames(&col.run, 0) < 0) {
		snprintf(err, errlen, "%s", col.run.error);
		replay_run_teardown(&col.run);
		plot_data_release(d);
		return -1;
	}
	replay_run_teardown(&col.run);
	if (d->oom) {
		snprintf(err, errlen, "out of memory");
		plot_data_release(d);
		return -1;
	}
	/* touches by id (in X11 framing a report's new touches come in
	 * reverse); gestures stay in order of their first slice */
	if (d->ntouches)
		qsort(d->touches, d->ntouches, sizeof(*d->touches), cmp_touch);
	return 0;
}

void
plot_data_release(struct plot_data *d)
{
	for (size_t i = 0; i < d->ntouches; i++)
		free(d->touches[i].pts);
	for (size_t i = 0; i < d->ngestures; i++)
		free(d->gestures[i].pts);
	free(d->touches);
	free(d->gestures);
	memset(d, 0, sizeof(*d));
}
