/*
 * utouch grail: the gesture parameters of a subscription as a table, for
 * the libraries in this tree that keep their own copy of them (geis's
 * subscription configuration, the compositor's subscription parameters).
 *
 * grail owns the defaults (grail_subscription_new()); a client describes
 * where each parameter lives in its own structure with a table of
 * struct gr_prop_field, fills that structure with grail's defaults by
 * gr_props_read_defaults() and hands its values to a grail subscription by
 * gr_props_apply(), instead of writing the literals and a call per
 * property itself.  Only grail's public API is used here (inline, nothing
 * exported), so any library or tool linked with grail may include it.
 */
#ifndef UTOUCH_GRAIL_PROPS_H
#define UTOUCH_GRAIL_PROPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <oif/grail.h>

/* How the client stores a property (grail's own type in brackets). */
enum gr_prop_kind {
	GR_PROP_FLOAT,   /* float (float): thresholds, margins, velocities */
	GR_PROP_U64,     /* uint64_t (uint64_t): times in ms */
	GR_PROP_INT_MS,  /* int, >= 0 (uint64_t): times in ms */
	GR_PROP_UINT,    /* unsigned int (unsigned int): counts, edge bits */
	GR_PROP_INT_UINT, /* int, >= 0 (unsigned int) */
	GR_PROP_INT      /* int (int): booleans */
};

/* One parameter: the grail property and where the client keeps it. */
struct gr_prop_field {
	UGSubscriptionProperty prop;
	enum gr_prop_kind kind;
	size_t offset; /* offsetof() in the client's structure */
};

/* Set each property of @sub from the client structure @base; returns the
 * first failure (the other properties are still set) or UGStatusSuccess. */
static inline UGStatus
gr_props_apply(UGSubscription sub, const void *base, const struct gr_prop_field *table,
	       size_t n)
{
	UGStatus ret = UGStatusSuccess;

	for (size_t i = 0; i < n; i++) {
		const char *field = (const char *)base + table[i].offset;
		uint64_t t;
		unsigned int u;
		const void *value = field;

		switch (table[i].kind) {
		case GR_PROP_FLOAT:
		case GR_PROP_U64:
		case GR_PROP_UINT:
		case GR_PROP_INT:
			break;
		case GR_PROP_INT_MS:
			t = (uint64_t)*(const int *)field;
			value = &t;
			break;
		case GR_PROP_INT_UINT:
			u = (unsigned int)*(const int *)field;
			value = &u;
			break;
		}
		UGStatus st = grail_subscription_set_property(sub, table[i].prop, value);
		if (st != UGStatusSuccess && ret == UGStatusSuccess)
			ret = st;
	}
	return ret;
}

/* Fill the client structure @base with grail's defaults of the properties
 * in @table; returns false (and leaves @base alone) when grail cannot make
 * a subscription (out of memory). */
static inline bool
gr_props_read_defaults(void *base, const struct gr_prop_field *table, size_t n)
{
	UGSubscription sub = NULL;

	if (grail_subscription_new(&sub) != UGStatusSuccess)
		return false;
	for (size_t i = 0; i < n; i++) {
		char *field = (char *)base + table[i].offset;
		uint64_t t = 0;
		unsigned int u = 0;

		switch (table[i].kind) {
		case GR_PROP_FLOAT:
		case GR_PROP_U64:
		case GR_PROP_UINT:
		case GR_PROP_INT:
			grail_subscription_get_property(sub, table[i].prop, field);
			break;
		case GR_PROP_INT_MS:
			grail_subscription_get_property(sub, table[i].prop, &t);
			*(int *)field = (int)t;
			break;
		case GR_PROP_INT_UINT:
			grail_subscription_get_property(sub, table[i].prop, &u);
			*(int *)field = (int)u;
			break;
		}
	}
	grail_subscription_delete(sub);
	return true;
}

#endif /* UTOUCH_GRAIL_PROPS_H */
