/*
 * The configuration file: a YAML document with a `subscriptions` list
 * (format in doc/compositor.md), read with libyaml's document loader.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "compositor/comp-private.h"

#define MAX_CONFIG_BYTES (1024u * 1024u)

struct cfg_sub {
	struct utouch_comp_subscription_params p;
	const char *keys[32], *values[32];
	size_t noptions;
};

struct cfg {
	const char *name;
	char *err;
	size_t errlen;
	yaml_document_t doc;
};

static int
fail(struct cfg *c, const yaml_node_t *n, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->err && c->errlen) {
		if (n)
			snprintf(c->err, c->errlen, "%s:%zu: %s", c->name,
				 (size_t)n->start_mark.line + 1, msg);
		else
			snprintf(c->err, c->errlen, "%s: %s", c->name, msg);
	}
	return -EINVAL;
}

static const char *
scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int
get_double(struct cfg *c, const yaml_node_t *n, const char *key, double min, double max,
	   double *out)
{
	const char *s = scalar(n);
	char *end;
	double v;

	if (!s || !*s)
		return fail(c, n, "%s: expected a number", key);
	errno = 0;
	v = strtod(s, &end);
	if (*end || errno || isnan(v))
		return fail(c, n, "%s: '%s' is not a number", key, s);
	if (v < min || v > max)
		return fail(c, n, "%s: %s is out of range (%g..%g)", key, s, min, max);
	*out = v;
	return 0;
}

static int
get_uint(struct cfg *c, const yaml_node_t *n, const char *key, unsigned int min,
	 unsigned int max, unsigned int *out)
{
	const char *s = scalar(n);
	char *end;
	unsigned long v;

	if (!s || !*s || *s == '-')
		return fail(c, n, "%s: expected a whole number", key);
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end || errno)
		return fail(c, n, "%s: '%s' is not a whole number", key, s);
	if (v < min || v > max)
		return fail(c, n, "%s: %s is out of range (%u..%u)", key, s, min, max);
	*out = (unsigned int)v;
	return 0;
}

static int
get_ms(struct cfg *c, const yaml_node_t *n, const char *key, uint64_t *out)
{
	unsigned int v;
	int r = get_uint(c, n, key, 0, 3600000u, &v);

	if (r == 0)
		*out = v;
	return r;
}

static int
get_bool(struct cfg *c, const yaml_node_t *n, const char *key, int *out)
{
	const char *s = scalar(n);

	if (s && (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "on")))
		*out = 1;
	else if (s && (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "off")))
		*out = 0;
	else
		return fail(c, n, "%s: expected true or false", key);
	return 0;
}

static int
class_bit(const char *s, UGGestureTypeMask *bit)
{
	static const struct { const char *name; UGGestureTypeMask bit; } classes[] = {
		{ "drag", UGGestureTypeDrag }, { "pinch", UGGestureTypePinch },
		{ "rotate", UGGestureTypeRotate }, { "tap", UGGestureTypeTap },
		{ "touch", UGGestureTypeTouch },
	};

	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		if (!strcmp(s, classes[i].name)) {
			*bit = classes[i].bit;
			return 0;
		}
	}
	return -1;
}

static int
get_mask(struct cfg *c, yaml_node_t *n, UGGestureTypeMask *out)
{
	UGGestureTypeMask mask = 0, bit;

	if (n->type == YAML_SCALAR_NODE) {
		if (class_bit(scalar(n), &bit) < 0)
			return fail(c, n, "gestures: unknown class '%s' (drag, pinch, rotate, tap, touch)",
				    scalar(n));
		*out = bit;
		return 0;
	}
	if (n->type != YAML_SEQUENCE_NODE)
		return fail(c, n, "gestures: expected a class or a list of classes");
	for (yaml_node_item_t *it = n->data.sequence.items.start;
	     it < n->data.sequence.items.top; it++) {
		yaml_node_t *item = yaml_document_get_node(&c->doc, *it);
		const char *s = scalar(item);

		if (!s || class_bit(s, &bit) < 0)
			return fail(c, item, "gestures: unknown class '%s' (drag, pinch, rotate, tap, touch)",
				    s ? s : "(not a scalar)");
		mask |= bit;
	}
	if (!mask)
		return fail(c, n, "gestures: the list is empty");
	*out = mask;
	return 0;
}

static int
get_region(struct cfg *c, yaml_node_t *n, struct utouch_comp_rect *r)
{
	double v[4];
	size_t k = 0;

	if (n->type != YAML_SEQUENCE_NODE)
		return fail(c, n, "region: expected [x, y, width, height]");
	for (yaml_node_item_t *it = n->data.sequence.items.start;
	     it < n->data.sequence.items.top; it++, k++) {
		if (k == 4)
			return fail(c, n, "region: expected [x, y, width, height]");
		if (get_double(c, yaml_document_get_node(&c->doc, *it), "region",
			       k < 2 ? -1e9 : 0, 1e9, &v[k]) < 0)
			return -EINVAL;
	}
	if (k != 4)
		return fail(c, n, "region: expected [x, y, width, height]");
	r->x = v[0];
	r->y = v[1];
	r->width = v[2];
	r->height = v[3];
	return 0;
}

static int
parse_sub(struct cfg *c, yaml_node_t *n, struct cfg_sub *s)
{
	double d;
	unsigned int seen_touches = 0;

	if (n->type != YAML_MAPPING_NODE)
		return fail(c, n, "a subscription must be a mapping");
	utouch_comp_subscription_params_init(&s->p);
	s->p.mask = 0;
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start;
	     pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(&c->doc, pr->key);
		yaml_node_t *vn = yaml_document_get_node(&c->doc, pr->value);
		const char *k = scalar(kn);
		const char *v = scalar(vn);
		int r = 0;

		if (!k)
			return fail(c, kn, "keys must be plain words");
		if (!strcmp(k, "name")) {
			if (!v)
				return fail(c, vn, "name: expected a string");
			s->p.name = v;
		} else if (!strcmp(k, "gestures") || !strcmp(k, "gesture")) {
			r = get_mask(c, vn, &s->p.mask);
		} else if (!strcmp(k, "touches")) {
			r = get_uint(c, vn, k, 1, 5, &s->p.touches_start);
			seen_touches = 1;
		} else if (!strcmp(k, "touches-minimum")) {
			r = get_uint(c, vn, k, 1, 5, &s->p.touches_minimum);
		} else if (!strcmp(k, "touches-maximum")) {
			r = get_uint(c, vn, k, 1, 5, &s->p.touches_maximum);
		} else if (!strcmp(k, "policy")) {
			if (v && !strcmp(v, "hold"))
				s->p.policy = UTOUCH_COMP_POLICY_HOLD;
			else if (v && !strcmp(v, "forward-then-cancel"))
				s->p.policy = UTOUCH_COMP_POLICY_FORWARD_THEN_CANCEL;
			else
				return fail(c, vn, "policy: expected hold or forward-then-cancel");
		} else if (!strcmp(k, "accept")) {
			if (v && !strcmp(v, "auto"))
				s->p.accept = UTOUCH_COMP_ACCEPT_AUTO;
			else if (v && !strcmp(v, "manual"))
				s->p.accept = UTOUCH_COMP_ACCEPT_MANUAL;
			else
				return fail(c, vn, "accept: expected auto or manual");
		} else if (!strcmp(k, "atomic")) {
			r = get_bool(c, vn, k, &s->p.atomic);
		} else if (!strcmp(k, "region")) {
			r = get_region(c, vn, &s->p.region);
		} else if (!strcmp(k, "drag-timeout")) {
			r = get_ms(c, vn, k, &s->p.drag_timeout);
		} else if (!strcmp(k, "pinch-timeout")) {
			r = get_ms(c, vn, k, &s->p.pinch_timeout);
		} else if (!strcmp(k, "rotate-timeout")) {
			r = get_ms(c, vn, k, &s->p.rotate_timeout);
		} else if (!strcmp(k, "tap-timeout")) {
			r = get_ms(c, vn, k, &s->p.tap_timeout);
		} else if (!strcmp(k, "drag-threshold")) {
			r = get_double(c, vn, k, 0, 10, &d);
			s->p.drag_threshold = (float)d;
		} else if (!strcmp(k, "pinch-threshold")) {
			r = get_double(c, vn, k, 0, 100, &d);
			s->p.pinch_threshold = (float)d;
		} else if (!strcmp(k, "rotate-threshold")) {
			r = get_double(c, vn, k, 0, 100, &d);
			s->p.rotate_threshold = (float)d;
		} else if (!strcmp(k, "tap-threshold")) {
			r = get_double(c, vn, k, 0, 10, &d);
			s->p.tap_threshold = (float)d;
		} else if (!strcmp(k, "options")) {
			if (vn->type != YAML_MAPPING_NODE)
				return fail(c, vn, "options: expected a mapping of strings");
			for (yaml_node_pair_t *op = vn->data.mapping.pairs.start;
			     op < vn->data.mapping.pairs.top; op++) {
				yaml_node_t *okn = yaml_document_get_node(&c->doc, op->key);
				yaml_node_t *ovn = yaml_document_get_node(&c->doc, op->value);

				if (!scalar(okn) || !scalar(ovn))
					return fail(c, okn, "options: keys and values must be strings");
				if (s->noptions == sizeof(s->keys) / sizeof(s->keys[0]))
					return fail(c, okn, "options: at most 32 options");
				s->keys[s->noptions] = scalar(okn);
				s->values[s->noptions++] = scalar(ovn);
			}
		} else {
			return fail(c, kn, "unknown key '%s'", k);
		}
		if (r < 0)
			return r;
	}
	if (!s->p.mask)
		return fail(c, n, "the subscription has no 'gestures'");
	if (!seen_touches)
		return fail(c, n, "the subscription has no 'touches'");
	if (s->p.touches_minimum > s->p.touches_start)
		return fail(c, n, "touches-minimum is above touches");
	if (s->p.touches_maximum && s->p.touches_maximum < s->p.touches_start)
		return fail(c, n, "touches-maximum is below touches");
	return 0;
}

static int
load(struct utouch_comp *comp, struct cfg *c)
{
	yaml_node_t *root = yaml_document_get_root_node(&c->doc);
	yaml_node_t *list = NULL;
	struct cfg_sub *subs = NULL;
	struct utouch_comp_subscription **made = NULL;
	size_t n = 0, nmade = 0;
	int r = 0;

	if (!root)
		return fail(c, NULL, "the file is empty");
	if (root->type != YAML_MAPPING_NODE)
		return fail(c, root, "expected a mapping with a 'subscriptions' list");
	for (yaml_node_pair_t *pr = root->data.mapping.pairs.start;
	     pr < root->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(&c->doc, pr->key);
		const char *k = scalar(kn);

		if (k && !strcmp(k, "subscriptions"))
			list = yaml_document_get_node(&c->doc, pr->value);
		else
			return fail(c, kn, "unknown key '%s' (expected 'subscriptions')",
				    k ? k : "(not a scalar)");
	}
	if (!list)
		return fail(c, root, "no 'subscriptions' list");
	if (list->type == YAML_SCALAR_NODE && !*scalar(list))
		return 0;   /* "subscriptions:" with nothing */
	if (list->type != YAML_SEQUENCE_NODE)
		return fail(c, list, "subscriptions: expected a list");
	n = (size_t)(list->data.sequence.items.top - list->data.sequence.items.start);
	subs = calloc(n ? n : 1, sizeof(*subs));
	made = calloc(n ? n : 1, sizeof(*made));
	if (!subs || !made) {
		r = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		r = parse_sub(c, yaml_document_get_node(&c->doc,
							list->data.sequence.items.start[i]),
			      &subs[i]);
		if (r < 0)
			goto out;
	}
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *node = yaml_document_get_node(&c->doc,
							   list->data.sequence.items.start[i]);

		r = utouch_comp_subscribe(comp, &subs[i].p, &made[nmade]);
		if (r == -EBUSY)
			r = fail(c, node, "atomic differs from another subscription of the same region");
		else if (r == -ENOSPC)
			r = fail(c, node, "more than 32 different regions");
		else if (r == -EINVAL)
			r = fail(c, node, "invalid subscription");
		if (r < 0)
			goto out;
		nmade++;
		for (size_t k = 0; k < subs[i].noptions; k++) {
			r = utouch_comp_subscription_set_option(made[nmade - 1], subs[i].keys[k],
								subs[i].values[k]);
			if (r < 0)
				goto out;
		}
	}
	r = (int)n;
out:
	if (r < 0)
		while (nmade > 0)
			utouch_comp_unsubscribe(comp, made[--nmade]);
	free(subs);
	free(made);
	return r;
}

UTOUCH_COMP_PUBLIC int
utouch_comp_load_config_data(struct utouch_comp *comp, const char *name, const char *data,
			     size_t len, char *err, size_t errlen)
{
	struct cfg c = { .name = name ? name : "(config)", .err = err, .errlen = errlen };
	yaml_parser_t parser;
	int r;

	if (err && errlen)
		err[0] = '\0';
	if (!comp || (!data && len))
		return -EINVAL;
	if (memchr(data ? data : "", '\0', len))
		return fail(&c, NULL, "the file contains a NUL byte");
	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)(data ? data : ""), len);
	if (!yaml_parser_load(&parser, &c.doc)) {
		if (err && errlen)
			snprintf(err, errlen, "%s:%zu: %s", c.name,
				 (size_t)parser.problem_mark.line + 1,
				 parser.problem ? parser.problem : "YAML syntax error");
		yaml_parser_delete(&parser);
		return -EINVAL;
	}
	r = load(comp, &c);
	yaml_document_delete(&c.doc);
	yaml_parser_delete(&parser);
	return r;
}

UTOUCH_COMP_PUBLIC int
utouch_comp_load_config(struct utouch_comp *comp, const char *path, char *err, size_t errlen)
{
	FILE *f;
	char *buf;
	size_t len;
	int r;

	if (err && errlen)
		err[0] = '\0';
	if (!comp || !path)
		return -EINVAL;
	f = fopen(path, "rb");
	if (!f) {
		r = -errno;
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	buf = malloc(MAX_CONFIG_BYTES + 1);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	len = fread(buf, 1, MAX_CONFIG_BYTES + 1, f);
	r = ferror(f) ? -EIO : len > MAX_CONFIG_BYTES ? -E2BIG : 0;
	fclose(f);
	if (r < 0) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path,
				 r == -EIO ? "read error" : "larger than 1 MiB");
		free(buf);
		return r;
	}
	r = utouch_comp_load_config_data(comp, path, buf, len, err, errlen);
	free(buf);
	return r;
}
