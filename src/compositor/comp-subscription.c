/*
 * System gesture subscriptions: validation, zones (one grail window per
 * distinct region), one grail subscription per device, free-form options.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "compositor/comp-private.h"
#include "grail/grail-props.h"

#define PARAM(p, kind, f) \
	{UGSubscriptionProperty##p, kind, offsetof(struct utouch_comp_subscription_params, f)}

/* The grail parameters of a subscription: their defaults come from grail,
 * and uc_subscription_attach_device() hands them to grail. */
static const struct gr_prop_field param_props[] = {
	PARAM(DragTimeout, GR_PROP_U64, drag_timeout),
	PARAM(DragThreshold, GR_PROP_FLOAT, drag_threshold),
	PARAM(PinchTimeout, GR_PROP_U64, pinch_timeout),
	PARAM(PinchThreshold, GR_PROP_FLOAT, pinch_threshold),
	PARAM(RotateTimeout, GR_PROP_U64, rotate_timeout),
	PARAM(RotateThreshold, GR_PROP_FLOAT, rotate_threshold),
	PARAM(TapTimeout, GR_PROP_U64, tap_timeout),
	PARAM(TapThreshold, GR_PROP_FLOAT, tap_threshold),
	PARAM(WholeHand, GR_PROP_INT, whole_hand),
};
#define NPARAM_PROPS (sizeof(param_props) / sizeof(param_props[0]))

UTOUCH_COMP_PUBLIC void
utouch_comp_subscription_params_init(struct utouch_comp_subscription_params *p)
{
	if (!p)
		return;
	memset(p, 0, sizeof(*p));
	p->mask = UGGestureTypeDrag;
	p->touches_start = 2;
	p->policy = UTOUCH_COMP_POLICY_HOLD;
	p->accept = UTOUCH_COMP_ACCEPT_AUTO;
	/*
	 * grail's defaults.  Out of memory, the thresholds stay 0 and the
	 * timeouts unlimited; utouch_comp_subscribe() then fails anyway.
	 */
	gr_props_read_defaults(p, param_props, NPARAM_PROPS);
	/* every subscription here is a system gesture: the whole hand or
	 * nothing (issue 23), where grail's default is grail 3.1's subsets */
	p->whole_hand = 1;
}

static int
bad_float(float f)
{
	return !(f >= 0.0f) || isinf(f);
}

int
uc_subscription_validate(const struct utouch_comp_subscription_params *p)
{
	const UGGestureTypeMask all = UGGestureTypeDrag | UGGestureTypePinch |
		UGGestureTypeRotate | UGGestureTypeTap | UGGestureTypeTouch;

	if (!p->mask || (p->mask & ~all))
		return -EINVAL;
	if (p->touches_start < 1 || p->touches_start > 5)
		return -EINVAL;
	if (p->touches_minimum > p->touches_start)
		return -EINVAL;
	if (p->touches_maximum && (p->touches_maximum < p->touches_start ||
				   p->touches_maximum > 5))
		return -EINVAL;
	if (bad_float(p->drag_threshold) || bad_float(p->pinch_threshold) ||
	    bad_float(p->rotate_threshold) || bad_float(p->tap_threshold))
		return -EINVAL;
	if (!(p->region.width >= 0) || !(p->region.height >= 0) || isinf(p->region.x) ||
	    isinf(p->region.y) || isnan(p->region.x) || isnan(p->region.y))
		return -EINVAL;
	if (p->policy != UTOUCH_COMP_POLICY_HOLD &&
	    p->policy != UTOUCH_COMP_POLICY_FORWARD_THEN_CANCEL)
		return -EINVAL;
	if (p->accept != UTOUCH_COMP_ACCEPT_AUTO && p->accept != UTOUCH_COMP_ACCEPT_MANUAL)
		return -EINVAL;
	return 0;
}

static int
zone_in_use(struct utouch_comp *comp, unsigned int z)
{
	if (comp->zones[z].nsubs)
		return 1;
	for (size_t i = 0; i < comp->ntouches; i++)
		if (comp->touches[i].serial && (comp->touches[i].zones & (1u << z)))
			return 1;
	return 0;
}

int
uc_zone_find(struct utouch_comp *comp, const struct utouch_comp_rect *r, int atomic,
	     int create)
{
	struct utouch_comp_rect norm = *r;
	int spare = -1;

	if (norm.width <= 0 || norm.height <= 0)
		memset(&norm, 0, sizeof(norm));
	for (unsigned int z = 0; z < comp->nzones; z++) {
		struct uc_zone *zone = &comp->zones[z];

		if (!memcmp(&zone->region, &norm, sizeof(norm)) && zone_in_use(comp, z)) {
			if (zone->nsubs && zone->atomic != atomic)
				return -EBUSY;
			return (int)z;
		}
		if (spare < 0 && !zone_in_use(comp, z))
			spare = (int)z;
	}
	if (!create)
		return -ENOENT;
	if (spare < 0) {
		if (comp->nzones == UC_MAX_ZONES)
			return -ENOSPC;
		spare = (int)comp->nzones++;
	}
	memset(&comp->zones[spare], 0, sizeof(comp->zones[spare]));
	comp->zones[spare].region = norm;
	return spare;
}

static int
set(UGSubscription gs, UGSubscriptionProperty prop, const void *value)
{
	return grail_subscription_set_property(gs, prop, value) == UGStatusSuccess ? 0 : -EINVAL;
}

int
uc_subscription_attach_device(struct utouch_comp_subscription *sub,
			      struct utouch_comp_device *dev)
{
	struct utouch_comp *comp = sub->comp;
	const struct utouch_comp_subscription_params *p = &sub->params;
	UGSubscription gs = NULL;
	UFDevice fdev = frame_backend_device_get_device(dev->bdev);
	UFWindowId window = (UFWindowId)sub->zone + 1;
	int atomic = p->atomic ? 1 : 0;
	int err = 0;

	if (dev->index >= sub->ngsubs) {
		size_t n = sub->ngsubs;

		if (uc_grow((void **)&sub->gsubs, &n, dev->index + 1, sizeof(*sub->gsubs)) < 0)
			return -ENOMEM;
		for (size_t i = sub->ngsubs; i < n; i++)
			sub->gsubs[i] = NULL;
		sub->ngsubs = n;
	}
	if (grail_subscription_new(&gs) != UGStatusSuccess)
		return -ENOMEM;
	err |= set(gs, UGSubscriptionPropertyDevice, &fdev);
	err |= set(gs, UGSubscriptionPropertyWindow, &window);
	err |= set(gs, UGSubscriptionPropertyMask, &p->mask);
	err |= set(gs, UGSubscriptionPropertyTouchesStart, &p->touches_start);
	if (p->touches_minimum)
		err |= set(gs, UGSubscriptionPropertyTouchesMinimum, &p->touches_minimum);
	if (p->touches_maximum)
		err |= set(gs, UGSubscriptionPropertyTouchesMaximum, &p->touches_maximum);
	if (gr_props_apply(gs, p, param_props, NPARAM_PROPS) != UGStatusSuccess)
		err = -EINVAL;
	err |= set(gs, UGSubscriptionPropertyAtomicGestures, &atomic);
	if (err || grail_subscription_activate(comp->grail, gs) != UGStatusSuccess) {
		grail_subscription_delete(gs);
		return -EINVAL;
	}
	sub->gsubs[dev->index] = gs;
	return 0;
}

void
uc_subscription_detach_device(struct utouch_comp_subscription *sub,
			      struct utouch_comp_device *dev)
{
	UGSubscription gs;

	if (dev->index >= sub->ngsubs || !sub->gsubs[dev->index])
		return;
	gs = sub->gsubs[dev->index];
	grail_subscription_deactivate(sub->comp->grail, gs);
	uc_gestures_drain(sub->comp);   /* its cancelled gestures still map to sub */
	sub->gsubs[dev->index] = NULL;
	grail_subscription_delete(gs);
}

void
uc_subscription_free(struct utouch_comp_subscription *sub)
{
	for (size_t i = 0; i < sub->noptions; i++) {
		free(sub->options[i].key);
		free(sub->options[i].value);
	}
	free(sub->options);
	free(sub->gsubs);
	free(sub->name);
	free(sub);
}

UTOUCH_COMP_PUBLIC int
utouch_comp_subscribe(struct utouch_comp *comp,
		      const struct utouch_comp_subscription_params *params,
		      struct utouch_comp_subscription **out)
{
	struct utouch_comp_subscription *sub;
	int z, err;

	if (!comp || !params || !out) {
		ut_log_client_bug(comp ? &comp->log : NULL, __func__, "NULL %s",
				  !comp ? "context" : !params ? "params" : "out");
		return -EINVAL;
	}
	err = uc_subscription_validate(params);
	if (err < 0) {
		uc_log(comp, UT_LOG_INFO, "subscription '%s' refused: invalid parameters",
		       params->name ? params->name : "");
		return err;
	}
	z = uc_zone_find(comp, &params->region, params->atomic ? 1 : 0, 1);
	if (z < 0) {
		uc_log(comp, UT_LOG_INFO, "subscription '%s' refused: %s",
		       params->name ? params->name : "",
		       z == -ENOSPC ? "more than 32 regions"
		       : "its region has subscriptions of the other atomic mode");
		return z;
	}
	if (uc_grow((void **)&comp->subs, &comp->capsubs, comp->nsubs + 1,
		    sizeof(*comp->subs)) < 0)
		return -ENOMEM;
	sub = calloc(1, sizeof(*sub));
	if (!sub)
		return -ENOMEM;
	sub->comp = comp;
	sub->params = *params;
	sub->zone = (unsigned int)z;
	sub->name = strdup(params->name ? params->name : "");
	if (!sub->name) {
		free(sub);
		return -ENOMEM;
	}
	sub->params.name = sub->name;
	comp->zones[z].atomic = params->atomic ? 1 : 0;
	for (size_t i = 0; i < comp->ndevices; i++) {
		if (!comp->devices[i])
			continue;
		err = uc_subscription_attach_device(sub, comp->devices[i]);
		if (err < 0) {
			for (size_t j = 0; j < i; j++)
				if (comp->devices[j])
					uc_subscription_detach_device(sub, comp->devices[j]);
			uc_subscription_free(sub);
			return err;
		}
	}
	comp->zones[z].nsubs++;
	if (params->policy == UTOUCH_COMP_POLICY_HOLD)
		comp->zones[z].nhold++;
	comp->subs[comp->nsubs++] = sub;
	*out = sub;
	return 0;
}

UTOUCH_COMP_PUBLIC void
utouch_comp_unsubscribe(struct utouch_comp *comp, struct utouch_comp_subscription *sub)
{
	size_t i;

	/* a removed subscription's handle points to freed memory: found
	 * among the context's, it is its own */
	if (!comp || !sub)
		return;
	for (i = 0; i < comp->nsubs; i++)
		if (comp->subs[i] == sub)
			break;
	if (i == comp->nsubs)
		return;
	for (size_t d = 0; d < comp->ndevices; d++)
		if (comp->devices[d])
			uc_subscription_detach_device(sub, comp->devices[d]);
	comp->zones[sub->zone].nsubs--;
	if (sub->params.policy == UTOUCH_COMP_POLICY_HOLD)
		comp->zones[sub->zone].nhold--;
	memmove(&comp->subs[i], &comp->subs[i + 1], (comp->nsubs - i - 1) * sizeof(*comp->subs));
	comp->nsubs--;
	uc_subscription_free(sub);
	uc_step_end(comp);
}

UTOUCH_COMP_PUBLIC const struct utouch_comp_subscription_params *
utouch_comp_subscription_get_params(const struct utouch_comp_subscription *sub)
{
	return sub ? &sub->params : NULL;
}

UTOUCH_COMP_PUBLIC void *
utouch_comp_subscription_get_user_data(const struct utouch_comp_subscription *sub)
{
	return sub ? sub->params.user_data : NULL;
}

UTOUCH_COMP_PUBLIC struct utouch_comp_subscription *
utouch_comp_get_subscription(struct utouch_comp *comp, size_t index)
{
	if (!comp || index >= comp->nsubs)
		return NULL;
	return comp->subs[index];
}

UTOUCH_COMP_PUBLIC int
utouch_comp_subscription_set_option(struct utouch_comp_subscription *sub, const char *key,
				    const char *value)
{
	char *v = NULL;
	size_t cap;

	if (!sub || !key)
		return -EINVAL;
	if (value && !(v = strdup(value)))
		return -ENOMEM;
	for (size_t i = 0; i < sub->noptions; i++) {
		if (strcmp(sub->options[i].key, key) != 0)
			continue;
		free(sub->options[i].value);
		if (v) {
			sub->options[i].value = v;
		} else {
			free(sub->options[i].key);
			sub->options[i] = sub->options[--sub->noptions];
		}
		return 0;
	}
	if (!v)
		return 0;
	cap = sub->noptions;
	if (uc_grow((void **)&sub->options, &cap, sub->noptions + 1, sizeof(*sub->options)) < 0 ||
	    !(sub->options[sub->noptions].key = strdup(key))) {
		free(v);
		return -ENOMEM;
	}
	sub->options[sub->noptions++].value = v;
	return 0;
}

UTOUCH_COMP_PUBLIC const char *
utouch_comp_subscription_get_option(const struct utouch_comp_subscription *sub,
				    const char *key)
{
	if (!sub || !key)
		return NULL;
	for (size_t i = 0; i < sub->noptions; i++)
		if (strcmp(sub->options[i].key, key) == 0)
			return sub->options[i].value;
	return NULL;
}
