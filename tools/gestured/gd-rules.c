/*
 * utouch-gestured: matching gestures against rules.
 */
#include "gd-rules.h"

#include <ctype.h>
#include <fnmatch.h>
#include <math.h>
#include <string.h>
#include <strings.h>

/* the name contains @p pat (any case), or matches it when it has * ? [ */
static int
device_name_matches(const struct gd_rule *r, const struct gd_query *q)
{
	const char *name = q->device_name ? q->device_name : "";

	if (!r->device_name)
		return 1;
	if (strpbrk(r->device_name, "*?["))
		return fnmatch(r->device_name, name, FNM_CASEFOLD) == 0;
	return strcasestr(name, r->device_name) != NULL;
}

/* the highest tap count of the tap rules for @p fingers fingers */
static int
max_taps(const struct gd_config *cfg, int fingers)
{
	int n = 1;

	for (size_t i = 0; i < cfg->nrules; i++)
		if (cfg->rules[i].kind == GD_TAP && cfg->rules[i].fingers == fingers &&
		    cfg->rules[i].taps > n)
			n = cfg->rules[i].taps;
	return n;
}

int
gd_rules_tap_count(const struct gd_config *cfg, int fingers, int taps)
{
	return taps < 1 ? 1 : (taps - 1) % max_taps(cfg, fingers) + 1;
}

void
gd_rules_orient(enum gd_orientation o, struct gd_query *q, struct gd_motion *m)
{
	double x, y, w, h, dx, dy;

	/* "auto" is resolved before (gd_daemon_orientation()); unresolved, it turns nothing */
	if (o == GD_ORIENT_NORMAL || o == GD_ORIENT_AUTO)
		return;
	if (q) {
		x = q->x, y = q->y, w = q->screen_w, h = q->screen_h;
		switch (o) {
		case GD_ORIENT_LEFT:   /* the picture's top is the device's left */
			q->x = h - y, q->y = x, q->screen_w = h, q->screen_h = w;
			break;
		case GD_ORIENT_RIGHT:
			q->x = y, q->y = w - x, q->screen_w = h, q->screen_h = w;
			break;
		default:
			q->x = w - x, q->y = h - y;
			break;
		}
		if (o != GD_ORIENT_INVERTED) {
			double t = q->mm_x;
			q->mm_x = q->mm_y;
			q->mm_y = t;
		}
	}
	if (m) {
		dx = m->dx_mm, dy = m->dy_mm;
		switch (o) {
		case GD_ORIENT_LEFT:
			m->dx_mm = -dy, m->dy_mm = dx;
			break;
		case GD_ORIENT_RIGHT:
			m->dx_mm = dy, m->dy_mm = -dx;
			break;
		default:
			m->dx_mm = -dx, m->dy_mm = -dy;
			break;
		}
	}
}

static int
app_matches(const struct gd_rule *r, const struct gd_query *q)
{
	if (!r->app)
		return 1;
	return (q->app_instance && !strcasecmp(r->app, q->app_instance)) ||
	       (q->app_class && !strcasecmp(r->app, q->app_class));
}

static int
edge_matches(const struct gd_rule *r, const struct gd_query *q)
{
	if (r->edge == GD_EDGE_NONE)
		return 1;
	double mx = r->edge_mm / (q->mm_x > 0 ? q->mm_x : 1.0);
	double my = r->edge_mm / (q->mm_y > 0 ? q->mm_y : 1.0);
	int left = q->x < mx, right = q->x >= q->screen_w - mx;
	int top = q->y < my, bottom = q->y >= q->screen_h - my;
	switch (r->edge) {
	case GD_EDGE_LEFT:
		return left;
	case GD_EDGE_RIGHT:
		return right;
	case GD_EDGE_TOP:
		return top;
	case GD_EDGE_BOTTOM:
		return bottom;
	case GD_EDGE_TOP_LEFT:
		return top && left;
	case GD_EDGE_TOP_RIGHT:
		return top && right;
	case GD_EDGE_BOTTOM_LEFT:
		return bottom && left;
	case GD_EDGE_BOTTOM_RIGHT:
		return bottom && right;
	default:
		return 1;
	}
}

static int
fixed_matches(const struct gd_config *cfg, const struct gd_rule *r, const struct gd_query *q)
{
	/* a tap rule for more taps than these may still be reached */
	if (r->kind == GD_TAP && r->taps < gd_rules_tap_count(cfg, q->fingers, q->taps))
		return 0;
	return r->kind == q->kind && r->fingers == q->fingers &&
	       (r->device == GD_DEV_ANY || r->device == q->device) &&
	       device_name_matches(r, q) && app_matches(r, q) && edge_matches(r, q);
}

size_t
gd_rules_candidates(const struct gd_config *cfg, const struct gd_query *q, size_t *out)
{
	size_t n = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < cfg->nrules && n < GD_MAX_CANDIDATES; i++) {
			const struct gd_rule *r = &cfg->rules[i];
			if ((pass == 0) != (r->app != NULL))
				continue;
			if (fixed_matches(cfg, r, q))
				out[n++] = i;
		}
	return n;
}

int
gd_rules_need_app(const struct gd_config *cfg, enum gd_kind kind, int fingers)
{
	for (size_t i = 0; i < cfg->nrules; i++)
		if (cfg->rules[i].app && cfg->rules[i].kind == kind &&
		    cfg->rules[i].fingers == fingers)
			return 1;
	return 0;
}

/* the nearest of the four axis directions */
static enum gd_dir
axis_dir(const struct gd_motion *m)
{
	if (fabs(m->dx_mm) >= fabs(m->dy_mm))
		return m->dx_mm >= 0 ? GD_DIR_RIGHT : GD_DIR_LEFT;
	return m->dy_mm >= 0 ? GD_DIR_DOWN : GD_DIR_UP;
}

static int
is_diagonal(enum gd_dir d)
{
	return d >= GD_DIR_UP_LEFT && d <= GD_DIR_DOWN_RIGHT;
}

/* the nearest of the eight directions (45 degree sectors) */
static enum gd_dir
eight_dir(const struct gd_motion *m)
{
	/* within 22.5 degrees of an axis: that axis */
	if (fabs(m->dy_mm) <= fabs(m->dx_mm) * tan(M_PI / 8) ||
	    fabs(m->dx_mm) <= fabs(m->dy_mm) * tan(M_PI / 8))
		return axis_dir(m);
	if (m->dy_mm < 0)
		return m->dx_mm < 0 ? GD_DIR_UP_LEFT : GD_DIR_UP_RIGHT;
	return m->dx_mm < 0 ? GD_DIR_DOWN_LEFT : GD_DIR_DOWN_RIGHT;
}

/* whether some candidate swipe rule names a diagonal: then every swipe
 * direction is one of eight, otherwise one of four */
static int
uses_diagonals(const struct gd_config *cfg, const size_t *cand, size_t ncand)
{
	for (size_t i = 0; i < ncand; i++)
		if (cfg->rules[cand[i]].kind == GD_SWIPE && is_diagonal(cfg->rules[cand[i]].dir))
			return 1;
	return 0;
}

/* the direction of a motion and how far it went (in the rule's unit) */
static double
magnitude(enum gd_kind kind, const struct gd_motion *m, enum gd_dir *dir)
{
	switch (kind) {
	case GD_SWIPE:
		*dir = axis_dir(m);
		return hypot(m->dx_mm, m->dy_mm);
	case GD_PINCH:
		*dir = m->spread_mm >= 0 ? GD_DIR_OUT : GD_DIR_IN;
		return fabs(m->spread_mm);
	case GD_ROTATE:
		*dir = m->angle_deg >= 0 ? GD_DIR_CW : GD_DIR_CCW;
		return fabs(m->angle_deg);
	case GD_HOLD:
		*dir = GD_DIR_ANY;
		return hypot(m->dx_mm, m->dy_mm);
	default:
		*dir = GD_DIR_ANY;
		return 0;
	}
}

int
gd_rules_is_translation(const struct gd_motion *m)
{
	return fabs(m->spread_mm) * GD_SWIPE_DOMINANCE <= hypot(m->dx_mm, m->dy_mm);
}

static void
drop(size_t *cand, size_t *ncand, size_t i)
{
	memmove(&cand[i], &cand[i + 1], (*ncand - i - 1) * sizeof(*cand));
	(*ncand)--;
}

enum gd_decision
gd_rules_decide(const struct gd_config *cfg, size_t *cand, size_t *ncand,
		const struct gd_motion *m, size_t *rule, enum gd_dir *dir)
{
	int eight = uses_diagonals(cfg, cand, *ncand);
	for (size_t i = 0; i < *ncand;) {
		const struct gd_rule *r = &cfg->rules[cand[i]];
		enum gd_dir d;
		double mag = magnitude(r->kind, m, &d);
		if (r->kind == GD_SWIPE && eight)
			d = eight_dir(m);
		int out = 0, accept = 0;
		switch (r->kind) {
		case GD_TAP:
			/* a tap is decided by the recognizer: it is one, of as
			 * many taps as grail counted; the rules for more taps
			 * wait for the next tap (gd_rules_tap_may_continue()) */
			d = GD_DIR_ANY;
			accept = r->taps == gd_rules_tap_count(cfg, r->fingers, m->taps);
			break;
		case GD_HOLD:
			if (mag > r->threshold)
				out = 1;    /* the fingers slipped */
			else if (m->elapsed_ms >= r->hold_ms)
				accept = !m->ended;
			else if (m->ended)
				out = 1;    /* lifted too early */
			break;
		default:
			if (r->kind == GD_SWIPE && !gd_rules_is_translation(m)) {
				/* the spread changes too much for the travel: a
				 * pinch (with its centre drifting) so far, and for
				 * good once the spread alone passes the threshold */
				out = fabs(m->spread_mm) >= r->threshold && r->threshold > 0;
				if (!out && r->timeout_ms > 0 && m->elapsed_ms > r->timeout_ms)
					out = 1;
				if (m->ended)
					out = 1;
				break;
			}
			if (mag >= r->threshold && mag > 0)
				accept = r->dir == GD_DIR_ANY || r->dir == d;
			out = !accept && (mag >= r->threshold && mag > 0);
			if (!accept && !out && r->timeout_ms > 0 && m->elapsed_ms > r->timeout_ms)
				out = 1;
			if (!accept && m->ended)
				out = 1;
			break;
		}
		if (accept && (i == 0 || r->kind == GD_TAP)) {
			*rule = cand[i];
			*dir = d;
			return GD_ACCEPT;
		}
		/* a match behind a candidate that still waits (an app rule,
		 * an earlier rule) waits for it */
		if (out)
			drop(cand, ncand, i);
		else
			i++;
	}
	return *ncand > 0 ? GD_WAIT : GD_REJECT;
}

double
gd_rules_progress(const struct gd_rule *r, enum gd_dir dir, const struct gd_motion *m)
{
	double v;
	switch (r->kind) {
	case GD_SWIPE:
		switch (dir) {
		case GD_DIR_UP: v = -m->dy_mm; break;
		case GD_DIR_DOWN: v = m->dy_mm; break;
		case GD_DIR_LEFT: v = -m->dx_mm; break;
		case GD_DIR_RIGHT: v = m->dx_mm; break;
		case GD_DIR_UP_LEFT: v = (-m->dx_mm - m->dy_mm) / M_SQRT2; break;
		case GD_DIR_UP_RIGHT: v = (m->dx_mm - m->dy_mm) / M_SQRT2; break;
		case GD_DIR_DOWN_LEFT: v = (-m->dx_mm + m->dy_mm) / M_SQRT2; break;
		case GD_DIR_DOWN_RIGHT: v = (m->dx_mm + m->dy_mm) / M_SQRT2; break;
		default: v = hypot(m->dx_mm, m->dy_mm); break;
		}
		break;
	case GD_PINCH:
		v = dir == GD_DIR_IN ? -m->spread_mm : m->spread_mm;
		break;
	case GD_ROTATE:
		v = dir == GD_DIR_CCW ? -m->angle_deg : m->angle_deg;
		break;
	default:
		return 1.0;
	}
	return v / r->distance;
}

double
gd_rules_next_deadline(const struct gd_config *cfg, const size_t *cand, size_t ncand)
{
	double best = -1;
	for (size_t i = 0; i < ncand; i++) {
		const struct gd_rule *r = &cfg->rules[cand[i]];
		double t = r->kind == GD_HOLD ? r->hold_ms : r->timeout_ms > 0 ? r->timeout_ms + 1 : -1;
		if (t >= 0 && (best < 0 || t < best))
			best = t;
	}
	return best;
}

int
gd_rules_tap_may_continue(const struct gd_config *cfg, const size_t *cand, size_t ncand,
			  int taps)
{
	for (size_t i = 0; i < ncand; i++) {
		const struct gd_rule *r = &cfg->rules[cand[i]];
		if (r->kind == GD_TAP && r->taps > gd_rules_tap_count(cfg, r->fingers, taps))
			return 1;
	}
	return 0;
}
