/*
 * utouch-gestured: the daemon's life and main loop (options, signals,
 * poll).  The sources of touches are in gd-source.c, the gestures in
 * flight in gd-track.c, the configuration file in gd-reload.c.
 *
 * One geis instance per source of touches (the X server's touchscreens
 * through touch grabs on the root window, evdev devices), one geis
 * subscription per (gesture class, finger count) some rule names.  Every
 * gesture geis reports is decided here: accepted once a rule matches
 * (the application below never sees its touches on X11), rejected as soon
 * as no rule can match any more (its touches are replayed at once).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "gd-daemon-private.h"
#ifdef GD_HAVE_X11
#include "gd-x11.h"
#endif

void
gd_logv(struct gd_daemon *d, const char *fmt, ...)
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

void
gd_logw(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("utouch-gestured: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
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
		gd_logw("%s does not exist: no gestures are taken until it does", opts->config_path);
	} else {
		cfg = gd_config_load_report(opts->config_path, gd_config_log_warning, NULL, err,
					    errlen);
	}
	if (!cfg)
		goto fail;
	d->cr = gd_cfgref_new(cfg);
	if (!d->cr) {
		gd_config_free(cfg);
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	d->screen = gd_screen_new();
	if (!d->screen) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	/* settings: proxy works like --proxy (from the start only) */
	if (cfg->proxy)
		d->opts.proxy = 1;
	if (gd_config_watch(d, err, errlen) < 0)
		goto fail;
	d->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (d->timer_fd < 0) {
		snprintf(err, errlen, "timerfd: %s", strerror(errno));
		goto fail;
	}
	enum gd_backend be = opts->backend;
	const char *display = getenv("DISPLAY");
	const char *wayland = getenv("WAYLAND_DISPLAY");
	/* a Wayland session's DISPLAY is Xwayland, whose root window only
	 * sees touches over X clients: read the devices instead */
	if (be == GD_BACKEND_AUTO && (!(display && *display) || (wayland && *wayland)))
		be = GD_BACKEND_EVDEV;
	if (opts->recording) {
		if (be == GD_BACKEND_X11) {
			snprintf(err, errlen, "--recording plays an evdev device: not with --backend x11");
			goto fail;
		}
		be = GD_BACKEND_EVDEV;
	}
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
	gd_actions_set_uinput(d->act, opts->uinput);
#ifdef GD_HAVE_X11
	gd_actions_set_x11(d->act, d->x11);
#endif
	if (be != GD_BACKEND_EVDEV) {
		if (gd_source_open(d, &d->src[d->nsrc], 1, 0, err, errlen) < 0)
			goto fail;
		d->nsrc++;
	}
	if (be != GD_BACKEND_X11 && !opts->recording) {
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
			gd_logw("touchpads are not read: %s", why);
			be = GD_BACKEND_X11;
		}
	}
	if (be != GD_BACKEND_X11) {
		char err2[256];
		if (gd_source_open(d, &d->src[d->nsrc], 0, be == GD_BACKEND_AUTO, err2, sizeof(err2)) == 0) {
			d->nsrc++;
		} else if (be == GD_BACKEND_EVDEV) {
			snprintf(err, errlen, "%s", err2);
			goto fail;
		} else {
			gd_logw("touchpads are not read: %s", err2);
		}
	}
	for (int i = 0; i < d->nsrc; i++) {
		struct source *s = &d->src[i];
		gd_source_subscribe(d, s);
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
		gd_logw("touchpads are not read: %s", why);
		gd_source_close(s);
		d->nsrc--;
	}
	for (int i = 0; i < d->nsrc && !opts->recording; i++)
		if (!d->src[i].is_x11 && d->src[i].ndevices == 0)
			gd_logw("no touchpad or touchscreen can be read under %s yet (is the user in "
			     "the \"input\" group?); devices that appear later are used",
			     opts->evdev_dir ? opts->evdev_dir : "/dev/input");
	/* the signals go to the signalfd only now: until here SIGTERM and
	 * SIGINT stop a start that waits (an X server that does not answer,
	 * a FIFO without a writer as the recording), as they stop any
	 * program; nothing is held yet that the kernel does not release */
	sigset_t set;
	daemon_signals(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	d->signal_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (d->signal_fd < 0) {
		snprintf(err, errlen, "signalfd: %s", strerror(errno));
		goto fail;
	}
	gd_daemon_follow_screen(d);
	gd_config_note_limits(d);
	gd_logw("ready: %s, %zu rules, %d subscriptions%s", opts->config_path, d->cr->cfg->nrules,
	     gd_subscription_count(d), opts->dry_run ? " (dry run)" : "");
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
	for (int i = 0; i < d->ntracks; i++) {
		if (d->tracks[i]->state != T_FREE)
			gd_track_free(d->tracks[i]);
		free(d->tracks[i]);
	}
	free(d->tracks);
	for (int i = 0; i < d->nsrc; i++)
		gd_source_close(&d->src[i]);
	gd_actions_free(d->act);
	gd_screen_free(d->screen);
#ifdef GD_HAVE_X11
	gd_x11_close(d->x11);
#endif
	gd_cfgref_unref(d->cr);
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
			gd_logv(d, "signal %u: exiting", si.ssi_signo);
			d->quit = 1;
			d->status = 0;
			break;
		}
	}
}

/* ---- the screen's turn ---- */

/* a source reading touchscreens through evdev (not only touchpads beside X11) */
static int
evdev_touchscreens(const struct gd_daemon *d)
{
	for (int i = 0; i < d->nsrc; i++)
		if (!d->src[i].is_x11 && !d->src[i].only_indirect)
			return 1;
	return 0;
}

static struct source *
x11_source(struct gd_daemon *d)
{
	for (int i = 0; i < d->nsrc; i++)
		if (d->src[i].is_x11)
			return &d->src[i];
	return NULL;
}

static const char *const orient_names[] = { "normal", "left", "inverted", "right", "auto" };

void
gd_daemon_follow_screen(struct gd_daemon *d)
{
	int want_orient = d->cr->cfg->orientation == GD_ORIENT_AUTO && evdev_touchscreens(d);
	/* a recording is no device of this screen: it plays as the panel is */
	if (d->screen_tried || d->opts.recording || (!want_orient && !x11_source(d)))
		return;
	const char *display = getenv("DISPLAY");
	if (!display || !*display) {
		gd_logv(d, "orientation: auto: no X display to follow; touchscreens are not turned");
		return;
	}
	d->screen_tried = 1;
	char err[256];
	if (gd_screen_connect(d->screen, NULL, err, sizeof(err)) < 0) {
		if (want_orient)
			gd_logw("orientation: auto cannot follow the screen (%s); touchscreens are "
				"not turned (set the orientation in the configuration)", err);
		return;
	}
	gd_logv(d, "following RandR of %s: output %s, %s", display,
		*gd_screen_output_name(d->screen) ? gd_screen_output_name(d->screen) : "(none)",
		orient_names[gd_screen_orientation(d->screen)]);
}

enum gd_orientation
gd_daemon_orientation(const struct gd_daemon *d)
{
	enum gd_orientation o = d->cr->cfg->orientation;
	return o == GD_ORIENT_AUTO ? gd_screen_orientation(d->screen) : o;
}

struct gd_screen *
gd_daemon_screen(struct gd_daemon *d)
{
	return d->screen;
}

/* the X server's RandR state changed */
static void
screen_ready(struct gd_daemon *d)
{
	int r = gd_screen_dispatch(d->screen);
	if (r < 0) {
		gd_logw("lost the X server's RandR: the screen stays %s",
			orient_names[gd_screen_orientation(d->screen)]);
		return;
	}
	if (r == 0)
		return;
	double w, h;
	struct source *x = x11_source(d);
	if (x && gd_screen_size(d->screen, &w, &h) == 0) {
		/* edges of X11 touchscreens are measured on the turned screen */
		x->screen_w = w;
		x->screen_h = h;
	}
	if (d->cr->cfg->orientation == GD_ORIENT_AUTO && evdev_touchscreens(d))
		gd_logw("the screen turned: output %s is %s; touchscreen gestures turn with it",
			*gd_screen_output_name(d->screen) ? gd_screen_output_name(d->screen)
							   : "(none)",
			orient_names[gd_screen_orientation(d->screen)]);
}

/* --recording: the recording has been played, no gesture is in flight
 * and every action it started has finished. */
static int
recording_done(struct gd_daemon *d)
{
	if (!d->opts.recording || d->nsrc == 0 || !utouch_geis_playback_finished(d->src[0].geis))
		return 0;
	struct pollfd p = { .fd = d->src[0].fd, .events = POLLIN };
	if (poll(&p, 1, 0) != 0)
		return 0;   /* events still to read */
	/* in virtual time nothing more happens: every deadline passes (a tap
	 * that waits for another is alone) */
	if (d->opts.fast)
		gd_tracks_run_out(d);
	for (int i = 0; i < d->ntracks; i++)
		if (d->tracks[i]->state != T_FREE)
			return 0;
	gd_actions_reap(d->act);
	return gd_actions_running(d->act) == 0;
}

int
gd_daemon_step(struct gd_daemon *d, int timeout_ms)
{
	if (recording_done(d)) {
		gd_logv(d, "the recording has been played and every action has finished");
		return 0;   /* with the status so far: 1 after a warning of geis */
	}
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
	int iscr = -1;
	if (gd_screen_fd(d->screen) >= 0) {
		iscr = n;
		p[n++] = (struct pollfd){ .fd = gd_screen_fd(d->screen), .events = POLLIN };
	}
#ifdef GD_HAVE_X11
	if (d->x11 && !gd_x11_dead(d->x11)) {
		ix = n;
		p[n++] = (struct pollfd){ .fd = gd_x11_fd(d->x11), .events = POLLIN };
	}
#endif
	int r = poll(p, (nfds_t)n, timeout_ms);
	if (r < 0 && errno != EINTR) {
		gd_logw("poll: %s", strerror(errno));
		d->quit = 1;
		d->status = 1;
	}
	if (r <= 0)
		return !d->quit;
	for (int i = 0; i < d->nsrc; i++)
		if (p[isrc[i]].revents)
			gd_source_ready(d, &d->src[i]);
	if (p[itim].revents)
		gd_tracks_timer_fired(d);
	if (p[iino].revents)
		gd_config_changed(d);
	if (p[isig].revents)
		signal_ready(d);
	if (iscr >= 0 && p[iscr].revents)
		screen_ready(d);
#ifdef GD_HAVE_X11
	if (ix >= 0 && p[ix].revents && gd_x11_dispatch(d->x11) < 0) {
		gd_logw("the X server went away: exiting");
		d->quit = 1;
		d->status = 0;
	}
#else
	(void)ix;
#endif
	if (d->resweep) {
		/* gestures that kept a subscription the rules no longer
		 * need have ended (outside geis's dispatch: the
		 * subscription goes here, not in its own event) */
		d->resweep = 0;
		for (int i = 0; i < d->nsrc; i++)
			if (d->src[i].nretiring)
				gd_source_subscribe(d, &d->src[i]);
	}
	gd_tracks_rearm_timer(d);
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
