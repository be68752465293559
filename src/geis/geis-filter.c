/*
 * Filters and filter terms, and how terms translate into device choice
 * and grail subscription parameters.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "geis-private.h"

struct term_name {
	GeisFilterFacility facility;
	const char *name;
	GeisAttrType type;
};

/* Every attribute a term may name, with the C type of its value. */
static const struct term_name term_names[] = {
	{ GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_NAME, GEIS_ATTR_TYPE_STRING },
	{ GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_ID, GEIS_ATTR_TYPE_INTEGER },
	{ GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_TOUCHES, GEIS_ATTR_TYPE_INTEGER },
	{ GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_DIRECT_TOUCH, GEIS_ATTR_TYPE_BOOLEAN },
	{ GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_INDEPENDENT_TOUCH, GEIS_ATTR_TYPE_BOOLEAN },
	{ GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_MIN_X, GEIS_ATTR_TYPE_FLOAT },
	{ GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_MAX_X, GEIS_ATTR_TYPE_FLOAT },
	{ GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_RES_X, GEIS_ATTR_TYPE_FLOAT },
	{ GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_MIN_Y, GEIS_ATTR_TYPE_FLOAT },
	{ GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_MAX_Y, GEIS_ATTR_TYPE_FLOAT },
	{ GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_RES_Y, GEIS_ATTR_TYPE_FLOAT },
	{ GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME, GEIS_ATTR_TYPE_STRING },
	{ GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_ID, GEIS_ATTR_TYPE_INTEGER },
	{ GEIS_FILTER_CLASS, GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_ATTR_TYPE_INTEGER },
	{ GEIS_FILTER_REGION, GEIS_REGION_ATTRIBUTE_WINDOWID, GEIS_ATTR_TYPE_INTEGER },
	/* the special facility knows the two flags geis 2.2 looked for: the
	 * v1 "Sysflags" gesture type and the grab request.  Terms naming them
	 * are kept (so a filter built for geis 2.2 still adds cleanly) but
	 * change nothing: utouch has no system-gesture priority and its
	 * backends take the touch grab for every subscribed window anyway. */
	{ GEIS_FILTER_SPECIAL, GEIS_GESTURE_TYPE_SYSTEM, GEIS_ATTR_TYPE_BOOLEAN },
	{ GEIS_FILTER_SPECIAL, UTOUCH_GEIS_SPECIAL_GRAB, GEIS_ATTR_TYPE_BOOLEAN },
};

static const struct term_name *
lookup_name(GeisFilterFacility facility, const char *name)
{
	for (size_t i = 0; i < sizeof(term_names) / sizeof(term_names[0]); i++)
		if (term_names[i].facility == facility &&
		    strcmp(term_names[i].name, name) == 0)
			return &term_names[i];
	return NULL;
}

static void
term_free(struct geis_term *t)
{
	free(t->name);
	if (t->type == GEIS_ATTR_TYPE_STRING)
		free(t->v.s);
}

GEIS_API GeisFilter
geis_filter_new(Geis geis, GeisString name)
{
	GeisFilter f;

	if (!geis) {
		gs_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT, "geis_filter_new: NULL instance");
		return NULL;
	}
	gs_error_clear(geis);
	f = calloc(1, sizeof(*f));
	if (!f || !(f->name = gs_strdup(name))) {
		free(f);
		gs_error_push(geis, GEIS_STATUS_UNKNOWN_ERROR, "geis_filter_new: out of memory");
		return NULL;
	}
	f->geis = geis;
	ut_list_init(&f->owner_link);
	ut_list_insert_after(&geis->filters, &f->link);
	return f;
}

static int
add_term(GeisFilter f, const struct geis_term *t)
{
	struct geis_term *n;

	if (!UT_ARRAY_RESERVE(f->terms, f->cap, f->nterms + 1, 4))
		return -1;
	n = &f->terms[f->nterms];
	*n = *t;
	n->name = gs_strdup(t->name);
	if (!n->name)
		return -1;
	if (t->type == GEIS_ATTR_TYPE_STRING) {
		n->v.s = gs_strdup(t->v.s);
		if (!n->v.s) {
			free(n->name);
			return -1;
		}
	}
	f->nterms++;
	return 0;
}

GEIS_API GeisFilter
geis_filter_clone(GeisFilter original, GeisString name)
{
	GeisFilter f;

	if (!original) {
		gs_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT, "geis_filter_clone: NULL filter");
		return NULL;
	}
	f = geis_filter_new(original->geis, name);
	if (!f)
		return NULL;
	for (GeisSize i = 0; i < original->nterms; i++) {
		if (add_term(f, &original->terms[i])) {
			geis_filter_delete(f);
			gs_error_push(original->geis, GEIS_STATUS_UNKNOWN_ERROR,
					"geis_filter_clone: out of memory");
			return NULL;
		}
	}
	return f;
}

GEIS_API GeisStatus
geis_filter_delete(GeisFilter filter)
{
	if (!filter)
		return GEIS_STATUS_BAD_ARGUMENT;
	if (filter->owner) {
		gs_error_push(filter->geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_filter_delete: filter \"%s\" belongs to a subscription",
				filter->name);
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	ut_list_remove(&filter->link);
	for (GeisSize i = 0; i < filter->nterms; i++)
		term_free(&filter->terms[i]);
	free(filter->terms);
	free(filter->name);
	free(filter);
	return GEIS_STATUS_SUCCESS;
}

GEIS_API GeisString
geis_filter_name(GeisFilter filter)
{
	return UT_CLIENT_BUG_IF(NULL, !filter) ? NULL : filter->name;
}

GEIS_API GeisStatus
geis_filter_add_term(GeisFilter filter, GeisFilterFacility facility, ...)
{
	GeisStatus status = GEIS_STATUS_SUCCESS;
	const char *name;
	va_list ap;

	if (!filter) {
		gs_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT, "geis_filter_add_term: NULL filter");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	gs_error_clear(filter->geis);
	if (facility != GEIS_FILTER_DEVICE && facility != GEIS_FILTER_CLASS &&
	    facility != GEIS_FILTER_REGION && facility != GEIS_FILTER_SPECIAL) {
		gs_error_push(filter->geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_filter_add_term: unknown facility %d", (int)facility);
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	va_start(ap, facility);
	while ((name = va_arg(ap, const char *)) != NULL) {
		const struct term_name *tn = lookup_name(facility, name);
		struct geis_term t;
		int op;

		if (!tn) {
			gs_error_push(filter->geis, GEIS_STATUS_BAD_ARGUMENT,
					"geis_filter_add_term: attribute \"%s\" is not known "
					"to facility %d", name, (int)facility);
			status = GEIS_STATUS_BAD_ARGUMENT;
			break;
		}
		op = va_arg(ap, int);
		if (op < GEIS_FILTER_OP_EQ || op > GEIS_FILTER_OP_LE) {
			gs_error_push(filter->geis, GEIS_STATUS_BAD_ARGUMENT,
					"geis_filter_add_term: unknown operation %d for \"%s\"",
					op, name);
			status = GEIS_STATUS_BAD_ARGUMENT;
			break;
		}
		memset(&t, 0, sizeof(t));
		t.facility = facility;
		t.name = (char *)name;
		t.op = (GeisFilterOperation)op;
		t.type = tn->type;
		switch (tn->type) {
		case GEIS_ATTR_TYPE_STRING:
			t.v.s = (char *)va_arg(ap, const char *);
			break;
		case GEIS_ATTR_TYPE_BOOLEAN:
			t.v.b = va_arg(ap, int) ? GEIS_TRUE : GEIS_FALSE;
			break;
		case GEIS_ATTR_TYPE_INTEGER:
			t.v.i = va_arg(ap, int);
			break;
		case GEIS_ATTR_TYPE_FLOAT:
			t.v.f = (GeisFloat)va_arg(ap, double);
			break;
		default:
			t.v.p = va_arg(ap, void *);
			break;
		}
		if ((tn->type == GEIS_ATTR_TYPE_STRING || tn->type == GEIS_ATTR_TYPE_BOOLEAN) &&
		    op != GEIS_FILTER_OP_EQ && op != GEIS_FILTER_OP_NE) {
			gs_error_push(filter->geis, GEIS_STATUS_BAD_ARGUMENT,
					"geis_filter_add_term: \"%s\" only allows EQ and NE", name);
			status = GEIS_STATUS_BAD_ARGUMENT;
			break;
		}
		if (tn->type == GEIS_ATTR_TYPE_STRING && !t.v.s) {
			gs_error_push(filter->geis, GEIS_STATUS_BAD_ARGUMENT,
					"geis_filter_add_term: NULL string value for \"%s\"", name);
			status = GEIS_STATUS_BAD_ARGUMENT;
			break;
		}
		if (add_term(filter, &t)) {
			gs_error_push(filter->geis, GEIS_STATUS_UNKNOWN_ERROR,
					"geis_filter_add_term: out of memory");
			status = GEIS_STATUS_UNKNOWN_ERROR;
			break;
		}
	}
	va_end(ap);
	return status;
}

static int
compare(GeisFilterOperation op, int cmp)
{
	switch (op) {
	case GEIS_FILTER_OP_EQ: return cmp == 0;
	case GEIS_FILTER_OP_NE: return cmp != 0;
	case GEIS_FILTER_OP_GT: return cmp > 0;
	case GEIS_FILTER_OP_GE: return cmp >= 0;
	case GEIS_FILTER_OP_LT: return cmp < 0;
	case GEIS_FILTER_OP_LE: return cmp <= 0;
	}
	return 0;
}

/* Compare an attribute with a term's value; -1/0/1 like strcmp, or 2 when
 * they can not be compared. */
static int
attr_cmp(GeisAttr a, const struct geis_term *t)
{
	switch (t->type) {
	case GEIS_ATTR_TYPE_STRING: {
		const char *s = geis_attr_value_to_string(a);
		int c;

		if (!s)
			return 2;
		c = strcmp(s, t->v.s);
		return c < 0 ? -1 : c > 0;
	}
	case GEIS_ATTR_TYPE_BOOLEAN:
		return geis_attr_value_to_boolean(a) == t->v.b ? 0 : 1;
	case GEIS_ATTR_TYPE_INTEGER: {
		GeisInteger v = geis_attr_value_to_integer(a);

		return v < t->v.i ? -1 : v > t->v.i;
	}
	case GEIS_ATTR_TYPE_FLOAT: {
		GeisFloat v = geis_attr_value_to_float(a);

		return v < t->v.f ? -1 : v > t->v.f;
	}
	default:
		return 2;
	}
}

int
gs_filter_match_device(GeisFilter filter, GeisDevice device)
{
	if (!filter)
		return 1;
	for (GeisSize i = 0; i < filter->nterms; i++) {
		const struct geis_term *t = &filter->terms[i];
		GeisAttr a;
		int c;

		if (t->facility != GEIS_FILTER_DEVICE)
			continue;
		a = geis_device_attr_by_name(device, t->name);
		if (!a)
			return 0;
		c = attr_cmp(a, t);
		if (c == 2 || !compare(t->op, c))
			return 0;
	}
	return 1;
}

static UGGestureTypeMask
class_mask(const struct geis_term *t)
{
	UGGestureTypeMask m = 0;

	for (size_t i = 0; i < UT_NUM_GESTURE_CLASSES; i++) {
		const struct ut_gesture_class *k = &ut_gesture_classes[i];
		int c;

		if (t->type == GEIS_ATTR_TYPE_STRING) {
			c = strcmp(k->name, t->v.s);
			c = c < 0 ? -1 : c > 0;
		} else {
			c = k->id < t->v.i ? -1 : k->id > t->v.i;
		}
		if (compare(t->op, c))
			m |= k->mask;
	}
	return m;
}

static unsigned
umax(unsigned a, unsigned b)
{
	return a > b ? a : b;
}

static unsigned
umin(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

int
gs_filter_gesture_params(GeisFilter filter, GeisSubscriptionFlags flags,
			   int tentative, struct geis_gesture_params *p)
{
	UGGestureTypeMask eq_mask = 0, other_mask = ut_gesture_class_mask_any();
	int have_eq = 0;

	p->start = 1;
	p->min = 1;
	p->max = 5;
	p->nwindows = 0;
	for (GeisSize i = 0; filter && i < filter->nterms; i++) {
		const struct geis_term *t = &filter->terms[i];

		if (t->facility == GEIS_FILTER_REGION) {
			if (t->op != GEIS_FILTER_OP_EQ)
				return -1;
			if (p->nwindows < (int)(sizeof(p->windows) / sizeof(p->windows[0])))
				p->windows[p->nwindows++] = t->v.i;
			continue;
		}
		if (t->facility != GEIS_FILTER_CLASS)
			continue;
		if (strcmp(t->name, GEIS_GESTURE_ATTRIBUTE_TOUCHES) == 0) {
			unsigned n = t->v.i < 0 ? 0 : (unsigned)t->v.i;

			/* a count no gesture has (1 to 5 touches) refuses the
			 * filter, whatever the operation (EQ 0 is as impossible
			 * as EQ 6) */
			if ((t->op == GEIS_FILTER_OP_EQ && (t->v.i < 1 || t->v.i > 5)) ||
			    (t->op == GEIS_FILTER_OP_GE && t->v.i > 5) ||
			    (t->op == GEIS_FILTER_OP_GT && t->v.i >= 5) ||
			    (t->op == GEIS_FILTER_OP_LE && t->v.i < 1) ||
			    (t->op == GEIS_FILTER_OP_LT && t->v.i <= 1))
				return -1;
			switch (t->op) {
			case GEIS_FILTER_OP_EQ:
				p->start = umax(p->start, n);
				p->min = umax(p->min, p->start);
				p->max = umin(p->max, p->start);
				break;
			case GEIS_FILTER_OP_GE:
				p->start = umax(p->start, n);
				p->min = umax(p->min, p->start);
				break;
			case GEIS_FILTER_OP_GT:
				p->start = umax(p->start, n + 1);
				p->min = umax(p->min, p->start);
				break;
			case GEIS_FILTER_OP_LE:
				p->start = umax(p->start, n);
				p->max = umin(p->max, p->start);
				break;
			case GEIS_FILTER_OP_LT:
				p->start = umax(p->start, n ? n - 1 : 0);
				p->max = umin(p->max, p->start);
				break;
			case GEIS_FILTER_OP_NE:
				return -1;
			}
			continue;
		}
		/* class name or class id */
		if (t->op == GEIS_FILTER_OP_EQ) {
			eq_mask |= class_mask(t);
			have_eq = 1;
		} else {
			other_mask &= class_mask(t);
		}
	}
	p->mask = (have_eq ? eq_mask : ut_gesture_class_mask_all()) & other_mask;
	if ((flags & GEIS_SUBSCRIPTION_CONT) && !tentative && !(p->mask & UGGestureTypeTap)) {
		p->min = 1;
		p->max = p->start;
	}
	if (p->mask == 0 || p->start < 1 || p->start > 5 || p->max < p->start ||
	    p->min > p->start)
		return -1;
	return 0;
}
