/*
 * utouch-events: geis events printed as text or as one JSON object a line.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "events.h"

/* ---- output helpers ---- */

static void
json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '"':  fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		default:
			if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

static void
json_float(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.9g", v);
	else
		fputs("null", out);
}

/* Print an attribute value: JSON or text.  Pointers print as null / a
 * placeholder (they are expanded elsewhere). */
static void
print_value(FILE *out, GeisAttr a, int json)
{
	switch (geis_attr_type(a)) {
	case GEIS_ATTR_TYPE_BOOLEAN:
		fputs(geis_attr_value_to_boolean(a) ? "true" : "false", out);
		break;
	case GEIS_ATTR_TYPE_INTEGER:
		fprintf(out, "%d", geis_attr_value_to_integer(a));
		break;
	case GEIS_ATTR_TYPE_FLOAT:
		if (json)
			json_float(out, geis_attr_value_to_float(a));
		else
			fprintf(out, "%g", geis_attr_value_to_float(a));
		break;
	case GEIS_ATTR_TYPE_STRING:
		if (json)
			json_string(out, geis_attr_value_to_string(a));
		else
			fprintf(out, "\"%s\"", geis_attr_value_to_string(a) ?
				geis_attr_value_to_string(a) : "");
		break;
	default:
		fputs(json ? "null" : "(pointer)", out);
		break;
	}
}

typedef GeisSize (*attr_count_fn)(void *obj);
typedef GeisAttr (*attr_get_fn)(void *obj, GeisSize i);

/* JSON: "attrs":{...} of an object; skips pointer attributes. */
static void
json_attrs(FILE *out, void *obj, attr_count_fn count, attr_get_fn get)
{
	int first = 1;

	fputs("\"attrs\":{", out);
	for (GeisSize i = 0; i < count(obj); i++) {
		GeisAttr a = get(obj, i);

		if (geis_attr_type(a) == GEIS_ATTR_TYPE_POINTER)
			continue;
		if (!first)
			fputc(',', out);
		first = 0;
		json_string(out, geis_attr_name(a));
		fputc(':', out);
		print_value(out, a, 1);
	}
	fputc('}', out);
}

/* Text: one "  name = value" line per non-pointer attribute. */
static void
text_attrs(FILE *out, const char *indent, void *obj, attr_count_fn count, attr_get_fn get)
{
	for (GeisSize i = 0; i < count(obj); i++) {
		GeisAttr a = get(obj, i);

		if (geis_attr_type(a) == GEIS_ATTR_TYPE_POINTER)
			continue;
		fprintf(out, "%s%s = ", indent, geis_attr_name(a));
		print_value(out, a, 0);
		fputc('\n', out);
	}
}

/* Adapters from the typed accessors to the generic ones. */
static GeisSize ev_count(void *o) { return geis_event_attr_count(o); }
static GeisAttr ev_get(void *o, GeisSize i) { return geis_event_attr(o, i); }
static GeisSize dev_count(void *o) { return geis_device_attr_count(o); }
static GeisAttr dev_get(void *o, GeisSize i) { return geis_device_attr(o, i); }
static GeisSize cls_count(void *o) { return geis_gesture_class_attr_count(o); }
static GeisAttr cls_get(void *o, GeisSize i) { return geis_gesture_class_attr(o, (int)i); }
static GeisSize fr_count(void *o) { return geis_frame_attr_count(o); }
static GeisAttr fr_get(void *o, GeisSize i) { return geis_frame_attr(o, i); }
static GeisSize tc_count(void *o) { return geis_touch_attr_count(o); }
static GeisAttr tc_get(void *o, GeisSize i) { return geis_touch_attr(o, i); }

static const char *
event_name(GeisEventType t)
{
	switch (t) {
	case GEIS_EVENT_DEVICE_AVAILABLE:   return "DEVICE_AVAILABLE";
	case GEIS_EVENT_DEVICE_UNAVAILABLE: return "DEVICE_UNAVAILABLE";
	case GEIS_EVENT_CLASS_AVAILABLE:    return "CLASS_AVAILABLE";
	case GEIS_EVENT_CLASS_CHANGED:      return "CLASS_CHANGED";
	case GEIS_EVENT_CLASS_UNAVAILABLE:  return "CLASS_UNAVAILABLE";
	case GEIS_EVENT_GESTURE_BEGIN:      return "GESTURE_BEGIN";
	case GEIS_EVENT_GESTURE_UPDATE:     return "GESTURE_UPDATE";
	case GEIS_EVENT_GESTURE_END:        return "GESTURE_END";
	case GEIS_EVENT_TENTATIVE_BEGIN:    return "TENTATIVE_BEGIN";
	case GEIS_EVENT_TENTATIVE_UPDATE:   return "TENTATIVE_UPDATE";
	case GEIS_EVENT_TENTATIVE_END:      return "TENTATIVE_END";
	case GEIS_EVENT_INIT_COMPLETE:      return "INIT_COMPLETE";
	case GEIS_EVENT_USER_DEFINED:       return "USER_DEFINED";
	case GEIS_EVENT_ERROR:              return "ERROR";
	}
	return "UNKNOWN";
}

int
is_gesture_event(GeisEventType t)
{
	return t == GEIS_EVENT_GESTURE_BEGIN || t == GEIS_EVENT_GESTURE_UPDATE ||
	       t == GEIS_EVENT_GESTURE_END || t == GEIS_EVENT_TENTATIVE_BEGIN ||
	       t == GEIS_EVENT_TENTATIVE_UPDATE || t == GEIS_EVENT_TENTATIVE_END;
}

/* ---- event printing ---- */

void
print_device_event(struct state *st, GeisEvent ev, FILE *out)
{
	GeisDevice d = geis_attr_value_to_pointer(
		geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_DEVICE));

	if (st->opt->json) {
		fprintf(out, "{\"event\":\"%s\",\"device\":{\"id\":%d,\"name\":",
			event_name(geis_event_type(ev)), geis_device_id(d));
		json_string(out, geis_device_name(d));
		fputc(',', out);
		json_attrs(out, d, dev_count, dev_get);
		fputs("}}\n", out);
		return;
	}
	fprintf(out, "%s device %d \"%s\"\n", event_name(geis_event_type(ev)),
		geis_device_id(d), geis_device_name(d) ? geis_device_name(d) : "");
	text_attrs(out, "  ", d, dev_count, dev_get);
}

void
print_class_event(struct state *st, GeisEvent ev, FILE *out)
{
	GeisGestureClass c = geis_attr_value_to_pointer(
		geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_CLASS));

	if (st->opt->json) {
		fprintf(out, "{\"event\":\"%s\",\"class\":{\"id\":%d,\"name\":",
			event_name(geis_event_type(ev)), geis_gesture_class_id(c));
		json_string(out, geis_gesture_class_name(c));
		fputc(',', out);
		json_attrs(out, c, cls_count, cls_get);
		fputs("}}\n", out);
		return;
	}
	fprintf(out, "%s class %d \"%s\"\n", event_name(geis_event_type(ev)),
		geis_gesture_class_id(c),
		geis_gesture_class_name(c) ? geis_gesture_class_name(c) : "");
}

/* The names of the classes a frame is in, for JSON or text. */
static void
print_frame_classes(struct state *st, GeisFrame f, FILE *out, int json)
{
	int first = 1;

	if (json)
		fputc('[', out);
	for (int i = 0; i < NUM_CLASSES; i++) {
		if (!st->classes[i] || !geis_frame_is_class(f, st->classes[i]))
			continue;
		if (!first)
			fputc(json ? ',' : '+', out);
		first = 0;
		if (json)
			json_string(out, ut_gesture_classes[i].name);
		else
			fputs(ut_gesture_classes[i].name, out);
	}
	if (json)
		fputc(']', out);
	else if (first) {
		/* the utouch extension classes are never announced: name the
		 * gesture instead */
		GeisAttr a = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME);
		const char *name = a ? geis_attr_value_to_string(a) : NULL;
		fputs(name && (strcmp(name, UTOUCH_GEIS_GESTURE_HOLD) == 0 ||
			       strcmp(name, UTOUCH_GEIS_GESTURE_EDGE_SWIPE) == 0)
			      ? name : "(none)", out);
	}
}

void
print_gesture_event(struct state *st, GeisEvent ev, FILE *out)
{
	GeisGroupSet gs = geis_attr_value_to_pointer(
		geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET));
	GeisTouchSet ts = geis_attr_value_to_pointer(
		geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_TOUCHSET));
	int json = st->opt->json;

	if (json) {
		int first = 1;

		fprintf(out, "{\"event\":\"%s\",", event_name(geis_event_type(ev)));
		json_attrs(out, ev, ev_count, ev_get);
		fputs(",\"frames\":[", out);
		for (GeisSize g = 0; g < geis_groupset_group_count(gs); g++) {
			GeisGroup group = geis_groupset_group(gs, g);

			for (GeisSize k = 0; k < geis_group_frame_count(group); k++) {
				GeisFrame f = geis_group_frame(group, k);
				GeisAttr ta = geis_frame_attr_by_name(f,
						GEIS_GESTURE_ATTRIBUTE_TOUCHES);

				if (!first)
					fputc(',', out);
				first = 0;
				fprintf(out, "{\"gesture\":%u,\"group\":%d,\"classes\":",
					geis_frame_id(f), geis_group_id(group));
				print_frame_classes(st, f, out, 1);
				fprintf(out, ",\"touches\":%d,", geis_attr_value_to_integer(ta));
				json_attrs(out, f, fr_count, fr_get);
				fputs(",\"touch_ids\":[", out);
				for (GeisSize t = 0; t < geis_frame_touchid_count(f); t++)
					fprintf(out, "%s%zu", t ? "," : "",
						(size_t)geis_frame_touchid(f, t));
				fputs("]}", out);
			}
		}
		fputs("],\"touchset\":[", out);
		for (GeisSize t = 0; t < geis_touchset_touch_count(ts); t++) {
			GeisTouch touch = geis_touchset_touch(ts, t);

			fprintf(out, "%s{\"id\":%zu,", t ? "," : "", (size_t)geis_touch_id(touch));
			json_attrs(out, touch, tc_count, tc_get);
			fputc('}', out);
		}
		fputs("]}\n", out);
		return;
	}

	for (GeisSize g = 0; g < geis_groupset_group_count(gs); g++) {
		GeisGroup group = geis_groupset_group(gs, g);

		for (GeisSize k = 0; k < geis_group_frame_count(group); k++) {
			GeisFrame f = geis_group_frame(group, k);
			GeisAttr ta = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_TOUCHES);
			GeisAttr tm = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_TIMESTAMP);

			fprintf(out, "%s gesture %u group %d class ",
				event_name(geis_event_type(ev)), geis_frame_id(f),
				geis_group_id(group));
			print_frame_classes(st, f, out, 0);
			fprintf(out, " touches %d time %d\n", geis_attr_value_to_integer(ta),
				geis_attr_value_to_integer(tm));
			text_attrs(out, "  ", ev, ev_count, ev_get);
			text_attrs(out, "  ", f, fr_count, fr_get);
			for (GeisSize t = 0; t < geis_frame_touchid_count(f); t++) {
				GeisTouch touch = geis_touchset_touch_by_id(ts,
						geis_frame_touchid(f, t));

				fprintf(out, "  touch %zu:", (size_t)geis_frame_touchid(f, t));
				for (GeisSize i = 0; i < geis_touch_attr_count(touch); i++) {
					GeisAttr a = geis_touch_attr(touch, i);

					fprintf(out, " %s=", geis_attr_name(a));
					print_value(out, a, 0);
				}
				fputc('\n', out);
			}
		}
	}
}

void
print_other_event(struct state *st, GeisEvent ev, FILE *out)
{
	if (st->opt->json) {
		fprintf(out, "{\"event\":\"%s\",", event_name(geis_event_type(ev)));
		json_attrs(out, ev, ev_count, ev_get);
		fputs("}\n", out);
		return;
	}
	fprintf(out, "%s\n", event_name(geis_event_type(ev)));
	text_attrs(out, "  ", ev, ev_count, ev_get);
}

