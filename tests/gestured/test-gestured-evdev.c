/*
 * utouch-gestured on the evdev path: the daemon runs in-process on an
 * empty device directory, and the test adds input streams (pipes carrying
 * struct input_event records) to its evdev geis instance, with the
 * capabilities of the bundled touchpad and touchscreen recordings.
 * Actions run dry: the lines they print are checked.  One daemon serves
 * the whole group (setup and teardown below); each test checks what it
 * made the daemon print.
 */
#include <linux/input.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <utouch/geis.h>

#include "gd-daemon.h"
#include "gd-screen.h"
#include "test-support.h"
#include "util/clock.h"

/* signed, for differences */
static int64_t
mono_us(void)
{
	return (int64_t)ut_mono_us();
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
	s->ev[s->n++] = ut_test_event(ut_mono_us(), (uint16_t)type, (uint16_t)code, value);
}

static void
flush(struct stream *s)
{
	put(s, EV_SYN, SYN_REPORT, 0);
	ut_test_write_events(s->fd, s->ev, (size_t)s->n);
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

	assert_int_equal(pipe(fds), 0);
	GeisStatus st = utouch_geis_add_input_fd(gd_daemon_evdev_geis(d), fds[0], caps);
	UT_ASSERT_MSG(st == GEIS_STATUS_SUCCESS, "add_input_fd %s: %d", caps, st);
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

/* The daemon on an empty device directory with the two input streams. */
struct world {
	char dir[32];
	char cfgpath[128];
	char *out;          /* everything the daemon printed */
	size_t outlen;
	FILE *mem;
	struct gd_daemon *d;
	struct stream pad, scr;
};

/* What the daemon printed since @p mark (an earlier outlen). */
static const char *
printed_since(struct world *w, size_t mark)
{
	fflush(w->mem);
	return w->out + mark;
}

static unsigned int
count_lines(const char *text, const char *needle)
{
	unsigned int n = 0;

	for (const char *l = strstr(text, needle); l; l = strstr(l + 1, needle))
		n++;
	return n;
}

static const char base_rules[] =
	"gestures:\n"
	"  - {gesture: swipe, fingers: 3, direction: left, device: touchpad, command: tp-left}\n"
	"  - {gesture: swipe, fingers: 3, direction: left, device: touchscreen, command: ts-left}\n"
	"  - {gesture: pinch, fingers: 2, direction: out, device: touchscreen, distance: 20,\n"
	"     continuous: zoom}\n"
	"  - {gesture: swipe, fingers: 4, direction: up, repeat: true, distance: 10,\n"
	"     command: step}\n"
	"  - {gesture: swipe, fingers: 2, direction: up, device: touchpad, command: pad-up}\n"
	"  - {gesture: swipe, fingers: 2, direction: down, device: touchpad, command: pad-down}\n"
	"  - {gesture: hold, fingers: 3, device: touchscreen, time: 300, command: held}\n"
	"  - {gesture: tap, fingers: 2, taps: 2, device: touchscreen, command: double}\n"
	"  - {gesture: tap, fingers: 2, device: touchscreen, command: single}\n"
	"  - {gesture: tap, fingers: 3, device-name: \"synth touchpad\", command: pad-tap}\n"
	"  - {gesture: tap, fingers: 3, device-name: \"other*\", command: other-tap}\n";

/* Write @p text (then @p more, may be "") as the configuration and reload. */
static void
reload_with(struct world *w, const char *text, const char *more)
{
	FILE *f = fopen(w->cfgpath, "w");

	assert_non_null(f);
	fputs(text, f);
	fputs(more, f);
	assert_int_equal(fclose(f), 0);
	gd_daemon_reload(w->d);
}

static int
group_setup(void **state)
{
	struct world *w = calloc(1, sizeof(*w));

	assert_non_null(w);
	snprintf(w->dir, sizeof(w->dir), "/tmp/gestured-evdev-XXXXXX");
	assert_non_null(mkdtemp(w->dir));
	snprintf(w->cfgpath, sizeof(w->cfgpath), "%s/gestures.yaml", w->dir);
	FILE *f = fopen(w->cfgpath, "w");
	assert_non_null(f);
	fputs(base_rules, f);
	assert_int_equal(fclose(f), 0);

	w->mem = open_memstream(&w->out, &w->outlen);
	assert_non_null(w->mem);
	struct gd_options opts = { .config_path = w->cfgpath, .backend = GD_BACKEND_EVDEV,
				   .evdev_dir = w->dir, .dry_run = 1, .verbose = 1,
				   .out = w->mem };
	char err[512];
	w->d = gd_daemon_new(&opts, err, sizeof(err));
	UT_ASSERT_MSG(w->d != NULL, "gd_daemon_new: %s", err);
	UT_ASSERT_MSG(gd_daemon_rule_count(w->d) == 11, "%d rules", gd_daemon_rule_count(w->d));
	assert_non_null(gd_daemon_evdev_geis(w->d));

	w->pad = add_stream(w->d, REC_DIR "/touchpad/drag-3.evemu", 1);
	w->scr = add_stream(w->d, REC_DIR "/touchscreen/drag-2.evemu", 0);
	*state = w;
	return 0;
}

static int
group_teardown(void **state)
{
	struct world *w = *state;

	if (!w)
		return 0;
	if (w->pad.fd >= 0)
		close(w->pad.fd);
	if (w->scr.fd >= 0)
		close(w->scr.fd);
	if (w->d) {
		run(w->d, 100);
		gd_daemon_free(w->d);
	}
	if (w->mem)
		fclose(w->mem);
	free(w->out);
	unlink(w->cfgpath);
	rmdir(w->dir);
	free(w);
	return 0;
}

/* touchpad: 3 fingers 15 mm left (100 mm pad, 32 units per mm) */
static void
test_touchpad_swipe(void **state)
{
	struct world *w = *state;
	size_t mark = w->outlen;

	stroke(w->d, &w->pad, 3, 1800, 300, 1100, -40, 0, 0, 12);
	const char *p = printed_since(w, mark);
	UT_ASSERT_MSG(strstr(p, "command swipe fingers=3 direction=left device=touchpad app=- "
			     "progress=") != NULL, "no touchpad swipe action:\n%s", p);
	UT_ASSERT_MSG(strstr(p, ": tp-left") != NULL, "not the touchpad rule:\n%s", p);
	UT_ASSERT_MSG(strstr(p, "ts-left") == NULL,
		      "the touchscreen rule ran for a touchpad:\n%s", p);
}

/* touchscreen: the same gesture runs the touchscreen rule */
static void
test_touchscreen_swipe(void **state)
{
	struct world *w = *state;
	size_t mark = w->outlen;

	stroke(w->d, &w->scr, 3, 2500, 300, 1400, -40, 0, 0, 12);
	const char *p = printed_since(w, mark);
	UT_ASSERT_MSG(strstr(p, "device=touchscreen") != NULL && strstr(p, ": ts-left") != NULL,
		      "no touchscreen swipe action:\n%s", p);
	UT_ASSERT_MSG(strstr(p, "tp-left") == NULL, "the touchpad rule ran again:\n%s", p);
}

/* touchscreen: 2 fingers move apart: a continuous pinch */
static void
test_continuous_pinch(void **state)
{
	struct world *w = *state;
	size_t mark = w->outlen;

	stroke(w->d, &w->scr, 2, 1800, 600, 1400, 0, 0, 30, 12);
	const char *p = printed_since(w, mark);
	UT_ASSERT_MSG(strstr(p, "continuous pinch fingers=2 direction=out device=touchscreen") !=
		      NULL, "no pinch:\n%s", p);
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
	UT_ASSERT_MSG(strstr(p, "  begin ") != NULL, "no begin:\n%s", p);
	UT_ASSERT_MSG(updates >= 3 && growing, "%d updates, growing %d:\n%s", updates, growing, p);
	UT_ASSERT_MSG(strstr(p, "  end ") != NULL, "no end:\n%s", p);
}

/* a 2-finger swipe no rule takes: nothing runs */
static void
test_unmatched_swipe_runs_nothing(void **state)
{
	struct world *w = *state;
	size_t mark = w->outlen;

	stroke(w->d, &w->scr, 2, 1800, 300, 1400, 40, 0, 0, 12);
	const char *p = printed_since(w, mark);
	UT_ASSERT_MSG(w->outlen == mark, "an action ran:\n%s", p);
}

/* 4 fingers up 45 mm on the touchscreen (14 units per mm): a run at the
 * threshold, then one per further 10 mm */
static void
test_repeating_swipe(void **state)
{
	struct world *w = *state;
	size_t mark = w->outlen;

	stroke(w->d, &w->scr, 4, 1000, 300, 2200, 0, -53, 0, 12);
	const char *p = printed_since(w, mark);
	unsigned int steps = count_lines(p, ": step");
	UT_ASSERT_MSG(steps == 4, "%u repeated runs, expected 4:\n%s", steps, p);
}

/* two 2-finger swipes at once on the touchpad, one up on the left, one
 * down on the right: four fingers are down, so by default (whole hand) no
 * 2-finger rule fires and the touches go to the application; with
 * "whole-hand: false" two gestures, two actions */
static unsigned int
simultaneous_swipes(struct world *w, const char **printed)
{
	size_t mark = w->outlen;
	int x[4] = { 400, 700, 2400, 2700 }, y[4];

	down(&w->pad, 4, x, 1100);
	run(w->d, 20);
	for (int k = 1; k <= 12; k++) {
		for (int i = 0; i < 4; i++)
			y[i] = 1100 + (i < 2 ? -40 : 40) * k;
		move(&w->pad, 4, x, y);
		run(w->d, 12);
	}
	up(&w->pad, 4);
	run(w->d, 150);
	*printed = printed_since(w, mark);
	return count_lines(*printed, ": pad-");
}

static void
test_simultaneous_swipes(void **state)
{
	struct world *w = *state;
	const char *p;
	unsigned int runs = simultaneous_swipes(w, &p);

	UT_ASSERT_MSG(runs == 0, "%u actions for four fingers down (whole hand):\n%s", runs, p);
	reload_with(w, "settings: {whole-hand: false}\n", base_rules);
	runs = simultaneous_swipes(w, &p);
	UT_ASSERT_MSG(strstr(p, ": pad-up") != NULL && strstr(p, ": pad-down") != NULL,
		      "not both simultaneous swipes ran:\n%s", p);
	UT_ASSERT_MSG(runs == 2, "%u actions for two simultaneous swipes:\n%s", runs, p);
	reload_with(w, base_rules, "");
	runs = simultaneous_swipes(w, &p);
	UT_ASSERT_MSG(runs == 0, "%u actions after whole-hand came back:\n%s", runs, p);
}

/* three fingers held still for 500 ms: the hold runs once, at 300 ms;
 * held but slipping 10 mm: no hold */
static void
test_hold(void **state)
{
	struct world *w = *state;
	size_t mark = w->outlen;
	int x[3] = { 1000, 1300, 1600 }, y[3] = { 1400, 1400, 1400 };

	down(&w->scr, 3, x, 1400);
	int64_t t0 = mono_us();
	int64_t seen = 0;
	while (mono_us() - t0 < 500000) {
		gd_daemon_step(w->d, 5);
		if (!seen && strstr(printed_since(w, mark), ": held"))
			seen = mono_us();
	}
	up(&w->scr, 3);
	run(w->d, 100);
	UT_ASSERT_MSG(seen && seen - t0 >= 290000 && seen - t0 < 450000,
		      "hold ran after %lld ms", seen ? (long long)(seen - t0) / 1000 : -1LL);

	down(&w->scr, 3, x, 1400);
	run(w->d, 50);
	for (int i = 0; i < 3; i++)
		x[i] += 140;
	move(&w->scr, 3, x, y);
	run(w->d, 400);
	up(&w->scr, 3);
	run(w->d, 100);
	const char *p = printed_since(w, mark);
	unsigned int holds = count_lines(p, ": held");
	UT_ASSERT_MSG(holds == 1, "%u holds ran, expected 1:\n%s", holds, p);
}

/* n fingers tap at x, y */
static void
tap(struct gd_daemon *d, struct stream *s, int n, int x0, int y)
{
	int x[5];
	for (int i = 0; i < n; i++)
		x[i] = x0 + 300 * i;
	down(s, n, x, y);
	run(d, 40);
	up(s, n);
}

/* a single tap waits for a second one (GD_MULTITAP_MS), then runs its
 * rule; a double tap runs the double-tap rule only */
static void
test_double_tap(void **state)
{
	struct world *w = *state;
	size_t mark = w->outlen;

	tap(w->d, &w->scr, 2, 1000, 1400);
	run(w->d, 600);
	const char *p = printed_since(w, mark);
	UT_ASSERT_MSG(count_lines(p, ": single") == 1 && !strstr(p, ": double"),
		      "one tap:\n%s", p);

	mark = w->outlen;
	tap(w->d, &w->scr, 2, 1000, 1400);
	run(w->d, 100);
	tap(w->d, &w->scr, 2, 1000, 1400);
	run(w->d, 600);
	p = printed_since(w, mark);
	UT_ASSERT_MSG(count_lines(p, ": double") == 1 && !strstr(p, ": single"),
		      "two taps:\n%s", p);
}

/* "device-name": a part of the name, or a pattern */
static void
test_device_name(void **state)
{
	struct world *w = *state;
	size_t mark = w->outlen;

	tap(w->d, &w->pad, 3, 1000, 1400);
	run(w->d, 200);
	tap(w->d, &w->scr, 3, 1000, 1400);
	run(w->d, 200);
	const char *p = printed_since(w, mark);
	UT_ASSERT_MSG(count_lines(p, ": pad-tap") == 1 && !strstr(p, "other-tap"),
		      "taps by device name:\n%s", p);
}

/* replace the configuration with @p text, which has @p nrules rules */
static void
use_config(struct world *w, const char *text, int nrules)
{
	FILE *f = fopen(w->cfgpath, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	gd_daemon_reload(w->d);
	UT_ASSERT_MSG(gd_daemon_rule_count(w->d) == nrules, "%d rules",
		      gd_daemon_rule_count(w->d));
}

/* settings: orientation turns evdev touchscreens, not touchpads (runs
 * last: it replaces the configuration) */
static void
test_orientation(void **state)
{
	struct world *w = *state;

	use_config(w, "settings: {orientation: left}\n"
		   "gestures:\n"
		   "  - {gesture: swipe, fingers: 3, direction: up, device: touchscreen, command: ts-up}\n"
		   "  - {gesture: swipe, fingers: 3, direction: left, command: any-left}\n", 2);

	/* towards the panel's left side: up on a screen turned left */
	size_t mark = w->outlen;
	stroke(w->d, &w->scr, 3, 2500, 300, 1400, -40, 0, 0, 12);
	const char *p = printed_since(w, mark);
	UT_ASSERT_MSG(count_lines(p, ": ts-up") == 1 && !strstr(p, "any-left"),
		      "touchscreen on a screen turned left:\n%s", p);
	mark = w->outlen;
	stroke(w->d, &w->pad, 3, 1800, 300, 1100, -40, 0, 0, 12);
	p = printed_since(w, mark);
	UT_ASSERT_MSG(count_lines(p, ": any-left") == 1 && !strstr(p, "ts-up"),
		      "a touchpad does not turn with the screen:\n%s", p);
}

#ifdef GD_HAVE_XRANDR
/* one built-in panel turned by RandR rotation @p rotation (1, 2, 4, 8) */
static void
turn_screen(struct world *w, unsigned rotation)
{
	struct gd_screen_output out = { .name = "eDP-1", .active = 1, .rotation = rotation };
	gd_screen_update(gd_daemon_screen(w->d), &out, 1, 1024, 768);
}

/* orientation: auto turns evdev touchscreens as the X server's RandR
 * turns the screen (here set through the daemon's screen state, as
 * gd_screen_dispatch() does on a RandR event; tests/gestured/
 * test-gestured-screen.c drives that on a real server) */
static void
test_orientation_auto(void **state)
{
	struct world *w = *state;

	use_config(w, "settings: {orientation: auto}\n"
		   "gestures:\n"
		   "  - {gesture: swipe, fingers: 3, direction: up, device: touchscreen, command: ts-up}\n"
		   "  - {gesture: swipe, fingers: 3, direction: down, device: touchscreen, command: ts-down}\n"
		   "  - {gesture: swipe, fingers: 3, direction: left, command: any-left}\n", 3);

	/* the same stroke towards the panel's left side, the screen turned
	 * left (RR_Rotate_90), right (RR_Rotate_270), then back to normal */
	static const struct { unsigned rotation; const char *want, *not1, *not2; } turns[] = {
		{ 2, ": ts-up", "ts-down", "any-left" },
		{ 8, ": ts-down", "ts-up", "any-left" },
		{ 1, ": any-left", "ts-up", "ts-down" },
	};
	for (size_t i = 0; i < sizeof(turns) / sizeof(turns[0]); i++) {
		turn_screen(w, turns[i].rotation);
		size_t mark = w->outlen;
		stroke(w->d, &w->scr, 3, 2500, 300, 1400, -40, 0, 0, 12);
		const char *p = printed_since(w, mark);
		UT_ASSERT_MSG(count_lines(p, turns[i].want) == 1 && !strstr(p, turns[i].not1) &&
				      !strstr(p, turns[i].not2),
			      "rotation %u: want %s:\n%s", turns[i].rotation, turns[i].want, p);
	}
	/* a touchpad never turns */
	turn_screen(w, 2);
	size_t mark = w->outlen;
	stroke(w->d, &w->pad, 3, 1800, 300, 1100, -40, 0, 0, 12);
	const char *p = printed_since(w, mark);
	UT_ASSERT_MSG(count_lines(p, ": any-left") == 1 && !strstr(p, "ts-up"),
		      "a touchpad does not turn with the screen:\n%s", p);
	turn_screen(w, 1);
}
#endif

int
main(void)
{
	/* in this order: each test starts from what the previous left */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_touchpad_swipe),
		cmocka_unit_test(test_touchscreen_swipe),
		cmocka_unit_test(test_continuous_pinch),
		cmocka_unit_test(test_unmatched_swipe_runs_nothing),
		cmocka_unit_test(test_repeating_swipe),
		cmocka_unit_test(test_simultaneous_swipes),
		cmocka_unit_test(test_hold),
		cmocka_unit_test(test_double_tap),
		cmocka_unit_test(test_device_name),
		cmocka_unit_test(test_orientation),
#ifdef GD_HAVE_XRANDR
		cmocka_unit_test(test_orientation_auto),
#endif
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
