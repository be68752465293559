/*
 * utouch-gestured as a touch proxy, end to end: the daemon plays a
 * bundled recording as the grabbed device (--recording --fast) and
 * writes what the clone would emit (--proxy-output).  The test reads the
 * output back with utouch's own recording reader and evdev stream and
 * with a checker of its own (slots, tracking ids, BTN_TOUCH, BTN_TOOL_*,
 * pointer emulation, MSC_TIMESTAMP, report framing), and compares the
 * touches with the recording's.
 *
 * Usage: test-gestured-proxy DAEMON RECORDINGS_DIR FAKE_UINPUT_MODULE GENERATED_DIR
 * (GENERATED_DIR: the recordings made from tests/gestured/scenarios)
 */
#include <errno.h>
#include <linux/input.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <libevdev/libevdev.h>
#include <utouch/geis.h>

#include "input/recording/recording.h"
#include "input/recording/script.h"
#include "evdev-check.h"

static const char *daemon_exe, *rec_dir, *preload_module, *gen_dir;
static char tmp[256];

/* A recording's path: "gen/NAME" is one made from tests/gestured/scenarios
 * in the build directory, anything else one of data/recordings. */
static void
rec_file(char *buf, size_t len, const char *rel)
{
	if (strncmp(rel, "gen/", 4) == 0)
		snprintf(buf, len, "%s/%s", gen_dir, rel + 4);
	else
		snprintf(buf, len, "%s/%s", rec_dir, rel);
}


static struct ut_recording *
load(const char *path)
{
	struct ut_recording *rec = NULL;
	char err[512] = "";
	int rc = ut_recording_load(path, NULL, &rec, err, sizeof(err));

	if (rc < 0)
		fail_msg("%s: %s", path, err);
	return rec;
}

/* utouch's own reader: the output loads, and the evdev stream makes
 * frames of it without dropping anything or ending touches itself */
static void
check_with_utouch_reader(const struct ut_recording *rec, int ntouches)
{
	struct ut_script s;
	struct ut_evstream_opts opts = { .own = UT_OWN_BEGIN, .direct = -1 };

	assert_int_equal(ut_script_build(&s, rec, &opts), 0);
	assert_int_equal(s.dropped, 0);
	assert_int_equal(s.ended_at_end, 0);
	assert_int_equal(s.oom, 0);
	size_t begins = 0;

	for (size_t i = 0; i < s.nops; i++)
		begins += s.ops[i].kind == UT_OP_BEGIN;
	assert_int_equal(begins, ntouches);
	ut_script_release(&s);
}

static char actions_log[300];

static char out_path[300];

/* Run the daemon on @p rules and the recording @p rel; its output is in
 * out_path. */
static void
run_daemon(const char *rules, const char *rel, int *nactions)
{
	char cfg[300], rec[512], cmd[2048];
	FILE *fp;

	snprintf(cfg, sizeof(cfg), "%s/gestures.yaml", tmp);
	snprintf(out_path, sizeof(out_path), "%s/out.evemu", tmp);
	snprintf(actions_log, sizeof(actions_log), "%s/actions.log", tmp);
	rec_file(rec, sizeof(rec), rel);
	unlink(actions_log);
	unlink(out_path);
	fp = fopen(cfg, "w");
	assert_non_null(fp);
	fprintf(fp, "%s", rules);
	fclose(fp);
	snprintf(cmd, sizeof(cmd),
		 "ACTIONS='%s' timeout 30 '%s' --backend evdev --config '%s' --recording '%s' --fast "
		 "--proxy-output '%s' 2>'%s/daemon.err'",
		 actions_log, daemon_exe, cfg, rec, out_path, tmp);
	int st = system(cmd);

	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		char err[300];

		snprintf(err, sizeof(err), "cat '%s/daemon.err' >&2", tmp);
		if (system(err) < 0) {
			/* shown or not, the test fails */
		}
		fail_msg("the daemon ended with status %d on %s", st, rel);
	}
	*nactions = 0;
	fp = fopen(actions_log, "r");
	if (fp) {
		int c;

		while ((c = fgetc(fp)) != EOF)
			*nactions += c == '\n';
		fclose(fp);
	}
}

/* E: lines of the output so far (-1: no file yet), its N: lines in
 * *header */
static int
count_events(int *header)
{
	FILE *fp = fopen(out_path, "r");
	char line[512];
	int n = 0;

	*header = 0;
	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		n += strncmp(line, "E:", 2) == 0;
		*header += strncmp(line, "N: ", 3) == 0;
	}
	fclose(fp);
	return n;
}

/* E: lines of the output, which has its header */
static int
output_events(void)
{
	int header, n = count_events(&header);

	assert_true(n >= 0);
	assert_int_equal(header, 1);
	return n;
}

static const char rules_3[] =
	"gestures:\n"
	"  - gesture: swipe\n"
	"    fingers: 3\n"
	"    command: echo swipe >> \"$ACTIONS\"\n";

static const char rules_none[] = "gestures: []\n";

static struct ec_touches orig_t, got_t;

/* a loaded recording's events as the kernel gives them */
static void
read_recording(const struct ut_recording *rec, struct ec_touches *out, int strict)
{
	struct input_event *ev = calloc(rec->nevents ? rec->nevents : 1, sizeof(*ev));

	assert_non_null(ev);
	for (size_t i = 0; i < rec->nevents; i++) {
		ev[i].input_event_sec = (time_t)(rec->events[i].usec / 1000000u);
		ev[i].input_event_usec = (suseconds_t)(rec->events[i].usec % 1000000u);
		ev[i].type = rec->events[i].type;
		ev[i].code = rec->events[i].code;
		ev[i].value = rec->events[i].value;
	}
	ec_read(rec->dev, ev, rec->nevents, out, strict);
	free(ev);
}

static void
check_passes(const char *rules, const char *rel, int exact)
{
	char path[512];
	int nactions;

	rec_file(path, sizeof(path), rel);
	struct ut_recording *orig = load(path);
	run_daemon(rules, rel, &nactions);
	struct ut_recording *got = load(out_path);

	read_recording(got, &got_t, 1);
	assert_int_equal(nactions, 0);
	if (libevdev_has_event_code(orig->dev, EV_ABS, ABS_MT_SLOT)) {
		read_recording(orig, &orig_t, 0);
		ec_assert_whole(&orig_t, &got_t, exact);
	} else {
		/* protocol A: the clone speaks B; as many touches, each ended */
		check_with_utouch_reader(orig, got_t.n);
		for (int i = 0; i < got_t.n; i++)
			assert_true(got_t.ended[i]);
	}
	check_with_utouch_reader(got, got_t.n);
	/* the clone is the device under a recognisable name */
	char want[300];

	snprintf(want, sizeof(want), "%s (utouch proxy)", libevdev_get_name(orig->dev));
	assert_string_equal(libevdev_get_name(got->dev), want);
	assert_int_equal(libevdev_get_id_vendor(got->dev), libevdev_get_id_vendor(orig->dev));
	assert_int_equal(libevdev_get_id_product(got->dev), libevdev_get_id_product(orig->dev));
	for (unsigned int code = ABS_X; code <= ABS_MAX; code++) {
		/* (the clone numbers its touches itself: 0 .. 65535) */
		if (!libevdev_has_event_code(orig->dev, EV_ABS, code) || code == ABS_MT_TRACKING_ID)
			continue;
		const struct input_absinfo *a = libevdev_get_abs_info(orig->dev, code);
		const struct input_absinfo *b = libevdev_get_abs_info(got->dev, code);

		assert_non_null(b);
		assert_int_equal(a->minimum, b->minimum);
		assert_int_equal(a->maximum, b->maximum);
		assert_int_equal(a->resolution, b->resolution);
	}
	for (unsigned int prop = 0; prop <= INPUT_PROP_MAX; prop++)
		assert_int_equal(libevdev_has_property(got->dev, prop),
				 libevdev_has_property(orig->dev, prop));
	ut_recording_free(orig);
	ut_recording_free(got);
}

/* One report of a stream: its time from the stream's first report and
 * its events but MSC_TIMESTAMP (the clone counts its own), sorted. */
struct report {
	uint64_t ms;
	size_t n;
	uint64_t ev[256];
};

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The reports of @p rec that carry any event besides MSC_TIMESTAMP. */
static size_t
reports_of(const struct ut_recording *rec, struct report *out, size_t max)
{
	size_t n = 0;
	uint64_t first = UINT64_MAX;
	struct report cur = { 0 };

	for (size_t i = 0; i < rec->nevents; i++) {
		const struct ut_raw_event *e = &rec->events[i];

		if (e->type == EV_SYN && e->code == SYN_REPORT) {
			if (first == UINT64_MAX)
				first = e->usec / 1000u;
			if (cur.n > 0) {
				assert_true(n < max);
				cur.ms = e->usec / 1000u - first;
				qsort(cur.ev, cur.n, sizeof(cur.ev[0]), cmp_u64);
				out[n++] = cur;
			}
			cur.n = 0;
			continue;
		}
		if (e->type == EV_MSC && e->code == MSC_TIMESTAMP)
			continue;
		assert_true(cur.n < sizeof(cur.ev) / sizeof(cur.ev[0]));
		cur.ev[cur.n++] = (uint64_t)e->type << 48 | (uint64_t)e->code << 32 |
				  (uint32_t)e->value;
	}
	return n;
}

static struct report orig_r[512], got_r[512];

/*
 * Touches no rule can take reach the clone as the device sent them,
 * report by report: the same events with the same values (pressure,
 * touch size, slots, the pointer emulation, BTN_TOUCH, BTN_TOOL_*) at
 * the same times, one SYN_REPORT per report of the device.  A report
 * that lands several fingers at once was split into one report per
 * finger (the frames grail needs), so the clone of a touchpad went
 * through BTN_TOOL_FINGER and DOUBLETAP to TRIPLETAP in three reports
 * for a 3-finger tap (2 reports became 4, tap-3 on a touchpad).
 */
static void
test_report_by_report(void **state)
{
	static const char *const recs[] = {
		"touchpad/tap-3.evemu", "touchpad/drag-4.evemu", "touchscreen/drag-2.evemu",
		"touchscreen/pinch-4.evemu", "touchscreen/storm-10.evemu",
		"touchscreen/tap-3.evemu",
	};

	(void)state;
	for (size_t r = 0; r < sizeof(recs) / sizeof(recs[0]); r++) {
		char path[512];
		int nactions;

		snprintf(path, sizeof(path), "%s/%s", rec_dir, recs[r]);
		struct ut_recording *orig = load(path);

		run_daemon(rules_none, recs[r], &nactions);
		struct ut_recording *got = load(out_path);
		size_t no = reports_of(orig, orig_r, 512), ng = reports_of(got, got_r, 512);

		if (no != ng)
			fail_msg("%s: %zu reports of the device, %zu of the clone", recs[r], no,
				 ng);
		for (size_t i = 0; i < no; i++) {
			assert_int_equal(got_r[i].ms, orig_r[i].ms);
			assert_int_equal(got_r[i].n, orig_r[i].n);
			assert_memory_equal(got_r[i].ev, orig_r[i].ev,
					    orig_r[i].n * sizeof(orig_r[i].ev[0]));
		}
		ut_recording_free(orig);
		ut_recording_free(got);
	}
}

/*
 * A protocol A touchpad whose tracking ids run 0 .. 15: the clone (protocol
 * B, numbering its own touches) declares 0 .. 65535 and every id it gives
 * is in that range (it kept the device's 0 .. 15 and gave the 20 taps ids
 * up to 19); all 20 taps come out whole.
 */
static void
test_tracking_id_range(void **state)
{
	(void)state;
	check_passes(rules_none, "gen/taps-20-touchpad-a-tracking.evemu", 0);
	assert_int_equal(got_t.n, 20);
	struct ut_recording *got = load(out_path);
	const struct input_absinfo *tid = libevdev_get_abs_info(got->dev, ABS_MT_TRACKING_ID);
	int max = -1;

	assert_non_null(tid);
	assert_int_equal(tid->minimum, 0);
	assert_int_equal(tid->maximum, 65535);
	for (size_t i = 0; i < got->nevents; i++)
		if (got->events[i].type == EV_ABS && got->events[i].code == ABS_MT_TRACKING_ID &&
		    got->events[i].value > max)
			max = got->events[i].value;
	assert_int_equal(max, 19);
	ut_recording_free(got);
}

/* A gesture a rule takes is consumed: its touches never reach the clone. */
static void
test_consumed(void **state)
{
	int nactions;

	(void)state;
	run_daemon(rules_3, "touchscreen/drag-3.evemu", &nactions);
	assert_int_equal(nactions, 1);
	assert_int_equal(output_events(), 0);
}

/* The same on a touchpad. */
static void
test_consumed_touchpad(void **state)
{
	int nactions;

	(void)state;
	run_daemon(rules_3, "touchpad/drag-3.evemu", &nactions);
	assert_int_equal(nactions, 1);
	assert_int_equal(output_events(), 0);
}

/* Without rules nothing is held: every position, unchanged. */
static void
test_no_rules_exact(void **state)
{
	(void)state;
	check_passes(rules_none, "touchscreen/drag-2.evemu", 1);
	check_passes(rules_none, "touchpad/tap-3.evemu", 1);
}

/* Gestures no rule takes are replayed whole and in order. */
static void
test_unconsumed_whole(void **state)
{
	(void)state;
	check_passes(rules_3, "touchscreen/drag-1.evemu", 0);
	check_passes(rules_3, "touchscreen/tap-3.evemu", 0);
	check_passes(rules_3, "touchscreen/drag-2.evemu", 0);
	check_passes(rules_3, "touchscreen/pinch-2.evemu", 0);
	check_passes(rules_3, "touchpad/tap-2.evemu", 0);
	check_passes(rules_3, "touchscreen-a/drag-2.evemu", 0);
}

/*
 * The daemon's death gives everything back: killed (SIGKILL) while a
 * touch is held and an action it started still runs, its clone (here a
 * FIFO standing for the uinput node, through the preloaded fake) loses
 * its last writer at once: no descriptor of the daemon's lives on in the
 * action.  A real device's grab belongs to a descriptor opened the same
 * way (close-on-exec), which the kernel drops the same way.
 */
static void
test_death_releases(void **state)
{
	char cfg[300], rec[512], node[300], pidfile[300], err[300], rules[512];
	FILE *fp;

	(void)state;
	if (!preload_module) {
		skip();
		return;
	}
	snprintf(cfg, sizeof(cfg), "%s/gestures.yaml", tmp);
	snprintf(rec, sizeof(rec), "%s/touchscreen/hold-1.evemu", rec_dir);
	snprintf(node, sizeof(node), "%s/uinput", tmp);
	snprintf(pidfile, sizeof(pidfile), "%s/action.pid", tmp);
	snprintf(err, sizeof(err), "%s/daemon.err", tmp);
	snprintf(rules, sizeof(rules),
		 "gestures:\n"
		 "  - {gesture: hold, fingers: 1, time: 100, command: 'echo $$ > %s; exec sleep 30'}\n"
		 "  - {gesture: hold, fingers: 2, time: 5000, command: 'true'}\n", pidfile);
	unlink(node);
	unlink(pidfile);
	fp = fopen(cfg, "w");
	assert_non_null(fp);
	fputs(rules, fp);
	fclose(fp);
	assert_int_equal(mkfifo(node, 0600), 0);
	int rd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	assert_true(rd >= 0);
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		if (!freopen(err, "w", stderr))
			_exit(127);
		setenv("LD_PRELOAD", preload_module, 1);
		setenv("UTOUCH_TEST_FAKE_UINPUT", node, 1);
		setenv("ASAN_OPTIONS", "verify_asan_link_order=0", 1);
		execl(daemon_exe, daemon_exe, "--backend", "evdev", "--config", cfg, "--recording",
		      rec, "--proxy", "--uinput", node, (char *)NULL);
		_exit(127);
	}
	/* the action runs (the finger is still down: the recording lasts 2 s) */
	long action = 0;

	for (int i = 0; i < 300 && action <= 0; i++) {
		usleep(10 * 1000);
		fp = fopen(pidfile, "r");
		if (fp) {
			if (fscanf(fp, "%ld", &action) != 1)
				action = 0;
			fclose(fp);
		}
	}
	assert_true(action > 0);
	assert_int_equal(kill(pid, SIGKILL), 0);
	int st;

	assert_int_equal(waitpid(pid, &st, 0), pid);
	/* the action lives on, the clone does not */
	assert_int_equal(kill((pid_t)action, 0), 0);
	struct pollfd p = { .fd = rd, .events = POLLIN };
	char buf[4096];
	ssize_t r = 1;

	for (int i = 0; i < 100 && r != 0; i++) {
		assert_true(poll(&p, 1, 10) >= 0);
		r = read(rd, buf, sizeof(buf));
		if (r < 0 && errno == EAGAIN)
			r = 1;   /* a writer is still there */
	}
	kill((pid_t)action, SIGKILL);
	close(rd);
	assert_int_equal(r, 0);
}

/* Four fingers with only 3-finger rules: no action, four whole touches,
 * complete and in order, that utouch's evdev reader takes without a
 * warning.  This is grail's whole-hand rule (UTOUCH_GEIS_CONFIG_WHOLE_HAND,
 * which the daemon sets on its subscriptions); without it the 3-finger
 * action ran once per 3-finger subset (4 times) and the clone got 1 of
 * the 4 touches.  Ten fingers (storm-10) and a touchpad the same. */
static void
test_four_fingers_three_finger_rules(void **state)
{
	(void)state;
	check_passes(rules_3, "touchscreen/drag-4.evemu", 0);
	check_passes(rules_3, "touchscreen/storm-10.evemu", 0);
	check_passes(rules_3, "touchpad/drag-4.evemu", 0);
}

/*
 * More fingers than the rule wants, as users put them down: 4 and 5
 * fingers swiping together, tapping, and landing 5, 20, 50 and 150 ms
 * apart (resting, then swiping; swiping as they land), on a touchscreen
 * and a touchpad, with one 3-finger swipe rule: it never runs, and the
 * clone gets every touch exactly once, whole from its landing to its
 * lift, in order, in a valid stream.
 */
static void
test_more_fingers_staggered(void **state)
{
	static const char *const scn[] = {
		"more-fingers", "stagger-5", "stagger-20", "stagger-50", "stagger-150",
	};
	static const char *const dev[] = { "touchscreen", "touchpad" };

	(void)state;
	for (size_t i = 0; i < sizeof(scn) / sizeof(scn[0]); i++) {
		for (size_t k = 0; k < 2; k++) {
			char rel[128];

			snprintf(rel, sizeof(rel), "gen/%s-%s.evemu", scn[i], dev[k]);
			check_passes(rules_3, rel, 0);
			assert_int_equal(got_t.n, 18);   /* every scenario puts 18 down */
		}
	}
}

/*
 * A fourth finger lands 300 ms into a 3-finger swipe the rule took: the
 * rule runs once, the swipe's touches never reach the clone, and the
 * late finger reaches it whole (its landing, every position, its lift).
 */
static void
test_late_finger(void **state)
{
	static const char *const dev[] = { "touchscreen", "touchpad" };

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		char rel[128], path[512];
		int nactions;

		snprintf(rel, sizeof(rel), "gen/late-finger-%s.evemu", dev[k]);
		rec_file(path, sizeof(path), rel);
		run_daemon(rules_3, rel, &nactions);
		assert_int_equal(nactions, 1);
		struct ut_recording *orig = load(path), *got = load(out_path);

		read_recording(orig, &orig_t, 0);
		read_recording(got, &got_t, 1);
		assert_int_equal(orig_t.n, 4);
		assert_int_equal(got_t.n, 1);
		assert_true(got_t.ended[0]);
		assert_int_equal(got_t.npos[0], orig_t.npos[3]);
		for (int p = 0; p < orig_t.npos[3]; p++) {
			assert_int_equal(got_t.x[0][p], orig_t.x[3][p]);
			assert_int_equal(got_t.y[0][p], orig_t.y[3][p]);
		}
		ut_recording_free(orig);
		ut_recording_free(got);
	}
}

static const char rules_workspace[] =
	"gestures:\n"
	"  - {gesture: swipe, fingers: 4, direction: up, command: echo up >> \"$ACTIONS\"}\n"
	"  - {gesture: swipe, fingers: 4, direction: left, command: echo left >> \"$ACTIONS\"}\n"
	"  - {gesture: swipe, fingers: 4, direction: right, command: echo right >> \"$ACTIONS\"}\n"
	"  - {gesture: swipe, fingers: 3, command: echo three >> \"$ACTIONS\"}\n";

/* A four-finger spread on a map whose centre drifts 12 mm up (more than
 * the 8 mm swipe threshold) switches no workspace: its spread changes by
 * more than half its travel, so it is no swipe; the map gets all four
 * touches whole.  A four-finger swipe still is one, consumed. */
static void
test_spread_is_no_swipe(void **state)
{
	int nactions;

	(void)state;
	check_passes(rules_workspace, "touchscreen/spread-4-drift.evemu", 0);
	run_daemon(rules_workspace, "touchscreen/drag-4.evemu", &nactions);
	assert_int_equal(nactions, 1);
	assert_int_equal(output_events(), 0);
	FILE *fp = fopen(actions_log, "r");
	char line[64] = "";

	assert_non_null(fp);
	assert_non_null(fgets(line, sizeof(line), fp));
	fclose(fp);
	assert_string_equal(line, "right\n");
}

/* With whole-hand off (grail 3.1's subsets) the four 3-finger subsets of
 * drag-4 are candidates; the first accepted takes the touches and grail
 * cancels the others, whose accepts then fail: one action, not four (the
 * daemon ran an action after a failed accept). */
static void
test_no_action_after_failed_accept(void **state)
{
	int nactions;
	char rules[512];

	(void)state;
	snprintf(rules, sizeof(rules), "settings: {whole-hand: false}\n%s", rules_3);
	run_daemon(rules, "touchscreen/drag-4.evemu", &nactions);
	assert_int_equal(nactions, 1);
}

/* ---- signals while touches are down: the recording plays in real
 * time, the daemon's log (-v) says when the fingers have landed ---- */

static char err_path[300];

/* 1 once the daemon's log has @p what (5 s at most) */
static int
log_has(const char *what)
{
	for (int i = 0; i < 500; i++) {
		FILE *fp = fopen(err_path, "r");
		char line[1024];
		int found = 0;

		if (fp) {
			while (!found && fgets(line, sizeof(line), fp))
				found = strstr(line, what) != NULL;
			fclose(fp);
		}
		if (found)
			return 1;
		usleep(10 * 1000);
	}
	return 0;
}

/* Start the daemon on @p rules playing @p rel in real time as the grabbed
 * device, the clone written to out_path. */
static pid_t
start_live(const char *rules, const char *rel)
{
	char cfg[300], rec[512];
	FILE *fp;

	snprintf(cfg, sizeof(cfg), "%s/gestures.yaml", tmp);
	rec_file(rec, sizeof(rec), rel);
	snprintf(out_path, sizeof(out_path), "%s/out.evemu", tmp);
	snprintf(err_path, sizeof(err_path), "%s/daemon.err", tmp);
	snprintf(actions_log, sizeof(actions_log), "%s/actions.log", tmp);
	unlink(out_path);
	unlink(actions_log);
	unlink(err_path);
	fp = fopen(cfg, "w");
	assert_non_null(fp);
	fputs(rules, fp);
	fclose(fp);
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		if (!freopen(err_path, "w", stderr))
			_exit(127);
		setenv("ACTIONS", actions_log, 1);
		execl(daemon_exe, daemon_exe, "-v", "--backend", "evdev", "--config", cfg,
		      "--recording", rec, "--proxy-output", out_path, (char *)NULL);
		_exit(127);
	}
	return pid;
}

static int
lines_of(const char *path)
{
	FILE *fp = fopen(path, "r");
	int n = 0, c;

	if (!fp)
		return 0;
	while ((c = fgetc(fp)) != EOF)
		n += c == '\n';
	fclose(fp);
	return n;
}

/* The clone after the daemon ended: @p n touches, each begun where the
 * recording's began and ended, in a valid stream. */
static void
assert_clone_ended(const char *rel, int n)
{
	char path[512];

	rec_file(path, sizeof(path), rel);
	struct ut_recording *orig = load(path), *got = load(out_path);

	read_recording(orig, &orig_t, 0);
	read_recording(got, &got_t, 1);   /* strict: every touch ended, closed */
	assert_int_equal(got_t.n, n);
	for (int i = 0; i < n; i++) {
		assert_true(got_t.ended[i]);
		assert_int_equal(got_t.x[i][0], orig_t.x[i][0]);
		assert_int_equal(got_t.y[i][0], orig_t.y[i][0]);
	}
	ut_recording_free(orig);
	ut_recording_free(got);
}

static int
wait_exit(pid_t pid)
{
	int st;

	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/*
 * SIGTERM and SIGINT while the daemon holds three resting fingers it has
 * not decided (a swipe, or a hold of 5 s): it exits 0, and the clone,
 * which had nothing of them, gets the three touches from where they
 * landed and their ends, closed by a SYN_REPORT; no action runs.
 */
static void
test_signal_while_deciding(void **state)
{
	static const int sigs[] = { SIGTERM, SIGINT };
	static const char rules[] =
		"gestures:\n"
		"  - {gesture: swipe, fingers: 3, command: echo swipe >> \"$ACTIONS\"}\n"
		"  - {gesture: hold, fingers: 3, time: 5000, command: echo hold >> \"$ACTIONS\"}\n";

	(void)state;
	for (int k = 0; k < 2; k++) {
		pid_t pid = start_live(rules, "gen/rest-3-touchscreen.evemu");

		assert_true(log_has("3-finger hold"));
		usleep(100 * 1000);
		assert_int_equal(output_events(), 0);
		assert_int_equal(kill(pid, sigs[k]), 0);
		assert_int_equal(wait_exit(pid), 0);
		assert_clone_ended("gen/rest-3-touchscreen.evemu", 3);
		assert_int_equal(lines_of(actions_log), 0);
	}
}

/* SIGINT and SIGTERM while a touch no rule takes is on the clone: it is
 * ended there, in a closed report, and the daemon exits 0. */
static void
test_signal_while_forwarded(void **state)
{
	static const int sigs[] = { SIGINT, SIGTERM };

	(void)state;
	for (int k = 0; k < 2; k++) {
		pid_t pid = start_live(rules_3, "touchscreen/hold-1.evemu");

		/* one finger on 3-finger rules: on the clone after 60 ms */
		/* (the daemon may be writing the file's header still) */
		int header;

		for (int i = 0; i < 500 && count_events(&header) <= 0; i++)
			usleep(10 * 1000);
		assert_true(output_events() > 0);
		assert_int_equal(kill(pid, sigs[k]), 0);
		assert_int_equal(wait_exit(pid), 0);
		assert_clone_ended("touchscreen/hold-1.evemu", 1);
	}
}

/*
 * SIGHUP with a broken file while three fingers rest undecided: the
 * error is reported with its line and column, the previous rules are
 * kept: the fingers' hold runs its rule, and so does the next hold; the
 * clone gets nothing of either (both taken), nothing is lost.
 */
static void
test_sighup_broken_while_held(void **state)
{
	static const char rules[] =
		"gestures:\n"
		"  - {gesture: hold, fingers: 3, time: 200, command: echo hold >> \"$ACTIONS\"}\n";
	char cfg[300];

	(void)state;
	pid_t pid = start_live(rules, "gen/rest-3-touchscreen.evemu");

	assert_true(log_has("3-finger hold"));
	snprintf(cfg, sizeof(cfg), "%s/gestures.yaml", tmp);
	FILE *fp = fopen(cfg, "w");

	assert_non_null(fp);
	fputs("gestures:\n  - {gesture: hold, fingers: 3, comand: x}\n", fp);
	fclose(fp);
	assert_int_equal(kill(pid, SIGHUP), 0);
	assert_true(log_has("keeping the previous configuration"));
	assert_true(log_has("gestures.yaml:2:"));
	assert_int_equal(wait_exit(pid), 0);
	assert_int_equal(lines_of(actions_log), 2);
	assert_int_equal(output_events(), 0);
}

/* SIGTERM while a touch is held (a long hold rule): the touch was not on
 * the clone before, and the daemon replays it before it exits. */
static void
test_sigterm_releases_held(void **state)
{
	const char rules[] = "gestures:\n"
			     "  - {gesture: hold, fingers: 1, time: 5000, command: 'true'}\n";

	(void)state;
	pid_t pid = start_live(rules, "touchscreen/hold-1.evemu");

	/* the finger is down (the recording lasts 2 s), held */
	assert_true(log_has("1-finger hold"));
	usleep(100 * 1000);
	assert_int_equal(output_events(), 0);
	assert_int_equal(kill(pid, SIGTERM), 0);
	assert_int_equal(wait_exit(pid), 0);
	struct ut_recording *got = load(out_path);
	char rec[512];

	rec_file(rec, sizeof(rec), "touchscreen/hold-1.evemu");
	struct ut_recording *orig = load(rec);

	read_recording(got, &got_t, 1);
	read_recording(orig, &orig_t, 0);
	assert_int_equal(got_t.n, 1);
	assert_true(got_t.ended[0]);
	assert_int_equal(got_t.x[0][0], orig_t.x[0][0]);
	assert_int_equal(got_t.y[0][0], orig_t.y[0][0]);
	ut_recording_free(got);
	ut_recording_free(orig);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_consumed),
		cmocka_unit_test(test_consumed_touchpad),
		cmocka_unit_test(test_no_rules_exact),
		cmocka_unit_test(test_report_by_report),
		cmocka_unit_test(test_tracking_id_range),
		cmocka_unit_test(test_unconsumed_whole),
		cmocka_unit_test(test_sigterm_releases_held),
		cmocka_unit_test(test_death_releases),
		cmocka_unit_test(test_spread_is_no_swipe),
		cmocka_unit_test(test_no_action_after_failed_accept),
		cmocka_unit_test(test_four_fingers_three_finger_rules),
		cmocka_unit_test(test_more_fingers_staggered),
		cmocka_unit_test(test_late_finger),
		cmocka_unit_test(test_signal_while_deciding),
		cmocka_unit_test(test_signal_while_forwarded),
		cmocka_unit_test(test_sighup_broken_while_held),
	};
	if (argc != 5) {
		fprintf(stderr, "usage: %s DAEMON RECORDINGS_DIR FAKE_UINPUT_MODULE GENERATED_DIR\n",
			argv[0]);
		return 2;
	}
	daemon_exe = argv[1];
	rec_dir = argv[2];
	preload_module = argv[3];
	gen_dir = argv[4];
	snprintf(tmp, sizeof(tmp), "/tmp/gestured-proxy-XXXXXX");
	if (!mkdtemp(tmp))
		return 1;
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		rc = rc ? rc : 1;
	return rc;
}
