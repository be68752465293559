/*
 * libinput record YAML, read with libyaml's event parser so that memory
 * stays proportional to the events kept, not to the size of the document.
 * See doc/recording-formats.md for the keys we read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "input/recording/recording-private.h"

struct yctx {
	struct ut_parse *p;
	yaml_parser_t parser;
	yaml_event_t ev;
	bool have_ev;
	int depth;
};

/* One device entry of the devices list while it is being read. */
struct ydevice {
	struct ut_devdesc *desc;
	struct ut_event_vec events;
};

static unsigned long
yline(const struct yctx *y)
{
	return (unsigned long)y->ev.start_mark.line + 1;
}

static int
syntax_error(struct yctx *y)
{
	yaml_parser_t *parser = &y->parser;
	const char *problem = parser->problem ? parser->problem : "unknown error";

	switch (parser->error) {
	case YAML_MEMORY_ERROR:
		return ut__rec_fail(y->p, -ENOMEM, 0, "out of memory");
	case YAML_READER_ERROR:
		return ut__rec_fail(y->p, -EINVAL,
				    ut__rec_line_of(y->p, (uint64_t)parser->problem_offset),
				    "YAML error: %s", problem);
	default:
		break;
	}
	if (parser->context)
		return ut__rec_fail(y->p, -EINVAL, (unsigned long)parser->problem_mark.line + 1,
				    "YAML syntax error at column %lu: %s %s",
				    (unsigned long)parser->problem_mark.column + 1, problem,
				    parser->context);
	return ut__rec_fail(y->p, -EINVAL, (unsigned long)parser->problem_mark.line + 1,
			    "YAML syntax error at column %lu: %s",
			    (unsigned long)parser->problem_mark.column + 1, problem);
}

/* Move to the next parser event, tracking depth and refusing aliases. */
static int
ynext(struct yctx *y)
{
	if (y->have_ev) {
		yaml_event_delete(&y->ev);
		y->have_ev = false;
	}
	if (!yaml_parser_parse(&y->parser, &y->ev))
		return syntax_error(y);
	y->have_ev = true;

	switch (y->ev.type) {
	case YAML_ALIAS_EVENT:
		return ut__rec_fail(y->p, -EINVAL, yline(y), "YAML aliases are not supported");
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		if (++y->depth > UT_REC_MAX_YAML_DEPTH)
			return ut__rec_fail(y->p, -EINVAL, yline(y),
					    "YAML nested deeper than %d levels",
					    UT_REC_MAX_YAML_DEPTH);
		break;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		y->depth--;
		break;
	default:
		break;
	}
	return 0;
}

/* Skip the node that starts at the current event. */
static int
yskip(struct yctx *y)
{
	if (y->ev.type != YAML_SEQUENCE_START_EVENT && y->ev.type != YAML_MAPPING_START_EVENT)
		return 0;
	int target = y->depth - 1;
	while (y->depth > target) {
		int rc = ynext(y);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static const char *
node_kind(yaml_event_type_t type)
{
	switch (type) {
	case YAML_SCALAR_EVENT:
		return "a scalar";
	case YAML_SEQUENCE_START_EVENT:
		return "a list";
	case YAML_MAPPING_START_EVENT:
		return "a mapping";
	default:
		return "end of a block";
	}
}

static int
yexpect(struct yctx *y, yaml_event_type_t type, const char *what)
{
	if (y->ev.type == type)
		return 0;
	return ut__rec_fail(y->p, -EINVAL, yline(y), "expected %s for %s, found %s",
			    node_kind(type), what, node_kind(y->ev.type));
}

/*
 * The iterator over the list or mapping the parser is in: steps to its
 * next entry and returns 1 there, 0 at the @p end event that closes it, a
 * negative errno on error.  With @p what, an entry must be a scalar (a
 * key; @p what names it in the error).
 */
static int
yentry(struct yctx *y, yaml_event_type_t end, const char *what)
{
	int rc = ynext(y);

	if (rc < 0)
		return rc;
	if (y->ev.type == end)
		return 0;
	if (what && (rc = yexpect(y, YAML_SCALAR_EVENT, what)) < 0)
		return rc;
	return 1;
}

/* the next item of a list: 1, or 0 at its end */
static int
yitem(struct yctx *y)
{
	return yentry(y, YAML_SEQUENCE_END_EVENT, NULL);
}

/* the next key of a mapping (a scalar, named @p what): 1, or 0 at its end */
static int
ykey(struct yctx *y, const char *what)
{
	return yentry(y, YAML_MAPPING_END_EVENT, what);
}

static bool
key_is(const struct yctx *y, const char *key)
{
	return y->ev.data.scalar.length == strlen(key) &&
	       memcmp(y->ev.data.scalar.value, key, y->ev.data.scalar.length) == 0;
}

/* Read the current scalar as a decimal integer in [min, max]. */
static int
yint(struct yctx *y, int64_t min, int64_t max, const char *what, int64_t *out)
{
	int rc = yexpect(y, YAML_SCALAR_EVENT, what);
	if (rc < 0)
		return rc;

	const char *s = (const char *)y->ev.data.scalar.value;
	size_t len = y->ev.data.scalar.length;
	size_t i = 0;
	bool neg = false;
	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';

	int64_t v = 0;
	bool range = false;
	size_t digits = 0;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
		if (v < INT64_C(1) << 56)
			v = v * 10 + (s[i] - '0');
		else
			range = true;
	}
	if (digits == 0 || i != len)
		return ut__rec_fail(y->p, -EINVAL, yline(y), "expected an integer for %s, found '%.*s'",
				    what, len > 32 ? 32 : (int)len, s);
	if (neg)
		v = -v;
	if (range || v < min || v > max)
		return ut__rec_fail(y->p, -EINVAL, yline(y),
				    "%s out of range (%lld..%lld): '%.*s'", what, (long long)min,
				    (long long)max, len > 32 ? 32 : (int)len, s);
	*out = v;
	return 0;
}

/* Read a list of at most @p nvals integers into @p vals. */
static int
yint_list(struct yctx *y, int64_t min, int64_t max, const char *what, int64_t *vals,
	  size_t nvals, size_t *count)
{
	int rc = yexpect(y, YAML_SEQUENCE_START_EVENT, what);
	if (rc < 0)
		return rc;

	size_t n = 0;
	while ((rc = yitem(y)) > 0) {
		if (n == nvals)
			return ut__rec_fail(y->p, -EINVAL, yline(y),
					    "too many numbers in %s (expected %zu)", what, nvals);
		if ((rc = yint(y, min, max, what, &vals[n])) < 0)
			return rc;
		n++;
	}
	*count = n;
	return rc;
}

static int
parse_id(struct yctx *y, struct ut_devdesc *desc)
{
	int64_t v[4];
	size_t n = 0;
	unsigned long line = yline(y);
	int rc = yint_list(y, 0, 0xffff, "evdev id", v, 4, &n);
	if (rc < 0)
		return rc;
	if (n != 4)
		return ut__rec_fail(y->p, -EINVAL, line,
				    "evdev id needs 4 numbers [bus, vendor, product, version]");
	for (int i = 0; i < 4; i++)
		desc->id[i] = (uint16_t)v[i];
	desc->have_id = true;
	return 0;
}

static int
parse_codes(struct yctx *y, struct ut_devdesc *desc)
{
	int rc = yexpect(y, YAML_MAPPING_START_EVENT, "evdev codes");
	if (rc < 0)
		return rc;

	while ((rc = yentry(y, YAML_MAPPING_END_EVENT, NULL)) > 0) {
		int64_t type;
		if ((rc = yint(y, 0, EV_MAX, "event type", &type)) < 0)
			return rc;
		int max = ut__rec_type_max((unsigned int)type);
		ut__rec_set_bit(desc->bits[EV_SYN], (unsigned int)type);

		if ((rc = ynext(y)) < 0)
			return rc;
		if ((rc = yexpect(y, YAML_SEQUENCE_START_EVENT, "a list of event codes")) < 0)
			return rc;
		while ((rc = yitem(y)) > 0) {
			int64_t code;
			if (max < 0)
				return ut__rec_fail(y->p, -EINVAL, yline(y),
						    "event type %lld has no event codes",
						    (long long)type);
			if ((rc = yint(y, 0, max, "event code", &code)) < 0)
				return rc;
			if (type != EV_SYN)
				ut__rec_set_bit(desc->bits[type], (unsigned int)code);
			if (type == EV_ABS && !desc->abs_bit_line[code])
				desc->abs_bit_line[code] = yline(y);
		}
		if (rc < 0)
			return rc;
	}
	return rc;
}

static int
set_absinfo(struct yctx *y, struct ut_devdesc *desc, unsigned long line, int64_t code,
	    const int64_t *v, size_t n)
{
	if (n != 5)
		return ut__rec_fail(y->p, -EINVAL, line,
				    "absinfo needs 5 numbers [min, max, fuzz, flat, resolution]");
	if (code == ABS_MT_SLOT && (v[0] != 0 || v[1] < 0 || v[1] > UT_REC_MAX_SLOT))
		return ut__rec_fail(y->p, -EINVAL, line,
				    "ABS_MT_SLOT range %lld..%lld not supported (need 0..0-%d)",
				    (long long)v[0], (long long)v[1], UT_REC_MAX_SLOT);
	desc->absinfo[code] = (struct input_absinfo){
		.minimum = (int32_t)v[0],
		.maximum = (int32_t)v[1],
		.fuzz = (int32_t)v[2],
		.flat = (int32_t)v[3],
		.resolution = (int32_t)v[4],
	};
	desc->have_absinfo[code] = true;
	desc->absinfo_line[code] = line;
	ut__rec_set_bit(desc->bits[EV_ABS], (unsigned int)code);
	ut__rec_set_bit(desc->bits[EV_SYN], EV_ABS);
	return 0;
}

/* absinfo: {code: [min, max, fuzz, flat, res]} or the older [[code, min, ...]]. */
static int
parse_absinfo(struct yctx *y, struct ut_devdesc *desc)
{
	bool mapping = y->ev.type == YAML_MAPPING_START_EVENT;
	if (!mapping && y->ev.type != YAML_SEQUENCE_START_EVENT)
		return yexpect(y, YAML_MAPPING_START_EVENT, "evdev absinfo");

	int rc;
	while ((rc = yentry(y, mapping ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT,
			    NULL)) > 0) {
		int64_t v[6];
		size_t n = 0;
		unsigned long line = yline(y);
		if (mapping) {
			int64_t code;
			if ((rc = yint(y, 0, ABS_MAX, "absinfo axis code", &code)) < 0)
				return rc;
			if ((rc = ynext(y)) < 0)
				return rc;
			line = yline(y);
			if ((rc = yint_list(y, INT32_MIN, INT32_MAX, "absinfo", v, 5, &n)) < 0)
				return rc;
			rc = set_absinfo(y, desc, line, code, v, n);
		} else {
			if ((rc = yint_list(y, INT32_MIN, INT32_MAX, "absinfo", v, 6, &n)) < 0)
				return rc;
			if (n != 6)
				return ut__rec_fail(y->p, -EINVAL, line,
						    "absinfo needs 6 numbers [code, min, max, "
						    "fuzz, flat, resolution]");
			if (v[0] < 0 || v[0] > ABS_MAX)
				return ut__rec_fail(y->p, -EINVAL, line,
						    "absinfo axis code %lld out of range (0..%d)",
						    (long long)v[0], ABS_MAX);
			rc = set_absinfo(y, desc, line, v[0], v + 1, 5);
		}
		if (rc < 0)
			return rc;
	}
	return rc;
}

static int
parse_properties(struct yctx *y, struct ut_devdesc *desc)
{
	int rc = yexpect(y, YAML_SEQUENCE_START_EVENT, "evdev properties");
	if (rc < 0)
		return rc;
	while ((rc = yitem(y)) > 0) {
		int64_t prop;
		if ((rc = yint(y, 0, INPUT_PROP_MAX, "input property", &prop)) < 0)
			return rc;
		ut__rec_set_bit(desc->props, (unsigned int)prop);
	}
	return rc;
}

static int
parse_name(struct yctx *y, struct ut_devdesc *desc)
{
	int rc = yexpect(y, YAML_SCALAR_EVENT, "evdev name");
	if (rc < 0)
		return rc;
	if (y->ev.data.scalar.length > UT_REC_MAX_NAME)
		return ut__rec_fail(y->p, -EINVAL, yline(y), "device name longer than %u bytes",
				    UT_REC_MAX_NAME);
	free(desc->name);
	desc->name = strndup((const char *)y->ev.data.scalar.value, y->ev.data.scalar.length);
	if (!desc->name)
		return ut__rec_fail(y->p, -ENOMEM, yline(y), "out of memory");
	desc->have_name = true;
	return 0;
}

static int
parse_evdev(struct yctx *y, struct ut_devdesc *desc)
{
	int rc = yexpect(y, YAML_MAPPING_START_EVENT, "evdev");
	if (rc < 0)
		return rc;
	desc->present = true;

	while ((rc = ykey(y, "a key in evdev")) > 0) {
		int (*fn)(struct yctx *, struct ut_devdesc *) = NULL;
		if (key_is(y, "name"))
			fn = parse_name;
		else if (key_is(y, "id"))
			fn = parse_id;
		else if (key_is(y, "codes"))
			fn = parse_codes;
		else if (key_is(y, "absinfo"))
			fn = parse_absinfo;
		else if (key_is(y, "properties"))
			fn = parse_properties;

		if ((rc = ynext(y)) < 0)
			return rc;
		rc = fn ? fn(y, desc) : yskip(y);
		if (rc < 0)
			return rc;
	}
	return rc;
}

/* One event [sec, usec, type, code, value] at the current list start. */
static int
parse_event(struct yctx *y, struct ut_event_vec *vec)
{
	int64_t v[5];
	size_t n = 0;
	unsigned long line = yline(y);
	int rc = yint_list(y, INT32_MIN, INT64_C(1) << 50, "an event", v, 5, &n);
	if (rc < 0)
		return rc;
	if (n != 5)
		return ut__rec_fail(y->p, -EINVAL, line,
				    "an event needs 5 numbers [sec, usec, type, code, value]");
	if (v[0] < 0 || v[1] < 0 || v[2] < 0 || v[3] < 0)
		return ut__rec_fail(y->p, -EINVAL, line, "negative number in an event");
	if (v[2] > 0xffff || v[3] > 0xffff || v[4] > INT32_MAX)
		return ut__rec_fail(y->p, -EINVAL, line, "number out of range in an event");
	rc = ut__rec_push_event(y->p, vec, line, (uint64_t)v[0], (uint64_t)v[1],
				(unsigned int)v[2], (unsigned int)v[3], (int32_t)v[4]);
	return rc < 0 ? rc : 1;
}

/* One "evdev:" list of events. */
static int
parse_evdev_frame(struct yctx *y, struct ut_event_vec *vec)
{
	int rc = yexpect(y, YAML_SEQUENCE_START_EVENT, "evdev events");
	if (rc < 0)
		return rc;
	while ((rc = yitem(y)) > 0)
		if ((rc = parse_event(y, vec)) < 0)
			return rc;
	return rc;
}

static int
parse_events(struct yctx *y, struct ut_event_vec *vec)
{
	int rc = yexpect(y, YAML_SEQUENCE_START_EVENT, "events");
	if (rc < 0)
		return rc;
	while ((rc = yitem(y)) > 0) {
		if ((rc = yexpect(y, YAML_MAPPING_START_EVENT, "an item of events")) < 0)
			return rc;
		while ((rc = ykey(y, "a key in events")) > 0) {
			bool evdev = key_is(y, "evdev");
			if ((rc = ynext(y)) < 0)
				return rc;
			/* "libinput:" and "hid:" items are not needed. */
			rc = evdev ? parse_evdev_frame(y, vec) : yskip(y);
			if (rc < 0)
				return rc;
		}
		if (rc < 0)
			return rc;
	}
	return rc;
}

static int
parse_device(struct yctx *y, struct ydevice *dev)
{
	int rc = yexpect(y, YAML_MAPPING_START_EVENT, "a device");
	if (rc < 0)
		return rc;
	while ((rc = ykey(y, "a key in a device")) > 0) {
		bool evdev = key_is(y, "evdev");
		bool events = key_is(y, "events");
		if ((rc = ynext(y)) < 0)
			return rc;
		if (evdev)
			rc = parse_evdev(y, dev->desc);
		else if (events)
			rc = parse_events(y, &dev->events);
		else
			rc = yskip(y);
		if (rc < 0)
			return rc;
	}
	return rc;
}

static void
ydevice_release(struct ydevice *dev)
{
	ut__devdesc_free(dev->desc);
	ut__rec_event_vec_release(&dev->events);
	*dev = (struct ydevice){ 0 };
}

/*
 * The recording's device is the first touch device (ABS_MT_POSITION_X) with
 * events, else the first device with events.  Once a touch device is found
 * the remaining devices are only checked for YAML syntax.
 */
static int
parse_devices(struct yctx *y, int *ndevices)
{
	struct ut_parse *p = y->p;
	int rc = yexpect(y, YAML_SEQUENCE_START_EVENT, "devices");
	if (rc < 0)
		return rc;

	struct ydevice best = { 0 };
	bool best_is_touch = false;
	long index = -1, best_index = -1;
	while ((rc = yitem(y)) > 0) {
		(*ndevices)++;
		index++;
		if (best_is_touch) {
			if ((rc = yskip(y)) < 0)
				break;
			continue;
		}

		struct ydevice dev = { .desc = ut__devdesc_new() };
		if (!dev.desc) {
			rc = ut__rec_fail(p, -ENOMEM, 0, "out of memory");
			break;
		}
		rc = parse_device(y, &dev);
		if (rc < 0) {
			ydevice_release(&dev);
			break;
		}
		bool touch = ut__devdesc_is_touch(dev.desc);
		if (dev.events.n > 0 && (touch || !best.desc)) {
			ydevice_release(&best);
			best = dev;
			best_is_touch = touch;
			best_index = index;
		} else {
			ydevice_release(&dev);
		}
	}

	if (rc == 0 && best.desc) {
		ut__devdesc_free(p->desc);
		p->desc = best.desc;
		p->events = best.events;
		p->yaml_device = best_index;
	} else {
		ydevice_release(&best);
	}
	return rc;
}

static int
parse_document(struct yctx *y)
{
	int rc;
	if ((rc = ynext(y)) < 0)
		return rc;
	if ((rc = yexpect(y, YAML_STREAM_START_EVENT, "the stream")) < 0)
		return rc;
	if ((rc = ynext(y)) < 0)
		return rc;
	if (y->ev.type == YAML_STREAM_END_EVENT)
		return 0; /* empty: reported as "no events" */
	if ((rc = ynext(y)) < 0)
		return rc;
	if (y->ev.type != YAML_MAPPING_START_EVENT)
		return ut__rec_fail(y->p, -EINVAL, yline(y),
				    "expected a mapping at the top level, found %s",
				    node_kind(y->ev.type));

	bool have_devices = false;
	int ndevices = 0;
	while ((rc = ykey(y, "a top-level key")) > 0) {
		bool version = key_is(y, "version");
		bool count = key_is(y, "ndevices");
		bool devices = key_is(y, "devices");
		if (version || count || devices)
			y->p->record_keys = true;
		if ((rc = ynext(y)) < 0)
			return rc;

		int64_t v;
		if (version) {
			if ((rc = yint(y, 0, INT32_MAX, "version", &v)) < 0)
				return rc;
			if (v != 1)
				return ut__rec_fail(y->p, -EINVAL, yline(y),
						    "unsupported libinput record version %lld "
						    "(expected 1)",
						    (long long)v);
		} else if (count) {
			rc = yint(y, 0, INT32_MAX, "ndevices", &v);
		} else if (devices) {
			if (have_devices)
				return ut__rec_fail(y->p, -EINVAL, yline(y), "duplicate devices key");
			have_devices = true;
			rc = parse_devices(y, &ndevices);
		} else {
			rc = yskip(y);
		}
		if (rc < 0)
			return rc;
	}
	if (rc < 0)
		return rc;

	if ((rc = ynext(y)) < 0) /* document end */
		return rc;
	if ((rc = ynext(y)) < 0)
		return rc;
	if (y->ev.type != YAML_STREAM_END_EVENT)
		return ut__rec_fail(y->p, -EINVAL, yline(y),
				    "more than one YAML document in the file");

	if (!have_devices)
		return ut__rec_fail(y->p, -EINVAL, 0, "no 'devices' list");
	if (ndevices == 0)
		return ut__rec_fail(y->p, -EINVAL, 0, "the 'devices' list is empty");
	return 0;
}

/* libyaml reads the input through the source, chunk by chunk. */
static int
read_handler(void *data, unsigned char *buffer, size_t size, size_t *size_read)
{
	struct ut_parse *p = data;
	ssize_t n = ut__rec_src_read(p, buffer, size);
	if (n < 0)
		return 0;
	*size_read = (size_t)n;
	return 1;
}

static int
yctx_init(struct yctx *y, struct ut_parse *p)
{
	*y = (struct yctx){ .p = p };
	if (!yaml_parser_initialize(&y->parser))
		return ut__rec_fail(p, -ENOMEM, 0, "out of memory");
	yaml_parser_set_input(&y->parser, read_handler, p);
	return 0;
}

static void
yctx_fini(struct yctx *y)
{
	if (y->have_ev)
		yaml_event_delete(&y->ev);
	yaml_parser_delete(&y->parser);
}

int
ut__rec_parse_yaml(struct ut_parse *p)
{
	struct yctx y;
	int rc = yctx_init(&y, p);
	if (rc < 0)
		return rc;
	p->format = UT_RECORDING_LIBINPUT_RECORD;
	rc = parse_document(&y);
	yctx_fini(&y);
	return rc;
}

/*
 * The second pass: a walk to the "events" of the device the first pass
 * chose, then one event at a time.  Everything was checked by the first
 * pass; the same checks run again only to catch a file changed since.
 */
struct ut_rec_yaml_stream {
	struct yctx y;
	enum {
		YS_DEVICE,   /* among the keys of the device */
		YS_EVENTS,   /* among the items of its events list */
		YS_ITEM,     /* among the keys of one item */
		YS_FRAME,    /* among the events of one evdev list */
		YS_DONE,
	} state;
};

/* Walk from the start of the document to the mapping of the device. */
static int
ys_find_device(struct yctx *y, long device)
{
	int rc;
	if ((rc = ynext(y)) < 0 || (rc = ynext(y)) < 0 || (rc = ynext(y)) < 0)
		return rc; /* stream, document, top-level mapping */
	for (;;) {
		if ((rc = ynext(y)) < 0)
			return rc;
		if (y->ev.type != YAML_SCALAR_EVENT)
			break;
		bool devices = key_is(y, "devices");
		if ((rc = ynext(y)) < 0)
			return rc;
		if (!devices) {
			if ((rc = yskip(y)) < 0)
				return rc;
			continue;
		}
		for (long i = 0;; i++) {
			if ((rc = ynext(y)) < 0)
				return rc;
			if (y->ev.type != YAML_MAPPING_START_EVENT)
				break;
			if (i == device)
				return 0;
			if ((rc = yskip(y)) < 0)
				return rc;
		}
		break;
	}
	return ut__rec_fail(y->p, -EIO, 0, "the file changed while it was read");
}

int
ut__rec_yaml_stream_new(struct ut_parse *p, struct ut_rec_yaml_stream **out)
{
	struct ut_rec_yaml_stream *ys = calloc(1, sizeof(*ys));
	if (!ys)
		return ut__rec_fail(p, -ENOMEM, 0, "out of memory");
	int rc = yctx_init(&ys->y, p);
	if (rc < 0) {
		free(ys);
		return rc;
	}
	rc = ys_find_device(&ys->y, p->yaml_device);
	if (rc < 0) {
		ut__rec_yaml_stream_free(ys);
		return rc;
	}
	ys->state = YS_DEVICE;
	*out = ys;
	return 0;
}

/*
 * At a key of a mapping: when it is @p key, step into its value, which must
 * be a sequence, and return 1; any other key has its value skipped (0).
 * @p what_key and @p what_list name the expected nodes in error messages.
 */
static int
ys_enter_list(struct yctx *y, const char *key, const char *what_key, const char *what_list)
{
	int rc;
	bool wanted;

	if ((rc = yexpect(y, YAML_SCALAR_EVENT, what_key)) < 0)
		return rc;
	wanted = key_is(y, key);
	if ((rc = ynext(y)) < 0)
		return rc;
	if (!wanted)
		return (rc = yskip(y)) < 0 ? rc : 0;
	if ((rc = yexpect(y, YAML_SEQUENCE_START_EVENT, what_list)) < 0)
		return rc;
	return 1;
}

int
ut__rec_yaml_stream_next(struct ut_rec_yaml_stream *ys)
{
	struct yctx *y = &ys->y;
	int rc;

	for (;;) {
		if (ys->state == YS_DONE)
			return 0;
		if ((rc = ynext(y)) < 0)
			return rc;
		switch (ys->state) {
		case YS_DEVICE:
			if (y->ev.type == YAML_MAPPING_END_EVENT) {
				ys->state = YS_DONE;
				break;
			}
			rc = ys_enter_list(y, "events", "a key in a device", "events");
			if (rc < 0)
				return rc;
			if (rc)
				ys->state = YS_EVENTS;
			break;
		case YS_EVENTS:
			if (y->ev.type == YAML_SEQUENCE_END_EVENT) {
				ys->state = YS_DEVICE;
				break;
			}
			if ((rc = yexpect(y, YAML_MAPPING_START_EVENT, "an item of events")) < 0)
				return rc;
			ys->state = YS_ITEM;
			break;
		case YS_ITEM:
			if (y->ev.type == YAML_MAPPING_END_EVENT) {
				ys->state = YS_EVENTS;
				break;
			}
			rc = ys_enter_list(y, "evdev", "a key in events", "evdev events");
			if (rc < 0)
				return rc;
			if (rc)
				ys->state = YS_FRAME;
			break;
		case YS_FRAME:
			if (y->ev.type == YAML_SEQUENCE_END_EVENT) {
				ys->state = YS_ITEM;
				break;
			}
			return parse_event(y, &y->p->events);
		case YS_DONE:
			return 0;
		}
	}
}

void
ut__rec_yaml_stream_free(struct ut_rec_yaml_stream *ys)
{
	if (!ys)
		return;
	yctx_fini(&ys->y);
	free(ys);
}
