/* Scenario parser: see doc/synth.md for the language. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"
#include "tool.h"

#define MAX_LINE 4096
#define MAX_REPEAT_DEPTH 8
#define MAX_TOTAL_TOUCHES 100000
#define MAX_TIME_US (3600LL * 1000000LL) /* one hour of recording */

struct arg {
	char *key, *value;
	bool used;
};

struct line {
	int number;
	char *keyword;          /* first word */
	char *subword;          /* second word of a `then` line, `device NAME`, ... */
	struct arg args[SYNTH_MAX_ARGS];
	size_t nargs;
};

struct parser {
	struct synth_scenario *sc;
	struct line *lines;
	size_t nlines;
	bool failed;

	/* interpreter state */
	int64_t base_us;        /* start of the current group */
	size_t group_first;     /* first touch index of the current group */
	size_t set[SYNTH_MAX_TOUCHES]; /* touches of the last touch statement */
	size_t nset;
	int64_t set_cursor;     /* end time of the set's last segment */
	bool touches_started;
};

static void
fail(struct parser *p, int line, const char *fmt, ...)
{
	va_list ap;

	if (p->failed)
		return;
	p->failed = true;
	fprintf(stderr, "%s:%d: ", p->sc->path, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void *
xcalloc(size_t n, size_t size)
{
	void *ptr = calloc(n, size);
	if (!ptr)
		tool_oom();
	return ptr;
}

static char *
xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d)
		tool_oom();
	return d;
}

/* ------------------------------------------------------------------ */
/* tokenising                                                          */

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Split one line (modified in place) into words; comments start with '#'. */
static bool
tokenize(struct parser *p, char *text, int number, struct line *out)
{
	char *words[SYNTH_MAX_ARGS + 2];
	size_t nwords = 0;
	char *s = text;

	memset(out, 0, sizeof(*out));
	out->number = number;
	for (;;) {
		while (is_blank(*s))
			s++;
		if (*s == '\0' || *s == '#' || *s == '\n')
			break;
		if (nwords == sizeof(words) / sizeof(words[0])) {
			fail(p, number, "too many words on the line (at most %zu)",
			     sizeof(words) / sizeof(words[0]));
			return false;
		}
		words[nwords++] = s;
		while (*s && !is_blank(*s) && *s != '#' && *s != '\n')
			s++;
		if (*s == '#' || *s == '\n') {
			*s = '\0';
			break;
		}
		if (*s)
			*s++ = '\0';
	}
	if (nwords == 0)
		return true;

	out->keyword = words[0];
	size_t first_arg = 1;
	/* `then KIND` and `device NAME`, `rate HZ`, `jitter MM`, `repeat N`
	 * take one positional word */
	if (nwords > 1 && !strchr(words[1], '=')) {
		out->subword = words[1];
		first_arg = 2;
	}
	for (size_t i = first_arg; i < nwords; i++) {
		char *eq = strchr(words[i], '=');
		if (!eq || eq == words[i]) {
			fail(p, number, "expected key=value, found '%s'", words[i]);
			return false;
		}
		*eq = '\0';
		for (size_t j = 0; j < out->nargs; j++) {
			if (strcmp(out->args[j].key, words[i]) == 0) {
				fail(p, number, "key '%s' given twice", words[i]);
				return false;
			}
		}
		if (eq[1] == '\0') {
			fail(p, number, "key '%s' has no value", words[i]);
			return false;
		}
		out->args[out->nargs].key = words[i];
		out->args[out->nargs].value = eq + 1;
		out->nargs++;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* argument access                                                     */

static struct arg *
find_arg(struct line *l, const char *key)
{
	for (size_t i = 0; i < l->nargs; i++) {
		if (strcmp(l->args[i].key, key) == 0) {
			l->args[i].used = true;
			return &l->args[i];
		}
	}
	/* the American spelling is accepted too */
	if (strcmp(key, "centre") == 0)
		return find_arg(l, "center");
	return NULL;
}

static bool
parse_double(const char *s, double *out)
{
	char *end;

	if (*s == '\0')
		return false;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end != '\0' || !isfinite(v))
		return false;
	/* hex floats and "inf"/"nan" words are not numbers here */
	for (const char *c = s; *c; c++) {
		if (!strchr("0123456789+-.eE", *c))
			return false;
	}
	*out = v;
	return true;
}

/* Number; `present` is set when the key exists.  Returns false on error. */
static bool
get_number(struct parser *p, struct line *l, const char *key, bool required,
	   double min, double max, double *out)
{
	struct arg *a = find_arg(l, key);

	if (!a) {
		if (required) {
			fail(p, l->number, "'%s' needs %s=", l->subword && !strcmp(l->keyword, "then") ?
			     l->subword : l->keyword, key);
			return false;
		}
		return true;
	}
	double v;
	if (!parse_double(a->value, &v)) {
		fail(p, l->number, "%s=%s is not a number", key, a->value);
		return false;
	}
	if (v < min || v > max) {
		fail(p, l->number, "%s=%s is out of range (%g..%g)", key, a->value, min, max);
		return false;
	}
	*out = v;
	return true;
}

static bool
get_point(struct parser *p, struct line *l, const char *key, bool required,
	  bool *present, double *x, double *y)
{
	struct arg *a = find_arg(l, key);

	*present = a != NULL;
	if (!a) {
		if (required) {
			fail(p, l->number, "'%s' needs %s=X,Y", l->subword && !strcmp(l->keyword, "then") ?
			     l->subword : l->keyword, key);
			return false;
		}
		return true;
	}
	char buf[128];
	if (strlen(a->value) >= sizeof(buf)) {
		fail(p, l->number, "%s= value too long", key);
		return false;
	}
	strcpy(buf, a->value);
	char *comma = strchr(buf, ',');
	if (!comma) {
		fail(p, l->number, "%s=%s: expected two numbers X,Y (millimetres)", key, a->value);
		return false;
	}
	*comma = '\0';
	if (!parse_double(buf, x) || !parse_double(comma + 1, y) ||
	    fabs(*x) > 1e5 || fabs(*y) > 1e5) {
		fail(p, l->number, "%s=%s: expected two numbers X,Y (millimetres)", key, a->value);
		return false;
	}
	return true;
}

static bool
check_unused(struct parser *p, struct line *l)
{
	for (size_t i = 0; i < l->nargs; i++) {
		if (!l->args[i].used) {
			fail(p, l->number, "unknown key '%s' for '%s'", l->args[i].key,
			     l->subword && !strcmp(l->keyword, "then") ? l->subword : l->keyword);
			return false;
		}
	}
	return true;
}

static int64_t
ms_to_us(double ms)
{
	return (int64_t)llround(ms * 1000.0);
}

/* ------------------------------------------------------------------ */
/* touches and segments                                                */

int64_t
synth_touch_end(const struct synth_touch *t)
{
	return t->nsegs ? t->segs[t->nsegs - 1].t1 : t->start;
}

static void
segment_eval(const struct synth_segment *s, int64_t when, double *x, double *y)
{
	double u = 1.0;

	if (s->t1 > s->t0) {
		if (when <= s->t0)
			u = 0.0;
		else if (when < s->t1)
			u = (double)(when - s->t0) / (double)(s->t1 - s->t0);
	}
	switch (s->kind) {
	case SEG_HOLD:
		*x = s->x0;
		*y = s->y0;
		break;
	case SEG_LINE:
		*x = s->x0 + u * s->dx;
		*y = s->y0 + u * s->dy;
		break;
	case SEG_ARC: {
		double a = u * s->amount, c = cos(a), sn = sin(a);
		double rx = s->x0 - s->cx, ry = s->y0 - s->cy;
		*x = s->cx + c * rx - sn * ry;
		*y = s->cy + sn * rx + c * ry;
		break;
	}
	case SEG_SCALE: {
		double f = 1.0 + u * (s->amount - 1.0);
		*x = s->cx + f * (s->x0 - s->cx);
		*y = s->cy + f * (s->y0 - s->cy);
		break;
	}
	}
}

void
synth_touch_position(const struct synth_touch *t, int64_t when, double *x, double *y)
{
	for (size_t i = 0; i < t->nsegs; i++) {
		if (when <= t->segs[i].t1 || i + 1 == t->nsegs) {
			segment_eval(&t->segs[i], when, x, y);
			return;
		}
	}
	*x = *y = 0.0; /* a touch always has a segment */
}

void
synth_touch_ticks(const struct synth_touch *t, int64_t interval_us,
		  int64_t *first, int64_t *last, int64_t *release)
{
	int64_t end = synth_touch_end(t);
	int64_t f = (t->start + interval_us - 1) / interval_us * interval_us;
	int64_t l = end / interval_us * interval_us;

	if (l < f)
		l = f;
	*first = f;
	*last = l;
	*release = l + interval_us;
}

static void
touch_add_segment(struct synth_touch *t, const struct synth_segment *seg)
{
	TOOL_RESERVE(t->segs, t->capsegs, t->nsegs + 1, 4);
	struct synth_segment *s = &t->segs[t->nsegs++];
	*s = *seg;
	segment_eval(s, s->t1, &s->x1, &s->y1);
}

static void
touch_last_position(const struct synth_touch *t, double *x, double *y)
{
	const struct synth_segment *s = &t->segs[t->nsegs - 1];
	*x = s->x1;
	*y = s->y1;
}

static struct synth_touch *
new_touch(struct parser *p, int line, int64_t start)
{
	struct synth_scenario *sc = p->sc;

	if (sc->ntouches >= MAX_TOTAL_TOUCHES) {
		fail(p, line, "the scenario creates more than %d touches", MAX_TOTAL_TOUCHES);
		return NULL;
	}
	TOOL_RESERVE(sc->touches, sc->captouches, sc->ntouches + 1, 16);
	struct synth_touch *t = &sc->touches[sc->ntouches++];
	memset(t, 0, sizeof(*t));
	t->line = line;
	t->start = start;
	return t;
}

/* ------------------------------------------------------------------ */
/* statements                                                          */

/* Start time of a touch statement: group base + at=. */
static bool
statement_time(struct parser *p, struct line *l, int64_t *at_us)
{
	double at = 0.0;

	if (!get_number(p, l, "at", false, 0.0, 3600.0 * 1000.0, &at))
		return false;
	*at_us = p->base_us + ms_to_us(at);
	if (*at_us > MAX_TIME_US) {
		fail(p, l->number, "the scenario is longer than one hour");
		return false;
	}
	return true;
}

static bool
get_duration(struct parser *p, struct line *l, bool required, double def, int64_t *out)
{
	double dur = def;

	if (!get_number(p, l, "dur", required, 0.0, 3600.0 * 1000.0, &dur))
		return false;
	*out = ms_to_us(dur);
	return true;
}

/* Create `n` touches at the given positions, all sharing one first segment
 * template (kind and parameters) from t0 to t1; touch k lands k * stagger
 * later but lifts with the others. */
static bool
create_set(struct parser *p, struct line *l, size_t n, const double *xs,
	   const double *ys, const struct synth_segment *tmpl, int64_t stagger)
{
	if (tmpl->t1 - tmpl->t0 < (int64_t)(n - 1) * stagger) {
		fail(p, l->number, "stagger=%g ms makes the last touch land after the end of the motion",
		     (double)stagger / 1000.0);
		return false;
	}
	if (tmpl->t1 > MAX_TIME_US) {
		fail(p, l->number, "the scenario is longer than one hour");
		return false;
	}
	p->nset = 0;
	for (size_t k = 0; k < n; k++) {
		struct synth_touch *t = new_touch(p, l->number, tmpl->t0 + (int64_t)k * stagger);
		if (!t)
			return false;
		struct synth_segment seg = *tmpl;
		seg.x0 = xs[k];
		seg.y0 = ys[k];
		touch_add_segment(t, &seg);
		p->set[p->nset++] = (size_t)(t - p->sc->touches);
	}
	p->set_cursor = tmpl->t1;
	p->touches_started = true;
	return true;
}

/* touches=N spacing=MM row=DEG: positions of N touches in a row centred
 * on (x, y). */
static bool
row_layout(struct parser *p, struct line *l, double x, double y, size_t *n,
	   double *xs, double *ys)
{
	double count = 1.0, spacing = 20.0, row = 0.0;

	if (!get_number(p, l, "touches", false, 1, SYNTH_MAX_TOUCHES, &count) ||
	    !get_number(p, l, "spacing", false, 0.0, 1000.0, &spacing) ||
	    !get_number(p, l, "row", false, -3600.0, 3600.0, &row))
		return false;
	if (count != floor(count)) {
		fail(p, l->number, "touches= must be a whole number");
		return false;
	}
	*n = (size_t)count;
	double ca = cos(row * M_PI / 180.0), sa = sin(row * M_PI / 180.0);
	for (size_t k = 0; k < *n; k++) {
		double off = ((double)k - (double)(*n - 1) / 2.0) * spacing;
		xs[k] = x + off * ca;
		ys[k] = y + off * sa;
	}
	return true;
}

static bool
get_stagger(struct parser *p, struct line *l, int64_t *out)
{
	double stagger = 0.0;

	if (!get_number(p, l, "stagger", false, 0.0, 60000.0, &stagger))
		return false;
	*out = ms_to_us(stagger);
	return true;
}

static bool
stmt_touch(struct parser *p, struct line *l)
{
	struct synth_segment seg = { .kind = SEG_HOLD };
	double x, y, tx, ty;
	bool has_pos, has_from, has_to;
	int64_t dur = 0;

	if (!statement_time(p, l, &seg.t0))
		return false;
	if (!get_point(p, l, "pos", false, &has_pos, &x, &y))
		return false;
	if (!has_pos && !get_point(p, l, "from", false, &has_from, &x, &y))
		return false;
	if (!has_pos && !has_from) {
		fail(p, l->number, "'touch' needs pos=X,Y");
		return false;
	}
	if (!get_point(p, l, "to", false, &has_to, &tx, &ty) ||
	    !get_duration(p, l, has_to, 0.0, &dur) || !check_unused(p, l))
		return false;
	seg.t1 = seg.t0 + dur;
	if (has_to) {
		seg.kind = SEG_LINE;
		seg.dx = tx - x;
		seg.dy = ty - y;
	}
	return create_set(p, l, 1, &x, &y, &seg, 0);
}

/* tap and hold: touches that stay still */
static bool
stmt_still(struct parser *p, struct line *l, bool is_tap)
{
	struct synth_segment seg = { .kind = SEG_HOLD };
	double x, y, xs[SYNTH_MAX_TOUCHES], ys[SYNTH_MAX_TOUCHES];
	bool present;
	size_t n;
	int64_t dur, stagger;

	if (!statement_time(p, l, &seg.t0) ||
	    !get_point(p, l, "pos", true, &present, &x, &y) ||
	    !get_duration(p, l, !is_tap, 50.0, &dur) ||
	    !row_layout(p, l, x, y, &n, xs, ys) ||
	    !get_stagger(p, l, &stagger) || !check_unused(p, l))
		return false;
	seg.t1 = seg.t0 + dur;
	return create_set(p, l, n, xs, ys, &seg, stagger);
}

static bool
stmt_drag(struct parser *p, struct line *l)
{
	struct synth_segment seg = { .kind = SEG_LINE };
	double x, y, tx, ty, xs[SYNTH_MAX_TOUCHES], ys[SYNTH_MAX_TOUCHES];
	bool present;
	size_t n;
	int64_t dur, stagger;

	if (!statement_time(p, l, &seg.t0) ||
	    !get_point(p, l, "from", true, &present, &x, &y) ||
	    !get_point(p, l, "to", true, &present, &tx, &ty) ||
	    !get_duration(p, l, true, 0.0, &dur) ||
	    !row_layout(p, l, x, y, &n, xs, ys) ||
	    !get_stagger(p, l, &stagger) || !check_unused(p, l))
		return false;
	seg.t1 = seg.t0 + dur;
	seg.dx = tx - x;
	seg.dy = ty - y;
	return create_set(p, l, n, xs, ys, &seg, stagger);
}

static bool
stmt_pinch(struct parser *p, struct line *l)
{
	struct synth_segment seg = { .kind = SEG_SCALE };
	double from = 0, to = 0, angle = 0.0, xs[2], ys[2];
	bool present;
	int64_t dur, stagger;

	if (!statement_time(p, l, &seg.t0) ||
	    !get_point(p, l, "centre", true, &present, &seg.cx, &seg.cy) ||
	    !get_number(p, l, "from", true, 0.1, 10000.0, &from) ||
	    !get_number(p, l, "to", true, 0.1, 10000.0, &to) ||
	    !get_number(p, l, "angle", false, -3600.0, 3600.0, &angle) ||
	    !get_duration(p, l, true, 0.0, &dur) ||
	    !get_stagger(p, l, &stagger) || !check_unused(p, l))
		return false;
	seg.t1 = seg.t0 + dur;
	seg.amount = to / from;
	double ca = cos(angle * M_PI / 180.0), sa = sin(angle * M_PI / 180.0);
	xs[0] = seg.cx - from / 2.0 * ca;
	ys[0] = seg.cy - from / 2.0 * sa;
	xs[1] = seg.cx + from / 2.0 * ca;
	ys[1] = seg.cy + from / 2.0 * sa;
	return create_set(p, l, 2, xs, ys, &seg, stagger);
}

static bool
stmt_rotate(struct parser *p, struct line *l)
{
	struct synth_segment seg = { .kind = SEG_ARC };
	double radius = 0, start = 0.0, sweep = 0, count = 2.0;
	double xs[SYNTH_MAX_TOUCHES], ys[SYNTH_MAX_TOUCHES];
	bool present;
	int64_t dur, stagger;

	if (!statement_time(p, l, &seg.t0) ||
	    !get_point(p, l, "centre", true, &present, &seg.cx, &seg.cy) ||
	    !get_number(p, l, "radius", true, 0.0, 10000.0, &radius) ||
	    !get_number(p, l, "start", false, -3600.0, 3600.0, &start) ||
	    !get_number(p, l, "sweep", true, -36000.0, 36000.0, &sweep) ||
	    !get_number(p, l, "touches", false, 1, SYNTH_MAX_TOUCHES, &count) ||
	    !get_duration(p, l, true, 0.0, &dur) ||
	    !get_stagger(p, l, &stagger) || !check_unused(p, l))
		return false;
	if (count != floor(count)) {
		fail(p, l->number, "touches= must be a whole number");
		return false;
	}
	size_t n = (size_t)count;
	seg.t1 = seg.t0 + dur;
	seg.amount = sweep * M_PI / 180.0;
	for (size_t k = 0; k < n; k++) {
		double a = (start + 360.0 * (double)k / (double)n) * M_PI / 180.0;
		xs[k] = seg.cx + radius * cos(a);
		ys[k] = seg.cy + radius * sin(a);
	}
	return create_set(p, l, n, xs, ys, &seg, stagger);
}

/* Touches of the current set that are still down. */
static size_t
active_set(struct parser *p, size_t *idx)
{
	size_t n = 0;
	for (size_t i = 0; i < p->nset; i++) {
		if (!p->sc->touches[p->set[i]].lifted)
			idx[n++] = p->set[i];
	}
	return n;
}

static bool
stmt_then(struct parser *p, struct line *l)
{
	size_t idx[SYNTH_MAX_TOUCHES];
	size_t n = active_set(p, idx);
	struct synth_segment seg = { .kind = SEG_HOLD };
	const char *kind = l->subword;
	double cx = 0.0, cy = 0.0;
	bool present;
	int64_t dur = 0;

	if (!kind) {
		fail(p, l->number, "'then' needs a motion: move, hold, arc, scale, pinch or lift");
		return false;
	}
	if (p->nset == 0) {
		fail(p, l->number, "'then %s' without a touch statement before it in this group", kind);
		return false;
	}
	if (n == 0) {
		fail(p, l->number, "'then %s': every touch of the previous statement has been lifted", kind);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		double x, y;
		touch_last_position(&p->sc->touches[idx[i]], &x, &y);
		cx += x / (double)n;
		cy += y / (double)n;
	}

	if (strcmp(kind, "lift") == 0) {
		double count = (double)n;
		if (!get_number(p, l, "count", false, 1, (double)n, &count) || !check_unused(p, l))
			return false;
		if (count != floor(count)) {
			fail(p, l->number, "count= must be a whole number");
			return false;
		}
		for (size_t i = n - (size_t)count; i < n; i++)
			p->sc->touches[idx[i]].lifted = true;
		return true;
	}

	if (strcmp(kind, "move") == 0) {
		double tx, ty;
		bool has_to, has_by;
		if (!get_point(p, l, "to", false, &has_to, &tx, &ty) ||
		    !get_point(p, l, "by", false, &has_by, &seg.dx, &seg.dy))
			return false;
		if (has_to == has_by) {
			fail(p, l->number, "'then move' needs either to=X,Y or by=DX,DY");
			return false;
		}
		if (has_to) {
			seg.dx = tx - cx;
			seg.dy = ty - cy;
		}
		seg.kind = SEG_LINE;
	} else if (strcmp(kind, "hold") == 0) {
		seg.kind = SEG_HOLD;
	} else if (strcmp(kind, "arc") == 0 || strcmp(kind, "scale") == 0) {
		bool is_arc = kind[0] == 'a';
		seg.cx = cx;
		seg.cy = cy;
		if (!get_point(p, l, "centre", false, &present, &seg.cx, &seg.cy))
			return false;
		if (is_arc) {
			double sweep = 0;
			if (!get_number(p, l, "sweep", true, -36000.0, 36000.0, &sweep))
				return false;
			seg.kind = SEG_ARC;
			seg.amount = sweep * M_PI / 180.0;
		} else {
			if (!get_number(p, l, "factor", true, 0.01, 100.0, &seg.amount))
				return false;
			seg.kind = SEG_SCALE;
		}
	} else if (strcmp(kind, "pinch") == 0) {
		double to = 0, x0, y0, x1, y1;
		if (n != 2) {
			fail(p, l->number, "'then pinch' needs exactly two touches down, not %zu", n);
			return false;
		}
		if (!get_number(p, l, "to", true, 0.1, 10000.0, &to))
			return false;
		touch_last_position(&p->sc->touches[idx[0]], &x0, &y0);
		touch_last_position(&p->sc->touches[idx[1]], &x1, &y1);
		double d = hypot(x1 - x0, y1 - y0);
		if (d < 1e-6) {
			fail(p, l->number, "'then pinch': the two touches are at the same place");
			return false;
		}
		seg.kind = SEG_SCALE;
		seg.cx = cx;
		seg.cy = cy;
		seg.amount = to / d;
	} else {
		fail(p, l->number, "unknown motion 'then %s' (expected move, hold, arc, scale, pinch or lift)",
		     kind);
		return false;
	}
	if (!get_duration(p, l, true, 0.0, &dur) || !check_unused(p, l))
		return false;

	seg.t0 = p->set_cursor;
	seg.t1 = seg.t0 + dur;
	if (seg.t1 > MAX_TIME_US) {
		fail(p, l->number, "the scenario is longer than one hour");
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		struct synth_touch *t = &p->sc->touches[idx[i]];
		touch_last_position(t, &seg.x0, &seg.y0);
		touch_add_segment(t, &seg);
	}
	p->set_cursor = seg.t1;
	return true;
}

/* Start a new group after every touch so far has been released. */
static void
group_break(struct parser *p, int64_t gap)
{
	int64_t latest = p->base_us;

	if (p->group_first == p->sc->ntouches)
		return; /* nothing in this group yet */
	for (size_t i = p->group_first; i < p->sc->ntouches; i++) {
		int64_t first, last, release;
		synth_touch_ticks(&p->sc->touches[i], p->sc->interval_us, &first, &last, &release);
		if (release > latest)
			latest = release;
	}
	p->base_us = latest + gap;
	p->group_first = p->sc->ntouches;
	p->nset = 0;
}

static bool
get_gap(struct parser *p, struct line *l, int64_t *gap)
{
	double ms = 500.0;

	if (!get_number(p, l, "gap", false, 0.0, 3600.0 * 1000.0, &ms))
		return false;
	*gap = ms_to_us(ms);
	return true;
}

static bool run_lines(struct parser *p, size_t from, size_t to, int depth);

static bool
stmt_setting(struct parser *p, struct line *l)
{
	struct synth_scenario *sc = p->sc;
	const char *kw = l->keyword;

	if (p->touches_started && strcmp(kw, "device") != 0) {
		fail(p, l->number, "'%s' must come before the first touch", kw);
		return false;
	}
	if (strcmp(kw, "device") == 0) {
		double fuzz = -1;
		if (!l->subword) {
			fail(p, l->number, "'device' needs a preset name");
			return false;
		}
		if (sc->preset_name) {
			fail(p, l->number, "second 'device' line (the first is on line %d)",
			     sc->preset_line);
			return false;
		}
		if (!synth_preset_find(l->subword)) {
			fail(p, l->number, "unknown device preset '%s' (see utouch-synth --list-devices)",
			     l->subword);
			return false;
		}
		if (!get_number(p, l, "fuzz", false, 0, 10000, &fuzz) || !check_unused(p, l))
			return false;
		if (fuzz != floor(fuzz)) {
			fail(p, l->number, "fuzz= must be a whole number");
			return false;
		}
		sc->preset_name = xstrdup(l->subword);
		sc->preset_line = l->number;
		sc->fuzz = (int)fuzz;
		return true;
	}
	if (strcmp(kw, "rate") == 0) {
		double hz;
		if (!l->subword || !parse_double(l->subword, &hz)) {
			fail(p, l->number, "'rate' needs a number of reports per second");
			return false;
		}
		if (hz < 1.0 || hz > 1000.0) {
			fail(p, l->number, "rate %s is out of range (1..1000 Hz)", l->subword);
			return false;
		}
		if (!check_unused(p, l))
			return false;
		sc->rate_hz = hz;
		sc->interval_us = (int64_t)llround(1e6 / hz);
		return true;
	}
	/* jitter */
	double mm, seed = 1;
	if (!l->subword || !parse_double(l->subword, &mm) || mm < 0.0 || mm > 100.0) {
		fail(p, l->number, "'jitter' needs an amplitude in millimetres (0..100)");
		return false;
	}
	if (!get_number(p, l, "seed", false, 0, 4294967295.0, &seed) || !check_unused(p, l))
		return false;
	if (seed != floor(seed)) {
		fail(p, l->number, "seed= must be a whole number");
		return false;
	}
	sc->jitter_mm = mm;
	sc->seed = (uint64_t)seed;
	return true;
}

/* Index of the `end` matching the `repeat` at `from`, or `to` if none. */
static size_t
matching_end(struct parser *p, size_t from, size_t to)
{
	int depth = 0;
	for (size_t i = from; i < to; i++) {
		const char *kw = p->lines[i].keyword;
		if (strcmp(kw, "repeat") == 0)
			depth++;
		else if (strcmp(kw, "end") == 0 && --depth == 0)
			return i;
	}
	return to;
}

static bool
stmt_repeat(struct parser *p, size_t *i, size_t to, int depth)
{
	struct line *l = &p->lines[*i];
	double count;
	int64_t gap;

	if (depth >= MAX_REPEAT_DEPTH) {
		fail(p, l->number, "'repeat' nested deeper than %d", MAX_REPEAT_DEPTH);
		return false;
	}
	if (!l->subword || !parse_double(l->subword, &count) || count != floor(count) ||
	    count < 1 || count > 10000) {
		fail(p, l->number, "'repeat' needs a count (1..10000)");
		return false;
	}
	if (!get_gap(p, l, &gap) || !check_unused(p, l))
		return false;
	size_t end = matching_end(p, *i, to);
	if (end == to) {
		fail(p, l->number, "'repeat' without a matching 'end'");
		return false;
	}
	for (int k = 0; k < (int)count; k++) {
		group_break(p, gap);
		if (!run_lines(p, *i + 1, end, depth + 1))
			return false;
	}
	group_break(p, gap);
	*i = end;
	return true;
}

static bool
run_lines(struct parser *p, size_t from, size_t to, int depth)
{
	for (size_t i = from; i < to; i++) {
		struct line *l = &p->lines[i];
		const char *kw = l->keyword;
		bool ok;

		/* a line is checked anew each time a repeat runs it */
		for (size_t a = 0; a < l->nargs; a++)
			l->args[a].used = false;

		if (strcmp(kw, "repeat") == 0) {
			ok = stmt_repeat(p, &i, to, depth);
		} else if (strcmp(kw, "end") == 0) {
			fail(p, l->number, "'end' without 'repeat'");
			ok = false;
		} else if (strcmp(kw, "then") == 0) {
			ok = stmt_then(p, l);
		} else if (l->subword) {
			if (strcmp(kw, "device") == 0 || strcmp(kw, "rate") == 0 ||
			    strcmp(kw, "jitter") == 0) {
				ok = stmt_setting(p, l);
			} else {
				fail(p, l->number, "'%s' takes key=value arguments only, found '%s'",
				     kw, l->subword);
				ok = false;
			}
		} else if (strcmp(kw, "device") == 0 || strcmp(kw, "rate") == 0 ||
			   strcmp(kw, "jitter") == 0) {
			ok = stmt_setting(p, l);
		} else if (strcmp(kw, "next") == 0) {
			int64_t gap;
			ok = get_gap(p, l, &gap) && check_unused(p, l);
			if (ok)
				group_break(p, gap);
		} else if (strcmp(kw, "touch") == 0) {
			ok = stmt_touch(p, l);
		} else if (strcmp(kw, "tap") == 0) {
			ok = stmt_still(p, l, true);
		} else if (strcmp(kw, "hold") == 0) {
			ok = stmt_still(p, l, false);
		} else if (strcmp(kw, "drag") == 0) {
			ok = stmt_drag(p, l);
		} else if (strcmp(kw, "pinch") == 0) {
			ok = stmt_pinch(p, l);
		} else if (strcmp(kw, "rotate") == 0) {
			ok = stmt_rotate(p, l);
		} else {
			fail(p, l->number, "unknown statement '%s'", kw);
			ok = false;
		}
		if (!ok)
			return false;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* loading                                                             */

void
synth_scenario_free(struct synth_scenario *sc)
{
	if (!sc)
		return;
	for (size_t i = 0; i < sc->ntouches; i++)
		free(sc->touches[i].segs);
	free(sc->touches);
	free(sc->preset_name);
	free(sc->path);
	free(sc->basename);
	free(sc);
}

struct synth_scenario *
synth_scenario_load(const char *path)
{
	struct synth_scenario *sc = xcalloc(1, sizeof(*sc));
	struct parser p = { .sc = sc };
	FILE *fp;

	sc->path = xstrdup(path);
	const char *slash = strrchr(path, '/');
	sc->basename = xstrdup(slash ? slash + 1 : path);
	sc->fuzz = -1;
	sc->rate_hz = 100.0;
	sc->interval_us = 10000;
	sc->seed = 1;

	fp = fopen(path, "r");
	if (!fp) {
		fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
		synth_scenario_free(sc);
		return NULL;
	}

	/* read the lines; each keeps its own buffer for tokenize() */
	char **texts = NULL;
	size_t ntexts = 0, captexts = 0, caplines = 0;
	char *buf = NULL;
	size_t bufsize = 0;
	ssize_t len;
	int number = 0;
	bool ok = true;
	while ((len = getline(&buf, &bufsize, fp)) >= 0) {
		number++;
		if ((size_t)len > MAX_LINE + 1 ||
		    ((size_t)len == MAX_LINE + 1 && buf[len - 1] != '\n')) {
			fprintf(stderr, "%s:%d: line longer than %d bytes\n", path, number, MAX_LINE);
			ok = false;
			break;
		}
		if (memchr(buf, '\0', (size_t)len) != NULL) {
			fprintf(stderr, "%s:%d: NUL byte in the line\n", path, number);
			ok = false;
			break;
		}
		TOOL_RESERVE(texts, captexts, ntexts + 1, 64);
		TOOL_RESERVE(p.lines, caplines, ntexts + 1, 64);
		texts[ntexts] = xstrdup(buf);
		if (!tokenize(&p, texts[ntexts], number, &p.lines[p.nlines])) {
			ntexts++;
			ok = false;
			break;
		}
		ntexts++;
		if (p.lines[p.nlines].keyword)
			p.nlines++;
	}
	free(buf);
	if (ok && ferror(fp)) {
		fprintf(stderr, "%s: read error\n", path);
		ok = false;
	}
	fclose(fp);

	if (ok)
		ok = run_lines(&p, 0, p.nlines, 0);
	if (ok && sc->ntouches == 0) {
		fprintf(stderr, "%s:%d: the scenario has no touches\n", path, number);
		ok = false;
	}

	for (size_t i = 0; i < ntexts; i++)
		free(texts[i]);
	free(texts);
	free(p.lines);
	if (!ok) {
		synth_scenario_free(sc);
		return NULL;
	}
	return sc;
}
