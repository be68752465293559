/*
 * utouch-gestured: YAML configuration parser (libyaml document API).
 */
#include "gd-config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <yaml.h>

static const char *const kind_names[GD_KIND_COUNT] = { "swipe", "pinch", "rotate", "tap", "hold" };
static const char *const dir_names[] = { "any", "up", "down", "left", "right", "in", "out",
					 "cw", "ccw", "up-left", "up-right", "down-left",
					 "down-right" };
static const char *const device_names[] = { "any", "touchscreen", "touchpad" };
static const char *const edge_names[] = { "none", "left", "right", "top", "bottom",
					  "top-left", "top-right", "bottom-left",
					  "bottom-right" };

const char *
gd_kind_name(enum gd_kind k)
{
	return (unsigned)k < GD_KIND_COUNT ? kind_names[k] : "?";
}

const char *
gd_dir_name(enum gd_dir d)
{
	return (unsigned)d < sizeof(dir_names) / sizeof(dir_names[0]) ? dir_names[d] : "?";
}

const char *
gd_device_name(enum gd_device d)
{
	return (unsigned)d < sizeof(device_names) / sizeof(device_names[0]) ? device_names[d]
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
};

struct parser {
	const char *name;
	yaml_document_t doc;
	char *err;
	size_t errlen;
	struct defaults d;
	int proxy;      /* settings: proxy */
};

static void
perr(struct parser *p, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;
	int off = snprintf(p->err, p->errlen, "%s:%zu:%zu: ", p->name,
			   n ? n->start_mark.line + 1 : 1, n ? n->start_mark.column + 1 : 1);
	if (off < 0 || (size_t)off >= p->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(p->err + off, p->errlen - (size_t)off, fmt, ap);
	va_end(ap);
}

static const char *
scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int
want_scalar(struct parser *p, const yaml_node_t *n, const char *key, const char **out)
{
	*out = scalar(n);
	if (!*out) {
		perr(p, n, "\"%s\" needs a single value", key);
		return -1;
	}
	return 0;
}

static int
parse_number(struct parser *p, const yaml_node_t *n, const char *key, double lo, double hi,
	     double *out)
{
	const char *s;
	char *end;
	if (want_scalar(p, n, key, &s) < 0)
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	/* a unit that says what the number already is may follow */
	while (*end == ' ')
		end++;
	if (*end && (strcmp(end, "mm") == 0 || strcmp(end, "ms") == 0 || strcmp(end, "deg") == 0))
		end += strlen(end);
	if (end == s || *end || errno || !isfinite(v)) {
		perr(p, n, "\"%s\": \"%s\" is not a number", key, s);
		return -1;
	}
	if (v < lo || v > hi) {
		perr(p, n, "\"%s\": %g is out of range (%g to %g)", key, v, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

static int
parse_int(struct parser *p, const yaml_node_t *n, const char *key, int lo, int hi, int *out)
{
	double v;
	if (parse_number(p, n, key, lo, hi, &v) < 0)
		return -1;
	if (v != floor(v)) {
		perr(p, n, "\"%s\": %g is not a whole number", key, v);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int
parse_bool(struct parser *p, const yaml_node_t *n, const char *key, int *out)
{
	const char *s;
	if (want_scalar(p, n, key, &s) < 0)
		return -1;
	if (!strcasecmp(s, "true") || !strcasecmp(s, "yes") || !strcasecmp(s, "on"))
		*out = 1;
	else if (!strcasecmp(s, "false") || !strcasecmp(s, "no") || !strcasecmp(s, "off"))
		*out = 0;
	else {
		perr(p, n, "\"%s\": \"%s\" is not true or false", key, s);
		return -1;
	}
	return 0;
}

static int
parse_enum(struct parser *p, const yaml_node_t *n, const char *key, const char *const *names,
	   int count, int *out)
{
	const char *s;
	if (want_scalar(p, n, key, &s) < 0)
		return -1;
	for (int i = 0; i < count; i++)
		if (!strcasecmp(s, names[i])) {
			*out = i;
			return 0;
		}
	char list[200] = "";
	for (int i = 0; i < count; i++) {
		strncat(list, names[i], sizeof(list) - strlen(list) - 1);
		if (i + 1 < count)
			strncat(list, ", ", sizeof(list) - strlen(list) - 1);
	}
	perr(p, n, "\"%s\": unknown value \"%s\" (one of %s)", key, s, list);
	return -1;
}

static int
parse_settings(struct parser *p, yaml_node_t *map)
{
	if (map->type != YAML_MAPPING_NODE) {
		perr(p, map, "\"settings\" must be a mapping");
		return -1;
	}
	for (yaml_node_pair_t *pr = map->data.mapping.pairs.start;
	     pr < map->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(&p->doc, pr->key);
		yaml_node_t *v = yaml_document_get_node(&p->doc, pr->value);
		const char *key = scalar(k);
		double x;
		if (!key) {
			perr(p, k, "a settings key must be a plain name");
			return -1;
		}
		if (!strcmp(key, "swipe-threshold") || !strcmp(key, "pinch-threshold") ||
		    !strcmp(key, "rotate-threshold") || !strcmp(key, "hold-threshold")) {
			if (parse_number(p, v, key, 0, 1000, &x) < 0)
				return -1;
			enum gd_kind kk = key[0] == 's' ? GD_SWIPE : key[0] == 'p' ? GD_PINCH
						  : key[0] == 'r' ? GD_ROTATE : GD_HOLD;
			p->d.threshold[kk] = x;
		} else if (!strcmp(key, "swipe-distance") || !strcmp(key, "pinch-distance") ||
			   !strcmp(key, "rotate-distance")) {
			if (parse_number(p, v, key, 0.1, 10000, &x) < 0)
				return -1;
			enum gd_kind kk = key[0] == 's' ? GD_SWIPE : key[0] == 'p' ? GD_PINCH
										   : GD_ROTATE;
			p->d.distance[kk] = x;
		} else if (!strcmp(key, "timeout")) {
			if (parse_int(p, v, key, 0, 60000, &p->d.timeout_ms) < 0)
				return -1;
		} else if (!strcmp(key, "hold-time")) {
			if (parse_int(p, v, key, 1, 60000, &p->d.hold_ms) < 0)
				return -1;
		} else if (!strcmp(key, "edge-size")) {
			if (parse_number(p, v, key, 0.1, 1000, &p->d.edge_mm) < 0)
				return -1;
		} else if (!strcmp(key, "interval")) {
			if (parse_int(p, v, key, 0, 600000, &p->d.interval_ms) < 0)
				return -1;
		} else if (!strcmp(key, "proxy")) {
			if (parse_bool(p, v, key, &p->proxy) < 0)
				return -1;
		} else {
			perr(p, k, "unknown setting \"%s\"", key);
			return -1;
		}
	}
	return 0;
}

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

static int
parse_rule(struct parser *p, yaml_node_t *map, struct gd_rule *r)
{
	yaml_node_t *kind_node = NULL, *dir_node = NULL, *edge_node = NULL, *act_node = NULL;
	yaml_node_t *repeat_node = NULL, *distance_node = NULL, *time_node = NULL;
	int have_threshold = 0, have_distance = 0, have_timeout = 0, have_hold = 0;
	int have_edge_size = 0, have_interval = 0;
	int v;

	memset(r, 0, sizeof(*r));
	r->line = (int)map->start_mark.line + 1;
	r->fingers = 0;
	if (map->type != YAML_MAPPING_NODE) {
		perr(p, map, "a gesture rule must be a mapping (gesture:, fingers:, an action)");
		return -1;
	}
	for (yaml_node_pair_t *pr = map->data.mapping.pairs.start;
	     pr < map->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(&p->doc, pr->key);
		yaml_node_t *n = yaml_document_get_node(&p->doc, pr->value);
		const char *key = scalar(k);
		const char *s;
		if (!key) {
			perr(p, k, "a rule key must be a plain name");
			return -1;
		}
		if (!strcmp(key, "gesture")) {
			if (want_scalar(p, n, key, &s) < 0)
				return -1;
			if (!strcasecmp(s, "drag"))
				v = GD_SWIPE;
			else if (parse_enum(p, n, key, kind_names, GD_KIND_COUNT, &v) < 0)
				return -1;
			r->kind = (enum gd_kind)v;
			kind_node = n;
		} else if (!strcmp(key, "fingers")) {
			if (parse_int(p, n, key, 1, 5, &r->fingers) < 0)
				return -1;
		} else if (!strcmp(key, "direction")) {
			if (parse_enum(p, n, key, dir_names, (int)(sizeof(dir_names) / sizeof(dir_names[0])),
				       &v) < 0)
				return -1;
			r->dir = (enum gd_dir)v;
			dir_node = n;
		} else if (!strcmp(key, "device")) {
			if (parse_enum(p, n, key, device_names, 3, &v) < 0)
				return -1;
			r->device = (enum gd_device)v;
		} else if (!strcmp(key, "app")) {
			if (want_scalar(p, n, key, &s) < 0)
				return -1;
			if (!*s) {
				perr(p, n, "\"app\" is empty (leave it out to match every window)");
				return -1;
			}
			free(r->app);
			r->app = strdup(s);
		} else if (!strcmp(key, "edge")) {
			if (parse_enum(p, n, key, edge_names,
				       (int)(sizeof(edge_names) / sizeof(edge_names[0])), &v) < 0)
				return -1;
			r->edge = (enum gd_edge)v;
			edge_node = n;
		} else if (!strcmp(key, "edge-size")) {
			if (parse_number(p, n, key, 0.1, 1000, &r->edge_mm) < 0)
				return -1;
			have_edge_size = 1;
		} else if (!strcmp(key, "threshold")) {
			if (parse_number(p, n, key, 0, 1000, &r->threshold) < 0)
				return -1;
			have_threshold = 1;
		} else if (!strcmp(key, "timeout")) {
			if (parse_int(p, n, key, 0, 60000, &r->timeout_ms) < 0)
				return -1;
			have_timeout = 1;
		} else if (!strcmp(key, "time")) {
			if (parse_int(p, n, key, 1, 60000, &r->hold_ms) < 0)
				return -1;
			have_hold = 1;
			time_node = n;
		} else if (!strcmp(key, "command") || !strcmp(key, "keys") ||
			   !strcmp(key, "continuous") || !strcmp(key, "click")) {
			if (act_node) {
				perr(p, k, "a rule has one action; \"%s\" comes after another", key);
				return -1;
			}
			if (want_scalar(p, n, key, &s) < 0)
				return -1;
			if (!*s) {
				perr(p, n, "\"%s\" is empty", key);
				return -1;
			}
			r->action = !strcmp(key, "command") ? GD_ACT_COMMAND
				    : !strcmp(key, "keys") ? GD_ACT_KEYS
				    : !strcmp(key, "click") ? GD_ACT_CLICK : GD_ACT_CONTINUOUS;
			if (r->action == GD_ACT_CLICK && strcmp(s, "left") && strcmp(s, "middle") &&
			    strcmp(s, "right")) {
				perr(p, n, "\"click\": unknown button \"%s\" (left, middle or right)", s);
				return -1;
			}
			if (r->action == GD_ACT_KEYS) {
				char why[200];
				if (gd_keys_check(s, why, sizeof(why)) < 0) {
					perr(p, n, "\"keys\": %s", why);
					return -1;
				}
			}
			free(r->arg);
			r->arg = strdup(s);
			act_node = n;
		} else if (!strcmp(key, "distance")) {
			if (parse_number(p, n, key, 0.1, 10000, &r->distance) < 0)
				return -1;
			have_distance = 1;
			distance_node = n;
		} else if (!strcmp(key, "repeat")) {
			if (parse_bool(p, n, key, &r->repeat) < 0)
				return -1;
			repeat_node = n;
		} else if (!strcmp(key, "interval")) {
			if (parse_int(p, n, key, 0, 600000, &r->interval_ms) < 0)
				return -1;
			have_interval = 1;
		} else {
			perr(p, k, "unknown rule key \"%s\"", key);
			return -1;
		}
	}
	if (!kind_node) {
		perr(p, map, "the rule has no \"gesture\" (swipe, pinch, rotate, tap or hold)");
		return -1;
	}
	if (!r->fingers) {
		perr(p, map, "the rule has no \"fingers\" (1 to 5)");
		return -1;
	}
	if (!act_node) {
		perr(p, map, "the rule has no action (\"command\", \"keys\", \"click\" or "
		     "\"continuous\")");
		return -1;
	}
	if (!dir_fits(r->kind, r->dir)) {
		perr(p, dir_node, "a %s has no direction \"%s\"", gd_kind_name(r->kind),
		     gd_dir_name(r->dir));
		return -1;
	}
	if (r->edge != GD_EDGE_NONE && r->kind != GD_SWIPE) {
		perr(p, edge_node, "only swipes can start at an edge");
		return -1;
	}
	if (time_node && r->kind != GD_HOLD) {
		perr(p, time_node, "\"time\" is for holds");
		return -1;
	}
	if (r->kind == GD_TAP || r->kind == GD_HOLD) {
		if (r->action == GD_ACT_CONTINUOUS) {
			perr(p, act_node, "a %s has no progress to follow; use \"command\", \"keys\" or \"click\"",
			     gd_kind_name(r->kind));
			return -1;
		}
		if (repeat_node && r->repeat) {
			perr(p, repeat_node, "a %s cannot repeat", gd_kind_name(r->kind));
			return -1;
		}
		if (distance_node) {
			perr(p, distance_node, "a %s has no distance", gd_kind_name(r->kind));
			return -1;
		}
	}
	if (r->action == GD_ACT_CONTINUOUS && repeat_node && r->repeat) {
		perr(p, repeat_node, "a continuous action follows the fingers; it cannot repeat");
		return -1;
	}
	if (!have_threshold)
		r->threshold = p->d.threshold[r->kind];
	if (!have_distance)
		r->distance = p->d.distance[r->kind];
	if (!have_timeout)
		r->timeout_ms = p->d.timeout_ms;
	if (!have_hold)
		r->hold_ms = p->d.hold_ms;
	if (!have_edge_size)
		r->edge_mm = p->d.edge_mm;
	if (!have_interval)
		r->interval_ms = p->d.interval_ms;
	if (!r->arg || 0) {
		perr(p, map, "out of memory");
		return -1;
	}
	return 0;
}

static void
free_rule(struct gd_rule *r)
{
	free(r->app);
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
	return cfg;
}

struct gd_config *
gd_config_parse(const char *name, const char *text, size_t len, char *err, size_t errlen)
{
	struct parser p = { .name = name, .err = err, .errlen = errlen, .d = builtin_defaults };
	yaml_parser_t yp;
	struct gd_config *cfg = NULL;
	yaml_node_t *root;

	if (errlen)
		err[0] = '\0';
	if (!yaml_parser_initialize(&yp)) {
		snprintf(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	yaml_parser_set_input_string(&yp, (const unsigned char *)text, len);
	if (!yaml_parser_load(&yp, &p.doc)) {
		snprintf(err, errlen, "%s:%zu:%zu: %s%s%s", name, yp.problem_mark.line + 1,
			 yp.problem_mark.column + 1, yp.problem ? yp.problem : "YAML error",
			 yp.context ? " " : "", yp.context ? yp.context : "");
		yaml_parser_delete(&yp);
		return NULL;
	}
	yaml_parser_delete(&yp);
	cfg = gd_config_empty(name);
	if (!cfg) {
		snprintf(err, errlen, "%s: out of memory", name);
		goto out;
	}
	root = yaml_document_get_root_node(&p.doc);
	if (!root)   /* an empty file: no rules */
		goto out;
	if (root->type != YAML_MAPPING_NODE) {
		perr(&p, root, "the file must be a mapping with \"gestures\" (and \"settings\")");
		goto fail;
	}
	yaml_node_t *gestures = NULL;
	/* settings first, wherever they are, so that they apply to every rule */
	for (yaml_node_pair_t *pr = root->data.mapping.pairs.start;
	     pr < root->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(&p.doc, pr->key);
		yaml_node_t *v = yaml_document_get_node(&p.doc, pr->value);
		const char *key = scalar(k);
		if (key && !strcmp(key, "settings")) {
			if (parse_settings(&p, v) < 0)
				goto fail;
		} else if (key && !strcmp(key, "gestures")) {
			gestures = v;
		} else {
			perr(&p, k, "unknown top-level key \"%s\" (\"gestures\" or \"settings\")",
			     key ? key : "?");
			goto fail;
		}
	}
	cfg->proxy = p.proxy;
	if (!gestures)
		goto out;
	if (gestures->type == YAML_SCALAR_NODE && !*scalar(gestures))
		goto out;   /* "gestures:" with nothing after it */
	if (gestures->type != YAML_SEQUENCE_NODE) {
		perr(&p, gestures, "\"gestures\" must be a list of rules");
		goto fail;
	}
	size_t n = (size_t)(gestures->data.sequence.items.top - gestures->data.sequence.items.start);
	cfg->rules = calloc(n ? n : 1, sizeof(*cfg->rules));
	if (!cfg->rules) {
		snprintf(err, errlen, "%s: out of memory", name);
		goto fail;
	}
	for (yaml_node_item_t *it = gestures->data.sequence.items.start;
	     it < gestures->data.sequence.items.top; it++) {
		struct gd_rule *r = &cfg->rules[cfg->nrules];
		if (parse_rule(&p, yaml_document_get_node(&p.doc, *it), r) < 0) {
			free_rule(r);
			goto fail;
		}
		cfg->nrules++;
	}
	goto out;
fail:
	gd_config_free(cfg);
	cfg = NULL;
out:
	yaml_document_delete(&p.doc);
	return cfg;
}

struct gd_config *
gd_config_load(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	char *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			if (cap > (1u << 24)) {
				snprintf(err, errlen, "%s: the file is larger than 16 MiB", path);
				goto fail;
			}
			char *nb = realloc(buf, cap);
			if (!nb) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto fail;
			}
			buf = nb;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		goto fail;
	}
	fclose(f);
	struct gd_config *cfg = gd_config_parse(path, buf, len, err, errlen);
	free(buf);
	return cfg;
fail:
	fclose(f);
	free(buf);
	return NULL;
}
