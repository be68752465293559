/*
 * utouch-gestured: running actions.
 */
#include "gd-actions.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/input.h>

#include "gd-keys.h"
#include "gd-uinput.h"
#include "util/child.h"
#ifdef GD_HAVE_X11
#include "gd-x11.h"
#endif

struct gd_cont {
	struct gd_actions *a;
	int fd;                 /* the action's stdin, -1 in dry-run mode */
	pid_t pid;
	char label[160];
};

struct gd_actions {
	int dry_run;
	FILE *out;
	struct gd_x11 *x11;
	const char *uinput_node;
	struct gd_uinput *uinput;   /* made on first use without X */
	int running;
};

struct gd_actions *
gd_actions_new(int dry_run, FILE *out, struct gd_x11 *x11)
{
	struct gd_actions *a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->dry_run = dry_run;
	a->out = out ? out : stdout;
	a->x11 = x11;
	/* a continuous action that exits early must not kill the daemon */
	signal(SIGPIPE, SIG_IGN);
	return a;
}

void
gd_actions_set_x11(struct gd_actions *a, struct gd_x11 *x11)
{
	a->x11 = x11;
}

void
gd_actions_set_uinput(struct gd_actions *a, const char *node)
{
	a->uinput_node = node;
}

void
gd_actions_free(struct gd_actions *a)
{
	if (!a)
		return;
	gd_actions_reap(a);
	gd_uinput_free(a->uinput);
	free(a);
}

static void
describe(char *buf, size_t len, const struct gd_gesture_info *g)
{
	snprintf(buf, len, "%s fingers=%d direction=%s device=%s app=%s progress=%.2f",
		 gd_kind_name(g->kind), g->fingers, gd_dir_name(g->dir), gd_device_name(g->device),
		 g->app_class && *g->app_class ? g->app_class : "-", g->progress);
}

static void
set_env(const struct gd_gesture_info *g)
{
	char v[64];
	setenv("UTOUCH_GESTURE", gd_kind_name(g->kind), 1);
	snprintf(v, sizeof(v), "%d", g->fingers);
	setenv("UTOUCH_FINGERS", v, 1);
	setenv("UTOUCH_DIRECTION", gd_dir_name(g->dir), 1);
	setenv("UTOUCH_DEVICE", gd_device_name(g->device), 1);
	setenv("UTOUCH_APP_INSTANCE", g->app_instance ? g->app_instance : "", 1);
	setenv("UTOUCH_APP_CLASS", g->app_class ? g->app_class : "", 1);
	snprintf(v, sizeof(v), "%.1f", g->x);
	setenv("UTOUCH_X", v, 1);
	snprintf(v, sizeof(v), "%.1f", g->y);
	setenv("UTOUCH_Y", v, 1);
	snprintf(v, sizeof(v), "%.3f", g->progress);
	setenv("UTOUCH_PROGRESS", v, 1);
}

/* Start /bin/sh -c @p cmd; its stdin is @p in_fd (or /dev/null). */
static pid_t
spawn(struct gd_actions *a, const char *cmd, const struct gd_gesture_info *g, int in_fd)
{
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "utouch-gestured: cannot start \"%s\": %s\n", cmd, strerror(errno));
		return -1;
	}
	if (pid == 0) {
		/* the daemon blocks its signals for its signalfd: undo that */
		ut_child_default_signals();
		setsid();
		int fd = in_fd >= 0 ? in_fd : open("/dev/null", O_RDONLY);
		if (fd >= 0 && fd != 0) {
			dup2(fd, 0);
			close(fd);
		}
		set_env(g);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		fprintf(stderr, "utouch-gestured: cannot run /bin/sh for \"%.60s%s\": %s\n", cmd,
			strlen(cmd) > 60 ? "..." : "", strerror(errno));
		_exit(127);
	}
	a->running++;
	return pid;
}

/* keys and clicks: XTest on X11, else the daemon's uinput devices */
static int
run_input(struct gd_actions *a, const struct gd_rule *rule, const struct gd_gesture_info *info,
	  char *err, size_t errlen)
{
	int click = rule->action == GD_ACT_CLICK;
	int button = !strcmp(rule->arg, "left") ? 1 : !strcmp(rule->arg, "middle") ? 2 : 3;
#ifdef GD_HAVE_X11
	if (a->x11) {
		if (click)
			return gd_x11_click(a->x11, button, info->fx >= 0 ? info->x : -1, info->y,
					    err, errlen);
		return gd_x11_send_keys(a->x11, rule->arg, err, errlen);
	}
#endif
	if (!a->uinput && !(a->uinput = gd_uinput_new(a->uinput_node))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (click)
		return gd_uinput_click(a->uinput, button == 1 ? BTN_LEFT : button == 2 ? BTN_MIDDLE
							   : BTN_RIGHT,
				       info->fx, info->fy, err, errlen);
	int codes[GD_KEYS_MAX];
	int n = gd_keys_parse_evdev(rule->arg, codes, err, errlen);
	return n < 0 ? -1 : gd_uinput_keys(a->uinput, codes, n, err, errlen);
}

int
gd_actions_run(struct gd_actions *a, const struct gd_rule *rule,
	       const struct gd_gesture_info *info)
{
	char what[200];
	describe(what, sizeof(what), info);
	if (a->dry_run) {
		fprintf(a->out, "%s %s: %s (rule at line %d)\n",
			rule->action == GD_ACT_KEYS ? "keys"
			: rule->action == GD_ACT_CLICK ? "click" : "command",
			what, rule->arg, rule->line);
		fflush(a->out);
		return 0;
	}
	if (rule->action == GD_ACT_KEYS || rule->action == GD_ACT_CLICK) {
		char err[200];
		if (run_input(a, rule, info, err, sizeof(err)) < 0) {
			fprintf(stderr, "utouch-gestured: %s \"%s\": %s\n",
				rule->action == GD_ACT_KEYS ? "keys" : "click", rule->arg, err);
			return -1;
		}
		return 0;
	}
	return spawn(a, rule->arg, info, -1) < 0 ? -1 : 0;
}

struct gd_cont *
gd_cont_begin(struct gd_actions *a, const struct gd_rule *rule,
	      const struct gd_gesture_info *info)
{
	struct gd_cont *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->a = a;
	c->fd = -1;
	describe(c->label, sizeof(c->label), info);
	if (!a->dry_run) {
		int p[2];
		if (pipe2(p, O_CLOEXEC) < 0) {
			fprintf(stderr, "utouch-gestured: pipe: %s\n", strerror(errno));
			free(c);
			return NULL;
		}
		/* the child's end must survive exec: dup2 in spawn() clears
		 * close-on-exec on descriptor 0 */
		c->pid = spawn(a, rule->arg, info, p[0]);
		close(p[0]);
		if (c->pid < 0) {
			close(p[1]);
			free(c);
			return NULL;
		}
		c->fd = p[1];
		fcntl(c->fd, F_SETFL, O_NONBLOCK);
	} else {
		fprintf(a->out, "continuous %s: %s (rule at line %d)\n", c->label, rule->arg,
			rule->line);
	}
	char line[64];
	snprintf(line, sizeof(line), "begin %.3f\n", info->progress);
	if (c->fd >= 0) {
		if (write(c->fd, line, strlen(line)) < 0 && errno != EAGAIN)
			fprintf(stderr, "utouch-gestured: continuous action: %s\n", strerror(errno));
	} else {
		fprintf(a->out, "  %s", line);
		fflush(a->out);
	}
	return c;
}

static void
cont_send(struct gd_cont *c, const char *line)
{
	if (c->fd >= 0) {
		/* a full pipe drops the line: the action reads the next one */
		ssize_t r = write(c->fd, line, strlen(line));
		(void)r;
	} else {
		fprintf(c->a->out, "  %s", line);
		fflush(c->a->out);
	}
}

void
gd_cont_update(struct gd_cont *c, double progress)
{
	char line[64];
	if (!c)
		return;
	snprintf(line, sizeof(line), "update %.3f\n", progress);
	cont_send(c, line);
}

void
gd_cont_end(struct gd_cont *c, double progress, int cancelled)
{
	char line[64];
	if (!c)
		return;
	snprintf(line, sizeof(line), "%s %.3f\n", cancelled ? "cancel" : "end", progress);
	if (c->fd >= 0) {
		/* never block on an action that stopped reading: if the line
		 * does not fit, the end of file says the same */
		ssize_t r = write(c->fd, line, strlen(line));
		(void)r;
		close(c->fd);
	} else {
		cont_send(c, line);
	}
	free(c);
}

int
gd_actions_reap(struct gd_actions *a)
{
	int n = 0, status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		n++;
		if (a->running > 0)
			a->running--;
	}
	return n;
}

int
gd_actions_running(const struct gd_actions *a)
{
	return a->running;
}
