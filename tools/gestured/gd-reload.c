/*
 * utouch-gestured: the configuration in use and its file (reference
 * counted configurations, inotify watch of the file's directory, reload).
 */
#include <sys/inotify.h>
#include <sys/stat.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gd-daemon-private.h"
#ifdef GD_HAVE_X11
#include "gd-x11.h"
#endif

/* ---- configurations ---- */

/* the warnings of a file that loads (rules that can never run); its
 * errors are reported by the caller */
void
gd_config_log_warning(void *data, const char *message)
{
	(void)data;
	if (strstr(message, ": warning: "))
		gd_logw("%s", message);
}

struct cfgref *
gd_cfgref_new(struct gd_config *cfg)
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

void
gd_cfgref_unref(struct cfgref *cr)
{
	if (!cr || --cr->refs > 0)
		return;
	gd_config_free(cr->cfg);
	free(cr->last_run_ms);
	free(cr);
}

/* ---- configuration file ---- */

void
gd_config_set(struct gd_daemon *d, struct gd_config *cfg)
{
	struct cfgref *cr = gd_cfgref_new(cfg);
	if (!cr) {
		gd_logw("out of memory; keeping the previous configuration");
		gd_config_free(cfg);
		return;
	}
	gd_cfgref_unref(d->cr);
	d->cr = cr;
	gd_daemon_follow_screen(d);
	gd_config_note_limits(d);
	for (int i = 0; i < d->nsrc; i++)
		gd_source_subscribe(d, &d->src[i]);
}

/* Watch the configuration's directory (again): its changes reload. */
static int
watch_dir(struct gd_daemon *d)
{
	d->watch = inotify_add_watch(d->inotify_fd, d->dir,
				     IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE |
					     IN_MOVED_FROM | IN_MOVE_SELF);
	return d->watch;
}

void
gd_daemon_reload(struct gd_daemon *d)
{
	char err[512];
	struct gd_config *cfg;

	/* the directory came back since it went: changes reload again */
	if (d->watch < 0 && d->inotify_fd >= 0 && watch_dir(d) >= 0)
		gd_logw("watching %s again: its changes reload the configuration", d->dir);
	if (access(d->opts.config_path, F_OK) < 0 && errno == ENOENT) {
		cfg = gd_config_empty(d->opts.config_path);
		if (!cfg)
			return;
		gd_logw("%s is gone: no gestures are taken", d->opts.config_path);
		gd_config_set(d, cfg);
		return;
	}
	cfg = gd_config_load_report(d->opts.config_path, gd_config_log_warning, NULL, err,
				    sizeof(err));
	if (!cfg) {
		gd_logw("%s; keeping the previous configuration", err);
		return;
	}
	gd_config_set(d, cfg);
	gd_logw("configuration reloaded: %zu rules, %d subscriptions", cfg->nrules,
	     gd_subscription_count(d));
}

int
gd_config_watch(struct gd_daemon *d, char *err, size_t errlen)
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
	if (watch_dir(d) < 0) {
		snprintf(err, errlen, "cannot watch %s: %s", d->dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* whether the configuration path, just created, is there whole */
static int
created_whole(const struct gd_daemon *d)
{
	struct stat st;

	if (lstat(d->opts.config_path, &st) < 0)
		return 0;   /* gone again: its IN_DELETE follows */
	return !S_ISREG(st.st_mode) || st.st_nlink > 1;
}

void
gd_config_changed(struct gd_daemon *d)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	int changed = 0;
	ssize_t n;
	while ((n = read(d->inotify_fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *e = (struct inotify_event *)p;
			if (e->mask & (IN_IGNORED | IN_MOVE_SELF)) {
				/* the directory itself was removed or moved: a
				 * new one at its path is another directory */
				if (e->mask & IN_MOVE_SELF)
					inotify_rm_watch(d->inotify_fd, d->watch);
				if (d->watch >= 0)
					gd_logw("%s was removed or moved: its changes no longer "
						"reload the configuration until SIGHUP (kill -HUP "
						"%ld) once it is back", d->dir, (long)getpid());
				d->watch = -1;
				changed = 1;
			}
			/* IN_CREATE of a regular file is an empty file being
			 * written: wait for its IN_CLOSE_WRITE; a symlink, a
			 * hard link or anything else comes whole and gets no
			 * IN_CLOSE_WRITE */
			if (e->len && !strcmp(e->name, d->base) &&
			    (!(e->mask & IN_CREATE) || created_whole(d)))
				changed = 1;
			p += sizeof(*e) + e->len;
		}
	}
	if (changed)
		gd_daemon_reload(d);
}

void
gd_config_note_limits(struct gd_daemon *d)
{
	const struct gd_config *cfg = d->cr->cfg;
	int have_x = 0;
#ifdef GD_HAVE_X11
	have_x = d->x11 != NULL;
#endif
	for (size_t i = 0; i < cfg->nrules && !have_x; i++)
		if (cfg->rules[i].app)
			gd_logw("%s:%d: \"app: %s\" needs X11: on Wayland only the compositor "
				"knows the window under the fingers, and no protocol tells other "
				"programs; this rule never runs here", cfg->path, cfg->rules[i].line,
				cfg->rules[i].app);
	if (cfg->proxy && !d->opts.proxy)
		gd_logw("%s: \"proxy\" takes effect when the daemon starts", cfg->path);
}
