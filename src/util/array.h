/*
 * Growable arrays: a pointer, a count and a capacity, kept by the owner in
 * whatever integer types suit it; this helper only grows the storage.
 *
 *	if (!UT_ARRAY_RESERVE(f->terms, f->cap, f->nterms + 1, 4))
 *		return -ENOMEM;
 *	f->terms[f->nterms++] = term;
 *
 * Header only (no state).
 */
#ifndef UTOUCH_UTIL_ARRAY_H
#define UTOUCH_UTIL_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/**
 * Storage for at least @p need elements of @p elem_size bytes: @p ptr
 * itself when @p *cap already suffices, else @p ptr reallocated to a
 * capacity that doubles from @p first (or from *cap) until it is enough,
 * with *cap updated.  NULL on overflow or when out of memory; @p ptr and
 * *cap are then unchanged and @p ptr is still valid.
 */
static inline void *
ut_array_grow(void *ptr, size_t *cap, size_t need, size_t elem_size, size_t first)
{
	size_t n = *cap ? *cap : (first ? first : 1);
	void *p;

	if (need <= *cap)
		return ptr;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return NULL;
		n *= 2;
	}
	if (elem_size && n > SIZE_MAX / elem_size)
		return NULL;
	p = realloc(ptr, n * elem_size);
	if (!p)
		return NULL;
	*cap = n;
	return p;
}

/**
 * Make the array @p ptr with capacity @p cap (lvalues of any pointer and
 * unsigned integer type) hold at least @p need elements, doubling from
 * @p first.  Evaluates to true on success; on failure (out of memory)
 * nothing changes.
 */
#define UT_ARRAY_RESERVE(ptr, cap, need, first) __extension__ ({ \
	size_t ut_cap_ = (cap), ut_need_ = (need); \
	bool ut_ok_ = ut_need_ <= ut_cap_; \
	if (!ut_ok_) { \
		void *ut_p_ = ut_array_grow((ptr), &ut_cap_, ut_need_, sizeof(*(ptr)), (first)); \
		if (ut_p_) { \
			(ptr) = ut_p_; \
			(cap) = ut_cap_; \
			ut_ok_ = true; \
		} \
	} \
	ut_ok_; })

#endif
