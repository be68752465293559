/*
 * Growing arrays: capacity doubles, so appending is amortised O(1) and a
 * buffer that reached its working size never allocates again.
 */
#ifndef UTOUCH_UTIL_GROW_H
#define UTOUCH_UTIL_GROW_H

#include <errno.h>
#include <stdlib.h>

/**
 * Make *p (an array of *cap elements of @p size bytes) hold at least
 * @p need elements; the first growth gives @p first elements.  Returns 0,
 * or -ENOMEM with *p and *cap unchanged.
 */
static inline int
ut_grow(void **p, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t n;
	void *q;

	if (need <= *cap)
		return 0;
	n = *cap ? *cap * 2 : first;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

#endif
