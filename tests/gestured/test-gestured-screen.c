/*
 * utouch-gestured's view of the screen's turn (tools/gestured/gd-screen.h),
 * for "orientation: auto": the RandR rotation → orientation mapping, the
 * choice of the output a touchscreen maps to, the state updates, and, on a
 * headless Xorg (tests/x11/xorg-harness.h; skipped where it cannot run),
 * the event path: a RandR change on the server reaches gd_screen_dispatch(),
 * which reads the outputs again.  No X server here can rotate (Xvfb refuses
 * every rotation, Xephyr 21.1 crashes on one, the dummy driver has none),
 * so the test that a rotation turns the state reads the outputs through
 * gd_screen_set_query() while the server sends real change events.
 */
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gd-config.h"
#include "gd-screen.h"

#ifdef TEST_WITH_XORG
#include <X11/Xlib.h>
#include <X11/extensions/Xrandr.h>

#include "xorg-harness.h"
#endif

static void
test_rotation_mapping(void **state)
{
	(void)state;
	/* RR_Rotate_0, _90, _180, _270: xrandr's normal, left, inverted, right */
	assert_int_equal(gd_screen_orientation_of(1), GD_ORIENT_NORMAL);
	assert_int_equal(gd_screen_orientation_of(2), GD_ORIENT_LEFT);
	assert_int_equal(gd_screen_orientation_of(4), GD_ORIENT_INVERTED);
	assert_int_equal(gd_screen_orientation_of(8), GD_ORIENT_RIGHT);
	/* reflections (RR_Reflect_X 16, RR_Reflect_Y 32) do not change the turn */
	assert_int_equal(gd_screen_orientation_of(2 | 16), GD_ORIENT_LEFT);
	assert_int_equal(gd_screen_orientation_of(8 | 32), GD_ORIENT_RIGHT);
	/* no rotation bit, or several (not a rotation RandR gives) */
	assert_int_equal(gd_screen_orientation_of(0), GD_ORIENT_NORMAL);
	assert_int_equal(gd_screen_orientation_of(2 | 4), GD_ORIENT_NORMAL);
}

static void
test_pick(void **state)
{
	(void)state;
	struct gd_screen_output o[4] = {
		{ .name = "HDMI-1", .active = 1, .primary = 1, .rotation = 1 },
		{ .name = "DP-2", .active = 1, .rotation = 1 },
		{ .name = "eDP-1", .active = 1, .rotation = 2 },
		{ .name = "LVDS-1", .active = 0, .rotation = 1 },
	};
	/* the built-in panel before the primary output */
	assert_int_equal(gd_screen_pick(o, 4), 2);
	/* an inactive panel does not count: the primary output */
	o[2].active = 0;
	assert_int_equal(gd_screen_pick(o, 4), 0);
	o[3].active = 1;   /* LVDS is a panel too */
	assert_int_equal(gd_screen_pick(o, 4), 3);
	o[3].active = 0;
	/* no primary: the first active output */
	o[0].primary = 0;
	o[0].active = 0;
	assert_int_equal(gd_screen_pick(o, 4), 1);
	/* "dsi-1": any case */
	snprintf(o[0].name, sizeof(o[0].name), "dsi-1");
	o[0].active = 1;
	assert_int_equal(gd_screen_pick(o, 4), 0);
	/* nothing active */
	for (int i = 0; i < 4; i++)
		o[i].active = 0;
	assert_int_equal(gd_screen_pick(o, 4), -1);
	assert_int_equal(gd_screen_pick(o, 0), -1);
}

static void
test_update(void **state)
{
	(void)state;
	struct gd_screen *s = gd_screen_new();
	assert_non_null(s);
	double w = -1, h = -1;
	assert_int_equal(gd_screen_orientation(s), GD_ORIENT_NORMAL);
	assert_string_equal(gd_screen_output_name(s), "");
	assert_int_equal(gd_screen_size(s, &w, &h), -1);
	assert_true(w == -1 && h == -1);
	assert_false(gd_screen_connected(s));
	assert_int_equal(gd_screen_fd(s), -1);
	assert_int_equal(gd_screen_dispatch(s), 0);

	struct gd_screen_output o[2] = {
		{ .name = "HDMI-1", .active = 1, .primary = 1, .rotation = 1 },
		{ .name = "eDP-1", .active = 1, .rotation = 8 },
	};
	assert_int_equal(gd_screen_update(s, o, 2, 3000, 1080), 1);
	assert_int_equal(gd_screen_orientation(s), GD_ORIENT_RIGHT);
	assert_string_equal(gd_screen_output_name(s), "eDP-1");
	assert_int_equal(gd_screen_size(s, &w, &h), 0);
	assert_true(w == 3000 && h == 1080);
	/* the same again: no change */
	assert_int_equal(gd_screen_update(s, o, 2, 3000, 1080), 0);
	/* a new size alone is a change */
	assert_int_equal(gd_screen_update(s, o, 2, 2000, 1080), 1);
	/* the panel switched off: the HDMI screen, not turned */
	o[1].active = 0;
	assert_int_equal(gd_screen_update(s, o, 2, 1920, 1080), 1);
	assert_int_equal(gd_screen_orientation(s), GD_ORIENT_NORMAL);
	assert_string_equal(gd_screen_output_name(s), "HDMI-1");
	/* no output at all */
	assert_int_equal(gd_screen_update(s, NULL, 0, 1920, 1080), 0);
	assert_string_equal(gd_screen_output_name(s), "");
	gd_screen_free(s);
	gd_screen_free(NULL);
}

/* "orientation: auto" is the default where RandR can be followed */
static struct gd_config *
parse(const char *text, char *err, size_t errlen)
{
	return gd_config_parse("test.yaml", text, strlen(text), err, errlen);
}

static void
test_config(void **state)
{
	(void)state;
	char err[512];
	struct gd_config *c = parse("gestures:\n", err, sizeof(err));
	assert_non_null(c);
#ifdef GD_HAVE_XRANDR
	assert_int_equal(c->orientation, GD_ORIENT_AUTO);
#else
	assert_int_equal(c->orientation, GD_ORIENT_NORMAL);
#endif
	gd_config_free(c);
	c = parse("settings: {orientation: auto}\n", err, sizeof(err));
#ifdef GD_HAVE_XRANDR
	assert_non_null(c);
	assert_int_equal(c->orientation, GD_ORIENT_AUTO);
	gd_config_free(c);
#else
	assert_null(c);
	assert_non_null(strstr(err, "test.yaml:1:25: \"orientation\": \"auto\" follows the X "
				    "server's RandR rotation, and this utouch-gestured was built "
				    "without libXrandr"));
#endif
	c = parse("settings: {orientation: inverted}\n", err, sizeof(err));
	assert_non_null(c);
	assert_int_equal(c->orientation, GD_ORIENT_INVERTED);
	gd_config_free(c);
}

#ifdef TEST_WITH_XORG

static struct xh_server xs;
static int have_server;

static int
start_server(void **state)
{
	(void)state;
	int rc = xh_start(&xs, 1);
	if (rc == 0)
		have_server = 1;
	else
		fprintf(stderr, "no Xorg (%s): the RandR event tests are skipped\n", xs.error);
	return 0;
}

static int
stop_server(void **state)
{
	(void)state;
	if (have_server)
		xh_stop(&xs);
	return 0;
}

/* what the stand-in server says: one panel, turned left */
struct fake_outputs {
	unsigned rotation;
	int calls;
};

static int
fake_query(void *data, struct gd_screen_output *outs, size_t max, double *width, double *height)
{
	struct fake_outputs *f = data;
	f->calls++;
	if (max < 1)
		return 0;
	memset(outs, 0, sizeof(*outs));
	snprintf(outs[0].name, sizeof(outs[0].name), "eDP-1");
	outs[0].active = 1;
	outs[0].rotation = f->rotation;
	*width = f->rotation & (2 | 8) ? XH_SCREEN_HEIGHT : XH_SCREEN_WIDTH;
	*height = f->rotation & (2 | 8) ? XH_SCREEN_WIDTH : XH_SCREEN_HEIGHT;
	return 1;
}

/* wait (5 s at most) for the server's events, then read them */
static int
dispatch_events(struct gd_screen *s)
{
	struct pollfd p = { .fd = gd_screen_fd(s), .events = POLLIN };
	assert_int_equal(poll(&p, 1, 5000), 1);
	return gd_screen_dispatch(s);
}

/* another client changes the screen's size in millimetres: a RandR
 * screen change every client that selected it receives */
static void
poke_server(Display *dpy, int mm)
{
	XRRSetScreenSize(dpy, DefaultRootWindow(dpy), XH_SCREEN_WIDTH, XH_SCREEN_HEIGHT, mm, mm);
	XSync(dpy, False);
}

/* a screen following the test's server (the test is skipped without one) */
static struct gd_screen *
connected_screen(void)
{
	if (!have_server)
		skip();
	char err[256];
	struct gd_screen *s = gd_screen_new();
	assert_non_null(s);
	if (gd_screen_connect(s, xs.display_name, err, sizeof(err)) < 0)
		fail_msg("gd_screen_connect: %s", err);
	return s;
}

static void
test_server_events(void **state)
{
	(void)state;
	char err[256];
	/* the state at the start is the server's: not turned, its size */
	struct gd_screen *s = connected_screen();
	assert_true(gd_screen_connected(s));
	assert_true(gd_screen_fd(s) >= 0);
	double w, h;
	assert_int_equal(gd_screen_size(s, &w, &h), 0);
	assert_true(w == XH_SCREEN_WIDTH && h == XH_SCREEN_HEIGHT);
	assert_int_equal(gd_screen_orientation(s), GD_ORIENT_NORMAL);
	assert_int_equal(gd_screen_connect(s, xs.display_name, err, sizeof(err)), -1);

	Display *other = XOpenDisplay(xs.display_name);
	assert_non_null(other);
	/* a change of the server's that changes nothing for us: read, no change */
	poke_server(other, 300);
	assert_int_equal(dispatch_events(s), 0);
	assert_int_equal(gd_screen_orientation(s), GD_ORIENT_NORMAL);

	/* the outputs now say the panel is turned left: the next RandR event
	 * turns the state, read once for the burst of events */
	struct fake_outputs f = { .rotation = 2 };
	gd_screen_set_query(s, fake_query, &f);
	poke_server(other, 310);
	assert_int_equal(dispatch_events(s), 1);
	assert_int_equal(gd_screen_orientation(s), GD_ORIENT_LEFT);
	assert_string_equal(gd_screen_output_name(s), "eDP-1");
	assert_int_equal(gd_screen_size(s, &w, &h), 0);
	assert_true(w == XH_SCREEN_HEIGHT && h == XH_SCREEN_WIDTH);
	assert_true(f.calls >= 1);
	/* turned right, then back */
	f.rotation = 8;
	poke_server(other, 320);
	assert_int_equal(dispatch_events(s), 1);
	assert_int_equal(gd_screen_orientation(s), GD_ORIENT_RIGHT);
	f.rotation = 1;
	poke_server(other, 330);
	assert_int_equal(dispatch_events(s), 1);
	assert_int_equal(gd_screen_orientation(s), GD_ORIENT_NORMAL);
	/* the server itself again: its real outputs */
	gd_screen_set_query(s, NULL, NULL);
	poke_server(other, 340);
	assert_int_equal(dispatch_events(s), 0);
	assert_int_equal(gd_screen_size(s, &w, &h), 0);
	assert_true(w == XH_SCREEN_WIDTH && h == XH_SCREEN_HEIGHT);
	XCloseDisplay(other);
	gd_screen_free(s);
}

/* the server goes away: -1, the state keeps its last values, no crash */
static void
test_server_gone(void **state)
{
	(void)state;
	struct gd_screen *s = connected_screen();
	struct fake_outputs f = { .rotation = 4 };
	gd_screen_set_query(s, fake_query, &f);
	Display *other = XOpenDisplay(xs.display_name);
	assert_non_null(other);
	poke_server(other, 350);
	assert_int_equal(dispatch_events(s), 1);
	assert_int_equal(gd_screen_orientation(s), GD_ORIENT_INVERTED);
	XCloseDisplay(other);
	xh_kill(&xs);
	have_server = 0;
	assert_int_equal(dispatch_events(s), -1);
	assert_false(gd_screen_connected(s));
	assert_int_equal(gd_screen_fd(s), -1);
	assert_int_equal(gd_screen_orientation(s), GD_ORIENT_INVERTED);
	assert_int_equal(gd_screen_dispatch(s), -1);
	gd_screen_free(s);
}
#endif /* TEST_WITH_XORG */

static void
test_no_server(void **state)
{
	(void)state;
	char err[256];
	struct gd_screen *s = gd_screen_new();
	assert_non_null(s);
	assert_int_equal(gd_screen_connect(s, "/nonexistent/utouch-test:9", err, sizeof(err)), -1);
#ifdef GD_HAVE_XRANDR
	assert_string_equal(err, "cannot open X display /nonexistent/utouch-test:9");
#else
	assert_string_equal(err, "this utouch-gestured was built without RandR (libxrandr)");
#endif
	assert_false(gd_screen_connected(s));
	assert_int_equal(gd_screen_orientation(s), GD_ORIENT_NORMAL);
	gd_screen_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rotation_mapping),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_update),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_no_server),
#ifdef TEST_WITH_XORG
		cmocka_unit_test(test_server_events),
		cmocka_unit_test(test_server_gone),
#endif
	};
#ifdef TEST_WITH_XORG
	return cmocka_run_group_tests(tests, start_server, stop_server);
#else
	return cmocka_run_group_tests(tests, NULL, NULL);
#endif
}
