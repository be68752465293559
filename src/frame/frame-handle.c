/*
 * UFHandle: a queue of events with an eventfd that is readable while the
 * queue is not empty.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "frame/frame-private.h"

#define QUEUE_INITIAL_CAPACITY 32u

struct UFHandle_ {
	int fd;
	UFEvent *ring;
	unsigned int capacity; /* a power of two */
	unsigned int head;     /* index of the oldest event */
	unsigned int count;
};

static void
fd_signal(int fd)
{
	uint64_t one = 1;
	ssize_t rc;

	do {
		rc = write(fd, &one, sizeof(one));
	} while (rc < 0 && errno == EINTR);
	/* EAGAIN means the counter is saturated: it is readable anyway. */
}

static void
fd_clear(int fd)
{
	uint64_t value;
	ssize_t rc;

	do {
		rc = read(fd, &value, sizeof(value));
	} while (rc < 0 && errno == EINTR);
}

FRAME_PUBLIC UFStatus
utouch_frame_handle_new(UFHandle *out)
{
	struct UFHandle_ *handle;

	if (UT_CLIENT_BUG_IF(NULL, !out))
		return UFStatusErrorGeneric;
	*out = NULL;
	handle = calloc(1, sizeof(*handle));
	if (!handle)
		return UFStatusErrorResources;
	handle->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (handle->fd < 0) {
		free(handle);
		return UFStatusErrorResources;
	}
	*out = handle;
	return UFStatusSuccess;
}

FRAME_PUBLIC void
utouch_frame_handle_delete(UFHandle handle)
{
	if (!handle)
		return;
	for (unsigned int i = 0; i < handle->count; i++)
		frame_event_unref(handle->ring[(handle->head + i) & (handle->capacity - 1)]);
	free(handle->ring);
	close(handle->fd);
	free(handle);
}

static bool
queue_grow(struct UFHandle_ *handle)
{
	unsigned int capacity = handle->capacity ? handle->capacity * 2 : QUEUE_INITIAL_CAPACITY;
	UFEvent *ring;

	if (capacity < handle->capacity)
		return false;
	ring = ut_frame_malloc(capacity * sizeof(*ring));
	if (!ring)
		return false;
	/* Unwrap the old ring so that the oldest event lands at index 0. */
	for (unsigned int i = 0; i < handle->count; i++)
		ring[i] = handle->ring[(handle->head + i) & (handle->capacity - 1)];
	free(handle->ring);
	handle->ring = ring;
	handle->capacity = capacity;
	handle->head = 0;
	return true;
}

FRAME_PUBLIC UFStatus
utouch_frame_handle_push(UFHandle handle, UFEvent event)
{
	if (UT_CLIENT_BUG_IF(NULL, !handle || !event))
		return UFStatusErrorGeneric;
	if (handle->count == handle->capacity && !queue_grow(handle))
		return UFStatusErrorResources;
	frame_event_ref(event);
	handle->ring[(handle->head + handle->count) & (handle->capacity - 1)] = event;
	handle->count++;
	fd_signal(handle->fd);
	return UFStatusSuccess;
}

FRAME_PUBLIC unsigned int
utouch_frame_handle_get_queue_length(UFHandle handle)
{
	return UT_CLIENT_BUG_IF(NULL, !handle) ? 0 : handle->count;
}

FRAME_PUBLIC int
frame_get_fd(UFHandle handle)
{
	return UT_CLIENT_BUG_IF(NULL, !handle) ? -1 : handle->fd;
}

FRAME_PUBLIC UFStatus
frame_get_event(UFHandle handle, UFEvent *event)
{
	if (UT_CLIENT_BUG_IF(NULL, !handle || !event))
		return UFStatusErrorGeneric;
	/* The fd is readable exactly while the queue is not empty, even if
	 * the caller read the fd itself: taking the last event clears it, and
	 * taking one of several writes it again (one system call either way;
	 * an empty queue's fd is clear already). */
	if (handle->count == 0)
		return UFStatusErrorNoEvent;
	*event = handle->ring[handle->head];
	handle->head = (handle->head + 1) & (handle->capacity - 1);
	handle->count--;
	if (handle->count > 0)
		fd_signal(handle->fd);
	else
		fd_clear(handle->fd);
	return UFStatusSuccess;
}
