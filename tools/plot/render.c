/*
 * The whole picture: a title, the plot of the touch plane (touch paths,
 * gesture centroid paths and event markers), a legend on its right and
 * the timeline below.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "plot.h"

#define MARGIN 14.0
#define AREA_TOP 56.0
#define AREA_LEFT 64.0
#define LEGEND_W 150.0
#define TIMELINE_LEFT 170.0
#define MIN_PLOT_H 220.0
#define MAX_PLOT_H 600.0

#define TOUCH_WIDTH 2.0      /* the widths tell touch and gesture paths apart */
#define GESTURE_WIDTH 1.5

static const struct plot_rgb ink = { 0.15, 0.15, 0.15 };
static const struct plot_rgb grey = { 0.55, 0.55, 0.55 };
static const struct plot_rgb faint = { 0.88, 0.88, 0.88 };

/* The rectangle of the touch plane shown and its mapping to the canvas. */
struct view {
	double x0, y0, scale;    /* point (x0, y0) at the area's corner */
	double left, top, w, h;  /* plot area on the canvas */
};

static void
widen(double *lo, double *hi, double v)
{
	if (v < *lo)
		*lo = v;
	if (v > *hi)
		*hi = v;
}

/* Fit every touch and gesture point into @p width px with one scale for
 * both axes, keeping the height between MIN_PLOT_H and MAX_PLOT_H. */
static void
fit(struct view *v, const struct plot_data *d, double left, double top, double width)
{
	double xl = INFINITY, xh = -INFINITY, yl = INFINITY, yh = -INFINITY, bw, bh, pad;

	for (size_t i = 0; i < d->ntouches; i++)
		for (size_t k = 0; k < d->touches[i].npts; k++) {
			widen(&xl, &xh, d->touches[i].pts[k].x);
			widen(&yl, &yh, d->touches[i].pts[k].y);
		}
	for (size_t i = 0; i < d->ngestures; i++)
		for (size_t k = 0; k < d->gestures[i].npts; k++) {
			widen(&xl, &xh, d->gestures[i].pts[k].x);
			widen(&yl, &yh, d->gestures[i].pts[k].y);
		}
	if (!(xl <= xh) || !(yl <= yh) || !isfinite(xh - xl) || !isfinite(yh - yl)) {
		xl = yl = 0;
		xh = yh = 100;
	}
	pad = fmax(fmax(xh - xl, yh - yl) * 0.06, 20);
	xl -= pad, xh += pad, yl -= pad, yh += pad;
	bw = xh - xl;
	bh = yh - yl;
	v->left = left;
	v->top = top;
	v->w = width;
	v->scale = width / bw;
	v->h = bh * v->scale;
	v->x0 = xl;
	v->y0 = yl;
	if (v->h > MAX_PLOT_H) {
		/* too tall: shrink and centre horizontally */
		v->scale = MAX_PLOT_H / bh;
		v->h = MAX_PLOT_H;
		v->x0 = xl - (width / v->scale - bw) / 2;
	} else if (v->h < MIN_PLOT_H) {
		/* too flat: show more above and below */
		v->h = MIN_PLOT_H;
		v->y0 = yl - (MIN_PLOT_H / v->scale - bh) / 2;
	}
}

static double
vx(const struct view *v, double x)
{
	return v->left + (x - v->x0) * v->scale;
}

static double
vy(const struct view *v, double y)
{
	return v->top + (y - v->y0) * v->scale;
}

static double
nice_step(double span, int want)
{
	double raw = span / want, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

static void
draw_axes(struct plot_canvas *c, const struct view *v, int direct)
{
	cairo_t *cr = c->cr;
	double step = nice_step(fmax(v->w, v->h) / v->scale, 8);
	char text[32];

	cairo_set_line_width(cr, 1);
	for (double x = ceil(v->x0 / step) * step; vx(v, x) <= v->left + v->w; x += step) {
		plot_set_rgb(c, faint, 1);
		cairo_move_to(cr, vx(v, x), v->top);
		cairo_line_to(cr, vx(v, x), v->top + v->h);
		cairo_stroke(cr);
		snprintf(text, sizeof(text), "%.0f", x);
		plot_label(c, vx(v, x), v->top + v->h + 13, PLOT_CENTER, 9, ink, 0, "axis", NULL,
			   text);
	}
	for (double y = ceil(v->y0 / step) * step; vy(v, y) <= v->top + v->h; y += step) {
		plot_set_rgb(c, faint, 1);
		cairo_move_to(cr, v->left, vy(v, y));
		cairo_line_to(cr, v->left + v->w, vy(v, y));
		cairo_stroke(cr);
		snprintf(text, sizeof(text), "%.0f", y);
		plot_label(c, v->left - 5, vy(v, y) + 3, PLOT_RIGHT, 9, ink, 0, "axis", NULL, text);
	}
	plot_set_rgb(c, grey, 1);
	cairo_rectangle(cr, v->left, v->top, v->w, v->h);
	cairo_stroke(cr);
	plot_label(c, v->left + v->w, v->top + v->h + 26, PLOT_RIGHT, 9, ink, 0, "axis-title",
		   NULL, direct ? "window coordinates (px)" : "device coordinates (units)");
}

static void
stroke_points(cairo_t *cr, const struct view *v, const struct plot_point *p, size_t n)
{
	cairo_new_path(cr);
	cairo_move_to(cr, vx(v, p[0].x), vy(v, p[0].y));
	/* a touch that never moved is still a visible dot */
	if (n == 1)
		cairo_line_to(cr, vx(v, p[0].x), vy(v, p[0].y));
	for (size_t k = 1; k < n; k++)
		cairo_line_to(cr, vx(v, p[k].x), vy(v, p[k].y));
	cairo_stroke(cr);
}

static void
draw_touches(struct plot_canvas *c, const struct view *v, const struct plot_data *d)
{
	cairo_t *cr = c->cr;
	char text[16], attrs[32];

	cairo_save(cr);
	cairo_set_line_width(cr, TOUCH_WIDTH);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	for (size_t i = 0; i < d->ntouches; i++) {
		const struct plot_touch *tp = &d->touches[i];

		if (!tp->npts)
			continue;
		plot_set_rgb(c, plot_touch_rgb(tp->id), 1);
		stroke_points(cr, v, tp->pts, tp->npts);
	}
	cairo_restore(cr);
	for (size_t i = 0; i < d->ntouches; i++) {
		const struct plot_touch *tp = &d->touches[i];
		struct plot_rgb col = plot_touch_rgb(tp->id);
		const struct plot_point *b, *e;

		if (!tp->npts)
			continue;
		b = &tp->pts[0];
		e = &tp->pts[tp->npts - 1];
		plot_marker(c, PLOT_DOT, vx(v, b->x), vy(v, b->y), 4, col);
		if (tp->ended)
			plot_marker(c, PLOT_RING, vx(v, e->x), vy(v, e->y), 5.5, col);
		snprintf(text, sizeof(text), "%" PRIu32, tp->id);
		snprintf(attrs, sizeof(attrs), "data-touch=\"%" PRIu32 "\"", tp->id);
		plot_label(c, vx(v, b->x) - 6, vy(v, b->y) - 6, PLOT_RIGHT, 10, col, 1, "touch",
			   attrs, text);
	}
}

static void
draw_gestures(struct plot_canvas *c, const struct view *v, const struct plot_data *d)
{
	static const double dash[] = { 5, 3 };
	cairo_t *cr = c->cr;

	cairo_save(cr);
	cairo_set_line_width(cr, GESTURE_WIDTH);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	cairo_set_dash(cr, dash, 2, 0);
	for (size_t i = 0; i < d->ngestures; i++) {
		const struct plot_gesture *g = &d->gestures[i];

		if (!g->npts)
			continue;
		plot_set_rgb(c, plot_gesture_rgb(i), 1);
		stroke_points(cr, v, g->pts, g->npts);
	}
	cairo_restore(cr);
	for (size_t i = 0; i < d->ngestures; i++) {
		const struct plot_gesture *g = &d->gestures[i];
		struct plot_rgb col = plot_gesture_rgb(i);
		char text[16], attrs[48];

		for (int k = 0; k < PLOT_EV_COUNT; k++)
			if (plot_has(g, (enum plot_event_kind)k))
				plot_marker(c, plot_event_shape((enum plot_event_kind)k),
					    vx(v, g->ev[k].x), vy(v, g->ev[k].y), 4, col);
		snprintf(text, sizeof(text), "g%u", g->id);
		snprintf(attrs, sizeof(attrs), "data-gesture=\"%u\"", g->id);
		plot_label(c, vx(v, g->ev[PLOT_EV_BEGIN].x) + 7, vy(v, g->ev[PLOT_EV_BEGIN].y) + 14,
			   PLOT_LEFT, 10, col, 1, "gesture-tag", attrs, text);
	}
}

static void
draw_legend(struct plot_canvas *c, const struct view *v, const struct plot_data *d,
	    double x)
{
	cairo_t *cr = c->cr;
	double y = v->top + 10, bottom = v->top + v->h;
	size_t room;
	char text[48], attrs[32];

	plot_label(c, x, y, PLOT_LEFT, 10, ink, 1, "legend-title", NULL, "touches");
	y += 14;
	/* the event key needs 9 lines; the touches get the rest */
	room = bottom - y > 9 * 13 ? (size_t)((bottom - y - 9 * 13) / 13) : 1;
	for (size_t i = 0; i < d->ntouches; i++) {
		const struct plot_touch *tp = &d->touches[i];

		if (i + 1 == room && d->ntouches > room) {
			snprintf(text, sizeof(text), "... %zu more", d->ntouches - i);
			plot_label(c, x + 22, y, PLOT_LEFT, 9, ink, 0, "legend", NULL, text);
			y += 13;
			break;
		}
		plot_set_rgb(c, plot_touch_rgb(tp->id), 1);
		cairo_rectangle(cr, x, y - 6, 16, 4);
		cairo_fill(cr);
		snprintf(text, sizeof(text), "touch %" PRIu32, tp->id);
		snprintf(attrs, sizeof(attrs), "data-touch=\"%" PRIu32 "\"", tp->id);
		plot_label(c, x + 22, y, PLOT_LEFT, 9, ink, 0, "legend", attrs, text);
		y += 13;
	}
	if (!d->ntouches) {
		plot_label(c, x, y, PLOT_LEFT, 9, ink, 0, "note", NULL, "no touches");
		y += 13;
	}
	y += 6;
	plot_marker(c, PLOT_DOT, x + 8, y - 3.5, 3.5, ink);
	plot_label(c, x + 22, y, PLOT_LEFT, 9, ink, 0, "legend", NULL, "touch begins");
	y += 13;
	plot_marker(c, PLOT_RING, x + 8, y - 3.5, 4.5, ink);
	plot_label(c, x + 22, y, PLOT_LEFT, 9, ink, 0, "legend", NULL, "touch ends");
	y += 17;
	plot_label(c, x, y, PLOT_LEFT, 10, ink, 1, "legend-title", NULL, "gesture (- - centroid)");
	y += 14;
	for (int k = 0; k < PLOT_EV_COUNT; k++) {
		plot_marker(c, plot_event_shape((enum plot_event_kind)k), x + 8, y - 3.5, 3.5, ink);
		snprintf(text, sizeof(text), "%s  %s", plot_event_letter((enum plot_event_kind)k),
			 plot_event_name((enum plot_event_kind)k));
		plot_label(c, x + 22, y, PLOT_LEFT, 9, ink, 0, "legend", NULL, text);
		y += 13;
	}
}

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void
draw_title(struct plot_canvas *c, const struct plot_data *d, const struct plot_info *info)
{
	static const char *const policies[] = { "accept", "accept-cf", "reject", "none" };
	const struct ut_evstream_opts *s = &info->opts->stream;
	char text[512];

	snprintf(text, sizeof(text), "%s: %s, %s, %zu touch%s, %zu gesture%s",
		 base_name(info->path), info->device[0] ? info->device : "unnamed device",
		 info->direct ? "direct" : "indirect", d->ntouches, d->ntouches == 1 ? "" : "es",
		 d->ngestures, d->ngestures == 1 ? "" : "s");
	plot_label(c, MARGIN, 22, PLOT_LEFT, 13, ink, 1, "title", NULL, text);
	snprintf(text, sizeof(text), "policy %s; framing: %s%s%s%sown=%s%s",
		 policies[info->opts->policy], s->split ? "split " : "",
		 s->reverse ? "reverse " : "", s->begin_first ? "begin-first " : "",
		 s->split ? "" : "a frame per report, ",
		 s->own == UT_OWN_EVENT ? "event" : "begin",
		 s->split && s->reverse && s->own == UT_OWN_EVENT ? " (--x11)" : "");
	plot_label(c, MARGIN, 40, PLOT_LEFT, 10, grey, 0, "subtitle", NULL, text);
}

int
plot_render(struct plot_canvas *c, enum plot_format format, const struct plot_data *d,
	    const struct plot_info *info)
{
	double width = info->width, height;
	struct view v;

	fit(&v, d, AREA_LEFT, AREA_TOP, width - AREA_LEFT - LEGEND_W - MARGIN);
	height = v.top + v.h + 40 + plot_timeline_height(d, info) + MARGIN;
	if (format == PLOT_PNG && height > PLOT_PNG_MAX) {
		errno = EFBIG;
		return -1;
	}
	if (plot_canvas_init(c, format, (int)width, (int)ceil(height)) < 0) {
		errno = ENOMEM;
		return -1;
	}
	draw_title(c, d, info);
	draw_axes(c, &v, info->direct);
	draw_touches(c, &v, d);
	draw_gestures(c, &v, d);
	draw_legend(c, &v, d, width - LEGEND_W + 4);
	plot_timeline(c, d, info, TIMELINE_LEFT, width - MARGIN - 12, v.top + v.h + 40);
	if (c->oom) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}
