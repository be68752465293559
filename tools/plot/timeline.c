/*
 * The timeline under the plot: time runs to the right; a row of touch
 * lifetimes (a lane is reused once its touch has ended), then one row per
 * subscription with a lane per gesture, its label left of its bar and its
 * events marked on it.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

#define AXIS_H 30.0      /* time axis with its tick labels */
#define ROW_HEAD 24.0    /* a row's title */
#define ROW_GAP 10.0
#define TOUCH_LANE 8.0
#define GESTURE_LANE 18.0

static const char *const event_letters[PLOT_EV_COUNT] = { "B", "R", "A", "X", "E", "C" };
static const char *const event_names[PLOT_EV_COUNT] = {
	"begin", "recognized", "accepted", "rejected", "end", "canceled",
};
static const enum plot_shape event_shapes[PLOT_EV_COUNT] = {
	PLOT_SQUARE, PLOT_DIAMOND, PLOT_TRIANGLE, PLOT_NABLA, PLOT_BLOCK, PLOT_CROSS,
};

const char *
plot_event_letter(enum plot_event_kind k)
{
	return event_letters[k];
}

const char *
plot_event_name(enum plot_event_kind k)
{
	return event_names[k];
}

enum plot_shape
plot_event_shape(enum plot_event_kind k)
{
	return event_shapes[k];
}

static uint64_t
gesture_end(const struct plot_gesture *g, uint64_t t_last)
{
	if (plot_has(g, PLOT_EV_END))
		return g->ev[PLOT_EV_END].t;
	if (plot_has(g, PLOT_EV_CANCELED))
		return g->ev[PLOT_EV_CANCELED].t;
	return t_last;
}

/* Give each item [begin, end] the first lane free before it begins; items
 * come in order of their begin.  Returns the number of lanes (0 for no
 * items); lane[i] receives the lane of item i. */
static size_t
assign_lanes(size_t n, const uint64_t *begin, const uint64_t *end, size_t *lane)
{
	uint64_t *busy = malloc((n ? n : 1) * sizeof(*busy));
	size_t nlanes = 0;

	for (size_t i = 0; i < n; i++) {
		size_t l = 0;

		if (busy)
			while (l < nlanes && busy[l] >= begin[i])
				l++;
		else
			l = i;  /* out of memory: one lane each */
		if (l == nlanes)
			nlanes++;
		if (busy)
			busy[l] = end[i];
		lane[i] = l;
	}
	free(busy);
	return nlanes;
}

/* The lanes of the touches, or of the gestures of subscription @p sub
 * (@p touches 0).  lane[] is indexed like the data's array; gestures of
 * other subscriptions get SIZE_MAX. */
static size_t
lanes_of(const struct plot_data *d, int touches, int sub, size_t *lane)
{
	size_t n = touches ? d->ntouches : d->ngestures, m = 0, nl;
	/* zeroed: GCC cannot see that assign_lanes() reads only the m
	 * entries written below */
	uint64_t *b = calloc(n ? n : 1, sizeof(*b));
	uint64_t *e = calloc(n ? n : 1, sizeof(*e));
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	size_t *l = malloc((n ? n : 1) * sizeof(*l));

	if (!b || !e || !idx || !l) {
		/* out of memory: one lane per item */
		for (size_t i = 0; i < n; i++)
			lane[i] = touches || d->gestures[i].sub == sub ? m++ : SIZE_MAX;
		free(b), free(e), free(idx), free(l);
		return m;
	}
	for (size_t i = 0; i < n; i++) {
		lane[i] = SIZE_MAX;
		if (touches) {
			const struct plot_touch *tp = &d->touches[i];

			b[m] = tp->t_begin;
			e[m] = tp->ended ? tp->t_end : d->t_last;
		} else {
			const struct plot_gesture *g = &d->gestures[i];

			if (g->sub != sub)
				continue;
			b[m] = g->ev[PLOT_EV_BEGIN].t;
			e[m] = UINT64_MAX;  /* a lane each: room for the label */
		}
		idx[m++] = i;
	}
	nl = assign_lanes(m, b, e, l);
	for (size_t j = 0; j < m; j++)
		lane[idx[j]] = l[j];
	free(b), free(e), free(idx), free(l);
	return nl;
}

/* Lanes of the touches row and of each subscription row. */
static void
row_lanes(const struct plot_data *d, const struct plot_info *info, size_t *nt,
	  size_t *ns)
{
	size_t n = d->ntouches > d->ngestures ? d->ntouches : d->ngestures;
	size_t *lane = malloc((n ? n : 1) * sizeof(*lane));

	if (!lane) {
		*nt = d->ntouches;
		for (int s = 0; s < info->opts->nsubs; s++)
			ns[s] = d->ngestures;
		return;
	}
	*nt = lanes_of(d, 1, 0, lane);
	for (int s = 0; s < info->opts->nsubs; s++)
		ns[s] = lanes_of(d, 0, s, lane);
	free(lane);
}

double
plot_timeline_height(const struct plot_data *d, const struct plot_info *info)
{
	size_t nt, ns[REPLAY_MAX_SUBS];
	double h = AXIS_H;

	row_lanes(d, info, &nt, ns);
	h += ROW_HEAD + (double)(nt ? nt : 1) * TOUCH_LANE + ROW_GAP;
	for (int s = 0; s < info->opts->nsubs; s++)
		h += ROW_HEAD + (double)(ns[s] ? ns[s] : 1) * GESTURE_LANE + ROW_GAP;
	return h;
}

/* A tick step of 1, 2 or 5 times a power of ten giving about @p want ticks. */
static uint64_t
tick_step(uint64_t span, int want)
{
	uint64_t step = 1;

	for (;;) {
		if (span / step <= (uint64_t)want)
			return step;
		if (span / (step * 2) <= (uint64_t)want)
			return step * 2;
		if (span / (step * 5) <= (uint64_t)want)
			return step * 5;
		step *= 10;
	}
}

/* The markers of @p g's events on its lane at height @p ly, each with its
 * letter: above the lane, or below, or higher up when letters of events
 * close in time would overlap. */
static void
draw_events(struct plot_canvas *c, const struct plot_gesture *g, struct plot_rgb col,
	    double left, double w, uint64_t span, double ly)
{
	static const double level_dy[3] = { -3.5, 11.5, -12 };
	double last_x[3] = { -1e9, -1e9, -1e9 };
	int order[PLOT_EV_COUNT], n = 0;

	for (int k = 0; k < PLOT_EV_COUNT; k++)
		if (plot_has(g, (enum plot_event_kind)k))
			order[n++] = k;
	/* by time, then kind: insertion sort of at most six */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && g->ev[order[j]].t < g->ev[order[j - 1]].t; j--) {
			int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (int i = 0; i < n; i++) {
		int k = order[i], level = 0;
		double x = left + w * (double)g->ev[k].t / (double)span;
		char ea[96];

		while (level < 2 && x - last_x[level] < 9)
			level++;
		last_x[level] = x;
		plot_marker(c, event_shapes[k], x, ly, 3.5, col);
		snprintf(ea, sizeof(ea),
			 "data-gesture=\"%u\" data-event=\"%s\" data-t=\"%" PRIu64 "\"",
			 g->id, event_names[k], g->ev[k].t);
		plot_label(c, x + 4, ly + level_dy[level], PLOT_LEFT, 8, col, 1, "event", ea,
			   event_letters[k]);
	}
}

static const struct plot_rgb ink = { 0.15, 0.15, 0.15 };
static const struct plot_rgb faint = { 0.82, 0.82, 0.82 };

void
plot_timeline(struct plot_canvas *c, const struct plot_data *d,
	      const struct plot_info *info, double left, double right, double top)
{
	cairo_t *cr = c->cr;
	uint64_t span = d->t_last ? d->t_last : 1, step = tick_step(span, 10);
	double w = right - left, y = top + AXIS_H, bottom;
	size_t n = d->ntouches > d->ngestures ? d->ntouches : d->ngestures;
	size_t *lane = calloc(n ? n : 1, sizeof(*lane));
	size_t nt, ns[REPLAY_MAX_SUBS];
	char text[160];

#define TX(t) (left + w * (double)(t) / (double)span)
	if (!lane) {
		c->oom = 1;
		return;
	}
	row_lanes(d, info, &nt, ns);
	bottom = top + plot_timeline_height(d, info) - ROW_GAP;

	/* time axis and grid */
	plot_label(c, left, top + 10, PLOT_LEFT, 11, ink, 1, "axis-title", NULL,
		   "time (ms since the first event)");
	cairo_set_line_width(cr, 1);
	for (uint64_t t = 0; t <= span; t += step) {
		double x = TX(t);

		plot_set_rgb(c, faint, 1);
		cairo_move_to(cr, x, top + AXIS_H - 4);
		cairo_line_to(cr, x, bottom);
		cairo_stroke(cr);
		snprintf(text, sizeof(text), "%" PRIu64, t);
		plot_label(c, x, top + AXIS_H - 7, PLOT_CENTER, 9, ink, 0, "axis", NULL, text);
	}

	/* touches */
	plot_label(c, left - 6, y + 13, PLOT_RIGHT, 10, ink, 1, "row", "data-row=\"touches\"",
		   "touches");
	y += ROW_HEAD - 6;
	lanes_of(d, 1, 0, lane);
	for (size_t i = 0; i < d->ntouches; i++) {
		const struct plot_touch *tp = &d->touches[i];
		double x0 = TX(tp->t_begin), x1 = TX(tp->ended ? tp->t_end : d->t_last);

		plot_set_rgb(c, plot_touch_rgb(tp->id), 1);
		cairo_rectangle(cr, x0, y + (double)lane[i] * TOUCH_LANE + 1,
				x1 - x0 > 1.5 ? x1 - x0 : 1.5, TOUCH_LANE - 3);
		cairo_fill(cr);
	}
	y += (double)(nt ? nt : 1) * TOUCH_LANE + ROW_GAP + 6;

	/* one row per subscription */
	for (int s = 0; s < info->opts->nsubs; s++) {
		char attrs[32];
		size_t count = 0;

		snprintf(text, sizeof(text), "subscription %d: %s", s, info->subtext[s]);
		snprintf(attrs, sizeof(attrs), "data-sub=\"%d\"", s);
		plot_label(c, left, y + 13, PLOT_LEFT, 10, ink, 1, "sub", attrs, text);
		plot_set_rgb(c, faint, 1);
		cairo_move_to(cr, left, y + 1);
		cairo_line_to(cr, right, y + 1);
		cairo_stroke(cr);
		y += ROW_HEAD;
		lanes_of(d, 0, s, lane);
		for (size_t i = 0; i < d->ngestures; i++) {
			const struct plot_gesture *g = &d->gestures[i];
			struct plot_rgb col = plot_gesture_rgb(i);
			double ly = y + (double)lane[i] * GESTURE_LANE + GESTURE_LANE / 2;
			double x0, x1;
			char mask[64], ga[48];

			if (g->sub != s)
				continue;
			count++;
			x0 = TX(g->ev[PLOT_EV_BEGIN].t);
			x1 = TX(gesture_end(g, d->t_last));
			cairo_save(cr);
			cairo_set_line_width(cr, 3);
			cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
			plot_set_rgb(c, col, 0.45);
			cairo_move_to(cr, x0, ly);
			cairo_line_to(cr, x1 > x0 + 1 ? x1 : x0 + 1, ly);
			cairo_stroke(cr);
			cairo_restore(cr);
			subspec_mask_str(g->recognized, mask, sizeof(mask));
			snprintf(ga, sizeof(ga), "data-gesture=\"%u\" data-sub=\"%d\"", g->id, s);
			{
				size_t used = (size_t)snprintf(text, sizeof(text), "g%u %s [", g->id,
							       g->recognized ? mask : "unrecognized");

				for (unsigned int k = 0; k < g->ntouches && k < 8 && used < sizeof(text); k++)
					used += (size_t)snprintf(text + used, sizeof(text) - used,
								 "%s%" PRIu32, k ? "," : "", g->touches[k]);
				if (used < sizeof(text))
					snprintf(text + used, sizeof(text) - used, "%s]",
						 g->ntouches > 8 ? ",..." : "");
			}
			plot_label(c, x0 - 6, ly + 3.5, PLOT_RIGHT, 9, col, 0, "gesture", ga, text);
			draw_events(c, g, col, left, w, span, ly);
		}
		if (!count)
			plot_label(c, left + 8, y + GESTURE_LANE / 2 + 4, PLOT_LEFT, 9, ink, 0, "note",
				   NULL, "no gestures");
		y += (double)(ns[s] ? ns[s] : 1) * GESTURE_LANE + ROW_GAP;
	}
#undef TX
	free(lane);
}
