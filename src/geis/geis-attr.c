/*
 * Attributes and attribute bags.
 */
#include <stdlib.h>
#include <string.h>

#include "geis-private.h"

char *
gs_strdup(const char *s)
{
	return strdup(s ? s : "");
}

void
gs_attr_bag_init(struct geis_attr_bag *bag)
{
	bag->items = NULL;
	bag->count = 0;
	bag->cap = 0;
}

void
gs_attr_bag_fini(struct geis_attr_bag *bag)
{
	for (GeisSize i = 0; i < bag->count; i++) {
		struct _GeisAttr *a = bag->items[i];

		if (a->type == GEIS_ATTR_TYPE_STRING)
			free(a->v.s);
		free(a->name);
		free(a);
	}
	free(bag->items);
	gs_attr_bag_init(bag);
}

struct _GeisAttr *
gs_attr_bag_add(struct geis_attr_bag *bag, const char *name, GeisAttrType type)
{
	struct _GeisAttr *a;

	if (!UT_ARRAY_RESERVE(bag->items, bag->cap, bag->count + 1, 8))
		return NULL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->name = gs_strdup(name);
	if (!a->name) {
		free(a);
		return NULL;
	}
	a->type = type;
	bag->items[bag->count++] = a;
	return a;
}

int
gs_attr_bag_add_boolean(struct geis_attr_bag *bag, const char *name, GeisBoolean v)
{
	struct _GeisAttr *a = gs_attr_bag_add(bag, name, GEIS_ATTR_TYPE_BOOLEAN);

	if (!a)
		return -1;
	a->v.b = v ? GEIS_TRUE : GEIS_FALSE;
	return 0;
}

int
gs_attr_bag_add_float(struct geis_attr_bag *bag, const char *name, GeisFloat v)
{
	struct _GeisAttr *a = gs_attr_bag_add(bag, name, GEIS_ATTR_TYPE_FLOAT);

	if (!a)
		return -1;
	a->v.f = v;
	return 0;
}

int
gs_attr_bag_add_integer(struct geis_attr_bag *bag, const char *name, GeisInteger v)
{
	struct _GeisAttr *a = gs_attr_bag_add(bag, name, GEIS_ATTR_TYPE_INTEGER);

	if (!a)
		return -1;
	a->v.i = v;
	return 0;
}

int
gs_attr_bag_add_pointer(struct geis_attr_bag *bag, const char *name, GeisPointer v)
{
	struct _GeisAttr *a = gs_attr_bag_add(bag, name, GEIS_ATTR_TYPE_POINTER);

	if (!a)
		return -1;
	a->v.p = v;
	return 0;
}

int
gs_attr_bag_add_string(struct geis_attr_bag *bag, const char *name, const char *v)
{
	struct _GeisAttr *a = gs_attr_bag_add(bag, name, GEIS_ATTR_TYPE_STRING);

	if (!a)
		return -1;
	a->v.s = gs_strdup(v);
	if (!a->v.s) {
		a->type = GEIS_ATTR_TYPE_UNKNOWN;
		return -1;
	}
	return 0;
}

GeisAttr
gs_attr_bag_get(const struct geis_attr_bag *bag, GeisSize index)
{
	if (!bag || index >= bag->count)
		return NULL;
	return bag->items[index];
}

GeisAttr
gs_attr_bag_find(const struct geis_attr_bag *bag, const char *name)
{
	if (!bag || !name)
		return NULL;
	for (GeisSize i = 0; i < bag->count; i++)
		if (strcmp(bag->items[i]->name, name) == 0)
			return bag->items[i];
	return NULL;
}

GEIS_API GeisString
geis_attr_name(GeisAttr attr)
{
	return UT_CLIENT_BUG_IF(NULL, !attr) ? NULL : attr->name;
}

GEIS_API GeisAttrType
geis_attr_type(GeisAttr attr)
{
	return UT_CLIENT_BUG_IF(NULL, !attr) ? GEIS_ATTR_TYPE_UNKNOWN : attr->type;
}

GEIS_API GeisBoolean
geis_attr_value_to_boolean(GeisAttr attr)
{
	if (UT_CLIENT_BUG_IF(NULL, !attr))
		return GEIS_FALSE;
	if (attr->type == GEIS_ATTR_TYPE_BOOLEAN)
		return attr->v.b;
	if (attr->type == GEIS_ATTR_TYPE_INTEGER)
		return attr->v.i != 0;
	return GEIS_FALSE;
}

GEIS_API GeisFloat
geis_attr_value_to_float(GeisAttr attr)
{
	if (UT_CLIENT_BUG_IF(NULL, !attr))
		return 0.0f;
	if (attr->type == GEIS_ATTR_TYPE_FLOAT)
		return attr->v.f;
	if (attr->type == GEIS_ATTR_TYPE_INTEGER)
		return (GeisFloat)attr->v.i;
	return 0.0f;
}

GEIS_API GeisInteger
geis_attr_value_to_integer(GeisAttr attr)
{
	if (UT_CLIENT_BUG_IF(NULL, !attr))
		return 0;
	if (attr->type == GEIS_ATTR_TYPE_INTEGER)
		return attr->v.i;
	if (attr->type == GEIS_ATTR_TYPE_BOOLEAN)
		return (GeisInteger)attr->v.b;
	return 0;
}

GEIS_API GeisPointer
geis_attr_value_to_pointer(GeisAttr attr)
{
	if (!attr || attr->type != GEIS_ATTR_TYPE_POINTER)
		return NULL;
	return attr->v.p;
}

GEIS_API GeisString
geis_attr_value_to_string(GeisAttr attr)
{
	if (!attr || attr->type != GEIS_ATTR_TYPE_STRING)
		return NULL;
	return attr->v.s;
}
