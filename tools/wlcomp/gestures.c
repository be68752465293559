/*
 * System gestures: the utouch compositor context of the seat, its
 * configuration, and the actions gestures run.
 *
 * Actions (option `action` of a subscription):
 *   move-window     the window under the gesture follows it; with
 *                   `swipe-action`, a gesture shorter than `swipe-time` ms
 *                   that travelled at least `swipe-distance` px mostly
 *                   sideways puts the window back and runs that action
 *   focus-next      the next window gets the focus
 *   close-window    the window under the gesture is asked to close
 *   minimize-window the window under the gesture is hidden
 *   spawn           `command` runs with /bin/sh -c
 * Discrete actions run once per accepted gesture, when it ends (not when
 * it is cancelled).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <wlr/util/log.h>

#include "util/child.h"
#include "util/yaml-config.h"
#include "wlcomp.h"

static const struct {
	const char *name;
	enum action_kind kind;
} action_names[] = {
	{ "none", ACTION_NONE },
	{ "move-window", ACTION_MOVE_WINDOW },
	{ "focus-next", ACTION_FOCUS_NEXT },
	{ "close-window", ACTION_CLOSE_WINDOW },
	{ "minimize-window", ACTION_MINIMIZE_WINDOW },
	{ "spawn", ACTION_SPAWN },
};

static const char *
action_name(enum action_kind kind)
{
	for (size_t i = 0; i < sizeof(action_names) / sizeof(action_names[0]); i++)
		if (action_names[i].kind == kind)
			return action_names[i].name;
	return "?";
}

static int
parse_kind(const char *s, enum action_kind *kind)
{
	for (size_t i = 0; i < sizeof(action_names) / sizeof(action_names[0]); i++) {
		if (!strcmp(s, action_names[i].name)) {
			*kind = action_names[i].kind;
			return 0;
		}
	}
	return -1;
}

/* the options utouch-wlcomp reads */
enum option_key { O_ACTION, O_SWIPE_ACTION, O_SWIPE_DISTANCE, O_SWIPE_TIME, O_COMMAND, O_COUNT };
static const char *const option_names[O_COUNT] = {
	"action", "swipe-action", "swipe-distance", "swipe-time", "command",
};

/* what the options of one subscription say; @p bad and @p why on refusal */
static int
action_from_options(const char *const *keys, const char *const *values, size_t count,
		    struct action *a, size_t *bad, char *why, size_t whylen)
{
	size_t at[O_COUNT];
	char reason[200];
	double d;

	*a = (struct action){ .swipe_distance = 150, .swipe_time = 400 };
	for (int k = 0; k < O_COUNT; k++)
		at[k] = count;
	for (size_t i = 0; i < count; i++) {
		int k;

		for (k = 0; k < O_COUNT && strcmp(keys[i], option_names[k]); k++)
			;
		*bad = i;
		if (k == O_COUNT) {
			const char *near = ut_config_suggest(keys[i], option_names, O_COUNT);

			snprintf(why, whylen, "unknown option \"%s\"%s%s%s", keys[i],
				 near ? " (did you mean \"" : "", near ? near : "", near ? "\"?)" : "");
			return -1;
		}
		at[k] = i;
		switch (k) {
		case O_ACTION:
		case O_SWIPE_ACTION:
			if (parse_kind(values[i], k == O_ACTION ? &a->kind : &a->swipe_kind) < 0) {
				snprintf(why, whylen, "\"%s\": unknown action \"%s\" (none, "
					 "move-window, focus-next, close-window, minimize-window, "
					 "spawn)", keys[i], values[i]);
				return -1;
			}
			break;
		case O_SWIPE_DISTANCE:
		case O_SWIPE_TIME:
			if (ut_config_number(values[i], k == O_SWIPE_TIME ? "ms" : "px", 0,
					     k == O_SWIPE_TIME ? 60000 : 100000, k == O_SWIPE_TIME,
					     &d, reason, sizeof(reason)) < 0) {
				snprintf(why, whylen, "\"%s\": %s", keys[i], reason);
				return -1;
			}
			if (k == O_SWIPE_TIME)
				a->swipe_time = (uint64_t)d;
			else
				a->swipe_distance = d;
			break;
		default:
			if (!*values[i]) {
				snprintf(why, whylen, "\"command\" is empty");
				return -1;
			}
			break;
		}
	}
	*bad = count;
	/* spawn as the action or as the swipe's action runs the command */
	bool spawns = a->kind == ACTION_SPAWN || a->swipe_kind == ACTION_SPAWN;
	if (spawns && at[O_COMMAND] == count) {
		snprintf(why, whylen, "the action spawn needs a \"command\" option");
		return -1;
	}
	if (at[O_COMMAND] < count && !spawns) {
		*bad = at[O_COMMAND];
		snprintf(why, whylen, "\"command\" is for the action spawn");
		return -1;
	}
	if (at[O_COMMAND] < count && !(a->command = strdup(values[at[O_COMMAND]]))) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	return 0;
}

/* utouch_comp_config_check: each subscription's options become its action */
static int
check_subscription(void *data, const struct utouch_comp_subscription_params *params,
		   const char *const *keys, const char *const *values, size_t count,
		   size_t *bad, char *why, size_t whylen)
{
	struct server *server = data;
	struct action a, *grown;

	if (!params->name || !*params->name) {
		snprintf(why, whylen, "the subscription needs a \"name\" (utouch-wlcomp logs it)");
		return -1;
	}
	if (action_from_options(keys, values, count, &a, bad, why, whylen) < 0)
		return -1;
	grown = realloc(server->actions, (server->nactions + 1) * sizeof(*grown));
	if (!grown) {
		free(a.command);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	server->actions = grown;
	server->actions[server->nactions++] = a;
	return 0;
}

static void
free_actions(struct server *server)
{
	for (size_t i = 0; i < server->nactions; i++)
		free(server->actions[i].command);
	free(server->actions);
	server->actions = NULL;
	server->nactions = 0;
}

static int
on_gesture_fd(int fd, uint32_t mask, void *data)
{
	struct server *server = data;

	utouch_comp_dispatch(server->gestures);
	input_run_gesture_events(server);
	return 0;
}

/* the gesture context's messages join wlroots' log (-v shows debug) */
static void
on_gesture_log(void *data, enum utouch_comp_log_priority priority, const char *message)
{
	enum wlr_log_importance level = priority >= UTOUCH_COMP_LOG_WARNING ? WLR_ERROR
		: priority >= UTOUCH_COMP_LOG_INFO ? WLR_INFO : WLR_DEBUG;

	wlr_log(level, "gestures: %s", message);
}

int
gestures_init(struct server *server, const char *config)
{
	char err[512];
	int r;

	server->gestures = utouch_comp_new(server->seat->name);
	if (!server->gestures) {
		fprintf(stderr, "utouch-wlcomp: cannot create the gesture context: %s\n",
			strerror(errno));
		return -1;
	}
	utouch_comp_set_log_handler(server->gestures, on_gesture_log, server);
	r = utouch_comp_load_config_checked(server->gestures, config, check_subscription, server,
					    err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "utouch-wlcomp: %s\n", err[0] ? err : strerror(-r));
		return -1;
	}
	if (server->nactions != (size_t)r) {
		fprintf(stderr, "utouch-wlcomp: %s: %zu actions for %d subscriptions\n", config,
			server->nactions, r);
		return -1;
	}
	server->gesture_source = wl_event_loop_add_fd(server->loop,
						      utouch_comp_get_fd(server->gestures),
						      WL_EVENT_READABLE, on_gesture_fd, server);
	if (!server->gesture_source)
		return -1;
	printf("wlcomp: %d system gestures from %s\n", r, config);
	fflush(stdout);
	return 0;
}

void
gestures_stop(struct server *server)
{
	if (server->gesture_source)
		wl_event_source_remove(server->gesture_source);
	server->gesture_source = NULL;
}

void
gestures_finish(struct server *server)
{
	gestures_stop(server);
	free_actions(server);
	utouch_comp_destroy(server->gestures);
	server->gestures = NULL;
}

static void
spawn(const char *command)
{
	pid_t pid = fork();

	if (pid == 0) {
		/* a grandchild, so that nobody has to wait for it */
		setsid();
		if (fork() == 0) {
			ut_child_default_signals();
			execl("/bin/sh", "/bin/sh", "-c", command, (char *)NULL);
			_exit(127);
		}
		_exit(0);
	}
	if (pid > 0) {
		int status;

		while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
		}
	}
}

static void
run(struct server *server, enum action_kind kind, const struct action *a,
    struct gesture_state *g, const struct utouch_comp_gesture_event *ge)
{
	struct view *v = g->view;

	server->actions_run++;
	printf("wlcomp: action %s gesture %u window '%s'\n", action_name(kind), ge->id,
	       view_title(v));
	fflush(stdout);
	switch (kind) {
	case ACTION_FOCUS_NEXT:
		view_focus_next(server);
		break;
	case ACTION_CLOSE_WINDOW:
		if (v)
			view_close(v);
		break;
	case ACTION_MINIMIZE_WINDOW:
		if (v)
			view_minimize(v);
		break;
	case ACTION_SPAWN:
		spawn(a->command);
		break;
	default:
		break;
	}
}

static struct gesture_state *
state_of(struct server *server, unsigned int id, bool create)
{
	struct gesture_state *free_slot = NULL;

	for (int i = 0; i < WLCOMP_MAX_GESTURES; i++) {
		if (server->active[i].used && server->active[i].id == id)
			return &server->active[i];
		if (!server->active[i].used && !free_slot)
			free_slot = &server->active[i];
	}
	if (!create || !free_slot)
		return NULL;
	memset(free_slot, 0, sizeof(*free_slot));
	free_slot->used = true;
	free_slot->id = id;
	return free_slot;
}

static size_t
subscription_index(struct server *server, struct utouch_comp_subscription *sub)
{
	for (size_t i = 0; i < server->nactions; i++)
		if (utouch_comp_get_subscription(server->gestures, i) == sub)
			return i;
	return (size_t)-1;
}

void
gestures_handle(struct server *server, const struct utouch_comp_event *ev)
{
	const struct utouch_comp_gesture_event *ge = &ev->gesture;
	size_t si = subscription_index(server, ge->subscription);
	const struct action *a = si < server->nactions ? &server->actions[si] : NULL;
	struct gesture_state *g;

	if (!a)
		return;
	g = state_of(server, ge->id, ev->type == UTOUCH_COMP_EVENT_GESTURE_BEGIN);
	if (!g)
		return;
	if (ev->type == UTOUCH_COMP_EVENT_GESTURE_BEGIN) {
		struct wlr_surface *s;
		double sx, sy;

		g->view = view_at(server, ge->original_center_x, ge->original_center_y, &s, &sx,
				  &sy);
		g->begin_time = ev->time;
		if (g->view) {
			g->view_x = g->view->x;
			g->view_y = g->view->y;
		}
		printf("wlcomp: gesture %u begins (%s, %u touches)\n", ge->id,
		       utouch_comp_subscription_get_params(ge->subscription)->name,
		       ge->num_touches);
		fflush(stdout);
	}
	if (ev->type != UTOUCH_COMP_EVENT_GESTURE_END) {
		/* the END slice may come after touches left: keep the travel
		 * of the last full slice */
		g->dx = ge->delta_x;
		g->dy = ge->delta_y;
		if (a->kind == ACTION_MOVE_WINDOW && g->view)
			view_move(g->view, g->view_x + (int)lround(g->dx),
				  g->view_y + (int)lround(g->dy));
		return;
	}
	if (!ge->canceled) {
		if (a->kind == ACTION_MOVE_WINDOW) {
			bool swipe = a->swipe_kind != ACTION_NONE &&
				fabsf(g->dx) >= a->swipe_distance &&
				fabsf(g->dx) > 2 * fabsf(g->dy) &&
				ev->time - g->begin_time <= a->swipe_time * 1000u;

			if (swipe) {
				if (g->view)
					view_move(g->view, g->view_x, g->view_y);
				run(server, a->swipe_kind, a, g, ge);
			} else {
				run(server, ACTION_MOVE_WINDOW, a, g, ge);
			}
		} else if (a->kind != ACTION_NONE) {
			run(server, a->kind, a, g, ge);
		}
	}
	g->used = false;
}
