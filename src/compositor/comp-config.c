/*
 * The configuration file: a YAML document with a `subscriptions` list
 * (format in doc/compositor.md), read with the shared YAML reader
 * (util/yaml-config.h): one table row per key of a subscription.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compositor/comp-private.h"
#include "geis/gesture-class.h"
#include "util/yaml-config.h"

#define MAX_OPTIONS 32

/* one subscription while it is read */
struct cfg_sub {
	struct utouch_comp_subscription_params p;
	int policy, accept;
	const char *keys[MAX_OPTIONS], *values[MAX_OPTIONS];
	const struct ut_yaml_node *value_nodes[MAX_OPTIONS];
	size_t noptions;
};

/* "gestures": one of the class names of geis/gesture-class.h, or a list */
static int
class_bit(struct ut_yaml_doc *doc, const struct ut_yaml_node *n, UGGestureTypeMask *bit)
{
	static const char list[] = "drag, pinch, rotate, tap, touch";
	int i;

	if (n->type != UT_YAML_SCALAR)
		return ut_yaml_error(doc, n, "\"gestures\": expected a class or a list of classes");
	i = ut_gesture_class_find(n->text, strlen(n->text), 0);
	if (i < 0 || ut_gesture_classes[i].extension ||
	    ut_gesture_classes[i].id == GEIS_GESTURE_ID_FLICK)
		return ut_yaml_error(doc, n, "\"gestures\": unknown class \"%s\" (%s)", n->text,
				     list);
	*bit = ut_gesture_classes[i].mask;
	return 0;
}

static int
read_mask(struct ut_yaml_doc *doc, const struct ut_yaml_field *f, const struct ut_yaml_node *n,
	  void *target)
{
	struct cfg_sub *s = target;
	UGGestureTypeMask mask = 0, bit;
	int r = 0;

	if (n->type != UT_YAML_LIST) {
		if (class_bit(doc, n, &bit) < 0)
			return -EINVAL;
		s->p.mask = bit;
		return 0;
	}
	for (size_t i = 0; i < n->count; i++) {
		if (class_bit(doc, n->items[i], &bit) < 0)
			r = -EINVAL;
		else
			mask |= bit;
	}
	if (r == 0 && !mask)
		return ut_yaml_error(doc, n, "\"gestures\": the list is empty");
	s->p.mask = mask;
	return r;
}

static int
read_region(struct ut_yaml_doc *doc, const struct ut_yaml_field *f,
	    const struct ut_yaml_node *n, void *target)
{
	struct cfg_sub *s = target;
	double v[4];

	if (n->type != UT_YAML_LIST || n->count != 4)
		return ut_yaml_error(doc, n, "\"region\": expected [x, y, width, height]");
	for (size_t k = 0; k < 4; k++)
		if (ut_yaml_number(doc, n->items[k], "region", "px", k < 2 ? -1e9 : 0, 1e9, false,
				   &v[k]) < 0)
			return -EINVAL;
	s->p.region = (struct utouch_comp_rect){ v[0], v[1], v[2], v[3] };
	return 0;
}

static int
read_options(struct ut_yaml_doc *doc, const struct ut_yaml_field *f,
	     const struct ut_yaml_node *n, void *target)
{
	struct cfg_sub *s = target;

	if (ut_yaml_is_empty(n))
		return 0;
	if (n->type != UT_YAML_MAP)
		return ut_yaml_error(doc, n, "\"options\": expected a mapping of strings");
	if (n->count > MAX_OPTIONS)
		return ut_yaml_error(doc, n, "\"options\": at most %d options", MAX_OPTIONS);
	for (size_t i = 0; i < n->count; i++) {
		const struct ut_yaml_node *v = n->items[2 * i + 1];

		if (v->type != UT_YAML_SCALAR)
			return ut_yaml_error(doc, v, "\"options\": \"%s\" needs a single value",
					     n->items[2 * i]->text);
		s->keys[i] = n->items[2 * i]->text;
		s->values[i] = v->text;
		s->value_nodes[i] = v;
	}
	s->noptions = n->count;
	return 0;
}

static const char *const policy_names[] = { "hold", "forward-then-cancel", NULL };
static const char *const accept_names[] = { "auto", "manual", NULL };

#define F(key, type, field, lo, hi, unit) \
	{ key, type, offsetof(struct cfg_sub, field), lo, hi, unit, NULL, NULL }
#define F_READ(key, fn) { key, UT_YAML_CUSTOM, 0, 0, 0, NULL, NULL, fn }

/* the keys of a subscription: one row each */
enum sub_key {
	K_NAME, K_GESTURES, K_GESTURE, K_TOUCHES, K_TOUCHES_MIN, K_TOUCHES_MAX, K_POLICY,
	K_ACCEPT, K_ATOMIC, K_WHOLE_HAND, K_REGION, K_DRAG_TIMEOUT, K_PINCH_TIMEOUT,
	K_ROTATE_TIMEOUT, K_TAP_TIMEOUT, K_DRAG_THRESHOLD, K_PINCH_THRESHOLD, K_ROTATE_THRESHOLD,
	K_TAP_THRESHOLD, K_OPTIONS, K_COUNT
};
static const struct ut_yaml_field sub_fields[K_COUNT] = {
	[K_NAME] = F("name", UT_YAML_STRING, p.name, 0, 0, NULL),
	[K_GESTURES] = F_READ("gestures", read_mask),
	[K_GESTURE] = F_READ("gesture", read_mask),
	[K_TOUCHES] = F("touches", UT_YAML_UINT, p.touches_start, 1, 5, NULL),
	[K_TOUCHES_MIN] = F("touches-minimum", UT_YAML_UINT, p.touches_minimum, 1, 5, NULL),
	[K_TOUCHES_MAX] = F("touches-maximum", UT_YAML_UINT, p.touches_maximum, 1, 5, NULL),
	[K_POLICY] = { "policy", UT_YAML_ENUM, offsetof(struct cfg_sub, policy), 0, 0, NULL,
		       policy_names, NULL },
	[K_ACCEPT] = { "accept", UT_YAML_ENUM, offsetof(struct cfg_sub, accept), 0, 0, NULL,
		       accept_names, NULL },
	[K_ATOMIC] = F("atomic", UT_YAML_BOOL, p.atomic, 0, 0, NULL),
	[K_WHOLE_HAND] = F("whole-hand", UT_YAML_BOOL, p.whole_hand, 0, 0, NULL),
	[K_REGION] = F_READ("region", read_region),
	[K_DRAG_TIMEOUT] = F("drag-timeout", UT_YAML_U64, p.drag_timeout, 0, 3600000, "ms"),
	[K_PINCH_TIMEOUT] = F("pinch-timeout", UT_YAML_U64, p.pinch_timeout, 0, 3600000, "ms"),
	[K_ROTATE_TIMEOUT] = F("rotate-timeout", UT_YAML_U64, p.rotate_timeout, 0, 3600000, "ms"),
	[K_TAP_TIMEOUT] = F("tap-timeout", UT_YAML_U64, p.tap_timeout, 0, 3600000, "ms"),
	[K_DRAG_THRESHOLD] = F("drag-threshold", UT_YAML_FLOAT, p.drag_threshold, 0, 10, "m"),
	[K_PINCH_THRESHOLD] = F("pinch-threshold", UT_YAML_FLOAT, p.pinch_threshold, 0, 100, NULL),
	[K_ROTATE_THRESHOLD] = F("rotate-threshold", UT_YAML_FLOAT, p.rotate_threshold, 0, 100,
				 "rad"),
	[K_TAP_THRESHOLD] = F("tap-threshold", UT_YAML_FLOAT, p.tap_threshold, 0, 10, "m"),
	[K_OPTIONS] = F_READ("options", read_options),
};
#undef F
#undef F_READ

static int
parse_sub(struct ut_yaml_doc *doc, const struct ut_yaml_node *n, struct cfg_sub *s)
{
	const struct ut_yaml_node *seen[K_COUNT];

	utouch_comp_subscription_params_init(&s->p);
	s->p.mask = 0;
	s->policy = s->p.policy == UTOUCH_COMP_POLICY_FORWARD_THEN_CANCEL;
	s->accept = s->p.accept == UTOUCH_COMP_ACCEPT_MANUAL;
	if (n->type != UT_YAML_MAP)
		return ut_yaml_error(doc, n, "a subscription must be a mapping");
	if (ut_yaml_read_map(doc, n, "subscription", sub_fields, K_COUNT, s, seen) < 0)
		return -EINVAL;
	s->p.policy = s->policy ? UTOUCH_COMP_POLICY_FORWARD_THEN_CANCEL : UTOUCH_COMP_POLICY_HOLD;
	s->p.accept = s->accept ? UTOUCH_COMP_ACCEPT_MANUAL : UTOUCH_COMP_ACCEPT_AUTO;
	if (seen[K_GESTURES] && seen[K_GESTURE])
		return ut_yaml_error(doc, seen[K_GESTURE], "\"gesture\" and \"gestures\" are the "
				     "same key; give one");
	if (!s->p.mask)
		return ut_yaml_error(doc, n, "the subscription has no \"gestures\"");
	if (!seen[K_TOUCHES])
		return ut_yaml_error(doc, n, "the subscription has no \"touches\"");
	if (s->p.touches_minimum > s->p.touches_start)
		return ut_yaml_error(doc, seen[K_TOUCHES_MIN], "\"touches-minimum\" is above "
				     "\"touches\"");
	if (s->p.touches_maximum && s->p.touches_maximum < s->p.touches_start)
		return ut_yaml_error(doc, seen[K_TOUCHES_MAX], "\"touches-maximum\" is below "
				     "\"touches\"");
	return 0;
}

struct load {
	struct ut_yaml_doc doc;
	utouch_comp_config_check check;
	void *data;
};

/* the subscriptions of the tree; the number made, or a negative errno */
static int
load(struct utouch_comp *comp, struct load *l)
{
	struct ut_yaml_doc *doc = &l->doc;
	const struct ut_yaml_node *root = doc->root, *list;
	struct cfg_sub *subs = NULL;
	struct utouch_comp_subscription **made = NULL;
	size_t n, nmade = 0;
	int r = 0;

	if (!root || ut_yaml_is_empty(root))
		return ut_yaml_error(doc, NULL, "the file is empty");
	if (root->type != UT_YAML_MAP)
		return ut_yaml_error(doc, root, "expected a mapping with a \"subscriptions\" list");
	for (size_t i = 0; i < root->count; i++)
		if (strcmp(root->items[2 * i]->text, "subscriptions"))
			r = ut_yaml_error(doc, root->items[2 * i], "unknown top-level key \"%s\" "
					  "(expected \"subscriptions\")", root->items[2 * i]->text);
	if (r < 0)
		return r;
	list = ut_yaml_get(root, "subscriptions");
	if (!list)
		return ut_yaml_error(doc, root, "no \"subscriptions\" list");
	if (ut_yaml_is_empty(list))
		return 0;   /* "subscriptions:" with nothing */
	if (list->type != UT_YAML_LIST)
		return ut_yaml_error(doc, list, "\"subscriptions\": expected a list");
	n = list->count;
	subs = calloc(n ? n : 1, sizeof(*subs));
	made = calloc(n ? n : 1, sizeof(*made));
	if (!subs || !made) {
		r = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct cfg_sub *s = &subs[i];
		char why[256] = "";
		size_t bad;
		int refused;

		if (parse_sub(doc, list->items[i], s) < 0 || !l->check)
			continue;
		bad = s->noptions;
		comp->in_callback++;
		refused = l->check(l->data, &s->p, s->keys, s->values, s->noptions, &bad, why,
				   sizeof(why)) < 0;
		comp->in_callback--;
		if (refused)
			ut_yaml_error(doc, bad < s->noptions ? s->value_nodes[bad] : list->items[i],
				      "%s", why[0] ? why : "refused by the compositor");
	}
	if (doc->nerrors) {
		r = -EINVAL;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const struct ut_yaml_node *node = list->items[i];

		r = utouch_comp_subscribe(comp, &subs[i].p, &made[nmade]);
		if (r == -EBUSY)
			r = ut_yaml_error(doc, node, "atomic differs from another subscription of "
					  "the same region");
		else if (r == -ENOSPC)
			r = ut_yaml_error(doc, node, "more than 32 different regions");
		else if (r == -EINVAL)
			r = ut_yaml_error(doc, node, "invalid subscription");
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

/* read the file @p path, or @p len bytes of @p data when @p path is NULL */
static int
load_config(struct utouch_comp *comp, const char *name, const char *path, const char *data,
	    size_t len, utouch_comp_config_check check, void *check_data, char *err,
	    size_t errlen)
{
	struct load l = { .check = check, .data = check_data };
	int r;

	if (err && errlen)
		err[0] = '\0';
	if (!comp || (!path && !data && len))
		return -EINVAL;
	ut_yaml_init(&l.doc, path ? path : name ? name : "(config)", NULL, NULL);
	r = path ? ut_yaml_load_file(&l.doc) : ut_yaml_load(&l.doc, data, len);
	if (r == 0)
		r = load(comp, &l);
	if (r < 0 && err && errlen)
		snprintf(err, errlen, "%s", l.doc.first);
	ut_yaml_fini(&l.doc);
	return r;
}

UTOUCH_COMP_PUBLIC int
utouch_comp_load_config_data(struct utouch_comp *comp, const char *name, const char *data,
			     size_t len, char *err, size_t errlen)
{
	return load_config(comp, name, NULL, data, len, NULL, NULL, err, errlen);
}

UTOUCH_COMP_PUBLIC int
utouch_comp_load_config(struct utouch_comp *comp, const char *path, char *err, size_t errlen)
{
	if (!path)
		return -EINVAL;
	return load_config(comp, NULL, path, NULL, 0, NULL, NULL, err, errlen);
}

UTOUCH_COMP_PUBLIC int
utouch_comp_load_config_checked(struct utouch_comp *comp, const char *path,
				utouch_comp_config_check check, void *data, char *err,
				size_t errlen)
{
	if (!path)
		return -EINVAL;
	return load_config(comp, NULL, path, NULL, 0, check, data, err, errlen);
}
