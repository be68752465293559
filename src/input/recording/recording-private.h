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
#include <sys/types.h>

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

/*
 * The events of a recording as a parse meets them, with the checks every
 * format shares.  With @c store the events are kept in @c events (a whole
 * load, capped at UT_RECORDING_MAX_EVENTS); without, only the count, the
 * latest time and the last event are kept, so that reading a file takes
 * the same memory whatever its length.
 */
struct ut_event_vec {
	struct ut_raw_event *events;
	size_t n, cap;
	uint64_t latest;          /* the latest event time so far */
	bool store;
	struct ut_raw_event last; /* the event pushed last */
	unsigned long last_line;  /* and its line */
};

/* Bytes read from a file at a time; a whole line must fit. */
#define UT_REC_CHUNK (64u * 1024u)
/* the most an input that cannot be read twice is copied to a temporary file */
#define UT_REC_SPOOL_MAX ((uint64_t)1 << 30)

/*
 * Where the bytes of a parse come from: a buffer in memory, or a file read
 * in chunks.  A file that cannot be read twice (a pipe, a FIFO) is copied to
 * an unlinked temporary file during the first pass, which the second pass
 * and the line numbers of late errors read instead.
 */
struct ut_rec_source {
	const char *mem;      /* memory input (NULL for a file) */
	size_t memlen;
	int fd;               /* the file, or its copy (-1: memory) */
	int in_fd;            /* unseekable input being copied to @c fd (-1: none) */
	char *buf;            /* chunk buffer of a file source */
	const char *data;     /* the bytes at hand: mem or buf */
	size_t off, have;     /* consumed / valid bytes of data */
	bool eof;
	uint64_t pos;         /* offset of data[0] in the file */
	unsigned long lines;  /* newlines before data[off] */
};

/* State of one parse: the file name for messages and the first error. */
struct ut_parse {
	const char *name;
	char *err;
	size_t errlen;
	unsigned long incomplete_line; /* last line had no newline (0 = none) */
	int failed;                    /* an error was recorded (only the first is kept) */
	struct ut_rec_source *src;
	enum ut_recording_format format;
	struct ut_devdesc *desc;       /* description found in this file (first pass) */
	bool events_only;              /* second pass: only events, description known */
	struct ut_event_vec events;
	long yaml_device;              /* libinput record: index of the device used */
	bool record_keys;              /* YAML: a top-level key of libinput record seen */
	bool maybe_not_recording;      /* YAML tried on a file that may be no recording:
	                                  until a libinput record key is seen, a failure
	                                  says "not an evemu or libinput-record recording"
	                                  first, the YAML detail after it */
};

/*
 * Record an error "NAME:LINE: message" (or "NAME: message" when @p line
 * is 0) and return @p rc.  Only the first error is kept.
 */
__attribute__((format(printf, 4, 5))) int
ut__rec_fail(struct ut_parse *p, int rc, unsigned long line, const char *fmt, ...);

/* Number of the line holding byte @p offset of the parsed input. */
unsigned long
ut__rec_line_of(const struct ut_parse *p, uint64_t offset);

/*
 * The next line of the input, without its newline and NUL-terminated, in
 * @p line (UT_RECORDING_MAX_LINE + 1 bytes), its number in *@p lineno.
 * Returns 1, 0 at the end of the input, or a negative errno with the error
 * recorded (read errors, a NUL byte, a line longer than the limit).
 */
int
ut__rec_src_line(struct ut_parse *p, char *line, size_t *len, unsigned long *lineno);

/*
 * Up to @p max raw bytes of the input (for libyaml).  Returns the number
 * of bytes, 0 at the end, or a negative errno with the error recorded.
 */
ssize_t
ut__rec_src_read(struct ut_parse *p, unsigned char *dst, size_t max);

/* Highest code allowed for @p type, or -1 when the type has no codes. */
int
ut__rec_type_max(unsigned int type);

/* Check type and code of an event; 0 or -EINVAL with an error recorded. */
int
ut__rec_check_event(struct ut_parse *p, unsigned long line, unsigned int type,
		    unsigned int code);

/*
 * Take an event after checking its type, code, that its time does not go
 * backwards and (when stored) the event limit.
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
 * Parse evemu text (the first pass over a file).  With @p desc_only, E:
 * lines are an error (a device.prop file).  Fills p->desc and counts the
 * events in p->events.
 */
int
ut__rec_parse_evemu(struct ut_parse *p, bool desc_only);

/*
 * The next event of an evemu file in the second pass (p->events_only),
 * in p->events.last.  Returns 1, 0 at the end, or a negative errno.
 */
int
ut__rec_next_evemu(struct ut_parse *p);

/* Parse libinput record YAML (the first pass).  Fills p->desc, counts the
 * events of the device used and sets p->yaml_device. */
int
ut__rec_parse_yaml(struct ut_parse *p);

/* State of the second pass over a libinput record file. */
struct ut_rec_yaml_stream;

/* Start the second pass: find the events of device p->yaml_device. */
int
ut__rec_yaml_stream_new(struct ut_parse *p, struct ut_rec_yaml_stream **out);

/* The next event of the second pass, in p->events.last: 1, 0 at the end,
 * or a negative errno. */
int
ut__rec_yaml_stream_next(struct ut_rec_yaml_stream *ys);

void
ut__rec_yaml_stream_free(struct ut_rec_yaml_stream *ys);

#endif
