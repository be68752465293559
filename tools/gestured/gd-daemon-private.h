/*
 * utouch-gestured: what the daemon's files share (gd-daemon.c the main
 * loop, gd-source.c the geis sources, gd-track.c the gestures in flight,
 * gd-reload.c the configuration file).  Not installed.
 */
#ifndef GD_DAEMON_PRIVATE_H
#define GD_DAEMON_PRIVATE_H

#include <stdint.h>
#include <stdio.h>

#include <geis/geis.h>
#include <utouch/geis.h>

#include "gd-actions.h"
#include "gd-config.h"
#include "gd-daemon.h"
#include "gd-rules.h"
#include "gd-screen.h"
#include "util/clock.h"

#define MAX_FINGERS 5
/* gestures followed at once, at most: each a few hundred bytes, grown as
 * needed (ten fingers with every subset a candidate make a few hundred);
 * a gesture past this is rejected at once */
#define MAX_TRACKS 4096
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

/* refused gestures remembered (struct gd_daemon); a refused gesture's
 * remaining events come within the same dispatch, so a few are enough */
#define GD_REFUSED 16

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
	double fx0, fy0;      /* x0, y0 as fractions of the screen; -1: a touchpad */
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
	int no_whole_hand;   /* the backend has no UTOUCH_GEIS_CONFIG_WHOLE_HAND (said once) */
	GeisSubscription subs[GD_KIND_COUNT][MAX_FINGERS + 1];
	/* the devices each subscription binds (gd-source.c, rules_device()) */
	enum gd_device subdev[GD_KIND_COUNT][MAX_FINGERS + 1];
	/* subscriptions the configuration no longer needs as they are, kept
	 * until the gestures of theirs in flight end (gd_source_subscribe()) */
	unsigned char retiring[GD_KIND_COUNT][MAX_FINGERS + 1];
	int nretiring;
	struct device devices[MAX_DEVICES];
	int ndevices;
	double screen_w, screen_h;
};

struct gd_daemon {
	struct gd_options opts;
	struct cfgref *cr;
	struct source src[2];
	int nsrc;
	/* the gestures followed: each track allocated once and reused, so
	 * pointers to them stay valid while the list grows */
	struct track **tracks;
	int ntracks;
	size_t captracks;
	/* gestures whose accept failed (grail had cancelled them): their
	 * events still queued are ignored instead of starting a new track */
	struct { struct source *src; GeisGestureId id; } refused[GD_REFUSED];
	unsigned int nrefused;   /* refused[nrefused % GD_REFUSED] is the next slot */
	int inotify_fd, watch;
	char *dir, *base;
	int signal_fd;
	int timer_fd;
	uint64_t timer_at;
	/* --recording --fast: the recording's virtual time (ms), that of the
	 * newest event read; holds, timeouts and taps are measured in it */
	uint64_t vnow;
	struct gd_actions *act;
	struct gd_screen *screen;  /* the screen's turn, for "orientation: auto" */
	int screen_tried;          /* gd_daemon_follow_screen() tried to connect */
#ifdef GD_HAVE_X11
	struct gd_x11 *x11;
#endif
	/* a gesture of a retiring subscription ended: subscribe again */
	int resweep;
	int quit;
	int status;
};

/** geis class names by enum gd_kind. */
extern const char *const gd_class_names[GD_KIND_COUNT];

/** Log on stderr when the daemon is verbose. */
void gd_logv(struct gd_daemon *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** Log on stderr. */
void gd_logw(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* gd-daemon.c */
/** Follow the X server's RandR state when something needs it ("orientation:
 * auto" with evdev touchscreens, the X11 source's screen size). */
void gd_daemon_follow_screen(struct gd_daemon *d);
/** The orientation gestures of touchscreens read through evdev turn by:
 * the setting, or the screen's with "auto". */
enum gd_orientation gd_daemon_orientation(const struct gd_daemon *d);

/* gd-reload.c */
/** A configuration with one reference, NULL when out of memory. */
struct cfgref *gd_cfgref_new(struct gd_config *cfg);
/** Drop a reference; the last one frees the configuration. */
void gd_cfgref_unref(struct cfgref *cr);
/** gd_config_load_report()'s message callback: logs the warnings of a
 * file that loads (rules that can never run). */
void gd_config_log_warning(void *data, const char *message);
/** Make @p cfg the configuration in use (taken) and resubscribe. */
void gd_config_set(struct gd_daemon *d, struct gd_config *cfg);
/** Watch the configuration file's directory. @return 0, -1 with @p err */
int gd_config_watch(struct gd_daemon *d, char *err, size_t errlen);
/** Say what the configuration asks for that cannot work here (app rules
 * without X, a proxy setting changed after the start). */
void gd_config_note_limits(struct gd_daemon *d);
/** The inotify descriptor is readable: reload when the file changed. */
void gd_config_changed(struct gd_daemon *d);

/* gd-source.c */
/** Open a source (x11: the X server, else evdev devices). @return 0, -1 with @p err */
int gd_source_open(struct gd_daemon *d, struct source *s, int x11, int only_indirect,
		   char *err, size_t errlen);
/** Close a source (its subscriptions and geis instance). */
void gd_source_close(struct source *s);
/** The source's descriptor is readable. */
void gd_source_ready(struct gd_daemon *d, struct source *s);
/** Subscribe to what the rules need, unsubscribe from the rest (once no
 * gesture of the subscription is in flight). */
void gd_source_subscribe(struct gd_daemon *d, struct source *s);
/** Number of subscriptions of every source. */
int gd_subscription_count(const struct gd_daemon *d);
/** The device @p id of a source, NULL when unknown. */
const struct device *gd_source_device(const struct source *s, GeisInteger id);
/** The number an attribute holds, @p dflt when there is none. */
double gd_attr_num(GeisAttr a, double dflt);

/* gd-track.c */
/** An event of gesture frame @p f of source @p s. */
void gd_track_event(struct gd_daemon *d, struct source *s, GeisEventType type, GeisFrame f);
/** Forget a tracked gesture (a continuous action is cancelled). */
void gd_track_free(struct track *t);
/** Arm the timer for the earliest deadline of a waiting gesture. */
void gd_tracks_rearm_timer(struct gd_daemon *d);
/** The timer fired: decide the waiting gestures again. */
void gd_tracks_timer_fired(struct gd_daemon *d);
/** A --recording --fast run played its whole recording: virtual time runs
 * on past every deadline (a tap waiting for another is alone). */
void gd_tracks_run_out(struct gd_daemon *d);

#endif /* GD_DAEMON_PRIVATE_H */
