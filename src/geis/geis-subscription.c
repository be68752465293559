/*
 * Subscriptions: named sets of filters, activated through the engine.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "geis-private.h"

#define CONFIG_FIELD(p, kind, f) {UGSubscriptionProperty##p, kind, offsetof(struct gs_sub_config, f)}

/* Where each of grail's gesture parameters lives in a subscription's
 * configuration; geis_engine applies them to its grail subscriptions. */
const struct gr_prop_field geis_sub_config_props[] = {
	CONFIG_FIELD(DragThreshold, GR_PROP_FLOAT, drag_threshold),
	CONFIG_FIELD(DragTimeout, GR_PROP_INT_MS, drag_timeout),
	CONFIG_FIELD(PinchThreshold, GR_PROP_FLOAT, pinch_threshold),
	CONFIG_FIELD(PinchTimeout, GR_PROP_INT_MS, pinch_timeout),
	CONFIG_FIELD(RotateThreshold, GR_PROP_FLOAT, rotate_threshold),
	CONFIG_FIELD(RotateTimeout, GR_PROP_INT_MS, rotate_timeout),
	CONFIG_FIELD(TapThreshold, GR_PROP_FLOAT, tap_threshold),
	CONFIG_FIELD(TapTimeout, GR_PROP_INT_MS, tap_timeout),
	/* grail's utouch extensions (doc/grail.md) */
	CONFIG_FIELD(HoldTimeout, GR_PROP_INT_MS, hold_timeout),
	CONFIG_FIELD(HoldThreshold, GR_PROP_FLOAT, hold_threshold),
	CONFIG_FIELD(MultiTapTimeout, GR_PROP_INT_MS, multitap_timeout),
	CONFIG_FIELD(MultiTapThreshold, GR_PROP_FLOAT, multitap_threshold),
	CONFIG_FIELD(MultiTapMaximum, GR_PROP_INT_UINT, multitap_max),
	/* UTOUCH_GEIS_EDGE_* are the UGEdge bits */
	CONFIG_FIELD(EdgeSwipeEdges, GR_PROP_INT_UINT, edge_edges),
	CONFIG_FIELD(EdgeSwipeMargin, GR_PROP_FLOAT, edge_margin),
	CONFIG_FIELD(EdgeSwipeVelocity, GR_PROP_FLOAT, edge_velocity),
	CONFIG_FIELD(VelocityWindow, GR_PROP_INT_MS, velocity_window),
	CONFIG_FIELD(WholeHand, GR_PROP_INT, whole_hand),
};
const size_t geis_sub_config_nprops =
	sizeof(geis_sub_config_props) / sizeof(geis_sub_config_props[0]);

int
gs_subscription_defaults(struct gs_sub_config *c)
{
	/* grail's defaults, read from grail: it owns them */
	memset(c, 0, sizeof(*c));
	return gr_props_read_defaults(c, geis_sub_config_props, geis_sub_config_nprops)
		? 0 : -1;
}

GEIS_API GeisSubscription
geis_subscription_new(Geis geis, GeisString name, GeisSubscriptionFlags flags)
{
	GeisSubscription s;

	if (!geis) {
		gs_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT,
				"geis_subscription_new: NULL instance");
		return NULL;
	}
	gs_error_clear(geis);
	if (flags & ~(GEIS_SUBSCRIPTION_GRAB | GEIS_SUBSCRIPTION_CONT)) {
		gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_subscription_new: unknown flags 0x%x", (unsigned)flags);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s || !(s->name = gs_strdup(name))) {
		free(s);
		gs_error_push(geis, GEIS_STATUS_UNKNOWN_ERROR,
				"geis_subscription_new: out of memory");
		return NULL;
	}
	if (gs_subscription_defaults(&s->config) < 0) {
		free(s->name);
		free(s);
		gs_error_push(geis, GEIS_STATUS_UNKNOWN_ERROR,
				"geis_subscription_new: out of memory");
		return NULL;
	}
	s->geis = geis;
	s->id = geis->next_sub_id++;
	s->flags = flags;
	ut_list_init(&s->filters);
	ut_list_init(&s->bindings);
	ut_list_insert_after(&geis->subs, &s->link);
	return s;
}

GEIS_API GeisStatus
geis_subscription_delete(GeisSubscription subscription)
{
	if (!subscription) {
		gs_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT,
				"geis_subscription_delete: NULL subscription");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	if (subscription->active)
		gs_engine_deactivate(subscription);
	ut_list_remove(&subscription->link);
	ut_list_for_each_safe(pos, tmp, &subscription->filters) {
		GeisFilter f = ut_container_of(pos, struct _GeisFilter, owner_link);

		ut_list_remove(&f->owner_link);
		f->owner = NULL;
		geis_filter_delete(f);
	}
	free(subscription->name);
	free(subscription);
	return GEIS_STATUS_SUCCESS;
}

GEIS_API GeisStatus
geis_subscription_activate(GeisSubscription subscription)
{
	if (!subscription) {
		gs_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT,
				"geis_subscription_activate: NULL subscription");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	gs_error_clear(subscription->geis);
	return gs_engine_activate(subscription);
}

GEIS_API GeisStatus
geis_subscription_deactivate(GeisSubscription subscription)
{
	if (!subscription) {
		gs_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT,
				"geis_subscription_deactivate: NULL subscription");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	gs_error_clear(subscription->geis);
	if (subscription->active)
		gs_engine_deactivate(subscription);
	return GEIS_STATUS_SUCCESS;
}

GEIS_API GeisString
geis_subscription_name(GeisSubscription subscription)
{
	return UT_CLIENT_BUG_IF(NULL, !subscription) ? NULL : subscription->name;
}

GEIS_API GeisInteger
geis_subscription_id(GeisSubscription subscription)
{
	return UT_CLIENT_BUG_IF(NULL, !subscription) ? -1 : subscription->id;
}

GEIS_API GeisStatus
geis_subscription_add_filter(GeisSubscription subscription, GeisFilter filter)
{
	if (!subscription || !filter) {
		gs_error_push(subscription ? subscription->geis : NULL,
				GEIS_STATUS_BAD_ARGUMENT,
				"geis_subscription_add_filter: NULL argument");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	gs_error_clear(subscription->geis);
	if (filter->owner || filter->geis != subscription->geis) {
		gs_error_push(subscription->geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_subscription_add_filter: filter \"%s\" already belongs "
				"to a subscription or to another instance", filter->name);
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	ut_list_insert_before(&subscription->filters, &filter->owner_link);
	filter->owner = subscription;
	return GEIS_STATUS_SUCCESS;
}

GEIS_API GeisFilter
geis_subscription_filter_by_name(GeisSubscription sub, GeisString name)
{
	if (UT_CLIENT_BUG_IF(NULL, !sub || !name))
		return NULL;
	ut_list_for_each(pos, &sub->filters) {
		GeisFilter f = ut_container_of(pos, struct _GeisFilter, owner_link);

		if (strcmp(f->name, name) == 0)
			return f;
	}
	return NULL;
}

GEIS_API GeisStatus
geis_subscription_remove_filter(GeisSubscription subscription, GeisFilter filter)
{
	if (!subscription || !filter) {
		gs_error_push(subscription ? subscription->geis : NULL,
				GEIS_STATUS_BAD_ARGUMENT,
				"geis_subscription_remove_filter: NULL argument");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	gs_error_clear(subscription->geis);
	if (filter->owner == subscription) {
		ut_list_remove(&filter->owner_link);
		filter->owner = NULL;
		return GEIS_STATUS_SUCCESS;
	}
	gs_error_push(subscription->geis, GEIS_STATUS_BAD_ARGUMENT,
			"geis_subscription_remove_filter: the subscription has no "
			"filter \"%s\"", filter->name);
	return GEIS_STATUS_BAD_ARGUMENT;
}

struct config_item {
	const char *name;
	int is_float;
	size_t offset;
	/* integers: the smallest and largest value (0, 0: any >= 0); a utouch
	 * extension */
	GeisInteger min, max;
	int extension;
};

#define EXT_INT(name, field, lo, hi) \
	{ name, 0, offsetof(struct gs_sub_config, field), lo, hi, 1 }
#define EXT_FLOAT(name, field) \
	{ name, 1, offsetof(struct gs_sub_config, field), 0, 0, 1 }

static const struct config_item sub_items[] = {
	{ GEIS_CONFIG_DRAG_THRESHOLD, 1, offsetof(struct gs_sub_config, drag_threshold), 0, 0, 0 },
	{ GEIS_CONFIG_DRAG_TIMEOUT, 0, offsetof(struct gs_sub_config, drag_timeout), 0, 0, 0 },
	{ GEIS_CONFIG_PINCH_THRESHOLD, 1, offsetof(struct gs_sub_config, pinch_threshold), 0, 0, 0 },
	{ GEIS_CONFIG_PINCH_TIMEOUT, 0, offsetof(struct gs_sub_config, pinch_timeout), 0, 0, 0 },
	{ GEIS_CONFIG_ROTATE_THRESHOLD, 1, offsetof(struct gs_sub_config, rotate_threshold), 0, 0, 0 },
	{ GEIS_CONFIG_ROTATE_TIMEOUT, 0, offsetof(struct gs_sub_config, rotate_timeout), 0, 0, 0 },
	{ GEIS_CONFIG_TAP_THRESHOLD, 1, offsetof(struct gs_sub_config, tap_threshold), 0, 0, 0 },
	{ GEIS_CONFIG_TAP_TIMEOUT, 0, offsetof(struct gs_sub_config, tap_timeout), 0, 0, 0 },
	EXT_INT(UTOUCH_GEIS_CONFIG_HOLD_TIMEOUT, hold_timeout, 1, 0),
	EXT_FLOAT(UTOUCH_GEIS_CONFIG_HOLD_THRESHOLD, hold_threshold),
	EXT_INT(UTOUCH_GEIS_CONFIG_MULTITAP_TIMEOUT, multitap_timeout, 0, 0),
	EXT_FLOAT(UTOUCH_GEIS_CONFIG_MULTITAP_THRESHOLD, multitap_threshold),
	EXT_INT(UTOUCH_GEIS_CONFIG_MULTITAP_MAXIMUM, multitap_max, 1, 100),
	EXT_INT(UTOUCH_GEIS_CONFIG_EDGE_SWIPE_EDGES, edge_edges, 1, 15),
	EXT_FLOAT(UTOUCH_GEIS_CONFIG_EDGE_SWIPE_MARGIN, edge_margin),
	EXT_FLOAT(UTOUCH_GEIS_CONFIG_EDGE_SWIPE_VELOCITY, edge_velocity),
	EXT_INT(UTOUCH_GEIS_CONFIG_VELOCITY_WINDOW, velocity_window, 1, 0),
	/* changes which gestures there are, not what they carry: no extension
	 * attributes */
	{ UTOUCH_GEIS_CONFIG_WHOLE_HAND, 0, offsetof(struct gs_sub_config, whole_hand), 0, 1, 0 },
};

static const struct config_item *
find_item(const char *name)
{
	for (size_t i = 0; i < sizeof(sub_items) / sizeof(sub_items[0]); i++)
		if (strcmp(sub_items[i].name, name) == 0)
			return &sub_items[i];
	return NULL;
}

/*
 * Check the arguments of a configuration call and find the item: NULL with
 * *status set (and the error recorded) when they are bad or it is unknown.
 */
static const struct config_item *
config_lookup(GeisSubscription subscription, GeisString name, GeisPointer value,
	      const char *fn, GeisStatus *status)
{
	const struct config_item *it;

	if (!subscription || !name || !value) {
		gs_error_push(subscription ? subscription->geis : NULL,
				GEIS_STATUS_BAD_ARGUMENT, "%s: NULL argument", fn);
		*status = GEIS_STATUS_BAD_ARGUMENT;
		return NULL;
	}
	gs_error_clear(subscription->geis);
	if (!gs_uses_grail(subscription->geis)) {
		gs_error_push(subscription->geis, GEIS_STATUS_NOT_SUPPORTED,
				"%s: the %s backend has no \"%s\"", fn,
				subscription->geis->backend->ops->name, name);
		*status = GEIS_STATUS_NOT_SUPPORTED;
		return NULL;
	}
	it = find_item(name);
	if (!it) {
		gs_error_push(subscription->geis, GEIS_STATUS_NOT_SUPPORTED,
				"unknown subscription configuration item \"%s\"", name);
		*status = GEIS_STATUS_NOT_SUPPORTED;
	}
	return it;
}

GEIS_API GeisStatus
geis_subscription_get_configuration(GeisSubscription subscription,
				    GeisString config_item_name,
				    GeisPointer config_item_value)
{
	GeisStatus status = GEIS_STATUS_SUCCESS;

	if (subscription && config_item_name && config_item_value &&
	    gs_uses_grail(subscription->geis) &&
	    strcmp(config_item_name, GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS) == 0) {
		/* as geis 2.2 answered it per subscription: how many grail
		 * subscriptions (device, window, filter) it holds, a GeisSize */
		GeisSize n = 0;

		gs_error_clear(subscription->geis);
		ut_list_for_each(pos, &subscription->bindings)
			n++;
		memcpy(config_item_value, &n, sizeof(n));
		return GEIS_STATUS_SUCCESS;
	}
	const struct config_item *it =
		config_lookup(subscription, config_item_name, config_item_value,
			      "geis_subscription_get_configuration", &status);
	if (!it)
		return status;
	const char *base = (const char *)&subscription->config + it->offset;
	memcpy(config_item_value, base, it->is_float ? sizeof(GeisFloat) : sizeof(GeisInteger));
	return GEIS_STATUS_SUCCESS;
}

GEIS_API GeisStatus
geis_subscription_set_configuration(GeisSubscription subscription,
				    GeisString config_item_name,
				    GeisPointer config_item_value)
{
	GeisStatus status = GEIS_STATUS_SUCCESS;
	const struct config_item *it =
		config_lookup(subscription, config_item_name, config_item_value,
			      "geis_subscription_set_configuration", &status);
	char *base;

	if (UT_CLIENT_BUG_IF(NULL, !it))
		return status;
	base = (char *)&subscription->config + it->offset;
	if (it->is_float) {
		GeisFloat v;

		memcpy(&v, config_item_value, sizeof(v));
		/* the rule grail has: a finite number, not negative (an
		 * infinite threshold is refused, not taken as "never") */
		if (!isfinite(v) || v < 0.0f) {
			gs_error_push(subscription->geis, GEIS_STATUS_BAD_ARGUMENT,
					"\"%s\" must be a finite number, not negative",
					config_item_name);
			return GEIS_STATUS_BAD_ARGUMENT;
		}
		memcpy(base, &v, sizeof(v));
	} else {
		GeisInteger v;

		memcpy(&v, config_item_value, sizeof(v));
		if (v < 0) {
			gs_error_push(subscription->geis, GEIS_STATUS_BAD_ARGUMENT,
					"\"%s\" must not be negative", config_item_name);
			return GEIS_STATUS_BAD_ARGUMENT;
		}
		if (v < it->min || (it->max && v > it->max)) {
			if (it->max)
				gs_error_push(subscription->geis, GEIS_STATUS_BAD_ARGUMENT,
						"\"%s\" must be %d to %d, not %d", config_item_name,
						(int)it->min, (int)it->max, (int)v);
			else
				gs_error_push(subscription->geis, GEIS_STATUS_BAD_ARGUMENT,
						"\"%s\" must be at least %d, not %d",
						config_item_name, (int)it->min, (int)v);
			return GEIS_STATUS_BAD_ARGUMENT;
		}
		memcpy(base, &v, sizeof(v));
	}
	if (it->extension)
		subscription->config.extended = 1;
	if (subscription->active)
		gs_engine_apply_config(subscription);
	return GEIS_STATUS_SUCCESS;
}
