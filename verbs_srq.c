// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Shared receive queues. No E800 or X722 engine has them: the stock
 * driver reports max_srq 0 there, and so does this one. Engines that do
 * (the sim's SRQ extension, in the formats of the later generation that
 * introduced them) get the SRQ verbs registered; kernel consumers only.
 *
 * The driver writes WQEs into a ring and publishes its producer index in
 * the SRQ's shadow area; the hardware takes WQEs in ring order for any
 * QP attached to the SRQ and hands each WQE's wr_id back in the receive
 * completion. A limit armed with MODIFY_SRQ fires once, as an AE.
 */
#include "verbs.h"

/* Requests beyond this cannot fit the largest SRQ ring. */
#define IRDMA_MAX_SRQ_WRS	((IRDMA_SRQ_MAX_QUANTA - IRDMA_RQ_RSVD) / \
				 IRDMA_MAX_QUANTA_PER_WR)

static const struct ib_device_ops irdma_srq_ops = {
	.create_srq = irdma_create_srq,
	.destroy_srq = irdma_destroy_srq,
	.modify_srq = irdma_modify_srq,
	.post_srq_recv = irdma_post_srq_recv,
	.query_srq = irdma_query_srq,
	INIT_RDMA_OBJ_SIZE(ib_srq, irdma_srq, ibsrq),
};

/**
 * irdma_srq_caps - take up the SRQs the HMC made room for
 * @fn: the function, its HMC committed
 *
 * SRQ number 0 is reserved, so one SRQ context alone gives none.
 */
void irdma_srq_caps(struct irdma_fn *fn)
{
	u32 cnt = fn->hmc.obj[IRDMA_HMC_SRQ].cnt;

	if (!fn->res.srq || cnt < 2)
		return;
	fn->max_srq = cnt;
	fn->uk_attrs.feature_flags |= IRDMA_FEATURE_SRQ;
	fn->uk_attrs.max_hw_srq_quanta = IRDMA_SRQ_MAX_QUANTA;
}

/**
 * irdma_set_srq_ops - register the SRQ verbs where the engine has SRQs
 * @ibdev: the device, not yet registered
 */
void irdma_set_srq_ops(struct ib_device *ibdev)
{
	if (to_iwdev(ibdev)->fn.uk_attrs.feature_flags & IRDMA_FEATURE_SRQ)
		ib_set_device_ops(ibdev, &irdma_srq_ops);
}

/**
 * irdma_srq_query_device - the SRQ limits query_device reports
 * @fn: the function
 * @props: the attributes being filled
 */
void irdma_srq_query_device(struct irdma_fn *fn, struct ib_device_attr *props)
{
	if (!(fn->uk_attrs.feature_flags & IRDMA_FEATURE_SRQ))
		return;
	props->max_srq = fn->max_srq - 1;
	props->max_srq_wr = IRDMA_MAX_SRQ_WRS;
	props->max_srq_sge = fn->uk_attrs.max_hw_wq_frags;
}

/* One SRQ command, waited for. */
static int irdma_srq_cmd(struct irdma_fn *fn, struct irdma_srq *srq, u8 op,
			 u32 limit)
{
	struct irdma_cqp_wqe cmd;

	if (op == IRDMA_CQPOP_CREATE_SRQ)
		irdma_build_create_srq(&cmd, &srq->hw);
	else if (op == IRDMA_CQPOP_MODIFY_SRQ)
		irdma_build_modify_srq(&cmd, &srq->hw, limit);
	else
		irdma_build_destroy_srq(&cmd, &srq->hw);
	return irdma_cqp_exec(fn, &cmd, NULL);
}

/* Ring geometry from the requested capabilities; @attr gets the result. */
static int irdma_srq_size(struct irdma_fn *fn, struct irdma_srq *srq,
			  struct ib_srq_attr *attr)
{
	const struct irdma_uk_attrs *uk = &fn->uk_attrs;
	u32 depth;
	u8 shift;
	int err;

	if (attr->max_sge > uk->max_hw_wq_frags ||
	    attr->max_wr > IRDMA_MAX_SRQ_WRS)
		return -EINVAL;
	shift = irdma_wqe_shift(uk, attr->max_sge, 0);
	err = irdma_srq_depth(uk, attr->max_wr, shift, &depth);
	if (err)
		return err;
	srq->hw.quanta = max_t(u32, depth, IRDMA_SRQ_MIN_QUANTA);
	srq->hw.shift = shift;
	srq->max_wr = (depth - 1) >> shift;
	attr->max_wr = srq->max_wr;
	return 0;
}

/* The ring, and its shadow area after it, in one coherent block. */
static int irdma_setup_kmode_srq(struct irdma_fn *fn, struct irdma_srq *srq)
{
	size_t ring = (size_t)srq->hw.quanta * IRDMA_WQE_QUANTUM_SIZE;
	u32 frags;
	int err;

	err = irdma_dma_alloc(fn, &srq->mem,
			      ALIGN(ring + IRDMA_SRQ_SHADOW_SIZE, 256), GFP_KERNEL);
	if (err)
		return err;
	memset(srq->mem.va, 0, srq->mem.size);
	srq->hw.ring_pa = srq->mem.pa;
	srq->hw.shadow_pa = srq->mem.pa + ring;
	/* A WQE of 2^shift quanta has room for 2^(shift + 1) - 1 fragments. */
	frags = min_t(u32, fn->uk_attrs.max_hw_wq_frags,
		      (2U << srq->hw.shift) - 1);
	irdma_uk_srq_init(&srq->uk, srq->mem.va, srq->hw.quanta >> srq->hw.shift,
			  srq->hw.shift, frags, srq->mem.va + ring);
	return 0;
}

/**
 * irdma_srq_free_rsrc - free what an SRQ holds
 * @fn: the function
 * @srq: the SRQ
 * @hw_done: the hardware let go of its ring (DESTROY_SRQ succeeded)
 */
static void irdma_srq_free_rsrc(struct irdma_fn *fn, struct irdma_srq *srq,
				bool hw_done)
{
	irdma_dma_release(fn, &srq->mem, hw_done);
	xa_erase(&fn->srq_table, srq->hw.id);
}

/**
 * irdma_create_srq - create a shared receive queue
 * @ibsrq: ib_core's part, allocated
 * @initattrs: the requested attributes; max_wr gets what was granted
 * @udata: user data (user-space SRQs are not offered)
 *
 * Return: 0, -EOPNOTSUPP for other SRQ types and user space, -EINVAL for
 * sizes beyond the hardware, -ENOMEM, -EOVERFLOW with every SRQ in use, or
 * the CQP's error.
 */
int irdma_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *initattrs,
		     struct ib_udata *udata)
{
	struct irdma_fn *fn = &to_iwdev(ibsrq->device)->fn;
	struct irdma_srq *srq = to_iwsrq(ibsrq);
	struct ib_srq_attr *attr = &initattrs->attr;
	struct ib_srq_attr granted = *attr;
	u32 id;
	int err;

	if (initattrs->srq_type != IB_SRQT_BASIC || udata)
		return -EOPNOTSUPP;
	if (!(fn->uk_attrs.feature_flags & IRDMA_FEATURE_SRQ))
		return -EINVAL;
	err = irdma_srq_size(fn, srq, &granted);
	if (err)
		return err;

	spin_lock_init(&srq->lock);
	err = xa_alloc(&fn->srq_table, &id, srq,
		       XA_LIMIT(1, fn->max_srq - 1), GFP_KERNEL);
	if (err)
		return err == -EBUSY ? -EOVERFLOW : err;
	srq->hw.id = id;
	srq->hw.pd = to_iwpd(ibsrq->pd)->id;
	srq->hw.compl_ctx = (uintptr_t)srq;

	err = irdma_setup_kmode_srq(fn, srq);
	if (err) {
		xa_erase(&fn->srq_table, id);
		return err;
	}
	err = irdma_srq_cmd(fn, srq, IRDMA_CQPOP_CREATE_SRQ, 0);
	if (err) {
		/* The hardware never took the ring (as for a failed QP). */
		irdma_srq_free_rsrc(fn, srq, true);
		return err;
	}
	attr->max_wr = granted.max_wr;
	return 0;
}

/**
 * irdma_modify_srq - arm the SRQ's limit
 * @ibsrq: the SRQ
 * @attr: the new limit
 * @attr_mask: IB_SRQ_LIMIT; resizing (IB_SRQ_MAX_WR) is not supported
 * @udata: user data (unused)
 *
 * Return: 0, -EINVAL for a resize or a limit beyond the ring, -ENOMEM or
 * the CQP's error.
 */
int irdma_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		     enum ib_srq_attr_mask attr_mask, struct ib_udata *udata)
{
	struct irdma_fn *fn = &to_iwdev(ibsrq->device)->fn;
	struct irdma_srq *srq = to_iwsrq(ibsrq);
	int err;

	if (attr_mask & IB_SRQ_MAX_WR)
		return -EINVAL;
	if (!(attr_mask & IB_SRQ_LIMIT))
		return 0;
	if (attr->srq_limit > srq->uk.idx.size)
		return -EINVAL;
	err = irdma_srq_cmd(fn, srq, IRDMA_CQPOP_MODIFY_SRQ, attr->srq_limit);
	if (!err)
		WRITE_ONCE(srq->limit, attr->srq_limit);
	return err;
}

/**
 * irdma_query_srq - the SRQ's attributes
 * @ibsrq: the SRQ
 * @attr: filled in
 *
 * The limit reads 0 once its event fired.
 *
 * Return: 0.
 */
int irdma_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct irdma_srq *srq = to_iwsrq(ibsrq);

	attr->max_wr = srq->max_wr;
	attr->max_sge = srq->uk.max_frags;
	attr->srq_limit = READ_ONCE(srq->limit);
	return 0;
}

/**
 * irdma_destroy_srq - destroy a shared receive queue
 * @ibsrq: the SRQ; ib_core has checked no QP uses it
 * @udata: user data (unused)
 *
 * Return: 0; a failed DESTROY_SRQ keeps the ring until the hardware is
 * known to be done with it.
 */
int irdma_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct irdma_fn *fn = &to_iwdev(ibsrq->device)->fn;
	struct irdma_srq *srq = to_iwsrq(ibsrq);
	int err;

	err = irdma_srq_cmd(fn, srq, IRDMA_CQPOP_DESTROY_SRQ, 0);
	if (err)
		ibdev_warn(ibsrq->device, "SRQ %u destroy failed: %d\n",
			   srq->hw.id, err);
	irdma_srq_free_rsrc(fn, srq, !err);
	return 0;
}

/**
 * irdma_srq_release - give consumed WQEs back to the producer
 * @srq: the SRQ
 * @count: WQEs the hardware completed (or that were dropped with their QP)
 */
void irdma_srq_release(struct irdma_srq *srq, u32 count)
{
	unsigned long flags;

	spin_lock_irqsave(&srq->lock, flags);
	irdma_ring_consume(&srq->uk.idx, count);
	spin_unlock_irqrestore(&srq->lock, flags);
}

/**
 * irdma_srq_event - the SRQ's limit was reached
 * @fn: the function
 * @srq_id: the SRQ the AE named
 *
 * The limit is disarmed; the consumer hears IB_EVENT_SRQ_LIMIT_REACHED.
 */
void irdma_srq_event(struct irdma_fn *fn, u32 srq_id)
{
	struct irdma_srq *srq;
	struct ib_event ev;

	xa_lock(&fn->srq_table);
	srq = xa_load(&fn->srq_table, srq_id);
	if (srq) {
		WRITE_ONCE(srq->limit, 0);
		if (srq->ibsrq.event_handler) {
			ev = (struct ib_event) {
				.device = srq->ibsrq.device,
				.element.srq = &srq->ibsrq,
				.event = IB_EVENT_SRQ_LIMIT_REACHED,
			};
			srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
		}
	}
	xa_unlock(&fn->srq_table);
	if (!srq)
		dev_dbg(fn->res.dev, "limit event for unknown SRQ %u\n", srq_id);
}
