// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue-level arithmetic of the data path: ring indices and the sizing of
 * send and receive queues in WQE quanta, in the formats rdma-core's irdma
 * provider uses for the same hardware.
 */
#include <kunit/visibility.h>
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
EXPORT_SYMBOL_IF_KUNIT(irdma_ring_produce);

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
EXPORT_SYMBOL_IF_KUNIT(irdma_ring_consume);

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
EXPORT_SYMBOL_IF_KUNIT(irdma_wqe_shift);

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
EXPORT_SYMBOL_IF_KUNIT(irdma_sq_depth);

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
EXPORT_SYMBOL_IF_KUNIT(irdma_rq_depth);

/**
 * irdma_srq_depth - shared receive queue depth in quanta
 * @attrs: limits of the hardware generation
 * @wrs: work requests the queue must hold
 * @shift: WQE size from irdma_wqe_shift()
 * @depth: returns the depth, a power of two
 *
 * Return: 0, or -EINVAL when the queue would exceed the hardware limit.
 */
int irdma_srq_depth(const struct irdma_uk_attrs *attrs, u32 wrs, u8 shift,
		    u32 *depth)
{
	return irdma_wq_depth(wrs, shift, IRDMA_RQ_RSVD, attrs->min_hw_wq_size,
			      attrs->max_hw_srq_quanta, depth);
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
EXPORT_SYMBOL_IF_KUNIT(irdma_sq_frags_to_quanta);

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
EXPORT_SYMBOL_IF_KUNIT(irdma_inline_to_quanta);

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
	cq->srq_cqes = false;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_uk_cq_init);

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
	info->srq = cq->srq_cqes && !info->is_sq && (q3 & IRDMA_CQE_SRQ);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_uk_cq_peek);

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
 * @qp_id: the QP's number
 *
 * Their context becomes 0, which consumers skip: the QP is going away.
 * Completions from a shared receive queue carry the consumer's id where
 * others carry the QP's context, and are recognised by the QP number.
 *
 * Return: how many of them took a WQE from a shared receive queue.
 */
u32 irdma_uk_cq_clean(struct irdma_uk_cq *cq, u64 qp_ctx, u32 qp_id)
{
	bool polarity = cq->polarity;
	u32 idx = cq->head;
	u32 seen, srq_wqes = 0;

	for (seen = 0; seen < cq->size; seen++) {
		__le64 *cqe = irdma_uk_cq_slot(cq, idx);
		u64 q3 = le64_to_cpu(READ_ONCE(cqe[3]));

		if (!!(q3 & IRDMA_CQE_VALID) != polarity)
			break;
		if (cq->srq_cqes && (q3 & IRDMA_CQE_SRQ) && !(q3 & IRDMA_CQE_SQ)) {
			if (FIELD_GET(IRDMA_CQE_QPID, le64_to_cpu(cqe[2])) == qp_id) {
				cqe[3] = cpu_to_le64(q3 & ~IRDMA_CQE_SRQ);
				cqe[1] = 0;
				srq_wqes++;
			}
		} else if (le64_to_cpu(cqe[1]) == qp_ctx) {
			cqe[1] = 0;
		}
		if (++idx == cq->size) {
			idx = 0;
			polarity = !polarity;
		}
	}
	return srq_wqes;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_uk_cq_clean);

/* SQ quanta kept free beyond a WQE, so the hardware never sees a full ring. */
#define IRDMA_SQ_SPARE		(IRDMA_SQ_RSVD - 2)

/**
 * irdma_uk_qp_init - start producing into fresh (zeroed) work queues
 * @qp: the QP, its rings and sizes set
 *
 * The first pass over each ring writes valid bit 1: the polarity flips at
 * index 0, so it starts at 0.
 */
void irdma_uk_qp_init(struct irdma_uk_qp *qp)
{
	qp->sq_ring.head = 0;
	qp->sq_ring.tail = 0;
	qp->sq_polarity = false;
	qp->rq_ring.head = 0;
	qp->rq_ring.tail = 0;
	qp->rq_polarity = false;
	qp->db_head = 0;
}

/**
 * irdma_uk_qp_conn_wqes - leave an iWARP QP's first SQ quanta to its
 *	connection manager
 * @qp: the QP, just initialized
 * @count: the quanta its connection's WQEs take
 *
 * The manager writes them with valid bit 1 at the hand-over; the
 * consumer's WQEs follow on the same first pass.
 */
void irdma_uk_qp_conn_wqes(struct irdma_uk_qp *qp, u32 count)
{
	qp->sq_ring.head = count;
	qp->sq_ring.tail = count;
	qp->db_head = count;
	qp->sq_polarity = true;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_uk_qp_conn_wqes);

static __le64 *irdma_sq_quantum(struct irdma_uk_qp *qp, u32 idx)
{
	return qp->sq + (size_t)idx * (IRDMA_WQE_QUANTUM_SIZE / 8);
}

/* A one-quantum NOP that fills the SQ up to the next chunk boundary. */
static void irdma_sq_pad(struct irdma_uk_qp *qp, u32 idx)
{
	__le64 *wqe = irdma_sq_quantum(qp, idx);

	qp->sq_wr[idx] = (struct irdma_sq_wr) {
		.op = IRDMA_WQEOP_NOP,
		.quanta = 1,
	};
	wqe[0] = 0;
	wqe[1] = 0;
	wqe[2] = 0;
	dma_wmb();
	WRITE_ONCE(wqe[3], cpu_to_le64(FIELD_PREP(IRDMA_WQE_OPCODE, IRDMA_WQEOP_NOP) |
				       FIELD_PREP(IRDMA_WQE_VALID, qp->sq_polarity)));
}

/*
 * Claim @quanta SQ quanta for a WQE. A WQE never crosses a chunk of
 * IRDMA_MAX_QUANTA_PER_WR quanta: the rest of the chunk is padded first.
 */
static int irdma_sq_reserve(struct irdma_uk_qp *qp, u16 quanta, u32 *idx)
{
	struct irdma_ring *ring = &qp->sq_ring;
	u32 room = IRDMA_MAX_QUANTA_PER_WR - ring->head % IRDMA_MAX_QUANTA_PER_WR;
	u32 pad = quanta > room ? room : 0;
	u32 first, i;

	if (irdma_ring_free(ring) < quanta + pad + IRDMA_SQ_SPARE)
		return -ENOMEM;
	for (i = 0; i < pad; i++) {
		irdma_ring_produce(ring, 1, 0, &first);
		irdma_sq_pad(qp, first);
	}
	irdma_ring_produce(ring, quanta, 0, idx);
	if (!*idx)
		qp->sq_polarity = !qp->sq_polarity;
	return 0;
}

static void irdma_set_frag(__le64 *at, const struct irdma_sge *sge, bool valid)
{
	at[0] = cpu_to_le64(sge ? sge->addr : 0);
	at[1] = cpu_to_le64((sge ? FIELD_PREP(IRDMA_WQE_FRAG_STAG, sge->stag) |
			     FIELD_PREP(IRDMA_WQE_FRAG_LEN, sge->len) : 0) |
			    FIELD_PREP(IRDMA_WQE_FRAG_VALID, valid));
}

/* Fragment slot @k of a WQE: slot 0 opens quantum 0, the rest follow it. */
static __le64 *irdma_frag_slot(__le64 *wqe, u32 k)
{
	return k ? wqe + 4 + 2 * (k - 1) : wqe;
}

/*
 * Write @sg from slot @first on; an even number of used slots gets a null
 * fragment so the last quantum's valid bit is set.
 *
 * Return: the ADDFRAGCNT of the WQE.
 */
static u32 irdma_write_frags(__le64 *wqe, u32 first,
			     const struct irdma_sge *sg, u32 num_sg,
			     bool polarity)
{
	u32 slots = first + num_sg, i;

	for (i = 0; i < num_sg; i++)
		irdma_set_frag(irdma_frag_slot(wqe, first + i), &sg[i], polarity);
	if (!slots && !first)
		irdma_set_frag(wqe, NULL, polarity);
	if (slots && !(slots & 1)) {
		irdma_set_frag(irdma_frag_slot(wqe, slots), NULL, polarity);
		return slots;
	}
	return slots ? slots - 1 : 0;
}

/* Inline data: 8 bytes in quantum 0, then 31 per quantum and a valid byte. */
static void irdma_write_inline(__le64 *wqe, const struct irdma_sge *sg,
			       u32 num_sg, bool polarity)
{
	u8 *q0 = (u8 *)&wqe[1];
	u8 *dst = (u8 *)wqe + IRDMA_WQE_QUANTUM_SIZE;
	u8 valid = polarity ? IRDMA_WQE_INLINE_VALID_BYTE : 0;
	u32 pos = 0, i, n;

	for (i = 0; i < num_sg; i++) {
		const u8 *src = (const u8 *)(uintptr_t)sg[i].addr;

		for (n = 0; n < sg[i].len; n++, pos++) {
			u32 past;

			if (pos < IRDMA_WQE_INLINE_IN_QUANTUM0) {
				q0[pos] = src[n];
				continue;
			}
			past = pos - IRDMA_WQE_INLINE_IN_QUANTUM0;
			dst[past / IRDMA_WQE_INLINE_PER_QUANTUM * IRDMA_WQE_QUANTUM_SIZE +
			    past % IRDMA_WQE_INLINE_PER_QUANTUM] = src[n];
		}
	}
	/* Every quantum past the first ends in its valid byte. */
	if (pos > IRDMA_WQE_INLINE_IN_QUANTUM0) {
		u32 extra = DIV_ROUND_UP(pos - IRDMA_WQE_INLINE_IN_QUANTUM0,
					 IRDMA_WQE_INLINE_PER_QUANTUM);

		for (i = 0; i < extra; i++)
			dst[i * IRDMA_WQE_QUANTUM_SIZE +
			    IRDMA_WQE_QUANTUM_SIZE - 1] = valid;
	}
}

static u64 irdma_sq_hdr(const struct irdma_uk_qp *qp, u8 op, bool signaled,
			bool read_fence, bool local_fence)
{
	return FIELD_PREP(IRDMA_WQE_OPCODE, op) |
	       FIELD_PREP(IRDMA_WQE_READFENCE, read_fence) |
	       FIELD_PREP(IRDMA_WQE_LOCALFENCE, local_fence) |
	       FIELD_PREP(IRDMA_WQE_SIGCOMPL, signaled) |
	       FIELD_PREP(IRDMA_WQE_VALID, qp->sq_polarity);
}

static bool irdma_op_is_rdma(u8 op)
{
	return op == IRDMA_WQEOP_RDMA_WRITE || op == IRDMA_WQEOP_RDMA_WRITE_SOL ||
	       op == IRDMA_WQEOP_RDMA_READ || op == IRDMA_WQEOP_RDMA_READ_INV_STAG;
}

/**
 * irdma_uk_post_sq - write a send, RDMA write or RDMA read WQE
 * @qp: the QP
 * @p: the work request
 *
 * The doorbell is left to irdma_uk_sq_ring_db().
 *
 * Return: 0, -EINVAL for more data (or fragments) than the QP takes,
 * -ENOMEM when the SQ is full.
 */
int irdma_uk_post_sq(struct irdma_uk_qp *qp, const struct irdma_sq_post *p)
{
	bool read = p->op == IRDMA_WQEOP_RDMA_READ ||
		    p->op == IRDMA_WQEOP_RDMA_READ_INV_STAG;
	u32 bytes = 0, frags = 0, idx, i;
	u16 quanta;
	__le64 *wqe;
	u64 hdr;
	int err;

	if (p->num_sg > qp->max_sq_frags)
		return -EINVAL;
	for (i = 0; i < p->num_sg; i++)
		bytes += p->sg[i].len;

	if (p->inline_data && !read) {
		if (bytes > qp->max_inline)
			return -EINVAL;
		quanta = irdma_inline_to_quanta(IRDMA_GEN_2, bytes);
	} else {
		frags = p->num_sg + (p->imm_valid ? 1 : 0);
		err = irdma_sq_frags_to_quanta(frags, &quanta);
		if (err)
			return err;
	}
	err = irdma_sq_reserve(qp, quanta, &idx);
	if (err)
		return err;

	wqe = irdma_sq_quantum(qp, idx);
	hdr = irdma_sq_hdr(qp, p->op, p->signaled, p->read_fence, p->local_fence);
	if (irdma_op_is_rdma(p->op)) {
		wqe[2] = cpu_to_le64(p->rem_addr);
		hdr |= FIELD_PREP(IRDMA_WQE_REMSTAG, p->rem_stag);
	} else {
		wqe[2] = cpu_to_le64(FIELD_PREP(IRDMA_WQE_DESTQKEY, p->qkey) |
				     FIELD_PREP(IRDMA_WQE_DESTQPN, p->dest_qpn));
		hdr |= FIELD_PREP(IRDMA_WQE_REMSTAG, p->rem_stag) |
		       FIELD_PREP(IRDMA_WQE_AHID, p->ah_id);
	}
	if (p->imm_valid) {
		wqe[0] = cpu_to_le64(p->imm);
		hdr |= IRDMA_WQE_IMMDATAFLAG;
	}
	if (p->inline_data && !read) {
		irdma_write_inline(wqe, p->sg, p->num_sg, qp->sq_polarity);
		hdr |= IRDMA_WQE_INLINEDATAFLAG |
		       FIELD_PREP(IRDMA_WQE_INLINEDATALEN, bytes);
	} else {
		hdr |= FIELD_PREP(IRDMA_WQE_ADDFRAGCNT,
				  irdma_write_frags(wqe, p->imm_valid ? 1 : 0,
						    p->sg, p->num_sg,
						    qp->sq_polarity));
	}
	qp->sq_wr[idx] = (struct irdma_sq_wr) {
		.wr_id = p->wr_id,
		.bytes = bytes,
		.op = p->op,
		.quanta = quanta,
		.signaled = p->signaled,
	};
	dma_wmb();
	WRITE_ONCE(wqe[3], cpu_to_le64(hdr));
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_uk_post_sq);

/* A one-quantum WQE's fields: key work, no data. */
struct irdma_sq_quantum {
	u64 wr_id;
	u8 op;
	bool signaled;
	bool read_fence;
	bool local_fence;
	u64 q[3];
	u64 hdr;	/* the header's fields beyond the common ones */
};

/*
 * Write a one-quantum WQE into a claimed slot, its header (with the pass's
 * valid bit, known once the slot is claimed) last, and ring.
 */
static int irdma_sq_post_quantum(struct irdma_uk_qp *qp,
				 const struct irdma_sq_quantum *w)
{
	__le64 *wqe;
	u32 idx;
	int err;

	err = irdma_sq_reserve(qp, 1, &idx);
	if (err)
		return err;
	wqe = irdma_sq_quantum(qp, idx);
	wqe[0] = cpu_to_le64(w->q[0]);
	wqe[1] = cpu_to_le64(w->q[1]);
	wqe[2] = cpu_to_le64(w->q[2]);
	qp->sq_wr[idx] = (struct irdma_sq_wr) {
		.wr_id = w->wr_id,
		.op = w->op,
		.quanta = 1,
		.signaled = w->signaled,
	};
	dma_wmb();
	WRITE_ONCE(wqe[3], cpu_to_le64(irdma_sq_hdr(qp, w->op, w->signaled,
						    w->read_fence, w->local_fence) |
				       w->hdr));
	irdma_uk_sq_ring_db(qp);
	return 0;
}

/**
 * irdma_uk_post_local_inv - write a local invalidate WQE and ring
 * @qp: the QP
 * @wr_id: the consumer's id
 * @stag: the key to invalidate
 * @signaled: a completion is wanted
 * @fence: wait for earlier work first
 *
 * Return: 0, or -ENOMEM when the SQ is full.
 */
int irdma_uk_post_local_inv(struct irdma_uk_qp *qp, u64 wr_id, u32 stag,
			    bool signaled, bool fence)
{
	const struct irdma_sq_quantum w = {
		.wr_id = wr_id, .op = IRDMA_WQEOP_INV_STAG, .signaled = signaled,
		.read_fence = fence, .local_fence = fence,
		.q = { 0, FIELD_PREP(IRDMA_WQE_FRAG_STAG, stag), 0 },
	};

	return irdma_sq_post_quantum(qp, &w);
}

/**
 * irdma_uk_post_mw_bind - write a type 1 window's BIND_MW WQE and ring
 * @qp: the QP
 * @b: the binding
 *
 * The format libirdma writes for ibv_bind_mw(); kernel verbs bind no
 * windows (no ULP uses them), so only tests post this from the kernel.
 *
 * Return: 0, or -ENOMEM when the SQ is full.
 */
int irdma_uk_post_mw_bind(struct irdma_uk_qp *qp, const struct irdma_mw_bind *b)
{
	const struct irdma_sq_quantum w = {
		.wr_id = b->wr_id, .op = IRDMA_WQEOP_BIND_MW, .signaled = b->signaled,
		.q = {
			b->va,
			FIELD_PREP(IRDMA_BIND_MW_STAG, b->mw_stag) |
			FIELD_PREP(IRDMA_BIND_PARENT_STAG, b->mr_stag),
			b->len,
		},
		.hdr = FIELD_PREP(IRDMA_WQE_STAGRIGHTS, b->rights) |
		       IRDMA_WQE_VABASEDTO | IRDMA_WQE_MWTYPE1,
	};

	return irdma_sq_post_quantum(qp, &w);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_uk_post_mw_bind);

/**
 * irdma_uk_post_fast_reg - write a fast-register WQE and ring
 * @qp: the QP
 * @fr: the registration
 *
 * Return: 0, or -ENOMEM when the SQ is full.
 */
int irdma_uk_post_fast_reg(struct irdma_uk_qp *qp,
			   const struct irdma_fast_reg *fr)
{
	const struct irdma_sq_quantum w = {
		.wr_id = fr->wr_id, .op = IRDMA_WQEOP_FAST_REG_NSMR,
		.signaled = fr->signaled, .read_fence = fr->read_fence,
		.local_fence = true,
		.q = {
			fr->va,
			FIELD_PREP(IRDMA_FASTREG_PBLIDX_HI, fr->first_pble >> 16) |
			(fr->first_page & IRDMA_FASTREG_PBLADDR),
			FIELD_PREP(IRDMA_FASTREG_LEN, fr->len) |
			FIELD_PREP(IRDMA_FASTREG_PBLIDX_LO, fr->first_pble & 0xffff),
		},
		.hdr = FIELD_PREP(IRDMA_WQE_STAGKEY, fr->stag & 0xff) |
		       FIELD_PREP(IRDMA_WQE_STAGINDEX, fr->stag >> 8) |
		       FIELD_PREP(IRDMA_WQE_LPBLSIZE, fr->pbl_levels) |
		       FIELD_PREP(IRDMA_WQE_HPAGESIZE, fr->page_size) |
		       FIELD_PREP(IRDMA_WQE_STAGRIGHTS, fr->rights) |
		       IRDMA_WQE_VABASEDTO,
	};

	return irdma_sq_post_quantum(qp, &w);
}

/*
 * Claim the next WQE of a receive ring (an RQ or an SRQ) and flip the
 * pass's valid bit at index 0.
 */
static __le64 *irdma_recv_wqe_claim(__le64 *base, struct irdma_ring *ring,
				    bool *polarity, u8 shift, u32 *idx)
{
	if (irdma_ring_produce(ring, 1, 0, idx))
		return NULL;
	if (!*idx)
		*polarity = !*polarity;
	return base + ((size_t)*idx << shift) * (IRDMA_WQE_QUANTUM_SIZE / 8);
}

/* Fill a claimed receive WQE; its header, with the valid bit, goes last. */
static void irdma_recv_wqe_fill(__le64 *wqe, const struct irdma_sge *sg,
				u32 num_sg, bool polarity, u64 qword2)
{
	u32 add = irdma_write_frags(wqe, 0, sg, num_sg, polarity);

	wqe[2] = cpu_to_le64(qword2);
	dma_wmb();
	WRITE_ONCE(wqe[3], cpu_to_le64(FIELD_PREP(IRDMA_WQE_ADDFRAGCNT, add) |
				       FIELD_PREP(IRDMA_WQE_VALID, polarity)));
}

/**
 * irdma_uk_post_rq - write a receive WQE
 * @qp: the QP
 * @wr_id: the consumer's id
 * @sg: where the data goes
 * @num_sg: entries in @sg
 *
 * The hardware finds receive WQEs by their valid bit; there is no doorbell.
 *
 * Return: 0, -EINVAL for more fragments than the QP takes, -ENOMEM when
 * the RQ is full.
 */
int irdma_uk_post_rq(struct irdma_uk_qp *qp, u64 wr_id,
		     const struct irdma_sge *sg, u32 num_sg)
{
	__le64 *wqe;
	u32 idx;

	if (num_sg > qp->max_rq_frags)
		return -EINVAL;
	wqe = irdma_recv_wqe_claim(qp->rq, &qp->rq_ring, &qp->rq_polarity,
				   qp->rq_shift, &idx);
	if (!wqe)
		return -ENOMEM;
	/* The id is in place before the hardware can complete the WQE. */
	qp->rq_wr_id[idx] = wr_id;
	irdma_recv_wqe_fill(wqe, sg, num_sg, qp->rq_polarity, 0);
	return 0;
}

/**
 * irdma_uk_sq_ring_db - tell the hardware about new send WQEs
 * @qp: the QP
 *
 * The hardware keeps its SQ position in the shadow area and walks on as
 * long as it finds valid WQEs; the doorbell is needed only when it had
 * already reached the first of the new ones.
 */
void irdma_uk_sq_ring_db(struct irdma_uk_qp *qp)
{
	u32 head = qp->sq_ring.head, start = qp->db_head, hw_tail;

	/* The WQEs are visible before the hardware's position is read. */
	mb();
	hw_tail = FIELD_GET(IRDMA_QP_DBSA_HW_SQ_TAIL,
			    le64_to_cpu(READ_ONCE(qp->shadow[0])));
	qp->db_head = head;
	if (head == start || hw_tail == head)
		return;
	if (head > start ? (hw_tail >= start && hw_tail < head) :
			   (hw_tail >= start || hw_tail < head))
		writel(qp->id, qp->db);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_uk_sq_ring_db);

/**
 * irdma_uk_srq_init - start producing into a fresh (zeroed) SRQ ring
 * @srq: the SRQ
 * @ring: its WQEs
 * @size: WQEs the ring holds
 * @shift: log2 of a WQE's quanta
 * @max_frags: fragments a WQE takes
 * @shadow: its shadow area
 */
void irdma_uk_srq_init(struct irdma_uk_srq *srq, void *ring, u32 size,
		       u8 shift, u32 max_frags, __le64 *shadow)
{
	srq->ring = ring;
	irdma_ring_init(&srq->idx, size);
	srq->polarity = false;
	srq->shift = shift;
	srq->max_frags = max_frags;
	srq->shadow = shadow;
}

/**
 * irdma_uk_post_srq - write a WQE into a shared receive queue
 * @srq: the SRQ
 * @wr_id: the consumer's id, which the hardware hands back in the CQE
 * @sg: where the data goes
 * @num_sg: entries in @sg
 *
 * The hardware learns of the WQE from the producer index in the shadow
 * area; there is no doorbell.
 *
 * Return: 0, -EINVAL for more fragments than the SRQ takes, -ENOMEM when
 * it is full.
 */
int irdma_uk_post_srq(struct irdma_uk_srq *srq, u64 wr_id,
		      const struct irdma_sge *sg, u32 num_sg)
{
	__le64 *wqe;
	u32 idx;

	if (num_sg > srq->max_frags)
		return -EINVAL;
	wqe = irdma_recv_wqe_claim(srq->ring, &srq->idx, &srq->polarity,
				   srq->shift, &idx);
	if (!wqe)
		return -ENOMEM;
	/* The hardware hands the id back from the WQE. */
	irdma_recv_wqe_fill(wqe, sg, num_sg, srq->polarity, wr_id);
	/* The WQE is complete before the hardware may count it. */
	dma_wmb();
	WRITE_ONCE(srq->shadow[0], cpu_to_le64(srq->idx.head));
	return 0;
}

/**
 * irdma_init_uk_attrs - queue limits of a hardware generation
 * @gen: the generation
 * @attrs: filled with the generation's limits
 *
 * Return: 0, or -EINVAL for an unknown generation.
 */
int irdma_init_uk_attrs(enum irdma_hw_gen gen, struct irdma_uk_attrs *attrs)
{
	switch (gen) {
	case IRDMA_GEN_1:
		*attrs = (struct irdma_uk_attrs) {
			.hw_rev = gen,
			.max_hw_wq_frags = IRDMA_GEN1_MAX_WQ_FRAGS,
			.max_hw_read_sges = IRDMA_GEN1_MAX_READ_SGES,
			.max_hw_inline = IRDMA_GEN1_MAX_INLINE,
			.max_hw_rq_quanta = IRDMA_GEN1_MAX_RQ_QUANTA,
			.max_hw_wq_quanta = IRDMA_GEN1_MAX_WQ_QUANTA,
			.max_hw_sq_chunk = IRDMA_GEN1_MAX_QUANTA_PER_WR,
			.min_hw_wq_size = IRDMA_GEN1_MIN_WQ_SIZE,
			.min_hw_cq_size = IRDMA_MIN_CQ_SIZE,
			.max_hw_cq_size = IRDMA_MAX_CQ_SIZE,
		};
		return 0;
	case IRDMA_GEN_2:
		*attrs = (struct irdma_uk_attrs) {
			.hw_rev = gen,
			.max_hw_wq_frags = IRDMA_GEN2_MAX_WQ_FRAGS,
			.max_hw_read_sges = IRDMA_GEN2_MAX_READ_SGES,
			.max_hw_inline = IRDMA_GEN2_MAX_INLINE,
			.max_hw_rq_quanta = IRDMA_QP_SW_MAX_RQ_QUANTA,
			.max_hw_wq_quanta = IRDMA_QP_SW_MAX_WQ_QUANTA,
			.max_hw_sq_chunk = IRDMA_MAX_QUANTA_PER_WR,
			.min_hw_wq_size = IRDMA_GEN2_MIN_WQ_SIZE,
			.min_hw_cq_size = IRDMA_MIN_CQ_SIZE,
			.max_hw_cq_size = IRDMA_MAX_CQ_SIZE,
			.feature_flags = IRDMA_FEATURE_RTS_AE |
					 IRDMA_FEATURE_CQ_RESIZE,
		};
		return 0;
	}
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_init_uk_attrs);
