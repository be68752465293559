/*
 * The recording backend: plays an evemu or libinput-record file as one
 * live device.
 *
 * The file is turned into frames of touch operations up front (evdev
 * stream with ownership at begin, like a plain evdev device).  Frames are
 * built for every window a subscription has grabbed (see the grab hook),
 * so a region filter selects the window the device reports in.
 *
 * Time base: ms since the first recorded event, plus 1000 (so that no time
 * is 0, which grail reads as "no timeout").
 *   real timing: now() = 1000 + ms since start(); a timerfd fires when the
 *                next frame is due; grail timeouts use the core's timerfd.
 *   fast:        virtual time; one dispatch plays the whole recording,
 *                firing grail timeouts due before each frame first, and
 *                after the last frame advances 10 s so every gesture ends.
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
#include "util/clock.h"

#define TIME_BASE_MS UT_SCRIPT_TIME_BASE_MS
#define TAIL_MS 10000u



struct rec_backend {
	struct geis_backend base;
	struct ut_recording *rec;
	int fast;
	int direct;
	/* prepared frames */
	struct ut_script script;
	/* playback */
	UFBackendDevice device;
	struct geis_router router;     /* the windows subscriptions asked for */
	size_t next;
	int finished;
	int fd;              /* timerfd (real) or eventfd (fast) */
	uint64_t start_mono;
	uint64_t vnow;
};




static uint64_t
rec_now(struct geis_backend *be)
{
	struct rec_backend *rb = (struct rec_backend *)be;

	if (rb->fast)
		return rb->vnow;
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
	geis_router_feed(&rb->router, f->time, &rb->script.ops[f->first], f->count);
}

static void
arm_next(struct rec_backend *rb)
{
	if (rb->next < rb->script.nframes) {
		uint64_t now = rec_now(&rb->base);
		uint64_t due = rb->script.frames[rb->next].time;

		ut_timerfd_arm_ms(rb->fd, due > now ? due - now : 0);
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
		while (rb->next < rb->script.nframes) {
			const struct ut_script_frame *f = &rb->script.frames[rb->next++];

			geis_core_advance_time(rb->base.geis, f->time);
			rb->vnow = f->time;
			play_frame(rb, f);
		}
		if (!rb->finished) {
			uint64_t end = (rb->script.nframes ? rb->script.frames[rb->script.nframes - 1].time :
					TIME_BASE_MS) + TAIL_MS;

			geis_core_advance_time(rb->base.geis, end);
			rb->vnow = end;
			rb->finished = 1;
		}
		return;
	}
	{
		uint64_t now = rec_now(&rb->base);

		while (rb->next < rb->script.nframes && rb->script.frames[rb->next].time <= now)
			play_frame(rb, &rb->script.frames[rb->next++]);
		if (rb->next >= rb->script.nframes)
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

	rb->device = ut_framer_device_new(rb->rec->dev, &dopts);
	if (!rb->device)
		return -ENOMEM;
	geis_router_init(&rb->router, be->geis, rb->device);
	if (rb->fast) {
		rb->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	} else {
		rb->fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	}
	if (rb->fd < 0)
		return -errno;
	rc = geis_mux_add(be->geis, rb->fd, EPOLLIN, on_ready, rb);
	if (rc < 0)
		return rc;
	rb->start_mono = ut_mono_ms();
	rb->vnow = TIME_BASE_MS;
	geis_core_device_added(be->geis, frame_backend_device_get_device(rb->device), 0);
	if (rb->fast) {
		uint64_t one = 1;

		if (write(rb->fd, &one, sizeof(one)) < 0)
			return -errno;
	} else {
		arm_next(rb);
	}
	return 0;
}

static void
rec_grab(struct geis_backend *be, UFDevice device, UFWindowId window, int on)
{
	struct rec_backend *rb = (struct rec_backend *)be;

	if (!rb->device || device != frame_backend_device_get_device(rb->device))
		return;
	geis_router_grab(&rb->router, window, on);
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
		geis_mux_remove(be->geis, rb->fd);
		close(rb->fd);
	}
	geis_router_fini(&rb->router);
	frame_backend_device_delete(rb->device);
	ut_recording_free(rb->rec);
	ut_script_release(&rb->script);
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
geis_backend_recording_new(Geis geis, const char *path, int fast)
{
	struct rec_backend *rb = calloc(1, sizeof(*rb));
	struct ut_evstream_opts sopts;
	char err[256];
	int rc;

	if (!rb) {
		geis_core_error(geis, GEIS_STATUS_UNKNOWN_ERROR, "recording: out of memory");
		return NULL;
	}
	rb->base.ops = fast ? &fast_ops : &real_ops;
	rb->base.geis = geis;
	rb->fast = fast;
	rb->fd = -1;
	rc = ut_recording_load(path, NULL, &rb->rec, err, sizeof(err));
	if (rc < 0) {
		geis_core_error(geis, GEIS_STATUS_BAD_ARGUMENT, "recording: %s", err);
		free(rb);
		return NULL;
	}
	memset(&sopts, 0, sizeof(sopts));
	sopts.own = UT_OWN_BEGIN;
	sopts.direct = -1;
	sopts.split_begins = 1;
	sopts.screen_w = 1024;
	sopts.screen_h = 768;
	rc = ut_script_build(&rb->script, rb->rec, &sopts);
	if (rc < 0) {
		if (rc == -ENOMEM)
			geis_core_error(geis, GEIS_STATUS_UNKNOWN_ERROR, "recording: out of memory");
		else
			geis_core_error(geis, GEIS_STATUS_BAD_ARGUMENT,
					"recording: %s is not a multitouch device", path);
		ut_recording_free(rb->rec);
		free(rb);
		return NULL;
	}
	rb->direct = rb->script.direct;
	if (rb->script.dropped > 0)
		geis_core_error(geis, GEIS_STATUS_UNKNOWN_ERROR,
				"recording: %s: %lu protocol A contacts beyond %d in one report "
				"were left out", path, rb->script.dropped,
				rb->script.max_contacts);
	/* a recording whose clock steps back still plays forward */
	for (size_t i = 1; i < rb->script.nframes; i++)
		if (rb->script.frames[i].time < rb->script.frames[i - 1].time)
			rb->script.frames[i].time = rb->script.frames[i - 1].time;
	return &rb->base;
}
