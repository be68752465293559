

/*
 * utouch grail: slice geometry and primitive recognition.
 *
 * A slice summarises the gesture's touches by their centroid, their mean
 * distance from it (radius) and their mean angle around it.  Transforms
 * are the similarity transforms that map the previous (or original)
 * summary onto the current one.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grail-private.h"

static void
set_identity(float m[3][3])
{
	memset(m, 0, sizeof(float[3][3]));
	m[0][0] = m[1][1] = m[2][2] = 1.0f;
}

/*
 * Wrap an angle difference into about (-π, π].  The comparisons are done
 * in double on purpose: atan2f() can return the float nearest to π, which
 * is slightly larger than π, and grail 3.1 (whose traces we reproduce)
 * wrapped that value to -π.
 */
static float
wrap_angle(float d)
{
	if (d > M_PI)
		d = (float)(d - 2.0 * M_PI);
	else if (d < -M_PI)
		d = (float)(d + 2.0 * M_PI);
	return d;
}

/*
 * A touch's angle @a (as measured, in (-pi, pi]) moved by the whole turns
 * that bring its step @d from the previous, unwrapped angle into [-pi, pi]
 * (one turn: a + 2 pi, grail 3.1's rounding).  @keep gets what to remember
 * for the next step: the moved angle, or @a itself beyond eight turns so
 * that the remembered angle stays precise.  Rare (a touch crossing the
 * line behind the centroid), so kept out of the per-touch loop.
 */
static __attribute__((noinline, cold)) float
whole_turns(float a, float d, float *keep)
{
	double turns = nearbyint(-(double)d / (2.0 * M_PI));
	if (turns == 0.0)
		turns = d < 0.0f ? 1.0 : -1.0;
	/* (for one turn, a + 2 pi: turns * 2 pi is exact) */
	float moved = (float)(a + turns * (2.0 * M_PI));
	*keep = fabsf(moved) > (float)(16.0 * M_PI) ? a : moved;
	return moved;
}

/*
 * sinf and cosf of @x; at zero (one touch, or no rotation at all) the
 * values are known: sinf(±0) is ±0 and cosf(0) is 1.
 */
static inline void
sin_cos(float x, float *s, float *c)
{
	if (x == 0.0f) {
		*s = x;
		*c = 1.0f;
		return;
	}
	*s = sinf(x);
	*c = cosf(x);
}

/*
 * Mean of angles that may straddle ±π: the offsets of every angle from the
 * first one are wrapped into (-π, π] and averaged, so angles just above -π
 * and just below π average to about π instead of 0.  (A mean of unit
 * vectors would be undefined for two touches, whose angles around their
 * centroid are always opposite.)
 */
float
gr_angle_mean(const float *angles, unsigned int n)
{
	if (n == 0)
		return 0.0f;
	float sum = 0.0f;
	for (unsigned int i = 1; i < n; i++)
		sum += wrap_angle(angles[i] - angles[0]);
	return wrap_angle(angles[0] + sum / (float)n);
}

void
gr_center_of_rotation(float a, float b, float c, float d, float x0, float y0, float *x,
		      float *y)
{
	float div = (a - 1.0f) * (a - 1.0f) + b * b;

	if (fabsf(div) < 1e-5f) {
		*x = 0.0f;
		*y = 0.0f;
		return;
	}
	/* The fixed point p of p = R·s·(p - c0) + c0 + t, solved for p. */
	*x = (a * a * x0 - a * (2.0f * x0 + c) + b * b * x0 - b * d + c + x0) / div;
	*y = (a * a * y0 - a * (2.0f * y0 + d) + b * b * y0 + b * c + d + y0) / div;
}

bool
gr_similarity_fit(const float *px, const float *py, const float *qx, const float *qy,
		  unsigned int n, float *angle, float *scale)
{
	*angle = 0.0f;
	*scale = 1.0f;
	if (n == 0)
		return false;
	double pcx = 0.0, pcy = 0.0, qcx = 0.0, qcy = 0.0;
	for (unsigned int i = 0; i < n; i++) {
		pcx += px[i];
		pcy += py[i];
		qcx += qx[i];
		qcy += qy[i];
	}
	pcx /= n;
	pcy /= n;
	qcx /= n;
	qcy /= n;
	double dot = 0.0, cross = 0.0, norm = 0.0;
	for (unsigned int i = 0; i < n; i++) {
		double ax = px[i] - pcx, ay = py[i] - pcy;
		double bx = qx[i] - qcx, by = qy[i] - qcy;
		dot += ax * bx + ay * by;
		cross += ax * by - ay * bx;
		norm += ax * ax + ay * ay;
	}
	/* all points on one spot: any rotation fits, report none */
	if (!(norm > 1e-12))
		return false;
	double a = dot / norm, b = cross / norm;
	*angle = (float)atan2(b, a);
	*scale = (float)hypot(a, b);
	return true;
}

bool
gr_distances_ill_conditioned(const float *d, unsigned int n)
{
	if (n < 3)
		return false;
	float sum = 0.0f;
	for (unsigned int i = 0; i < n; i++)
		sum += d[i];
	float limit = GR_LSQ_NEAR_CENTROID * sum / (float)n;
	for (unsigned int i = 0; i < n; i++)
		if (d[i] < limit)
			return true;
	return false;
}

bool
gr_angle_ill_conditioned(const float *x, const float *y, unsigned int n)
{
	if (n < 3 || n > GR_MAX_TOUCHES)
		return false;
	float cx = 0.0f, cy = 0.0f;
	for (unsigned int i = 0; i < n; i++) {
		cx += x[i];
		cy += y[i];
	}
	cx /= (float)n;
	cy /= (float)n;
	float d[GR_MAX_TOUCHES];
	for (unsigned int i = 0; i < n; i++) {
		float dx = x[i] - cx, dy = y[i] - cy;
		d[i] = sqrtf(dx * dx + dy * dy);
	}
	return gr_distances_ill_conditioned(d, n);
}

/*
 * Switch the gesture's segment to the least-squares similarity when the
 * mean angle change is ill-conditioned in the previous or the current
 * configuration of its touches (@ill_now: the current one), and apply it:
 * angle and radius from the fit of the segment's first positions of the
 * touches @idx (indices into the current touches) onto their current ones.
 */
static void
apply_least_squares(struct gr_gesture *g, struct UGSlice_ *s, bool ill_now, const float *x,
		    const float *y, const unsigned int *idx, unsigned int n)
{
	if (!g->lsq) {
		if (!g->ill_prev && !ill_now)
			return;
		g->lsq = true;
		if (gr_log_enabled(g->rec->handle, GR_LOG_DEBUG)) {
			char ids[GR_MAX_TOUCHES * 24] = "";
			size_t len = 0;
			for (unsigned int i = 0; i < g->ncur && len < sizeof(ids); i++)
				len += (size_t)snprintf(ids + len, sizeof(ids) - len, "%s%llu",
							i ? "," : "",
							(unsigned long long)g->rec->touches[g->cur[i]].id);
			gr_log(g->rec->handle, GR_LOG_DEBUG,
			       "gesture %u: angle estimate ill-conditioned at t=%llu "
			       "(touches %s), least-squares geometry from now on",
			       g->id, (unsigned long long)s->time, ids);
		}
	}
	float ox[GR_MAX_TOUCHES], oy[GR_MAX_TOUCHES];
	for (unsigned int i = 0; i < n; i++) {
		ox[i] = g->track[idx[i]].ox;
		oy[i] = g->track[idx[i]].oy;
	}
	float angle, scale;
	gr_similarity_fit(ox, oy, x, y, n, &angle, &scale);
	s->angle = s->original_angle + angle;
	s->radius = s->original_radius * scale;
}

/*
 * Split framing (struct gr_recognizer): whether this frame is inside a
 * moment for the touches @idx of @geo (indices into its slots), i.e. one
 * of them changed in the previous moment and not yet in this one (at
 * @time).
 */
static bool
split_partial(const struct gr_gesture *g, const struct gr_geometry *geo, uint64_t time)
{
	const struct gr_recognizer *rec = g->rec;

	if (rec->moment != time)
		return false;
	for (unsigned int i = 0; i < geo->n; i++) {
		const struct gr_touch *t = &rec->touches[g->cur[geo->idx[i]]];
		if (t->mod_time != time && t->mod_time == rec->prev_moment)
			return true;
	}
	return false;
}

/*
 * Measure the touches g->cur in the current frame (at @time) into @geo:
 * everything of a slice's geometry that depends on the touches and the
 * frame only, not on the gesture's history (the key is left to the
 * caller).
 */
static inline void
measure(const struct gr_gesture *g, uint64_t time, struct gr_geometry *geo)
{
	const struct gr_recognizer *rec = g->rec;
	unsigned int n = 0, active = 0, begun = 0;
	bool lifting = false;
	/* the centroid is summed as the positions are stored (in the same
	 * order as a second loop would): reading them back at once would
	 * stall on the stores just made */
	float cx = 0.0f, cy = 0.0f;

	geo->partial = false;
	geo->ill = false;
	/* the slice's touches are the gesture's current touches, in order;
	 * its geometry is made of those the frame carries */
	for (unsigned int i = 0; i < g->ncur; i++) {
		const struct gr_touch *t = &rec->touches[g->cur[i]];
		if (!t->pending_end && !t->ended)
			active++;
		else
			lifting = true;
		if (t->state == UFTouchStateEnd)
			lifting = true;
		if (t->seen_serial != rec->serial)
			continue; /* not in this frame */
		geo->gx[n] = t->x;
		geo->gy[n] = t->y;
		cx += t->x;
		cy += t->y;
		if (t->state == UFTouchStateBegin)
			begun |= 1u << n;
		geo->idx[n] = (unsigned char)i;
		n++;
	}
	geo->n = n;
	geo->active = active;
	geo->begun = begun;
	geo->lifting = lifting;
	if (n == 0)
		return;

	cx /= (float)n;
	cy /= (float)n;
	geo->cx = cx;
	geo->cy = cy;
	if (n == 1)
		return;

	if ((rec->split || rec->prev_moment_split) && split_partial(g, geo, time)) {
		/* rotation and scale where the touches were before this moment */
		geo->partial = true;
		cx = cy = 0.0f;
		for (unsigned int i = 0; i < n; i++) {
			const struct gr_touch *t = &rec->touches[g->cur[geo->idx[i]]];
			if (t->mod_time == time) {
				geo->gx[i] = t->px;
				geo->gy[i] = t->py;
			}
			cx += geo->gx[i];
			cy += geo->gy[i];
		}
		cx /= (float)n;
		cy /= (float)n;
	}

	float r = 0.0f, d[GR_MAX_TOUCHES];
	for (unsigned int i = 0; i < n; i++) {
		float dx = geo->gx[i] - cx, dy = geo->gy[i] - cy;
		d[i] = sqrtf(dx * dx + dy * dy);
		r += d[i];
		geo->a[i] = atan2f(dy, dx);
	}
	geo->radius = r / (float)n;
	/* (two touches are never ill-conditioned) */
	geo->ill = n > 2 && gr_distances_ill_conditioned(d, n);
}

/* The touch counts a gesture of @sub has while it lasts: from its minimum
 * (or start) count up to its maximum (or start) count. */
static void
touch_range(const struct UGSubscription_ *sub, unsigned int *lo, unsigned int *hi)
{
	*lo = sub->touches_min ? sub->touches_min : sub->touches_start;
	*hi = sub->touches_max > sub->touches_start ? sub->touches_max : sub->touches_start;
}

/*
 * Whether another subscription of the recognizer can have gestures with as
 * many touches as @g's subscription, so that candidates may share their
 * geometry.  (Decided when a segment begins; it only chooses whether to
 * look in the cache, never what a slice contains.)
 */
static bool
share_geometry(const struct gr_gesture *g)
{
	const struct gr_recognizer *rec = g->rec;
	unsigned int lo, hi;

	touch_range(g->sub, &lo, &hi);
	for (unsigned int i = 0; i < rec->nsubs; i++) {
		unsigned int olo, ohi;
		if (rec->subs[i] == g->sub)
			continue;
		touch_range(rec->subs[i], &olo, &ohi);
		if (olo <= hi && lo <= ohi)
			return true;
	}
	return false;
}

/*
 * The geometry of the gesture's touches in the current frame.  Candidate
 * gestures of different subscriptions often have the same touches (a
 * client that subscribes drag, pinch and rotate apart); they share one
 * measurement per frame through the recognizer's small cache, keyed by
 * frame serial, time and the touch slots.  A gesture whose subscription
 * shares no touch count with another (see share_geometry()) leaves the
 * cache alone.
 */
static const struct gr_geometry *
frame_geometry(const struct gr_gesture *g, uint64_t time, struct gr_geometry *scratch)
{
	struct gr_recognizer *rec = g->rec;

	if (!g->share_geometry) {
		measure(g, time, scratch);
		return scratch;
	}
	unsigned int h = g->ncur;
	for (unsigned int i = 0; i < g->ncur; i++)
		h = h * 31u + g->cur[i];
	struct gr_geometry *geo = &rec->geometry[h % GR_GEOMETRY_CACHE];
	if (geo->serial == rec->serial && geo->time == time && geo->ncur == g->ncur) {
		unsigned int i = 0;
		while (i < g->ncur && geo->cur[i] == g->cur[i])
			i++;
		if (i == g->ncur)
			return geo;
	}
	measure(g, time, geo);
	geo->serial = rec->serial;
	geo->time = time;
	geo->ncur = g->ncur;
	for (unsigned int i = 0; i < g->ncur; i++)
		geo->cur[i] = g->cur[i];
	return geo;
}

/*
 * The slice's touches, centre, radius and angle from the frame's geometry
 * and the gesture's history (@init: the first slice of a segment).
 * Returns the geometry, for what else the slice takes from it.
 */
static const struct gr_geometry *
compute_values(struct gr_gesture *g, struct UGSlice_ *s, bool init,
	       struct gr_geometry *scratch)
{
	const struct gr_geometry *geo = frame_geometry(g, s->time, scratch);
	const unsigned int n = geo->n;

	s->num_touches = g->ncur;
	/* @s starts from g->last: its ids are those of cur unless cur changed */
	if (init || g->ids_stale) {
		for (unsigned int i = 0; i < g->ncur; i++)
			s->touch_ids[i] = g->rec->touches[g->cur[i]].id;
		g->ids_stale = false;
	}
	g->lifting = geo->lifting;
	if (n == 0)
		return geo;

	s->center_x = geo->cx;
	s->center_y = geo->cy;
	if (n == 1)
		goto remember;

	if (geo->partial && gr_log_enabled(g->rec->handle, GR_LOG_DEBUG))
		gr_log(g->rec->handle, GR_LOG_DEBUG,
		       "gesture %u: partial frame at t=%llu, rotation and scale of "
		       "the moment before", g->id, (unsigned long long)s->time);

	s->radius = geo->radius;
	if (init) {
		s->angle = gr_angle_mean(geo->a, n);
		for (unsigned int i = 0; i < n; i++)
			g->track[geo->idx[i]].angle = geo->a[i];
	} else {
		float sum = 0.0f;
		unsigned int k = 0;
		for (unsigned int i = 0; i < n; i++) {
			struct gr_track *tr = &g->track[geo->idx[i]];
			float a = geo->a[i];
			if (geo->begun & (1u << i)) {
				tr->angle = a;
				continue;
			}
			/*
			 * grail 3.1's steps exactly: the float difference
			 * compared with the double pi, the angle moved by 2 pi
			 * and kept so (unwrapped) for the next slice.  A touch
			 * whose angle turns by exactly pi (two touches on one
			 * row that meet) turns the same way as in grail 3.1.
			 * grail 3.1 moves it by one turn only, so a touch that
			 * has gone round more than one and a half times took
			 * a step of a whole turn (difference 21); here it
			 * moves by as many turns as it takes (one, the same
			 * rounding, until then), and an angle beyond eight
			 * turns is kept as measured so that it stays precise.
			 */
			float d = a - tr->angle, keep = a;
			if (d < -M_PI || d > M_PI)
				a = whole_turns(a, d, &keep);
			sum += a - tr->angle;
			tr->angle = keep;
			k++;
		}
		if (k > 0)
			s->angle += sum / (float)k;
		if (g->lsq || g->ill_prev || geo->ill) {
			/* the touches that did not begin now, for the fit */
			float ux[GR_MAX_TOUCHES], uy[GR_MAX_TOUCHES];
			unsigned int uidx[GR_MAX_TOUCHES];
			k = 0;
			for (unsigned int i = 0; i < n; i++) {
				if (geo->begun & (1u << i))
					continue;
				ux[k] = geo->gx[i];
				uy[k] = geo->gy[i];
				uidx[k] = geo->idx[i];
				k++;
			}
			apply_least_squares(g, s, geo->ill, ux, uy, uidx, k);
		}
	}

	g->ill_prev = geo->ill;
remember:
	if (init) {
		for (unsigned int i = 0; i < n; i++) {
			g->track[geo->idx[i]].ox = geo->gx[i];
			g->track[geo->idx[i]].oy = geo->gy[i];
		}
		g->lsq = false;
		if (n < 2)
			g->ill_prev = false;
	}
	return geo;
}

/*
 * compute_values() for the next slice of a gesture of one touch (every
 * slice of a one-touch drag): the centre is the touch's position when the
 * frame carries it, radius and angle stay (0 since the segment began).
 * The same values without the general machinery of the geometry, which
 * a one-touch gesture needs none of.  Returns the number of touches not
 * ending (0 or 1).
 */
static inline unsigned int
one_touch_values(struct gr_gesture *g, struct UGSlice_ *s)
{
	const struct gr_recognizer *rec = g->rec;
	const struct gr_touch *t = &rec->touches[g->cur[0]];
	const bool ending = t->pending_end || t->ended;

	s->num_touches = 1;
	if (g->ids_stale) {
		s->touch_ids[0] = t->id;
		g->ids_stale = false;
	}
	g->lifting = ending || t->state == UFTouchStateEnd;
	if (t->seen_serial == rec->serial) {
		/* as measure() sums and divides: 0 + x turns -0 into +0 */
		s->center_x = (0.0f + t->x) / 1.0f;
		s->center_y = (0.0f + t->y) / 1.0f;
	}
	return ending ? 0 : 1;
}

/* Whether the gesture's touches that are not ending are too few for its
 * subscription (@active of them). */
static bool
physically_ended(const struct gr_gesture *g, unsigned int active)
{
	unsigned int min = g->sub->touches_min;
	if (min == 0)
		return active < g->sub->touches_start;
	return active < min;
}

static const struct gr_geometry *
reset_original(struct gr_gesture *g, struct UGSlice_ *s, struct gr_geometry *scratch)
{
	s->radius = 0.0f;
	s->angle = 0.0f;
	const struct gr_geometry *geo = compute_values(g, s, true, scratch);
	s->original_center_x = s->center_x;
	s->original_center_y = s->center_y;
	s->original_radius = s->radius;
	s->original_angle = s->angle;
	set_identity(s->transform);
	set_identity(s->cumulative);
	s->rotates = false;
	return geo;
}

/*
 * Velocity: the gesture appends its centroid to its log (struct gr_vlog)
 * with every slice and keeps how many of the newest positions are in the
 * window; a slice names its window in the log, and the least-squares
 * slope is computed from those positions only when a client reads it
 * (most slices' velocity never is: clients that do not ask, candidate
 * gestures that are rejected).
 */

/* Make room for one more position in the gesture's log (it is full or
 * there is none yet); false when out of memory. */
static __attribute__((noinline)) bool
vlog_make_room(struct gr_gesture *g)
{
	struct gr_vlog *log = g->vlog;

	if (!log) {
		g->vlog = gr_vlog_new(g->rec->handle);
		return g->vlog != NULL;
	}
	/* what the window may still need: the newest positions */
	const unsigned int keep = GR_VELOCITY_SAMPLES, from = log->n - keep;
	struct UGSlice_ *last = g->last;
	bool last_reads = last && last->vlog == log;
	if (log->refs == 1 ||
	    (log->refs == 2 && last_reads && last->vend - last->vcount >= from)) {
		/* nobody else reads it: move the newest to the front (the newest
		 * slice's window with them) */
		memmove(log->s, log->s + from, keep * sizeof(log->s[0]));
		log->n = keep;
		if (last_reads)
			last->vend -= from;
		return true;
	}
	struct gr_vlog *fresh = gr_vlog_new(g->rec->handle);
	if (!fresh)
		return false;
	memcpy(fresh->s, log->s + from, keep * sizeof(log->s[0]));
	fresh->n = keep;
	gr_vlog_unref(log);
	g->vlog = fresh;
	return true;
}

static inline void
add_sample(struct gr_gesture *g, uint64_t time, float x, float y)
{
	if ((!g->vlog || g->vlog->n == GR_VLOG_SAMPLES) && !vlog_make_room(g)) {
		/* out of memory: no velocity until there is */
		g->vcount = 0;
		return;
	}
	struct gr_vlog *log = g->vlog;
	log->s[log->n++] = (struct gr_vsample){.time = time, .x = x, .y = y};
	if (g->vcount < GR_VELOCITY_SAMPLES)
		g->vcount++;
}

/* Forget the positions older than the window before @now. */
static inline void
expire_samples(struct gr_gesture *g, uint64_t now)
{
	const uint64_t window = g->sub->velocity_window;

	while (g->vcount > 0) {
		const struct gr_vsample *v = &g->vlog->s[g->vlog->n - g->vcount];
		if (v->time <= now && now - v->time <= window)
			break;
		g->vcount--;
	}
}

/* Give @s the gesture's window (the slice holds no log yet). */
static inline void
take_window(struct gr_gesture *g, uint64_t now, struct UGSlice_ *s)
{
	expire_samples(g, now);
	s->vknown = false;
	s->vcount = g->vcount;
	if (g->vcount == 0) {
		s->vlog = NULL;
		s->vend = 0;
		return;
	}
	s->vlog = g->vlog;
	s->vend = g->vlog->n;
	g->vlog->refs++;
}

/* The least-squares slope of the slice's window (0 with fewer than two
 * positions or times). */
static void
slope(const struct UGSlice_ *s, float *vx, float *vy)
{
	const unsigned int count = s->vcount;

	*vx = *vy = 0.0f;
	if (count < 2)
		return;
	/* sums of the window's times (ms since its first position) and
	 * positions */
	const struct gr_vsample *v = &s->vlog->s[s->vend - count];
	double t = 0.0, x = 0.0, y = 0.0, tt = 0.0, tx = 0.0, ty = 0.0;
	for (unsigned int i = 0; i < count; i++) {
		double ti = (double)(int64_t)(v[i].time - v[0].time);
		t += ti;
		x += v[i].x;
		y += v[i].y;
		tt += ti * ti;
		tx += ti * v[i].x;
		ty += ti * v[i].y;
	}
	double n = count;
	double den = n * tt - t * t;
	/* fewer than two distinct times leave den at (about) 0 */
	if (!(den > 1e-6 * n * n))
		return;
	*vx = (float)((n * tx - t * x) / den);
	*vy = (float)((n * ty - t * y) / den);
}

void
gr_slice_read_velocity(const struct UGSlice_ *slice, float *vx, float *vy)
{
	if (!slice->vknown) {
		/* the slice is the handle's (an event's), only const to readers */
		struct UGSlice_ *s = (struct UGSlice_ *)slice;
		slope(s, &s->vx, &s->vy);
		s->vknown = true;
	}
	*vx = slice->vx;
	*vy = slice->vy;
}

void
gr_slice_take_velocity(struct gr_gesture *g, uint64_t now, struct UGSlice_ *s)
{
	gr_vlog_unref(s->vlog);
	take_window(g, now, s);
}

/*
 * Remember the slice's centroid for the velocity (forgetting the old ones
 * when the touch count changed, not while touches lift) and give the slice
 * its window.  @s holds no log yet.
 */
static void
update_velocity(struct gr_gesture *g, struct UGSlice_ *s, bool reset)
{
	if (reset)
		g->vcount = 0;
	if (!g->lifting)
		add_sample(g, s->time, s->center_x, s->center_y);
	take_window(g, s->time, s);
}

/* The extension values that follow the gesture's state. */
static void
set_extension_state(const struct gr_gesture *g, struct UGSlice_ *s)
{
	s->tap_count = g->tap_count;
	s->edge = (g->recognized & UGGestureTypeEdgeSwipe) ? g->edge : 0;
}

unsigned int
gr_edge_candidates(const struct gr_gesture *g)
{
	const struct gr_recognizer *rec = g->rec;
	const struct UGSubscription_ *sub = g->sub;
	unsigned int cand = sub->edge_edges;

	if (!rec->has_edges || g->ncur == 0)
		return 0;
	for (unsigned int i = 0; i < g->ncur && cand; i++) {
		const struct gr_touch *t = &rec->touches[g->cur[i]];
		unsigned int near = 0;
		if ((t->dev_x0 - rec->ax_min) / rec->ax_res <= sub->edge_margin)
			near |= UGEdgeLeft;
		if ((rec->ax_max - t->dev_x0) / rec->ax_res <= sub->edge_margin)
			near |= UGEdgeRight;
		if ((t->dev_y0 - rec->ay_min) / rec->ay_res <= sub->edge_margin)
			near |= UGEdgeTop;
		if ((rec->ay_max - t->dev_y0) / rec->ay_res <= sub->edge_margin)
			near |= UGEdgeBottom;
		cand &= near;
	}
	return cand;
}

int
gr_slice_check_edge(const struct gr_gesture *g, const struct UGSlice_ *s, unsigned int *edge)
{
	const struct UGSubscription_ *sub = g->sub;
	uint64_t tau = s->time >= g->start_time ? s->time - g->start_time : 0;
	float dx = s->cumulative[0][2] / g->rec->res_x;
	float dy = s->cumulative[1][2] / g->rec->res_y;
	static const unsigned int edges[] = {UGEdgeLeft, UGEdgeRight, UGEdgeTop, UGEdgeBottom};
	const double slope = tan(GR_EDGE_MAX_DEVIATION * M_PI / 180.0);

	if (sub->drag_timeout != 0 && tau >= sub->drag_timeout)
		return -1;
	if (!(dx * dx + dy * dy > sub->drag_threshold * sub->drag_threshold))
		return 0;
	for (unsigned int i = 0; i < 4; i++) {
		if (!(g->edge & edges[i]))
			continue;
		float inward, across;
		switch (edges[i]) {
		case UGEdgeLeft: inward = dx; across = dy; break;
		case UGEdgeRight: inward = -dx; across = dy; break;
		case UGEdgeTop: inward = dy; across = dx; break;
		default: inward = -dy; across = dx; break;
		}
		if (!(inward > 0.0f) || fabs(across) > slope * inward)
			continue;
		/* metres per second from touch-down to here */
		if (tau > 0 && inward / ((double)tau / 1000.0) < sub->edge_velocity)
			continue;
		*edge = edges[i];
		return 1;
	}
	return -1;
}

void
gr_slice_begin(struct gr_gesture *g, struct UGSlice_ *s, UFEvent ev, UFFrame frame,
	       uint64_t time)
{
	memset(s, 0, sizeof(*s));
	s->id = g->id;
	s->state = UGGestureStateBegin;
	s->subscription = g->sub;
	s->recognized = g->recognized;
	s->time = time;
	s->construction_finished = g->construction_finished;
	gr_slice_set_frame(s, ev, frame);
	g->share_geometry = share_geometry(g);
	struct gr_geometry scratch;
	reset_original(g, s, &scratch);
	/*
	 * Like grail 3.1, a Begin slice is never physically ended, even when
	 * touches of it ended in its frame (a combination or expansion made
	 * as one touch lands and others lift): the gesture ends with its next
	 * slice.
	 */
	s->physically_ended = false;
	update_velocity(g, s, true);
	set_extension_state(g, s);
}

/*
 * What a slice takes over from the previous one: the fields that the rest
 * of gr_slice_next() leaves alone or only updates (the touch ids while the
 * touches stay, the original values, a centre, radius and angle the frame
 * does not move) and the transforms' last rows.  Every other field is set
 * by gr_slice_next(), so the new event's slice needs no copy of the whole.
 */
static inline void
slice_carry(const struct UGSlice_ *prev, struct UGSlice_ *s)
{
	s->id = prev->id;
	s->subscription = prev->subscription;
	memcpy(s->touch_ids, prev->touch_ids, sizeof(s->touch_ids));
	s->original_center_x = prev->original_center_x;
	s->original_center_y = prev->original_center_y;
	s->original_radius = prev->original_radius;
	s->original_angle = prev->original_angle;
	s->center_x = prev->center_x;
	s->center_y = prev->center_y;
	s->radius = prev->radius;
	s->angle = prev->angle;
	s->transform[2][0] = s->transform[2][1] = 0.0f;
	s->cumulative[2][0] = s->cumulative[2][1] = 0.0f;
	s->transform[2][2] = s->cumulative[2][2] = 1.0f;
}

void
gr_slice_next(struct gr_gesture *g, struct UGSlice_ *s, UFEvent ev, UFFrame frame,
	      uint64_t time)
{
	const struct UGSlice_ *prev = g->last;
	const float prev_radius = prev->radius;
	const float prev_angle = prev->angle;
	const float prev_tx = prev->cumulative[0][2];
	const float prev_ty = prev->cumulative[1][2];

	slice_carry(prev, s);
	s->state = UGGestureStateUpdate;
	s->time = time;
	s->canceled = 0;
	s->recognized = g->recognized;
	s->construction_finished = g->construction_finished;
	gr_slice_set_frame(s, ev, frame);

	struct gr_geometry scratch;
	unsigned int active;
	bool reset = g->ncur != prev->num_touches;
	if (reset) {
		active = reset_original(g, s, &scratch)->active;
		s->linear_pending = false;
	} else {
		if (g->ncur == 1)
			active = one_touch_values(g, s);
		else
			active = compute_values(g, s, false, &scratch)->active;

		/* the translations now (recognition reads them), the rest
		 * when a client asks (gr_slice_linear()) */
		s->transform[0][2] = s->center_x - prev_tx - s->original_center_x;
		s->transform[1][2] = s->center_y - prev_ty - s->original_center_y;
		s->cumulative[0][2] = s->center_x - s->original_center_x;
		s->cumulative[1][2] = s->center_y - s->original_center_y;
		s->prev_radius = prev_radius;
		s->prev_angle = prev_angle;
		s->linear_pending = true;
	}
	s->physically_ended = physically_ended(g, active);
	update_velocity(g, s, reset);
	set_extension_state(g, s);
}

void
gr_slice_linear(const struct UGSlice_ *slice)
{
	if (!slice->linear_pending)
		return;
	/* the slice is the handle's (an event's), only const to readers */
	struct UGSlice_ *s = (struct UGSlice_ *)slice;
	float scale = s->prev_radius != 0.0f ? s->radius / s->prev_radius : 1.0f;
	float delta = s->angle - s->prev_angle;
	float total_scale = s->original_radius != 0.0f ? s->radius / s->original_radius : 1.0f;
	float total_angle = s->angle - s->original_angle;
	float sin_d, cos_d, sin_t, cos_t;
	sin_cos(delta, &sin_d, &cos_d);
	sin_cos(total_angle, &sin_t, &cos_t);

	s->transform[0][0] = cos_d * scale;
	s->transform[0][1] = -sin_d * scale;
	s->transform[1][0] = sin_d * scale;
	s->transform[1][1] = cos_d * scale;
	s->cumulative[0][0] = cos_t * total_scale;
	s->cumulative[0][1] = -sin_t * total_scale;
	s->cumulative[1][0] = sin_t * total_scale;
	s->cumulative[1][1] = cos_t * total_scale;
	/* a pure translation has no fixed point (what gr_center_of_rotation()
	 * reports for it) */
	s->rotates = !(sin_d == 0.0f && s->transform[0][0] == 1.0f);
	s->linear_pending = false;
}

void
gr_slice_copy(const struct UGSlice_ *prev, struct UGSlice_ *s, uint64_t time)
{
	/* grail 3.1 keeps the time (and frame) of the copied slice */
	(void)time;
	*s = *prev;
	if (s->vlog)
		s->vlog->refs++;
	gr_slice_linear(s); /* the cumulative transform is the copied one's */
	s->canceled = 0;
	set_identity(s->transform);
	s->rotates = false;
	gr_slice_set_frame(s, prev->frame_event, prev->frame);
}

void
gr_slice_center_of_rotation(const struct UGSlice_ *s, float *x, float *y)
{
	gr_slice_linear(s);
	if (!s->rotates) {
		*x = 0.0f;
		*y = 0.0f;
		return;
	}
	gr_center_of_rotation(s->transform[0][0], s->transform[1][0], s->transform[0][2],
			      s->transform[1][2], s->original_center_x + s->cumulative[0][2],
			      s->original_center_y + s->cumulative[1][2], x, y);
}

UGGestureTypeMask
gr_slice_check_recognition(const struct gr_gesture *g, const struct UGSlice_ *s)
{
	const struct UGSubscription_ *sub = g->sub;
	/* the types the gesture has not recognized yet (the result is added
	 * to those it has) */
	UGGestureTypeMask mask = sub->mask & ~g->recognized;
	UGGestureTypeMask rec = 0;
	uint64_t tau = s->time >= g->start_time ? s->time - g->start_time : 0;

	float dx = s->cumulative[0][2] / g->rec->res_x;
	float dy = s->cumulative[1][2] / g->rec->res_y;
	float dist2 = dx * dx + dy * dy;

	if ((mask & UGGestureTypeDrag) &&
	    (sub->drag_timeout == 0 || tau < sub->drag_timeout) &&
	    dist2 > sub->drag_threshold * sub->drag_threshold)
		rec |= UGGestureTypeDrag;

	if ((mask & UGGestureTypePinch) &&
	    (sub->pinch_timeout == 0 || tau < sub->pinch_timeout)) {
		float ratio = s->original_radius != 0.0f ? s->radius / s->original_radius
							 : 1.0f;
		if (ratio != 0.0f && ratio < 1.0f)
			ratio = 1.0f / ratio;
		if (ratio == 0.0f || ratio > sub->pinch_threshold)
			rec |= UGGestureTypePinch;
	}

	if ((mask & UGGestureTypeRotate) &&
	    (sub->rotate_timeout == 0 || tau < sub->rotate_timeout) &&
	    fabsf(s->angle - s->original_angle) > sub->rotate_threshold)
		rec |= UGGestureTypeRotate;

	if ((mask & UGGestureTypeTap) && (sub->tap_timeout == 0 || tau < sub->tap_timeout) &&
	    dist2 < sub->tap_threshold * sub->tap_threshold && s->physically_ended)
		rec |= UGGestureTypeTap;

	if (mask & UGGestureTypeTouch)
		rec |= UGGestureTypeTouch;

	return rec;
}
