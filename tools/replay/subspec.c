#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subspec.h"
#include "geis/gesture-class.h"

/* The per-primitive keys (drag-timeout, ...) are named after the first
 * rows of the class table, which are in SUBSPEC_* order. */
_Static_assert(SUBSPEC_NPRIM <= UT_NUM_GESTURE_CLASSES, "class table too short");
#define prim_name(p) (ut_gesture_classes[(p)].key)
#define ORIGINAL_TYPES ut_gesture_class_mask_all()

enum ext_type { EXT_MS, EXT_METRES, EXT_COUNT, EXT_EDGES };

static const struct {
	const char *name;
	UGSubscriptionProperty prop;
	enum ext_type type;
} ext_keys[SUBSPEC_NEXT] = {
	[SUBSPEC_HOLD_TIMEOUT] = { "hold-timeout", UGSubscriptionPropertyHoldTimeout, EXT_MS },
	[SUBSPEC_HOLD_THRESHOLD] = { "hold-threshold", UGSubscriptionPropertyHoldThreshold,
				     EXT_METRES },
	[SUBSPEC_MULTITAP_TIMEOUT] = { "multitap-timeout",
				       UGSubscriptionPropertyMultiTapTimeout, EXT_MS },
	[SUBSPEC_MULTITAP_THRESHOLD] = { "multitap-threshold",
					 UGSubscriptionPropertyMultiTapThreshold, EXT_METRES },
	[SUBSPEC_MULTITAP_MAX] = { "multitap-max", UGSubscriptionPropertyMultiTapMaximum,
				   EXT_COUNT },
	[SUBSPEC_EDGES] = { "edges", UGSubscriptionPropertyEdgeSwipeEdges, EXT_EDGES },
	[SUBSPEC_EDGE_MARGIN] = { "edge-margin", UGSubscriptionPropertyEdgeSwipeMargin,
				  EXT_METRES },
	[SUBSPEC_EDGE_VELOCITY] = { "edge-velocity", UGSubscriptionPropertyEdgeSwipeVelocity,
				    EXT_METRES },
	[SUBSPEC_VELOCITY_WINDOW] = { "velocity-window", UGSubscriptionPropertyVelocityWindow,
				      EXT_MS },
};

static const struct {
	const char *name;
	unsigned int bit;
} edge_names[] = {
	{ "left", UGEdgeLeft }, { "right", UGEdgeRight }, { "top", UGEdgeTop },
	{ "bottom", UGEdgeBottom },
	{ "all", UGEdgeLeft | UGEdgeRight | UGEdgeTop | UGEdgeBottom },
};

void
subspec_edge_str(unsigned int edge, char *buf, size_t len)
{
	for (size_t i = 0; i < 4; i++) {
		if (edge == edge_names[i].bit) {
			snprintf(buf, len, "%s", edge_names[i].name);
			return;
		}
	}
	snprintf(buf, len, "none");
}

void
subspec_mask_str(UGGestureTypeMask mask, char *buf, size_t len)
{
	UGGestureTypeMask done = 0;
	size_t used = 0;

	buf[0] = '\0';
	/* each grail bit once: geis's Flick row shares Drag's bit */
	for (size_t i = 0; i < UT_NUM_GESTURE_CLASSES; i++) {
		if (!(mask & ut_gesture_classes[i].mask & ~done))
			continue;
		done |= ut_gesture_classes[i].mask;
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0,
					 "%s%s", used ? "+" : "",
					 ut_gesture_classes[i].key);
	}
	if (!used)
		snprintf(buf, len, "none");
}

static int
parse_mask(const char *v, UGGestureTypeMask *out)
{
	UGGestureTypeMask m = 0;

	while (*v) {
		size_t n = strcspn(v, "+|/");
		int i = ut_gesture_class_find(v, n, 0);

		if (n == 3 && strncmp(v, "all", 3) == 0)
			m |= ut_gesture_class_mask_all();
		else if (i < 0)
			return -1;
		else
			m |= ut_gesture_classes[i].mask;
		v += n;
		if (*v)
			v++;
	}
	if (!m)
		return -1;
	*out = m;
	return 0;
}

static int
parse_uint(const char *v, unsigned long long max, unsigned long long *out)
{
	char *end;
	unsigned long long x;

	if (*v < '0' || *v > '9')
		return -1;
	errno = 0;
	x = strtoull(v, &end, 10);
	if (errno || *end || x > max)
		return -1;
	*out = x;
	return 0;
}

static int
parse_float(const char *v, float *out)
{
	char *end;
	float x;

	errno = 0;
	x = strtof(v, &end);
	if (errno || end == v || *end || !(x >= 0))
		return -1;
	*out = x;
	return 0;
}

static int
parse_edges(const char *v, unsigned long long *out)
{
	unsigned long long e = 0;

	while (*v) {
		size_t n = strcspn(v, "+|/");
		size_t i;

		for (i = 0; i < sizeof(edge_names) / sizeof(edge_names[0]); i++)
			if (strlen(edge_names[i].name) == n && strncmp(v, edge_names[i].name, n) == 0)
				break;
		if (i == sizeof(edge_names) / sizeof(edge_names[0]))
			return -1;
		e |= edge_names[i].bit;
		v += n;
		if (*v)
			v++;
	}
	if (!e)
		return -1;
	*out = e;
	return 0;
}

/* Parse a utouch extension key; grail itself says whether the value is valid. */
static int
parse_ext(int k, const char *v, struct subspec *s)
{
	UGSubscription probe;
	UGStatus st;
	unsigned long long n = 0;
	unsigned int u;

	switch (ext_keys[k].type) {
	case EXT_MS:
		if (parse_uint(v, UINT64_MAX, &n))
			return -1;
		break;
	case EXT_COUNT:
		if (parse_uint(v, 1000, &n))
			return -1;
		break;
	case EXT_EDGES:
		if (parse_edges(v, &n))
			return -1;
		break;
	case EXT_METRES:
		if (parse_float(v, &s->ext_float[k]))
			return -1;
		break;
	}
	s->ext_int[k] = n;
	if (grail_subscription_new(&probe) != UGStatusSuccess)
		return -1;
	u = (unsigned int)n;
	st = grail_subscription_set_property(probe, ext_keys[k].prop,
					     ext_keys[k].type == EXT_METRES ? (const void *)&s->ext_float[k]
					     : ext_keys[k].type == EXT_MS ? (const void *)&s->ext_int[k]
					     : (const void *)&u);
	grail_subscription_delete(probe);
	if (st != UGStatusSuccess)
		return -1;
	s->has_ext[k] = 1;
	s->extended = 1;
	return 0;
}

static int
parse_item(char *key, const char *v, struct subspec *s)
{
	unsigned long long n;

	for (int k = 0; k < SUBSPEC_NEXT; k++)
		if (!strcmp(key, ext_keys[k].name))
			return parse_ext(k, v, s);
	if (!strcmp(key, "mask")) {
		if (parse_mask(v, &s->mask))
			return -1;
		if (s->mask & ~(UGGestureTypeMask)ORIGINAL_TYPES)
			s->extended = 1;
		return 0;
	}
	if (!strcmp(key, "atomic")) {
		if (parse_uint(v, 1, &n))
			return -1;
		s->atomic = (int)n;
		return 0;
	}
	if (!strcmp(key, "whole-hand")) {
		if (parse_uint(v, 1, &n))
			return -1;
		s->whole_hand = (int)n;
		return 0;
	}
	if (!strcmp(key, "start") || !strcmp(key, "min") ||
	    !strcmp(key, "max") || !strcmp(key, "touches")) {
		if (parse_uint(v, 1000, &n))
			return -1;
		if (key[0] == 't')
			s->start = s->min = s->max = (unsigned int)n;
		else if (!strcmp(key, "start"))
			s->start = (unsigned int)n;
		else if (!strcmp(key, "min"))
			s->min = (unsigned int)n;
		else
			s->max = (unsigned int)n;
		return 0;
	}
	for (int p = 0; p < SUBSPEC_NPRIM; p++) {
		size_t len = strlen(prim_name(p));

		if (strncmp(key, prim_name(p), len) || key[len] != '-')
			continue;
		if (!strcmp(key + len + 1, "timeout")) {
			if (parse_uint(v, UINT64_MAX, &n))
				return -1;
			s->timeout[p] = n;
			s->has_timeout[p] = 1;
			return 0;
		}
		if (!strcmp(key + len + 1, "threshold")) {
			if (parse_float(v, &s->threshold[p]))
				return -1;
			s->has_threshold[p] = 1;
			return 0;
		}
	}
	return -2;
}

int
subspec_parse(const char *text, struct subspec *s, char *err, size_t errlen)
{
	char *copy = strdup(text);
	char *save = NULL;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	s->start = 2;
	s->mask = UGGestureTypeDrag;
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (char *item = strtok_r(copy, ",", &save); item && !rc;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		int r;

		if (!eq) {
			snprintf(err, errlen, "subscription item '%s' is not key=value", item);
			rc = -1;
			break;
		}
		*eq = '\0';
		r = parse_item(item, eq + 1, s);
		if (r == -2) {
			snprintf(err, errlen, "unknown subscription key '%s'", item);
			rc = -1;
		} else if (r) {
			snprintf(err, errlen, "bad value '%s' for subscription key '%s'",
				 eq + 1, item);
			rc = -1;
		}
	}
	free(copy);
	return rc;
}

UGStatus
subspec_create(const struct subspec *s, UFDevice device, UFWindowId window,
	       UGSubscription *out)
{
	static const UGSubscriptionProperty timeouts[SUBSPEC_NPRIM] = {
		UGSubscriptionPropertyDragTimeout, UGSubscriptionPropertyPinchTimeout,
		UGSubscriptionPropertyRotateTimeout, UGSubscriptionPropertyTapTimeout,
	};
	static const UGSubscriptionProperty thresholds[SUBSPEC_NPRIM] = {
		UGSubscriptionPropertyDragThreshold, UGSubscriptionPropertyPinchThreshold,
		UGSubscriptionPropertyRotateThreshold, UGSubscriptionPropertyTapThreshold,
	};
	UGSubscription sub;
	UGStatus st;
	int atomic = s->atomic;

	st = grail_subscription_new(&sub);
	if (st != UGStatusSuccess)
		return st;
#define SET(prop, ptr) \
	do { \
		st = grail_subscription_set_property(sub, prop, ptr); \
		if (st != UGStatusSuccess) \
			goto fail; \
	} while (0)
	SET(UGSubscriptionPropertyDevice, &device);
	SET(UGSubscriptionPropertyWindow, &window);
	SET(UGSubscriptionPropertyMask, &s->mask);
	SET(UGSubscriptionPropertyTouchesStart, &s->start);
	if (s->min)
		SET(UGSubscriptionPropertyTouchesMinimum, &s->min);
	if (s->max)
		SET(UGSubscriptionPropertyTouchesMaximum, &s->max);
	SET(UGSubscriptionPropertyAtomicGestures, &atomic);
	if (s->whole_hand) {
		int whole = 1;
		SET(UGSubscriptionPropertyWholeHand, &whole);
	}
	for (int p = 0; p < SUBSPEC_NPRIM; p++) {
		if (s->has_timeout[p])
			SET(timeouts[p], &s->timeout[p]);
		if (s->has_threshold[p])
			SET(thresholds[p], &s->threshold[p]);
	}
	for (int k = 0; k < SUBSPEC_NEXT; k++) {
		unsigned int u = (unsigned int)s->ext_int[k];
		if (!s->has_ext[k])
			continue;
		if (ext_keys[k].type == EXT_METRES)
			SET(ext_keys[k].prop, &s->ext_float[k]);
		else if (ext_keys[k].type == EXT_MS)
			SET(ext_keys[k].prop, &s->ext_int[k]);
		else
			SET(ext_keys[k].prop, &u);
	}
#undef SET
	*out = sub;
	return UGStatusSuccess;
fail:
	grail_subscription_delete(sub);
	return st;
}
