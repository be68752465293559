/*
 * Internal interface shared by the recording parsers (recording.c,
 * recording-evemu.c, recording-yaml.c).  Not installed.
 */
#ifndef UTOUCH_RECORDING_PRIVATE_H
#define UTOUCH_RECORDING_PRIVATE_H

#include <linux/input.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/recording/recording.h"
#include "util/log.h"

/* Largest seconds field accepted in an event time stamp (about 139000 years). */
#define UT_REC_MAX_SEC (UINT64_C(1) << 42)

/* Longest device name accepted, in bytes. */
#define UT_REC_MAX_NAME 1024u

/* Deepest YAML nesting accepted (libinput record needs 5 levels). */
#define UT_REC_MAX_YAML_DEPTH 32

/* Highest ABS_MT_SLOT maximum accepted; libevdev allocates per slot. */
#define UT_REC_MAX_SLOT 255

/* Bytes of one code bitmask; EV_KEY is the largest type. */
#define UT_REC_MASK_BYTES ((KEY_MAX + 1 + 7) / 8)

/*
 * A device description as read from a file, before it is turned into a
 * libevdev context.  bits[0] is the mask of event types, bits[t] (t > 0)
 * the mask of codes of type t.
 */
struct ut_devdesc {
	bool present;               /* any description line or key was seen */
	char *name;
	bool have_name;
	bool have_id;
	uint16_t id[4];             /* bustype, vendor, product, version */
	uint8_t props[(INPUT_PROP_MAX + 1 + 7) / 8];
	size_t nprop_bytes;         /* evemu P: bytes read so far */
	uint8_t bits[EV_MAX + 1][UT_REC_MASK_BYTES];
	size_t nbytes[EV_MAX + 1];  /* evemu B: bytes read so far, per type */
	struct input_absinfo absinfo[ABS_MAX + 1];
	bool have_absinfo[ABS_MAX + 1];
	unsigned long absinfo_line[ABS_MAX + 1]; /* where the range was given */
	unsigned long abs_bit_line[ABS_MAX + 1]; /* where the axis was enabled */
};

/* A growing list of events with the checks every format shares. */
struct ut_event_vec {
	struct ut_raw_event *events;
	size_t n, cap;
	uint64_t latest;  /* the latest event time so far */
};

/* State of one parse: the file name for messages and the first error. */
struct ut_parse {
	const char *name;
	char *err;
	size_t errlen;
	unsigned long incomplete_line; /* last line had no newline (0 = none) */
	int failed;                    /* an error was recorded (only the first is kept) */
	const char *data;              /* the buffer, to turn offsets into lines */
	size_t len;
	enum ut_recording_format format;
	struct ut_devdesc *desc;       /* description found in this file */
	struct ut_event_vec events;
};

/*
 * Record an error "NAME:LINE: message" (or "NAME: message" when @p line
 * is 0) and return @p rc.  Only the first error is kept.
 */
__attribute__((format(printf, 4, 5))) int
ut__rec_fail(struct ut_parse *p, int rc, unsigned long line, const char *fmt, ...);

/* Number of the line holding byte @p offset of the parsed buffer. */
unsigned long
ut__rec_line_of(const struct ut_parse *p, size_t offset);

/* Highest code allowed for @p type, or -1 when the type has no codes. */
int
ut__rec_type_max(unsigned int type);

/* Check type and code of an event; 0 or -EINVAL with an error recorded. */
int
ut__rec_check_event(struct ut_parse *p, unsigned long line, unsigned int type,
		    unsigned int code);

/*
 * Append an event after checking its type, code, that its time does not
 * go backwards and the event limit.
 */
int
ut__rec_push_event(struct ut_parse *p, struct ut_event_vec *vec, unsigned long line,
		   uint64_t sec, uint64_t usec, unsigned int type, unsigned int code,
		   int32_t value);

void
ut__rec_event_vec_release(struct ut_event_vec *vec);

struct ut_devdesc *
ut__devdesc_new(void);

void
ut__devdesc_free(struct ut_devdesc *desc);

/* Set bit @p bit in @p mask; the caller has checked the range. */
static inline void
ut__rec_set_bit(uint8_t *mask, unsigned int bit)
{
	mask[bit / 8] |= (uint8_t)(1u << (bit % 8));
}

static inline bool
ut__rec_test_bit(const uint8_t *mask, unsigned int bit)
{
	return (mask[bit / 8] >> (bit % 8)) & 1;
}

/* Does the description have ABS_MT_POSITION_X? */
bool
ut__devdesc_is_touch(const struct ut_devdesc *desc);

/*
 * Parse evemu text.  With @p desc_only, E: lines are an error (a
 * device.prop file).  Fills p->desc and p->events.
 */
int
ut__rec_parse_evemu(struct ut_parse *p, bool desc_only);

/* Parse libinput record YAML.  Fills p->desc and p->events. */
int
ut__rec_parse_yaml(struct ut_parse *p);

#endif
