#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subspec.h"
#include "util/gesture-class.h"

/* The per-primitive keys (drag-timeout, ...) are named after the first
 * rows of the class table, which are in SUBSPEC_* order. */
_Static_assert(SUBSPEC_NPRIM <= UT_NUM_GESTURE_CLASSES, "class table too short");
#define prim_name(p) (ut_gesture_classes[(p)].key)

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
parse_item(char *key, const char *v, struct subspec *s)
{
	unsigned long long n;

	if (!strcmp(key, "mask"))
		return parse_mask(v, &s->mask);
	if (!strcmp(key, "atomic")) {
		if (parse_uint(v, 1, &n))
			return -1;
		s->atomic = (int)n;
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
	for (int p = 0; p < SUBSPEC_NPRIM; p++) {
		if (s->has_timeout[p])
			SET(timeouts[p], &s->timeout[p]);
		if (s->has_threshold[p])
			SET(thresholds[p], &s->threshold[p]);
	}
#undef SET
	*out = sub;
	return UGStatusSuccess;
fail:
	grail_subscription_delete(sub);
	return st;
}
