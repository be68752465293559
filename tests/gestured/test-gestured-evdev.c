/*
 * utouch-gestured on the evdev path: the daemon runs in-process on an
 * empty device directory, and the test adds input streams (pipes carrying
 * struct input_event records) to its evdev geis instance, with the
 * capabilities of the bundled touchpad and touchscreen recordings.
 * Actions run dry: the lines they print are checked.
 */
#include <errno.h>
#include <linux/input.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <utouch/geis.h>

#include "gd-daemon.h"

static int failures;

#define CHECK(cond, ...)                                                         \
	do {                                                                     \
		if (!(cond)) {                                                   \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                            \
			fputc('\n', stderr);                                     \
			failures++;                                              \
		}                                                                \
	} while (0)

static int64_t
mono_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

struct stream {
	int fd;
	struct input_event ev[256];
	int n;
	int btn_tool;   /* touchpads report the finger count with BTN_TOOL_* */
};

static void
put(struct stream *s, int type, int code, int value)
{
	int64_t us = mono_us();
	s->ev[s->n++] = (struct input_event){ .input_event_sec = us / 1000000,
					      .input_event_usec = us % 1000000,
					      .type = (unsigned short)type,
					      .code = (unsigned short)code, .value = value };
}

static void
flush(struct stream *s)
{
	put(s, EV_SYN, SYN_REPORT, 0);
	ssize_t len = (ssize_t)(s->n * (int)sizeof(s->ev[0]));
	if (write(s->fd, s->ev, (size_t)len) != len) {
		fprintf(stderr, "write: %s\n", strerror(errno));
		exit(1);
	}
	s->n = 0;
}

static const int tool_codes[] = { 0, BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP,
				  BTN_TOOL_QUADTAP, BTN_TOOL_QUINTTAP };

/* n fingers down at x[i], y */
static void
down(struct stream *s, int n, const int *x, int y)
{
	for (int i = 0; i < n; i++) {
		put(s, EV_ABS, ABS_MT_SLOT, i);
		put(s, EV_ABS, ABS_MT_TRACKING_ID, 100 + i);
		put(s, EV_ABS, ABS_MT_POSITION_X, x[i]);
		put(s, EV_ABS, ABS_MT_POSITION_Y, y);
	}
	put(s, EV_KEY, BTN_TOUCH, 1);
	if (s->btn_tool)
		put(s, EV_KEY, tool_codes[n], 1);
	flush(s);
}

static void
move(struct stream *s, int n, const int *x, const int *y)
{
	for (int i = 0; i < n; i++) {
		put(s, EV_ABS, ABS_MT_SLOT, i);
		put(s, EV_ABS, ABS_MT_POSITION_X, x[i]);
		put(s, EV_ABS, ABS_MT_POSITION_Y, y[i]);
	}
	flush(s);
}

static void
up(struct stream *s, int n)
{
	for (int i = 0; i < n; i++) {
		put(s, EV_ABS, ABS_MT_SLOT, i);
		put(s, EV_ABS, ABS_MT_TRACKING_ID, -1);
	}
	put(s, EV_KEY, BTN_TOUCH, 0);
	if (s->btn_tool)
		put(s, EV_KEY, tool_codes[n], 0);
	flush(s);
}

static void
run(struct gd_daemon *d, int ms)
{
	int64_t end = mono_us() + ms * 1000;
	while (mono_us() < end)
		gd_daemon_step(d, 5);
}

static struct stream
add_stream(struct gd_daemon *d, const char *caps, int btn_tool)
{
	int fds[2];
	struct stream s = { .fd = -1, .btn_tool = btn_tool };
	if (pipe(fds) < 0) {
		perror("pipe");
		exit(1);
	}
	GeisStatus st = utouch_geis_add_input_fd(gd_daemon_evdev_geis(d), fds[0], caps);
	CHECK(st == GEIS_STATUS_SUCCESS, "add_input_fd %s: %d", caps, st);
	s.fd = fds[1];
	run(d, 100);
	return s;
}

/* n fingers from x0 (spaced dx), all moving by (vx, vy) per step */
static void
stroke(struct gd_daemon *d, struct stream *s, int n, int x0, int spread, int y0, int vx,
       int vy, int grow, int steps)
{
	int x[5], y[5];
	for (int i = 0; i < n; i++)
		x[i] = x0 + spread * i;
	down(s, n, x, y0);
	run(d, 20);
	for (int k = 1; k <= steps; k++) {
		for (int i = 0; i < n; i++) {
			/* "grow": fingers move away from the middle */
			x[i] = x0 + spread * i + vx * k + (2 * i - (n - 1)) * grow * k;
			y[i] = y0 + vy * k;
		}
		move(s, n, x, y);
		run(d, 12);
	}
	up(s, n);
	run(d, 150);
}

int
main(void)
{
	char dir[] = "/tmp/gestured-evdev-XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	char cfgpath[128];
	snprintf(cfgpath, sizeof(cfgpath), "%s/gestures.yaml", dir);
	FILE *f = fopen(cfgpath, "w");
	fputs("gestures:\n"
	      "  - {gesture: swipe, fingers: 3, direction: left, device: touchpad, command: tp-left}\n"
	      "  - {gesture: swipe, fingers: 3, direction: left, device: touchscreen, command: ts-left}\n"
	      "  - {gesture: pinch, fingers: 2, direction: out, device: touchscreen, distance: 20,\n"
	      "     continuous: zoom}\n"
	      "  - {gesture: swipe, fingers: 4, direction: up, repeat: true, distance: 10,\n"
	      "     command: step}\n"
	      "  - {gesture: swipe, fingers: 2, direction: up, device: touchpad, command: pad-up}\n"
	      "  - {gesture: swipe, fingers: 2, direction: down, device: touchpad, command: pad-down}\n"
	      "  - {gesture: hold, fingers: 3, device: touchscreen, time: 300, command: held}\n",
	      f);
	fclose(f);

	char *out = NULL;
	size_t outlen = 0;
	FILE *mem = open_memstream(&out, &outlen);
	struct gd_options opts = { .config_path = cfgpath, .backend = GD_BACKEND_EVDEV,
				   .evdev_dir = dir, .dry_run = 1, .verbose = 1, .out = mem };
	char err[512];
	struct gd_daemon *d = gd_daemon_new(&opts, err, sizeof(err));
	if (!d) {
		fprintf(stderr, "FAIL: gd_daemon_new: %s\n", err);
		return 1;
	}
	CHECK(gd_daemon_rule_count(d) == 7, "%d rules", gd_daemon_rule_count(d));
	CHECK(gd_daemon_evdev_geis(d) != NULL, "no evdev instance");

	struct stream pad = add_stream(d, REC_DIR "/touchpad/drag-3.evemu", 1);
	struct stream scr = add_stream(d, REC_DIR "/touchscreen/drag-2.evemu", 0);

	/* touchpad: 3 fingers 15 mm left (100 mm pad, 32 units per mm) */
	stroke(d, &pad, 3, 1800, 300, 1100, -40, 0, 0, 12);
	fflush(mem);
	CHECK(strstr(out, "command swipe fingers=3 direction=left device=touchpad app=- progress=") != NULL,
	      "no touchpad swipe action:\n%s", out);
	CHECK(strstr(out, ": tp-left") != NULL, "not the touchpad rule:\n%s", out);
	CHECK(strstr(out, "ts-left") == NULL, "the touchscreen rule ran for a touchpad:\n%s", out);
	size_t mark = outlen;

	/* touchscreen: the same gesture runs the touchscreen rule */
	stroke(d, &scr, 3, 2500, 300, 1400, -40, 0, 0, 12);
	fflush(mem);
	CHECK(strstr(out + mark, "device=touchscreen") != NULL && strstr(out + mark, ": ts-left") != NULL,
	      "no touchscreen swipe action:\n%s", out + mark);
	CHECK(strstr(out + mark, "tp-left") == NULL, "the touchpad rule ran again:\n%s", out + mark);
	mark = outlen;

	/* touchscreen: 2 fingers move apart: a continuous pinch */
	stroke(d, &scr, 2, 1800, 600, 1400, 0, 0, 30, 12);
	fflush(mem);
	const char *p = out + mark;
	CHECK(strstr(p, "continuous pinch fingers=2 direction=out device=touchscreen") != NULL,
	      "no pinch:\n%s", p);
	int updates = 0;
	double last = -1, v;
	int growing = 1;
	for (const char *l = strstr(p, "  update "); l; l = strstr(l + 1, "  update ")) {
		if (sscanf(l, "  update %lf", &v) == 1) {
			updates++;
			growing &= v >= last;
			last = v;
		}
	}
	CHECK(strstr(p, "  begin ") != NULL, "no begin:\n%s", p);
	CHECK(updates >= 3 && growing, "%d updates, growing %d:\n%s", updates, growing, p);
	CHECK(strstr(p, "  end ") != NULL, "no end:\n%s", p);
	mark = outlen;

	/* a 2-finger swipe no rule takes: nothing runs */
	stroke(d, &scr, 2, 1800, 300, 1400, 40, 0, 0, 12);
	fflush(mem);
	CHECK(outlen == mark, "an action ran:\n%s", out + mark);

	/* 4 fingers up 45 mm on the touchscreen (14 units per mm): a run at
	 * the threshold, then one per further 10 mm */
	stroke(d, &scr, 4, 1000, 300, 2200, 0, -53, 0, 12);
	fflush(mem);
	int steps = 0;
	for (const char *l = strstr(out + mark, ": step"); l; l = strstr(l + 1, ": step"))
		steps++;
	CHECK(steps == 4, "%d repeated runs, expected 4:\n%s", steps, out + mark);

	/* two 2-finger swipes at once on the touchpad, one up on the left,
	 * one down on the right: two gestures, two actions */
	mark = outlen;
	{
		int x[4] = { 400, 700, 2400, 2700 }, y[4];
		down(&pad, 4, x, 1100);
		run(d, 20);
		for (int k = 1; k <= 12; k++) {
			for (int i = 0; i < 4; i++)
				y[i] = 1100 + (i < 2 ? -40 : 40) * k;
			move(&pad, 4, x, y);
			run(d, 12);
		}
		up(&pad, 4);
		run(d, 150);
	}
	fflush(mem);
	CHECK(strstr(out + mark, ": pad-up") != NULL && strstr(out + mark, ": pad-down") != NULL,
	      "not both simultaneous swipes ran:\n%s", out + mark);
	int runs = 0;
	for (const char *l = strstr(out + mark, ": pad-"); l; l = strstr(l + 1, ": pad-"))
		runs++;
	CHECK(runs == 2, "%d actions for two simultaneous swipes:\n%s", runs, out + mark);

	/* three fingers held still for 500 ms: the hold runs once, at 300 ms */
	mark = outlen;
	{
		int x[3] = { 1000, 1300, 1600 };
		down(&scr, 3, x, 1400);
		int64_t t0 = mono_us();
		int64_t seen = 0;
		while (mono_us() - t0 < 500000) {
			gd_daemon_step(d, 5);
			fflush(mem);
			if (!seen && strstr(out + mark, ": held"))
				seen = mono_us();
		}
		up(&scr, 3);
		run(d, 100);
		CHECK(seen && seen - t0 >= 290000 && seen - t0 < 450000,
		      "hold ran after %lld ms", seen ? (long long)(seen - t0) / 1000 : -1LL);
	}
	/* held but slipping 10 mm: no hold */
	{
		int x[3] = { 1000, 1300, 1600 }, y[3] = { 1400, 1400, 1400 };
		down(&scr, 3, x, 1400);
		run(d, 50);
		for (int i = 0; i < 3; i++)
			x[i] += 140;
		move(&scr, 3, x, y);
		run(d, 400);
		up(&scr, 3);
		run(d, 100);
	}
	fflush(mem);
	int holds = 0;
	for (const char *l = strstr(out + mark, ": held"); l; l = strstr(l + 1, ": held"))
		holds++;
	CHECK(holds == 1, "%d holds ran, expected 1:\n%s", holds, out + mark);

	close(pad.fd);
	close(scr.fd);
	run(d, 100);
	gd_daemon_free(d);
	fclose(mem);
	free(out);
	unlink(cfgpath);
	rmdir(dir);
	printf("gestured-evdev: %s\n", failures ? "FAIL" : "ok");
	return failures ? 1 : 0;
}
