/*
 * utouch-wlcomp: start-up, options and the event loop.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <wlr/backend/headless.h>
#include <wlr/render/pixman.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>

#include "util/child.h"
#include "wlcomp.h"

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: utouch-wlcomp [OPTIONS] [-- COMMAND [ARGS...]]\n"
		"A small Wayland compositor whose system gestures come from utouch.\n"
		"\n"
		"  -c, --config FILE    system gestures (default: $XDG_CONFIG_HOME/utouch/wlcomp.yaml\n"
		"                       if it exists, else %s)\n"
		"      --headless       no display: the headless backend and the pixman renderer\n"
		"      --size WxH       size of the headless output (default 800x600)\n"
		"      --socket NAME    the Wayland socket name (default: the first free wayland-N)\n"
		"      --control PATH   a control socket for virtual touch devices (tests)\n"
		"  -v, --verbose        wlroots debug log\n"
		"  -h, --help           this text\n"
		"COMMAND runs with WAYLAND_DISPLAY set once the compositor is up.\n"
		"Alt+Tab cycles the focus, Alt+Escape quits.\n",
		WLCOMP_DEFAULT_CONFIG);
}

static const char *
default_config(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");

	if (xdg && *xdg)
		snprintf(buf, len, "%s/utouch/wlcomp.yaml", xdg);
	else if (home && *home)
		snprintf(buf, len, "%s/.config/utouch/wlcomp.yaml", home);
	else
		buf[0] = '\0';
	if (buf[0] && access(buf, R_OK) == 0)
		return buf;
	if (access(WLCOMP_DEFAULT_CONFIG, R_OK) == 0)
		return WLCOMP_DEFAULT_CONFIG;
	return WLCOMP_SOURCE_CONFIG;
}

static void
start_command(char **argv)
{
	pid_t pid = fork();

	if (pid == 0) {
		setsid();
		ut_child_default_signals();
		execvp(argv[0], argv);
		fprintf(stderr, "utouch-wlcomp: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0)
		fprintf(stderr, "utouch-wlcomp: cannot start %s: %s\n", argv[0], strerror(errno));
}

static bool
runtime_dir_set(void)
{
	const char *dir = getenv("XDG_RUNTIME_DIR");

	return dir && *dir;
}

/* Wayland sockets live in $XDG_RUNTIME_DIR: say so when it is missing. */
static void
report_socket_failure(void)
{
	if (!runtime_dir_set())
		fprintf(stderr,
			"utouch-wlcomp: cannot open a Wayland socket: XDG_RUNTIME_DIR is not set;\n"
			"  set it to a directory only you can use, e.g.\n"
			"  export XDG_RUNTIME_DIR=$(mktemp -d) (or /run/user/$(id -u) in a login session)\n");
	else
		fprintf(stderr,
			"utouch-wlcomp: cannot open a Wayland socket in %s (wayland-0..32 taken, "
			"or the directory is not writable); try --socket NAME\n",
			getenv("XDG_RUNTIME_DIR"));
}

static void
report_backend_failure(bool headless)
{
	const char *wl = getenv("WAYLAND_DISPLAY"), *x = getenv("DISPLAY");

	if (headless) {
		fprintf(stderr, "utouch-wlcomp: cannot create the headless backend and renderer\n");
	} else if ((wl && *wl) || (x && *x)) {
		fprintf(stderr,
			"utouch-wlcomp: cannot create the automatic backend and renderer: "
			"no window could be opened on %s%s;\n"
			"  check that display, or run without one: utouch-wlcomp --headless\n",
			wl && *wl ? "WAYLAND_DISPLAY=" : "DISPLAY=", wl && *wl ? wl : x);
	} else {
		fprintf(stderr,
			"utouch-wlcomp: cannot create the automatic backend and renderer: "
			"no display (neither WAYLAND_DISPLAY nor DISPLAY is set) and no seat with a GPU "
			"to take the whole screen;\n"
			"  start it inside a desktop session or on a text console, "
			"or without a display: utouch-wlcomp --headless\n");
	}
}

static int
on_signal(int sig, void *data)
{
	wl_display_terminate(data);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "headless", no_argument, NULL, 'H' },
		{ "size", required_argument, NULL, 'S' },
		{ "socket", required_argument, NULL, 's' },
		{ "control", required_argument, NULL, 'C' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct server server = { 0 };
	const char *config = NULL, *socket_name = NULL, *control = NULL;
	char confbuf[4096];
	unsigned int width = 800, height = 600;
	bool verbose = false;
	const char *sock;
	struct wl_event_source *sigs[2];
	int c, status = 1;

	while ((c = getopt_long(argc, argv, "c:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'c': config = optarg; break;
		case 'H': server.headless = true; break;
		case 'S':
			if (sscanf(optarg, "%ux%u", &width, &height) != 2 || !width || !height ||
			    width > 16384 || height > 16384) {
				fprintf(stderr, "utouch-wlcomp: --size: expected WxH, got '%s'\n", optarg);
				return 2;
			}
			break;
		case 's': socket_name = optarg; break;
		case 'C': control = optarg; break;
		case 'v': verbose = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!config)
		config = default_config(confbuf, sizeof(confbuf));
	wlr_log_init(verbose ? WLR_DEBUG : WLR_ERROR, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGCHLD, SIG_IGN);

	server.display = wl_display_create();
	if (!server.display)
		return 1;
	server.loop = wl_display_get_event_loop(server.display);
	sigs[0] = wl_event_loop_add_signal(server.loop, SIGTERM, on_signal, server.display);
	sigs[1] = wl_event_loop_add_signal(server.loop, SIGINT, on_signal, server.display);
	if (server.headless) {
		server.backend = wlr_headless_backend_create(server.display);
		server.renderer = server.backend ? wlr_pixman_renderer_create() : NULL;
	} else {
		/* DRM on a TTY, nested in Wayland or X11: wlroots picks */
		server.backend = wlr_backend_autocreate(server.display);
		server.renderer = server.backend ? wlr_renderer_autocreate(server.backend) : NULL;
	}
	if (!server.backend || !server.renderer) {
		report_backend_failure(server.headless);
		goto out_display;
	}
	wlr_renderer_init_wl_display(server.renderer, server.display);
	server.allocator = wlr_allocator_autocreate(server.backend, server.renderer);
	if (!server.allocator) {
		fprintf(stderr, "utouch-wlcomp: cannot create an allocator\n");
		goto out_display;
	}
	wlr_compositor_create(server.display, server.renderer);
	wlr_data_device_manager_create(server.display);
	server.layout = wlr_output_layout_create();
	server.scene = wlr_scene_create();
	wlr_scene_attach_output_layout(server.scene, server.layout);
	server.seat = wlr_seat_create(server.display, "seat0");

	output_init(&server);
	view_init(&server);
	pointer_init(&server);
	input_init(&server);
	/* the control socket's state first: every exit below undoes it */
	if (control_init(&server, control) < 0 || gestures_init(&server, config) < 0)
		goto out_gestures;

	if (socket_name) {
		if (wl_display_add_socket(server.display, socket_name) < 0) {
			if (!runtime_dir_set())
				report_socket_failure();
			else
				fprintf(stderr, "utouch-wlcomp: cannot open socket %s: %s\n",
					socket_name, strerror(errno));
			goto out_gestures;
		}
		sock = socket_name;
	} else {
		sock = wl_display_add_socket_auto(server.display);
		if (!sock) {
			report_socket_failure();
			goto out_gestures;
		}
	}
	if (!wlr_backend_start(server.backend)) {
		fprintf(stderr, "utouch-wlcomp: cannot start the backend\n");
		goto out_gestures;
	}
	if (server.headless && !wlr_headless_add_output(server.backend, width, height)) {
		fprintf(stderr, "utouch-wlcomp: cannot add the headless output\n");
		goto out_gestures;
	}
	setenv("WAYLAND_DISPLAY", sock, 1);
	printf("wlcomp: running on WAYLAND_DISPLAY=%s\n", sock);
	fflush(stdout);
	if (optind < argc)
		start_command(argv + optind);
	wl_display_run(server.display);
	status = 0;

	wl_display_destroy_clients(server.display);
out_gestures:
	control_finish(&server);
	gestures_stop(&server);
	pointer_finish(&server);
out_display:
	for (int i = 0; i < 2; i++)
		if (sigs[i])
			wl_event_source_remove(sigs[i]);
	/* the backend and its devices go with the display; their removal
	 * still reaches the gesture context */
	wl_display_destroy(server.display);
	gestures_finish(&server);
	seat_touch_finish(&server);
	/* the layout first: wlr_scene_attach_output_layout() put a listener
	 * on its destroy signal that still reads the scene */
	if (server.layout)
		wlr_output_layout_destroy(server.layout);
	if (server.scene)
		wlr_scene_node_destroy(&server.scene->node);
	if (server.allocator)
		wlr_allocator_destroy(server.allocator);
	if (server.renderer)
		wlr_renderer_destroy(server.renderer);
	return status;
}
