/*
 * What every command-line tool of utouch does the same way: say its name in
 * messages, stop on a usage error with a hint at --help (exit status 2),
 * stop on an error (exit status 1 or 2 as the tool documents), and grow
 * its arrays (util/array.h) or stop when memory runs out.
 *
 * A tools-only static helper (tool_common_dep): no library links it.
 */
#ifndef UTOUCH_TOOL_H
#define UTOUCH_TOOL_H

#include <stdarg.h>
#include <stddef.h>

#include "util/array.h"

/** Set the name messages start with ("utouch-replay"); call first. */
void tool_init(const char *name);

/** The name set by tool_init() ("utouch" before). */
const char *tool_name(void);

/** Print "NAME: MESSAGE" on stderr and exit with @p status. */
__attribute__((noreturn, format(printf, 2, 3))) void tool_die(int status, const char *fmt, ...);

/** Print "NAME: MESSAGE" and "(see NAME --help)" on stderr and exit 2. */
__attribute__((noreturn, format(printf, 1, 2))) void tool_usage_error(const char *fmt, ...);

/**
 * The one recording a tool takes as its operand, after getopt: argv[@p
 * first]; a usage error when there is none ("no recording given") or
 * more than one ("give exactly one recording").
 */
const char *tool_one_recording(int argc, char **argv, int first);

/** Print "NAME: out of memory" and exit 2. */
__attribute__((noreturn)) void tool_oom(void);

/** UT_ARRAY_RESERVE() that stops the tool when memory runs out. */
#define TOOL_RESERVE(ptr, cap, need, first)                   \
	do {                                                  \
		if (!UT_ARRAY_RESERVE(ptr, cap, need, first)) \
			tool_oom();                           \
	} while (0)

#endif
