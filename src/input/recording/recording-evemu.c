/*
 * evemu text recordings, both the grail-era 1.0 files and the "# EVEMU 1.x"
 * files written by evemu-record 2.x.  See doc/recording-formats.md.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "input/recording/recording-private.h"

#define E_USAGE "expected 'E: <sec>.<usec> <type> <code> <value>'"
#define A_USAGE "expected 'A: <code> <min> <max> <fuzz> <flat> [<resolution>]'"
#define I_USAGE "expected 'I: <bus> <vendor> <product> <version>' in hex"
#define B_USAGE "expected 'B: <type> <byte> ...' in hex"
#define P_USAGE "expected 'P: <byte> ...' in hex"

struct line_ctx {
	struct ut_parse *p;
	unsigned long line;
	bool desc_only;
};

static const char *
skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* A field ends at a blank, the end of the line or a trailing comment. */
static bool
at_field_end(char c)
{
	return c == '\0' || c == ' ' || c == '\t' || c == '#';
}

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Read one hex field no larger than @p max.
 * Returns 0, -EINVAL (not a hex field) or -ERANGE (too large).
 */
static int
take_hex(const char **sp, uint32_t max, uint32_t *out)
{
	const char *s = skip_blanks(*sp);
	uint32_t v = 0;
	bool range = false;
	const char *start = s;
	int d;

	for (; (d = hex_digit(*s)) >= 0; s++) {
		if (v > max / 16 || v * 16 > max - (uint32_t)d)
			range = true;
		else
			v = v * 16 + (uint32_t)d;
	}
	if (s == start || !at_field_end(*s))
		return -EINVAL;
	*sp = s;
	*out = v;
	return range ? -ERANGE : 0;
}

/* Read a signed decimal 32-bit field. */
static int
take_i32(const char **sp, int32_t *out)
{
	const char *s = skip_blanks(*sp);
	bool neg = false;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';

	const char *start = s;
	int64_t v = 0;
	bool range = false;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v <= INT64_C(1) << 32)
			v = v * 10 + (*s - '0');
		else
			range = true;
	}
	if (s == start || !at_field_end(*s))
		return -EINVAL;
	if (neg)
		v = -v;
	if (range || v < INT32_MIN || v > INT32_MAX)
		return -ERANGE;
	*sp = s;
	*out = (int32_t)v;
	return 0;
}

/* Nothing but blanks and an optional comment may follow the last field. */
static bool
at_line_end(const char *s)
{
	s = skip_blanks(s);
	return *s == '\0' || *s == '#';
}

static int
bad_number(struct line_ctx *c, int rc, const char *what, const char *usage)
{
	if (rc == -ERANGE)
		return ut__rec_fail(c->p, -EINVAL, c->line, "number out of range in %s line",
				    what);
	return ut__rec_fail(c->p, -EINVAL, c->line, "malformed %s line (%s)", what, usage);
}

static int
parse_name(struct line_ctx *c, const char *s)
{
	struct ut_devdesc *desc = c->p->desc;
	if (desc->have_name)
		return ut__rec_fail(c->p, -EINVAL, c->line, "duplicate N: line");

	s = skip_blanks(s);
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n > UT_REC_MAX_NAME)
		return ut__rec_fail(c->p, -EINVAL, c->line, "device name longer than %u bytes",
				    UT_REC_MAX_NAME);
	desc->name = strndup(s, n);
	if (!desc->name)
		return ut__rec_fail(c->p, -ENOMEM, c->line, "out of memory");
	desc->have_name = true;
	return 0;
}

static int
parse_id(struct line_ctx *c, const char *s)
{
	struct ut_devdesc *desc = c->p->desc;
	if (desc->have_id)
		return ut__rec_fail(c->p, -EINVAL, c->line, "duplicate I: line");

	for (int i = 0; i < 4; i++) {
		uint32_t v;
		int rc = take_hex(&s, 0xffff, &v);
		if (rc < 0)
			return bad_number(c, rc, "I:", I_USAGE);
		desc->id[i] = (uint16_t)v;
	}
	if (!at_line_end(s))
		return bad_number(c, -EINVAL, "I:", I_USAGE);
	desc->have_id = true;
	return 0;
}

/*
 * Append the hex bytes of a P: or B: line to a bitmask that may continue
 * over several lines.  Set bits above @p max are an error; zero padding
 * past the mask is accepted because evemu pads to whole lines.
 */
static int
append_mask_bytes(struct line_ctx *c, const char *s, uint8_t *mask, size_t mask_bytes,
		  size_t *nbytes, int max, const char *what, const char *usage)
{
	int count = 0;
	while (!at_line_end(s)) {
		uint32_t byte;
		int rc = take_hex(&s, 0xff, &byte);
		if (rc < 0)
			return bad_number(c, rc, what, usage);
		for (unsigned int b = 0; b < 8; b++) {
			if (!(byte & (1u << b)))
				continue;
			size_t bit = *nbytes * 8 + b;
			if (max < 0 || bit > (size_t)max)
				return ut__rec_fail(c->p, -EINVAL, c->line,
						    "%s line sets bit %zu, above the maximum %d",
						    what, bit, max);
		}
		if (*nbytes < mask_bytes)
			mask[*nbytes] |= (uint8_t)byte;
		(*nbytes)++;
		count++;
	}
	if (count == 0)
		return bad_number(c, -EINVAL, what, usage);
	return 0;
}

static int
parse_props(struct line_ctx *c, const char *s)
{
	struct ut_devdesc *desc = c->p->desc;
	return append_mask_bytes(c, s, desc->props, sizeof(desc->props), &desc->nprop_bytes,
				 INPUT_PROP_MAX, "P:", P_USAGE);
}

static int
parse_bits(struct line_ctx *c, const char *s)
{
	struct ut_devdesc *desc = c->p->desc;
	uint32_t type;
	int rc = take_hex(&s, 0xffff, &type);
	if (rc < 0)
		return bad_number(c, rc, "B:", B_USAGE);
	if (type > EV_MAX)
		return ut__rec_fail(c->p, -EINVAL, c->line,
				    "B: event type 0x%x out of range (max 0x%x)", type, EV_MAX);

	/* B: 00 is the mask of event types, the others masks of codes. */
	int max = type == EV_SYN ? EV_MAX : ut__rec_type_max(type);
	size_t before = desc->nbytes[type];
	rc = append_mask_bytes(c, s, desc->bits[type], sizeof(desc->bits[type]),
			       &desc->nbytes[type], max, "B:", B_USAGE);
	if (rc < 0)
		return rc;

	if (type == EV_ABS) {
		for (unsigned int code = 0; code <= ABS_MAX; code++)
			if (!desc->abs_bit_line[code] &&
			    ut__rec_test_bit(desc->bits[EV_ABS], code))
				desc->abs_bit_line[code] = c->line;
	}
	if (type != EV_SYN) {
		for (size_t i = before; i < desc->nbytes[type] && i < UT_REC_MASK_BYTES; i++) {
			if (desc->bits[type][i]) {
				ut__rec_set_bit(desc->bits[EV_SYN], type);
				break;
			}
		}
	}
	return 0;
}

static int
parse_absinfo(struct line_ctx *c, const char *s)
{
	struct ut_devdesc *desc = c->p->desc;
	uint32_t code;
	int rc = take_hex(&s, 0xffff, &code);
	if (rc < 0)
		return bad_number(c, rc, "A:", A_USAGE);
	if (code > ABS_MAX)
		return ut__rec_fail(c->p, -EINVAL, c->line,
				    "A: axis code 0x%x out of range (max 0x%x)", code, ABS_MAX);
	if (desc->have_absinfo[code])
		return ut__rec_fail(c->p, -EINVAL, c->line, "duplicate A: line for axis 0x%x",
				    code);

	int32_t v[5] = { 0 };
	int n = 0;
	while (!at_line_end(s)) {
		if (n == 5)
			return bad_number(c, -EINVAL, "A:", A_USAGE);
		rc = take_i32(&s, &v[n]);
		if (rc < 0)
			return bad_number(c, rc, "A:", A_USAGE);
		n++;
	}
	if (n < 4)
		return bad_number(c, -EINVAL, "A:", A_USAGE);

	if (code == ABS_MT_SLOT && (v[0] != 0 || v[1] < 0 || v[1] > UT_REC_MAX_SLOT))
		return ut__rec_fail(c->p, -EINVAL, c->line,
				    "ABS_MT_SLOT range %d..%d not supported (need 0..0-%d)",
				    v[0], v[1], UT_REC_MAX_SLOT);

	desc->absinfo[code] = (struct input_absinfo){
		.minimum = v[0],
		.maximum = v[1],
		.fuzz = v[2],
		.flat = v[3],
		.resolution = v[4], /* evemu 1.0 has no resolution: 0 */
	};
	desc->have_absinfo[code] = true;
	desc->absinfo_line[code] = c->line;
	ut__rec_set_bit(desc->bits[EV_ABS], code);
	ut__rec_set_bit(desc->bits[EV_SYN], EV_ABS);
	return 0;
}

static int
parse_event(struct line_ctx *c, const char *s)
{
	if (c->desc_only)
		return ut__rec_fail(c->p, -EINVAL, c->line,
				    "E: line in a device description file");

	s = skip_blanks(s);
	uint64_t sec = 0, usec = 0;
	const char *start = s;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (sec >= UT_REC_MAX_SEC)
			return ut__rec_fail(c->p, -EINVAL, c->line, "event time out of range");
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (s == start || *s != '.')
		return bad_number(c, -EINVAL, "E:", E_USAGE);
	start = ++s;
	for (; *s >= '0' && *s <= '9' && s - start < 6; s++)
		usec = usec * 10 + (uint64_t)(*s - '0');
	if (s == start || !at_field_end(*s))
		return bad_number(c, -EINVAL, "E:", E_USAGE);

	uint32_t type, code;
	int32_t value;
	int rc = take_hex(&s, 0xffff, &type);
	if (rc == 0)
		rc = take_hex(&s, 0xffff, &code);
	if (rc == 0)
		rc = take_i32(&s, &value);
	if (rc == 0 && !at_line_end(s))
		rc = -EINVAL;
	if (rc < 0)
		return bad_number(c, rc, "E:", E_USAGE);

	return ut__rec_push_event(c->p, &c->p->events, c->line, sec, usec, type, code, value);
}

/* "# EVEMU 1.x" on the first line; anything but 1.x is refused. */
static int
check_header(struct line_ctx *c, const char *s)
{
	static const char header[] = "# EVEMU";
	if (strncmp(s, header, sizeof(header) - 1) != 0)
		return 0;

	const char *v = skip_blanks(s + sizeof(header) - 1);
	const char *digits = v + 2;
	if (v[0] == '1' && v[1] == '.' && *digits >= '0' && *digits <= '9') {
		while (*digits >= '0' && *digits <= '9')
			digits++;
		if (at_line_end(digits)) {
			c->p->format = UT_RECORDING_EVEMU_2;
			return 0;
		}
	}
	return ut__rec_fail(c->p, -EINVAL, c->line,
			    "unsupported evemu file version (expected '# EVEMU 1.x')");
}

static int
parse_line(struct line_ctx *c, const char *line)
{
	if (c->line == 1) {
		int rc = check_header(c, line);
		if (rc < 0)
			return rc;
	}

	const char *s = skip_blanks(line);
	if (*s == '\0' || *s == '#')
		return 0;

	if (s[0] == '\0' || s[1] != ':' || !(s[2] == '\0' || s[2] == ' ' || s[2] == '\t'))
		return ut__rec_fail(c->p, -EINVAL, c->line,
				    "unrecognised line (expected N:, I:, P:, B:, A:, L:, S:, E: "
				    "or a # comment)");

	const char *rest = s + 2;
	if (s[0] != 'E' && s[0] != 'L' && s[0] != 'S')
		c->p->desc->present = true;

	switch (s[0]) {
	case 'N':
		return parse_name(c, rest);
	case 'I':
		return parse_id(c, rest);
	case 'P':
		return parse_props(c, rest);
	case 'B':
		return parse_bits(c, rest);
	case 'A':
		return parse_absinfo(c, rest);
	case 'L': /* LED state (evemu 2.x): not needed to replay touches */
	case 'S': /* switch state (evemu 2.x) */
		return 0;
	case 'E':
		return parse_event(c, rest);
	default:
		return ut__rec_fail(c->p, -EINVAL, c->line, "unknown line type '%c:'", s[0]);
	}
}

int
ut__rec_parse_evemu(struct ut_parse *p, bool desc_only)
{
	char line[UT_RECORDING_MAX_LINE + 1];
	struct line_ctx c = { .p = p, .desc_only = desc_only };
	size_t n;
	int rc;

	p->format = UT_RECORDING_EVEMU_1;
	while ((rc = ut__rec_src_line(p, line, &n, &c.line)) > 0) {
		rc = parse_line(&c, line);
		if (rc < 0)
			return rc;
	}
	return rc;
}

int
ut__rec_next_evemu(struct ut_parse *p)
{
	char line[UT_RECORDING_MAX_LINE + 1];
	struct line_ctx c = { .p = p };
	size_t n;
	int rc;

	/* the first pass checked every line: only events matter now */
	while ((rc = ut__rec_src_line(p, line, &n, &c.line)) > 0) {
		const char *s = skip_blanks(line);
		if (s[0] != 'E' || s[1] != ':')
			continue;
		size_t before = p->events.n;
		rc = parse_event(&c, s + 2);
		if (rc < 0)
			return rc;
		if (p->events.n != before)
			return 1;
	}
	return rc;
}
