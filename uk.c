// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue-level arithmetic of the data path: ring indices and the sizing of
 * send and receive queues in WQE quanta, in the formats rdma-core's irdma
 * provider uses for the same hardware.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/log2.h>
#include <linux/minmax.h>

#include "uk.h"

/**
 * irdma_ring_produce - claim slots at the head of a ring
 * @ring: the ring
 * @count: slots to claim
 * @spare: slots that must stay free beyond the claimed ones
 * @first: returns the index of the first claimed slot
 *
 * Return: 0, or -ENOSPC when fewer than @count + @spare slots are free;
 * the ring is unchanged on error.
 */
int irdma_ring_produce(struct irdma_ring *ring, u32 count, u32 spare,
		       u32 *first)
{
	u32 avail = irdma_ring_free(ring);

	if (count > avail || spare > avail - count)
		return -ENOSPC;

	*first = ring->head;
	ring->head += count;
	if (ring->head >= ring->size)
		ring->head -= ring->size;
	return 0;
}

/**
 * irdma_ring_consume - release slots at the tail of a ring
 * @ring: the ring
 * @count: slots to release
 *
 * Return: 0, or -EINVAL when fewer than @count slots are in use; the ring
 * is unchanged on error.
 */
int irdma_ring_consume(struct irdma_ring *ring, u32 count)
{
	if (count > irdma_ring_used(ring))
		return -EINVAL;

	ring->tail += count;
	if (ring->tail >= ring->size)
		ring->tail -= ring->size;
	return 0;
}

/**
 * irdma_wqe_shift - WQE size for a queue, as a power of two of quanta
 * @attrs: limits of the hardware generation
 * @sges: scatter/gather entries the largest WQE carries
 * @inline_bytes: inline bytes the largest WQE carries
 *
 * A WQE of 2^shift quanta holds the first quantum's header fields plus
 * the rest as fragments or inline bytes.
 *
 * Return: the shift, 0 to 3 (GEN_2) or 0 to 2 (GEN_1).
 */
u8 irdma_wqe_shift(const struct irdma_uk_attrs *attrs, u32 sges,
		   u32 inline_bytes)
{
	if (attrs->hw_rev == IRDMA_GEN_1) {
		if (sges <= 1 && inline_bytes <= 16)
			return 0;
		return (sges <= 3 && inline_bytes <= 48) ? 1 : 2;
	}

	if (sges <= 1 && inline_bytes <= 8)
		return 0;
	if (sges <= 3 && inline_bytes <= 39)
		return 1;
	if (sges <= 7 && inline_bytes <= 101)
		return 2;
	return 3;
}

static int irdma_wq_depth(u32 wrs, u8 shift, u32 reserved, u32 min_wqes,
			  u32 max_quanta, u32 *depth)
{
	u64 quanta = ((u64)wrs << shift) + reserved;
	u32 min_quanta = min_wqes << shift;

	if (quanta > max_quanta)
		return -EINVAL;

	*depth = max_t(u32, roundup_pow_of_two(quanta), min_quanta);
	if (*depth > max_quanta)
		return -EINVAL;
	return 0;
}

/**
 * irdma_sq_depth - send queue depth in quanta for a number of requests
 * @attrs: limits of the hardware generation
 * @wrs: work requests the queue must hold
 * @shift: WQE size from irdma_wqe_shift()
 * @depth: returns the depth, a power of two
 *
 * Return: 0, or -EINVAL when the queue would exceed the hardware limit.
 */
int irdma_sq_depth(const struct irdma_uk_attrs *attrs, u32 wrs, u8 shift,
		   u32 *depth)
{
	return irdma_wq_depth(wrs, shift, IRDMA_SQ_RSVD, attrs->min_hw_wq_size,
			      attrs->max_hw_wq_quanta, depth);
}

/**
 * irdma_rq_depth - receive queue depth in quanta for a number of requests
 * @attrs: limits of the hardware generation
 * @wrs: work requests the queue must hold
 * @shift: WQE size from irdma_wqe_shift()
 * @depth: returns the depth, a power of two
 *
 * Return: 0, or -EINVAL when the queue would exceed the hardware limit.
 */
int irdma_rq_depth(const struct irdma_uk_attrs *attrs, u32 wrs, u8 shift,
		   u32 *depth)
{
	return irdma_wq_depth(wrs, shift, IRDMA_RQ_RSVD, attrs->min_hw_wq_size,
			      attrs->max_hw_rq_quanta, depth);
}

/**
 * irdma_sq_frags_to_quanta - quanta a send WQE with fragments occupies
 * @frags: number of fragments (immediate data counts as one)
 * @quanta: returns the quanta
 *
 * The first quantum holds one fragment, each further one holds two.
 *
 * Return: 0, or -EINVAL for more fragments than a WQE can carry.
 */
int irdma_sq_frags_to_quanta(u32 frags, u16 *quanta)
{
	if (frags > 2 * IRDMA_MAX_QUANTA_PER_WR - 1)
		return -EINVAL;

	*quanta = frags / 2 + 1;
	return 0;
}

/**
 * irdma_inline_to_quanta - quanta a send WQE with inline data occupies
 * @gen: hardware generation
 * @bytes: inline bytes, at most the generation's limit
 *
 * GEN_2 keeps 8 bytes in the first quantum and 31 in each further one
 * (the last byte of a quantum is its valid byte). GEN_1 takes 16 bytes in
 * one quantum and up to its limit in two.
 *
 * Return: the quanta.
 */
u16 irdma_inline_to_quanta(enum irdma_hw_gen gen, u32 bytes)
{
	if (gen == IRDMA_GEN_1)
		return bytes <= 16 ? 1 : 2;

	if (bytes <= 8)
		return 1;
	return min_t(u32, 2 + (bytes - 9) / 31, IRDMA_MAX_QUANTA_PER_WR);
}
