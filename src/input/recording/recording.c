/*
 * Recordings: format detection, file reading, the device.prop fallback and
 * turning a parsed description into a libevdev context.
 */
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/recording/recording-private.h"

/* Parse failures are returned to the caller and logged at info priority. */
static const struct ut_log rec_log = UT_LOG_STATIC_INIT("recording");

int
ut__rec_fail(struct ut_parse *p, int rc, unsigned long line, const char *fmt, ...)
{
	char msg[512];

	/* only the first error counts, also across parses sharing @p err */
	if (p->failed || (p->err && p->errlen > 0 && p->err[0] != '\0'))
		return rc;
	p->failed = 1;

	int n;
	if (line > 0)
		n = snprintf(msg, sizeof(msg), "%s:%lu: ", p->name, line);
	else
		n = snprintf(msg, sizeof(msg), "%s: ", p->name);
	if (n < 0 || (size_t)n >= sizeof(msg))
		n = (int)strlen(msg);
	/* a text file that is no recording: say so before the YAML detail */
	int wrap = p->maybe_not_recording && !p->record_keys && rc != -ENOMEM;
	if (wrap)
		snprintf(msg + n, sizeof(msg) - (size_t)n,
			 "not an evemu or libinput-record recording (evemu files have lines "
			 "such as \"N: name\", libinput record files are YAML with a "
			 "'devices' list; as YAML: ");

	size_t used = strlen(msg);
	va_list args;
	va_start(args, fmt);
	vsnprintf(msg + used, sizeof(msg) - used, fmt, args);
	va_end(args);

	/* A malformed last line without a newline is most likely a cut-off file. */
	used = strlen(msg);
	if (line > 0 && line == p->incomplete_line)
		snprintf(msg + used, sizeof(msg) - used,
			 " (the file ends in the middle of this line)");
	used = strlen(msg);
	if (wrap)
		snprintf(msg + used, sizeof(msg) - used, ")");
	if (p->err && p->errlen > 0)
		snprintf(p->err, p->errlen, "%s", msg);
	ut_log(&rec_log, UT_LOG_INFO, "%s", msg);
	return rc;
}

/* Count the newlines in @p n bytes. */
static unsigned long
count_newlines(const char *data, size_t n)
{
	unsigned long lines = 0;
	const char *end = data + n;
	for (const char *c = data; c < end && (c = memchr(c, '\n', (size_t)(end - c))); c++)
		lines++;
	return lines;
}

unsigned long
ut__rec_line_of(const struct ut_parse *p, uint64_t offset)
{
	const struct ut_rec_source *src = p->src;
	unsigned long line = 1;

	if (!src)
		return line;
	if (src->mem)
		return line + count_newlines(src->mem, offset < src->memlen ? (size_t)offset
									       : src->memlen);
	/* a file (or the copy of a pipe): read what lies before the offset again */
	char buf[16384];
	uint64_t at = 0;
	while (at < offset) {
		size_t want = offset - at < sizeof(buf) ? (size_t)(offset - at) : sizeof(buf);
		ssize_t n = pread(src->fd, buf, want, (off_t)at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		line += count_newlines(buf, (size_t)n);
		at += (uint64_t)n;
	}
	return line;
}

static bool
src_at_end(const struct ut_rec_source *src)
{
	return src->mem || src->eof;
}

/* Read the next chunk of a file source behind the bytes not yet consumed;
 * 0, or a negative errno recorded. */
static int
src_fill(struct ut_parse *p)
{
	struct ut_rec_source *src = p->src;

	if (src_at_end(src))
		return 0;
	if (src->off > 0) {
		memmove(src->buf, src->buf + src->off, src->have - src->off);
		src->have -= src->off;
		src->off = 0;
	}
	ssize_t n;
	do
		n = read(src->fd, src->buf + src->have, UT_REC_CHUNK - src->have);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		int e = errno;
		return ut__rec_fail(p, -e, 0, "read error: %s", strerror(e));
	}
	if (n == 0) {
		src->eof = true;
		return 0;
	}
	const char *fresh = src->buf + src->have;
	const char *nul = memchr(fresh, '\0', (size_t)n);
	src->have += (size_t)n;
	if (nul)
		return ut__rec_fail(p, -EINVAL,
				    src->lines + 1 + count_newlines(src->buf, (size_t)(nul - src->buf)),
				    "NUL byte in the file");
	return 0;
}

int
ut__rec_src_line(struct ut_parse *p, char *line, size_t *len, unsigned long *lineno)
{
	struct ut_rec_source *src = p->src;

	for (;;) {
		const char *start = src->data + src->off;
		size_t avail = src->have - src->off;
		const char *nl = memchr(start, '\n', avail);

		/* a line ends at its newline or at the end of the input; one
		 * that does not fit is too long whatever follows */
		if (!nl && !src_at_end(src) && avail < UT_RECORDING_MAX_LINE + 2) {
			int rc = src_fill(p);
			if (rc < 0)
				return rc;
			continue;
		}
		if (avail == 0)
			return 0;

		size_t n = nl ? (size_t)(nl - start) : avail;
		unsigned long number = src->lines + 1;
		if (!nl && src_at_end(src))
			p->incomplete_line = number;
		size_t text = n;
		if (text > 0 && start[text - 1] == '\r')
			text--;
		if (text > UT_RECORDING_MAX_LINE)
			return ut__rec_fail(p, -E2BIG, number, "line longer than %u bytes",
					    UT_RECORDING_MAX_LINE);
		memcpy(line, start, text);
		line[text] = '\0';
		*len = text;
		*lineno = number;
		src->off += n + (nl ? 1 : 0);
		src->pos += n + (nl ? 1 : 0);
		if (nl)
			src->lines++;
		return 1;
	}
}

ssize_t
ut__rec_src_read(struct ut_parse *p, unsigned char *dst, size_t max)
{
	struct ut_rec_source *src = p->src;

	if (src->off == src->have && !src_at_end(src)) {
		int rc = src_fill(p);
		if (rc < 0)
			return rc;
	}
	size_t n = src->have - src->off;
	if (n > max)
		n = max;
	memcpy(dst, src->data + src->off, n);
	src->lines += count_newlines(src->data + src->off, n);
	src->off += n;
	src->pos += n;
	return (ssize_t)n;
}

int
ut__rec_type_max(unsigned int type)
{
	if (type == EV_SYN)
		return SYN_MAX;
	if (type > EV_MAX)
		return -1;
	return libevdev_event_type_get_max(type);
}

int
ut__rec_check_event(struct ut_parse *p, unsigned long line, unsigned int type,
		    unsigned int code)
{
	if (type > EV_MAX)
		return ut__rec_fail(p, -EINVAL, line, "event type 0x%x out of range (max 0x%x)",
				    type, EV_MAX);
	int max = ut__rec_type_max(type);
	if (max < 0)
		return ut__rec_fail(p, -EINVAL, line, "event type 0x%x has no event codes",
				    type);
	if (code > (unsigned int)max)
		return ut__rec_fail(p, -EINVAL, line,
				    "event code 0x%x out of range for type 0x%x (max 0x%x)",
				    code, type, (unsigned int)max);
	return 0;
}

int
ut__rec_push_event(struct ut_parse *p, struct ut_event_vec *vec, unsigned long line,
		   uint64_t sec, uint64_t usec, unsigned int type, unsigned int code,
		   int32_t value)
{
	int rc = ut__rec_check_event(p, line, type, code);
	if (rc < 0)
		return rc;
	if (vec->store && vec->n >= UT_RECORDING_MAX_EVENTS)
		return ut__rec_fail(p, -E2BIG, line, "more than %u events",
				    UT_RECORDING_MAX_EVENTS);
	if (sec >= UT_REC_MAX_SEC || usec >= 1000000)
		return ut__rec_fail(p, -EINVAL, line, "event time out of range");

	uint64_t t = sec * 1000000 + usec;
	/* kernels stamp the events of one report one by one, and on real
	 * hardware a stamp can be a few microseconds before the previous one;
	 * a clock that jumps further back is not a device's */
	if (vec->n > 0 && t + UT_RECORDING_MAX_BACKSTEP_USEC < vec->latest) {
		uint64_t prev = vec->latest;
		return ut__rec_fail(p, -EINVAL, line,
				    "time goes backwards by more than %u us "
				    "(%llu.%06llu after %llu.%06llu)",
				    UT_RECORDING_MAX_BACKSTEP_USEC,
				    (unsigned long long)(t / 1000000),
				    (unsigned long long)(t % 1000000),
				    (unsigned long long)(prev / 1000000),
				    (unsigned long long)(prev % 1000000));
	}
	if (vec->store && vec->n == vec->cap) {
		size_t cap = vec->cap ? vec->cap * 2 : 256;
		if (cap > UT_RECORDING_MAX_EVENTS)
			cap = UT_RECORDING_MAX_EVENTS;
		struct ut_raw_event *events = realloc(vec->events, cap * sizeof(*events));
		if (!events)
			return ut__rec_fail(p, -ENOMEM, line, "out of memory");
		vec->events = events;
		vec->cap = cap;
	}
	if (vec->n == 0 || t > vec->latest)
		vec->latest = t;
	vec->last = (struct ut_raw_event){
		.usec = t,
		.type = (uint16_t)type,
		.code = (uint16_t)code,
		.value = value,
	};
	vec->last_line = line;
	if (vec->store)
		vec->events[vec->n] = vec->last;
	vec->n++;
	return 0;
}

void
ut__rec_event_vec_release(struct ut_event_vec *vec)
{
	free(vec->events);
	*vec = (struct ut_event_vec){ 0 };
}

struct ut_devdesc *
ut__devdesc_new(void)
{
	return calloc(1, sizeof(struct ut_devdesc));
}

void
ut__devdesc_free(struct ut_devdesc *desc)
{
	if (!desc)
		return;
	free(desc->name);
	free(desc);
}

bool
ut__devdesc_is_touch(const struct ut_devdesc *desc)
{
	return ut__rec_test_bit(desc->bits[EV_ABS], ABS_MT_POSITION_X) ||
	       desc->have_absinfo[ABS_MT_POSITION_X];
}

/* Turn a description into a libevdev context without a file descriptor. */
static struct libevdev *
devdesc_to_libevdev(const struct ut_devdesc *desc)
{
	struct libevdev *dev = libevdev_new();
	if (!dev)
		return NULL;

	libevdev_set_name(dev, desc->name ? desc->name : "");
	libevdev_set_id_bustype(dev, desc->id[0]);
	libevdev_set_id_vendor(dev, desc->id[1]);
	libevdev_set_id_product(dev, desc->id[2]);
	libevdev_set_id_version(dev, desc->id[3]);

	for (unsigned int prop = 0; prop <= INPUT_PROP_MAX; prop++) {
		if (ut__rec_test_bit(desc->props, prop) &&
		    libevdev_enable_property(dev, prop) != 0)
			goto fail;
	}

	for (unsigned int type = 0; type <= EV_MAX; type++) {
		if (ut__rec_test_bit(desc->bits[EV_SYN], type) &&
		    libevdev_enable_event_type(dev, type) != 0)
			goto fail;
	}

	for (unsigned int type = 1; type <= EV_MAX; type++) {
		int max = ut__rec_type_max(type);
		for (int code = 0; code <= max; code++) {
			bool abs_only = type == EV_ABS && desc->have_absinfo[code];
			if (!ut__rec_test_bit(desc->bits[type], (unsigned int)code) && !abs_only)
				continue;

			int rep = 0;
			const void *data = NULL;
			if (type == EV_ABS)
				data = &desc->absinfo[code];
			else if (type == EV_REP)
				data = &rep;
			if (libevdev_enable_event_code(dev, type, (unsigned int)code, data) != 0)
				goto fail;
		}
	}
	return dev;

fail:
	libevdev_free(dev);
	return NULL;
}


/* ---- sources ---- */

static int
src_rewind(struct ut_parse *p)
{
	struct ut_rec_source *src = p->src;

	src->off = 0;
	src->pos = 0;
	src->lines = 0;
	if (src->mem)
		return 0;
	src->have = 0;
	src->eof = false;
	if (lseek(src->fd, 0, SEEK_SET) < 0) {
		int e = errno;
		return ut__rec_fail(p, -e, 0, "cannot read the file again: %s", strerror(e));
	}
	return 0;
}

static void
src_close(struct ut_rec_source *src)
{
	if (src->fd >= 0)
		close(src->fd);
	free(src->buf);
	*src = (struct ut_rec_source){ .fd = -1 };
}

static int
src_open_memory(struct ut_parse *p, struct ut_rec_source *src, const char *data, size_t len)
{
	*src = (struct ut_rec_source){ .mem = data ? data : "", .memlen = len, .fd = -1,
				       .data = data ? data : "", .have = len };
	p->src = src;
	const char *nul = len > 0 ? memchr(data, '\0', len) : NULL;
	if (nul)
		return ut__rec_fail(p, -EINVAL, ut__rec_line_of(p, (uint64_t)(nul - data)),
				    "NUL byte in the file");
	return 0;
}

/* Copy an input that cannot be read twice to an unlinked temporary file,
 * up to UT_REC_SPOOL_MAX bytes (a regular file has no limit: it is read
 * in place); returns the copy's descriptor or a negative errno recorded. */
static int
spool(struct ut_parse *p, int in)
{
	const char *dir = getenv("TMPDIR");
	int fd = open(dir && *dir ? dir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		int e = errno;
		return ut__rec_fail(p, -e, 0, "cannot create a temporary copy of the input: %s",
				    strerror(e));
	}
	char *buf = malloc(UT_REC_CHUNK);
	if (!buf) {
		close(fd);
		return ut__rec_fail(p, -ENOMEM, 0, "out of memory");
	}
	int rc = 0;
	uint64_t total = 0, lines = 1;
	for (;;) {
		ssize_t n = read(in, buf, UT_REC_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			rc = ut__rec_fail(p, -e, 0, "read error: %s", strerror(e));
			break;
		}
		if (n == 0)
			break;
		/* what the parser would refuse anyway, refused before an endless
		 * input (/dev/zero, /dev/urandom) fills the disk */
		const char *nul = memchr(buf, '\0', (size_t)n);
		for (const char *c = buf; (c = memchr(c, '\n', (size_t)((nul ? nul : buf + n) - c)));
		     c++)
			lines++;
		if (nul) {
			rc = ut__rec_fail(p, -EINVAL, lines, "NUL byte in the file");
			break;
		}
		total += (uint64_t)n;
		if (total > UT_REC_SPOOL_MAX) {
			rc = ut__rec_fail(p, -EFBIG, 0, "an input that cannot be read twice (a pipe "
					  "or a device) is copied first, and this one is larger than "
					  "%u MiB: give a regular file",
					  (unsigned)(UT_REC_SPOOL_MAX >> 20));
			break;
		}
		for (ssize_t done = 0; done < n;) {
			ssize_t m = write(fd, buf + done, (size_t)(n - done));
			if (m < 0 && errno == EINTR)
				continue;
			if (m <= 0) {
				int e = m < 0 ? errno : ENOSPC;
				rc = ut__rec_fail(p, -e, 0, "cannot copy the input to a "
						  "temporary file: %s", strerror(e));
				break;
			}
			done += m;
		}
		if (rc < 0)
			break;
	}
	free(buf);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

static int
src_open_file(struct ut_parse *p, struct ut_rec_source *src, const char *path)
{
	*src = (struct ut_rec_source){ .fd = -1 };
	p->src = src;

	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		return ut__rec_fail(p, -e, 0, "cannot open: %s", strerror(e));
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return ut__rec_fail(p, -EISDIR, 0, "is a directory");
	}
	if (!S_ISREG(st.st_mode) || lseek(fd, 0, SEEK_CUR) < 0) {
		int copy = spool(p, fd);
		close(fd);
		if (copy < 0)
			return copy;
		fd = copy;
		if (lseek(fd, 0, SEEK_SET) < 0) {
			int e = errno;
			close(fd);
			return ut__rec_fail(p, -e, 0, "cannot read the temporary copy: %s",
					    strerror(e));
		}
	}
	src->fd = fd;
	src->buf = malloc(UT_REC_CHUNK);
	if (!src->buf)
		return ut__rec_fail(p, -ENOMEM, 0, "out of memory");
	src->data = src->buf;
	return 0;
}

/* ---- the first pass ---- */

/* The first line that is not blank and not a comment decides: "X:" is
 * evemu, anything else libinput record YAML; "# EVEMU" at the start is
 * evemu 2.x.  Reads from the start of the input and rewinds it. */
static int
detect_format(struct ut_parse *p, enum ut_recording_format *out)
{
	static const char header[] = "# EVEMU";
	unsigned char buf[4096];
	enum { LINE_START, COMMENT, FIRST, AFTER } state = LINE_START;
	enum ut_recording_format f = UT_RECORDING_EVEMU_1;
	uint64_t at = 0;
	bool decided = false, header_ok = true;

	while (!decided) {
		ssize_t n = ut__rec_src_read(p, buf, sizeof(buf));
		if (n < 0)
			return (int)n;
		if (n == 0)
			break; /* "X:" at the very end is evemu too */
		for (ssize_t i = 0; i < n && !decided; i++, at++) {
			char c = (char)buf[i];
			if (at < sizeof(header) - 1) {
				if (c != header[at])
					header_ok = false;
				else if (header_ok && at == sizeof(header) - 2) {
					f = UT_RECORDING_EVEMU_2;
					decided = true;
					break;
				}
			}
			switch (state) {
			case LINE_START:
				if (c == '#')
					state = COMMENT;
				else if (c >= 'A' && c <= 'Z')
					state = FIRST;
				else if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
					f = UT_RECORDING_LIBINPUT_RECORD;
					decided = true;
				}
				break;
			case COMMENT:
				if (c == '\n')
					state = LINE_START;
				break;
			case FIRST:
				if (c == ':') {
					state = AFTER;
				} else {
					f = UT_RECORDING_LIBINPUT_RECORD;
					decided = true;
				}
				break;
			case AFTER:
				f = c == ' ' || c == '\t' || c == '\r' || c == '\n'
					    ? UT_RECORDING_EVEMU_1
					    : UT_RECORDING_LIBINPUT_RECORD;
				decided = true;
				break;
			default:
				break;
			}
		}
	}
	*out = f;
	return src_rewind(p);
}

static void
parse_init(struct ut_parse *p, const char *name, char *err, size_t errlen)
{
	*p = (struct ut_parse){
		.name = name,
		.err = err,
		.errlen = errlen,
		.yaml_device = -1,
	};
}

static void
parse_release(struct ut_parse *p)
{
	ut__devdesc_free(p->desc);
	p->desc = NULL;
	ut__rec_event_vec_release(&p->events);
}

/* The touch position axes need a range no device can lack: coordinates
 * scaled from an unknown or empty range would be made up. */
static int
check_positions(struct ut_parse *p)
{
	static const struct { unsigned int code; const char *name; } axes[] = {
		{ ABS_MT_POSITION_X, "ABS_MT_POSITION_X" },
		{ ABS_MT_POSITION_Y, "ABS_MT_POSITION_Y" },
	};
	const struct ut_devdesc *d = p->desc;
	const char *given = p->format == UT_RECORDING_LIBINPUT_RECORD ? "an absinfo entry"
								      : "an A: line";

	for (size_t i = 0; i < sizeof(axes) / sizeof(axes[0]); i++) {
		unsigned int code = axes[i].code;
		const struct input_absinfo *a = &d->absinfo[code];

		if (!d->have_absinfo[code]) {
			if (ut__rec_test_bit(d->bits[EV_ABS], code))
				return ut__rec_fail(p, -EINVAL, d->abs_bit_line[code],
						    "%s is enabled but has no range (%s is missing)",
						    axes[i].name, given);
			continue;
		}
		if (a->minimum >= a->maximum)
			return ut__rec_fail(p, -EINVAL, d->absinfo_line[code],
					    "%s range %d..%d is empty (the minimum must be "
					    "below the maximum)", axes[i].name, a->minimum,
					    a->maximum);
	}
	return 0;
}

/* The first pass over p->src: the description, and every event checked and
 * counted.  With @p desc_only it must be an evemu device description. */
static int
first_pass(struct ut_parse *p, bool desc_only)
{
	p->desc = ut__devdesc_new();
	if (!p->desc)
		return ut__rec_fail(p, -ENOMEM, 0, "out of memory");

	int rc = detect_format(p, &p->format);
	if (rc < 0)
		return rc;
	if (p->format == UT_RECORDING_LIBINPUT_RECORD) {
		if (desc_only)
			return ut__rec_fail(p, -EINVAL, 0,
					    "a device description file must be in evemu format");
		p->maybe_not_recording = true;
		rc = ut__rec_parse_yaml(p);
		p->maybe_not_recording = false;
	} else {
		rc = ut__rec_parse_evemu(p, desc_only);
	}
	if (rc < 0)
		return rc;

	if (!desc_only && p->events.n == 0)
		return ut__rec_fail(p, -EINVAL, 0, "no events");
	if (p->desc->present && (rc = check_positions(p)) < 0)
		return rc;
	if (desc_only && !p->desc->present)
		return ut__rec_fail(p, -EINVAL, 0,
				    "no device description (no N:, I:, P:, B: or A: lines)");
	return 0;
}

/* Read and parse an evemu device description file into a new description. */
static int
load_device_file(const char *path, struct ut_devdesc **desc_out, char *err, size_t errlen)
{
	struct ut_parse p;
	struct ut_rec_source src;
	parse_init(&p, path, err, errlen);
	int rc = src_open_file(&p, &src, path);
	if (rc == 0)
		rc = first_pass(&p, true);
	if (rc == 0) {
		*desc_out = p.desc;
		p.desc = NULL;
	}
	parse_release(&p);
	src_close(&src);
	return rc;
}

/* "DIR/device.prop" for the directory that holds @p path. */
static char *
device_prop_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *guess = NULL;
	int n;
	if (slash)
		n = asprintf(&guess, "%.*s/device.prop", (int)(slash - path), path);
	else
		n = asprintf(&guess, "device.prop");
	return n < 0 ? NULL : guess;
}

/* ---- readers ---- */

struct ut_recording_reader_state {
	struct ut_parse p;
	struct ut_rec_source src;
	struct ut_rec_yaml_stream *yaml;
	bool done;
};

static void
reader_free(struct ut_recording_reader *r)
{
	if (!r)
		return;
	if (r->priv) {
		ut__rec_yaml_stream_free(r->priv->yaml);
		parse_release(&r->priv->p);
		src_close(&r->priv->src);
		free(r->priv);
	}
	libevdev_free(r->dev);
	free(r->path);
	free(r);
}

/* Prepare the second pass: from here on errors go to r->error. */
static int
second_pass_start(struct ut_recording_reader *r)
{
	struct ut_recording_reader_state *st = r->priv;
	struct ut_parse *p = &st->p;

	ut__rec_yaml_stream_free(st->yaml);
	st->yaml = NULL;
	st->done = false;
	r->error[0] = '\0';
	p->err = r->error;
	p->errlen = sizeof(r->error);
	p->failed = 0;
	p->events_only = true;
	p->incomplete_line = 0;
	p->events = (struct ut_event_vec){ 0 };
	int rc = src_rewind(p);
	if (rc == 0 && p->format == UT_RECORDING_LIBINPUT_RECORD)
		rc = ut__rec_yaml_stream_new(p, &st->yaml);
	return rc;
}

/* The first pass over an opened source and, for a file, the description
 * from elsewhere; on success the reader is ready for its events. */
static int
reader_open(struct ut_recording_reader *r, const char *path, const char *device,
	    bool is_file, char *err, size_t errlen)
{
	struct ut_recording_reader_state *st = r->priv;
	struct ut_parse *p = &st->p;
	struct ut_devdesc *extra = NULL;
	char *guess = NULL;

	int rc = first_pass(p, false);
	if (rc < 0)
		goto out;

	if (device) {
		rc = load_device_file(device, &extra, err, errlen);
	} else if (!p->desc->present && is_file) {
		guess = device_prop_path(path);
		if (!guess) {
			rc = ut__rec_fail(p, -ENOMEM, 0, "out of memory");
			goto out;
		}
		if (access(guess, F_OK) != 0)
			rc = ut__rec_fail(p, -EINVAL, 0,
					  "no device description (no N:, I:, P:, B: or A: "
					  "lines) and no %s",
					  guess);
		else
			rc = load_device_file(guess, &extra, err, errlen);
	} else if (!p->desc->present) {
		rc = ut__rec_fail(p, -EINVAL, 0,
				  "no device description (no N:, I:, P:, B: or A: lines)");
	}
	if (rc < 0)
		goto out;

	r->path = strdup(path);
	r->dev = devdesc_to_libevdev(extra ? extra : p->desc);
	if (!r->path || !r->dev) {
		rc = ut__rec_fail(p, -ENOMEM, 0, "out of memory");
		goto out;
	}
	r->format = p->format;
	r->nevents = p->events.n;
	/* the description is in r->dev now */
	ut__devdesc_free(p->desc);
	p->desc = NULL;

	rc = second_pass_start(r);
	if (rc < 0) {
		snprintf(err, errlen, "%s", r->error);
		goto out;
	}
	/* the time of the first event */
	struct ut_raw_event first;
	rc = ut_recording_next(r, &first);
	if (rc <= 0) {
		/* the first pass counted at least one event */
		snprintf(err, errlen, "%s", r->error);
		rc = rc < 0 ? rc : -EIO;
		goto out;
	}
	r->first_usec = first.usec;
	rc = ut_recording_rewind(r);
	if (rc < 0)
		snprintf(err, errlen, "%s", r->error);
out:
	ut__devdesc_free(extra);
	free(guess);
	return rc < 0 ? rc : 0;
}

static int
reader_new(const char *name, struct ut_recording_reader **out, char *err, size_t errlen)
{
	if (err && errlen > 0)
		err[0] = '\0';
	*out = calloc(1, sizeof(**out));
	if (*out)
		(*out)->priv = calloc(1, sizeof(*(*out)->priv));
	if (!*out || !(*out)->priv) {
		free(*out);
		*out = NULL;
		struct ut_parse p;
		parse_init(&p, name, err, errlen);
		return ut__rec_fail(&p, -ENOMEM, 0, "out of memory");
	}
	parse_init(&(*out)->priv->p, name, err, errlen);
	(*out)->priv->src.fd = -1;
	return 0;
}

/* Open a reader on @p path (a file) or on @p data (memory). */
static int
open_reader(const char *path, const char *device, const char *data, size_t len,
	    bool is_file, struct ut_recording_reader **out, char *err, size_t errlen)
{
	struct ut_recording_reader *r;
	int rc = reader_new(path, &r, err, errlen);
	if (rc < 0)
		return rc;
	if (is_file)
		rc = src_open_file(&r->priv->p, &r->priv->src, path);
	else
		rc = src_open_memory(&r->priv->p, &r->priv->src, data, len);
	if (rc == 0)
		rc = reader_open(r, path, device, is_file, err, errlen);
	if (rc < 0) {
		reader_free(r);
		*out = NULL;
		return rc;
	}
	/* the name in messages must outlive the caller's string */
	r->priv->p.name = r->path;
	*out = r;
	return 0;
}

int
ut_recording_open(const char *path, const char *device, struct ut_recording_reader **out,
		  char *err, size_t errlen)
{
	return open_reader(path, device, NULL, 0, true, out, err, errlen);
}

int
ut_recording_open_memory(const char *name, const char *data, size_t len,
			 struct ut_recording_reader **out, char *err, size_t errlen)
{
	return open_reader(name, NULL, data, len, false, out, err, errlen);
}

int
ut_recording_next(struct ut_recording_reader *r, struct ut_raw_event *ev)
{
	struct ut_recording_reader_state *st = r->priv;
	struct ut_parse *p = &st->p;

	if (st->done)
		return 0;
	if (p->failed)
		return -EIO;
	int rc = st->yaml ? ut__rec_yaml_stream_next(st->yaml) : ut__rec_next_evemu(p);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		st->done = true;
		if (p->events.n != r->nevents)
			return ut__rec_fail(p, -EIO, 0, "the file changed while it was read");
		return 0;
	}
	*ev = p->events.last;
	return 1;
}

int
ut_recording_rewind(struct ut_recording_reader *r)
{
	return second_pass_start(r);
}

void
ut_recording_close(struct ut_recording_reader *r)
{
	reader_free(r);
}

/* ---- whole loads ---- */

/* Read every event of @p r into a new recording. */
static int
read_all(struct ut_recording_reader *r, struct ut_recording **out, char *err, size_t errlen)
{
	struct ut_parse *p = &r->priv->p;
	struct ut_recording *rec = calloc(1, sizeof(*rec));
	struct ut_event_vec vec = { .store = true };
	int rc = 0;

	/* messages of this stage go to the caller */
	p->err = err;
	p->errlen = errlen;
	if (!rec) {
		rc = ut__rec_fail(p, -ENOMEM, 0, "out of memory");
		goto out;
	}
	for (;;) {
		struct ut_raw_event ev;
		rc = ut_recording_next(r, &ev);
		if (rc <= 0)
			break;
		rc = ut__rec_push_event(p, &vec, p->events.last_line, ev.usec / 1000000,
					ev.usec % 1000000, ev.type, ev.code, ev.value);
		if (rc < 0)
			break;
	}
	if (rc < 0)
		goto out;
	/* give back the unused tail of the doubling buffer */
	struct ut_raw_event *shrunk = realloc(vec.events, vec.n * sizeof(*shrunk));
	if (shrunk)
		vec.events = shrunk;
	rec->events = vec.events;
	rec->nevents = vec.n;
	vec.events = NULL;
	rec->format = r->format;
	rec->path = r->path;
	rec->dev = r->dev;
	r->path = NULL;
	r->dev = NULL;
	*out = rec;
	rec = NULL;
out:
	ut__rec_event_vec_release(&vec);
	free(rec);
	return rc;
}

int
ut_recording_parse(const char *name, const char *data, size_t len, struct ut_recording **out,
		   char *err, size_t errlen)
{
	struct ut_recording_reader *r;
	*out = NULL;
	int rc = ut_recording_open_memory(name, data, len, &r, err, errlen);
	if (rc < 0)
		return rc;
	rc = read_all(r, out, err, errlen);
	ut_recording_close(r);
	return rc;
}

int
ut_recording_load(const char *path, const char *device, struct ut_recording **out,
		  char *err, size_t errlen)
{
	struct ut_recording_reader *r;
	*out = NULL;
	int rc = ut_recording_open(path, device, &r, err, errlen);
	if (rc < 0)
		return rc;
	rc = read_all(r, out, err, errlen);
	ut_recording_close(r);
	return rc;
}

void
ut_recording_free(struct ut_recording *rec)
{
	if (!rec)
		return;
	libevdev_free(rec->dev);
	free(rec->events);
	free(rec->path);
	free(rec);
}
