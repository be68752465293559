/*
 * utouch-events: subscribe to gestures from the command line and print
 * every geis event, as text or as one JSON object per line.
 *
 * Uses the public geis v2 API plus the utouch extensions of
 * <utouch/geis.h> (backend selection, end of a recording).  See
 * doc/utouch-events.1.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <geis/geis.h>
#include <utouch/geis.h>

#include "util/gesture-class.h"

#define MAX_INIT_ARGS 16

enum policy { POLICY_NONE, POLICY_ACCEPT, POLICY_REJECT };
enum backend { BACKEND_DEFAULT, BACKEND_RECORDING, BACKEND_EVDEV, BACKEND_X11 };

/* --class takes the keys of the shared class table (util/gesture-class.h) */
#define NUM_CLASSES UT_NUM_GESTURE_CLASSES

/* Per-subscription settings: name, value type, and the option value. */
struct config_item {
	const char *option;
	const char *item;
	int is_float;
	int set;
	GeisFloat f;
	GeisInteger i;
};

static struct config_item config_items[] = {
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
};
#define NUM_CONFIG ((int)(sizeof(config_items) / sizeof(config_items[0])))

struct options {
	int classes[NUM_CLASSES];
	int nclasses;
	int touches, min_touches, max_touches;   /* 0: not given */
	const char *device_name;
	int device_id;                            /* 0: not given */
	long window;                              /* 0: none; -1: root */
	int have_rect;                            /* --rect given */
	int evdev_grab;                           /* --evdev-grab */
	const char *evdev_dir;                    /* --evdev-dir */
	const char *save;                         /* --save */
	int rect[4];                              /* x, y, width, height */
	enum backend backend;
	const char *recording;
	int fast;
	enum policy policy;
	int json;
	int no_atomic, tentative, synchronous;
	GeisSubscriptionFlags flags;
};

/* The instance and what the printer needs to know about it. */
struct state {
	const struct options *opt;
	Geis geis;
	GeisGestureClass classes[NUM_CLASSES];   /* referenced, once announced */
	GeisGestureId *decided;                  /* gestures the policy handled */
	size_t ndecided, capdecided;
	int failed;
};

static const char *prog = "utouch-events";

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

static void __attribute__((noreturn, format(printf, 1, 2)))
bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	exit(2);
}

static long
parse_long(const char *opt, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end || v < min || v > max)
		bad_usage("%s takes a number from %ld to %ld, not '%s'", opt, min, max, s);
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
		bad_usage("%s takes a number >= 0, not '%s'", opt, s);
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
			bad_usage("unknown gesture class '%s' (expected drag, pinch, rotate, "
				  "tap, touch, flick, hold or edge)", bad);
		}
		if (!o->classes[found]) {
			o->classes[found] = 1;
			o->nclasses++;
		}
	}
	free(copy);
	if (o->nclasses == 0)
		bad_usage("--class needs at least one class");
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
			bad_usage("--edges takes a comma list of left, right, top and bottom, "
				  "not '%s'", list);
		v |= edges[i].bit;
		p += n;
		if (*p)
			p++;
	}
	if (!v)
		bad_usage("--edges needs at least one edge");
	return v;
}

enum {
	OPT_MIN_TOUCHES = 256, OPT_MAX_TOUCHES, OPT_DEVICE_ID, OPT_RECT, OPT_GRAB, OPT_CONT,
	OPT_NO_ATOMIC, OPT_TENTATIVE, OPT_SYNCHRONOUS, OPT_EVDEV, OPT_EVDEV_GRAB, OPT_EVDEV_DIR, OPT_SAVE, OPT_X11,
	OPT_ACCEPT, OPT_REJECT, OPT_CONFIG /* + index */
};

static void
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
				bad_usage("--device needs a device name");
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
				bad_usage("--rect needs X,Y,WIDTH,HEIGHT with a positive size");
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
				bad_usage("choose one of --recording, --evdev and --x11");
			if (!*optarg)
				bad_usage("--recording needs a file name");
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
				bad_usage("--evdev-dir needs a directory");
			o->evdev_dir = optarg;
			break;
		case OPT_SAVE:
			if (!*optarg)
				bad_usage("--save needs a file name");
			o->save = optarg;
			break;
		case OPT_EVDEV:
		case OPT_X11:
			if (o->backend != BACKEND_DEFAULT)
				bad_usage("choose one of --recording, --evdev and --x11");
			o->backend = c == OPT_EVDEV ? BACKEND_EVDEV : BACKEND_X11;
			break;
		case OPT_ACCEPT:
		case OPT_REJECT:
			if (o->policy != POLICY_NONE)
				bad_usage("--accept and --reject exclude each other");
			o->policy = c == OPT_ACCEPT ? POLICY_ACCEPT : POLICY_REJECT;
			break;
		case 'j':
			o->json = 1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case ':':
			bad_usage("option '%s' needs a value", argv[optind - 1]);
		case '?':
			if (optopt)
				bad_usage("unknown option '-%c'", optopt);
			bad_usage("unknown option '%s'", argv[optind - 1]);
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
			bad_usage("unexpected option");
		}
	}
	if (optind < argc)
		bad_usage("unexpected argument '%s'", argv[optind]);
	if (o->fast && o->backend != BACKEND_RECORDING)
		bad_usage("--fast needs --recording");
	if (o->touches && (o->min_touches || o->max_touches))
		bad_usage("--touches excludes --min-touches and --max-touches");
	if (o->have_rect && o->window)
		bad_usage("--rect excludes --window");
	if ((o->evdev_grab || o->evdev_dir || o->save) && o->backend != BACKEND_EVDEV)
		bad_usage("--evdev-grab, --evdev-dir and --save need --evdev");
	if (o->min_touches && o->max_touches && o->min_touches > o->max_touches)
		bad_usage("--min-touches %d is more than --max-touches %d",
			  o->min_touches, o->max_touches);
}

/* ---- output helpers ---- */

static void
json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '"':  fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		default:
			if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

static void
json_float(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.9g", v);
	else
		fputs("null", out);
}

/* Print an attribute value: JSON or text.  Pointers print as null / a
 * placeholder (they are expanded elsewhere). */
static void
print_value(FILE *out, GeisAttr a, int json)
{
	switch (geis_attr_type(a)) {
	case GEIS_ATTR_TYPE_BOOLEAN:
		fputs(geis_attr_value_to_boolean(a) ? "true" : "false", out);
		break;
	case GEIS_ATTR_TYPE_INTEGER:
		fprintf(out, "%d", geis_attr_value_to_integer(a));
		break;
	case GEIS_ATTR_TYPE_FLOAT:
		if (json)
			json_float(out, geis_attr_value_to_float(a));
		else
			fprintf(out, "%g", geis_attr_value_to_float(a));
		break;
	case GEIS_ATTR_TYPE_STRING:
		if (json)
			json_string(out, geis_attr_value_to_string(a));
		else
			fprintf(out, "\"%s\"", geis_attr_value_to_string(a) ?
				geis_attr_value_to_string(a) : "");
		break;
	default:
		fputs(json ? "null" : "(pointer)", out);
		break;
	}
}

typedef GeisSize (*attr_count_fn)(void *obj);
typedef GeisAttr (*attr_get_fn)(void *obj, GeisSize i);

/* JSON: "attrs":{...} of an object; skips pointer attributes. */
static void
json_attrs(FILE *out, void *obj, attr_count_fn count, attr_get_fn get)
{
	int first = 1;

	fputs("\"attrs\":{", out);
	for (GeisSize i = 0; i < count(obj); i++) {
		GeisAttr a = get(obj, i);

		if (geis_attr_type(a) == GEIS_ATTR_TYPE_POINTER)
			continue;
		if (!first)
			fputc(',', out);
		first = 0;
		json_string(out, geis_attr_name(a));
		fputc(':', out);
		print_value(out, a, 1);
	}
	fputc('}', out);
}

/* Text: one "  name = value" line per non-pointer attribute. */
static void
text_attrs(FILE *out, const char *indent, void *obj, attr_count_fn count, attr_get_fn get)
{
	for (GeisSize i = 0; i < count(obj); i++) {
		GeisAttr a = get(obj, i);

		if (geis_attr_type(a) == GEIS_ATTR_TYPE_POINTER)
			continue;
		fprintf(out, "%s%s = ", indent, geis_attr_name(a));
		print_value(out, a, 0);
		fputc('\n', out);
	}
}

/* Adapters from the typed accessors to the generic ones. */
static GeisSize ev_count(void *o) { return geis_event_attr_count(o); }
static GeisAttr ev_get(void *o, GeisSize i) { return geis_event_attr(o, i); }
static GeisSize dev_count(void *o) { return geis_device_attr_count(o); }
static GeisAttr dev_get(void *o, GeisSize i) { return geis_device_attr(o, i); }
static GeisSize cls_count(void *o) { return geis_gesture_class_attr_count(o); }
static GeisAttr cls_get(void *o, GeisSize i) { return geis_gesture_class_attr(o, (int)i); }
static GeisSize fr_count(void *o) { return geis_frame_attr_count(o); }
static GeisAttr fr_get(void *o, GeisSize i) { return geis_frame_attr(o, i); }
static GeisSize tc_count(void *o) { return geis_touch_attr_count(o); }
static GeisAttr tc_get(void *o, GeisSize i) { return geis_touch_attr(o, i); }

static const char *
event_name(GeisEventType t)
{
	switch (t) {
	case GEIS_EVENT_DEVICE_AVAILABLE:   return "DEVICE_AVAILABLE";
	case GEIS_EVENT_DEVICE_UNAVAILABLE: return "DEVICE_UNAVAILABLE";
	case GEIS_EVENT_CLASS_AVAILABLE:    return "CLASS_AVAILABLE";
	case GEIS_EVENT_CLASS_CHANGED:      return "CLASS_CHANGED";
	case GEIS_EVENT_CLASS_UNAVAILABLE:  return "CLASS_UNAVAILABLE";
	case GEIS_EVENT_GESTURE_BEGIN:      return "GESTURE_BEGIN";
	case GEIS_EVENT_GESTURE_UPDATE:     return "GESTURE_UPDATE";
	case GEIS_EVENT_GESTURE_END:        return "GESTURE_END";
	case GEIS_EVENT_TENTATIVE_BEGIN:    return "TENTATIVE_BEGIN";
	case GEIS_EVENT_TENTATIVE_UPDATE:   return "TENTATIVE_UPDATE";
	case GEIS_EVENT_TENTATIVE_END:      return "TENTATIVE_END";
	case GEIS_EVENT_INIT_COMPLETE:      return "INIT_COMPLETE";
	case GEIS_EVENT_USER_DEFINED:       return "USER_DEFINED";
	case GEIS_EVENT_ERROR:              return "ERROR";
	}
	return "UNKNOWN";
}

static int
is_gesture_event(GeisEventType t)
{
	return t == GEIS_EVENT_GESTURE_BEGIN || t == GEIS_EVENT_GESTURE_UPDATE ||
	       t == GEIS_EVENT_GESTURE_END || t == GEIS_EVENT_TENTATIVE_BEGIN ||
	       t == GEIS_EVENT_TENTATIVE_UPDATE || t == GEIS_EVENT_TENTATIVE_END;
}

/* ---- event printing ---- */

static void
print_device_event(struct state *st, GeisEvent ev, FILE *out)
{
	GeisDevice d = geis_attr_value_to_pointer(
		geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_DEVICE));

	if (st->opt->json) {
		fprintf(out, "{\"event\":\"%s\",\"device\":{\"id\":%d,\"name\":",
			event_name(geis_event_type(ev)), geis_device_id(d));
		json_string(out, geis_device_name(d));
		fputc(',', out);
		json_attrs(out, d, dev_count, dev_get);
		fputs("}}\n", out);
		return;
	}
	fprintf(out, "%s device %d \"%s\"\n", event_name(geis_event_type(ev)),
		geis_device_id(d), geis_device_name(d) ? geis_device_name(d) : "");
	text_attrs(out, "  ", d, dev_count, dev_get);
}

static void
print_class_event(struct state *st, GeisEvent ev, FILE *out)
{
	GeisGestureClass c = geis_attr_value_to_pointer(
		geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_CLASS));

	if (st->opt->json) {
		fprintf(out, "{\"event\":\"%s\",\"class\":{\"id\":%d,\"name\":",
			event_name(geis_event_type(ev)), geis_gesture_class_id(c));
		json_string(out, geis_gesture_class_name(c));
		fputc(',', out);
		json_attrs(out, c, cls_count, cls_get);
		fputs("}}\n", out);
		return;
	}
	fprintf(out, "%s class %d \"%s\"\n", event_name(geis_event_type(ev)),
		geis_gesture_class_id(c),
		geis_gesture_class_name(c) ? geis_gesture_class_name(c) : "");
}

/* The names of the classes a frame is in, for JSON or text. */
static void
print_frame_classes(struct state *st, GeisFrame f, FILE *out, int json)
{
	int first = 1;

	if (json)
		fputc('[', out);
	for (int i = 0; i < NUM_CLASSES; i++) {
		if (!st->classes[i] || !geis_frame_is_class(f, st->classes[i]))
			continue;
		if (!first)
			fputc(json ? ',' : '+', out);
		first = 0;
		if (json)
			json_string(out, ut_gesture_classes[i].name);
		else
			fputs(ut_gesture_classes[i].name, out);
	}
	if (json)
		fputc(']', out);
	else if (first) {
		/* the utouch extension classes are never announced: name the
		 * gesture instead */
		GeisAttr a = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME);
		const char *name = a ? geis_attr_value_to_string(a) : NULL;
		fputs(name && (strcmp(name, UTOUCH_GEIS_GESTURE_HOLD) == 0 ||
			       strcmp(name, UTOUCH_GEIS_GESTURE_EDGE_SWIPE) == 0)
			      ? name : "(none)", out);
	}
}

static void
print_gesture_event(struct state *st, GeisEvent ev, FILE *out)
{
	GeisGroupSet gs = geis_attr_value_to_pointer(
		geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET));
	GeisTouchSet ts = geis_attr_value_to_pointer(
		geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_TOUCHSET));
	int json = st->opt->json;

	if (json) {
		int first = 1;

		fprintf(out, "{\"event\":\"%s\",", event_name(geis_event_type(ev)));
		json_attrs(out, ev, ev_count, ev_get);
		fputs(",\"frames\":[", out);
		for (GeisSize g = 0; g < geis_groupset_group_count(gs); g++) {
			GeisGroup group = geis_groupset_group(gs, g);

			for (GeisSize k = 0; k < geis_group_frame_count(group); k++) {
				GeisFrame f = geis_group_frame(group, k);
				GeisAttr ta = geis_frame_attr_by_name(f,
						GEIS_GESTURE_ATTRIBUTE_TOUCHES);

				if (!first)
					fputc(',', out);
				first = 0;
				fprintf(out, "{\"gesture\":%u,\"group\":%d,\"classes\":",
					geis_frame_id(f), geis_group_id(group));
				print_frame_classes(st, f, out, 1);
				fprintf(out, ",\"touches\":%d,", geis_attr_value_to_integer(ta));
				json_attrs(out, f, fr_count, fr_get);
				fputs(",\"touch_ids\":[", out);
				for (GeisSize t = 0; t < geis_frame_touchid_count(f); t++)
					fprintf(out, "%s%zu", t ? "," : "",
						(size_t)geis_frame_touchid(f, t));
				fputs("]}", out);
			}
		}
		fputs("],\"touchset\":[", out);
		for (GeisSize t = 0; t < geis_touchset_touch_count(ts); t++) {
			GeisTouch touch = geis_touchset_touch(ts, t);

			fprintf(out, "%s{\"id\":%zu,", t ? "," : "", (size_t)geis_touch_id(touch));
			json_attrs(out, touch, tc_count, tc_get);
			fputc('}', out);
		}
		fputs("]}\n", out);
		return;
	}

	for (GeisSize g = 0; g < geis_groupset_group_count(gs); g++) {
		GeisGroup group = geis_groupset_group(gs, g);

		for (GeisSize k = 0; k < geis_group_frame_count(group); k++) {
			GeisFrame f = geis_group_frame(group, k);
			GeisAttr ta = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_TOUCHES);
			GeisAttr tm = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_TIMESTAMP);

			fprintf(out, "%s gesture %u group %d class ",
				event_name(geis_event_type(ev)), geis_frame_id(f),
				geis_group_id(group));
			print_frame_classes(st, f, out, 0);
			fprintf(out, " touches %d time %d\n", geis_attr_value_to_integer(ta),
				geis_attr_value_to_integer(tm));
			text_attrs(out, "  ", ev, ev_count, ev_get);
			text_attrs(out, "  ", f, fr_count, fr_get);
			for (GeisSize t = 0; t < geis_frame_touchid_count(f); t++) {
				GeisTouch touch = geis_touchset_touch_by_id(ts,
						geis_frame_touchid(f, t));

				fprintf(out, "  touch %zu:", (size_t)geis_frame_touchid(f, t));
				for (GeisSize i = 0; i < geis_touch_attr_count(touch); i++) {
					GeisAttr a = geis_touch_attr(touch, i);

					fprintf(out, " %s=", geis_attr_name(a));
					print_value(out, a, 0);
				}
				fputc('\n', out);
			}
		}
	}
}

static void
print_other_event(struct state *st, GeisEvent ev, FILE *out)
{
	if (st->opt->json) {
		fprintf(out, "{\"event\":\"%s\",", event_name(geis_event_type(ev)));
		json_attrs(out, ev, ev_count, ev_get);
		fputs("}\n", out);
		return;
	}
	fprintf(out, "%s\n", event_name(geis_event_type(ev)));
	text_attrs(out, "  ", ev, ev_count, ev_get);
}

/* ---- accept / reject ---- */

static int
decided_index(const struct state *st, GeisGestureId id)
{
	for (size_t i = 0; i < st->ndecided; i++)
		if (st->decided[i] == id)
			return (int)i;
	return -1;
}

static void
apply_policy(struct state *st, GeisEvent ev, FILE *out)
{
	GeisEventType type = geis_event_type(ev);
	GeisGroupSet gs = geis_attr_value_to_pointer(
		geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET));

	if (st->opt->policy == POLICY_NONE || !is_gesture_event(type))
		return;
	for (GeisSize g = 0; g < geis_groupset_group_count(gs); g++) {
		GeisGroup group = geis_groupset_group(gs, g);

		for (GeisSize k = 0; k < geis_group_frame_count(group); k++) {
			GeisGestureId id = geis_frame_id(geis_group_frame(group, k));
			int idx = decided_index(st, id);
			int accept = st->opt->policy == POLICY_ACCEPT;
			GeisStatus s;

			if (idx >= 0) {
				/* forget ended gestures: ids may be reused */
				if (type == GEIS_EVENT_GESTURE_END || type == GEIS_EVENT_TENTATIVE_END)
					st->decided[idx] = st->decided[--st->ndecided];
				continue;
			}
			if (type == GEIS_EVENT_GESTURE_END || type == GEIS_EVENT_TENTATIVE_END)
				continue;   /* nothing left to decide */
			if (st->ndecided == st->capdecided) {
				size_t cap = st->capdecided ? st->capdecided * 2 : 16;
				GeisGestureId *d = realloc(st->decided, cap * sizeof(*d));

				if (!d) {
					fprintf(stderr, "%s: out of memory\n", prog);
					st->failed = 1;
					return;
				}
				st->decided = d;
				st->capdecided = cap;
			}
			st->decided[st->ndecided++] = id;
			s = accept ? geis_gesture_accept(st->geis, group, id)
				   : geis_gesture_reject(st->geis, group, id);
			if (st->opt->json)
				fprintf(out, "{\"action\":\"%s\",\"gesture\":%u,\"status\":%d}\n",
					accept ? "accept" : "reject", id, (int)s);
			else
				fprintf(out, "%s gesture %u: %s\n", accept ? "accept" : "reject", id,
					s == GEIS_STATUS_SUCCESS ? "ok" : "failed");
		}
	}
}

static void
handle_event(struct state *st, GeisEvent ev, FILE *out)
{
	GeisEventType type = geis_event_type(ev);

	switch (type) {
	case GEIS_EVENT_DEVICE_AVAILABLE:
	case GEIS_EVENT_DEVICE_UNAVAILABLE:
		print_device_event(st, ev, out);
		break;
	case GEIS_EVENT_CLASS_AVAILABLE:
	case GEIS_EVENT_CLASS_CHANGED:
	case GEIS_EVENT_CLASS_UNAVAILABLE: {
		GeisGestureClass c = geis_attr_value_to_pointer(
			geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_CLASS));
		const char *name = geis_gesture_class_name(c);

		for (int i = 0; name && i < NUM_CLASSES; i++) {
			if (strcmp(ut_gesture_classes[i].name, name) != 0)
				continue;
			if (type == GEIS_EVENT_CLASS_UNAVAILABLE) {
				geis_gesture_class_unref(st->classes[i]);
				st->classes[i] = NULL;
			} else if (!st->classes[i]) {
				geis_gesture_class_ref(c);
				st->classes[i] = c;
			}
		}
		print_class_event(st, ev, out);
		break;
	}
	default:
		if (is_gesture_event(type))
			print_gesture_event(st, ev, out);
		else
			print_other_event(st, ev, out);
		break;
	}
	/* the policy may drop queued events, so it runs after printing */
	apply_policy(st, ev, out);
	fflush(out);
}

/* ---- setup ---- */

static void
print_geis_errors(Geis geis, const char *what)
{
	GeisSize n = geis_error_count(geis);

	if (n == 0) {
		fprintf(stderr, "%s: %s failed\n", prog, what);
		return;
	}
	for (GeisSize i = 0; i < n; i++)
		fprintf(stderr, "%s: %s: %s\n", prog, what, geis_error_message(geis, i));
}

static Geis
create_instance(const struct options *o)
{
	const char *a[MAX_INIT_ARGS] = { NULL };
	int n = 0;

	a[n++] = GEIS_INIT_TRACK_DEVICES;
	a[n++] = GEIS_INIT_TRACK_GESTURE_CLASSES;
	switch (o->backend) {
	case BACKEND_RECORDING:
		a[n++] = UTOUCH_GEIS_INIT_RECORDING;
		a[n++] = o->recording;
		if (o->fast)
			a[n++] = UTOUCH_GEIS_INIT_RECORDING_FAST;
		break;
	case BACKEND_EVDEV:
		a[n++] = UTOUCH_GEIS_INIT_EVDEV;
		if (o->evdev_grab)
			a[n++] = UTOUCH_GEIS_INIT_EVDEV_GRAB;
		if (o->evdev_dir) {
			a[n++] = UTOUCH_GEIS_INIT_EVDEV_DIR;
			a[n++] = o->evdev_dir;
		}
		if (o->save) {
			a[n++] = UTOUCH_GEIS_INIT_EVDEV_SAVE;
			a[n++] = o->save;
		}
		break;
	case BACKEND_X11:
		a[n++] = UTOUCH_GEIS_INIT_X11;
		break;
	case BACKEND_DEFAULT:
		break;
	}
	if (o->no_atomic)
		a[n++] = GEIS_INIT_NO_ATOMIC_GESTURES;
	if (o->tentative)
		a[n++] = GEIS_INIT_SEND_TENTATIVE_EVENTS;
	if (o->synchronous)
		a[n++] = GEIS_INIT_SEND_SYNCHRONOS_EVENTS;
	/* the list ends at the first NULL */
	return geis_new(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9],
			a[10], a[11], a[12], a[13], NULL);
}

/* One filter: an optional class, plus the touch, device and region terms. */
static int
add_filter(Geis geis, GeisSubscription sub, const struct options *o, int cls)
{
	GeisFilter f = geis_filter_new(geis, cls >= 0 ? ut_gesture_classes[cls].key : "all");
	GeisStatus s = GEIS_STATUS_SUCCESS;

	if (!f)
		return -1;
	if (cls >= 0)
		s = geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME,
					 GEIS_FILTER_OP_EQ, ut_gesture_classes[cls].name, NULL);
	if (s == GEIS_STATUS_SUCCESS && o->touches)
		s = geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_GESTURE_ATTRIBUTE_TOUCHES,
					 GEIS_FILTER_OP_EQ, o->touches, NULL);
	if (s == GEIS_STATUS_SUCCESS && o->min_touches)
		s = geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_GESTURE_ATTRIBUTE_TOUCHES,
					 GEIS_FILTER_OP_GE, o->min_touches, NULL);
	if (s == GEIS_STATUS_SUCCESS && o->max_touches)
		s = geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_GESTURE_ATTRIBUTE_TOUCHES,
					 GEIS_FILTER_OP_LE, o->max_touches, NULL);
	if (s == GEIS_STATUS_SUCCESS && o->device_name)
		s = geis_filter_add_term(f, GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_NAME,
					 GEIS_FILTER_OP_EQ, o->device_name, NULL);
	if (s == GEIS_STATUS_SUCCESS && o->device_id)
		s = geis_filter_add_term(f, GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_ID,
					 GEIS_FILTER_OP_EQ, o->device_id, NULL);
	if (s == GEIS_STATUS_SUCCESS && o->window > 0)
		s = geis_filter_add_term(f, GEIS_FILTER_REGION, GEIS_REGION_ATTRIBUTE_WINDOWID,
					 GEIS_FILTER_OP_EQ, (int)o->window, NULL);
	if (s == GEIS_STATUS_SUCCESS && o->have_rect) {
		/* one region for every filter; geis_delete() frees it */
		static GeisRegion rect;
		if (!rect)
			rect = geis_region_new(geis, "rect", UTOUCH_GEIS_REGION_RECT, o->rect[0],
					       o->rect[1], o->rect[2], o->rect[3], NULL);
		s = rect ? geis_filter_add_term(f, GEIS_FILTER_REGION,
						GEIS_REGION_ATTRIBUTE_WINDOWID, GEIS_FILTER_OP_EQ,
						utouch_geis_region_window_id(rect), NULL)
			 : GEIS_STATUS_BAD_ARGUMENT;
	}
	if (s == GEIS_STATUS_SUCCESS)
		s = geis_subscription_add_filter(sub, f);
	if (s != GEIS_STATUS_SUCCESS) {
		print_geis_errors(geis, "filter");
		geis_filter_delete(f);
		return -1;
	}
	return 0;
}

static GeisSubscription
subscribe(Geis geis, const struct options *o)
{
	GeisSubscription sub = geis_subscription_new(geis, "utouch-events", o->flags);

	if (!sub) {
		print_geis_errors(geis, "geis_subscription_new");
		return NULL;
	}
	if (o->nclasses == 0) {
		if (add_filter(geis, sub, o, -1) < 0)
			goto fail;
	} else {
		for (int i = 0; i < NUM_CLASSES; i++)
			if (o->classes[i] && add_filter(geis, sub, o, i) < 0)
				goto fail;
	}
	for (int i = 0; i < NUM_CONFIG; i++) {
		struct config_item *ci = &config_items[i];
		GeisStatus s;

		if (!ci->set)
			continue;
		s = geis_subscription_set_configuration(sub, ci->item,
							ci->is_float ? (void *)&ci->f
								     : (void *)&ci->i);
		if (s != GEIS_STATUS_SUCCESS) {
			fprintf(stderr, "%s: --%s: the value was refused\n", prog, ci->option);
			print_geis_errors(geis, "configuration");
			goto fail;
		}
	}
	if (geis_subscription_activate(sub) != GEIS_STATUS_SUCCESS) {
		print_geis_errors(geis, "geis_subscription_activate");
		goto fail;
	}
	return sub;
fail:
	geis_subscription_delete(sub);
	return NULL;
}

/* ---- main loop ---- */

/* Take every queued event.  Returns the number handled. */
static int
drain(struct state *st, FILE *out)
{
	GeisEvent ev;
	GeisStatus s;
	int n = 0;

	while ((s = geis_next_event(st->geis, &ev)) == GEIS_STATUS_SUCCESS ||
	       s == GEIS_STATUS_CONTINUE) {
		handle_event(st, ev, out);
		geis_event_delete(ev);
		n++;
	}
	return n;
}

/*
 * SIGINT and SIGTERM.  Until the main loop runs (geis_new() may block,
 * e.g. opening a FIFO nobody writes to), they keep their default action.
 * In the loop, the first one asks for a clean stop: it wakes poll()
 * through a pipe and is seen after the dispatch in progress.  A second one
 * before the program stopped kills it, so a program stuck in a dispatch
 * can still be interrupted.
 */
static volatile sig_atomic_t stop_requested;
static int stop_pipe[2] = { -1, -1 };

static void
on_stop_signal(int sig)
{
	int saved = errno;

	if (stop_requested) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	stop_requested = 1;
	if (write(stop_pipe[1], "", 1) < 0) {
		/* the pipe is full: a wake-up is pending anyway */
	}
	errno = saved;
}

/* From now on the signals stop the loop instead of the program. */
static int
catch_stop_signals(void)
{
	struct sigaction sa;

	if (pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0)
		return -1;
	return 0;
}

static int
run(struct state *st)
{
	const int is_recording = st->opt->backend == BACKEND_RECORDING ||
		(st->opt->backend == BACKEND_DEFAULT && getenv(UTOUCH_GEIS_BACKEND_ENV) &&
		 strncmp(getenv(UTOUCH_GEIS_BACKEND_ENV), "recording", 9) == 0);
	struct pollfd fds[2];
	int geis_fd = -1;

	if (geis_get_configuration(st->geis, GEIS_CONFIGURATION_FD, &geis_fd) !=
	    GEIS_STATUS_SUCCESS) {
		print_geis_errors(st->geis, "the configuration fd");
		return 1;
	}
	fds[0] = (struct pollfd){ .fd = geis_fd, .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = stop_pipe[0], .events = POLLIN };

	for (;;) {
		int timeout = -1;

		if (stop_requested)
			return 0;   /* SIGINT or SIGTERM */
		/* a finished recording: leave once nothing is left to do */
		if (is_recording && utouch_geis_playback_finished(st->geis))
			timeout = 0;
		if (poll(fds, 2, timeout) < 0) {
			if (errno == EINTR)
				continue;
			perror(prog);
			return 1;
		}
		if (stop_requested)
			return 0;
		if (fds[0].revents & (POLLIN | POLLERR | POLLHUP)) {
			GeisStatus s = geis_dispatch_events(st->geis);

			if (s == GEIS_STATUS_UNKNOWN_ERROR || s == GEIS_STATUS_BAD_ARGUMENT) {
				drain(st, stdout);
				print_geis_errors(st->geis, "geis_dispatch_events");
				return 1;
			}
			drain(st, stdout);
			if (st->failed)
				return 1;
		} else if (timeout == 0) {
			drain(st, stdout);
			return 0;
		}
	}
}

int
main(int argc, char **argv)
{
	struct options opt;
	struct state st;
	GeisSubscription sub;
	int rc;

	parse_args(argc, argv, &opt);
	memset(&st, 0, sizeof(st));
	st.opt = &opt;

	st.geis = create_instance(&opt);
	if (!st.geis) {
		print_geis_errors(NULL, "cannot start geis");
		return 1;
	}
	/* what the backend met on the way without failing (e.g. contacts a
	 * recording has too many of) */
	for (GeisSize i = 0; i < geis_error_count(st.geis); i++)
		fprintf(stderr, "%s: warning: %s\n", prog, geis_error_message(st.geis, i));
	sub = subscribe(st.geis, &opt);
	if (!sub) {
		geis_delete(st.geis);
		return 1;
	}

	if (catch_stop_signals() < 0) {
		perror(prog);
		rc = 1;
	} else {
		rc = run(&st);
	}
	fflush(stdout);

	geis_subscription_delete(sub);
	for (int i = 0; i < NUM_CLASSES; i++)
		geis_gesture_class_unref(st.classes[i]);
	geis_delete(st.geis);
	free(st.decided);
	return rc;
}
