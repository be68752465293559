/*
 * utouch-gestured's actions without X: "keys" through a uinput keyboard
 * and "click" through a uinput absolute pointer.  The "uinput node" is a
 * regular file and this program's ioctl() answers the uinput ioctls on
 * it, so the test sees the devices made and every event written.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/uinput.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "gd-actions.h"
#include "gd-config.h"
#include "gd-daemon.h"
#include "gd-keys.h"
#include "fake-evdev.h"
#include "fake-uinput.h"
#include "input/recording/recording.h"
#include "test-support.h"

static char dir[64], node[128];
/* Key names map to Linux keys: modifiers, X keysym names, KEY_ names. */
static void
test_key_names(void **state)
{
	int codes[GD_KEYS_MAX];
	char err[256];

	(void)state;
	assert_int_equal(gd_keys_parse_evdev("ctrl+alt+Left", codes, err, sizeof(err)), 3);
	assert_int_equal(codes[0], KEY_LEFTCTRL);
	assert_int_equal(codes[1], KEY_LEFTALT);
	assert_int_equal(codes[2], KEY_LEFT);
	assert_int_equal(gd_keys_parse_evdev("super + Page_Down", codes, err, sizeof(err)), 2);
	assert_int_equal(codes[0], KEY_LEFTMETA);
	assert_int_equal(codes[1], KEY_PAGEDOWN);
	assert_int_equal(gd_keys_parse_evdev("XF86AudioRaiseVolume", codes, err, sizeof(err)), 1);
	assert_int_equal(codes[0], KEY_VOLUMEUP);
	assert_int_equal(gd_keys_parse_evdev("shift+F5+a+Return", codes, err, sizeof(err)), 4);
	assert_int_equal(codes[1], KEY_F5);
	assert_int_equal(codes[2], KEY_A);
	assert_int_equal(codes[3], KEY_ENTER);
	assert_int_equal(gd_keys_parse_evdev("KEY_BRIGHTNESSUP", codes, err, sizeof(err)), 1);
	assert_int_equal(codes[0], KEY_BRIGHTNESSUP);
	assert_int_equal(gd_keys_parse_evdev("ctrl+Frobnicate", codes, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown key \"Frobnicate\""));
}

static const struct gd_gesture_info info = {
	.kind = GD_HOLD, .fingers = 1, .dir = GD_DIR_ANY, .device = GD_DEV_TOUCHSCREEN,
	.app_instance = "", .app_class = "", .x = 512, .y = 192, .fx = 0.5, .fy = 0.25,
};

/* "keys" without X: the keyboard is made once, keys pressed in order and
 * released in reverse order, each in a report of its own. */
static void
test_keys_uinput(void **state)
{
	struct gd_rule rule = { .line = 3, .kind = GD_HOLD, .fingers = 1,
				.action = GD_ACT_KEYS, .arg = (char *)"ctrl+shift+a" };
	static const int want[][2] = {
		{ KEY_LEFTCTRL, 1 }, { KEY_LEFTSHIFT, 1 }, { KEY_A, 1 },
		{ KEY_A, 0 }, { KEY_LEFTSHIFT, 0 }, { KEY_LEFTCTRL, 0 },
	};
	size_t n;

	(void)state;
	assert_int_equal(fu_reset(), 0);
	struct gd_actions *a = gd_actions_new(0, NULL, NULL);

	gd_actions_set_uinput(a, node);
	assert_int_equal(gd_actions_run(a, &rule, &info), 0);
	assert_int_equal(fu_count(UI_DEV_CREATE), 1);
	assert_string_equal(fu_calls[fu_find(UI_DEV_SETUP, -1, 0)].name, "utouch-gestured keyboard");
	assert_true(fu_count(UI_SET_KEYBIT) > 100);
	struct input_event *ev = fu_written(&n);

	assert_non_null(ev);

	assert_int_equal(n, 12);
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(ev[2 * i].type, EV_KEY);
		assert_int_equal(ev[2 * i].code, want[i][0]);
		assert_int_equal(ev[2 * i].value, want[i][1]);
		assert_int_equal(ev[2 * i + 1].type, EV_SYN);
	}
	free(ev);
	/* a second run uses the same keyboard */
	assert_int_equal(gd_actions_run(a, &rule, &info), 0);
	assert_int_equal(fu_count(UI_DEV_CREATE), 1);
	gd_actions_free(a);
	assert_int_equal(fu_count(UI_DEV_DESTROY), 1);
}

/* "click: right" without X: the pointer moves to where the gesture began
 * (absolute, fractions of 65535) and clicks there. */
static void
test_click_uinput(void **state)
{
	struct gd_rule rule = { .line = 4, .kind = GD_HOLD, .fingers = 1,
				.action = GD_ACT_CLICK, .arg = (char *)"right" };
	size_t n;

	(void)state;
	assert_int_equal(fu_reset(), 0);
	struct gd_actions *a = gd_actions_new(0, NULL, NULL);

	gd_actions_set_uinput(a, node);
	assert_int_equal(gd_actions_run(a, &rule, &info), 0);
	assert_string_equal(fu_calls[fu_find(UI_DEV_SETUP, -1, 0)].name, "utouch-gestured pointer");
	assert_int_equal(fu_count(UI_SET_ABSBIT), 2);
	struct input_event *ev = fu_written(&n);

	assert_non_null(ev);

	assert_int_equal(n, 7);
	assert_int_equal(ev[0].code, ABS_X);
	assert_int_equal(ev[0].value, 32768);
	assert_int_equal(ev[1].code, ABS_Y);
	assert_int_equal(ev[1].value, 16384);
	assert_int_equal(ev[2].type, EV_SYN);
	assert_int_equal(ev[3].code, BTN_RIGHT);
	assert_int_equal(ev[3].value, 1);
	assert_int_equal(ev[5].code, BTN_RIGHT);
	assert_int_equal(ev[5].value, 0);
	free(ev);
	gd_actions_free(a);
}

/* No node: the action fails with a message that says what to do. */
static void
test_no_node(void **state)
{
	struct gd_rule rule = { .line = 4, .kind = GD_HOLD, .fingers = 1,
				.action = GD_ACT_CLICK, .arg = (char *)"left" };

	(void)state;
	struct gd_actions *a = gd_actions_new(0, NULL, NULL);

	gd_actions_set_uinput(a, "/nonexistent/uinput");
	assert_int_equal(gd_actions_run(a, &rule, &info), -1);
	gd_actions_free(a);
}

/* The click action in a configuration, and its dry-run line. */
static void
test_click_config(void **state)
{
	char path[200], err[512], out[512] = "";
	FILE *fp;

	(void)state;
	snprintf(path, sizeof(path), "%s/g.yaml", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("gestures:\n  - {gesture: hold, fingers: 1, click: right}\n", fp);
	fclose(fp);
	struct gd_config *c = gd_config_load(path, err, sizeof(err));

	assert_non_null(c);
	assert_int_equal(c->rules[0].action, GD_ACT_CLICK);
	assert_string_equal(c->rules[0].arg, "right");
	FILE *mem = fmemopen(out, sizeof(out), "w");
	struct gd_actions *a = gd_actions_new(1, mem, NULL);

	assert_int_equal(gd_actions_run(a, &c->rules[0], &info), 0);
	fclose(mem);
	assert_non_null(strstr(out, "click hold fingers=1"));
	assert_non_null(strstr(out, ": right (rule at line 2)"));
	gd_actions_free(a);
	gd_config_free(c);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("gestures:\n  - {gesture: hold, fingers: 1, click: up}\n", fp);
	fclose(fp);
	assert_null(gd_config_load(path, err, sizeof(err)));
	assert_non_null(strstr(err, "g.yaml:2:40: \"click\": unknown button \"up\" (left, middle "
				    "or right)"));
}

static pid_t holder;   /* holds the busy device open, 0: none */

static int
kill_holder(void **state)
{
	(void)state;
	fe_hold_stop(&holder);
	return 0;
}

/* What the daemon writes on stderr while @p fn runs with @p arg. */
static void
capture_stderr(char *buf, size_t size, void (*fn)(void *), void *arg)
{
	char path[200];
	snprintf(path, sizeof(path), "%s/stderr", dir);
	int fd = open(path, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	fflush(stderr);
	int saved = dup(2);
	assert_true(saved >= 0);
	dup2(fd, 2);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ssize_t n = pread(fd, buf, size - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
}

struct start {
	struct gd_options opts;
	struct gd_daemon *d;
	char err[512];
};

static void
start_daemon(void *arg)
{
	struct start *st = arg;
	st->d = gd_daemon_new(&st->opts, st->err, sizeof(st->err));
	for (int i = 0; st->d && i < 5; i++)
		gd_daemon_step(st->d, 2);
}

/* The proxy at the daemon's start, one device held by another program
 * (EBUSY once its clone exists): the daemon says which device and who
 * holds it, removes that clone, proxies the other device and runs. */
static void
test_proxy_grab_busy(void **state)
{
	(void)state;
	struct ut_recording *rec = ut_test_load_recording("touchscreen/drag-2.evemu");
	char devdir[160], cfg[200];
	struct fe_fifo fifos[2];
	snprintf(devdir, sizeof(devdir), "%s/dev", dir);
	snprintf(cfg, sizeof(cfg), "%s/gestures.yaml", dir);
	assert_int_equal(mkdir(devdir, 0700), 0);
	FILE *fp = fopen(cfg, "w");
	assert_non_null(fp);
	fputs("gestures:\n  - {gesture: swipe, fingers: 3, direction: up, command: \"true\"}\n", fp);
	fclose(fp);
	assert_int_equal(fu_reset(), 0);
	fe_reset();
	fu_set_chain(fe_try_ioctl);
	fe_fifo_open(fifos, 2, devdir, rec->dev);
	struct fe_device *bad = fifos[0].dev, *good = fifos[1].dev;
	bad->fail_grab = EBUSY;
	holder = fe_hold_open(fifos[0].path);
	int fds_before = fe_open_fds(NULL);

	struct start st = { .opts = { .config_path = cfg, .backend = GD_BACKEND_EVDEV,
				      .evdev_dir = devdir, .proxy = 1, .uinput = node,
				      .dry_run = 1 } };
	char log[4096];
	capture_stderr(log, sizeof(log), start_daemon, &st);
	if (!st.d)
		fail_msg("gd_daemon_new: %s\n%s", st.err, log);
	char want[400];
	snprintf(want, sizeof(want), "%s: cannot grab: another program holds the device (it is "
		 "open in ", fifos[0].path);
	if (!strstr(log, want) || !strstr(log, "stop it to let utouch have the device"))
		fail_msg("no message naming %s and its holder:\n%s", fifos[0].path, log);
	assert_int_equal(fu_count(UI_DEV_CREATE), 2);
	assert_int_equal(fu_count(UI_DEV_DESTROY), 1);
	assert_int_equal(fe_open_fds(node), 1);
	assert_int_equal(good->grab, 1);
	assert_int_equal(bad->grab, 0);
	gd_daemon_free(st.d);
	fu_set_chain(NULL);
	assert_int_equal(fu_count(UI_DEV_DESTROY), 2);
	assert_int_equal(fe_open_fds(node), 0);
	assert_int_equal(fe_open_fds(NULL), fds_before);
	fe_fifo_close(fifos, 2);
	rmdir(devdir);
	unlink(cfg);
	ut_recording_free(rec);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_names),
		cmocka_unit_test(test_keys_uinput),
		cmocka_unit_test(test_click_uinput),
		cmocka_unit_test(test_no_node),
		cmocka_unit_test(test_click_config),
		cmocka_unit_test_teardown(test_proxy_grab_busy, kill_holder),
	};
	snprintf(dir, sizeof(dir), "/tmp/gestured-uinput-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(node, sizeof(node), "%s/uinput", dir);
	fu_set_node(node);
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		rc = rc ? rc : 1;
	return rc;
}
