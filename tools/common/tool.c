/*
 * The shared behaviour of utouch's command-line tools (tool.h).
 */
#include "tool.h"

#include <stdio.h>
#include <stdlib.h>

static const char *name = "utouch";

void
tool_init(const char *n)
{
	name = n;
}

const char *
tool_name(void)
{
	return name;
}

static void
say(const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
tool_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
	exit(status);
}

void
tool_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
	fprintf(stderr, "(see %s --help)\n", name);
	exit(2);
}

const char *
tool_one_recording(int argc, char **argv, int first)
{
	if (first != argc - 1)
		tool_usage_error(first >= argc ? "no recording given" : "give exactly one recording");
	return argv[first];
}

void
tool_oom(void)
{
	tool_die(2, "out of memory");
}
