// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The SRQ extension: shared receive queues, which no E800 part has. A
 * function created with it ("ID roce srq") reports SRQ contexts in
 * QUERY_FPM_VAL and executes CREATE/MODIFY/DESTROY_SRQ in the formats of
 * the generation that introduced SRQs.
 *
 * A QP whose context says USE_SRQ takes its receive WQEs from the SRQ, in
 * ring order. The driver publishes its producer index (in WQEs) in qword 0
 * of the SRQ's shadow area; each receive completion carries the SRQ bit,
 * the QP number and, in qword 1, the wr_id from qword 2 of the WQE. An
 * armed limit fires one IRDMA_AE_SRQ_LIMIT, with the SRQ's number and
 * completion context, when fewer WQEs than the limit remain.
 */
#include <linux/bitfield.h>
#include <linux/slab.h>

#include "sim.h"

/**
 * struct isim_srq - a shared receive queue
 * @id: its number
 * @pd: protection domain
 * @ring: where its WQEs live
 * @size: WQEs in the ring
 * @shift: log2 of a WQE's quanta
 * @head: the next WQE to take
 * @polarity: valid bit of the current pass
 * @shadow_pa: the shadow area (producer index)
 * @ctx: completion context, for its events
 * @limit: the armed limit
 * @armed: the limit event is wanted
 */
struct isim_srq {
	u32 id;
	u32 pd;
	struct isim_ring ring;
	u32 size;
	u8 shift;
	u32 head;
	bool polarity;
	u64 shadow_pa;
	u64 ctx;
	u32 limit;
	bool armed;
};

/* The SRQ a command names, if it may name one. */
static u32 isim_srq_cmd_id(struct isim_dev *sdev, const __le64 *wqe)
{
	u32 id = FIELD_GET(IRDMA_SRQCMD_SRQID, le64_to_cpu(wqe[3]));

	if (!sdev->srq || !sdev->hmc.committed || !id ||
	    id >= sdev->hmc.cnt[IRDMA_HMC_SRQ])
		return 0;
	return id;
}

/* The fields CREATE_SRQ and MODIFY_SRQ both carry. */
static int isim_srq_load(struct isim_srq *srq, const __le64 *wqe)
{
	u64 q0 = le64_to_cpu(wqe[0]), hdr = le64_to_cpu(wqe[3]);
	u32 quanta = IRDMA_SRQ_MIN_QUANTA << FIELD_GET(IRDMA_SRQCMD_RQSIZE, q0);

	srq->shift = FIELD_GET(IRDMA_SRQCMD_RQWQESIZE, q0);
	if (quanta > IRDMA_SRQ_MAX_QUANTA || (quanta >> srq->shift) < 2)
		return -EINVAL;
	srq->size = quanta >> srq->shift;
	srq->limit = FIELD_GET(IRDMA_SRQCMD_LIMIT, q0);
	srq->armed = !!(hdr & IRDMA_SRQCMD_ARM_LIMIT);
	srq->pd = FIELD_GET(IRDMA_SRQCMD_PDID, le64_to_cpu(wqe[2]));
	srq->ring.virt = !!(hdr & IRDMA_SRQCMD_VIRTMAP);
	srq->ring.levels = FIELD_GET(IRDMA_SRQCMD_LPBLSIZE, hdr);
	srq->ring.base = srq->ring.virt ?
		FIELD_GET(IRDMA_SRQCMD_FIRST_PBLE, le64_to_cpu(wqe[6])) :
		FIELD_GET(IRDMA_SRQCMD_RING_PA, le64_to_cpu(wqe[4])) << 8;
	srq->shadow_pa = FIELD_GET(IRDMA_SRQCMD_SHADOW_PA,
				   le64_to_cpu(wqe[5])) << 6;
	if (!srq->shadow_pa || (!srq->ring.virt && !srq->ring.base))
		return -EINVAL;
	return 0;
}

/**
 * isim_srq_create - CREATE_SRQ
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void isim_srq_create(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res)
{
	u32 id = isim_srq_cmd_id(sdev, wqe);
	struct isim_srq *srq;

	if (!id)
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	if (xa_load(&sdev->srqs, id))
		return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	srq = kzalloc(sizeof(*srq), GFP_KERNEL);
	if (!srq)
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	srq->id = id;
	srq->polarity = true;
	srq->ctx = le64_to_cpu(wqe[1]);
	if (isim_srq_load(srq, wqe) ||
	    xa_err(xa_store(&sdev->srqs, id, srq, GFP_KERNEL))) {
		kfree(srq);
		isim_fail(res, ISIM_MIN_BAD_PARAM);
	}
}

/**
 * isim_srq_modify - MODIFY_SRQ: a new limit, armed or not
 * @sdev: the simulated function
 * @wqe: the command; it re-sends the whole SRQ, of which only the limit
 *	may change
 * @res: its completion
 */
void isim_srq_modify(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res)
{
	struct isim_srq *srq = xa_load(&sdev->srqs, isim_srq_cmd_id(sdev, wqe));
	struct isim_srq next;

	if (!srq)
		return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	next = *srq;
	if (isim_srq_load(&next, wqe) || next.size != srq->size ||
	    next.shift != srq->shift || next.ring.base != srq->ring.base ||
	    next.shadow_pa != srq->shadow_pa)
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	srq->limit = next.limit;
	srq->armed = next.armed;
}

/**
 * isim_srq_destroy - DESTROY_SRQ
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void isim_srq_destroy(struct isim_dev *sdev, const __le64 *wqe,
		      struct isim_cqp_result *res)
{
	struct isim_srq *srq = xa_erase(&sdev->srqs, isim_srq_cmd_id(sdev, wqe));

	if (!srq)
		return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	kfree(srq);
}

/**
 * isim_srqs_destroy_all - forget every SRQ (function reset)
 * @sdev: the simulated function
 */
void isim_srqs_destroy_all(struct isim_dev *sdev)
{
	isim_xa_free_all(&sdev->srqs);
}

/* WQEs the driver has published and the engine has not taken. */
static u32 isim_srq_available(struct isim_dev *sdev, struct isim_srq *srq)
{
	u64 prod = 0;

	if (isim_dma_read_qword(sdev, srq->shadow_pa, &prod))
		return 0;
	prod %= srq->size;
	return (prod + srq->size - srq->head) % srq->size;
}

/**
 * isim_srq_peek - the WQE at the head of a QP's SRQ
 * @sdev: the simulated function
 * @id: the SRQ
 * @pd: the QP's protection domain, which must be the SRQ's
 * @wqe: gets the WQE (room for the largest)
 * @idx: gets its index
 *
 * Return: 0, -EAGAIN when none is posted, -EFAULT when the ring is
 * unreadable, -ENOENT when the SRQ is gone, -EPERM for a QP of another
 * protection domain.
 */
int isim_srq_peek(struct isim_dev *sdev, u32 id, u32 pd, __le64 *wqe, u32 *idx)
{
	struct isim_srq *srq = xa_load(&sdev->srqs, id);
	u64 pa;

	if (!srq)
		return -ENOENT;
	if (srq->pd != pd)
		return -EPERM;
	if (!isim_srq_available(sdev, srq))
		return -EAGAIN;
	/* The producer index, then the WQE it covers. */
	dma_rmb();
	if (isim_ring_pa(sdev, &srq->ring,
			 ((u64)srq->head << srq->shift) * IRDMA_WQE_QUANTUM_SIZE,
			&pa) ||
	    isim_dma_read(sdev, pa, wqe, IRDMA_WQE_QUANTUM_SIZE << srq->shift))
		return -EFAULT;
	if (!!(le64_to_cpu(wqe[3]) & IRDMA_WQE_VALID) != srq->polarity)
		return -EAGAIN;
	*idx = srq->head;
	return 0;
}

/**
 * isim_srq_advance - take the WQE at the head; the limit may fire
 * @sdev: the simulated function
 * @id: the SRQ
 */
void isim_srq_advance(struct isim_dev *sdev, u32 id)
{
	struct isim_srq *srq = xa_load(&sdev->srqs, id);

	if (!srq)
		return;
	if (++srq->head == srq->size) {
		srq->head = 0;
		srq->polarity = !srq->polarity;
	}
	if (srq->armed && isim_srq_available(sdev, srq) < srq->limit) {
		srq->armed = false;
		isim_aeq_post_ctx(sdev, IRDMA_AE_SRQ_LIMIT, srq->id, srq->ctx);
	}
}
