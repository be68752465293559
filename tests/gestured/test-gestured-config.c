/*
 * utouch-gestured: configuration parser and rule matcher unit tests.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "gd-config.h"
#include "gd-rules.h"

static struct gd_config *
parse(const char *text, char *err, size_t errlen)
{
	return gd_config_parse("test.yaml", text, strlen(text), err, errlen);
}

static void
test_full_rule(void **state)
{
	(void)state;
	char err[512];
	struct gd_config *c = parse("settings:\n"
				    "  swipe-threshold: 12mm\n"
				    "  hold-time: 700\n"
				    "gestures:\n"
				    "  - gesture: swipe\n"
				    "    fingers: 3\n"
				    "    direction: Left\n"
				    "    device: touchscreen\n"
				    "    app: Firefox\n"
				    "    edge: right\n"
				    "    edge-size: 5\n"
				    "    timeout: 300 ms\n"
				    "    distance: 25\n"
				    "    repeat: yes\n"
				    "    interval: 150\n"
				    "    command: echo hi\n"
				    "  - gesture: hold\n"
				    "    fingers: 2\n"
				    "    command: ctrl+alt+Delete\n"
				    "  - gesture: drag\n"
				    "    fingers: 1\n"
				    "    continuous: cat\n",
				    err, sizeof(err));
	assert_non_null(c);
	assert_int_equal(c->nrules, 3);
	const struct gd_rule *r = &c->rules[0];
	assert_int_equal(r->line, 5);
	assert_int_equal(r->kind, GD_SWIPE);
	assert_int_equal(r->fingers, 3);
	assert_int_equal(r->dir, GD_DIR_LEFT);
	assert_int_equal(r->device, GD_DEV_TOUCHSCREEN);
	assert_string_equal(r->app, "Firefox");
	assert_int_equal(r->edge, GD_EDGE_RIGHT);
	assert_true(fabs(r->edge_mm - 5) < 1e-9);
	assert_true(fabs(r->threshold - 12) < 1e-9);   /* from settings */
	assert_int_equal(r->timeout_ms, 300);
	assert_true(fabs(r->distance - 25) < 1e-9);
	assert_int_equal(r->repeat, 1);
	assert_int_equal(r->interval_ms, 150);
	assert_int_equal(r->action, GD_ACT_COMMAND);
	assert_string_equal(r->arg, "echo hi");
	r = &c->rules[1];
	assert_int_equal(r->kind, GD_HOLD);
	assert_int_equal(r->hold_ms, 700);
	assert_true(fabs(r->threshold - 4) < 1e-9);     /* built-in default */
	assert_int_equal(r->action, GD_ACT_COMMAND);
	assert_null(r->app);
	r = &c->rules[2];
	assert_int_equal(r->kind, GD_SWIPE);            /* "drag" is a swipe */
	assert_int_equal(r->dir, GD_DIR_ANY);
	assert_int_equal(r->action, GD_ACT_CONTINUOUS);
	gd_config_free(c);
}

/* key combinations: XTest on X11, the uinput keyboard without it */
static void
test_keys(void **state)
{
	(void)state;
	char err[512];
	struct gd_config *c = parse("gestures:\n"
				    "  - {gesture: tap, fingers: 2, keys: ctrl + alt+Delete}\n",
				    err, sizeof(err));
	assert_non_null(c);
	assert_int_equal(c->rules[0].action, GD_ACT_KEYS);
	assert_string_equal(c->rules[0].arg, "ctrl + alt+Delete");
	gd_config_free(c);
}

static void
test_empty(void **state)
{
	(void)state;
	char err[256];
	const char *texts[] = { "", "# nothing\n", "gestures:\n", "settings:\n  hold-time: 400\n" };
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct gd_config *c = parse(texts[i], err, sizeof(err));
		assert_non_null(c);
		assert_int_equal(c->nrules, 0);
		gd_config_free(c);
	}
}

/* each broken file gives exactly this message */
static void
test_errors(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		const char *msg;
	} cases[] = {
		{ "gestures:\n  - gesture: swipe\n    fingers: [3\n",
		  "test.yaml:4:1: did not find expected ',' or ']' while parsing a flow sequence" },
		{ "- a\n- b\n", "test.yaml:1:1: the file must be a mapping with \"gestures\" (and \"settings\")" },
		{ "gesture:\n", "test.yaml:1:1: unknown top-level key \"gesture\" (\"gestures\" or \"settings\")" },
		{ "gestures: 3\n", "test.yaml:1:11: \"gestures\" must be a list of rules" },
		{ "gestures:\n  - swipe\n",
		  "test.yaml:2:5: a gesture rule must be a mapping (gesture:, fingers:, an action)" },
		{ "gestures:\n  - gesture: swipe\n    fingers: 3\n    direction: upp\n    command: x\n",
		  "test.yaml:4:16: \"direction\": unknown value \"upp\" (one of any, up, down, left, right, in, out, cw, ccw, up-left, up-right, down-left, down-right)" },
		{ "gestures:\n  - gesture: swipe\n    fingers: 6\n    command: x\n",
		  "test.yaml:3:14: \"fingers\": 6 is out of range (1 to 5)" },
		{ "gestures:\n  - gesture: swipe\n    fingers: 2.5\n    command: x\n",
		  "test.yaml:3:14: \"fingers\": 2.5 is not a whole number" },
		{ "gestures:\n  - gesture: swipe\n    fingers: three\n    command: x\n",
		  "test.yaml:3:14: \"fingers\": \"three\" is not a number" },
		{ "gestures:\n  - gesture: swipe\n    command: x\n",
		  "test.yaml:2:5: the rule has no \"fingers\" (1 to 5)" },
		{ "gestures:\n  - fingers: 2\n    command: x\n",
		  "test.yaml:2:5: the rule has no \"gesture\" (swipe, pinch, rotate, tap or hold)" },
		{ "gestures:\n  - gesture: tap\n    fingers: 2\n",
		  "test.yaml:2:5: the rule has no action (\"command\", \"keys\", \"click\" or \"continuous\")" },
		{ "gestures:\n  - gesture: tap\n    fingers: 2\n    command: a\n    keys: b\n",
		  "test.yaml:5:11: a rule has one action; \"keys\" comes after another" },
		/* a unit that is the other gesture's (both are units of the key) */
		{ "gestures:\n  - gesture: swipe\n    fingers: 2\n    threshold: 20deg\n    command: x\n",
		  "test.yaml:4:16: \"threshold\": a swipe is measured in mm, not deg" },
		{ "gestures:\n  - gesture: rotate\n    fingers: 2\n    distance: 5 mm\n    continuous: x\n",
		  "test.yaml:4:15: \"distance\": a rotate is measured in deg, not mm" },
		/* YAML's null is no command (it ran "~" or "null" as a shell command) */
		{ "gestures:\n  - gesture: tap\n    fingers: 2\n    command: ~\n",
		  "test.yaml:4:14: \"command\" is empty (YAML's null; quote it to mean the text)" },
		{ "gestures:\n  - gesture: tap\n    fingers: 2\n    continuous: null\n",
		  "test.yaml:4:17: \"continuous\" is empty (YAML's null; quote it to mean the text)" },
		{ "gestures:\n  - gesture: pinch\n    fingers: 2\n    direction: up\n    command: x\n",
		  "test.yaml:4:16: a pinch has no direction \"up\"" },
		{ "gestures:\n  - gesture: tap\n    fingers: 2\n    colour: red\n    command: x\n",
		  "test.yaml:4:5: unknown rule key \"colour\"" },
		{ "gestures:\n  - gesture: tap\n    fingers: 2\n    continuous: x\n",
		  "test.yaml:4:17: a tap has no progress to follow; use \"command\", \"keys\" or \"click\"" },
		{ "gestures:\n  - gesture: pinch\n    fingers: 2\n    edge: left\n    command: x\n",
		  "test.yaml:4:11: only swipes can start at an edge" },
		{ "gestures:\n  - gesture: swipe\n    fingers: 2\n    time: 300\n    command: x\n",
		  "test.yaml:4:11: \"time\" is for holds" },
		{ "gestures:\n  - gesture: swipe\n    fingers: 2\n    repeat: maybe\n    command: x\n",
		  "test.yaml:4:13: \"repeat\": \"maybe\" is not true or false" },
		{ "gestures:\n  - gesture: swipe\n    fingers: 2\n    repeat: true\n    continuous: x\n",
		  "test.yaml:4:13: a continuous action follows the fingers; it cannot repeat" },
		{ "gestures:\n  - gesture: swipe\n    fingers: 2\n    app: \"\"\n    command: x\n",
		  "test.yaml:4:10: \"app\" is empty (leave it out to match every window)" },
		{ "gestures:\n  - gesture: swipe\n    fingers: 2\n    command: \"\"\n",
		  "test.yaml:4:14: \"command\" is empty" },
		{ "settings:\n  speed: 3\n", "test.yaml:2:3: unknown setting key \"speed\"" },
		{ "settings:\n  hold-time: -5\n",
		  "test.yaml:2:14: \"hold-time\": -5 is out of range (1 to 60000)" },
		{ "gestures:\n  - gesture: swipe\n    fingers: 3\n    keys: ctrl+Nosuchkey\n",
		  "test.yaml:4:11: \"keys\": unknown key \"Nosuchkey\" (X keysym names: Left, F5, a, Page_Down, XF86AudioRaiseVolume, ...; or Linux key names: KEY_VOLUMEUP)" },
		{ "gestures:\n  - gesture: swipe\n    fingers: 3\n    keys: ctrl++a\n",
		  "test.yaml:4:11: \"keys\": empty key name in \"ctrl++a\"" },
		{ "gestures:\n  - gesture: swipe\n    fingers: {a: 1}\n    command: x\n",
		  "test.yaml:3:14: \"fingers\" needs a single value" },
		{ "gestures: [\n",
		  "test.yaml:2:1: did not find expected node content while parsing a flow node" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[512] = "";
		struct gd_config *c = parse(cases[i].text, err, sizeof(err));
		if (c)
			fprintf(stderr, "case %zu parsed\n", i);
		assert_null(c);
		if (strcmp(err, cases[i].msg) != 0)
			fprintf(stderr, "case %zu:\n got  %s\n want %s\n", i, err, cases[i].msg);
		assert_string_equal(err, cases[i].msg);
	}
}

static void
test_load_file(void **state)
{
	(void)state;
	char path[] = "/tmp/gestured-config-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char *text = "gestures:\n  - gesture: rotate\n    fingers: 2\n    direction: cw\n"
			   "    command: x\n  - gesture: rotate\n    fingers: 2\n    direction: ccww\n";
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	char err[512], want[600];
	assert_null(gd_config_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want),
		 "%s:8:16: \"direction\": unknown value \"ccww\" (one of any, up, down, left, "
		 "right, in, out, cw, ccw, up-left, up-right, down-left, down-right)", path);
	assert_string_equal(err, want);
	unlink(path);
	assert_null(gd_config_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s: No such file or directory", path);
	assert_string_equal(err, want);
}

/* hostile or mistaken files: refused with the place and the reason */
static void
test_refused(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		size_t len;     /* 0: strlen */
		const char *where, *msg;
	} cases[] = {
		{ "gestures:\n  - {gesture: tap, fingers: 2, \"comm\\0and\": x}\n", 0,
		  "test.yaml:2:32: ", "a NUL character (\"\\0\") would cut the value short" },
		{ "gestures:\n  - {gesture: tap, fingers: 2, command: \"rm -rf /tmp/x\\0; echo\"}\n", 0,
		  "test.yaml:2:41: ", "a NUL character" },
		{ "gestures:\n  - gesture: tap\n    fingers: 2\n    command: a\n    command: b\n", 0,
		  "test.yaml:5:5: ", "\"command\" appears twice (first on line 4)" },
		{ "gestures: []\n---\ngestures: [{gesture: tap, fingers: 2, command: x}]\n", 0,
		  "test.yaml:2:1: ", "a second YAML document; a configuration is one document" },
		{ "gestures:\n  - gesture: swipe\n    fingers: 0x3\n    command: x\n", 0,
		  "test.yaml:3:14: ", "\"fingers\": \"0x3\" is not a number" },
		{ "gestures:\n  - gesture: swipe\n    fingers: 3\n    threshold: inf\n    command: x\n", 0,
		  "test.yaml:4:16: ", "\"threshold\": \"inf\" is not a number" },
		{ "gestures:\n  - gesture: swipe\n    fingers: 3\n    timeout: 5 mm\n    command: x\n", 0,
		  "test.yaml:4:14: ", "\"timeout\": \"5 mm\": the unit here is ms" },
		{ "gestures:\n  - gesture: swipe\n    fingers: 3\n    distance: 1e400\n    command: x\n", 0,
		  "test.yaml:4:15: ", "\"distance\": 1e400 is out of range (0.1 to 10000)" },
		{ "settings: &s {timeout: 3}\ngestures: *s\n", 0,
		  "test.yaml:2:11: ", "aliases (*s) are not supported" },
		{ "gestures:\n  - {gesture: swipe, fingers: 3, taps: 2, command: x}\n", 0,
		  "test.yaml:2:40: ", "\"taps\" is for taps" },
		{ "gestures:\n  - {gesture: tap, fingers: 3, taps: 4, command: x}\n", 0,
		  "test.yaml:2:38: ", "\"taps\": 4 is out of range (1 to 3)" },
		{ "settings:\n  orientation: sideways\n", 0,
		  "test.yaml:2:16: ", "\"orientation\": unknown value \"sideways\" (one of normal, left, "
		  "inverted, right, auto)" },
		{ "gestures:\n  - {gesture: tap, fingers: 3, fingrs: 2, command: x}\n", 0,
		  "test.yaml:2:32: ", "unknown rule key \"fingrs\" (did you mean \"fingers\"?)" },
		{ "gestures:\n  - {gesture: tap, fingers: 3, device-name: \"\", command: x}\n", 0,
		  "test.yaml:2:45: ", "\"device-name\" is empty" },
		{ "a: b\0c: d\n", 10, "test.yaml:1:5: ", "control characters are not allowed" },
	};
	int bad = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[512] = "";
		size_t len = cases[i].len ? cases[i].len : strlen(cases[i].text);
		struct gd_config *c = gd_config_parse("test.yaml", cases[i].text, len, err,
						      sizeof(err));
		if (c || strncmp(err, cases[i].where, strlen(cases[i].where)) ||
		    !strstr(err, cases[i].msg)) {
			fprintf(stderr, "case %zu:\n got  %s\n want %s%s\n", i, err, cases[i].where,
				cases[i].msg);
			bad++;
		}
		gd_config_free(c);
	}
	assert_int_equal(bad, 0);
}

/* the limits refuse at once, whatever follows */
static void
test_limits(void **state)
{
	(void)state;
	/* big enough for both documents below */
	static char text[1100 * 1024];
	enum { LEVELS = 60000 };
	char err[512];
	struct gd_config *c;

	/* 60,000 levels: the document loader took seconds (quadratic) */
	memcpy(text, "gestures: ", 10);
	memset(text + 10, '[', LEVELS);
	memset(text + 10 + LEVELS, ']', LEVELS);
	text[10 + 2 * LEVELS] = '\0';
	c = gd_config_parse("test.yaml", text, strlen(text), err, sizeof(err));
	assert_null(c);
	assert_string_equal(err, "test.yaml:1:26: lists and mappings nested deeper than 16 levels");

	/* a command longer than one argument of a program may be: refused, not
	 * left to fail (E2BIG) without a word each time the gesture comes */
	int n = snprintf(text, sizeof(text), "gestures:\n  - {gesture: tap, fingers: 2, command: ");
	memset(text + n, 'x', 32 * 4096);
	strcpy(text + n + 32 * 4096, "}\n");
	c = gd_config_parse("test.yaml", text, strlen(text), err, sizeof(err));
	assert_null(c);
	assert_string_equal(err, "test.yaml:2:41: \"command\": 131072 bytes, longer than the 131071 "
				 "that one argument of a program may have");

	/* more than 1 MiB */
	memset(text, '#', sizeof(text));
	text[sizeof(text) - 1] = '\n';
	c = gd_config_parse("test.yaml", text, sizeof(text), err, sizeof(err));
	assert_null(c);
	assert_string_equal(err, "test.yaml: larger than 1024 KiB");
}

static void
collect(void *data, const char *message)
{
	char *all = data;
	strncat(all, message, 4096 - strlen(all) - 2);
	strcat(all, "\n");
}

/* a file that others could change is refused; every error is reported */
static void
test_file_checks(void **state)
{
	(void)state;
	char dir[] = "/tmp/gestured-dir-XXXXXX", path[64], err[512], want[1200];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/gestures.yaml", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("gestures:\n  - {gesture: tap, fingers: 9, command: x}\n"
	      "  - {gesture: swipe, fingers: 2, direction: upp, command: x}\n"
	      "  - {gesture: tap, fingers: 2, command: a}\n"
	      "  - {gesture: tap, fingers: 2, command: b}\n", f);
	fclose(f);

	/* every error, in file order; the warning only once the file is clean */
	char all[4096] = "";
	assert_null(gd_config_load_report(path, collect, all, err, sizeof(err)));
	snprintf(want, sizeof(want),
		 "%s:2:29: \"fingers\": 9 is out of range (1 to 5)\n"
		 "%s:3:45: \"direction\": unknown value \"upp\" (one of any, up, down, left, right, "
		 "in, out, cw, ccw, up-left, up-right, down-left, down-right)\n", path, path);
	assert_string_equal(all, want);
	f = fopen(path, "w");
	fputs("gestures:\n  - {gesture: tap, fingers: 2, command: a}\n"
	      "  - {gesture: tap, fingers: 2, command: b}\n"
	      "  - {gesture: swipe, fingers: 3, command: c}\n"
	      "  - {gesture: swipe, fingers: 3, direction: up, threshold: 20, command: d}\n", f);
	fclose(f);
	all[0] = '\0';
	struct gd_config *c = gd_config_load_report(path, collect, all, err, sizeof(err));
	assert_non_null(c);
	gd_config_free(c);
	snprintf(want, sizeof(want),
		 "%s:3:5: warning: this rule can never run: the rule on line 2 takes the same "
		 "gestures first (a duplicate)\n"
		 "%s:5:5: warning: this rule can never run: the rule on line 4 takes the same "
		 "gestures first\n", path, path);
	assert_string_equal(all, want);

	/* writable by everyone */
	assert_int_equal(chmod(path, 0666), 0);
	assert_null(gd_config_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s: refused: the file is writable by everyone (uid %u, "
		 "mode 0666); a configuration runs commands, so only you and root may change it",
		 path, (unsigned)geteuid());
	assert_string_equal(err, want);
	assert_int_equal(chmod(path, 0644), 0);
	/* in a directory everyone may write to (without the sticky bit of /tmp) */
	assert_int_equal(chmod(dir, 0777), 0);
	assert_null(gd_config_load(path, err, sizeof(err)));
	assert_non_null(strstr(err, "refused: its directory"));
	assert_non_null(strstr(err, "is writable by everyone"));
	/* ... reached through a symbolic link in a safe directory: the
	 * directory that holds the file itself counts */
	char safe[] = "/tmp/gestured-safe-XXXXXX", link_path[96];
	assert_non_null(mkdtemp(safe));
	snprintf(link_path, sizeof(link_path), "%s/gestures.yaml", safe);
	assert_int_equal(symlink(path, link_path), 0);
	assert_null(gd_config_load(link_path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s: refused: its directory %s is writable by everyone",
		 link_path, dir);
	assert_memory_equal(err, want, strlen(want));
	assert_int_equal(chmod(dir, 0700), 0);
	struct gd_config *via = gd_config_load(link_path, err, sizeof(err));
	assert_non_null(via);
	gd_config_free(via);
	unlink(link_path);
	rmdir(safe);
	/* owned by another user (root may hand it over) */
	if (geteuid() == 0) {
		assert_int_equal(chown(path, 65534, 65534), 0);
		assert_null(gd_config_load(path, err, sizeof(err)));
		assert_non_null(strstr(err, "refused: the file is owned by another user (uid 65534"));
	}
	/* not a regular file */
	assert_null(gd_config_load(dir, err, sizeof(err)));
	assert_non_null(strstr(err, "not a regular file"));
	unlink(path);
	rmdir(dir);
}

/* what the rules may say beyond the basics */
static void
test_new_keys(void **state)
{
	(void)state;
	char err[512];
	struct gd_config *c = parse("settings:\n  orientation: left\n  hold-time: 1.5 s\n"
				    "gestures:\n"
				    "  - {gesture: tap, fingers: 2, taps: 2, command: a}\n"
				    "  - {gesture: tap, fingers: 2, command: b}\n"
				    "  - {gesture: hold, fingers: 1, device-name: wacom, command: c}\n"
				    "  - {gesture: swipe, fingers: 3, timeout: 0.25 s, command: d}\n",
				    err, sizeof(err));
	if (!c)
		fprintf(stderr, "%s\n", err);
	assert_non_null(c);
	assert_int_equal(c->orientation, GD_ORIENT_LEFT);
	assert_int_equal(c->nrules, 4);
	assert_int_equal(c->rules[0].taps, 2);
	assert_int_equal(c->rules[1].taps, 1);
	assert_string_equal(c->rules[2].device_name, "wacom");
	assert_int_equal(c->rules[2].hold_ms, 1500);
	assert_int_equal(c->rules[3].timeout_ms, 250);
	gd_config_free(c);
}

/* ---- rules ---- */

static struct gd_config *
rules(void)
{
	char err[512];
	struct gd_config *c = parse(
		"gestures:\n"
		"  - {gesture: swipe, fingers: 3, direction: up, command: up}\n"          /* 0 */
		"  - {gesture: swipe, fingers: 3, direction: left, threshold: 20, command: l}\n" /* 1 */
		"  - {gesture: swipe, fingers: 3, direction: up, app: term, command: t}\n" /* 2 */
		"  - {gesture: swipe, fingers: 2, edge: left, device: touchscreen, command: e}\n" /* 3 */
		"  - {gesture: pinch, fingers: 2, direction: in, command: pi}\n"          /* 4 */
		"  - {gesture: rotate, fingers: 2, direction: ccw, command: r}\n"         /* 5 */
		"  - {gesture: hold, fingers: 4, time: 400, command: h}\n"                /* 6 */
		"  - {gesture: swipe, fingers: 4, timeout: 200, command: s4}\n"           /* 7 */
		"  - {gesture: tap, fingers: 3, device: touchpad, command: tp}\n"         /* 8 */
		"  - {gesture: swipe, fingers: 1, edge: bottom-right, edge-size: 5, command: c}\n", /* 9 */
		err, sizeof(err));
	if (!c)
		fprintf(stderr, "%s\n", err);
	assert_non_null(c);
	return c;
}

static struct gd_query
query(enum gd_kind k, int fingers)
{
	return (struct gd_query){ .kind = k, .fingers = fingers, .device = GD_DEV_TOUCHSCREEN,
				  .app_instance = "", .app_class = "", .x = 500, .y = 400,
				  .screen_w = 1024, .screen_h = 768, .mm_x = 0.25, .mm_y = 0.25 };
}

static void
test_candidates(void **state)
{
	(void)state;
	struct gd_config *c = rules();
	size_t cand[GD_MAX_CANDIDATES];
	struct gd_query q = query(GD_SWIPE, 3);
	assert_int_equal(gd_rules_candidates(c, &q, cand), 2);
	assert_int_equal(cand[0], 0);
	assert_int_equal(cand[1], 1);
	/* an app rule comes first for its app (class or instance, any case) */
	q.app_class = "Term";
	assert_int_equal(gd_rules_candidates(c, &q, cand), 3);
	assert_int_equal(cand[0], 2);
	/* edge: 2-finger swipe within 8 mm (32 px) of the left edge only */
	q = query(GD_SWIPE, 2);
	assert_int_equal(gd_rules_candidates(c, &q, cand), 0);
	q.x = 20;
	assert_int_equal(gd_rules_candidates(c, &q, cand), 1);
	q.device = GD_DEV_TOUCHPAD;
	assert_int_equal(gd_rules_candidates(c, &q, cand), 0);
	/* touchpad-only tap */
	q = query(GD_TAP, 3);
	assert_int_equal(gd_rules_candidates(c, &q, cand), 0);
	q.device = GD_DEV_TOUCHPAD;
	assert_int_equal(gd_rules_candidates(c, &q, cand), 1);
	/* a corner: within 5 mm (20 px) of both the bottom and the right edge */
	q = query(GD_SWIPE, 1);
	q.x = 1010;
	q.y = 700;
	assert_int_equal(gd_rules_candidates(c, &q, cand), 0);
	q.y = 750;
	assert_int_equal(gd_rules_candidates(c, &q, cand), 1);
	assert_int_equal(cand[0], 9);
	q.x = 990;
	assert_int_equal(gd_rules_candidates(c, &q, cand), 0);
	assert_true(gd_rules_need_app(c, GD_SWIPE, 3));
	assert_false(gd_rules_need_app(c, GD_SWIPE, 4));
	gd_config_free(c);
}

static void
test_decide_swipe(void **state)
{
	(void)state;
	struct gd_config *c = rules();
	size_t cand[GD_MAX_CANDIDATES], n, rule;
	enum gd_dir dir;
	struct gd_query q = query(GD_SWIPE, 3);
	n = gd_rules_candidates(c, &q, cand);
	struct gd_motion m = { .dy_mm = -5 };
	/* below the 8 mm threshold: wait */
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_WAIT);
	m.dy_mm = -9;
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_ACCEPT);
	assert_int_equal(rule, 0);
	assert_int_equal(dir, GD_DIR_UP);
	assert_true(fabs(gd_rules_progress(&c->rules[0], GD_DIR_UP, &m) - 9.0 / 50.0) < 1e-9);

	/* down: "up" is out at once, "left" (20 mm) is out once 20 mm went down */
	n = gd_rules_candidates(c, &q, cand);
	m = (struct gd_motion){ .dy_mm = 10 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_WAIT);
	assert_int_equal(n, 1);
	m.dy_mm = 21;
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_REJECT);

	/* left, 20 mm threshold; the up rule goes first and is out */
	n = gd_rules_candidates(c, &q, cand);
	m = (struct gd_motion){ .dx_mm = -12 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_WAIT);
	m.dx_mm = -20;
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_ACCEPT);
	assert_int_equal(rule, 1);
	assert_int_equal(dir, GD_DIR_LEFT);

	/* lifted before the threshold: reject */
	n = gd_rules_candidates(c, &q, cand);
	m = (struct gd_motion){ .dx_mm = -3, .ended = 1 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_REJECT);

	/* 4 fingers, 200 ms timeout */
	q = query(GD_SWIPE, 4);
	n = gd_rules_candidates(c, &q, cand);
	assert_true(fabs(gd_rules_next_deadline(c, cand, n) - 201) < 1e-9);
	m = (struct gd_motion){ .dx_mm = 3, .elapsed_ms = 150 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_WAIT);
	m.elapsed_ms = 201;
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_REJECT);
	gd_config_free(c);
}

/* A pinch whose centre drifts is not a swipe: the travel must be at least
 * twice the change of the fingers' spread (GD_SWIPE_DOMINANCE). */
static void
test_decide_swipe_not_pinch(void **state)
{
	(void)state;
	struct gd_config *c = rules();
	size_t cand[GD_MAX_CANDIDATES], n, rule;
	enum gd_dir dir;
	struct gd_query q = query(GD_SWIPE, 3);

	assert_int_equal(GD_SWIPE_DOMINANCE, 2.0);
	/* 12 mm up while the spread grows 13.5 mm (spread-4-drift.evemu at its
	 * decision): no swipe; the up rule (8 mm) is out for good since the
	 * spread passed its threshold, the left rule (20 mm) waits; out once
	 * the spread passes 20 mm */
	n = gd_rules_candidates(c, &q, cand);
	struct gd_motion m = { .dy_mm = -12, .spread_mm = 13.5 };
	assert_false(gd_rules_is_translation(&m));
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_WAIT);
	assert_int_equal(n, 1);
	assert_int_equal(cand[0], 1);
	m.spread_mm = 20;
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_REJECT);
	/* pinching in is the same */
	n = gd_rules_candidates(c, &q, cand);
	m = (struct gd_motion){ .dy_mm = -12, .spread_mm = -20 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_REJECT);
	/* 9 mm with 5 mm of spread: not yet a translation, but the spread is
	 * below the threshold: wait; 12 mm with the same spread: a swipe */
	n = gd_rules_candidates(c, &q, cand);
	m = (struct gd_motion){ .dy_mm = -9, .spread_mm = 5 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_WAIT);
	assert_int_equal(n, 2);
	m.dy_mm = -12;
	assert_true(gd_rules_is_translation(&m));
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_ACCEPT);
	assert_int_equal(rule, 0);
	/* exactly twice: still a translation; lifted while not one: out */
	m = (struct gd_motion){ .dx_mm = -20, .spread_mm = 10 };
	assert_true(gd_rules_is_translation(&m));
	n = gd_rules_candidates(c, &q, cand);
	m = (struct gd_motion){ .dy_mm = -9, .spread_mm = 5, .ended = 1 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_REJECT);
	/* a pinch rule is not affected */
	q = query(GD_PINCH, 2);
	n = gd_rules_candidates(c, &q, cand);
	m = (struct gd_motion){ .dy_mm = -12, .spread_mm = -13.5 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_ACCEPT);
	assert_int_equal(rule, 4);
	gd_config_free(c);
}

/* settings: whole-hand, on by default */
static void
test_whole_hand_setting(void **state)
{
	(void)state;
	char err[512];
	struct gd_config *c = parse("gestures: []\n", err, sizeof(err));

	assert_non_null(c);
	assert_int_equal(c->whole_hand, 1);
	gd_config_free(c);
	c = gd_config_empty("x");
	assert_non_null(c);
	assert_int_equal(c->whole_hand, 1);
	gd_config_free(c);
	c = parse("settings: {whole-hand: false}\ngestures: []\n", err, sizeof(err));
	assert_non_null(c);
	assert_int_equal(c->whole_hand, 0);
	gd_config_free(c);
	c = parse("settings: {whole-hand: maybe}\ngestures: []\n", err, sizeof(err));
	assert_null(c);
	assert_non_null(strstr(err, "1:"));
	assert_non_null(strstr(err, "whole-hand"));
}

/* with a diagonal rule among the candidates, swipes have eight directions */
static void
test_decide_diagonal(void **state)
{
	(void)state;
	char err[512];
	struct gd_config *c = parse("gestures:\n"
				    "  - {gesture: swipe, fingers: 2, direction: up, command: u}\n"
				    "  - {gesture: swipe, fingers: 2, direction: up-right, distance: 10, command: ur}\n"
				    "  - {gesture: swipe, fingers: 3, direction: up, command: u3}\n",
				    err, sizeof(err));
	assert_non_null(c);
	size_t cand[GD_MAX_CANDIDATES], n, rule;
	enum gd_dir dir;
	struct gd_query q = query(GD_SWIPE, 2);
	/* 45 degrees up-right: the diagonal rule */
	n = gd_rules_candidates(c, &q, cand);
	struct gd_motion m = { .dx_mm = 7, .dy_mm = -7 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_ACCEPT);
	assert_int_equal(rule, 1);
	assert_int_equal(dir, GD_DIR_UP_RIGHT);
	assert_true(fabs(gd_rules_progress(&c->rules[1], dir, &m) - 0.98995) < 1e-4);
	/* 30 degrees off vertical: up-right still (the sector is 45 wide) */
	n = gd_rules_candidates(c, &q, cand);
	m = (struct gd_motion){ .dx_mm = 5, .dy_mm = -8.66 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_ACCEPT);
	assert_int_equal(rule, 1);
	/* 15 degrees off vertical: up */
	n = gd_rules_candidates(c, &q, cand);
	m = (struct gd_motion){ .dx_mm = 2.6, .dy_mm = -9.7 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_ACCEPT);
	assert_int_equal(rule, 0);
	assert_int_equal(dir, GD_DIR_UP);
	/* no diagonal rule for 3 fingers: 30 degrees off vertical is up */
	q = query(GD_SWIPE, 3);
	n = gd_rules_candidates(c, &q, cand);
	m = (struct gd_motion){ .dx_mm = 5, .dy_mm = -8.66 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_ACCEPT);
	assert_int_equal(rule, 2);
	gd_config_free(c);
}

static void
test_decide_other(void **state)
{
	(void)state;
	struct gd_config *c = rules();
	size_t cand[GD_MAX_CANDIDATES], n, rule;
	enum gd_dir dir;
	struct gd_query q = query(GD_PINCH, 2);
	n = gd_rules_candidates(c, &q, cand);
	struct gd_motion m = { .spread_mm = 9 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_REJECT);
	n = gd_rules_candidates(c, &q, cand);
	m.spread_mm = -9;
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_ACCEPT);
	assert_int_equal(dir, GD_DIR_IN);
	m.spread_mm = -20;
	assert_true(fabs(gd_rules_progress(&c->rules[4], GD_DIR_IN, &m) - 0.5) < 1e-9);

	q = query(GD_ROTATE, 2);
	n = gd_rules_candidates(c, &q, cand);
	m = (struct gd_motion){ .angle_deg = -16 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_ACCEPT);
	assert_int_equal(dir, GD_DIR_CCW);

	/* hold: 400 ms, slipping 4 mm cancels, lifting early cancels */
	q = query(GD_HOLD, 4);
	n = gd_rules_candidates(c, &q, cand);
	assert_true(fabs(gd_rules_next_deadline(c, cand, n) - 400) < 1e-9);
	m = (struct gd_motion){ .dx_mm = 1, .elapsed_ms = 100 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_WAIT);
	m.elapsed_ms = 400;
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_ACCEPT);
	assert_int_equal(rule, 6);
	n = gd_rules_candidates(c, &q, cand);
	m = (struct gd_motion){ .dx_mm = 5, .elapsed_ms = 100 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_REJECT);
	n = gd_rules_candidates(c, &q, cand);
	m = (struct gd_motion){ .elapsed_ms = 100, .ended = 1 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_REJECT);

	/* a tap is accepted as it is */
	q = query(GD_TAP, 3);
	q.device = GD_DEV_TOUCHPAD;
	n = gd_rules_candidates(c, &q, cand);
	m = (struct gd_motion){ 0 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_ACCEPT);
	assert_int_equal(rule, 8);
	gd_config_free(c);
}

/* taps, device names, orientation */
static void
test_rules_new_keys(void **state)
{
	(void)state;
	char err[512];
	struct gd_config *c = parse("settings: {orientation: left}\n"
				    "gestures:\n"
				    "  - {gesture: tap, fingers: 2, taps: 2, command: double}\n"     /* 0 */
				    "  - {gesture: tap, fingers: 2, command: single}\n"              /* 1 */
				    "  - {gesture: tap, fingers: 3, device-name: wacom, command: w}\n" /* 2 */
				    "  - {gesture: tap, fingers: 3, device-name: \"*pad\", command: p}\n" /* 3 */
				    "  - {gesture: swipe, fingers: 3, direction: up, command: up}\n"  /* 4 */
				    "  - {gesture: swipe, fingers: 1, edge: top, command: top}\n",    /* 5 */
				    err, sizeof(err));
	if (!c)
		fprintf(stderr, "%s\n", err);
	assert_non_null(c);
	size_t cand[GD_MAX_CANDIDATES], n, rule;
	enum gd_dir dir;

	/* up to double taps: a triple tap is a double and a single */
	assert_int_equal(gd_rules_tap_count(c, 2, 1), 1);
	assert_int_equal(gd_rules_tap_count(c, 2, 2), 2);
	assert_int_equal(gd_rules_tap_count(c, 2, 3), 1);
	assert_int_equal(gd_rules_tap_count(c, 3, 2), 1);   /* single taps only */
	struct gd_query q = query(GD_TAP, 2);
	q.taps = 1;
	n = gd_rules_candidates(c, &q, cand);
	assert_int_equal(n, 2);
	assert_true(gd_rules_tap_may_continue(c, cand, n, 1));
	struct gd_motion m = { .taps = 1 };
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_ACCEPT);
	assert_int_equal(rule, 1);
	q.taps = 2;
	n = gd_rules_candidates(c, &q, cand);
	assert_int_equal(n, 1);
	assert_false(gd_rules_tap_may_continue(c, cand, n, 2));
	m.taps = 2;
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_ACCEPT);
	assert_int_equal(rule, 0);

	/* device names: a part of the name in any case, or a pattern */
	q = query(GD_TAP, 3);
	q.device_name = "Wacom HID 5256 Finger";
	assert_int_equal(gd_rules_candidates(c, &q, cand), 1);
	assert_int_equal(cand[0], 2);
	q.device_name = "SynPS/2 Synaptics TouchPad";
	assert_int_equal(gd_rules_candidates(c, &q, cand), 1);
	assert_int_equal(cand[0], 3);
	q.device_name = "ELAN Touchscreen";
	assert_int_equal(gd_rules_candidates(c, &q, cand), 0);

	/* the screen turned left: the picture's top is the device's left side */
	m = (struct gd_motion){ .dx_mm = -20, .dy_mm = 1 };
	gd_rules_orient(c->orientation, NULL, &m);
	assert_float_equal(m.dx_mm, -1, 1e-9);
	assert_float_equal(m.dy_mm, -20, 1e-9);
	q = query(GD_SWIPE, 3);
	gd_rules_orient(c->orientation, &q, NULL);
	n = gd_rules_candidates(c, &q, cand);
	assert_int_equal(gd_rules_decide(c, cand, &n, &m, &rule, &dir), GD_ACCEPT);
	assert_int_equal(rule, 4);
	/* a touch at the device's left edge is at the picture's top */
	q = query(GD_SWIPE, 1);
	q.x = 5;
	q.y = 300;
	gd_rules_orient(c->orientation, &q, NULL);
	assert_float_equal(q.y, 5, 1e-9);
	assert_float_equal(q.screen_w, 768, 1e-9);
	assert_int_equal(gd_rules_candidates(c, &q, cand), 1);
	assert_int_equal(cand[0], 5);
	gd_config_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_rule),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_file_checks),
		cmocka_unit_test(test_new_keys),
		cmocka_unit_test(test_candidates),
		cmocka_unit_test(test_decide_swipe),
		cmocka_unit_test(test_decide_swipe_not_pinch),
		cmocka_unit_test(test_whole_hand_setting),
		cmocka_unit_test(test_decide_diagonal),
		cmocka_unit_test(test_decide_other),
		cmocka_unit_test(test_rules_new_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
