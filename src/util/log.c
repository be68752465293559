/*
 * The one logging path: see log.h.  Built into libutouch-frame only; the
 * other libraries call it there.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/log.h"

/* The context a NULL struct ut_log stands for: no handler ever, stderr
 * filtered by the environment's threshold. */
static struct ut_log default_log = UT_LOG_STATIC_INIT("utouch");
/* Guards the client-bug hook (set from any thread).  Recursive, so that a
 * hook may call utouch functions that log again. */
static pthread_mutex_t default_lock;
static pthread_once_t default_lock_once = PTHREAD_ONCE_INIT;

static void
default_lock_init(void)
{
	pthread_mutexattr_t attr;

	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&default_lock, &attr);
	pthread_mutexattr_destroy(&attr);
}

static void
default_lock_take(void)
{
	pthread_once(&default_lock_once, default_lock_init);
	pthread_mutex_lock(&default_lock);
}

static void
default_lock_give(void)
{
	pthread_mutex_unlock(&default_lock);
}

/* Whether @p log (resolved) passes @p priority on. */
static bool
passes(const struct ut_log *log, enum ut_log_priority priority)
{
	enum ut_log_priority t = log->threshold;

	if (log->handler)
		return true;
	if (t == UT_LOG_FROM_ENV)
		t = ut_log_env_threshold();
	return priority >= t;
}

/* One environment value: a name, or a GRAIL_DEBUG number (clamped as the
 * original did).  UT_LOG_NONE + 1 when it is not understood. */
static int
parse_threshold(const char *s)
{
	static const struct {
		const char *name;
		enum ut_log_priority prio;
	} names[] = {
		{ "debug", UT_LOG_DEBUG }, { "info", UT_LOG_INFO },
		{ "warning", UT_LOG_WARNING }, { "warn", UT_LOG_WARNING },
		{ "error", UT_LOG_ERROR }, { "none", UT_LOG_NONE }, { "off", UT_LOG_NONE },
	};
	char *end;
	long v;

	if (!s || !*s)
		return UT_LOG_NONE + 1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(s, names[i].name) == 0)
			return names[i].prio;
	v = strtol(s, &end, 10);
	if (end == s)
		return UT_LOG_NONE + 1;
	return v <= -1 ? UT_LOG_DEBUG : v == 0 ? UT_LOG_WARNING : UT_LOG_ERROR;
}

enum ut_log_priority
ut_log_env_threshold(void)
{
	int t = parse_threshold(getenv("UTOUCH_DEBUG"));

	if (t > UT_LOG_NONE)
		t = parse_threshold(getenv("GRAIL_DEBUG"));
	return t > UT_LOG_NONE ? UT_LOG_ERROR : (enum ut_log_priority)t;
}

void
ut_log_init(struct ut_log *log, const char *domain)
{
	log->domain = domain;
	log->handler = NULL;
	log->data = NULL;
	log->threshold = ut_log_env_threshold();
}

void
ut_log_set_handler(struct ut_log *log, ut_log_handler handler, void *data)
{
	log->handler = handler;
	log->data = handler ? data : NULL;
}

const char *
ut_log_priority_name(enum ut_log_priority priority)
{
	if (priority <= UT_LOG_DEBUG)
		return "debug";
	if (priority <= UT_LOG_INFO)
		return "info";
	if (priority <= UT_LOG_WARNING)
		return "warning";
	return "error";
}

bool
ut_log_enabled(const struct ut_log *log, enum ut_log_priority priority)
{
	return passes(log ? log : &default_log, priority);
}

/* Format "PREFIX" + message and hand it to the handler or stderr. */
static void
emit(const struct ut_log *log, enum ut_log_priority priority, const char *prefix,
     const char *fmt, va_list ap)
{
	char buf[1024];
	size_t n;

	if (!log)
		log = &default_log;
	if (passes(log, priority)) {
		n = (size_t)snprintf(buf, sizeof(buf), "%s", prefix);
		if (n < sizeof(buf))
			vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
		if (log->handler)
			log->handler(log->data, priority, buf);
		else
			fprintf(stderr, "%s %s: %s\n", log->domain,
				ut_log_priority_name(priority), buf);
	}
}

void
ut_logv(const struct ut_log *log, enum ut_log_priority priority, const char *fmt, va_list ap)
{
	emit(log, priority, "", fmt, ap);
}

void
ut_log(const struct ut_log *log, enum ut_log_priority priority, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(log, priority, "", fmt, ap);
	va_end(ap);
}

static ut_log_client_bug_hook client_bug_hook;
static void *client_bug_hook_data;

void
ut_log_set_client_bug_hook(ut_log_client_bug_hook hook, void *data)
{
	default_lock_take();
	client_bug_hook = hook;
	client_bug_hook_data = hook ? data : NULL;
	default_lock_give();
}

void
ut_log_client_bug(const struct ut_log *log, const char *func, const char *fmt, ...)
{
	char prefix[128];
	va_list ap;

	snprintf(prefix, sizeof(prefix), "client bug: %s: ", func);
	if (client_bug_hook) {
		char msg[1024];
		size_t n = (size_t)snprintf(msg, sizeof(msg), "%s", prefix);

		va_start(ap, fmt);
		if (n < sizeof(msg))
			vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
		va_end(ap);
		client_bug_hook(client_bug_hook_data, msg);
	}
	va_start(ap, fmt);
	emit(log, UT_LOG_ERROR, prefix, fmt, ap);
	va_end(ap);
}
