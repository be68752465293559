/*
 * Intrusive doubly-linked lists: a struct ut_list head, and a struct
 * ut_list member in every element.  An empty list (and an element that is
 * in no list) points to itself, so removal needs no head and removing
 * twice is harmless.
 *
 *	struct item { struct ut_list link; int value; };
 *	struct ut_list items;
 *	ut_list_init(&items);
 *	ut_list_insert_before(&items, &it->link);     (append)
 *	ut_list_for_each_safe(pos, tmp, &items) {
 *		struct item *it = ut_container_of(pos, struct item, link);
 *		...
 *	}
 *
 * Header only (no state).
 */
#ifndef UTOUCH_UTIL_LIST_H
#define UTOUCH_UTIL_LIST_H

#include <stdbool.h>
#include <stddef.h>

/** A list head, or the link of an element. */
struct ut_list {
	struct ut_list *prev, *next;
};

/** Make @p l an empty list (or an unlinked element). */
static inline void
ut_list_init(struct ut_list *l)
{
	l->prev = l->next = l;
}

/** Whether the list @p l is empty (or the element @p l is unlinked). */
static inline bool
ut_list_empty(const struct ut_list *l)
{
	return l->next == l;
}

/** Insert @p elm before @p pos; with the list head as @p pos, at the tail. */
static inline void
ut_list_insert_before(struct ut_list *pos, struct ut_list *elm)
{
	elm->next = pos;
	elm->prev = pos->prev;
	pos->prev->next = elm;
	pos->prev = elm;
}

/** Insert @p elm after @p pos; with the list head as @p pos, at the head. */
static inline void
ut_list_insert_after(struct ut_list *pos, struct ut_list *elm)
{
	ut_list_insert_before(pos->next, elm);
}

/** Unlink @p elm from its list and leave it pointing to itself. */
static inline void
ut_list_remove(struct ut_list *elm)
{
	elm->prev->next = elm->next;
	elm->next->prev = elm->prev;
	elm->prev = elm->next = elm;
}

/** The struct of type @p type whose member @p member is at @p ptr. */
#define ut_container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/** Iterate over the links of @p head; the body must not remove @p pos. */
#define ut_list_for_each(pos, head) \
	for (struct ut_list *pos = (head)->next; pos != (head); pos = pos->next)

/** Iterate over the links of @p head; the body may remove @p pos. */
#define ut_list_for_each_safe(pos, tmp, head) \
	for (struct ut_list *pos = (head)->next, *tmp = pos->next; pos != (head); \
	     pos = tmp, tmp = pos->next)

#endif
