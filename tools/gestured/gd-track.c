/*
 * utouch-gestured: the gestures in flight.  Every gesture geis reports is
 * tracked from its first event: its candidate rules, its motion, the
 * decision (accept once a rule matches, reject as soon as none can), the
 * action, and the timer that decides holds and timeouts.
 */
#include <sys/timerfd.h>
#include <time.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gd-daemon-private.h"
#include "util/array.h"
#ifdef GD_HAVE_X11
#include "gd-x11.h"
#include "util/clock.h"
#endif

/* ---- gestures ---- */

/* The clock gestures are measured by: CLOCK_MONOTONIC, or in a --recording
 * --fast run the recording's virtual time, which the events' timestamps
 * carry (the whole recording is played at once, so the real clock would
 * see every gesture take no time). */
static bool
virtual_time(const struct gd_daemon *d)
{
	return d->opts.recording && d->opts.fast;
}

static uint64_t
track_now(const struct gd_daemon *d)
{
	return virtual_time(d) ? d->vnow : ut_mono_ms();
}

static void run_due(struct gd_daemon *d);

static struct track *
find_track(struct gd_daemon *d, struct source *s, GeisGestureId id)
{
	for (int i = 0; i < d->ntracks; i++)
		if (d->tracks[i]->state != T_FREE && d->tracks[i]->src == s && d->tracks[i]->id == id)
			return d->tracks[i];
	return NULL;
}

void
gd_track_free(struct track *t)
{
	if (t->cont)
		gd_cont_end(t->cont, t->progress, 1);
	t->cont = NULL;
	gd_cfgref_unref(t->cr);
	t->cr = NULL;
	t->state = T_FREE;
	/* its subscription may have waited for it to go */
	if (t->src && t->src->nretiring)
		t->src->d->resweep = 1;
}

static void
gesture_info(const struct track *t, struct gd_gesture_info *g)
{
	*g = (struct gd_gesture_info){ .kind = t->kind, .fingers = t->fingers, .dir = t->dir,
				       .device = t->device, .app_instance = t->inst,
				       .app_class = t->cls, .x = t->x0, .y = t->y0,
				       .fx = t->fx0, .fy = t->fy0,
				       .progress = t->progress };
}

/* the action of a discrete rule, if its interval allows */
static void
run_discrete(struct gd_daemon *d, struct track *t)
{
	const struct gd_rule *r = &t->cr->cfg->rules[t->rule];
	uint64_t now = track_now(d);
	uint64_t *last = &t->cr->last_run_ms[t->rule];
	if (r->interval_ms > 0 && *last && now - *last < (uint64_t)r->interval_ms) {
		gd_logv(d, "rule at line %d: within its interval, not run", r->line);
		return;
	}
	*last = now;
	struct gd_gesture_info g;
	gesture_info(t, &g);
	gd_actions_run(d->act, r, &g);
}

static void
reject(struct gd_daemon *d, struct track *t, const char *why)
{
	gd_logv(d, "%s: reject %d-finger %s %u: %s (moved %.1f,%.1f mm, spread %+.1f mm, "
	     "turned %+.1f deg, %.0f ms%s)", t->src->name, t->fingers, gd_kind_name(t->kind),
	     (unsigned)t->id, why, t->m.dx_mm, t->m.dy_mm, t->m.spread_mm, t->m.angle_deg,
	     t->m.elapsed_ms, t->m.ended ? ", ended" : "");
	geis_gesture_reject(t->src->geis, NULL, t->id);
	gd_track_free(t);
}

/*
 * Take the gesture's touches.  When geis refuses (grail already cancelled
 * the gesture: another one took its touches, or a finger landed outside a
 * whole-hand gesture), the touches are not ours and no action may run:
 * the track is dropped and false returned.
 */
static int
take(struct gd_daemon *d, struct track *t)
{
	if (geis_gesture_accept(t->src->geis, NULL, t->id) == GEIS_STATUS_SUCCESS)
		return 1;
	gd_logv(d, "%s: accept %u failed, no action: %s", t->src->name, (unsigned)t->id,
		geis_error_count(t->src->geis) ? geis_error_message(t->src->geis, 0) : "?");
	unsigned int slot = d->nrefused++ % GD_REFUSED;
	d->refused[slot].src = t->src;
	d->refused[slot].id = t->id;
	gd_track_free(t);
	return 0;
}

static int
refused(const struct gd_daemon *d, const struct source *s, GeisGestureId id)
{
	for (unsigned int i = 0; i < GD_REFUSED && i < d->nrefused; i++)
		if (d->refused[i].src == s && d->refused[i].id == id)
			return 1;
	return 0;
}

static void
accept(struct gd_daemon *d, struct track *t, size_t rule, enum gd_dir dir)
{
	const struct gd_rule *r = &t->cr->cfg->rules[rule];
	t->rule = rule;
	t->dir = r->dir != GD_DIR_ANY ? r->dir : dir;
	if (!take(d, t))
		return;
	t->state = T_ACCEPTED;
	t->progress = gd_rules_progress(r, t->dir, &t->m);
	gd_logv(d, "%s: accept %d-finger %s %u direction %s app %s: rule at line %d", t->src->name,
	     t->fingers, gd_kind_name(t->kind), (unsigned)t->id, gd_dir_name(t->dir),
	     *t->cls ? t->cls : "-", r->line);
	if (r->action == GD_ACT_CONTINUOUS) {
		struct gd_gesture_info g;
		gesture_info(t, &g);
		t->cont = gd_cont_begin(d->act, r, &g);
	} else {
		run_discrete(d, t);
		t->repeat_base = t->progress;
		t->steps_done = 1;
	}
}

/* new motion of an accepted gesture */
static void
follow(struct gd_daemon *d, struct track *t)
{
	const struct gd_rule *r = &t->cr->cfg->rules[t->rule];
	double p = gd_rules_progress(r, t->dir, &t->m);
	if (t->cont) {
		if (p != t->progress)
			gd_cont_update(t->cont, p);
	} else if (r->repeat) {
		/* one more run for each further distance travelled */
		while (p - t->repeat_base >= t->steps_done) {
			t->steps_done++;
			t->progress = p;
			run_discrete(d, t);
		}
	}
	t->progress = p;
}

/* a tap that may become a longer multi-tap: its touches are taken now, its
 * own rule (if it has one) runs when no further tap came in time */
static void
defer_tap(struct gd_daemon *d, struct track *t, int have_rule, size_t rule)
{
	if (!take(d, t))
		return;
	t->state = T_DEFERRED;
	t->defer_rule = have_rule;
	t->rule = rule;
	t->defer_ms = track_now(d) + GD_MULTITAP_MS;
	gd_logv(d, "%s: %d-finger tap %u (%d taps) taken; waiting for another tap", t->src->name,
		t->fingers, (unsigned)t->id, t->m.taps);
}

static void
decide(struct gd_daemon *d, struct track *t)
{
	size_t rule;
	enum gd_dir dir;
	enum gd_decision dc;
	int more = t->kind == GD_TAP &&
		   gd_rules_tap_may_continue(t->cr->cfg, t->cand, t->ncand, t->m.taps);

	dc = gd_rules_decide(t->cr->cfg, t->cand, &t->ncand, &t->m, &rule, &dir);
	if (more && dc != GD_REJECT) {
		defer_tap(d, t, dc == GD_ACCEPT, rule);
		return;
	}
	switch (dc) {
	case GD_ACCEPT:
		accept(d, t, rule, dir);
		break;
	case GD_REJECT:
		reject(d, t, "no rule matches");
		break;
	case GD_WAIT:
		break;
	}
}


static double
frame_num(GeisFrame f, const char *name, double dflt)
{
	return gd_attr_num(geis_frame_attr_by_name(f, name), dflt);
}

static void
measure(const struct gd_daemon *d, struct track *t, GeisFrame f)
{
	GeisFloat *M = geis_frame_matrix(f);
	double tx = M ? M[2] : 0, ty = M ? M[5] : 0;
	t->m.dx_mm = tx * t->mm_x;
	t->m.dy_mm = ty * t->mm_y;
	double bw = frame_num(f, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_X2, 0) -
		    frame_num(f, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_X1, 0);
	double bh = frame_num(f, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_Y2, 0) -
		    frame_num(f, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_Y1, 0);
	double spread = hypot(bw * t->mm_x, bh * t->mm_y);
	double radius = frame_num(f, GEIS_GESTURE_ATTRIBUTE_RADIUS, 1);
	t->m.spread_mm = radius > 0 ? spread - spread / radius : 0;
	/* geis angles grow counter-clockwise on the screen */
	t->m.angle_deg = -frame_num(f, GEIS_GESTURE_ATTRIBUTE_ANGLE, 0) * 180.0 / M_PI;
	t->m.elapsed_ms = (double)(track_now(d) - t->begin_ms);
	gd_rules_orient(t->orient, NULL, &t->m);
}

/* The earlier taps of a multi-tap, still waiting for this one: their
 * touches belong to it, so they are taken without an action of their own. */
static void
absorb_taps(struct gd_daemon *d, const struct track *t)
{
	for (int i = 0; i < d->ntracks; i++) {
		struct track *o = d->tracks[i];
		if (o == t || o->state != T_DEFERRED || o->src != t->src ||
		    o->fingers != t->fingers || o->m.taps >= t->m.taps)
			continue;
		gd_logv(d, "%s: tap %u is the start of a %d-tap", t->src->name, (unsigned)o->id,
			t->m.taps);
		gd_track_free(o);
	}
}

static struct track *
track_new(struct gd_daemon *d, struct source *s, GeisGestureId id, GeisFrame f)
{
	struct track *t = NULL;
	for (int i = 0; i < d->ntracks && !t; i++)
		if (d->tracks[i]->state == T_FREE)
			t = d->tracks[i];
	if (!t && d->ntracks < MAX_TRACKS &&
	    UT_ARRAY_RESERVE(d->tracks, d->captracks, (size_t)d->ntracks + 1, 16)) {
		t = calloc(1, sizeof(*t));
		if (t)
			d->tracks[d->ntracks++] = t;
	}
	if (!t) {
		/* a gesture that cannot be followed is rejected, never left
		 * undecided (its touches would wait for geis's timeout) nor
		 * taken from another gesture's track */
		gd_logw("%s: gesture %u rejected: %s", s->name, (unsigned)id,
			d->ntracks < MAX_TRACKS ? "out of memory"
						: "more gestures at once than can be followed");
		geis_gesture_reject(s->geis, NULL, id);
		return NULL;
	}
	memset(t, 0, sizeof(*t));
	t->src = s;
	t->id = id;
	t->state = T_PENDING;
	t->begin_ms = track_now(d);
	GeisAttr na = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME);
	const char *name = na && geis_attr_type(na) == GEIS_ATTR_TYPE_STRING
				   ? geis_attr_value_to_string(na) : "";
	t->kind = GD_KIND_COUNT;
	for (int k = 0; k < GD_KIND_COUNT; k++)
		if (!strcmp(name, gd_class_names[k]))
			t->kind = (enum gd_kind)k;
	t->fingers = (int)frame_num(f, GEIS_GESTURE_ATTRIBUTE_TOUCHES, 0);
	const struct device *dev = gd_source_device(s, (GeisInteger)frame_num(f, GEIS_GESTURE_ATTRIBUTE_DEVICE_ID, -1));
	t->direct = dev ? dev->direct : 1;
	t->device = t->direct ? GD_DEV_TOUCHSCREEN : GD_DEV_TOUCHPAD;
	t->mm_x = dev ? dev->mm_x : DEFAULT_MM_PER_PX;
	t->mm_y = dev ? dev->mm_y : DEFAULT_MM_PER_PX;
	double width = dev ? dev->width : s->screen_w, height = dev ? dev->height : s->screen_h;
	GeisFloat *M = geis_frame_matrix(f);
	t->x0 = frame_num(f, GEIS_GESTURE_ATTRIBUTE_POSITION_X, 0) - (M ? M[2] : 0);
	t->y0 = frame_num(f, GEIS_GESTURE_ATTRIBUTE_POSITION_Y, 0) - (M ? M[5] : 0);
	t->fx0 = t->fy0 = -1;
	if (t->direct && width > 0 && height > 0) {
		t->fx0 = t->x0 / width;
		t->fy0 = t->y0 / height;
	}
	t->cr = d->cr;
	d->cr->refs++;
	if (t->kind == GD_KIND_COUNT) {
		reject(d, t, "not a gesture class of any rule");
		return NULL;
	}
#ifdef GD_HAVE_X11
	if (d->x11 && gd_rules_need_app(t->cr->cfg, t->kind, t->fingers)) {
		/* touchscreens: the window under the fingers; touchpads: the
		 * window under the pointer */
		double ax = t->x0, ay = t->y0;
		if (s->is_x11 || gd_x11_pointer(d->x11, &ax, &ay) == 0)
			gd_x11_class_at(d->x11, ax, ay, t->inst, t->cls, sizeof(t->cls));
	}
#endif
	t->m.taps = (int)frame_num(f, UTOUCH_GEIS_GESTURE_ATTRIBUTE_TAP_COUNT, 1);
	if (t->kind == GD_TAP && t->m.taps > 1)
		absorb_taps(d, t);
	struct gd_query q = { .kind = t->kind, .fingers = t->fingers, .device = t->device,
			      .device_name = dev ? dev->name : "", .taps = t->m.taps,
			      .app_instance = t->inst, .app_class = t->cls, .x = t->x0,
			      .y = t->y0, .screen_w = width, .screen_h = height,
			      .mm_x = t->mm_x, .mm_y = t->mm_y };
	/* evdev touchscreens report the panel's own positions */
	t->orient = !s->is_x11 && t->direct ? gd_daemon_orientation(d) : GD_ORIENT_NORMAL;
	gd_rules_orient(t->orient, &q, NULL);
	t->ncand = gd_rules_candidates(t->cr->cfg, &q, t->cand);
	gd_logv(d, "%s: %d-finger %s %u begins at %.0f,%.0f on a %s, app %s: %zu candidate rules",
	     s->name, t->fingers, gd_kind_name(t->kind), (unsigned)id, t->x0, t->y0,
	     gd_device_name(t->device), *t->cls ? t->cls : "-", t->ncand);
	if (t->ncand == 0) {
		reject(d, t, "no rule for this gesture here");
		return NULL;
	}
	return t;
}

void
gd_track_event(struct gd_daemon *d, struct source *s, GeisEventType type, GeisFrame f)
{
	GeisGestureId id = geis_frame_id(f);
	if (virtual_time(d)) {
		/* what was due before this event in the recording's time runs
		 * first, as the timer would have fired it */
		uint64_t ts = (uint64_t)frame_num(f, GEIS_GESTURE_ATTRIBUTE_TIMESTAMP, 0);
		if (ts > d->vnow)
			d->vnow = ts;
		run_due(d);
	}
	struct track *t = find_track(d, s, id);
	if (!t) {
		if (refused(d, s, id))
			return;   /* the rest of a gesture grail had cancelled */
		/* its first event: a BEGIN, the single UPDATE of a tap, or an
		 * END of a gesture recognized only as it ended */
		t = track_new(d, s, id, f);
		if (!t)
			return;
	}
	if (t->state == T_DEFERRED)
		return;   /* taken; waits for the next tap or its time */
	measure(d, t, f);
	t->m.ended = type == GEIS_EVENT_GESTURE_END;
	if (t->state == T_PENDING)
		decide(d, t);
	else
		follow(d, t);
	if (t->state == T_FREE || t->state == T_DEFERRED)
		return;
	/* a tap is a single event; an ended gesture is done */
	if (t->m.ended || (t->state == T_ACCEPTED && t->kind == GD_TAP)) {
		if (t->state == T_PENDING) {
			reject(d, t, "ended before any rule matched");
			return;
		}
		if (t->cont) {
			gd_cont_end(t->cont, t->progress, 0);
			t->cont = NULL;
		}
		gd_track_free(t);
	}
}

/* ---- timer: holds and timeouts, armed only while a gesture waits ---- */

void
gd_tracks_rearm_timer(struct gd_daemon *d)
{
	uint64_t next = 0;
	if (virtual_time(d))
		return;   /* deadlines come with the events' times (gd_track_event) */
	for (int i = 0; i < d->ntracks; i++) {
		struct track *t = d->tracks[i];
		uint64_t at;
		if (t->state == T_DEFERRED) {
			at = t->defer_ms;
		} else if (t->state == T_PENDING) {
			double dl = gd_rules_next_deadline(t->cr->cfg, t->cand, t->ncand);
			if (dl < 0)
				continue;
			at = t->begin_ms + (uint64_t)ceil(dl);
		} else {
			continue;
		}
		if (!next || at < next)
			next = at;
	}
	if (next == d->timer_at)
		return;
	d->timer_at = next;
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };
	if (next) {
		/* absolute CLOCK_MONOTONIC time; a time in the past fires at once */
		its.it_value.tv_sec = (time_t)(next / 1000u);
		its.it_value.tv_nsec = (long)(next % 1000u) * 1000000L;
	}
	timerfd_settime(d->timer_fd, next ? TFD_TIMER_ABSTIME : 0, &its, NULL);
}

/* Decide again the gestures whose deadline has come. */
static void
run_due(struct gd_daemon *d)
{
	for (int i = 0; i < d->ntracks; i++) {
		struct track *t = d->tracks[i];
		if (t->state == T_DEFERRED && track_now(d) >= t->defer_ms) {
			/* no further tap came: the taps so far were all */
			if (t->defer_rule) {
				gd_logv(d, "%s: %d-finger tap %u: no further tap; rule at line %d",
					t->src->name, t->fingers, (unsigned)t->id,
					t->cr->cfg->rules[t->rule].line);
				t->dir = GD_DIR_ANY;
				run_discrete(d, t);
			}
			gd_track_free(t);
			continue;
		}
		if (t->state != T_PENDING)
			continue;
		t->m.elapsed_ms = (double)(track_now(d) - t->begin_ms);
		decide(d, t);
	}
}

void
gd_tracks_timer_fired(struct gd_daemon *d)
{
	uint64_t n;
	if (read(d->timer_fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		gd_logw("timer: %s", strerror(errno));
	d->timer_at = 0;
	run_due(d);
}

void
gd_tracks_run_out(struct gd_daemon *d)
{
	d->vnow = UINT64_MAX / 2;
	run_due(d);
}
