/*
 * utouch-replay --story: a few sentences about a replay (see story.h).
 */
#include "story.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "subspec.h"
#include "util/array.h"

struct story_gesture {
	unsigned int id;
	unsigned int touches;       /* at the first slice */
	UGGestureTypeMask mask;     /* everything recognized over its life */
	uint64_t t0, t1;            /* first and last slice */
	float x0, y0, x1, y1;       /* centre at the first and last slice */
	float scale, angle;         /* cumulative, at the last slice */
	float scale_min, scale_max; /* over its life */
	unsigned int taps;
	int atomic, ended, canceled;
	enum replay_decision decision;
};

struct story {
	double mm_x, mm_y;          /* millimetres per grail unit; 0: unknown */
	const char *unit;           /* what a grail unit is when mm are unknown */
	char device[128];
	int direct;
	uint64_t first_ms, last_ms;
	size_t frames, touches;
	struct story_gesture *g;
	size_t ng, capg;
	size_t last;                /* index of the gesture of the last slice */
};

static const struct input_absinfo *
position_axis(const struct libevdev *dev, unsigned int mt, unsigned int st)
{
	const struct input_absinfo *a = libevdev_get_abs_info(dev, mt);

	return a ? a : libevdev_get_abs_info(dev, st);
}

/* Millimetres per grail unit along one axis: window pixels spread over the
 * device's width for direct devices, device units otherwise. */
static double
mm_per_unit(const struct input_absinfo *a, int direct, int screen)
{
	double range;

	if (!a || a->resolution <= 0)
		return 0;
	range = (double)a->maximum - (double)a->minimum;
	if (!direct)
		return 1.0 / a->resolution;
	return range > 0 && screen > 0 ? range / a->resolution / screen : 0;
}

struct story *
story_new(const struct libevdev *dev, int direct, int screen_w, int screen_h)
{
	struct story *s = calloc(1, sizeof(*s));
	const struct input_absinfo *ax, *ay;
	const char *name;

	if (!s)
		return NULL;
	ax = position_axis(dev, ABS_MT_POSITION_X, ABS_X);
	ay = position_axis(dev, ABS_MT_POSITION_Y, ABS_Y);
	s->direct = direct;
	s->mm_x = mm_per_unit(ax, direct, screen_w);
	s->mm_y = mm_per_unit(ay, direct, screen_h);
	if (s->mm_x <= 0 || s->mm_y <= 0)
		s->mm_x = s->mm_y = 0;
	s->unit = direct ? "px" : "device units";
	name = libevdev_get_name(dev);
	snprintf(s->device, sizeof(s->device), "%s", name && *name ? name : "unnamed device");
	s->last = SIZE_MAX;
	return s;
}

void
story_frame(struct story *s, uint64_t time_ms, size_t nbegin)
{
	if (!s->frames++)
		s->first_ms = time_ms;
	s->last_ms = time_ms;
	s->touches += nbegin;
}

static struct story_gesture *
gesture_of(struct story *s, unsigned int id)
{
	/* slices of one gesture come in runs: look at the last one first */
	if (s->last < s->ng && s->g[s->last].id == id)
		return &s->g[s->last];
	for (size_t i = s->ng; i-- > 0;)
		if (s->g[i].id == id)
			return &s->g[s->last = i];
	if (!UT_ARRAY_RESERVE(s->g, s->capg, s->ng + 1, 16))
		return NULL;
	s->last = s->ng;
	memset(&s->g[s->ng], 0, sizeof(s->g[0]));
	s->g[s->ng].id = id;
	s->g[s->ng].scale = s->g[s->ng].scale_min = s->g[s->ng].scale_max = 1;
	return &s->g[s->ng++];
}

int
story_slice(struct story *s, UGEvent ev, UGSlice slice, int atomic,
	    enum replay_decision decision)
{
	struct story_gesture *g = gesture_of(s, grail_slice_get_id(slice));
	const UGTransform *C = grail_slice_get_cumulative_transform(slice);
	uint64_t t = grail_event_get_time(ev);
	float ocx = grail_slice_get_original_center_x(slice);
	float ocy = grail_slice_get_original_center_y(slice);

	if (!g)
		return -1;
	if (!g->t0) {
		g->t0 = t;
		g->touches = grail_slice_get_num_touches(slice);
		g->x0 = ocx;
		g->y0 = ocy;
		g->atomic = atomic;
	}
	g->t1 = t;
	g->mask |= grail_slice_get_recognized(slice);
	g->x1 = ocx + (*C)[0][2];
	g->y1 = ocy + (*C)[1][2];
	g->scale = sqrtf((*C)[0][0] * (*C)[0][0] + (*C)[1][0] * (*C)[1][0]);
	g->angle = atan2f((*C)[1][0], (*C)[0][0]);
	if (g->scale < g->scale_min)
		g->scale_min = g->scale;
	if (g->scale > g->scale_max)
		g->scale_max = g->scale;
	if (grail_slice_get_tap_count(slice) > g->taps)
		g->taps = grail_slice_get_tap_count(slice);
	if (grail_slice_get_state(slice) == UGGestureStateEnd) {
		g->ended = 1;
		g->canceled = grail_slice_get_canceled(slice) != 0;
	}
	if (decision != REPLAY_UNDECIDED)
		g->decision = decision;
	return 0;
}

static const char *
count_word(unsigned int n)
{
	static const char *const words[] = {
		"no", "one", "two", "three", "four", "five",
		"six", "seven", "eight", "nine", "ten",
	};
	return n < sizeof(words) / sizeof(words[0]) ? words[n] : NULL;
}

/* "two-finger", or "12-finger" past ten */
static void
fingers(unsigned int n, char *buf, size_t len)
{
	const char *w = count_word(n);

	if (w)
		snprintf(buf, len, "%s-finger", w);
	else
		snprintf(buf, len, "%u-finger", n);
}

/* One of eight compass words for a movement on a screen (y grows down). */
static const char *
direction(double dx, double dy)
{
	static const char *const names[] = {
		"right", "down and right", "down", "down and left",
		"left", "up and left", "up", "up and right",
	};
	double a = atan2(dy, dx);
	int sector = (int)lround(a / (M_PI / 4));

	return names[(sector + 8) % 8];
}

/* What the gesture was: "drag", "pinch and rotation", "double tap", ... */
static void
kind_of(const struct story_gesture *g, char *buf, size_t len)
{
	static const struct {
		UGGestureTypeMask bit;
		const char *name;
	} kinds[] = {
		{ UGGestureTypeDrag, "drag" },
		{ UGGestureTypePinch, "pinch" },
		{ UGGestureTypeRotate, "rotation" },
		{ UGGestureTypeHold, "long press" },
		{ UGGestureTypeEdgeSwipe, "edge swipe" },
	};
	size_t used = 0;

	buf[0] = '\0';
	if (g->mask & UGGestureTypeTap) {
		snprintf(buf, len, "%s", g->taps >= 3 ? "triple tap" :
			 g->taps == 2 ? "double tap" : "tap");
		return;
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (!(g->mask & kinds[i].bit) || used >= len)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 used ? " and " : "", kinds[i].name);
	}
	if (!used)
		snprintf(buf, len, "%s", g->mask & UGGestureTypeTouch ? "touch" : "gesture");
}

/* "27 mm down", or "in place" under a millimetre (or a unit when the
 * device gives no resolution). */
static void
travel(const struct story *s, const struct story_gesture *g, char *buf, size_t len)
{
	double dx = g->x1 - g->x0, dy = g->y1 - g->y0;
	double d;

	if (s->mm_x > 0) {
		dx *= s->mm_x;
		dy *= s->mm_y;
	}
	d = hypot(dx, dy);
	if (d < 1.0)
		snprintf(buf, len, "in place");
	else
		snprintf(buf, len, "%.0f %s %s", d, s->mm_x > 0 ? "mm" : s->unit,
			 direction(dx, dy));
}

static const char *
outcome(const struct story_gesture *g)
{
	if (g->decision == REPLAY_REJECTED)
		return "rejected";  /* grail sends no more of it */
	if (!g->ended)
		return "still going when the recording ended";
	if (g->canceled)
		return "canceled";
	switch (g->decision) {
	case REPLAY_ACCEPTED: return "accepted";
	case REPLAY_REJECTED: return "rejected";
	case REPLAY_UNDECIDED: break;
	}
	return g->atomic ? "atomic, grail decided" : "ended undecided";
}

/* ", closed to 40 % and back to 100 %": how far apart the fingers went,
 * as a share of where they started; nothing for a change under 5 % of a
 * gesture that is no pinch. */
static void
print_scale(const struct story_gesture *g, FILE *out)
{
	const float tol = 0.05f;
	int closed = g->scale_min < 1 - tol, spread = g->scale_max > 1 + tol;

	if (closed && spread)
		fprintf(out, ", between %.0f %% and %.0f %% of its spread", g->scale_min * 100.0,
			g->scale_max * 100.0);
	else if (closed)
		fprintf(out, ", closed to %.0f %%", g->scale_min * 100.0);
	else if (spread)
		fprintf(out, ", spread to %.0f %%", g->scale_max * 100.0);
	else if (g->mask & UGGestureTypePinch)
		fprintf(out, ", spread unchanged");
	if ((closed || spread) && fabsf(g->scale - (closed ? g->scale_min : g->scale_max)) > tol)
		fprintf(out, ", ending at %.0f %%", g->scale * 100.0);
}

static void
print_gesture(const struct story *s, const struct story_gesture *g, FILE *out)
{
	char who[32], kind[96], moved[64];
	double secs = (double)(g->t1 - g->t0) / 1000.0;
	double deg = g->angle * 180.0 / M_PI;

	fingers(g->touches, who, sizeof(who));
	kind_of(g, kind, sizeof(kind));
	travel(s, g, moved, sizeof(moved));
	fprintf(out, "gesture %u: %s %s, ", g->id, who, kind);
	if (g->mask & UGGestureTypeTap) {
		fprintf(out, "%.2f s", secs);
	} else {
		fprintf(out, "%s", moved);
		print_scale(g, out);
		if ((g->mask & UGGestureTypeRotate) || fabs(deg) > 5.0)
			fprintf(out, ", turned %.0f° %s", fabs(deg),
				deg >= 0 ? "clockwise" : "anticlockwise");
		fprintf(out, " in %.2f s", secs);
	}
	fprintf(out, "; %s\n", outcome(g));
}

void
story_print(const struct story *s, FILE *out, const char *name)
{
	size_t ended = 0;

	fprintf(out, "%s: %s \"%s\", %zu touch%s in %.2f s\n", name,
		s->direct ? "touchscreen" : "touchpad", s->device, s->touches,
		s->touches == 1 ? "" : "es",
		s->frames ? (double)(s->last_ms - s->first_ms) / 1000.0 : 0.0);
	for (size_t i = 0; i < s->ng; i++) {
		print_gesture(s, &s->g[i], out);
		ended += s->g[i].ended || s->g[i].decision == REPLAY_REJECTED ? 1 : 0;
	}
	if (!s->ng)
		fprintf(out, "no gestures\n");
	else if (ended == s->ng)
		fprintf(out, "%zu gesture%s, every one ended\n", s->ng, s->ng == 1 ? "" : "s");
	else
		fprintf(out, "%zu gesture%s, %zu still going\n", s->ng,
			s->ng == 1 ? "" : "s", s->ng - ended);
}

void
story_free(struct story *s)
{
	if (!s)
		return;
	free(s->g);
	free(s);
}
