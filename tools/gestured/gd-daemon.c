/*
 * utouch-gestured: the daemon.
 *
 * One geis instance per source of touches (the X server's touchscreens
 * through touch grabs on the root window, evdev devices), one geis
 * subscription per (gesture class, finger count) some rule names.  Every
 * gesture geis reports is decided here: accepted once a rule matches
 * (the application below never sees its touches on X11), rejected as soon
 * as no rule can match any more (its touches are replayed at once).
 */
#include "gd-daemon.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <utouch/geis.h>

#include "gd-actions.h"
#include "gd-config.h"
#include "gd-rules.h"
#ifdef GD_HAVE_X11
#include "gd-x11.h"
#endif

#define MAX_FINGERS 5
#define MAX_TRACKS 64
#define MAX_DEVICES 32
/* the screen the evdev backend maps devices onto (utouch/geis.h) */
#define EVDEV_SCREEN_W 1024.0
#define EVDEV_SCREEN_H 768.0
#define DEFAULT_MM_PER_PX (25.4 / 96.0)

/* a configuration shared by the daemon and the gestures matched with it */
struct cfgref {
	struct gd_config *cfg;
	int refs;
	uint64_t *last_run_ms;   /* per rule, for "interval" */
};

struct device {
	GeisInteger id;
	int direct;
	double mm_x, mm_y;    /* millimetres per unit of the positions' coordinates */
	double width, height; /* of the surface positions are in (screen or device) */
	char name[128];       /* for rules with "device-name" */
};

/* T_DEFERRED: a tap taken that may be the start of a longer multi-tap; its
 * rule (if any) runs at defer_ms unless the next tap comes first */
enum track_state { T_FREE, T_PENDING, T_ACCEPTED, T_DEFERRED };

struct source;

struct track {
	enum track_state state;
	struct source *src;
	GeisGestureId id;
	struct cfgref *cr;
	size_t cand[GD_MAX_CANDIDATES];
	size_t ncand;
	size_t rule;
	enum gd_dir dir;
	enum gd_kind kind;
	int fingers;
	enum gd_device device;
	char inst[64], cls[64];
	double x0, y0;
	double mm_x, mm_y;
	int direct;
	uint64_t begin_ms;
	enum gd_orientation orient;  /* how its positions turn to the screen's */
	uint64_t defer_ms;    /* T_DEFERRED: when the rule runs */
	int defer_rule;       /* T_DEFERRED: run rule t->rule at defer_ms */
	struct gd_motion m;
	double progress;
	double repeat_base;   /* progress when the action first ran */
	int steps_done;
	struct gd_cont *cont;
};

struct source {
	struct gd_daemon *d;
	const char *name;    /* "x11" or "evdev" */
	Geis geis;
	int fd;
	int is_x11;
	int only_indirect;   /* evdev next to X11: touchpads only */
	int broken;
	GeisSubscription subs[GD_KIND_COUNT][MAX_FINGERS + 1];
	struct device devices[MAX_DEVICES];
	int ndevices;
	double screen_w, screen_h;
};

struct gd_daemon {
	struct gd_options opts;
	struct cfgref *cr;
	struct source src[2];
	int nsrc;
	struct track tracks[MAX_TRACKS];
	int inotify_fd, watch;
	char *dir, *base;
	int signal_fd;
	int timer_fd;
	uint64_t timer_at;
	struct gd_actions *act;
#ifdef GD_HAVE_X11
	struct gd_x11 *x11;
#endif
	int quit;
	int status;
};

static const char *const class_names[GD_KIND_COUNT] = {
	GEIS_GESTURE_DRAG, GEIS_GESTURE_PINCH, GEIS_GESTURE_ROTATE, GEIS_GESTURE_TAP,
	GEIS_GESTURE_TOUCH
};

static void
logv(struct gd_daemon *d, const char *fmt, ...)
{
	va_list ap;
	if (!d->opts.verbose)
		return;
	va_start(ap, fmt);
	fputs("utouch-gestured: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void
logw(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("utouch-gestured: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static uint64_t
mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* ---- configurations ---- */

/* the warnings of a file that loads (rules that can never run); its
 * errors are reported by the caller */
static void
log_warning(void *data, const char *message)
{
	(void)data;
	if (strstr(message, ": warning: "))
		logw("%s", message);
}

static struct cfgref *
cfgref_new(struct gd_config *cfg)
{
	struct cfgref *cr = calloc(1, sizeof(*cr));
	if (!cr)
		return NULL;
	cr->last_run_ms = calloc(cfg->nrules ? cfg->nrules : 1, sizeof(*cr->last_run_ms));
	if (!cr->last_run_ms) {
		free(cr);
		return NULL;
	}
	cr->cfg = cfg;
	cr->refs = 1;
	return cr;
}

static void
cfgref_unref(struct cfgref *cr)
{
	if (!cr || --cr->refs > 0)
		return;
	gd_config_free(cr->cfg);
	free(cr->last_run_ms);
	free(cr);
}

/* ---- subscriptions ---- */

static int
rule_fits_source(const struct source *s, const struct gd_rule *r)
{
	if (s->is_x11)
		return r->device != GD_DEV_TOUCHPAD;
	if (s->only_indirect)
		return r->device != GD_DEV_TOUCHSCREEN;
	return 1;
}

static GeisSubscription
subscribe(struct source *s, enum gd_kind k, int fingers)
{
	char name[32];
	snprintf(name, sizeof(name), "%s-%d", gd_kind_name(k), fingers);
	GeisSubscription sub = geis_subscription_new(s->geis, name, GEIS_SUBSCRIPTION_NONE);
	GeisFilter f = geis_filter_new(s->geis, name);
	if (!sub || !f)
		goto fail;
	if (geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ,
				 class_names[k], GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ,
				 fingers, NULL) != GEIS_STATUS_SUCCESS)
		goto fail;
	if (s->only_indirect &&
	    geis_filter_add_term(f, GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_DIRECT_TOUCH,
				 GEIS_FILTER_OP_EQ, GEIS_FALSE, NULL) != GEIS_STATUS_SUCCESS)
		goto fail;
	/* taps carry grail's tap count, for rules with "taps" */
	GeisInteger taps_max = GD_MAX_TAPS, taps_ms = GD_MULTITAP_MS;
	if (k == GD_TAP &&
	    (geis_subscription_set_configuration(sub, UTOUCH_GEIS_CONFIG_MULTITAP_MAXIMUM,
						 &taps_max) != GEIS_STATUS_SUCCESS ||
	     geis_subscription_set_configuration(sub, UTOUCH_GEIS_CONFIG_MULTITAP_TIMEOUT,
						 &taps_ms) != GEIS_STATUS_SUCCESS))
		goto fail;
	if (geis_subscription_add_filter(sub, f) != GEIS_STATUS_SUCCESS) {
		f = NULL;
		goto fail;
	}
	f = NULL;
	if (geis_subscription_activate(sub) != GEIS_STATUS_SUCCESS)
		goto fail;
	return sub;
fail:
	logw("%s: cannot subscribe to %d-finger %s gestures%s%s", s->name, fingers,
	     gd_kind_name(k), geis_error_count(s->geis) ? ": " : "",
	     geis_error_count(s->geis) ? geis_error_message(s->geis, 0) : "");
	if (f)
		geis_filter_delete(f);
	if (sub)
		geis_subscription_delete(sub);
	return NULL;
}

/* Subscribe to what the rules need, unsubscribe from the rest.  Gestures
 * of subscriptions that stay go on untouched. */
static void
update_subscriptions(struct gd_daemon *d, struct source *s)
{
	const struct gd_config *cfg = d->cr->cfg;
	if (s->broken)
		return;
	for (int k = 0; k < GD_KIND_COUNT; k++)
		for (int f = 1; f <= MAX_FINGERS; f++) {
			int need = 0;
			for (size_t i = 0; i < cfg->nrules && !need; i++)
				need = cfg->rules[i].kind == (enum gd_kind)k &&
				       cfg->rules[i].fingers == f && rule_fits_source(s, &cfg->rules[i]);
			if (need && !s->subs[k][f]) {
				s->subs[k][f] = subscribe(s, (enum gd_kind)k, f);
			} else if (!need && s->subs[k][f]) {
				geis_subscription_deactivate(s->subs[k][f]);
				geis_subscription_delete(s->subs[k][f]);
				s->subs[k][f] = NULL;
			}
		}
}

static int
subscription_count(const struct gd_daemon *d)
{
	int n = 0;
	for (int i = 0; i < d->nsrc; i++)
		for (int k = 0; k < GD_KIND_COUNT; k++)
			for (int f = 1; f <= MAX_FINGERS; f++)
				n += d->src[i].subs[k][f] != NULL;
	return n;
}

/* ---- devices ---- */

static double
attr_num(GeisAttr a, double dflt)
{
	if (!a)
		return dflt;
	switch (geis_attr_type(a)) {
	case GEIS_ATTR_TYPE_FLOAT:
		return geis_attr_value_to_float(a);
	case GEIS_ATTR_TYPE_INTEGER:
		return geis_attr_value_to_integer(a);
	case GEIS_ATTR_TYPE_BOOLEAN:
		return geis_attr_value_to_boolean(a);
	default:
		return dflt;
	}
}

static void
device_added(struct source *s, GeisDevice dev)
{
	struct device *v = NULL;
	GeisInteger id = geis_device_id(dev);
	for (int i = 0; i < s->ndevices; i++)
		if (s->devices[i].id == id)
			v = &s->devices[i];
	if (!v) {
		if (s->ndevices == MAX_DEVICES) {
			logw("%s: more than %d devices; ignoring %s", s->name, MAX_DEVICES,
			     geis_device_name(dev));
			return;
		}
		v = &s->devices[s->ndevices++];
	}
	v->id = id;
	snprintf(v->name, sizeof(v->name), "%s", geis_device_name(dev) ? geis_device_name(dev) : "");
	v->direct = attr_num(geis_device_attr_by_name(dev, GEIS_DEVICE_ATTRIBUTE_DIRECT_TOUCH), 1) != 0;
	double minx = attr_num(geis_device_attr_by_name(dev, GEIS_DEVICE_ATTRIBUTE_MIN_X), 0);
	double maxx = attr_num(geis_device_attr_by_name(dev, GEIS_DEVICE_ATTRIBUTE_MAX_X), 0);
	double miny = attr_num(geis_device_attr_by_name(dev, GEIS_DEVICE_ATTRIBUTE_MIN_Y), 0);
	double maxy = attr_num(geis_device_attr_by_name(dev, GEIS_DEVICE_ATTRIBUTE_MAX_Y), 0);
	/* frame axes give units per metre */
	double resx = attr_num(geis_device_attr_by_name(dev, GEIS_DEVICE_ATTRIBUTE_RES_X), 0) / 1000.0;
	double resy = attr_num(geis_device_attr_by_name(dev, GEIS_DEVICE_ATTRIBUTE_RES_Y), 0) / 1000.0;
	v->mm_x = v->mm_y = DEFAULT_MM_PER_PX;
	v->width = s->screen_w;
	v->height = s->screen_h;
#ifdef GD_HAVE_X11
	if (s->is_x11 && s->d->x11)
		gd_x11_mm_per_px(s->d->x11, &v->mm_x, &v->mm_y);
#endif
	if (!s->is_x11 && v->direct) {
		/* touchscreens: window coordinates on the backend's screen */
		if (resx > 0 && maxx > minx)
			v->mm_x = (maxx - minx) / resx / s->screen_w;
		if (resy > 0 && maxy > miny)
			v->mm_y = (maxy - miny) / resy / s->screen_h;
	} else if (!s->is_x11) {
		/* touchpads: device coordinates */
		if (resx > 0)
			v->mm_x = 1.0 / resx;
		if (resy > 0)
			v->mm_y = 1.0 / resy;
		v->width = maxx - minx;
		v->height = maxy - miny;
	}
	logv(s->d, "%s: device %d \"%s\" (%s, %.3f mm per unit)", s->name, (int)id,
	     geis_device_name(dev), v->direct ? "touchscreen" : "touchpad", v->mm_x);
}

static void
device_removed(struct source *s, GeisDevice dev)
{
	GeisInteger id = geis_device_id(dev);
	for (int i = 0; i < s->ndevices; i++)
		if (s->devices[i].id == id) {
			s->devices[i] = s->devices[--s->ndevices];
			break;
		}
	logv(s->d, "%s: device %d \"%s\" went away", s->name, (int)id, geis_device_name(dev));
}

static const struct device *
find_device(const struct source *s, GeisInteger id)
{
	for (int i = 0; i < s->ndevices; i++)
		if (s->devices[i].id == id)
			return &s->devices[i];
	return NULL;
}

/* ---- gestures ---- */

static struct track *
find_track(struct gd_daemon *d, struct source *s, GeisGestureId id)
{
	for (int i = 0; i < MAX_TRACKS; i++)
		if (d->tracks[i].state != T_FREE && d->tracks[i].src == s && d->tracks[i].id == id)
			return &d->tracks[i];
	return NULL;
}

static void
track_free(struct track *t)
{
	if (t->cont)
		gd_cont_end(t->cont, t->progress, 1);
	t->cont = NULL;
	cfgref_unref(t->cr);
	t->cr = NULL;
	t->state = T_FREE;
}

static void
gesture_info(const struct track *t, struct gd_gesture_info *g)
{
	*g = (struct gd_gesture_info){ .kind = t->kind, .fingers = t->fingers, .dir = t->dir,
				       .device = t->device, .app_instance = t->inst,
				       .app_class = t->cls, .x = t->x0, .y = t->y0,
				       .progress = t->progress };
}

/* the action of a discrete rule, if its interval allows */
static void
run_discrete(struct gd_daemon *d, struct track *t)
{
	const struct gd_rule *r = &t->cr->cfg->rules[t->rule];
	uint64_t now = mono_ms();
	uint64_t *last = &t->cr->last_run_ms[t->rule];
	if (r->interval_ms > 0 && *last && now - *last < (uint64_t)r->interval_ms) {
		logv(d, "rule at line %d: within its interval, not run", r->line);
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
	logv(d, "%s: reject %d-finger %s %u: %s (moved %.1f,%.1f mm, spread %+.1f mm, "
	     "turned %+.1f deg, %.0f ms%s)", t->src->name, t->fingers, gd_kind_name(t->kind),
	     (unsigned)t->id, why, t->m.dx_mm, t->m.dy_mm, t->m.spread_mm, t->m.angle_deg,
	     t->m.elapsed_ms, t->m.ended ? ", ended" : "");
	geis_gesture_reject(t->src->geis, NULL, t->id);
	track_free(t);
}

static void
accept(struct gd_daemon *d, struct track *t, size_t rule, enum gd_dir dir)
{
	const struct gd_rule *r = &t->cr->cfg->rules[rule];
	t->rule = rule;
	t->dir = r->dir != GD_DIR_ANY ? r->dir : dir;
	t->state = T_ACCEPTED;
	if (geis_gesture_accept(t->src->geis, NULL, t->id) != GEIS_STATUS_SUCCESS)
		logv(d, "%s: accept %u failed: %s", t->src->name, (unsigned)t->id,
		     geis_error_count(t->src->geis) ? geis_error_message(t->src->geis, 0) : "?");
	t->progress = gd_rules_progress(r, t->dir, &t->m);
	logv(d, "%s: accept %d-finger %s %u direction %s app %s: rule at line %d", t->src->name,
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
	t->state = T_DEFERRED;
	t->defer_rule = have_rule;
	t->rule = rule;
	t->defer_ms = mono_ms() + GD_MULTITAP_MS;
	if (geis_gesture_accept(t->src->geis, NULL, t->id) != GEIS_STATUS_SUCCESS)
		logv(d, "%s: accept %u failed: %s", t->src->name, (unsigned)t->id,
		     geis_error_count(t->src->geis) ? geis_error_message(t->src->geis, 0) : "?");
	logv(d, "%s: %d-finger tap %u (%d taps) taken; waiting for another tap", t->src->name,
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

static void rearm_timer(struct gd_daemon *d);

static double
frame_num(GeisFrame f, const char *name, double dflt)
{
	return attr_num(geis_frame_attr_by_name(f, name), dflt);
}

static void
measure(struct track *t, GeisFrame f)
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
	t->m.elapsed_ms = (double)(mono_ms() - t->begin_ms);
	gd_rules_orient(t->orient, NULL, &t->m);
}

/* The earlier taps of a multi-tap, still waiting for this one: their
 * touches belong to it, so they are taken without an action of their own. */
static void
absorb_taps(struct gd_daemon *d, const struct track *t)
{
	for (int i = 0; i < MAX_TRACKS; i++) {
		struct track *o = &d->tracks[i];
		if (o == t || o->state != T_DEFERRED || o->src != t->src ||
		    o->fingers != t->fingers || o->m.taps >= t->m.taps)
			continue;
		logv(d, "%s: tap %u is the start of a %d-tap", t->src->name, (unsigned)o->id,
		     t->m.taps);
		track_free(o);
	}
}

static struct track *
track_new(struct gd_daemon *d, struct source *s, GeisGestureId id, GeisFrame f)
{
	struct track *t = NULL;
	for (int i = 0; i < MAX_TRACKS && !t; i++)
		if (d->tracks[i].state == T_FREE)
			t = &d->tracks[i];
	if (!t) {
		/* every slot busy: the oldest gesture lost its end somewhere */
		t = &d->tracks[0];
		for (int i = 1; i < MAX_TRACKS; i++)
			if (d->tracks[i].begin_ms < t->begin_ms)
				t = &d->tracks[i];
		track_free(t);
	}
	memset(t, 0, sizeof(*t));
	t->src = s;
	t->id = id;
	t->state = T_PENDING;
	t->begin_ms = mono_ms();
	GeisAttr na = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME);
	const char *name = na && geis_attr_type(na) == GEIS_ATTR_TYPE_STRING
				   ? geis_attr_value_to_string(na) : "";
	t->kind = GD_KIND_COUNT;
	for (int k = 0; k < GD_KIND_COUNT; k++)
		if (!strcmp(name, class_names[k]))
			t->kind = (enum gd_kind)k;
	t->fingers = (int)frame_num(f, GEIS_GESTURE_ATTRIBUTE_TOUCHES, 0);
	const struct device *dev = find_device(s, (GeisInteger)frame_num(f, GEIS_GESTURE_ATTRIBUTE_DEVICE_ID, -1));
	t->direct = dev ? dev->direct : 1;
	t->device = t->direct ? GD_DEV_TOUCHSCREEN : GD_DEV_TOUCHPAD;
	t->mm_x = dev ? dev->mm_x : DEFAULT_MM_PER_PX;
	t->mm_y = dev ? dev->mm_y : DEFAULT_MM_PER_PX;
	double width = dev ? dev->width : s->screen_w, height = dev ? dev->height : s->screen_h;
	GeisFloat *M = geis_frame_matrix(f);
	t->x0 = frame_num(f, GEIS_GESTURE_ATTRIBUTE_POSITION_X, 0) - (M ? M[2] : 0);
	t->y0 = frame_num(f, GEIS_GESTURE_ATTRIBUTE_POSITION_Y, 0) - (M ? M[5] : 0);
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
	t->orient = !s->is_x11 && t->direct ? t->cr->cfg->orientation : GD_ORIENT_NORMAL;
	gd_rules_orient(t->orient, &q, NULL);
	t->ncand = gd_rules_candidates(t->cr->cfg, &q, t->cand);
	logv(d, "%s: %d-finger %s %u begins at %.0f,%.0f on a %s, app %s: %zu candidate rules",
	     s->name, t->fingers, gd_kind_name(t->kind), (unsigned)id, t->x0, t->y0,
	     gd_device_name(t->device), *t->cls ? t->cls : "-", t->ncand);
	if (t->ncand == 0) {
		reject(d, t, "no rule for this gesture here");
		return NULL;
	}
	return t;
}

static void
on_gesture(struct gd_daemon *d, struct source *s, GeisEventType type, GeisFrame f)
{
	GeisGestureId id = geis_frame_id(f);
	struct track *t = find_track(d, s, id);
	if (!t) {
		/* its first event: a BEGIN, the single UPDATE of a tap, or an
		 * END of a gesture recognized only as it ended */
		t = track_new(d, s, id, f);
		if (!t)
			return;
	}
	if (t->state == T_DEFERRED)
		return;   /* taken; waits for the next tap or its time */
	measure(t, f);
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
		track_free(t);
	}
}

static void
on_event(Geis geis, GeisEvent ev, void *context)
{
	struct source *s = context;
	struct gd_daemon *d = s->d;
	(void)geis;
	GeisEventType type = geis_event_type(ev);
	switch (type) {
	case GEIS_EVENT_DEVICE_AVAILABLE:
	case GEIS_EVENT_DEVICE_UNAVAILABLE: {
		GeisAttr a = geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_DEVICE);
		GeisDevice dev = a ? geis_attr_value_to_pointer(a) : NULL;
		if (dev) {
			if (type == GEIS_EVENT_DEVICE_AVAILABLE)
				device_added(s, dev);
			else
				device_removed(s, dev);
		}
		break;
	}
	case GEIS_EVENT_GESTURE_BEGIN:
	case GEIS_EVENT_GESTURE_UPDATE:
	case GEIS_EVENT_GESTURE_END: {
		GeisAttr a = geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET);
		GeisGroupSet gs = a ? geis_attr_value_to_pointer(a) : NULL;
		for (GeisSize i = 0; gs && i < geis_groupset_group_count(gs); i++) {
			GeisGroup g = geis_groupset_group(gs, i);
			for (GeisSize j = 0; j < geis_group_frame_count(g); j++)
				on_gesture(d, s, type, geis_group_frame(g, j));
		}
		break;
	}
	case GEIS_EVENT_ERROR:
		for (GeisSize i = 0; i < geis_error_count(s->geis); i++)
			logw("%s: %s", s->name, geis_error_message(s->geis, i));
		break;
	default:
		break;
	}
	geis_event_delete(ev);
}

/* ---- timer: holds and timeouts, armed only while a gesture waits ---- */

static void
rearm_timer(struct gd_daemon *d)
{
	uint64_t next = 0;
	for (int i = 0; i < MAX_TRACKS; i++) {
		struct track *t = &d->tracks[i];
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

static void
timer_fired(struct gd_daemon *d)
{
	uint64_t n;
	if (read(d->timer_fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		logw("timer: %s", strerror(errno));
	d->timer_at = 0;
	for (int i = 0; i < MAX_TRACKS; i++) {
		struct track *t = &d->tracks[i];
		if (t->state == T_DEFERRED && mono_ms() >= t->defer_ms) {
			/* no further tap came: the taps so far were all */
			if (t->defer_rule) {
				logv(d, "%s: %d-finger tap %u: no further tap; rule at line %d",
				     t->src->name, t->fingers, (unsigned)t->id,
				     t->cr->cfg->rules[t->rule].line);
				t->dir = GD_DIR_ANY;
				run_discrete(d, t);
			}
			track_free(t);
			continue;
		}
		if (t->state != T_PENDING)
			continue;
		t->m.elapsed_ms = (double)(mono_ms() - t->begin_ms);
		decide(d, t);
	}
}

/* ---- configuration file ---- */

static void
set_config(struct gd_daemon *d, struct gd_config *cfg)
{
	struct cfgref *cr = cfgref_new(cfg);
	if (!cr) {
		logw("out of memory; keeping the previous configuration");
		gd_config_free(cfg);
		return;
	}
	cfgref_unref(d->cr);
	d->cr = cr;
	for (int i = 0; i < d->nsrc; i++)
		update_subscriptions(d, &d->src[i]);
}

void
gd_daemon_reload(struct gd_daemon *d)
{
	char err[512];
	struct gd_config *cfg;
	if (access(d->opts.config_path, F_OK) < 0 && errno == ENOENT) {
		cfg = gd_config_empty(d->opts.config_path);
		if (!cfg)
			return;
		logw("%s is gone: no gestures are taken", d->opts.config_path);
		set_config(d, cfg);
		return;
	}
	cfg = gd_config_load_report(d->opts.config_path, log_warning, NULL, err, sizeof(err));
	if (!cfg) {
		logw("%s; keeping the previous configuration", err);
		return;
	}
	set_config(d, cfg);
	logw("configuration reloaded: %zu rules, %d subscriptions", cfg->nrules,
	     subscription_count(d));
}

static int
watch_config(struct gd_daemon *d, char *err, size_t errlen)
{
	const char *path = d->opts.config_path;
	const char *slash = strrchr(path, '/');
	/* "/gestures.yaml" lives in "/" */
	size_t dirlen = slash ? (slash == path ? 1 : (size_t)(slash - path)) : 0;
	d->dir = slash ? strndup(path, dirlen) : strdup(".");
	d->base = strdup(slash ? slash + 1 : path);
	if (!d->dir || !d->base) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	d->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (d->inotify_fd < 0) {
		snprintf(err, errlen, "inotify: %s", strerror(errno));
		return -1;
	}
	d->watch = inotify_add_watch(d->inotify_fd, d->dir,
				     IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE |
					     IN_MOVED_FROM);
	if (d->watch < 0) {
		snprintf(err, errlen, "cannot watch %s: %s", d->dir, strerror(errno));
		return -1;
	}
	return 0;
}

static void
inotify_ready(struct gd_daemon *d)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	int changed = 0;
	ssize_t n;
	while ((n = read(d->inotify_fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *e = (struct inotify_event *)p;
			/* IN_CREATE alone is an empty file being written:
			 * wait for its IN_CLOSE_WRITE */
			if (e->len && !strcmp(e->name, d->base) && !(e->mask & IN_CREATE))
				changed = 1;
			p += sizeof(*e) + e->len;
		}
	}
	if (changed)
		gd_daemon_reload(d);
}

/* ---- sources ---- */

static int
source_open(struct gd_daemon *d, struct source *s, int x11, int only_indirect, char *err,
	    size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->d = d;
	s->fd = -1;
	s->is_x11 = x11;
	s->only_indirect = only_indirect;
	s->name = x11 ? "x11" : "evdev";
	s->screen_w = EVDEV_SCREEN_W;
	s->screen_h = EVDEV_SCREEN_H;
	if (x11)
		s->geis = geis_new(UTOUCH_GEIS_INIT_X11, GEIS_INIT_TRACK_DEVICES,
				   GEIS_INIT_SYNCHRONOUS_START, GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
	else {
		/* the optional arguments, those given first: a NULL ends the list */
		const char *dir = d->opts.evdev_dir;
		const char *grab = d->opts.evdev_grab ? UTOUCH_GEIS_INIT_EVDEV_GRAB : NULL;
		if (dir)
			s->geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, GEIS_INIT_TRACK_DEVICES,
					   GEIS_INIT_SYNCHRONOUS_START, GEIS_INIT_NO_ATOMIC_GESTURES,
					   UTOUCH_GEIS_INIT_EVDEV_DIR, dir, grab, NULL);
		else
			s->geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, GEIS_INIT_TRACK_DEVICES,
					   GEIS_INIT_SYNCHRONOUS_START, GEIS_INIT_NO_ATOMIC_GESTURES,
					   grab, NULL);
	}
	if (!s->geis) {
		snprintf(err, errlen, "%s: geis_new failed%s%s", s->name,
			 geis_error_count(NULL) ? ": " : "",
			 geis_error_count(NULL) ? geis_error_message(NULL, 0) : "");
		return -1;
	}
#ifdef GD_HAVE_X11
	if (x11 && d->x11)
		gd_x11_screen_size(d->x11, &s->screen_w, &s->screen_h);
#endif
	geis_register_event_callback(s->geis, on_event, s);
	if (geis_get_configuration(s->geis, GEIS_CONFIGURATION_FD, &s->fd) != GEIS_STATUS_SUCCESS) {
		snprintf(err, errlen, "%s: no geis descriptor", s->name);
		geis_delete(s->geis);
		s->geis = NULL;
		return -1;
	}
	return 0;
}

static void
source_close(struct source *s)
{
	if (!s->geis)
		return;
	for (int k = 0; k < GD_KIND_COUNT; k++)
		for (int f = 1; f <= MAX_FINGERS; f++)
			if (s->subs[k][f])
				geis_subscription_delete(s->subs[k][f]);
	geis_delete(s->geis);
	s->geis = NULL;
}

static void
source_ready(struct gd_daemon *d, struct source *s)
{
	GeisStatus st = geis_dispatch_events(s->geis);
	if (st == GEIS_STATUS_UNKNOWN_ERROR && !s->broken) {
		logw("%s: the backend failed", s->name);
		s->broken = 1;
	}
	(void)d;
}

/* ---- the daemon ---- */

/* The signals the daemon reads from its signalfd (blocked while it runs,
 * unblocked again when it is freed). */
static void
daemon_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGCHLD);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

struct gd_daemon *
gd_daemon_new(const struct gd_options *opts, char *err, size_t errlen)
{
	struct gd_daemon *d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	d->opts = *opts;
	d->inotify_fd = d->signal_fd = d->timer_fd = -1;
	d->watch = -1;
	d->status = 0;

	struct gd_config *cfg;
	if (access(opts->config_path, F_OK) < 0 && errno == ENOENT) {
		cfg = gd_config_empty(opts->config_path);
		logw("%s does not exist: no gestures are taken until it does", opts->config_path);
	} else {
		cfg = gd_config_load_report(opts->config_path, log_warning, NULL, err, errlen);
	}
	if (!cfg)
		goto fail;
	d->cr = cfgref_new(cfg);
	if (!d->cr) {
		gd_config_free(cfg);
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (watch_config(d, err, errlen) < 0)
		goto fail;
	d->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (d->timer_fd < 0) {
		snprintf(err, errlen, "timerfd: %s", strerror(errno));
		goto fail;
	}
	sigset_t set;
	daemon_signals(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	d->signal_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (d->signal_fd < 0) {
		snprintf(err, errlen, "signalfd: %s", strerror(errno));
		goto fail;
	}

	enum gd_backend be = opts->backend;
	const char *display = getenv("DISPLAY");
	const char *wayland = getenv("WAYLAND_DISPLAY");
	/* a Wayland session's DISPLAY is Xwayland, whose root window only
	 * sees touches over X clients: read the devices instead */
	if (be == GD_BACKEND_AUTO && (!(display && *display) || (wayland && *wayland)))
		be = GD_BACKEND_EVDEV;
#ifdef GD_HAVE_X11
	if (be != GD_BACKEND_EVDEV) {
		d->x11 = gd_x11_open(NULL, err, errlen);
		if (!d->x11)
			goto fail;
	}
#else
	if (be == GD_BACKEND_X11) {
		snprintf(err, errlen, "this utouch-gestured was built without X11 (-Dx11=disabled)");
		goto fail;
	}
	if (be == GD_BACKEND_AUTO)
		be = GD_BACKEND_EVDEV;
#endif
	d->act = gd_actions_new(opts->dry_run, opts->out, NULL);
	if (!d->act) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
#ifdef GD_HAVE_X11
	gd_actions_set_x11(d->act, d->x11);
#endif
	if (be != GD_BACKEND_EVDEV) {
		if (source_open(d, &d->src[d->nsrc], 1, 0, err, errlen) < 0)
			goto fail;
		d->nsrc++;
	}
	if (be != GD_BACKEND_X11) {
		const char *dir = opts->evdev_dir ? opts->evdev_dir : "/dev/input";
		struct stat st;
		errno = 0;
		if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || access(dir, R_OK | X_OK) < 0) {
			char why[300];
			snprintf(why, sizeof(why), "cannot read the device directory %s: %s", dir,
				 errno ? strerror(errno) : "not a directory");
			if (be == GD_BACKEND_EVDEV) {
				snprintf(err, errlen, "%s", why);
				goto fail;
			}
			logw("touchpads are not read: %s", why);
			be = GD_BACKEND_X11;
		}
	}
	if (be != GD_BACKEND_X11) {
		char err2[256];
		if (source_open(d, &d->src[d->nsrc], 0, be == GD_BACKEND_AUTO, err2, sizeof(err2)) == 0) {
			d->nsrc++;
		} else if (be == GD_BACKEND_EVDEV) {
			snprintf(err, errlen, "%s", err2);
			goto fail;
		} else {
			logw("touchpads are not read: %s", err2);
		}
	}
	for (int i = 0; i < d->nsrc; i++) {
		struct source *s = &d->src[i];
		update_subscriptions(d, s);
		/* start: devices, grabs */
		if (geis_dispatch_events(s->geis) != GEIS_STATUS_UNKNOWN_ERROR)
			continue;
		char why[300];
		snprintf(why, sizeof(why), "%s: the backend did not start%s%s", s->name,
			 geis_error_count(s->geis) ? ": " : "",
			 geis_error_count(s->geis) ? geis_error_message(s->geis, 0) : "");
		if (s->is_x11 || be == GD_BACKEND_EVDEV) {
			snprintf(err, errlen, "%s", why);
			goto fail;
		}
		logw("touchpads are not read: %s", why);
		source_close(s);
		d->nsrc--;
	}
	for (int i = 0; i < d->nsrc; i++)
		if (!d->src[i].is_x11 && d->src[i].ndevices == 0)
			logw("no touchpad or touchscreen can be read under %s yet (is the user in "
			     "the \"input\" group?); devices that appear later are used",
			     opts->evdev_dir ? opts->evdev_dir : "/dev/input");
	logw("ready: %s, %zu rules, %d subscriptions%s", opts->config_path, d->cr->cfg->nrules,
	     subscription_count(d), opts->dry_run ? " (dry run)" : "");
	return d;
fail:
	gd_daemon_free(d);
	return NULL;
}

void
gd_daemon_free(struct gd_daemon *d)
{
	if (!d)
		return;
	for (int i = 0; i < MAX_TRACKS; i++)
		if (d->tracks[i].state != T_FREE)
			track_free(&d->tracks[i]);
	for (int i = 0; i < d->nsrc; i++)
		source_close(&d->src[i]);
	gd_actions_free(d->act);
#ifdef GD_HAVE_X11
	gd_x11_close(d->x11);
#endif
	cfgref_unref(d->cr);
	if (d->inotify_fd >= 0)
		close(d->inotify_fd);
	if (d->timer_fd >= 0)
		close(d->timer_fd);
	if (d->signal_fd >= 0) {
		close(d->signal_fd);
		sigset_t set;
		daemon_signals(&set);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
	}
	free(d->dir);
	free(d->base);
	free(d);
}

static void
signal_ready(struct gd_daemon *d)
{
	struct signalfd_siginfo si;
	while (read(d->signal_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		switch (si.ssi_signo) {
		case SIGCHLD:
			gd_actions_reap(d->act);
			break;
		case SIGHUP:
			gd_daemon_reload(d);
			break;
		default:
			logv(d, "signal %u: exiting", si.ssi_signo);
			d->quit = 1;
			d->status = 0;
			break;
		}
	}
}

int
gd_daemon_step(struct gd_daemon *d, int timeout_ms)
{
	struct pollfd p[8];
	int n = 0, isig, iino, itim, ix = -1, isrc[2];
	isig = n;
	p[n++] = (struct pollfd){ .fd = d->signal_fd, .events = POLLIN };
	iino = n;
	p[n++] = (struct pollfd){ .fd = d->inotify_fd, .events = POLLIN };
	itim = n;
	p[n++] = (struct pollfd){ .fd = d->timer_fd, .events = POLLIN };
	for (int i = 0; i < d->nsrc; i++) {
		isrc[i] = n;
		p[n++] = (struct pollfd){ .fd = d->src[i].broken ? -1 : d->src[i].fd, .events = POLLIN };
	}
#ifdef GD_HAVE_X11
	if (d->x11 && !gd_x11_dead(d->x11)) {
		ix = n;
		p[n++] = (struct pollfd){ .fd = gd_x11_fd(d->x11), .events = POLLIN };
	}
#endif
	int r = poll(p, (nfds_t)n, timeout_ms);
	if (r < 0 && errno != EINTR) {
		logw("poll: %s", strerror(errno));
		d->quit = 1;
		d->status = 1;
	}
	if (r <= 0)
		return !d->quit;
	for (int i = 0; i < d->nsrc; i++)
		if (p[isrc[i]].revents)
			source_ready(d, &d->src[i]);
	if (p[itim].revents)
		timer_fired(d);
	if (p[iino].revents)
		inotify_ready(d);
	if (p[isig].revents)
		signal_ready(d);
#ifdef GD_HAVE_X11
	if (ix >= 0 && p[ix].revents && gd_x11_dispatch(d->x11) < 0) {
		logw("the X server went away: exiting");
		d->quit = 1;
		d->status = 0;
	}
#else
	(void)ix;
#endif
	rearm_timer(d);
	return !d->quit;
}

int
gd_daemon_run(struct gd_daemon *d)
{
	while (gd_daemon_step(d, -1))
		;
	gd_actions_reap(d->act);
	return d->status;
}

Geis
gd_daemon_evdev_geis(struct gd_daemon *d)
{
	for (int i = 0; i < d->nsrc; i++)
		if (!d->src[i].is_x11)
			return d->src[i].geis;
	return NULL;
}

int
gd_daemon_rule_count(const struct gd_daemon *d)
{
	return (int)d->cr->cfg->nrules;
}
