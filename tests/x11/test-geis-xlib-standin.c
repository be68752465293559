/*
 * geis's X11 backend under an Xlib stand-in, as geis 2.2's own tests run
 * it: this program defines XOpenDisplay(), XCloseDisplay() and
 * XQueryExtension() itself, and libutouch-geis (linked as a shared
 * library, like those tests link libgeis) calls these instead of libX11's.
 *
 * - geis 2.2's name of its X11 backend gets X11 with DISPLAY unset when
 *   Xlib still opens its default display, and evdev when it does not;
 * - a Display from such a stand-in carries only Xlib's public part, so
 *   geis must not hand it to libX11's XSetIOErrorExitHandler(), which
 *   writes the handler into libX11's private part past its end.
 */
#define XLIB_ILLEGAL_ACCESS
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cmocka.h>

#include <X11/Xlib.h>
#include <geis/geis.h>
#include <utouch/geis.h>

#include "test-support.h"

/* The project builds with -fvisibility=hidden; the stand-ins must be seen
 * by the shared library. */
#define STANDIN __attribute__((visibility("default")))

/* The stand-in's display sits at the start of a zeroed block this large;
 * everything after the public Display must stay zero. */
#define BLOCK_SIZE 65536

static int open_calls, close_calls, query_calls;
static int hand_out_display;
static unsigned char *block;

STANDIN Display *
XOpenDisplay(const char *name)
{
	(void)name;
	open_calls++;
	if (!hand_out_display)
		return NULL;
	block = calloc(1, BLOCK_SIZE);
	Display *dpy = (Display *)block;
	dpy->fd = eventfd(0, EFD_NONBLOCK);
	dpy->nscreens = 1;
	dpy->screens = calloc(1, sizeof(Screen));
	dpy->screens[0].root = 1;
	return dpy;
}

STANDIN int
XCloseDisplay(Display *dpy)
{
	close_calls++;
	assert_ptr_equal(dpy, (Display *)block);
	for (size_t i = sizeof(Display); i < BLOCK_SIZE; i++)
		if (block[i] != 0)
			fail_msg("byte %zu past the stand-in's Display was written", i);
	close(dpy->fd);
	free(dpy->screens);
	free(block);
	block = NULL;
	return 0;
}

/* No XInput: the backend stops right after opening its display. */
STANDIN Bool
XQueryExtension(Display *dpy, const char *name, int *opcode, int *event, int *error)
{
	(void)dpy;
	(void)name;
	query_calls++;
	*opcode = *event = *error = 0;
	return False;
}

static int
reset(void **state)
{
	(void)state;
	open_calls = close_calls = query_calls = 0;
	unsetenv("DISPLAY");
	unsetenv(UTOUCH_GEIS_BACKEND_ENV);
	return 0;
}

/* DISPLAY unset and no display: geis 2.2 failed here, utouch goes on with
 * evdev, having asked Xlib once. */
static void
test_grail_backend_without_display_falls_back(void **state)
{
	char dir[] = "/tmp/utouch-xlib-standin-XXXXXX";

	assert_non_null(mkdtemp(dir));
	hand_out_display = 0;
	Geis geis = geis_new(GEIS_INIT_GRAIL_BACKEND, UTOUCH_GEIS_INIT_EVDEV_DIR, dir, NULL);
	assert_non_null(geis);
	assert_int_equal(open_calls, 1);
	assert_int_equal(geis_dispatch_events(geis), GEIS_STATUS_SUCCESS);
	assert_int_equal(open_calls, 1);
	assert_int_equal(query_calls, 0);
	assert_int_equal(geis_delete(geis), GEIS_STATUS_SUCCESS);
	rmdir(dir);
}

/* DISPLAY unset but Xlib opens a display: X11, as in geis 2.2; its
 * Display is written only through the stand-in (checked when it closes). */
static void
check_takes_standin_display(Geis geis)
{
	assert_non_null(geis);
	/* the choice: opened once and closed at once */
	assert_int_equal(open_calls, 1);
	assert_int_equal(close_calls, 1);
	/* the start: the backend's own display, which has no XInput */
	assert_int_not_equal(geis_dispatch_events(geis), GEIS_STATUS_SUCCESS);
	assert_int_equal(open_calls, 2);
	assert_int_equal(query_calls, 1);
	assert_int_equal(geis_delete(geis), GEIS_STATUS_SUCCESS);
	assert_int_equal(close_calls, 2);
}

static void
test_grail_backend_takes_standin_display(void **state)
{
	hand_out_display = 1;
	check_takes_standin_display(geis_new(GEIS_INIT_GRAIL_BACKEND,
					     GEIS_INIT_NO_ATOMIC_GESTURES, NULL));
}

/* The same through geis 2.2's other name for it. */
static void
test_xcb_backend_takes_standin_display(void **state)
{
	hand_out_display = 1;
	check_takes_standin_display(geis_new(GEIS_INIT_XCB_BACKEND, NULL));
}

/* The environment still wins over the backend name. */
static void
test_environment_wins(void **state)
{
	char dir[] = "/tmp/utouch-xlib-standin-XXXXXX";

	assert_non_null(mkdtemp(dir));
	hand_out_display = 1;
	setenv(UTOUCH_GEIS_BACKEND_ENV, "evdev", 1);
	Geis geis = geis_new(GEIS_INIT_GRAIL_BACKEND, UTOUCH_GEIS_INIT_EVDEV_DIR, dir, NULL);
	assert_non_null(geis);
	assert_int_equal(geis_dispatch_events(geis), GEIS_STATUS_SUCCESS);
	assert_int_equal(open_calls, 0);
	assert_int_equal(geis_delete(geis), GEIS_STATUS_SUCCESS);
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_grail_backend_without_display_falls_back, reset),
		cmocka_unit_test_setup(test_grail_backend_takes_standin_display, reset),
		cmocka_unit_test_setup(test_xcb_backend_takes_standin_display, reset),
		cmocka_unit_test_setup(test_environment_wins, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
