/*
 * What the fuzz targets share: failing loudly on a broken invariant
 * (abort(), so that libFuzzer keeps the input), tracing on request, and a
 * reader that turns the input bytes into numbers (0 once they run out).
 *
 * The including file defines FUZZ_NAME (the target's name in messages) and
 * FUZZ_TRACE_ENV (the environment variable that turns tracing on) first.
 */
#ifndef UTOUCH_FUZZ_COMMON_H
#define UTOUCH_FUZZ_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#if !defined FUZZ_NAME || !defined FUZZ_TRACE_ENV
#error "define FUZZ_NAME and FUZZ_TRACE_ENV before including fuzz-common.h"
#endif

static inline void fail(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* Report a broken invariant and abort. */
static inline void
fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs(FUZZ_NAME ": invariant violated: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

/* Whether FUZZ_TRACE_ENV is set. */
static inline bool
tracing(void)
{
	static int on = -1;
	if (on < 0)
		on = getenv(FUZZ_TRACE_ENV) != NULL;
	return on;
}

static inline void trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One line to stderr when tracing. */
static inline void
trace(const char *fmt, ...)
{
	if (!tracing())
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

#define CHECK(cond, ...)                \
	do {                            \
		if (!(cond))            \
			fail(__VA_ARGS__); \
	} while (0)

/* The input, read front to back. */
struct reader {
	const uint8_t *p;
	size_t n, i;
};

static inline bool
more(const struct reader *r)
{
	return r->i < r->n;
}

static inline uint8_t
u8(struct reader *r)
{
	return r->i < r->n ? r->p[r->i++] : 0;
}

/* little endian */
static inline uint16_t
u16(struct reader *r)
{
	uint16_t v = u8(r);
	return (uint16_t)(v | (uint16_t)u8(r) << 8);
}

static inline uint32_t
u32(struct reader *r)
{
	uint32_t v = u16(r);
	return v | (uint32_t)u16(r) << 16;
}

#endif
