// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue-level arithmetic of the data path: ring indices and the sizing of
 * send and receive queues in WQE quanta, in the formats rdma-core's irdma
 * provider uses for the same hardware.
 */
#include <linux/bitfield.h>
#include <linux/errno.h>
#include <linux/etherdevice.h>
#include <linux/export.h>
#include <linux/log2.h>
#include <linux/io.h>
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

/**
 * irdma_uk_cq_init - start consuming a fresh completion ring
 * @cq: the CQ
 * @ring: its slots, zeroed
 * @size: slots in @ring
 * @shadow: its shadow area
 * @id: CQ number
 * @arm_db: the CQARM register
 */
void irdma_uk_cq_init(struct irdma_uk_cq *cq, void *ring, u32 size,
		      __le64 *shadow, u32 id, u32 __iomem *arm_db)
{
	cq->ring = ring;
	cq->size = size;
	cq->head = 0;
	cq->polarity = true;
	cq->shadow = shadow;
	cq->id = id;
	cq->arm_db = arm_db;
}

static __le64 *irdma_uk_cq_slot(const struct irdma_uk_cq *cq, u32 idx)
{
	return cq->ring + (size_t)idx * (IRDMA_CQE_SIZE / 8);
}

/* The extension lives in the next slot; past the ring's end the pass flips. */
static bool irdma_uk_cq_ext_ready(const struct irdma_uk_cq *cq, u32 idx,
				  u64 *ext)
{
	__le64 *slot;
	bool polarity = cq->polarity;
	int i;

	if (++idx == cq->size) {
		idx = 0;
		polarity = !polarity;
	}
	slot = irdma_uk_cq_slot(cq, idx);
	ext[3] = le64_to_cpu(READ_ONCE(slot[3]));
	if (!!(ext[3] & IRDMA_CQE_VALID) != polarity)
		return false;
	dma_rmb();
	for (i = 0; i < 3; i++)
		ext[i] = le64_to_cpu(slot[i]);
	return true;
}

/**
 * irdma_uk_cq_peek - decode the completion at the head of the ring
 * @cq: the CQ
 * @info: the completion
 *
 * The completion stays in the ring until irdma_uk_cq_advance().
 *
 * Return: 0, or -ENOENT when no (complete) completion is there.
 */
int irdma_uk_cq_peek(const struct irdma_uk_cq *cq, struct irdma_cqe_info *info)
{
	__le64 *cqe = irdma_uk_cq_slot(cq, cq->head);
	u64 q0, q2, q3, ext[4];

	q3 = le64_to_cpu(READ_ONCE(cqe[3]));
	if (!!(q3 & IRDMA_CQE_VALID) != cq->polarity)
		return -ENOENT;
	/* The rest of the CQE was written before its valid bit. */
	dma_rmb();
	q0 = le64_to_cpu(cqe[0]);
	q2 = le64_to_cpu(cqe[2]);

	memset(info, 0, sizeof(*info));
	info->slots = 1;
	if (q3 & IRDMA_CQE_EXTENDED) {
		if (!irdma_uk_cq_ext_ready(cq, cq->head, ext))
			return -ENOENT;
		info->slots = 2;
		info->imm_valid = !!(ext[3] & IRDMA_CQE_EXT_IMMVALID);
		info->imm = FIELD_GET(IRDMA_CQE_EXT_IMMDATA, ext[0]);
		info->smac_valid = !!(ext[3] & IRDMA_CQE_EXT_UDSMACVALID);
		if (info->smac_valid)
			u64_to_ether_addr(FIELD_GET(IRDMA_CQE_EXT_UDSMAC, ext[2]),
					  info->smac);
		info->vlan_valid = !!(ext[3] & IRDMA_CQE_EXT_UDVLANVALID);
		info->vlan = FIELD_GET(IRDMA_CQE_EXT_UDVLAN, ext[2]);
	}
	info->qp_ctx = le64_to_cpu(cqe[1]);
	info->bytes = FIELD_GET(IRDMA_CQE_PAYLDLEN, q0);
	info->stag_or_src_qp = FIELD_GET(IRDMA_CQE_INVSTAG, q2);
	info->qp_id = FIELD_GET(IRDMA_CQE_QPID, q2);
	info->major = FIELD_GET(IRDMA_CQE_MAJERR, q3);
	info->minor = FIELD_GET(IRDMA_CQE_MINERR, q3);
	info->wqe_idx = FIELD_GET(IRDMA_CQE_WQEIDX, q3);
	info->error = !!(q3 & IRDMA_CQE_ERROR);
	info->stag_valid = !!(q3 & IRDMA_CQE_STAG);
	info->ipv4 = !!(q3 & IRDMA_CQE_IPV4);
	info->solicited = !!(q3 & IRDMA_CQE_SOEVENT);
	info->is_sq = !!(q3 & IRDMA_CQE_SQ);
	info->op = FIELD_GET(IRDMA_CQE_OPTYPE, q3);
	return 0;
}

/**
 * irdma_uk_cq_advance - release completions to the hardware
 * @cq: the CQ
 * @slots: ring slots to release
 *
 * The new consumer index goes to the shadow area, where the hardware
 * looks before it writes into a slot.
 */
void irdma_uk_cq_advance(struct irdma_uk_cq *cq, u32 slots)
{
	while (slots--) {
		if (++cq->head == cq->size) {
			cq->head = 0;
			cq->polarity = !cq->polarity;
		}
	}
	WRITE_ONCE(cq->shadow[0], cpu_to_le64(cq->head));
}

/**
 * irdma_uk_cq_reuse - make the head flush completion name the next WQE
 * @cq: the CQ
 * @wqe_idx: the index the completion names from now on
 *
 * A flush completion stands for every WQE its queue still holds; the
 * consumer walks it through them one at a time. The first WQE carries the
 * error that stopped the queue, the others a plain flush.
 */
void irdma_uk_cq_reuse(struct irdma_uk_cq *cq, u32 wqe_idx)
{
	__le64 *cqe = irdma_uk_cq_slot(cq, cq->head);
	u64 q3 = le64_to_cpu(cqe[3]);

	q3 &= ~(IRDMA_CQE_WQEIDX | IRDMA_CQE_MINERR);
	q3 |= FIELD_PREP(IRDMA_CQE_WQEIDX, wqe_idx) |
	      FIELD_PREP(IRDMA_CQE_MINERR, IRDMA_FLUSH_GENERAL_ERR);
	cqe[3] = cpu_to_le64(q3);
}

/**
 * irdma_uk_cq_arm - ask for an event at the next (solicited) completion
 * @cq: the CQ
 * @solicited_only: only a solicited completion is to raise the event
 */
void irdma_uk_cq_arm(struct irdma_uk_cq *cq, bool solicited_only)
{
	u64 arm = le64_to_cpu(READ_ONCE(cq->shadow[4]));
	u8 seq = FIELD_GET(IRDMA_CQ_DBSA_ARM_SEQ_NUM, arm) + 1;

	arm &= IRDMA_CQ_DBSA_SW_CQ_SELECT;
	arm |= FIELD_PREP(IRDMA_CQ_DBSA_ARM_SEQ_NUM, seq) |
	       IRDMA_CQ_DBSA_ARM_NEXT_SE;
	if (!solicited_only)
		arm |= IRDMA_CQ_DBSA_ARM_NEXT;
	WRITE_ONCE(cq->shadow[4], cpu_to_le64(arm));
	dma_wmb();
	writel(cq->id, cq->arm_db);
}

/**
 * irdma_uk_cq_add_resized - tell the hardware old rings were let go
 * @cq: the CQ
 * @count: old rings freed since the last report
 */
void irdma_uk_cq_add_resized(struct irdma_uk_cq *cq, u32 count)
{
	u64 arm = le64_to_cpu(READ_ONCE(cq->shadow[4]));
	u32 sel = FIELD_GET(IRDMA_CQ_DBSA_SW_CQ_SELECT, arm) + count;

	arm &= ~IRDMA_CQ_DBSA_SW_CQ_SELECT;
	arm |= FIELD_PREP(IRDMA_CQ_DBSA_SW_CQ_SELECT, sel);
	WRITE_ONCE(cq->shadow[4], cpu_to_le64(arm));
}

/**
 * irdma_uk_cq_clean - disown a QP's completions still in the ring
 * @cq: the CQ
 * @qp_ctx: the QP's completion context
 *
 * Their context becomes 0, which consumers skip: the QP is going away.
 */
void irdma_uk_cq_clean(struct irdma_uk_cq *cq, u64 qp_ctx)
{
	bool polarity = cq->polarity;
	u32 idx = cq->head;
	u32 seen;

	for (seen = 0; seen < cq->size; seen++) {
		__le64 *cqe = irdma_uk_cq_slot(cq, idx);
		u64 q3 = le64_to_cpu(READ_ONCE(cqe[3]));

		if (!!(q3 & IRDMA_CQE_VALID) != polarity)
			break;
		if (le64_to_cpu(cqe[1]) == qp_ctx)
			cqe[1] = 0;
		if (++idx == cq->size) {
			idx = 0;
			polarity = !polarity;
		}
	}
}
