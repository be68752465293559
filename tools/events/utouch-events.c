/*
 * utouch-events: subscribe to gestures from the command line and print
 * every geis event, as text or as one JSON object per line.
 *
 * Uses the public geis v2 API plus the utouch extensions of
 * <utouch/geis.h> (backend selection, end of a recording).  See
 * doc/utouch-events.1.  This file holds the instance, the subscription
 * and the main loop; events.h says where the rest is.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events.h"
#include "tool.h"

const char *const prog = "utouch-events";

static void
handle_event(struct state *st, GeisEvent ev, FILE *out)
{
	GeisEventType type = geis_event_type(ev);

	switch (type) {
	case GEIS_EVENT_DEVICE_AVAILABLE:
	case GEIS_EVENT_DEVICE_UNAVAILABLE:
		print_device_event(st, ev, out);
		break;
	case GEIS_EVENT_CLASS_AVAILABLE:
	case GEIS_EVENT_CLASS_CHANGED:
	case GEIS_EVENT_CLASS_UNAVAILABLE: {
		GeisGestureClass c = geis_attr_value_to_pointer(
			geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_CLASS));
		const char *name = geis_gesture_class_name(c);

		for (int i = 0; name && i < NUM_CLASSES; i++) {
			if (strcmp(ut_gesture_classes[i].name, name) != 0)
				continue;
			if (type == GEIS_EVENT_CLASS_UNAVAILABLE) {
				geis_gesture_class_unref(st->classes[i]);
				st->classes[i] = NULL;
			} else if (!st->classes[i]) {
				geis_gesture_class_ref(c);
				st->classes[i] = c;
			}
		}
		print_class_event(st, ev, out);
		break;
	}
	default:
		if (is_gesture_event(type))
			print_gesture_event(st, ev, out);
		else
			print_other_event(st, ev, out);
		break;
	}
	/* the policy may drop queued events, so it runs after printing */
	apply_policy(st, ev, out);
	fflush(out);
}

/* ---- setup ---- */

static void
print_geis_errors(Geis geis, const char *what)
{
	GeisSize n = geis_error_count(geis);

	if (n == 0) {
		fprintf(stderr, "%s: %s failed\n", prog, what);
		return;
	}
	for (GeisSize i = 0; i < n; i++)
		fprintf(stderr, "%s: %s: %s\n", prog, what, geis_error_message(geis, i));
}

static Geis
create_instance(const struct options *o)
{
	const char *a[MAX_INIT_ARGS] = { NULL };
	int n = 0;

	a[n++] = GEIS_INIT_TRACK_DEVICES;
	a[n++] = GEIS_INIT_TRACK_GESTURE_CLASSES;
	switch (o->backend) {
	case BACKEND_RECORDING:
		a[n++] = UTOUCH_GEIS_INIT_RECORDING;
		a[n++] = o->recording;
		if (o->fast)
			a[n++] = UTOUCH_GEIS_INIT_RECORDING_FAST;
		break;
	case BACKEND_EVDEV:
		a[n++] = UTOUCH_GEIS_INIT_EVDEV;
		if (o->evdev_grab)
			a[n++] = UTOUCH_GEIS_INIT_EVDEV_GRAB;
		if (o->evdev_dir) {
			a[n++] = UTOUCH_GEIS_INIT_EVDEV_DIR;
			a[n++] = o->evdev_dir;
		}
		if (o->save) {
			a[n++] = UTOUCH_GEIS_INIT_EVDEV_SAVE;
			a[n++] = o->save;
		}
		break;
	case BACKEND_X11:
		a[n++] = UTOUCH_GEIS_INIT_X11;
		break;
	case BACKEND_DEFAULT:
		break;
	}
	if (o->no_atomic)
		a[n++] = GEIS_INIT_NO_ATOMIC_GESTURES;
	if (o->tentative)
		a[n++] = GEIS_INIT_SEND_TENTATIVE_EVENTS;
	if (o->synchronous)
		a[n++] = GEIS_INIT_SEND_SYNCHRONOS_EVENTS;
	/* the list ends at the first NULL */
	return geis_new(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9],
			a[10], a[11], a[12], a[13], NULL);
}

/* One filter: an optional class, plus the touch, device and region terms. */
static int
add_filter(Geis geis, GeisSubscription sub, const struct options *o, int cls)
{
	GeisFilter f = geis_filter_new(geis, cls >= 0 ? ut_gesture_classes[cls].key : "all");
	GeisStatus s = GEIS_STATUS_SUCCESS;

	if (!f)
		return -1;
	if (cls >= 0)
		s = geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME,
					 GEIS_FILTER_OP_EQ, ut_gesture_classes[cls].name, NULL);
	if (s == GEIS_STATUS_SUCCESS && o->touches)
		s = geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_GESTURE_ATTRIBUTE_TOUCHES,
					 GEIS_FILTER_OP_EQ, o->touches, NULL);
	if (s == GEIS_STATUS_SUCCESS && o->min_touches)
		s = geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_GESTURE_ATTRIBUTE_TOUCHES,
					 GEIS_FILTER_OP_GE, o->min_touches, NULL);
	if (s == GEIS_STATUS_SUCCESS && o->max_touches)
		s = geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_GESTURE_ATTRIBUTE_TOUCHES,
					 GEIS_FILTER_OP_LE, o->max_touches, NULL);
	if (s == GEIS_STATUS_SUCCESS && o->device_name)
		s = geis_filter_add_term(f, GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_NAME,
					 GEIS_FILTER_OP_EQ, o->device_name, NULL);
	if (s == GEIS_STATUS_SUCCESS && o->device_id)
		s = geis_filter_add_term(f, GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_ID,
					 GEIS_FILTER_OP_EQ, o->device_id, NULL);
	if (s == GEIS_STATUS_SUCCESS && o->window > 0)
		s = geis_filter_add_term(f, GEIS_FILTER_REGION, GEIS_REGION_ATTRIBUTE_WINDOWID,
					 GEIS_FILTER_OP_EQ, (int)o->window, NULL);
	if (s == GEIS_STATUS_SUCCESS && o->have_rect) {
		/* one region for every filter; geis_delete() frees it */
		static GeisRegion rect;
		if (!rect)
			rect = geis_region_new(geis, "rect", UTOUCH_GEIS_REGION_RECT, o->rect[0],
					       o->rect[1], o->rect[2], o->rect[3], NULL);
		s = rect ? geis_filter_add_term(f, GEIS_FILTER_REGION,
						GEIS_REGION_ATTRIBUTE_WINDOWID, GEIS_FILTER_OP_EQ,
						utouch_geis_region_window_id(rect), NULL)
			 : GEIS_STATUS_BAD_ARGUMENT;
	}
	if (s == GEIS_STATUS_SUCCESS)
		s = geis_subscription_add_filter(sub, f);
	if (s != GEIS_STATUS_SUCCESS) {
		print_geis_errors(geis, "filter");
		geis_filter_delete(f);
		return -1;
	}
	return 0;
}

static GeisSubscription
subscribe(Geis geis, const struct options *o)
{
	GeisSubscription sub = geis_subscription_new(geis, "utouch-events", o->flags);

	if (!sub) {
		print_geis_errors(geis, "geis_subscription_new");
		return NULL;
	}
	if (o->nclasses == 0) {
		if (add_filter(geis, sub, o, -1) < 0)
			goto fail;
	} else {
		for (int i = 0; i < NUM_CLASSES; i++)
			if (o->classes[i] && add_filter(geis, sub, o, i) < 0)
				goto fail;
	}
	for (int i = 0; i < NUM_CONFIG; i++) {
		struct config_item *ci = &config_items[i];
		GeisStatus s;

		if (!ci->set)
			continue;
		s = geis_subscription_set_configuration(sub, ci->item,
							ci->is_float ? (void *)&ci->f
								     : (void *)&ci->i);
		if (s != GEIS_STATUS_SUCCESS) {
			fprintf(stderr, "%s: --%s: the value was refused\n", prog, ci->option);
			print_geis_errors(geis, "configuration");
			goto fail;
		}
	}
	if (geis_subscription_activate(sub) != GEIS_STATUS_SUCCESS) {
		print_geis_errors(geis, "geis_subscription_activate");
		goto fail;
	}
	return sub;
fail:
	geis_subscription_delete(sub);
	return NULL;
}

/* ---- main loop ---- */

/* Take every queued event.  Returns the number handled. */
static int
drain(struct state *st, FILE *out)
{
	GeisEvent ev;
	GeisStatus s;
	int n = 0;

	while ((s = geis_next_event(st->geis, &ev)) == GEIS_STATUS_SUCCESS ||
	       s == GEIS_STATUS_CONTINUE) {
		handle_event(st, ev, out);
		geis_event_delete(ev);
		n++;
	}
	return n;
}

/*
 * SIGINT and SIGTERM.  Until the main loop runs (geis_new() may block,
 * e.g. opening a FIFO nobody writes to), they keep their default action.
 * In the loop, the first one asks for a clean stop: it wakes poll()
 * through a pipe and is seen after the dispatch in progress.  A second one
 * before the program stopped kills it, so a program stuck in a dispatch
 * can still be interrupted.
 */
static volatile sig_atomic_t stop_requested;
static int stop_pipe[2] = { -1, -1 };

static void
on_stop_signal(int sig)
{
	int saved = errno;

	if (stop_requested) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	stop_requested = 1;
	if (write(stop_pipe[1], "", 1) < 0) {
		/* the pipe is full: a wake-up is pending anyway */
	}
	errno = saved;
}

/* From now on the signals stop the loop instead of the program. */
static int
catch_stop_signals(void)
{
	struct sigaction sa;

	if (pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0)
		return -1;
	return 0;
}

static int
run(struct state *st)
{
	const int is_recording = st->opt->backend == BACKEND_RECORDING ||
		(st->opt->backend == BACKEND_DEFAULT && getenv(UTOUCH_GEIS_BACKEND_ENV) &&
		 strncmp(getenv(UTOUCH_GEIS_BACKEND_ENV), "recording", 9) == 0);
	struct pollfd fds[2];
	int geis_fd = -1;

	if (geis_get_configuration(st->geis, GEIS_CONFIGURATION_FD, &geis_fd) !=
	    GEIS_STATUS_SUCCESS) {
		print_geis_errors(st->geis, "the configuration fd");
		return 1;
	}
	fds[0] = (struct pollfd){ .fd = geis_fd, .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = stop_pipe[0], .events = POLLIN };

	for (;;) {
		int timeout = -1;

		if (stop_requested)
			return 0;   /* SIGINT or SIGTERM */
		/* a finished recording: leave once nothing is left to do */
		if (is_recording && utouch_geis_playback_finished(st->geis))
			timeout = 0;
		if (poll(fds, 2, timeout) < 0) {
			if (errno == EINTR)
				continue;
			perror(prog);
			return 1;
		}
		if (stop_requested)
			return 0;
		if (fds[0].revents & (POLLIN | POLLERR | POLLHUP)) {
			GeisStatus s = geis_dispatch_events(st->geis);

			if (s == GEIS_STATUS_UNKNOWN_ERROR || s == GEIS_STATUS_BAD_ARGUMENT) {
				drain(st, stdout);
				print_geis_errors(st->geis, "geis_dispatch_events");
				return 1;
			}
			drain(st, stdout);
			if (st->failed)
				return 1;
		} else if (timeout == 0) {
			drain(st, stdout);
			return 0;
		}
	}
}

int
main(int argc, char **argv)
{
	struct options opt;
	struct state st;
	GeisSubscription sub;
	int rc;

	tool_init(prog);
	parse_args(argc, argv, &opt);
	memset(&st, 0, sizeof(st));
	st.opt = &opt;

	st.geis = create_instance(&opt);
	if (!st.geis) {
		print_geis_errors(NULL, "cannot start geis");
		return 1;
	}
	/* what the backend met on the way without failing (e.g. contacts a
	 * recording has too many of) */
	for (GeisSize i = 0; i < geis_error_count(st.geis); i++)
		fprintf(stderr, "%s: warning: %s\n", prog, geis_error_message(st.geis, i));
	sub = subscribe(st.geis, &opt);
	if (!sub) {
		geis_delete(st.geis);
		return 1;
	}

	if (catch_stop_signals() < 0) {
		perror(prog);
		rc = 1;
	} else {
		rc = run(&st);
	}
	fflush(stdout);

	geis_subscription_delete(sub);
	for (int i = 0; i < NUM_CLASSES; i++)
		geis_gesture_class_unref(st.classes[i]);
	geis_delete(st.geis);
	free(st.decided);
	return rc;
}
