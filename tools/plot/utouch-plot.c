/*
 * utouch-plot: replay a recording through utouch's frame and grail layers,
 * like utouch-replay, and draw what happened as SVG or PNG.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>

#include <fontconfig/fontconfig.h>
#include <libevdev/libevdev.h>

#include "plot.h"
#include "tool.h"

static void
usage(FILE *out)
{
	fputs(
"usage: utouch-plot [options] RECORDING -o FILE.svg|FILE.png\n"
"Replay an evemu or libinput-record recording through utouch's frame and\n"
"grail layers and draw the touches, the gestures and a timeline.\n"
"\n"
"  -o, --output FILE    the picture; .svg or .png (required)\n"
"      --width PX       width of the picture (default 960, 480..8000)\n", out);
	fputs(replay_opts_help, out);
	fputs("  -h, --help           show this help\n", out);
}

/* The format named by @p path's extension, or -1. */
static int
format_of(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (!dot || strchr(dot, '/'))
		return -1;
	if (!strcasecmp(dot, ".svg"))
		return PLOT_SVG;
	if (!strcasecmp(dot, ".png"))
		return PLOT_PNG;
	return -1;
}

/* Remove what a failed write left at @p path, if it is a plain file (not
 * the device or the link it may be). */
static void
remove_partial(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
		unlink(path);
}

static int
write_picture(struct plot_canvas *c, const char *path)
{
	FILE *f = fopen(path, "wb");
	int saved;

	if (!f) {
		fprintf(stderr, "utouch-plot: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (plot_canvas_write(c, f) < 0) {
		saved = errno;
		fclose(f);
		remove_partial(path);
		fprintf(stderr, "utouch-plot: %s: %s\n", path, strerror(saved));
		return -1;
	}
	if (fclose(f)) {
		saved = errno;
		remove_partial(path);
		fprintf(stderr, "utouch-plot: %s: %s\n", path, strerror(saved));
		return -1;
	}
	return 0;
}

enum { OPT_WIDTH = REPLAY_OPT_TOOL };

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		REPLAY_OPTS_LONGOPTS,
		{ "output", required_argument, NULL, 'o' },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct replay_opts opts;
	struct plot_info info = { .width = 960 };
	struct plot_data data;
	struct plot_canvas canvas = { 0 };
	struct ut_recording *rec;
	struct ut_script script;
	const char *output = NULL;
	char err[512];
	int format, c, rc = 0;

	tool_init("utouch-plot");
	replay_opts_init(&opts);
	while ((c = getopt_long(argc, argv, REPLAY_OPTS_SHORT "o:h", longopts, NULL)) != -1) {
		char *end;
		long w;

		if (c == 's' && opts.nsubs < REPLAY_MAX_SUBS)
			info.subtext[opts.nsubs] = optarg;
		switch (replay_opts_handle(&opts, c, optarg, err, sizeof(err))) {
		case 1:
			continue;
		case -1:
			tool_usage_error("%s", err);
		}
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case OPT_WIDTH:
			errno = 0;
			w = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || w < 480 || w > 8000)
				tool_usage_error("--width takes a number of pixels from 480 to 8000, not '%s'",
					  optarg);
			info.width = (int)w;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			tool_usage_error("unknown option");
		}
	}
	const char *path = tool_one_recording(argc, argv, optind);
	if (!output)
		tool_usage_error("no output file given (-o FILE.svg or -o FILE.png)");
	format = format_of(output);
	if (format < 0)
		tool_usage_error("%s: unknown picture format; the name must end in .svg or .png", output);
	if (opts.nsubs == 0)
		info.subtext[0] = "mask=drag (default)";
	replay_opts_finish(&opts);

	if (replay_opts_load(&opts, path, &rec, &script, err, sizeof(err)) < 0) {
		fprintf(stderr, "utouch-plot: %s\n", err);
		return 1;
	}
	info.path = path;
	info.device = libevdev_get_name(rec->dev) ? libevdev_get_name(rec->dev) : "";
	info.opts = &opts;
	info.direct = script.direct;
	if (plot_collect(&data, &opts, rec, &script, err, sizeof(err)) < 0) {
		fprintf(stderr, "utouch-plot: %s\n", err);
		rc = 1;
	} else {
		if (plot_render(&canvas, (enum plot_format)format, &data, &info) < 0) {
			if (errno == EFBIG)
				fprintf(stderr, "utouch-plot: %s: %zu gestures make the picture taller "
					"than the %d px a PNG can have; write SVG, or subscribe to "
					"fewer gestures\n", output, data.ngestures, PLOT_PNG_MAX);
			else
				fprintf(stderr, "utouch-plot: cannot draw the picture (out of memory)\n");
			rc = 1;
		} else if (write_picture(&canvas, output) < 0) {
			rc = 1;
		}
		plot_canvas_fini(&canvas);
		plot_data_release(&data);
	}
	ut_script_release(&script);
	ut_recording_free(rec);
	/* drop cairo's and fontconfig's caches, so that leak checkers see a
	 * clean exit */
	cairo_debug_reset_static_data();
	FcFini();
	return rc;
}
