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

#include "gd-config.h"
#include "gd-daemon.h"

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
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct gd_options opts = { .backend = GD_BACKEND_AUTO };
	char *config = NULL;
	int check = 0, c;

	while ((c = getopt_long(argc, argv, "c:nb:vhV", longopts, NULL)) != -1) {
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
	struct gd_daemon *d = gd_daemon_new(&opts, err, sizeof(err));
	if (!d) {
		fprintf(stderr, "utouch-gestured: %s\n", err);
		free(config);
		return 1;
	}
	int status = gd_daemon_run(d);
	gd_daemon_free(d);
	free(config);
	return status;
}
