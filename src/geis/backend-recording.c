/*
 * The recording backend: plays an evemu or libinput-record file as one
 * live device.
 *
 * The file is streamed: frames of touch operations (evdev stream with
 * ownership at begin, like a plain evdev device) are made from it as they
 * are played, so memory does not depend on the recording's length.
 * Frames are built for every window a subscription has grabbed (see the
 * grab hook), so a region filter selects the window the device reports in.
 *
 * Time base: ms since the first recorded event, plus 1000 (so that no time
 * is 0, which grail reads as "no timeout").
 *   real timing: now() = 1000 + ms since start(); a timerfd fires when the
 *                next frame is due; grail timeouts use the core's timerfd.
 *   fast:        virtual time; a dispatch plays frames until FAST_BATCH
 *                events wait in the queue (at least one frame), firing
 *                grail timeouts due before each frame first, and leaves
 *                the fd readable while frames remain; after the last
 *                frame it advances 10 s so every gesture ends.
 *
 * The device stays available after the end of the recording (no
 * DEVICE_UNAVAILABLE), so its attributes can still be read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "input/evdev/evstream.h"
#include "input/evdev/framer.h"
#include "input/recording/recording.h"
#include "input/recording/script.h"
#include "geis-private.h"
#include "geis-router.h"
#include "geis-proxy.h"
#include "util/clock.h"

#define TIME_BASE_MS UT_SCRIPT_TIME_BASE_MS
#define TAIL_MS 10000u
/* fast playback stops a dispatch once this many events wait for the
 * client, so that the queue stays short whatever the recording's length */
#define FAST_BATCH 256u



struct rec_backend {
	struct geis_backend base;
	struct ut_recording_reader *reader;
	int fast;
	int direct;
	/* frames, made from the file as they are played */
	struct ut_script script;
	const struct ut_script_frame *due;  /* the next frame, NULL at the end */
	/* playback */
	UFBackendDevice device;
	struct geis_router router;     /* the windows subscriptions asked for */
	/* the touch proxy, when asked for (strings copied) */
	struct geis_proxy_config proxy_cfg;
	char *proxy_output, *proxy_uinput;
	struct geis_proxy *proxy;
	int finished;
	int fd;              /* timerfd (real) or eventfd (fast) */
	uint64_t start_mono;
	uint64_t vnow;
};




static uint64_t
rec_now(struct geis_backend *be)
{
	struct rec_backend *rb = (struct rec_backend *)be;

	/* virtual time: the frame being played, or the grail timeout being
	 * run (gs_core_advance_time() runs them before the frame) */
	if (rb->fast)
		return rb->base.geis && rb->base.geis->time_done > rb->vnow ?
			       rb->base.geis->time_done : rb->vnow;
	if (!rb->start_mono)
		return TIME_BASE_MS;
	return TIME_BASE_MS + (ut_mono_ms() - rb->start_mono);
}


/*
 * Feed one recorded frame to every window.  Touches that begin together
 * were already put into frames of their own by the evstream option
 * split_begins (see evstream.h): grail's atomic mode starts a gesture only
 * on a subscription whose TouchesStart equals the number of free touches,
 * so geis' default (start 1, growing up to 5) needs new touches one by one,
 * as an X server delivers them.
 */
static void
play_frame(struct rec_backend *rb, const struct ut_script_frame *f)
{
	if (rb->proxy)
		gs_proxy_frame(rb->proxy, &rb->router, f->time, &rb->script.ops[f->first],
				 f->count);
	gs_router_feed(&rb->router, f->time, &rb->script.ops[f->first], f->count);
}

/* Make the next frame due: rb->due, or NULL at the end of the recording
 * (or when the file cannot be read again: then the error is reported). */
static void
take_next(struct rec_backend *rb)
{
	int rc = ut_script_next(&rb->script, &rb->due);

	if (rc > 0)
		return;
	rb->due = NULL;
	if (rc < 0)
		gs_core_error(rb->base.geis, GEIS_STATUS_UNKNOWN_ERROR, "recording: %s",
				rc == -ENOMEM ? "out of memory" : rb->reader->error);
}

static void
arm_next(struct rec_backend *rb)
{
	if (rb->due) {
		uint64_t now = rec_now(&rb->base);
		uint64_t at = rb->due->time;

		ut_timerfd_arm_ms(rb->fd, at > now ? at - now : 0);
	} else {
		ut_timerfd_disarm(rb->fd);
	}
}

static void
on_ready(void *data, int fd, uint32_t events)
{
	struct rec_backend *rb = data;
	uint64_t v;

	if (read(fd, &v, sizeof(v)) < 0) {
		/* nothing to consume */
	}
	if (rb->fast) {
		Geis geis = rb->base.geis;
		int played = 0;

		while (rb->due && (!played || geis->queue.count < FAST_BATCH)) {
			const struct ut_script_frame *f = rb->due;

			gs_core_advance_time(geis, f->time);
			rb->vnow = f->time;
			play_frame(rb, f);
			played = 1;
			take_next(rb);
		}
		if (rb->due) {
			/* more next time: the fd stays readable */
			uint64_t one = 1;

			if (write(rb->fd, &one, sizeof(one)) < 0) {
				/* the counter is already set */
			}
			return;
		}
		if (!rb->finished) {
			uint64_t end = (rb->script.made ? rb->script.prev : TIME_BASE_MS) + TAIL_MS;

			gs_core_advance_time(geis, end);
			rb->vnow = end;
			rb->finished = 1;
			/* one more, empty, round: the dispatch that ends the
			 * playback returns CONTINUE, and the next one finds
			 * nothing new and leaves no fd readable */
			uint64_t one = 1;

			if (write(rb->fd, &one, sizeof(one)) < 0) {
				/* the counter is already set */
			}
		}
		return;
	}
	{
		uint64_t now = rec_now(&rb->base);

		while (rb->due && rb->due->time <= now) {
			play_frame(rb, rb->due);
			take_next(rb);
		}
		if (!rb->due)
			rb->finished = 1;
		arm_next(rb);
	}
}

static int
rec_start(struct geis_backend *be)
{
	struct rec_backend *rb = (struct rec_backend *)be;
	struct ut_device_opts dopts = { .name = NULL, .direct = rb->direct, .window_res = 0 };
	int rc;

	rb->device = ut_framer_device_new(rb->reader->dev, &dopts);
	if (!rb->device)
		return -ENOMEM;
	gs_router_init(&rb->router, be->geis, rb->device);
	if (rb->proxy_cfg.enabled) {
		rb->proxy = gs_proxy_new(be->geis, &rb->proxy_cfg, rb->reader->dev, rb->device, 1);
		if (!rb->proxy)
			return -EIO;
	}
	if (rb->fast) {
		rb->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	} else {
		rb->fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	}
	if (rb->fd < 0)
		return -errno;
	rc = gs_mux_add(be->geis, rb->fd, EPOLLIN, on_ready, rb);
	if (rc < 0)
		return rc;
	rb->start_mono = ut_mono_ms();
	rb->vnow = TIME_BASE_MS;
	/* a recording whose device the core cannot take plays to nobody */
	if (gs_core_device_added(be->geis, frame_backend_device_get_device(rb->device), 0) < 0)
		return -ENOMEM;
	if (rb->fast) {
		uint64_t one = 1;

		if (write(rb->fd, &one, sizeof(one)) < 0)
			return -errno;
	} else {
		arm_next(rb);
	}
	return 0;
}

static int
rec_grab(struct geis_backend *be, UFDevice device, UFWindowId window, int on)
{
	struct rec_backend *rb = (struct rec_backend *)be;

	if (!rb->device || device != frame_backend_device_get_device(rb->device))
		return 0;
	gs_router_grab(&rb->router, window, on);
	if (rb->proxy && !on && !gs_router_has_window(&rb->router, window))
		gs_proxy_window_gone(rb->proxy, window);
	return 0;
}

static void
fast_set_timer(struct geis_backend *be, uint64_t at)
{
	/* virtual time: timeouts are run by on_ready() */
}

static int
rec_finished(struct geis_backend *be)
{
	return ((struct rec_backend *)be)->finished;
}

static void
rec_destroy(struct geis_backend *be)
{
	struct rec_backend *rb = (struct rec_backend *)be;

	if (rb->fd >= 0) {
		gs_mux_remove(be->geis, rb->fd);
		close(rb->fd);
	}
	gs_proxy_destroy(rb->proxy);
	gs_router_fini(&rb->router);
	frame_backend_device_delete(rb->device);
	free(rb->proxy_output);
	free(rb->proxy_uinput);
	ut_script_release(&rb->script);
	ut_recording_close(rb->reader);
	free(rb);
}

static const struct geis_backend_ops real_ops = {
	.name = "recording",
	.start = rec_start,
	.destroy = rec_destroy,
	.now = rec_now,
	.set_timer = NULL,
	.grab = rec_grab,
	.finished = rec_finished,
};

static const struct geis_backend_ops fast_ops = {
	.name = "recording-fast",
	.start = rec_start,
	.destroy = rec_destroy,
	.now = rec_now,
	.set_timer = fast_set_timer,
	.grab = rec_grab,
	.finished = rec_finished,
};

struct geis_backend *
gs_backend_recording_new(Geis geis, const struct geis_proxy_config *proxy, const char *path,
			   int fast)
{
	struct rec_backend *rb = calloc(1, sizeof(*rb));
	struct ut_evstream_opts sopts;
	char err[512];
	int rc;

	if (!rb) {
		gs_core_error(geis, GEIS_STATUS_UNKNOWN_ERROR, "recording: out of memory");
		return NULL;
	}
	rb->base.ops = fast ? &fast_ops : &real_ops;
	rb->base.geis = geis;
	rb->fast = fast;
	rb->fd = -1;
	if (proxy && proxy->enabled) {
		rb->proxy_cfg.enabled = 1;
		rb->proxy_output = proxy->output ? strdup(proxy->output) : NULL;
		rb->proxy_uinput = proxy->uinput ? strdup(proxy->uinput) : NULL;
		if ((proxy->output && !rb->proxy_output) || (proxy->uinput && !rb->proxy_uinput)) {
			gs_core_error(geis, GEIS_STATUS_UNKNOWN_ERROR, "recording: out of memory");
			free(rb->proxy_output);
			free(rb);
			return NULL;
		}
		rb->proxy_cfg.output = rb->proxy_output;
		rb->proxy_cfg.uinput = rb->proxy_uinput;
	}
	rc = ut_recording_open(path, NULL, &rb->reader, err, sizeof(err));
	if (rc < 0) {
		gs_core_error(geis, GEIS_STATUS_BAD_ARGUMENT, "recording: %s", err);
		free(rb->proxy_output);
		free(rb->proxy_uinput);
		free(rb);
		return NULL;
	}
	memset(&sopts, 0, sizeof(sopts));
	sopts.own = UT_OWN_BEGIN;
	sopts.direct = -1;
	sopts.split_begins = 1;
	sopts.screen_w = 1024;
	sopts.screen_h = 768;
	rc = ut_script_open(&rb->script, rb->reader, &sopts);
	if (rc < 0) {
		if (rc == -ENOMEM)
			gs_core_error(geis, GEIS_STATUS_UNKNOWN_ERROR, "recording: out of memory");
		else if (rc == -EINVAL)
			gs_core_error(geis, GEIS_STATUS_BAD_ARGUMENT,
					"recording: %s is not a multitouch device", path);
		else
			gs_core_error(geis, GEIS_STATUS_BAD_ARGUMENT, "recording: %s",
					rb->reader->error);
		ut_recording_close(rb->reader);
		free(rb->proxy_output);
		free(rb->proxy_uinput);
		free(rb);
		return NULL;
	}
	rb->direct = rb->script.direct;
	if (rb->script.dropped > 0)
		gs_core_error(geis, GEIS_STATUS_UNKNOWN_ERROR,
				"recording: %s: %lu protocol A contacts beyond %d in one report "
				"were left out", path, rb->script.dropped,
				rb->script.max_contacts);
	/* frame times never step back (script.c) */
	take_next(rb);
	return &rb->base;
}
