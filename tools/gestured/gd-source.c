/*
 * utouch-gestured: the sources of touches (one geis instance each: the X
 * server, evdev devices), their subscriptions and devices, and the
 * dispatch of their events.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gd-daemon-private.h"
#ifdef GD_HAVE_X11
#include "gd-x11.h"
#endif

const char *const gd_class_names[GD_KIND_COUNT] = {
	GEIS_GESTURE_DRAG, GEIS_GESTURE_PINCH, GEIS_GESTURE_ROTATE, GEIS_GESTURE_TAP,
	GEIS_GESTURE_TOUCH
};

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

/*
 * Whether a rule for @k and @fingers applies to this source, and in @dev
 * the kind of device those rules name: a subscription for one kind binds
 * only such devices (a geis device filter), so that geis grabs no window
 * of any other device and a touch there is never held: it reaches the
 * application at once (through the proxy's clone), where a subscription
 * for every device kept it 60 ms for the fingers that may still join it
 * (issue 23 point 8).  X11 sources and touchpad-only sources keep what
 * they have (GD_DEV_ANY).
 */
static int
rules_need(const struct gd_config *cfg, const struct source *s, enum gd_kind k, int fingers,
	   enum gd_device *dev)
{
	int screen = 0, pad = 0;

	for (size_t i = 0; i < cfg->nrules; i++) {
		const struct gd_rule *r = &cfg->rules[i];

		if (r->kind != k || r->fingers != fingers || !rule_fits_source(s, r))
			continue;
		screen |= r->device != GD_DEV_TOUCHPAD;
		pad |= r->device != GD_DEV_TOUCHSCREEN;
	}
	if (s->is_x11 || s->only_indirect || (screen && pad))
		*dev = GD_DEV_ANY;
	else
		*dev = screen ? GD_DEV_TOUCHSCREEN : GD_DEV_TOUCHPAD;
	return screen || pad;
}

/*
 * A rule for N fingers is the whole hand (settings: whole-hand, on by
 * default): no gesture while more than N fingers are down, and candidates
 * end when another finger lands (issue 23; doc/gestured.md, "Whole
 * hand").  A backend without grail has no such item: said once, not an
 * error.  Returns false when geis refuses the value.
 */
static int
set_whole_hand(struct source *s, GeisSubscription sub, int on)
{
	GeisInteger v = on ? 1 : 0, now = -1;

	if (geis_subscription_get_configuration(sub, UTOUCH_GEIS_CONFIG_WHOLE_HAND, &now) ==
		    GEIS_STATUS_SUCCESS &&
	    now == v)
		return 1;
	GeisStatus st = geis_subscription_set_configuration(sub, UTOUCH_GEIS_CONFIG_WHOLE_HAND,
							    &v);
	if (st == GEIS_STATUS_NOT_SUPPORTED) {
		if (!s->no_whole_hand)
			gd_logv(s->d, "%s: this backend has no whole-hand gestures", s->name);
		s->no_whole_hand = 1;
		return 1;
	}
	return st == GEIS_STATUS_SUCCESS;
}

static GeisSubscription
subscribe(struct source *s, enum gd_kind k, int fingers, enum gd_device dev, int whole_hand)
{
	char name[32];
	snprintf(name, sizeof(name), "%s-%d", gd_kind_name(k), fingers);
	GeisSubscription sub = geis_subscription_new(s->geis, name, GEIS_SUBSCRIPTION_NONE);
	GeisFilter f = geis_filter_new(s->geis, name);
	if (!sub || !f)
		goto fail;
	if (geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ,
				 gd_class_names[k], GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ,
				 fingers, NULL) != GEIS_STATUS_SUCCESS)
		goto fail;
	if (s->only_indirect &&
	    geis_filter_add_term(f, GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_DIRECT_TOUCH,
				 GEIS_FILTER_OP_EQ, GEIS_FALSE, NULL) != GEIS_STATUS_SUCCESS)
		goto fail;
	if (dev != GD_DEV_ANY &&
	    geis_filter_add_term(f, GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_DIRECT_TOUCH,
				 GEIS_FILTER_OP_EQ,
				 dev == GD_DEV_TOUCHSCREEN ? GEIS_TRUE : GEIS_FALSE,
				 NULL) != GEIS_STATUS_SUCCESS)
		goto fail;
	if (!set_whole_hand(s, sub, whole_hand))
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
	gd_logw("%s: cannot subscribe to %d-finger %s gestures%s%s", s->name, fingers,
	     gd_kind_name(k), geis_error_count(s->geis) ? ": " : "",
	     geis_error_count(s->geis) ? geis_error_message(s->geis, 0) : "");
	if (f)
		geis_filter_delete(f);
	if (sub)
		geis_subscription_delete(sub);
	return NULL;
}

/* whether a gesture of source @p s, class @p k and @p fingers is followed */
static int
in_flight(const struct gd_daemon *d, const struct source *s, enum gd_kind k, int fingers)
{
	for (int i = 0; i < d->ntracks; i++) {
		const struct track *t = d->tracks[i];
		if (t->state != T_FREE && t->src == s && t->kind == k && t->fingers == fingers)
			return 1;
	}
	return 0;
}

/*
 * Subscribe to what the rules need, unsubscribe from the rest.  Gestures
 * of subscriptions that stay go on untouched.  A subscription the new
 * rules no longer need (or need for other devices) while a gesture of it
 * is in flight is kept until that gesture ends: deactivating it would end
 * the gesture, which must keep the configuration it began with to its end
 * (an undecided one may still run its rule, a continuous one follows the
 * fingers to their lift).  Its new gestures have no candidate in the new
 * rules and are rejected at once.  gd_track_free() asks for this sweep
 * again (d->resweep) when such a gesture ends.
 */
void
gd_source_subscribe(struct gd_daemon *d, struct source *s)
{
	const struct gd_config *cfg = d->cr->cfg;
	if (s->broken || !s->geis)
		return;
	s->nretiring = 0;
	for (int k = 0; k < GD_KIND_COUNT; k++)
		for (int f = 1; f <= MAX_FINGERS; f++) {
			enum gd_device dev;
			int need = rules_need(cfg, s, (enum gd_kind)k, f, &dev);
			s->retiring[k][f] = 0;
			if (s->subs[k][f] && (!need || s->subdev[k][f] != dev)) {
				if (in_flight(d, s, (enum gd_kind)k, f)) {
					gd_logv(d, "%s: %d-finger %s subscription kept until its "
						"gestures in flight end", s->name, f,
						gd_kind_name((enum gd_kind)k));
					s->retiring[k][f] = 1;
					s->nretiring++;
					continue;
				}
				/* no rule for it any more, or a reload named other
				 * devices (subscribed anew below) */
				geis_subscription_deactivate(s->subs[k][f]);
				geis_subscription_delete(s->subs[k][f]);
				s->subs[k][f] = NULL;
			}
			if (need && !s->subs[k][f]) {
				s->subs[k][f] = subscribe(s, (enum gd_kind)k, f, dev, cfg->whole_hand);
				s->subdev[k][f] = dev;
			} else if (need) {
				/* a reload may have changed the setting */
				if (!set_whole_hand(s, s->subs[k][f], cfg->whole_hand))
					gd_logw("%s: cannot set whole-hand on %d-finger %s "
						"gestures", s->name, f, gd_kind_name((enum gd_kind)k));
			}
		}
}

int
gd_subscription_count(const struct gd_daemon *d)
{
	int n = 0;
	for (int i = 0; i < d->nsrc; i++)
		for (int k = 0; k < GD_KIND_COUNT; k++)
			for (int f = 1; f <= MAX_FINGERS; f++)
				n += d->src[i].subs[k][f] != NULL && !d->src[i].retiring[k][f];
	return n;
}

/* ---- devices ---- */

double
gd_attr_num(GeisAttr a, double dflt)
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
			gd_logw("%s: more than %d devices; ignoring %s", s->name, MAX_DEVICES,
			     geis_device_name(dev));
			return;
		}
		v = &s->devices[s->ndevices++];
	}
	v->id = id;
	snprintf(v->name, sizeof(v->name), "%s", geis_device_name(dev) ? geis_device_name(dev) : "");
	v->direct = gd_attr_num(geis_device_attr_by_name(dev, GEIS_DEVICE_ATTRIBUTE_DIRECT_TOUCH), 1) != 0;
	double minx = gd_attr_num(geis_device_attr_by_name(dev, GEIS_DEVICE_ATTRIBUTE_MIN_X), 0);
	double maxx = gd_attr_num(geis_device_attr_by_name(dev, GEIS_DEVICE_ATTRIBUTE_MAX_X), 0);
	double miny = gd_attr_num(geis_device_attr_by_name(dev, GEIS_DEVICE_ATTRIBUTE_MIN_Y), 0);
	double maxy = gd_attr_num(geis_device_attr_by_name(dev, GEIS_DEVICE_ATTRIBUTE_MAX_Y), 0);
	/* frame axes give units per metre */
	double resx = gd_attr_num(geis_device_attr_by_name(dev, GEIS_DEVICE_ATTRIBUTE_RES_X), 0) / 1000.0;
	double resy = gd_attr_num(geis_device_attr_by_name(dev, GEIS_DEVICE_ATTRIBUTE_RES_Y), 0) / 1000.0;
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
	gd_logv(s->d, "%s: device %d \"%s\" (%s, %.3f mm per unit)", s->name, (int)id,
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
	gd_logv(s->d, "%s: device %d \"%s\" went away", s->name, (int)id, geis_device_name(dev));
}

const struct device *
gd_source_device(const struct source *s, GeisInteger id)
{
	for (int i = 0; i < s->ndevices; i++)
		if (s->devices[i].id == id)
			return &s->devices[i];
	return NULL;
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
				gd_track_event(d, s, type, geis_group_frame(g, j));
		}
		break;
	}
	case GEIS_EVENT_ERROR:
		for (GeisSize i = 0; i < geis_error_count(s->geis); i++)
			gd_logw("%s: %s", s->name, geis_error_message(s->geis, i));
		break;
	default:
		break;
	}
	geis_event_delete(ev);
}

/* ---- sources ---- */

/* geis's own messages join the daemon's: warnings and errors always (a
 * device skipped, the proxy's clone that cannot be written), the rest with
 * -v.  In a --recording run, a warning or an error fails the run: what it
 * reports (lost output above all) is what a trial run is for. */
static void
on_geis_log(void *data, enum utouch_geis_log_priority priority, const char *message)
{
	struct source *s = data;

	if (priority < UTOUCH_GEIS_LOG_WARNING) {
		gd_logv(s->d, "%s: %s", s->name, message);
		return;
	}
	gd_logw("%s: %s", s->name, message);
	if (s->d->opts.recording)
		s->d->status = 1;
}

int
gd_source_open(struct gd_daemon *d, struct source *s, int x11, int only_indirect, char *err,
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
		/* an option not given is a pair of harmless repeats of
		 * GEIS_INIT_TRACK_DEVICES in its place */
		const struct gd_options *o = &d->opts;
		const char *none = GEIS_INIT_TRACK_DEVICES;
		int proxy = o->proxy || o->proxy_output;
		s->name = o->recording ? "recording" : "evdev";
		s->geis = geis_new(
			o->recording ? UTOUCH_GEIS_INIT_RECORDING : UTOUCH_GEIS_INIT_EVDEV,
			o->recording ? o->recording : none, GEIS_INIT_SYNCHRONOUS_START,
			GEIS_INIT_NO_ATOMIC_GESTURES,
			o->recording && o->fast ? UTOUCH_GEIS_INIT_RECORDING_FAST : none,
			o->evdev_dir ? UTOUCH_GEIS_INIT_EVDEV_DIR : none,
			o->evdev_dir ? o->evdev_dir : none,
			o->evdev_grab ? UTOUCH_GEIS_INIT_EVDEV_GRAB : none,
			proxy && o->proxy_output ? UTOUCH_GEIS_INIT_PROXY_OUTPUT
			: proxy ? UTOUCH_GEIS_INIT_PROXY : none,
			proxy && o->proxy_output ? o->proxy_output : none,
			o->uinput ? UTOUCH_GEIS_INIT_PROXY_UINPUT : none, o->uinput ? o->uinput : none,
			NULL);
	}
	if (!s->geis) {
		snprintf(err, errlen, "%s: geis_new failed%s%s", s->name,
			 geis_error_count(NULL) ? ": " : "",
			 geis_error_count(NULL) ? geis_error_message(NULL, 0) : "");
		return -1;
	}
	/* what went wrong as the devices were opened in geis_new() (a device
	 * another program holds, a clone that could not be made): the next
	 * geis call clears the instance's stack */
	for (GeisSize i = 0; i < geis_error_count(s->geis); i++)
		gd_logw("%s: %s", s->name, geis_error_message(s->geis, i));
#ifdef GD_HAVE_X11
	if (x11 && d->x11)
		gd_x11_screen_size(d->x11, &s->screen_w, &s->screen_h);
#endif
	utouch_geis_set_log_handler(s->geis, on_geis_log, s);
	geis_register_event_callback(s->geis, on_event, s);
	if (geis_get_configuration(s->geis, GEIS_CONFIGURATION_FD, &s->fd) != GEIS_STATUS_SUCCESS) {
		snprintf(err, errlen, "%s: no geis descriptor", s->name);
		geis_delete(s->geis);
		s->geis = NULL;
		return -1;
	}
	return 0;
}

void
gd_source_close(struct source *s)
{
	if (!s->geis)
		return;
	for (int k = 0; k < GD_KIND_COUNT; k++)
		for (int f = 1; f <= MAX_FINGERS; f++)
			if (s->subs[k][f]) {
				geis_subscription_delete(s->subs[k][f]);
				s->subs[k][f] = NULL;
			}
	s->nretiring = 0;
	geis_delete(s->geis);
	s->geis = NULL;
	/* a source opened later in this slot numbers its gestures anew */
	for (int i = 0; s->d && i < GD_REFUSED; i++)
		if (s->d->refused[i].src == s)
			s->d->refused[i].src = NULL;
}

void
gd_source_ready(struct gd_daemon *d, struct source *s)
{
	GeisStatus st = geis_dispatch_events(s->geis);
	if (st == GEIS_STATUS_UNKNOWN_ERROR && !s->broken) {
		gd_logw("%s: the backend failed", s->name);
		s->broken = 1;
	}
	(void)d;
}
