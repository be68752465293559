/*
 * utouch-gestured: system gestures for the desktop (see
 * doc/utouch-gestured.1 and doc/gestured.md).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gd-config.h"
#include "gd-daemon.h"
#include "gd-instance.h"

static void
usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [OPTION]... [FILE]\n"
		"Run actions for touchscreen and touchpad gestures; applications keep the\n"
		"touches of every gesture no rule takes.\n"
		"\n"
		"  -c, --config FILE     the configuration (default:\n"
		"                        $XDG_CONFIG_HOME/utouch/gestures.yaml)\n"
		"      --check           check the configuration: list every error and the\n"
		"                        rules that can never run, and exit (1 on errors)\n"
		"  -n, --dry-run         print actions instead of running them\n"
		"  -b, --backend NAME    auto (X11 touchscreens and evdev touchpads when\n"
		"                        $DISPLAY is set and $WAYLAND_DISPLAY is not, else\n"
		"                        evdev), x11 or evdev\n"
		"      --evdev-dir DIR   read evdev devices from DIR instead of /dev/input\n"
		"      --evdev-grab      grab the evdev devices: nothing else reads them\n"
		"                        (kiosks without X11 or compositor gestures)\n"
		"  -p, --proxy           touch proxy: grab each evdev touch device and give\n"
		"                        the desktop a clone (uinput) that carries every\n"
		"                        touch no rule takes (Wayland, consoles)\n"
		"      --proxy-output FILE  proxy into FILE (an evemu recording of what the\n"
		"                        clone would emit) instead of uinput\n"
		"      --uinput PATH     the uinput node (default /dev/uinput)\n"
		"      --recording FILE  play FILE (evemu or libinput record) as the device;\n"
		"                        exit once it has ended and every action finished\n"
		"      --fast            play the recording in virtual time\n"
		"  -v, --verbose         log every gesture and decision on stderr\n"
		"  -h, --help            show this help\n"
		"  -V, --version         show the version\n"
		"\n"
		"FILE is the configuration, like --config.  The configuration is reloaded\n"
		"when it changes (and on SIGHUP); a missing file means no gestures, a broken\n"
		"file keeps the previous configuration.  See utouch-gestured(1).\n",
		prog);
}

static char *
default_config_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	char buf[PATH_MAX];
	if (xdg && *xdg == '/')
		snprintf(buf, sizeof(buf), "%s/utouch/gestures.yaml", xdg);
	else if (home && *home)
		snprintf(buf, sizeof(buf), "%s/.config/utouch/gestures.yaml", home);
	else
		return NULL;
	return strdup(buf);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "check", no_argument, NULL, 'C' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "backend", required_argument, NULL, 'b' },
		{ "evdev-dir", required_argument, NULL, 'E' },
		{ "evdev-grab", no_argument, NULL, 'G' },
		{ "proxy", no_argument, NULL, 'p' },
		{ "proxy-output", required_argument, NULL, 'O' },
		{ "uinput", required_argument, NULL, 'U' },
		{ "recording", required_argument, NULL, 'R' },
		{ "fast", no_argument, NULL, 'F' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct gd_options opts = { .backend = GD_BACKEND_AUTO };
	char *config = NULL;
	int check = 0, c;

	while ((c = getopt_long(argc, argv, "c:nb:pvhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			free(config);
			config = strdup(optarg);
			break;
		case 'C':
			check = 1;
			break;
		case 'n':
			opts.dry_run = 1;
			break;
		case 'b':
			if (!strcmp(optarg, "auto"))
				opts.backend = GD_BACKEND_AUTO;
			else if (!strcmp(optarg, "x11"))
				opts.backend = GD_BACKEND_X11;
			else if (!strcmp(optarg, "evdev"))
				opts.backend = GD_BACKEND_EVDEV;
			else {
				fprintf(stderr, "%s: unknown backend \"%s\" (auto, x11 or evdev)\n",
					argv[0], optarg);
				return 2;
			}
			break;
		case 'E':
			opts.evdev_dir = optarg;
			break;
		case 'G':
			opts.evdev_grab = 1;
			break;
		case 'p':
			opts.proxy = 1;
			break;
		case 'O':
			opts.proxy = 1;
			opts.proxy_output = optarg;
			break;
		case 'U':
			opts.uinput = optarg;
			break;
		case 'R':
			opts.recording = optarg;
			break;
		case 'F':
			opts.fast = 1;
			break;
		case 'v':
			opts.verbose = 1;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		case 'V':
			printf("utouch-gestured %s\n", UTOUCH_VERSION);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
	}
	/* the configuration may also be given as the one operand */
	if (optind < argc && !config && optind + 1 == argc)
		config = strdup(argv[optind++]);
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument \"%s\"\n", argv[0], argv[optind]);
		usage(stderr, argv[0]);
		return 2;
	}
	if (config && !*config) {
		/* "" would be a file with no name in the working directory */
		fprintf(stderr, "%s: the configuration path is empty\n", argv[0]);
		free(config);
		return 2;
	}
	if (opts.fast && !opts.recording) {
		fprintf(stderr, "%s: --fast needs --recording\n", argv[0]);
		free(config);
		return 2;
	}
	if (opts.proxy && opts.backend == GD_BACKEND_X11) {
		fprintf(stderr, "%s: --proxy works on evdev devices: not with --backend x11\n",
			argv[0]);
		free(config);
		return 2;
	}
	if (!config)
		config = default_config_path();
	if (!config) {
		fprintf(stderr, "%s: neither XDG_CONFIG_HOME nor HOME is set; use --config\n",
			argv[0]);
		return 2;
	}
	if (check) {
		int status = gd_config_check(config, stdout, stderr);
		free(config);
		return status;
	}
	/* the directory must exist to be watched for the file to appear */
	char *slash = strrchr(config, '/');
	if (slash && slash != config) {
		*slash = '\0';
		if (mkdir(config, 0755) < 0 && errno != EEXIST)
			fprintf(stderr, "%s: cannot create %s: %s\n", argv[0], config, strerror(errno));
		*slash = '/';
	}
	opts.config_path = config;
	char err[512];
	/* one daemon per user; a recording is a trial run beside it */
	int lock = -1;
	if (!opts.recording) {
		pid_t holder;
		lock = gd_instance_lock(&holder, err, sizeof(err));
		if (lock == -EWOULDBLOCK) {
			if (holder > 0)
				fprintf(stderr, "utouch-gestured: already running (pid %ld); not "
					"starting a second daemon\n", (long)holder);
			else
				fprintf(stderr, "utouch-gestured: already running; not starting a "
					"second daemon\n");
			free(config);
			return 0;
		}
		if (lock < 0)
			fprintf(stderr, "utouch-gestured: %s; going on without the "
				"single-instance guard\n", err);
	}
	struct gd_daemon *d = gd_daemon_new(&opts, err, sizeof(err));
	if (!d) {
		fprintf(stderr, "utouch-gestured: %s\n", err);
		gd_instance_unlock(lock);
		free(config);
		return 1;
	}
	int status = gd_daemon_run(d);
	gd_daemon_free(d);
	gd_instance_unlock(lock);
	free(config);
	return status;
}
