/*
 * The touch proxy's latency (doc/gestured.md, "Proxy mode"; numbers in
 * doc/performance.md).
 *
 * A device is a pipe carrying struct input_event reports (a one-finger
 * drag, one report per step); the clone's "uinput node" is a FIFO whose
 * uinput ioctls this program answers itself, so what the proxy writes can
 * be read back at once.  Three numbers, each the median of many reports:
 *
 *   direct     a report written to the pipe until it is read back from
 *              it: what a reader of the device itself pays;
 *   forwarded  the same report written to the device until the clone's
 *              report is read from the FIFO, with no subscription (every
 *              touch goes to the clone at once): the proxy's added cost
 *              is forwarded - direct, and the ratio forwarded / direct;
 *   replay     for a subscription whose client rejects each gesture on
 *              its first event: from grail's decision (its
 *              frame_reject_touch(), wrapped at link time) until the
 *              replayed touch arrives on the clone; and from the client's
 *              geis_gesture_reject(), which adds the time grail keeps the
 *              touch for other gestures (its grouping window).
 *
 * Usage: utouch-proxy-bench [ROUNDS]   (default 2000)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/input.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <geis/geis.h>
#include <oif/frame.h>
#include <utouch/geis.h>

#include "fake-uinput.h"
#include "util/clock.h"

static char dir[64], node[128], devdir[128];
/* the device: the bundled touchscreen recordings' */
static const char caps[] = BENCH_REC_DIR "/touchscreen/drag-1.evemu";
static int fifo_rd = -1;

static uint64_t
now_ns(void)
{
	return ut_mono_us() * 1000u;
}

static void
die(const char *what)
{
	fprintf(stderr, "utouch-proxy-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void
put(struct input_event *ev, int *n, int type, int code, int value)
{
	ev[*n] = (struct input_event){ .type = (uint16_t)type, .code = (uint16_t)code,
				       .value = value };
	ut_input_event_set_usec(&ev[*n], ut_mono_us());
	(*n)++;
}

/* one report of the drag: begin (step 0), move, or end (step < 0) */
static int
report(struct input_event *ev, int step, int tid)
{
	int n = 0;
	if (step == 0) {
		put(ev, &n, EV_ABS, ABS_MT_SLOT, 0);
		put(ev, &n, EV_ABS, ABS_MT_TRACKING_ID, tid);
		put(ev, &n, EV_ABS, ABS_MT_POSITION_X, 100);
		put(ev, &n, EV_ABS, ABS_MT_POSITION_Y, 100);
		put(ev, &n, EV_KEY, BTN_TOUCH, 1);
	} else if (step > 0) {
		put(ev, &n, EV_ABS, ABS_MT_POSITION_X, 100 + step % 3000);
	} else {
		put(ev, &n, EV_ABS, ABS_MT_TRACKING_ID, -1);
		put(ev, &n, EV_KEY, BTN_TOUCH, 0);
	}
	put(ev, &n, EV_SYN, SYN_REPORT, 0);
	return n;
}

static int
cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static double
median_us(uint64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return v[n / 2] / 1000.0;
}

/* read from the FIFO until a SYN_REPORT, dispatching geis meanwhile */
static void
await_clone(Geis geis, int gfd)
{
	struct input_event ev[64];
	for (;;) {
		struct pollfd p[2] = { { .fd = gfd, .events = POLLIN },
				       { .fd = fifo_rd, .events = POLLIN } };
		if (poll(p, 2, 1000) <= 0) {
			fprintf(stderr, "utouch-proxy-bench: the clone stays silent\n");
			exit(1);
		}
		if (p[0].revents)
			geis_dispatch_events(geis);
		if (!p[1].revents)
			continue;
		ssize_t r = read(fifo_rd, ev, sizeof(ev));
		for (ssize_t i = 0; i < r / (ssize_t)sizeof(ev[0]); i++)
			if (ev[i].type == EV_SYN && ev[i].code == SYN_REPORT)
				return;
	}
}

static Geis
open_proxy(int *wfd, int *gfd)
{
	int p[2];
	Geis geis = geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR, devdir,
			     UTOUCH_GEIS_INIT_PROXY, UTOUCH_GEIS_INIT_PROXY_UINPUT, node,
			     GEIS_INIT_SYNCHRONOUS_START, GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
	if (!geis)
		die("geis_new");
	if (pipe(p) < 0)
		die("pipe");
	if (utouch_geis_add_input_fd(geis, p[0], caps) != GEIS_STATUS_SUCCESS)
		die("utouch_geis_add_input_fd");
	*wfd = p[1];
	if (geis_get_configuration(geis, GEIS_CONFIGURATION_FD, gfd) != GEIS_STATUS_SUCCESS)
		die("geis fd");
	return geis;
}

static uint64_t reject_at, decided_at;

/* grail's decision about a touch (-Wl,--wrap=frame_reject_touch) */
UFStatus __real_frame_reject_touch(UFDevice device, UFWindowId window, UFTouchId touch_id);
UFStatus __wrap_frame_reject_touch(UFDevice device, UFWindowId window, UFTouchId touch_id);

UFStatus
__wrap_frame_reject_touch(UFDevice device, UFWindowId window, UFTouchId touch_id)
{
	if (!decided_at)
		decided_at = now_ns();
	return __real_frame_reject_touch(device, window, touch_id);
}

static void
on_event(Geis geis, GeisEvent ev, void *data)
{
	(void)data;
	if (geis_event_type(ev) == GEIS_EVENT_GESTURE_BEGIN && !reject_at) {
		GeisAttr a = geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET);
		GeisGroupSet gs = geis_attr_value_to_pointer(a);
		GeisGroup g = geis_groupset_group(gs, 0);
		reject_at = now_ns();
		geis_gesture_reject(geis, NULL, geis_frame_id(geis_group_frame(g, 0)));
	}
	geis_event_delete(ev);
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 2000;
	struct input_event ev[16];
	uint64_t *direct, *fwd, *replay, *decision;
	int wfd, gfd, p[2];

	if (rounds < 10)
		rounds = 10;
	direct = calloc((size_t)rounds, sizeof(*direct));
	fwd = calloc((size_t)rounds, sizeof(*fwd));
	replay = calloc((size_t)rounds, sizeof(*replay));
	decision = calloc((size_t)rounds, sizeof(*decision));
	snprintf(dir, sizeof(dir), "/tmp/proxy-bench-XXXXXX");
	if (!direct || !fwd || !replay || !decision || !mkdtemp(dir))
		die("setup");
	snprintf(node, sizeof(node), "%s/uinput", dir);
	snprintf(devdir, sizeof(devdir), "%s/dev", dir);
	mkdir(devdir, 0700);
	fu_set_node(node);
	if (mkfifo(node, 0600) < 0 || (fifo_rd = open(node, O_RDONLY | O_NONBLOCK)) < 0)
		die(node);

	/* direct: the device read by its reader */
	if (pipe(p) < 0)
		die("pipe");
	for (int i = 0; i < rounds; i++) {
		struct input_event back[16];
		int n = report(ev, i == 0 ? 0 : i, 1);
		uint64_t t0 = now_ns();
		if (write(p[1], ev, (size_t)n * sizeof(ev[0])) < 0 ||
		    read(p[0], back, (size_t)n * sizeof(ev[0])) < 0)
			die("direct");
		direct[i] = now_ns() - t0;
	}
	close(p[0]);
	close(p[1]);

	/* forwarded: no subscription, the touch goes to the clone at once */
	Geis geis = open_proxy(&wfd, &gfd);
	for (int i = 0; i < rounds; i++) {
		int n = report(ev, i, 1);
		uint64_t t0 = now_ns();
		if (write(wfd, ev, (size_t)n * sizeof(ev[0])) < 0)
			die("write");
		await_clone(geis, gfd);
		fwd[i] = now_ns() - t0;
	}
	close(wfd);
	geis_delete(geis);

	/* replay: each one-finger touch is held, rejected on its first
	 * event, and replayed */
	geis = open_proxy(&wfd, &gfd);
	geis_register_event_callback(geis, on_event, NULL);
	GeisSubscription sub = geis_subscription_new(geis, "touch", GEIS_SUBSCRIPTION_NONE);
	GeisFilter f = geis_filter_new(geis, "touch");
	geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ,
			     GEIS_GESTURE_TOUCH, GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ, 1,
			     NULL);
	geis_subscription_add_filter(sub, f);
	if (geis_subscription_activate(sub) != GEIS_STATUS_SUCCESS)
		die("subscribe");
	int nreplay = 0;
	for (int i = 0; i < rounds / 100; i++) {
		reject_at = decided_at = 0;
		int n = report(ev, 0, i + 1);
		if (write(wfd, ev, (size_t)n * sizeof(ev[0])) < 0)
			die("write");
		await_clone(geis, gfd);
		if (reject_at && decided_at) {
			uint64_t t = now_ns();
			decision[nreplay] = t - decided_at;
			replay[nreplay++] = t - reject_at;
		}
		n = report(ev, -1, i + 1);
		if (write(wfd, ev, (size_t)n * sizeof(ev[0])) < 0)
			die("write");
		await_clone(geis, gfd);
	}
	close(wfd);
	geis_subscription_delete(sub);
	geis_delete(geis);

	double d = median_us(direct, rounds), fw = median_us(fwd, rounds);
	printf("proxy latency, median of %d reports (one-finger drag):\n", rounds);
	printf("  direct     %8.1f us  (write to the device, read back)\n", d);
	printf("  forwarded  %8.1f us  (device -> proxy -> clone), %.1fx direct, +%.1f us\n", fw,
	       fw / d, fw - d);
	if (nreplay) {
		printf("  replay     %8.1f us  (grail's decision -> replayed touch on the clone), "
		       "median of %d\n", median_us(decision, nreplay), nreplay);
		printf("             %8.1f us  (the client's reject -> the clone, with grail's "
		       "grouping window)\n", median_us(replay, nreplay));
	}
	else
		printf("  replay     no gesture was rejected\n");
	unlink(node);
	rmdir(devdir);
	rmdir(dir);
	free(direct);
	free(fwd);
	free(replay);
	free(decision);
	return 0;
}
