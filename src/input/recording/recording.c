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

	va_list args;
	va_start(args, fmt);
	int m = vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, args);
	va_end(args);

	/* A malformed last line without a newline is most likely a cut-off file. */
	if (m >= 0 && line > 0 && line == p->incomplete_line && (size_t)(n + m) < sizeof(msg))
		snprintf(msg + n + m, sizeof(msg) - (size_t)(n + m),
			 " (the file ends in the middle of this line)");
	if (p->err && p->errlen > 0)
		snprintf(p->err, p->errlen, "%s", msg);
	ut_log(&rec_log, UT_LOG_INFO, "%s", msg);
	return rc;
}

unsigned long
ut__rec_line_of(const struct ut_parse *p, size_t offset)
{
	unsigned long line = 1;
	if (offset > p->len)
		offset = p->len;
	for (const char *c = p->data; (c = memchr(c, '\n', offset - (size_t)(c - p->data)));
	     c++)
		line++;
	return line;
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
	if (vec->n >= UT_RECORDING_MAX_EVENTS)
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
	if (vec->n == vec->cap) {
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
	vec->events[vec->n++] = (struct ut_raw_event){
		.usec = t,
		.type = (uint16_t)type,
		.code = (uint16_t)code,
		.value = value,
	};
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

/* A line that is not blank and not a comment, as "X:" → evemu. */
static enum ut_recording_format
detect_format(const char *data, size_t len)
{
	static const char header[] = "# EVEMU";
	if (len >= sizeof(header) - 1 && memcmp(data, header, sizeof(header) - 1) == 0)
		return UT_RECORDING_EVEMU_2;

	size_t pos = 0;
	while (pos < len) {
		const char *line = data + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		pos += n + 1;

		size_t i = 0;
		while (i < n && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
			i++;
		if (i == n || line[i] == '#')
			continue;
		if (line[i] >= 'A' && line[i] <= 'Z' && i + 1 < n && line[i + 1] == ':' &&
		    (i + 2 == n || line[i + 2] == ' ' || line[i + 2] == '\t' ||
		     line[i + 2] == '\r'))
			return UT_RECORDING_EVEMU_1;
		return UT_RECORDING_LIBINPUT_RECORD;
	}
	return UT_RECORDING_EVEMU_1;
}

static void
parse_init(struct ut_parse *p, const char *name, const char *data, size_t len, char *err,
	   size_t errlen)
{
	*p = (struct ut_parse){
		.name = name,
		.err = err,
		.errlen = errlen,
		.data = data,
		.len = len,
	};
}

static void
parse_release(struct ut_parse *p)
{
	ut__devdesc_free(p->desc);
	p->desc = NULL;
	ut__rec_event_vec_release(&p->events);
}

/* Parse a buffer; with @p desc_only it must be an evemu device description. */
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

static int
parse_buffer(struct ut_parse *p, bool desc_only)
{
	if (p->len > UT_RECORDING_MAX_BYTES)
		return ut__rec_fail(p, -E2BIG, 0, "file larger than %u bytes",
				    UT_RECORDING_MAX_BYTES);

	const char *nul = p->len > 0 ? memchr(p->data, '\0', p->len) : NULL;
	if (nul)
		return ut__rec_fail(p, -EINVAL, ut__rec_line_of(p, (size_t)(nul - p->data)),
				    "NUL byte in the file");

	p->desc = ut__devdesc_new();
	if (!p->desc)
		return ut__rec_fail(p, -ENOMEM, 0, "out of memory");

	p->format = detect_format(p->data, p->len);
	int rc;
	if (p->format == UT_RECORDING_LIBINPUT_RECORD) {
		if (desc_only)
			return ut__rec_fail(p, -EINVAL, 0,
					    "a device description file must be in evemu format");
		rc = ut__rec_parse_yaml(p);
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

static int
build_recording(struct ut_parse *p, struct ut_devdesc *desc, const char *path,
		struct ut_recording **out)
{
	struct ut_recording *rec = calloc(1, sizeof(*rec));
	if (!rec)
		return ut__rec_fail(p, -ENOMEM, 0, "out of memory");

	rec->path = strdup(path);
	rec->dev = devdesc_to_libevdev(desc);
	if (!rec->path || !rec->dev) {
		ut_recording_free(rec);
		return ut__rec_fail(p, -ENOMEM, 0, "out of memory");
	}

	rec->format = p->format;
	rec->nevents = p->events.n;
	rec->events = p->events.events;
	/* Give back the unused tail of the doubling buffer. */
	struct ut_raw_event *shrunk = realloc(rec->events, rec->nevents * sizeof(*shrunk));
	if (shrunk)
		rec->events = shrunk;
	p->events = (struct ut_event_vec){ 0 };

	*out = rec;
	return 0;
}

int
ut_recording_parse(const char *name, const char *data, size_t len, struct ut_recording **out,
		   char *err, size_t errlen)
{
	if (err && errlen > 0)
		err[0] = '\0';
	*out = NULL;

	struct ut_parse p;
	parse_init(&p, name, data, len, err, errlen);
	int rc = parse_buffer(&p, false);
	if (rc == 0 && !p.desc->present)
		rc = ut__rec_fail(&p, -EINVAL, 0,
				  "no device description (no N:, I:, P:, B: or A: lines)");
	if (rc == 0)
		rc = build_recording(&p, p.desc, name, out);
	parse_release(&p);
	return rc;
}

/* Read a whole file, at most UT_RECORDING_MAX_BYTES; error named after @p path. */
static int
read_file(const char *path, char **data_out, size_t *len_out, char *err, size_t errlen)
{
	struct ut_parse p;
	parse_init(&p, path, NULL, 0, err, errlen);

	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		return ut__rec_fail(&p, -e, 0, "cannot open: %s", strerror(e));
	}

	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return ut__rec_fail(&p, -EISDIR, 0, "is a directory");
	}

	size_t cap = 64 * 1024, len = 0;
	if (S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size <= UT_RECORDING_MAX_BYTES)
		cap = (size_t)st.st_size + 1;
	char *data = malloc(cap);
	int rc = 0;
	if (!data) {
		rc = ut__rec_fail(&p, -ENOMEM, 0, "out of memory");
		goto out;
	}

	for (;;) {
		if (len == cap) {
			if (cap > UT_RECORDING_MAX_BYTES) {
				rc = ut__rec_fail(&p, -E2BIG, 0, "file larger than %u bytes",
						  UT_RECORDING_MAX_BYTES);
				goto out;
			}
			size_t ncap = cap * 2;
			if (ncap > (size_t)UT_RECORDING_MAX_BYTES + 1)
				ncap = (size_t)UT_RECORDING_MAX_BYTES + 1;
			char *ndata = realloc(data, ncap);
			if (!ndata) {
				rc = ut__rec_fail(&p, -ENOMEM, 0, "out of memory");
				goto out;
			}
			data = ndata;
			cap = ncap;
		}
		ssize_t n = read(fd, data + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			rc = ut__rec_fail(&p, -e, 0, "read error: %s", strerror(e));
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > UT_RECORDING_MAX_BYTES) {
		rc = ut__rec_fail(&p, -E2BIG, 0, "file larger than %u bytes",
				  UT_RECORDING_MAX_BYTES);
		goto out;
	}

out:
	close(fd);
	if (rc < 0) {
		free(data);
		return rc;
	}
	*data_out = data;
	*len_out = len;
	return 0;
}

/* Read and parse an evemu device description file into a new description. */
static int
load_device_file(const char *path, struct ut_devdesc **desc_out, char *err, size_t errlen)
{
	char *data;
	size_t len;
	int rc = read_file(path, &data, &len, err, errlen);
	if (rc < 0)
		return rc;

	struct ut_parse p;
	parse_init(&p, path, data, len, err, errlen);
	rc = parse_buffer(&p, true);
	if (rc == 0) {
		*desc_out = p.desc;
		p.desc = NULL;
	}
	parse_release(&p);
	free(data);
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

int
ut_recording_load(const char *path, const char *device, struct ut_recording **out,
		  char *err, size_t errlen)
{
	if (err && errlen > 0)
		err[0] = '\0';
	*out = NULL;

	char *data;
	size_t len;
	int rc = read_file(path, &data, &len, err, errlen);
	if (rc < 0)
		return rc;

	struct ut_parse p;
	parse_init(&p, path, data, len, err, errlen);
	struct ut_devdesc *extra = NULL;
	char *guess = NULL;

	rc = parse_buffer(&p, false);
	if (rc < 0)
		goto out;

	if (device) {
		rc = load_device_file(device, &extra, err, errlen);
	} else if (!p.desc->present) {
		guess = device_prop_path(path);
		if (!guess) {
			rc = ut__rec_fail(&p, -ENOMEM, 0, "out of memory");
			goto out;
		}
		if (access(guess, F_OK) != 0)
			rc = ut__rec_fail(&p, -EINVAL, 0,
					  "no device description (no N:, I:, P:, B: or A: "
					  "lines) and no %s",
					  guess);
		else
			rc = load_device_file(guess, &extra, err, errlen);
	}
	if (rc < 0)
		goto out;

	rc = build_recording(&p, extra ? extra : p.desc, path, out);

out:
	ut__devdesc_free(extra);
	free(guess);
	parse_release(&p);
	free(data);
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
