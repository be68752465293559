/*
 * Bounded per-thread free lists for the frame library objects.
 */
#include <pthread.h>
#include <stdlib.h>

#include "frame/frame-private.h"

_Thread_local struct ut_pool_state ut_pool_state UT_POOL_TLS;
static _Thread_local uint64_t malloc_count UT_POOL_TLS;

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
	if (ut_pool_state.exit_hook_set)
		return;
	ut_pool_state.exit_hook_set = true;
	/* the lists are empty: nothing is put back before this */
	for (int k = 0; k < UT_POOL_KIND_COUNT; k++)
		ut_pool_state.pools[k].room = ut_pool_limit((enum ut_pool_kind)k);
	pthread_once(&exit_key_once, create_exit_key);
	if (exit_key != (pthread_key_t)-1)
		pthread_setspecific(exit_key, &ut_pool_state);
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
ut_pool_get_slow(enum ut_pool_kind kind, bool *recycled)
{
	struct ut_pool *pool = &ut_pool_state.pools[kind];

	if (pool->head)
		return ut_pool_get(kind, recycled);
	if (recycled)
		*recycled = false;
	register_thread();
	return ut_frame_malloc(ut_pool_object_size(kind));
}

bool
ut_pool_put_slow(enum ut_pool_kind kind, void *object)
{
	if (ut_pool_state.exit_hook_set)
		return false; /* the list is full */
	register_thread();
	return ut_pool_put(kind, object);
}

void
ut_frame_pool_get_stats(struct ut_frame_pool_stats *stats)
{
	if (!stats)
		return;
	stats->mallocs = malloc_count;
	stats->reuses = ut_pool_state.reuses;
	for (int k = 0; k < UT_POOL_KIND_COUNT; k++)
		stats->cached[k] = ut_pool_state.exit_hook_set
					   ? ut_pool_limit((enum ut_pool_kind)k) -
						     ut_pool_state.pools[k].room
					   : 0;
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
		struct ut_pool *pool = &ut_pool_state.pools[k];

		while (pool->head) {
			void *object = pool->head;

			ut_unpoison(object, ut_pool_object_size((enum ut_pool_kind)k));
			pool->head = *(void **)object;
			pool->room++;
			if (k == UT_POOL_FRAME) {
				struct UFFrame_ *frame = object;

				if (frame->touches != frame->inline_touches)
					free(frame->touches);
			}
			free(object);
		}
	}
}
