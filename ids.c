// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Object numbers handed out in turn. A number that is freed is not given
 * again until the search has gone round the whole range, as the E800
 * drivers number protection domains, address handles, memory keys and
 * multicast groups: a late event or completion that names an object gone
 * finds no newer object under its number, and the traces of a workload
 * number objects the same way under every driver.
 *
 * Each set is a bitmap sized once the function's limits are known; taking
 * and giving back a number allocates nothing (an IDA allocates its bitmap
 * chunks as numbers grow, and may leak one when that fails).
 */
#include <kunit/visibility.h>
#include <linux/bitmap.h>
#include <linux/slab.h>

#include "main.h"

/**
 * irdma_ids_init - a set of @size numbers, all free
 * @ids: the set
 * @size: how many numbers (0 to @size - 1)
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_ids_init(struct irdma_ids *ids, u32 size)
{
	spin_lock_init(&ids->lock);
	ids->next = 0;
	ids->size = size;
	ids->map = bitmap_zalloc(size, GFP_KERNEL);
	return ids->map ? 0 : -ENOMEM;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_ids_init);

/**
 * irdma_ids_destroy - forget every number
 * @ids: the set (initialized or zeroed)
 */
void irdma_ids_destroy(struct irdma_ids *ids)
{
	bitmap_free(ids->map);
	ids->map = NULL;
	ids->size = 0;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_ids_destroy);

/**
 * irdma_ids_alloc_from - the first free number at or after a start
 * @ids: the set
 * @min: the lowest number of the range
 * @max: the highest (beyond the set: its last)
 * @start: where the search starts (brought into the range); it wraps
 *	from @max to @min
 *
 * Context: any; takes the set's lock with interrupts off.
 * Return: the number, or -ENOSPC when the range is full.
 */
int irdma_ids_alloc_from(struct irdma_ids *ids, u32 min, u32 max, u32 start)
{
	unsigned long flags, id;
	int ret = -ENOSPC;

	if (!ids->size)
		return -ENOSPC;
	max = min(max, ids->size - 1);
	if (min > max)
		return -ENOSPC;
	if (start < min || start > max)
		start = min;
	spin_lock_irqsave(&ids->lock, flags);
	id = find_next_zero_bit(ids->map, max + 1, start);
	if (id > max) {
		id = find_next_zero_bit(ids->map, start, min);
		if (id >= start)
			id = max + 1;	/* none free */
	}
	if (id <= max) {
		__set_bit(id, ids->map);
		ret = id;
	}
	spin_unlock_irqrestore(&ids->lock, flags);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_ids_alloc_from);

/**
 * irdma_ids_alloc - the next free number after the last one given
 * @ids: the set
 * @min: the lowest number of the range
 * @max: the highest (beyond the set: its last)
 *
 * Context: any.
 * Return: the number, or -ENOSPC when the range is full.
 */
int irdma_ids_alloc(struct irdma_ids *ids, u32 min, u32 max)
{
	int id = irdma_ids_alloc_from(ids, min, max, READ_ONCE(ids->next));

	if (id >= 0)
		WRITE_ONCE(ids->next, (u32)id + 1);
	return id;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_ids_alloc);

/**
 * irdma_ids_free - give a number back
 * @ids: the set
 * @id: the number (one the set gave)
 */
void irdma_ids_free(struct irdma_ids *ids, u32 id)
{
	unsigned long flags;

	if (id >= ids->size)
		return;
	spin_lock_irqsave(&ids->lock, flags);
	__clear_bit(id, ids->map);
	spin_unlock_irqrestore(&ids->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_ids_free);
