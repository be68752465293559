/*
 * utouch-gestured: the configuration, read with the shared YAML reader
 * (util/yaml-config.h): a table of fields per mapping, then the checks of
 * what the keys of a rule say together.
 */
#include "gd-config.h"

#include <errno.h>
#include <float.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "gd-rules.h"

/* what the kernel takes as one argument of a program, the terminating NUL
 * included (MAX_ARG_STRLEN, 32 pages): a longer command never reaches
 * /bin/sh -c (execve fails with E2BIG) */
#define GD_ARG_MAX (32 * 4096)
#include "geis/gesture-class.h"
#include "util/yaml-config.h"

static const char *const kind_names[GD_KIND_COUNT] = { "swipe", "pinch", "rotate", "tap", "hold" };
static const char *const dir_names[] = { "any", "up", "down", "left", "right", "in", "out",
					 "cw", "ccw", "up-left", "up-right", "down-left",
					 "down-right", NULL };
static const char *const device_names[] = { "any", "touchscreen", "touchpad", NULL };
static const char *const edge_names[] = { "none", "left", "right", "top", "bottom",
					  "top-left", "top-right", "bottom-left",
					  "bottom-right", NULL };

const char *
gd_kind_name(enum gd_kind k)
{
	return (unsigned)k < GD_KIND_COUNT ? kind_names[k] : "?";
}

const char *
gd_dir_name(enum gd_dir d)
{
	return (unsigned)d < sizeof(dir_names) / sizeof(dir_names[0]) - 1 ? dir_names[d] : "?";
}

const char *
gd_device_name(enum gd_device d)
{
	return (unsigned)d < sizeof(device_names) / sizeof(device_names[0]) - 1 ? device_names[d]
										: "?";
}

/* defaults of the optional rule keys, per kind (also "settings") */
struct defaults {
	double threshold[GD_KIND_COUNT];
	double distance[GD_KIND_COUNT];
	int timeout_ms;
	int hold_ms;
	double edge_mm;
	int interval_ms;
	int orientation;
	int proxy;      /* not a rule default: the daemon's --proxy */
	int whole_hand; /* not a rule default: grail's whole-hand rule */
};

static const struct defaults builtin_defaults = {
	/* swipe 8 mm, pinch 8 mm of spread, rotate 15 degrees, tap unused,
	 * hold: 4 mm of slip cancels it */
	.threshold = { 8.0, 8.0, 15.0, 0.0, 4.0 },
	.distance = { 50.0, 40.0, 90.0, 1.0, 1.0 },
	.timeout_ms = 0,
	.hold_ms = 500,
	.edge_mm = 8.0,
	.interval_ms = 0,
#ifdef GD_HAVE_XRANDR
	.orientation = GD_ORIENT_AUTO,
#else
	.orientation = GD_ORIENT_NORMAL,
#endif
	.whole_hand = 1,
};

static const char *const orientation_names[] = { "normal", "left", "inverted", "right", "auto",
						 NULL };

#define NUM(key, type, field, lo, hi, unit) \
	{ key, type, offsetof(struct defaults, field), lo, hi, unit, NULL, NULL }

/* "settings": one row per key */
static const struct ut_yaml_field settings_fields[] = {
	NUM("swipe-threshold", UT_YAML_DOUBLE, threshold[GD_SWIPE], 0, 1000, "mm"),
	NUM("pinch-threshold", UT_YAML_DOUBLE, threshold[GD_PINCH], 0, 1000, "mm"),
	NUM("rotate-threshold", UT_YAML_DOUBLE, threshold[GD_ROTATE], 0, 1000, "deg"),
	NUM("hold-threshold", UT_YAML_DOUBLE, threshold[GD_HOLD], 0, 1000, "mm"),
	NUM("swipe-distance", UT_YAML_DOUBLE, distance[GD_SWIPE], 0.1, 10000, "mm"),
	NUM("pinch-distance", UT_YAML_DOUBLE, distance[GD_PINCH], 0.1, 10000, "mm"),
	NUM("rotate-distance", UT_YAML_DOUBLE, distance[GD_ROTATE], 0.1, 10000, "deg"),
	NUM("timeout", UT_YAML_INT, timeout_ms, 0, 60000, "ms"),
	NUM("hold-time", UT_YAML_INT, hold_ms, 1, 60000, "ms"),
	NUM("edge-size", UT_YAML_DOUBLE, edge_mm, 0.1, 1000, "mm"),
	NUM("interval", UT_YAML_INT, interval_ms, 0, 600000, "ms"),
	{ "orientation", UT_YAML_ENUM, offsetof(struct defaults, orientation), 0, 0, NULL,
	  orientation_names, NULL },
	{ "proxy", UT_YAML_BOOL, offsetof(struct defaults, proxy), 0, 0, NULL, NULL, NULL },
	{ "whole-hand", UT_YAML_BOOL, offsetof(struct defaults, whole_hand), 0, 0, NULL, NULL,
	  NULL },
};
#undef NUM

#define NSETTINGS (sizeof(settings_fields) / sizeof(settings_fields[0]))

static void
read_settings(struct ut_yaml_doc *doc, const struct ut_yaml_node *map, struct defaults *d)
{
	const struct ut_yaml_node *seen[NSETTINGS];
	ut_yaml_read_map(doc, map, "setting", settings_fields, NSETTINGS, d, seen);
#ifndef GD_HAVE_XRANDR
	for (size_t i = 0; i < NSETTINGS; i++)
		if (seen[i] && !strcmp(settings_fields[i].key, "orientation") &&
		    d->orientation == GD_ORIENT_AUTO) {
			ut_yaml_error(doc, seen[i], "\"orientation\": \"auto\" follows the X "
				      "server's RandR rotation, and this utouch-gestured was built "
				      "without libXrandr; set normal, left, inverted or right");
			d->orientation = GD_ORIENT_NORMAL;
		}
#endif
}

struct parser {
	struct ut_yaml_doc doc;
	struct defaults d;
};

/* "gesture": the tools' class names (geis/gesture-class.h, "swipe" too)
 * of the classes a rule can name */
static int
read_gesture(struct ut_yaml_doc *doc, const struct ut_yaml_field *f,
	     const struct ut_yaml_node *v, void *target)
{
	struct gd_rule *r = target;
	const char *s;
	int i;

	if (ut_yaml_scalar(doc, v, f->key, &s) < 0)
		return -1;
	static const struct { int id; enum gd_kind kind; } kinds[] = {
		{ GEIS_GESTURE_PRIMITIVE_DRAG, GD_SWIPE },
		{ GEIS_GESTURE_PRIMITIVE_PINCH, GD_PINCH },
		{ GEIS_GESTURE_PRIMITIVE_ROTATE, GD_ROTATE },
		{ GEIS_GESTURE_PRIMITIVE_TAP, GD_TAP },
		{ UTOUCH_GEIS_GESTURE_PRIMITIVE_HOLD, GD_HOLD },
	};
	i = ut_gesture_class_find(s, strlen(s), 1);
	for (size_t k = 0; i >= 0 && k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		if (kinds[k].id == ut_gesture_classes[i].id) {
			r->kind = kinds[k].kind;
			return 0;
		}
	}
	return ut_yaml_error(doc, v, "\"%s\": unknown value \"%s\" (one of swipe, pinch, rotate, "
			     "tap, hold)", f->key, s);
}

/* a string the rule keeps: not empty */
static int
read_text(struct ut_yaml_doc *doc, const struct ut_yaml_field *f, const struct ut_yaml_node *v,
	  void *target)
{
	char **out = (char **)(void *)((char *)target + f->offset);
	const char *s;

	if (ut_yaml_scalar(doc, v, f->key, &s) < 0)
		return -1;
	if (!*s)
		return ut_yaml_error(doc, v, "\"%s\" is empty (leave it out to match every %s)",
				     f->key, f->unit);
	free(*out);
	*out = strdup(s);
	return *out ? 0 : ut_yaml_error(doc, v, "out of memory");
}

/* the action keys: the key says what the value is */
static int
read_action(struct ut_yaml_doc *doc, const struct ut_yaml_field *f,
	    const struct ut_yaml_node *v, void *target)
{
	struct gd_rule *r = target;
	const char *s;

	if (r->arg)
		return ut_yaml_error(doc, v, "a rule has one action; \"%s\" comes after another",
				     f->key);
	if (ut_yaml_string(doc, v, f->key, &s) < 0)
		return -1;
	r->action = (enum gd_action)f->lo;
	size_t len = strlen(s);
	if (len >= GD_ARG_MAX)
		return ut_yaml_error(doc, v, "\"%s\": %zu bytes, longer than the %d that one "
				     "argument of a program may have", f->key, len, GD_ARG_MAX - 1);
	if (r->action == GD_ACT_KEYS) {
		char why[200];

		if (gd_keys_check(s, why, sizeof(why)) < 0)
			return ut_yaml_error(doc, v, "\"keys\": %s", why);
	}
	if (r->action == GD_ACT_CLICK && strcmp(s, "left") && strcmp(s, "middle") &&
	    strcmp(s, "right"))
		return ut_yaml_error(doc, v, "\"click\": unknown button \"%s\" (left, middle or "
				     "right)", s);
	r->arg = strdup(s);
	return r->arg ? 0 : ut_yaml_error(doc, v, "out of memory");
}

#define RULE(key, type, field, lo, hi, unit) \
	{ key, type, offsetof(struct gd_rule, field), lo, hi, unit, NULL, NULL }
#define RULE_ENUM(key, field, names) \
	{ key, UT_YAML_ENUM, offsetof(struct gd_rule, field), 0, 0, NULL, names, NULL }
#define RULE_READ(key, field, fn, arg, what) \
	{ key, UT_YAML_CUSTOM, offsetof(struct gd_rule, field), arg, 0, what, NULL, fn }

/* the keys of a rule: one row each */
enum rule_key {
	K_GESTURE, K_FINGERS, K_TAPS, K_DIRECTION, K_DEVICE, K_DEVICE_NAME, K_APP, K_EDGE,
	K_EDGE_SIZE, K_THRESHOLD, K_TIMEOUT, K_TIME, K_COMMAND, K_KEYS, K_CONTINUOUS, K_CLICK,
	K_DISTANCE, K_REPEAT, K_INTERVAL, K_COUNT
};
static const struct ut_yaml_field rule_fields[K_COUNT] = {
	[K_GESTURE] = RULE_READ("gesture", kind, read_gesture, 0, NULL),
	[K_FINGERS] = RULE("fingers", UT_YAML_INT, fingers, 1, 5, NULL),
	[K_TAPS] = RULE("taps", UT_YAML_INT, taps, 1, GD_MAX_TAPS, NULL),
	[K_DIRECTION] = RULE_ENUM("direction", dir, dir_names),
	[K_DEVICE] = RULE_ENUM("device", device, device_names),
	[K_DEVICE_NAME] = RULE_READ("device-name", device_name, read_text, 0, "device"),
	[K_APP] = RULE_READ("app", app, read_text, 0, "window"),
	[K_EDGE] = RULE_ENUM("edge", edge, edge_names),
	[K_EDGE_SIZE] = RULE("edge-size", UT_YAML_DOUBLE, edge_mm, 0.1, 1000, "mm"),
	[K_THRESHOLD] = RULE("threshold", UT_YAML_DOUBLE, threshold, 0, 1000, "mm|deg"),
	[K_TIMEOUT] = RULE("timeout", UT_YAML_INT, timeout_ms, 0, 60000, "ms"),
	[K_TIME] = RULE("time", UT_YAML_INT, hold_ms, 1, 60000, "ms"),
	[K_COMMAND] = RULE_READ("command", arg, read_action, GD_ACT_COMMAND, NULL),
	[K_KEYS] = RULE_READ("keys", arg, read_action, GD_ACT_KEYS, NULL),
	[K_CONTINUOUS] = RULE_READ("continuous", arg, read_action, GD_ACT_CONTINUOUS, NULL),
	[K_CLICK] = RULE_READ("click", arg, read_action, GD_ACT_CLICK, NULL),
	[K_DISTANCE] = RULE("distance", UT_YAML_DOUBLE, distance, 0.1, 10000, "mm|deg"),
	[K_REPEAT] = RULE("repeat", UT_YAML_BOOL, repeat, 0, 0, NULL),
	[K_INTERVAL] = RULE("interval", UT_YAML_INT, interval_ms, 0, 600000, "ms"),
};
#undef RULE
#undef RULE_ENUM
#undef RULE_READ

/* which directions a kind takes */
static int
dir_fits(enum gd_kind k, enum gd_dir d)
{
	if (d == GD_DIR_ANY)
		return 1;
	switch (k) {
	case GD_SWIPE:
		return (d >= GD_DIR_UP && d <= GD_DIR_RIGHT) ||
		       (d >= GD_DIR_UP_LEFT && d <= GD_DIR_DOWN_RIGHT);
	case GD_PINCH:
		return d == GD_DIR_IN || d == GD_DIR_OUT;
	case GD_ROTATE:
		return d == GD_DIR_CW || d == GD_DIR_CCW;
	default:
		return 0;
	}
}

/* what the keys of a read rule say together */
static int
check_rule(struct parser *p, const struct ut_yaml_node *map, const struct ut_yaml_node **seen,
	   struct gd_rule *r)
{
	struct ut_yaml_doc *doc = &p->doc;
	const struct ut_yaml_node *act = seen[K_COMMAND] ? seen[K_COMMAND]
					 : seen[K_KEYS] ? seen[K_KEYS]
					 : seen[K_CLICK] ? seen[K_CLICK] : seen[K_CONTINUOUS];
	const struct ut_yaml_node *repeat = r->repeat ? seen[K_REPEAT] : NULL;
	const char *kind = gd_kind_name(r->kind);

	if (!seen[K_GESTURE])
		return ut_yaml_error(doc, map, "the rule has no \"gesture\" (swipe, pinch, rotate, "
				     "tap or hold)");
	if (!seen[K_FINGERS])
		return ut_yaml_error(doc, map, "the rule has no \"fingers\" (1 to 5)");
	if (!act)
		return ut_yaml_error(doc, map, "the rule has no action (\"command\", \"keys\", "
				     "\"click\" or \"continuous\")");
	if (!dir_fits(r->kind, r->dir))
		return ut_yaml_error(doc, seen[K_DIRECTION], "a %s has no direction \"%s\"", kind,
				     gd_dir_name(r->dir));
	if (r->edge != GD_EDGE_NONE && r->kind != GD_SWIPE)
		return ut_yaml_error(doc, seen[K_EDGE], "only swipes can start at an edge");
	if (seen[K_TIME] && r->kind != GD_HOLD)
		return ut_yaml_error(doc, seen[K_TIME], "\"time\" is for holds");
	if (seen[K_TAPS] && r->kind != GD_TAP)
		return ut_yaml_error(doc, seen[K_TAPS], "\"taps\" is for taps");
	if (r->kind == GD_TAP || r->kind == GD_HOLD) {
		if (r->action == GD_ACT_CONTINUOUS)
			return ut_yaml_error(doc, act, "a %s has no progress to follow; use "
					     "\"command\", \"keys\" or \"click\"", kind);
		if (repeat)
			return ut_yaml_error(doc, repeat, "a %s cannot repeat", kind);
		if (seen[K_DISTANCE])
			return ut_yaml_error(doc, seen[K_DISTANCE], "a %s has no distance", kind);
	}
	if (r->action == GD_ACT_CONTINUOUS && repeat)
		return ut_yaml_error(doc, repeat, "a continuous action follows the fingers; it "
				     "cannot repeat");
	/* "mm|deg" is either unit to the reader; which one fits is the
	 * gesture's: a rotation turns (deg), everything else moves (mm).  The
	 * value passed with both, so the gesture's unit alone refuses it only
	 * when it carries the other one. */
	const enum rule_key measured[] = { K_THRESHOLD, K_DISTANCE };
	const char *want = r->kind == GD_ROTATE ? "deg" : "mm";
	const char *other = r->kind == GD_ROTATE ? "mm" : "deg";
	for (size_t i = 0; i < sizeof(measured) / sizeof(measured[0]); i++) {
		const struct ut_yaml_node *v = seen[measured[i]];
		double value;
		char why[160];

		if (v && ut_config_number(v->text, want, -DBL_MAX, DBL_MAX, false, &value, why,
					  sizeof(why)) < 0)
			return ut_yaml_error(doc, v, "\"%s\": a %s is measured in %s, not %s",
					     rule_fields[measured[i]].key, kind, want, other);
	}
	if (!seen[K_THRESHOLD])
		r->threshold = p->d.threshold[r->kind];
	if (!seen[K_DISTANCE])
		r->distance = p->d.distance[r->kind];
	if (!seen[K_TIMEOUT])
		r->timeout_ms = p->d.timeout_ms;
	if (!seen[K_TIME])
		r->hold_ms = p->d.hold_ms;
	if (!seen[K_EDGE_SIZE])
		r->edge_mm = p->d.edge_mm;
	if (!seen[K_INTERVAL])
		r->interval_ms = p->d.interval_ms;
	if (!r->taps)
		r->taps = 1;
	return 0;
}

static int
parse_rule(struct parser *p, const struct ut_yaml_node *map, struct gd_rule *r)
{
	const struct ut_yaml_node *seen[K_COUNT];

	memset(r, 0, sizeof(*r));
	r->line = (int)map->line;
	if (map->type != UT_YAML_MAP)
		return ut_yaml_error(&p->doc, map, "a gesture rule must be a mapping (gesture:, "
				     "fingers:, an action)");
	if (ut_yaml_read_map(&p->doc, map, "rule", rule_fields, K_COUNT, r, seen) < 0)
		return -1;
	return check_rule(p, map, seen, r);
}

/* the fixed part of rule @p a takes every gesture rule @p b could */
static int
covers(const struct gd_rule *a, const struct gd_rule *b)
{
	if (a->kind != b->kind || a->fingers != b->fingers || a->taps != b->taps)
		return 0;
	if (a->dir != GD_DIR_ANY && a->dir != b->dir)
		return 0;
	if (a->device != GD_DEV_ANY && a->device != b->device)
		return 0;
	if (a->device_name && (!b->device_name || strcasecmp(a->device_name, b->device_name)))
		return 0;
	/* rules for a window are tried before the others */
	if ((a->app == NULL) != (b->app == NULL) || (a->app && strcasecmp(a->app, b->app)))
		return 0;
	if (a->edge != GD_EDGE_NONE && a->edge != b->edge)
		return 0;
	switch (a->kind) {
	case GD_TAP:
		return 1;
	case GD_HOLD:
		return a->hold_ms <= b->hold_ms && a->threshold >= b->threshold;
	default:
		return a->threshold <= b->threshold &&
		       (a->timeout_ms == 0 || (b->timeout_ms && a->timeout_ms >= b->timeout_ms));
	}
}

/* warn about rules an earlier one always takes first */
static void
warn_shadowed(struct parser *p, const struct gd_config *cfg,
	      const struct ut_yaml_node *list)
{
	for (size_t j = 1; j < cfg->nrules; j++) {
		/* a gesture is weighed against its first GD_MAX_CANDIDATES rules */
		size_t before = 0;
		for (size_t i = 0; i < j; i++)
			before += cfg->rules[i].kind == cfg->rules[j].kind &&
				  cfg->rules[i].fingers == cfg->rules[j].fingers;
		if (before >= GD_MAX_CANDIDATES) {
			ut_yaml_warning(&p->doc, list->items[j], "this rule may never run: %zu rules "
					"before it are for %d-finger %ss, and a gesture is weighed "
					"against the first %d rules that can take it", before,
					cfg->rules[j].fingers, gd_kind_name(cfg->rules[j].kind),
					GD_MAX_CANDIDATES);
			continue;
		}
		for (size_t i = 0; i < j; i++) {
			if (!covers(&cfg->rules[i], &cfg->rules[j]))
				continue;
			ut_yaml_warning(&p->doc, list->items[j], "this rule can never run: the rule "
					"on line %d takes the same gestures first%s",
					cfg->rules[i].line,
					covers(&cfg->rules[j], &cfg->rules[i]) ? " (a duplicate)"
									       : "");
			break;
		}
	}
}

static void
free_rule(struct gd_rule *r)
{
	free(r->app);
	free(r->device_name);
	free(r->arg);
}

void
gd_config_free(struct gd_config *cfg)
{
	if (!cfg)
		return;
	for (size_t i = 0; i < cfg->nrules; i++)
		free_rule(&cfg->rules[i]);
	free(cfg->rules);
	free(cfg->path);
	free(cfg);
}

struct gd_config *
gd_config_empty(const char *path)
{
	struct gd_config *cfg = calloc(1, sizeof(*cfg));
	if (!cfg)
		return NULL;
	cfg->path = strdup(path ? path : "");
	if (!cfg->path) {
		free(cfg);
		return NULL;
	}
	cfg->whole_hand = builtin_defaults.whole_hand;
	return cfg;
}

/* the configuration in the tree of @p p->doc */
static struct gd_config *
build(struct parser *p)
{
	struct ut_yaml_doc *doc = &p->doc;
	const struct ut_yaml_node *root = doc->root, *gestures = NULL;
	struct gd_config *cfg = gd_config_empty(doc->name);

	if (!cfg) {
		ut_yaml_error(doc, NULL, "out of memory");
		return NULL;
	}
	if (!root || ut_yaml_is_empty(root))
		return cfg;   /* an empty file: no rules */
	if (root->type != UT_YAML_MAP) {
		ut_yaml_error(doc, root, "the file must be a mapping with \"gestures\" (and "
			      "\"settings\")");
		goto fail;
	}
	/* settings first, wherever they are, so that they apply to every rule */
	for (size_t i = 0; i < root->count; i++) {
		const struct ut_yaml_node *k = root->items[2 * i], *v = root->items[2 * i + 1];

		if (!strcmp(k->text, "settings")) {
			if (!ut_yaml_is_empty(v))
				read_settings(doc, v, &p->d);
		} else if (!strcmp(k->text, "gestures")) {
			gestures = v;
		} else {
			ut_yaml_error(doc, k, "unknown top-level key \"%s\" (\"gestures\" or "
				      "\"settings\")", k->text);
		}
	}
	cfg->orientation = (enum gd_orientation)p->d.orientation;
	cfg->proxy = p->d.proxy;
	cfg->whole_hand = p->d.whole_hand;
	if (!gestures || ut_yaml_is_empty(gestures))
		goto out;   /* "gestures:" with nothing after it */
	if (gestures->type != UT_YAML_LIST) {
		ut_yaml_error(doc, gestures, "\"gestures\" must be a list of rules");
		goto fail;
	}
	cfg->rules = calloc(gestures->count ? gestures->count : 1, sizeof(*cfg->rules));
	if (!cfg->rules) {
		ut_yaml_error(doc, NULL, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < gestures->count; i++) {
		struct gd_rule *r = &cfg->rules[cfg->nrules++];

		parse_rule(p, gestures->items[i], r);
	}
	if (doc->nerrors == 0)
		warn_shadowed(p, cfg, gestures);
out:
	if (doc->nerrors == 0)
		return cfg;
fail:
	gd_config_free(cfg);
	return NULL;
}

static struct gd_config *
read_config(const char *name, const char *text, size_t len, gd_config_report report,
	    void *data, char *err, size_t errlen)
{
	struct parser p = { .d = builtin_defaults };
	struct gd_config *cfg = NULL;
	int r;

	if (errlen)
		err[0] = '\0';
	ut_yaml_init(&p.doc, name, report, data);
	r = text ? ut_yaml_load(&p.doc, text, len) : ut_yaml_load_file(&p.doc);
	/* after a bad or repeated key the rest of the tree is still read, to
	 * report every error of the file at once (build() fails then) */
	if (r == 0 || (r == -EINVAL && p.doc.root))
		cfg = build(&p);
	if (!cfg && errlen)
		snprintf(err, errlen, "%s", p.doc.first[0] ? p.doc.first : "out of memory");
	if (!cfg)
		errno = r < 0 ? -r : EINVAL;
	ut_yaml_fini(&p.doc);
	return cfg;
}

struct gd_config *
gd_config_parse(const char *name, const char *text, size_t len, char *err, size_t errlen)
{
	return read_config(name, text ? text : "", len, NULL, NULL, err, errlen);
}

struct gd_config *
gd_config_load(const char *path, char *err, size_t errlen)
{
	return read_config(path, NULL, 0, NULL, NULL, err, errlen);
}

struct gd_config *
gd_config_load_report(const char *path, gd_config_report report, void *data, char *err,
		      size_t errlen)
{
	return read_config(path, NULL, 0, report, data, err, errlen);
}

struct check_out {
	FILE *err;
	unsigned int warnings;
};

static void
print_message(void *data, const char *message)
{
	struct check_out *o = data;

	if (strstr(message, ": warning: "))
		o->warnings++;
	fprintf(o->err, "%s\n", message);
}

int
gd_config_check(const char *path, FILE *out, FILE *err)
{
	struct check_out o = { .err = err };
	char first[512];
	struct stat st;
	struct gd_config *cfg;

	if (stat(path, &st) < 0 && errno == ENOENT) {
		fprintf(out, "%s: no such file: utouch-gestured runs with no gestures until it is "
			"created (the file is the one given with --config or as the operand, else "
			"$XDG_CONFIG_HOME/utouch/gestures.yaml, else "
			"~/.config/utouch/gestures.yaml)\n", path);
		return 0;
	}
	cfg = gd_config_load_report(path, print_message, &o, first, sizeof(first));
	if (!cfg) {
		if (!first[0])
			fprintf(err, "%s: out of memory\n", path);
		return 1;
	}
	fprintf(out, "%s: OK, %zu rules", path, cfg->nrules);
	if (o.warnings)
		fprintf(out, ", %u that can never run", o.warnings);
	fprintf(out, "\n");
	gd_config_free(cfg);
	return 0;
}
