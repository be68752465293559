/*
 * utouch-events: the command line.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "tool.h"

struct config_item config_items[] = {
	{ "drag-threshold", GEIS_CONFIG_DRAG_THRESHOLD, 1, 0, 0, 0 },
	{ "drag-timeout", GEIS_CONFIG_DRAG_TIMEOUT, 0, 0, 0, 0 },
	{ "pinch-threshold", GEIS_CONFIG_PINCH_THRESHOLD, 1, 0, 0, 0 },
	{ "pinch-timeout", GEIS_CONFIG_PINCH_TIMEOUT, 0, 0, 0, 0 },
	{ "rotate-threshold", GEIS_CONFIG_ROTATE_THRESHOLD, 1, 0, 0, 0 },
	{ "rotate-timeout", GEIS_CONFIG_ROTATE_TIMEOUT, 0, 0, 0, 0 },
	{ "tap-threshold", GEIS_CONFIG_TAP_THRESHOLD, 1, 0, 0, 0 },
	{ "tap-timeout", GEIS_CONFIG_TAP_TIMEOUT, 0, 0, 0, 0 },
	/* utouch extensions (utouch/geis.h) */
	{ "hold-timeout", UTOUCH_GEIS_CONFIG_HOLD_TIMEOUT, 0, 0, 0, 0 },
	{ "hold-threshold", UTOUCH_GEIS_CONFIG_HOLD_THRESHOLD, 1, 0, 0, 0 },
	{ "multitap-timeout", UTOUCH_GEIS_CONFIG_MULTITAP_TIMEOUT, 0, 0, 0, 0 },
	{ "multitap-threshold", UTOUCH_GEIS_CONFIG_MULTITAP_THRESHOLD, 1, 0, 0, 0 },
	{ "multitap-max", UTOUCH_GEIS_CONFIG_MULTITAP_MAXIMUM, 0, 0, 0, 0 },
	{ "edges", UTOUCH_GEIS_CONFIG_EDGE_SWIPE_EDGES, 0, 0, 0, 0 },
	{ "edge-margin", UTOUCH_GEIS_CONFIG_EDGE_SWIPE_MARGIN, 1, 0, 0, 0 },
	{ "edge-velocity", UTOUCH_GEIS_CONFIG_EDGE_SWIPE_VELOCITY, 1, 0, 0, 0 },
	{ "velocity-window", UTOUCH_GEIS_CONFIG_VELOCITY_WINDOW, 0, 0, 0, 0 },
	{ "whole-hand", UTOUCH_GEIS_CONFIG_WHOLE_HAND, 0, 0, 0, 0 },
};

/* ---- command line ---- */

static void
usage(FILE *out)
{
	fprintf(out,
"usage: %s [options]\n"
"Subscribe to gestures and print every geis event.\n"
"\n"
"What to subscribe to:\n"
"  -c, --class LIST        comma list of drag,pinch,rotate,tap,touch,flick\n"
"                          and the utouch extensions hold and edge (swipe)\n"
"                          (default: geis 2.2's five classes)\n"
"  -t, --touches N         exactly N touches (1..5)\n"
"      --min-touches N     at least N touches\n"
"      --max-touches N     at most N touches\n"
"  -d, --device NAME       only the device with this name\n"
"      --device-id ID      only the device with this geis device id\n"
"  -w, --window ID|root    report gestures in window ID (X11 window id, or\n"
"                          on recordings and evdev any number); 'root'\n"
"                          means no region term (the root window)\n"
"      --rect X,Y,W,H      recordings and evdev: only touches that begin in\n"
"                          this screen rectangle, in its coordinates\n"
"      --grab              subscription flag GEIS_SUBSCRIPTION_GRAB\n"
"      --cont              subscription flag GEIS_SUBSCRIPTION_CONT\n"
"      --drag-threshold M, --drag-timeout MS, --pinch-threshold R,\n"
"      --pinch-timeout MS, --rotate-threshold RAD, --rotate-timeout MS,\n"
"      --tap-threshold M, --tap-timeout MS\n"
"                          recognizer settings of the subscription\n"
"      --hold-timeout MS, --hold-threshold M, --multitap-timeout MS,\n"
"      --multitap-threshold M, --multitap-max N, --edges LIST (of left,\n"
"      right,top,bottom), --edge-margin M, --edge-velocity M/S,\n"
"      --velocity-window MS\n"
"                          settings of the utouch extensions; any of them\n"
"                          adds the extension attributes to gestures\n"
"      --whole-hand 0|1    only gestures of every touch down (no subset of\n"
"                          a larger hand); adds no attributes\n"
"      --no-atomic         GEIS_INIT_NO_ATOMIC_GESTURES (needed for\n"
"                          --accept/--reject to take effect)\n"
"      --tentative         also print tentative events\n"
"      --synchronous       also print updates without new time\n"
"\n"
"Where touches come from (default: $%s, else x11 with\n"
"$DISPLAY, else evdev):\n"
"  -r, --recording FILE    play an evemu or libinput-record file in real\n"
"                          time; exit at its end\n"
"  -f, --fast              with --recording: play in virtual time\n"
"      --evdev             the Linux input devices\n"
"      --evdev-grab        with --evdev: grab the devices (EVIOCGRAB)\n"
"      --evdev-dir DIR     with --evdev: watch DIR instead of /dev/input\n"
"      --save FILE         with --evdev: also save what each touch device\n"
"                          sends as an evemu recording (for a bug report,\n"
"                          or to replay with --recording); a second device\n"
"                          goes to FILE-2, ...\n"
"      --x11               the X server\n"
"\n"
"What to do with gestures:\n"
"      --accept            accept every gesture at its first event\n"
"      --reject            reject every gesture at its first event\n"
"\n"
"Output:\n"
"  -j, --json              one JSON object per event and line\n"
"  -h, --help              this text\n"
"\n"
"Stops on SIGINT or SIGTERM, or at the end of a recording.\n",
		prog, UTOUCH_GEIS_BACKEND_ENV);
}

static long
parse_long(const char *opt, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end || v < min || v > max)
		tool_usage_error("%s takes a number from %ld to %ld, not '%s'", opt, min, max, s);
	return v;
}

static double
parse_double(const char *opt, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0)
		tool_usage_error("%s takes a number >= 0, not '%s'", opt, s);
	return v;
}

static void
parse_classes(struct options *o, const char *list)
{
	char *copy = strdup(list), *save = NULL;

	if (!copy) {
		perror(prog);
		exit(1);
	}
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int found = ut_gesture_class_find(tok, strlen(tok), 1);

		if (found < 0) {
			char bad[32];

			snprintf(bad, sizeof(bad), "%s", tok);
			free(copy);
			tool_usage_error("unknown gesture class '%s' (expected drag, pinch, rotate, "
				  "tap, touch, flick, hold or edge)", bad);
		}
		if (!o->classes[found]) {
			o->classes[found] = 1;
			o->nclasses++;
		}
	}
	free(copy);
	if (o->nclasses == 0)
		tool_usage_error("--class needs at least one class");
}

/* --edges: a comma list of left, right, top, bottom. */
static GeisInteger
parse_edges(const char *list)
{
	static const struct {
		const char *name;
		GeisInteger bit;
	} edges[] = {
		{ "left", UTOUCH_GEIS_EDGE_LEFT }, { "right", UTOUCH_GEIS_EDGE_RIGHT },
		{ "top", UTOUCH_GEIS_EDGE_TOP }, { "bottom", UTOUCH_GEIS_EDGE_BOTTOM },
	};
	GeisInteger v = 0;
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ",");
		size_t i;

		for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
			if (strlen(edges[i].name) == n && strncmp(p, edges[i].name, n) == 0)
				break;
		if (i == sizeof(edges) / sizeof(edges[0]))
			tool_usage_error("--edges takes a comma list of left, right, top and bottom, "
				  "not '%s'", list);
		v |= edges[i].bit;
		p += n;
		if (*p)
			p++;
	}
	if (!v)
		tool_usage_error("--edges needs at least one edge");
	return v;
}

enum {
	OPT_MIN_TOUCHES = 256, OPT_MAX_TOUCHES, OPT_DEVICE_ID, OPT_RECT, OPT_GRAB, OPT_CONT,
	OPT_NO_ATOMIC, OPT_TENTATIVE, OPT_SYNCHRONOUS, OPT_EVDEV, OPT_EVDEV_GRAB, OPT_EVDEV_DIR, OPT_SAVE, OPT_X11,
	OPT_ACCEPT, OPT_REJECT, OPT_CONFIG /* + index */
};

void
parse_args(int argc, char **argv, struct options *o)
{
	struct option longopts[64] = {
		{ "class", required_argument, NULL, 'c' },
		{ "touches", required_argument, NULL, 't' },
		{ "min-touches", required_argument, NULL, OPT_MIN_TOUCHES },
		{ "max-touches", required_argument, NULL, OPT_MAX_TOUCHES },
		{ "device", required_argument, NULL, 'd' },
		{ "device-id", required_argument, NULL, OPT_DEVICE_ID },
		{ "window", required_argument, NULL, 'w' },
		{ "grab", no_argument, NULL, OPT_GRAB },
		{ "rect", required_argument, NULL, OPT_RECT },
		{ "cont", no_argument, NULL, OPT_CONT },
		{ "no-atomic", no_argument, NULL, OPT_NO_ATOMIC },
		{ "tentative", no_argument, NULL, OPT_TENTATIVE },
		{ "synchronous", no_argument, NULL, OPT_SYNCHRONOUS },
		{ "recording", required_argument, NULL, 'r' },
		{ "fast", no_argument, NULL, 'f' },
		{ "evdev", no_argument, NULL, OPT_EVDEV },
		{ "evdev-grab", no_argument, NULL, OPT_EVDEV_GRAB },
		{ "evdev-dir", required_argument, NULL, OPT_EVDEV_DIR },
		{ "save", required_argument, NULL, OPT_SAVE },
		{ "x11", no_argument, NULL, OPT_X11 },
		{ "accept", no_argument, NULL, OPT_ACCEPT },
		{ "reject", no_argument, NULL, OPT_REJECT },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
	};
	int n = 0, c;

	while (longopts[n].name)
		n++;
	for (int i = 0; i < NUM_CONFIG; i++)
		longopts[n++] = (struct option){ config_items[i].option, required_argument,
						 NULL, OPT_CONFIG + i };

	memset(o, 0, sizeof(*o));
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:t:d:w:r:fjh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			parse_classes(o, optarg);
			break;
		case 't':
			o->touches = (int)parse_long("--touches", optarg, 1, 5);
			break;
		case OPT_MIN_TOUCHES:
			o->min_touches = (int)parse_long("--min-touches", optarg, 1, 5);
			break;
		case OPT_MAX_TOUCHES:
			o->max_touches = (int)parse_long("--max-touches", optarg, 1, 5);
			break;
		case 'd':
			if (!*optarg)
				tool_usage_error("--device needs a device name");
			o->device_name = optarg;
			break;
		case OPT_DEVICE_ID:
			o->device_id = (int)parse_long("--device-id", optarg, 1, INT32_MAX);
			break;
		case 'w':
			if (strcmp(optarg, "root") == 0)
				o->window = -1;
			else
				o->window = parse_long("--window", optarg, 1, INT32_MAX);
			break;
		case OPT_RECT: {
			int used = 0;
			if (sscanf(optarg, "%d,%d,%d,%d%n", &o->rect[0], &o->rect[1], &o->rect[2],
				   &o->rect[3], &used) != 4 || optarg[used] != '\0' ||
			    o->rect[2] <= 0 || o->rect[3] <= 0)
				tool_usage_error("--rect needs X,Y,WIDTH,HEIGHT with a positive size");
			o->have_rect = 1;
			break;
		}
		case OPT_GRAB:
			o->flags |= GEIS_SUBSCRIPTION_GRAB;
			break;
		case OPT_CONT:
			o->flags |= GEIS_SUBSCRIPTION_CONT;
			break;
		case OPT_NO_ATOMIC:
			o->no_atomic = 1;
			break;
		case OPT_TENTATIVE:
			o->tentative = 1;
			break;
		case OPT_SYNCHRONOUS:
			o->synchronous = 1;
			break;
		case 'r':
			if (o->backend != BACKEND_DEFAULT && o->backend != BACKEND_RECORDING)
				tool_usage_error("choose one of --recording, --evdev and --x11");
			if (!*optarg)
				tool_usage_error("--recording needs a file name");
			o->backend = BACKEND_RECORDING;
			o->recording = optarg;
			break;
		case 'f':
			o->fast = 1;
			break;
		case OPT_EVDEV_GRAB:
			o->evdev_grab = 1;
			break;
		case OPT_EVDEV_DIR:
			if (!*optarg)
				tool_usage_error("--evdev-dir needs a directory");
			o->evdev_dir = optarg;
			break;
		case OPT_SAVE:
			if (!*optarg)
				tool_usage_error("--save needs a file name");
			o->save = optarg;
			break;
		case OPT_EVDEV:
		case OPT_X11:
			if (o->backend != BACKEND_DEFAULT)
				tool_usage_error("choose one of --recording, --evdev and --x11");
			o->backend = c == OPT_EVDEV ? BACKEND_EVDEV : BACKEND_X11;
			break;
		case OPT_ACCEPT:
		case OPT_REJECT:
			if (o->policy != POLICY_NONE)
				tool_usage_error("--accept and --reject exclude each other");
			o->policy = c == OPT_ACCEPT ? POLICY_ACCEPT : POLICY_REJECT;
			break;
		case 'j':
			o->json = 1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case ':':
			tool_usage_error("option '%s' needs a value", argv[optind - 1]);
		case '?':
			if (optopt)
				tool_usage_error("unknown option '-%c'", optopt);
			tool_usage_error("unknown option '%s'", argv[optind - 1]);
		default:
			if (c >= OPT_CONFIG && c < OPT_CONFIG + NUM_CONFIG) {
				struct config_item *ci = &config_items[c - OPT_CONFIG];
				char name[40];

				snprintf(name, sizeof(name), "--%s", ci->option);
				ci->set = 1;
				if (strcmp(ci->item, UTOUCH_GEIS_CONFIG_EDGE_SWIPE_EDGES) == 0)
					ci->i = parse_edges(optarg);
				else if (ci->is_float)
					ci->f = (GeisFloat)parse_double(name, optarg);
				else
					ci->i = (GeisInteger)parse_long(name, optarg, 0, INT32_MAX);
				break;
			}
			tool_usage_error("unexpected option");
		}
	}
	if (optind < argc)
		tool_usage_error("unexpected argument '%s'", argv[optind]);
	if (o->fast && o->backend != BACKEND_RECORDING)
		tool_usage_error("--fast needs --recording");
	if (o->touches && (o->min_touches || o->max_touches))
		tool_usage_error("--touches excludes --min-touches and --max-touches");
	if (o->have_rect && o->window)
		tool_usage_error("--rect excludes --window");
	if ((o->evdev_grab || o->evdev_dir || o->save) && o->backend != BACKEND_EVDEV)
		tool_usage_error("--evdev-grab, --evdev-dir and --save need --evdev");
	if (o->min_touches && o->max_touches && o->min_touches > o->max_touches)
		tool_usage_error("--min-touches %d is more than --max-touches %d",
			  o->min_touches, o->max_touches);
}

