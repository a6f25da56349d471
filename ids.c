// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Object numbers handed out in turn. A number that is freed is not given
 * again until the search has gone round the whole range, as the E800
 * drivers number protection domains, address handles and multicast
 * groups: a late event or completion that names an object gone finds no
 * newer object under its number, and the traces of a workload number
 * objects the same way under every driver.
 */
#include <linux/minmax.h>

#include "main.h"

/**
 * irdma_ids_init - an empty set of numbers
 * @ids: the set
 */
void irdma_ids_init(struct irdma_ids *ids)
{
	ida_init(&ids->ida);
	ids->next = 0;
}

/**
 * irdma_ids_destroy - forget every number
 * @ids: the set
 */
void irdma_ids_destroy(struct irdma_ids *ids)
{
	ida_destroy(&ids->ida);
}

/**
 * irdma_ids_alloc_from - the first free number at or after a start
 * @ids: the set
 * @min: the lowest number of the range
 * @max: the highest
 * @start: where the search starts (brought into the range); it wraps
 *	from @max to @min
 * @gfp: allocation context
 *
 * Return: the number, -ENOSPC when the range is full, or -ENOMEM.
 */
int irdma_ids_alloc_from(struct irdma_ids *ids, u32 min, u32 max, u32 start,
			 gfp_t gfp)
{
	int id;

	if (min > max)
		return -ENOSPC;
	if (start < min || start > max)
		start = min;
	id = ida_alloc_range(&ids->ida, start, max, gfp);
	if (id == -ENOSPC && start > min)
		id = ida_alloc_range(&ids->ida, min, start - 1, gfp);
	return id;
}

/**
 * irdma_ids_alloc - the next free number after the last one given
 * @ids: the set
 * @min: the lowest number of the range
 * @max: the highest
 * @gfp: allocation context
 *
 * Concurrent callers may start from the same place; each still gets a
 * number of its own.
 *
 * Return: the number, -ENOSPC when the range is full, or -ENOMEM.
 */
int irdma_ids_alloc(struct irdma_ids *ids, u32 min, u32 max, gfp_t gfp)
{
	int id = irdma_ids_alloc_from(ids, min, max, READ_ONCE(ids->next), gfp);

	if (id >= 0)
		WRITE_ONCE(ids->next, (u32)id + 1);
	return id;
}

/**
 * irdma_ids_free - give a number back
 * @ids: the set
 * @id: the number
 */
void irdma_ids_free(struct irdma_ids *ids, u32 id)
{
	ida_free(&ids->ida, id);
}
