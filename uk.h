/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Queue-level definitions shared by the kernel data path: ring
 * bookkeeping and work queue sizing. Nothing here knows about ib_core.
 */
#ifndef IRDMA_UK_H
#define IRDMA_UK_H

#include <linux/types.h>

#include "hwdefs.h"

/**
 * struct irdma_ring - producer/consumer indices of a circular queue
 * @head: next slot the producer fills
 * @tail: next slot the consumer takes
 * @size: number of slots; one always stays empty to tell full from empty
 */
struct irdma_ring {
	u32 head;
	u32 tail;
	u32 size;
};

/**
 * struct irdma_uk_attrs - queue limits of one hardware generation
 * @hw_rev: generation of the engine
 * @max_hw_wq_frags: scatter/gather entries a send or receive WQE takes
 * @max_hw_read_sges: scatter entries an RDMA read takes
 * @max_hw_inline: bytes of inline data a send WQE takes
 * @max_hw_rq_quanta: largest receive queue, in quanta
 * @max_hw_wq_quanta: largest send queue, in quanta
 * @max_hw_sq_chunk: quanta one work request may use
 * @min_hw_wq_size: smallest work queue, in WQEs
 * @min_hw_cq_size: smallest completion queue, in CQEs
 * @max_hw_cq_size: largest completion queue, in CQEs
 */
struct irdma_uk_attrs {
	enum irdma_hw_gen hw_rev;
	u32 max_hw_wq_frags;
	u32 max_hw_read_sges;
	u32 max_hw_inline;
	u32 max_hw_rq_quanta;
	u32 max_hw_wq_quanta;
	u32 max_hw_sq_chunk;
	u32 min_hw_wq_size;
	u32 min_hw_cq_size;
	u32 max_hw_cq_size;
};

static inline void irdma_ring_init(struct irdma_ring *ring, u32 size)
{
	ring->head = 0;
	ring->tail = 0;
	ring->size = size;
}

static inline u32 irdma_ring_used(const struct irdma_ring *ring)
{
	return ring->head >= ring->tail ? ring->head - ring->tail :
					  ring->size - ring->tail + ring->head;
}

static inline u32 irdma_ring_free(const struct irdma_ring *ring)
{
	return ring->size - 1 - irdma_ring_used(ring);
}

static inline bool irdma_ring_empty(const struct irdma_ring *ring)
{
	return ring->head == ring->tail;
}

int irdma_ring_produce(struct irdma_ring *ring, u32 count, u32 spare,
		       u32 *first);
int irdma_ring_consume(struct irdma_ring *ring, u32 count);

u8 irdma_wqe_shift(const struct irdma_uk_attrs *attrs, u32 sges,
		   u32 inline_bytes);
int irdma_sq_depth(const struct irdma_uk_attrs *attrs, u32 wrs, u8 shift,
		   u32 *depth);
int irdma_rq_depth(const struct irdma_uk_attrs *attrs, u32 wrs, u8 shift,
		   u32 *depth);
int irdma_sq_frags_to_quanta(u32 frags, u16 *quanta);
u16 irdma_inline_to_quanta(enum irdma_hw_gen gen, u32 bytes);

#endif /* IRDMA_UK_H */
