/*
 * Bounded per-thread free lists for the frame library objects.
 */
#include <pthread.h>
#include <stdlib.h>

#include "frame/frame-private.h"

#if defined(__SANITIZE_ADDRESS__)
#define UT_HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UT_HAVE_ASAN 1
#endif
#endif

#ifdef UT_HAVE_ASAN
#include <sanitizer/asan_interface.h>
/* Free-listed objects stay poisoned, so ASan still reports use after
 * release, except for the link word. */
#define ut_poison(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define ut_unpoison(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define ut_poison(p, n) ((void)(p), (void)(n))
#define ut_unpoison(p, n) ((void)(p), (void)(n))
#endif

struct ut_pool {
	void *head;
	unsigned int count;
};

static const size_t pool_object_size[UT_POOL_KIND_COUNT] = {
	[UT_POOL_TOUCH] = sizeof(struct UFTouch_),
	[UT_POOL_BACKEND_TOUCH] = sizeof(struct UFBackendTouch_),
	[UT_POOL_FRAME] = sizeof(struct UFFrame_),
	[UT_POOL_EVENT] = sizeof(struct UFEvent_),
};

/* Enough for a few hundred queued frame events of several touches. */
static const unsigned int pool_limit[UT_POOL_KIND_COUNT] = {
	[UT_POOL_TOUCH] = 1024,
	[UT_POOL_BACKEND_TOUCH] = 64,
	[UT_POOL_FRAME] = 256,
	[UT_POOL_EVENT] = 256,
};

static _Thread_local struct ut_pool pools[UT_POOL_KIND_COUNT];
static _Thread_local uint64_t malloc_count;
static _Thread_local uint64_t reuse_count;
static _Thread_local bool exit_hook_set;

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static void
thread_exit_hook(void *unused)
{
	ut_frame_pool_trim();
}

static void
create_exit_key(void)
{
	if (pthread_key_create(&exit_key, thread_exit_hook) != 0)
		exit_key = (pthread_key_t)-1;
}

/* Make sure the calling thread's lists are freed when it exits. */
static void
register_thread(void)
{
	if (exit_hook_set)
		return;
	exit_hook_set = true;
	pthread_once(&exit_key_once, create_exit_key);
	if (exit_key != (pthread_key_t)-1)
		pthread_setspecific(exit_key, &exit_hook_set);
}

void *
ut_frame_malloc(size_t size)
{
	malloc_count++;
	return malloc(size);
}

void *
ut_frame_realloc(void *ptr, size_t size)
{
	malloc_count++;
	return realloc(ptr, size);
}

void *
ut_pool_get(enum ut_pool_kind kind, bool *recycled)
{
	struct ut_pool *pool = &pools[kind];
	void *object = pool->head;

	if (recycled)
		*recycled = object != NULL;
	if (object) {
		ut_unpoison(object, pool_object_size[kind]);
		pool->head = *(void **)object;
		pool->count--;
		reuse_count++;
		return object;
	}

	register_thread();
	return ut_frame_malloc(pool_object_size[kind]);
}

bool
ut_pool_put(enum ut_pool_kind kind, void *object)
{
	struct ut_pool *pool = &pools[kind];

	if (pool->count >= pool_limit[kind])
		return false;

	register_thread();
	*(void **)object = pool->head;
	pool->head = object;
	pool->count++;
	ut_poison((char *)object + sizeof(void *), pool_object_size[kind] - sizeof(void *));
	/* A cached frame keeps its grown touch array; LeakSanitizer does not
	 * follow pointers stored in poisoned memory. */
	if (kind == UT_POOL_FRAME) {
		struct UFFrame_ *frame = object;

		ut_unpoison(&frame->touches, sizeof(frame->touches));
	}
	return true;
}

void
ut_frame_pool_get_stats(struct ut_frame_pool_stats *stats)
{
	if (!stats)
		return;
	stats->mallocs = malloc_count;
	stats->reuses = reuse_count;
	for (int k = 0; k < UT_POOL_KIND_COUNT; k++)
		stats->cached[k] = pools[k].count;
}

uint64_t
ut_frame_pool_malloc_count(void)
{
	return malloc_count;
}

void
ut_frame_pool_trim(void)
{
	for (int k = 0; k < UT_POOL_KIND_COUNT; k++) {
		struct ut_pool *pool = &pools[k];

		while (pool->head) {
			void *object = pool->head;

			ut_unpoison(object, pool_object_size[k]);
			pool->head = *(void **)object;
			pool->count--;
			if (k == UT_POOL_FRAME) {
				struct UFFrame_ *frame = object;

				if (frame->touches != frame->inline_touches)
					free(frame->touches);
			}
			free(object);
		}
	}
}
