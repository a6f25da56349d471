// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue pairs: creation with their rings, the state machine, error events
 * and flushing, query and teardown.
 */
#include <kunit/visibility.h>
#include <linux/if_vlan.h>
#include <linux/log2.h>
#include <rdma/ib_cache.h>
#include <uapi/rdma/irdma-abi.h>

#include "verbs.h"

#define IRDMA_GSI_QPN		1
#define IRDMA_FLUSH_DELAY_MS	20
#define IRDMA_SQD_WAIT_MS	5000
#define IRDMA_DEFAULT_RETRY	2
#define IRDMA_DEFAULT_SRC_PORT	0xc000
#define IRDMA_NO_PUSH_PAGE	0xffff
/* The receive queue a QP on a shared receive queue still has. */
#define IRDMA_SRQ_QP_RQ_WRS	4
/* What a user QP can do, as the provider learns it. */
#define IRDMA_QP_CAP_WRITE_WITH_IMM	BIT(0)
#define IRDMA_QP_CAP_SEND_WITH_IMM	BIT(1)
#define IRDMA_QP_CAP_ROCE		BIT(2)
#define IRDMA_QP_CAP_PUSH_MODE		BIT(3)

static int irdma_validate_qp_attrs(struct irdma_device *iwdev,
				   const struct ib_qp_init_attr *init_attr,
				   struct ib_udata *udata)
{
	const struct irdma_uk_attrs *uk = &iwdev->fn.uk_attrs;
	const struct ib_qp_cap *cap = &init_attr->cap;

	if (init_attr->create_flags)
		return -EOPNOTSUPP;
	if (cap->max_inline_data > uk->max_hw_inline ||
	    cap->max_send_sge > uk->max_hw_wq_frags ||
	    cap->max_recv_sge > uk->max_hw_wq_frags ||
	    cap->max_send_wr > uk->max_hw_wq_quanta ||
	    cap->max_recv_wr > uk->max_hw_rq_quanta)
		return -EINVAL;
	/* RoCEv2 has RC, UD and the GSI QP; iWARP only RC. */
	switch (init_attr->qp_type) {
	case IB_QPT_RC:
		break;
	case IB_QPT_UD:
	case IB_QPT_GSI:
		if (rdma_protocol_roce(&iwdev->ibdev, 1))
			break;
		fallthrough;
	default:
		return -EOPNOTSUPP;
	}
	/* SRQs exist only where the engine has them, and only in the kernel. */
	if (init_attr->srq && (udata ||
			       !(uk->feature_flags & IRDMA_FEATURE_SRQ)))
		return -EOPNOTSUPP;
	return 0;
}

static int irdma_qp_alloc_id(struct irdma_fn *fn, struct irdma_qp *qp,
			     enum ib_qp_type type)
{
	u32 max = fn->hmc.obj[IRDMA_HMC_QP].cnt;
	int err;

	if (type == IB_QPT_GSI) {
		err = xa_insert_irq(&fn->qp_table, IRDMA_GSI_QPN, NULL, GFP_KERNEL);
		if (err)
			return err;
		qp->id = IRDMA_GSI_QPN;
		return 0;
	}
	if (max <= IRDMA_RSVD_QPS)
		return -EOVERFLOW;
	err = xa_alloc_cyclic_irq(&fn->qp_table, &qp->id, NULL,
				  XA_LIMIT(IRDMA_RSVD_QPS, max - 1),
				  &fn->qp_next, GFP_KERNEL);
	return err < 0 ? (err == -EBUSY ? -EOVERFLOW : err) : 0;
}

/**
 * irdma_setup_kmode_qp - rings for a kernel QP
 * @iwdev: the device
 * @qp: the QP
 * @init_attr: the requested capacities; updated to what the QP got
 *
 * The SQ and RQ are sized in WQE quanta from the requested work requests,
 * gather entries and inline data; one block of coherent memory holds the
 * SQ, the RQ and the shadow area, and the tracking arrays remember each
 * WQE's id.
 *
 * Return: 0, -EINVAL for queues beyond the hardware's limit, -ENOMEM.
 */
static int irdma_setup_kmode_qp(struct irdma_device *iwdev,
				struct irdma_qp *qp,
				struct ib_qp_init_attr *init_attr)
{
	const struct irdma_uk_attrs *uk = &iwdev->fn.uk_attrs;
	struct ib_qp_cap *cap = &init_attr->cap;
	u32 sq_depth, rq_depth;
	u8 sq_shift, rq_shift;
	size_t size;
	int err;

	/* A send WQE may carry immediate data in a fragment slot. */
	sq_shift = irdma_wqe_shift(uk, cap->max_send_sge + 1, cap->max_inline_data);
	rq_shift = irdma_wqe_shift(uk, cap->max_recv_sge, 0);
	err = irdma_sq_depth(uk, cap->max_send_wr, sq_shift, &sq_depth);
	if (!err)
		err = irdma_rq_depth(uk, cap->max_recv_wr, rq_shift, &rq_depth);
	if (err)
		return err;

	qp->sq_wr = kcalloc(sq_depth, sizeof(*qp->sq_wr), GFP_KERNEL);
	qp->rq_wr_id = kcalloc(rq_depth >> rq_shift, sizeof(*qp->rq_wr_id),
			       GFP_KERNEL);
	if (!qp->sq_wr || !qp->rq_wr_id)
		return -ENOMEM;
	size = ALIGN((size_t)(sq_depth + rq_depth) * IRDMA_WQE_QUANTUM_SIZE +
		     IRDMA_QP_SHADOW_SIZE, 256);
	err = irdma_dma_alloc(&iwdev->fn, &qp->queues, size, GFP_KERNEL);
	if (err)
		return err;

	qp->uk.sq = qp->queues.va;
	irdma_ring_init(&qp->uk.sq_ring, sq_depth);
	qp->uk.sq_wr = qp->sq_wr;
	qp->uk.rq = qp->queues.va + (size_t)sq_depth * IRDMA_WQE_QUANTUM_SIZE;
	irdma_ring_init(&qp->uk.rq_ring, rq_depth >> rq_shift);
	qp->uk.rq_shift = rq_shift;
	qp->uk.rq_wr_id = qp->rq_wr_id;
	qp->uk.shadow = qp->queues.va + (size_t)(sq_depth + rq_depth) *
			IRDMA_WQE_QUANTUM_SIZE;
	qp->uk.max_sq_frags = cap->max_send_sge;
	qp->uk.max_rq_frags = cap->max_recv_sge;
	qp->uk.max_inline = cap->max_inline_data;
	irdma_uk_qp_init(&qp->uk);

	qp->hw.sq_pa = qp->queues.pa;
	qp->hw.rq_pa = qp->queues.pa + (u64)sq_depth * IRDMA_WQE_QUANTUM_SIZE;
	qp->hw.shadow_pa = qp->hw.rq_pa + (u64)rq_depth * IRDMA_WQE_QUANTUM_SIZE;
	qp->hw.sq_quanta = sq_depth;
	qp->hw.rq_quanta = rq_depth;
	qp->hw.rq_shift = rq_shift;

	cap->max_send_wr = (sq_depth - IRDMA_SQ_RSVD) >> sq_shift;
	cap->max_recv_wr = (rq_depth - IRDMA_RQ_RSVD) >> rq_shift;
	return 0;
}

static void irdma_free_qp_rsrc(struct irdma_qp *qp, bool hw_done)
{
	struct irdma_fn *fn = &qp->iwdev->fn;

	irdma_dma_release(fn, &qp->queues, hw_done);
	irdma_dma_release(fn, &qp->ctx, hw_done);
	irdma_queue_reg_release(fn, qp->user_rings, hw_done);
	qp->user_rings = NULL;
	kfree(qp->sq_wr);
	kfree(qp->rq_wr_id);
	qp->sq_wr = NULL;
	qp->rq_wr_id = NULL;
}

/**
 * irdma_qp_put - drop a reference to a QP
 * @qp: the QP; its destroy waits for the last reference
 */
void irdma_qp_put(struct irdma_qp *qp)
{
	if (refcount_dec_and_test(&qp->refs))
		complete(&qp->unused);
}

/**
 * irdma_qp_get_live - find a QP by number and hold it
 * @fn: the function
 * @qp_id: the QP's number
 *
 * A QP being destroyed is no longer found: destroy takes it out of the
 * table before it drops its own reference.
 *
 * Context: any; takes the table's lock with interrupts saved.
 * Return: the QP, held (release with irdma_qp_put()), or NULL.
 */
struct irdma_qp *irdma_qp_get_live(struct irdma_fn *fn, u32 qp_id)
{
	struct irdma_qp *qp;
	unsigned long flags;

	xa_lock_irqsave(&fn->qp_table, flags);
	qp = xa_load(&fn->qp_table, qp_id);
	if (qp && !refcount_inc_not_zero(&qp->refs))
		qp = NULL;
	xa_unlock_irqrestore(&fn->qp_table, flags);
	return qp;
}

static void irdma_qp_ctx_sync(struct irdma_qp *qp)
{
	qp->hw.send_cq = qp->send_cq->hw.id;
	qp->hw.recv_cq = qp->recv_cq->hw.id;
	if (qp->hw.type == IRDMA_QP_TYPE_IWARP)
		irdma_qp_ctx_write_iwarp(qp->ctx.va + IRDMA_QP_HOST_CTX, &qp->hw);
	else
		irdma_qp_ctx_write(qp->ctx.va + IRDMA_QP_HOST_CTX, &qp->hw);
}

static void irdma_qp_ae_work(struct work_struct *work);
static void irdma_qp_flush_work(struct work_struct *work);

/* What a user QP's provider learns at creation. */
static int irdma_create_qp_resp(struct irdma_qp *qp, struct ib_udata *udata)
{
	struct irdma_create_qp_resp resp = {
		.qp_id = qp->id,
		.actual_sq_size = qp->user_sq_size,
		.actual_rq_size = qp->user_rq_size,
		.push_idx = IRDMA_NO_PUSH_PAGE,
		.qp_caps = IRDMA_QP_CAP_SEND_WITH_IMM | IRDMA_QP_CAP_ROCE |
			   IRDMA_QP_CAP_PUSH_MODE,
	};

	if (qp->ibqp.qp_type == IB_QPT_RC)
		resp.qp_caps |= IRDMA_QP_CAP_WRITE_WITH_IMM;
	/*
	 * iWARP: no immediate data on sends; the SQ's first WQEs are the
	 * connection manager's (the provider starts its own after them).
	 */
	if (qp->hw.type == IRDMA_QP_TYPE_IWARP) {
		resp.qp_caps = IRDMA_QP_CAP_WRITE_WITH_IMM | IRDMA_QP_CAP_PUSH_MODE;
		resp.lsmm = 1;
	}
	return ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen)) ?
	       -EPROTO : 0;
}

/*
 * The hardware side of a QP's teardown. Return: true if the hardware let
 * go of the QP's memory.
 */
static bool irdma_qp_destroy_hw(struct irdma_qp *qp)
{
	struct irdma_cqp_wqe cmd;

	irdma_build_destroy_qp(&cmd, &qp->hw);
	return !irdma_cqp_exec(&qp->iwdev->fn, &cmd, NULL);
}

/**
 * irdma_create_qp - create a queue pair
 * @ibqp: the QP ib_core allocated
 * @init_attr: type, CQs and capacities; the capacities are updated
 * @udata: a user QP's request (its registered rings); NULL for the kernel
 *
 * Return: 0, -EOPNOTSUPP for flags, types or SRQs the device does not
 * take, -EINVAL for capacities beyond it or a short user request,
 * -ENODATA for user rings never registered, -EOVERFLOW when no QP number
 * is free (-EBUSY for a second GSI QP), -ENOMEM, or the CQP's error.
 */
int irdma_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init_attr,
		    struct ib_udata *udata)
{
	struct irdma_device *iwdev = to_iwdev(ibqp->device);
	struct irdma_fn *fn = &iwdev->fn;
	struct irdma_qp *qp = to_iwqp(ibqp);
	struct irdma_cqp_wqe cmd;
	bool hw_done = true;
	int err;

	err = irdma_validate_qp_attrs(iwdev, init_attr, udata);
	if (err)
		return err;
	if (udata && (udata->inlen < offsetofend(struct irdma_create_qp_req, user_compl_ctx) ||
		      udata->outlen < offsetofend(struct irdma_create_qp_resp, rsvd)))
		return -EINVAL;
	qp->user = !!udata;

	qp->iwdev = iwdev;
	spin_lock_init(&qp->lock);
	mutex_init(&qp->mutex);
	INIT_WORK(&qp->ae_work, irdma_qp_ae_work);
	INIT_DELAYED_WORK(&qp->flush_work, irdma_qp_flush_work);
	irdma_qp_term_init(qp);
	irdma_ieq_qp_init(qp);
	refcount_set(&qp->refs, 1);
	init_completion(&qp->unused);
	qp->send_cq = to_iwcq(init_attr->send_cq);
	qp->recv_cq = to_iwcq(init_attr->recv_cq);
	qp->sig_all = init_attr->sq_sig_type == IB_SIGNAL_ALL_WR;
	if (init_attr->srq) {
		/* Receives come from the SRQ; the QP keeps a token RQ. */
		qp->srq = to_iwsrq(init_attr->srq);
		qp->hw.use_srq = true;
		qp->hw.srq_id = qp->srq->hw.id;
		init_attr->cap.max_recv_sge = fn->uk_attrs.max_hw_wq_frags;
		init_attr->cap.max_recv_wr = IRDMA_SRQ_QP_RQ_WRS;
	}

	err = irdma_qp_alloc_id(fn, qp, init_attr->qp_type);
	if (err)
		return err;
	err = irdma_dma_alloc(fn, &qp->ctx, IRDMA_QP_CTX_BLOCK, GFP_KERNEL);
	if (err)
		goto err_free_id;
	if (qp->user)
		err = irdma_setup_umode_qp(udata, qp, init_attr);
	else
		err = irdma_setup_kmode_qp(iwdev, qp, init_attr);
	if (err)
		goto err_free_rsrc;

	qp->uk.id = qp->id;
	qp->uk.db = (u32 __iomem *)(fn->hw + IRDMA_PFPE_WQEALLOC);
	qp->uk.ud = init_attr->qp_type != IB_QPT_RC;
	qp->hw.id = qp->id;
	qp->hw.type = qp->uk.ud ? IRDMA_QP_TYPE_ROCE_UD : IRDMA_QP_TYPE_ROCE_RC;
	if (!rdma_protocol_roce(ibqp->device, 1)) {
		qp->hw.type = IRDMA_QP_TYPE_IWARP;
		/* The Q2 buffer (terminate messages) is the block's first half. */
		qp->hw.q2_pa = qp->ctx.pa;
		init_waitqueue_head(&qp->cm_wait);
		if (!qp->user)
			irdma_uk_qp_conn_wqes(&qp->uk, IRDMA_IWARP_CONN_WQES);
	}
	qp->hw.ctx_pa = qp->ctx.pa + IRDMA_QP_HOST_CTX;
	if (!qp->user)
		qp->hw.compl_ctx = (uintptr_t)qp;
	qp->hw.kernel = !qp->user;
	ether_addr_copy(qp->hw.mac, fn->res.netdev->dev_addr);
	qp->hw.mss = ib_mtu_enum_to_int(ib_mtu_int_to_enum(READ_ONCE(fn->mtu)));
	qp->hw.src_port = IRDMA_DEFAULT_SRC_PORT;
	qp->hw.retry_cnt = IRDMA_DEFAULT_RETRY;
	qp->hw.rnr_retry = IRDMA_DEFAULT_RETRY;
	/*
	 * An iWARP QP's context names its PD, ORD and IRD once it takes a
	 * connection (irdma_cm_offload()), as the stock driver's; a RoCE
	 * QP's PD comes with its first modify.
	 */
	if (qp->hw.type != IRDMA_QP_TYPE_IWARP) {
		qp->hw.ord = IRDMA_GEN2_MAX_ORD;
		qp->hw.ird = IRDMA_GEN2_MAX_IRD;
	}
	qp->hw.qs_handle = irdma_ws_qs_handle(fn, 0);
	irdma_qp_ctx_sync(qp);

	irdma_build_create_qp(&cmd, &qp->hw);
	err = irdma_cqp_exec(fn, &cmd, NULL);
	if (err) {
		/* Unanswered, the command may yet create the QP on its memory. */
		hw_done = err != -ETIMEDOUT;
		goto err_free_rsrc;
	}
	/*
	 * It sends at priority 0 until an address vector says otherwise; the
	 * hardware learns the queue set from the context of its next modify.
	 */
	if (irdma_ws_qp_join(qp, 0)) {
		/* Upstream's errno when the queue set cannot be had. */
		err = -EINVAL;
		goto err_destroy_hw;
	}

	ibqp->qp_num = qp->id;
	qp->attr.cap = init_attr->cap;
	qp->ib_state = IB_QPS_RESET;
	qp->hw_state = IRDMA_QPS_INVALID;
	if (qp->user) {
		err = irdma_create_qp_resp(qp, udata);
		if (err)
			goto err_destroy_hw;
	}
	xa_store_irq(&fn->qp_table, qp->id, qp, GFP_KERNEL);
	return 0;

err_destroy_hw:
	hw_done = irdma_qp_destroy_hw(qp);
	irdma_ws_qp_leave(qp);
err_free_rsrc:
	irdma_free_qp_rsrc(qp, hw_done);
err_free_id:
	xa_erase_irq(&fn->qp_table, qp->id);
	return err;
}

/* The addressing of an RC QP's peer, from the address vector. */
static int irdma_qp_set_av(struct irdma_qp *qp, struct ib_qp_attr *attr)
{
	const struct ib_global_route *grh = rdma_ah_read_grh(&attr->ah_attr);
	struct irdma_fn *fn = &qp->iwdev->fn;
	struct irdma_qp_hw_info *hw = &qp->hw;
	struct irdma_roce_path path;
	int idx, err;
	u8 up;

	if (!grh->sgid_attr)
		return -EINVAL;
	err = irdma_roce_path_get(grh->sgid_attr, &grh->dgid, &path);
	if (err)
		return err;
	hw->ipv4 = path.ipv4;
	memcpy(hw->src_ip, path.src_ip, sizeof(hw->src_ip));
	memcpy(hw->dest_ip, path.dest_ip, sizeof(hw->dest_ip));
	ether_addr_copy(hw->mac, path.mac);
	hw->ttl = grh->hop_limit;
	hw->tos = grh->traffic_class;
	hw->flow_label = grh->flow_label;
	hw->src_port = rdma_get_udp_sport(grh->flow_label, qp->id,
					  attr->dest_qp_num ? attr->dest_qp_num :
					  hw->dest_qp);
	up = irdma_roce_user_pri(fn, grh->sgid_attr, grh->traffic_class,
				 IRDMA_UP_FROM_DSCP);
	/* The priority's traffic class has its own queue set. */
	err = irdma_ws_qp_join(qp, up);
	if (err)
		return err;
	hw->insert_vlan = irdma_roce_vlan_tag(fn, path.vlan, up, &hw->vlan);
	idx = irdma_arp_add(fn, hw->dest_ip, hw->ipv4, attr->ah_attr.roce.dmac);
	if (idx < 0)
		return idx;
	/* The QP holds one reference, to the entry it names now. */
	irdma_arp_put(fn, hw->arp_idx);
	hw->arp_idx = idx;
	return 0;
}

/* Attributes the context takes as they are: from ib_qp_attr to the QP. */
struct irdma_qp_attr_copy {
	int mask;
	size_t from;
	size_t to;
	size_t len;
};

/* Both sides of each pair have the same size. */
static const struct irdma_qp_attr_copy irdma_qp_attr_copies[] = {
	{ IB_QP_DEST_QPN, offsetof(struct ib_qp_attr, dest_qp_num),
	  offsetof(struct irdma_qp_hw_info, dest_qp),
	  sizeof_field(struct irdma_qp_hw_info, dest_qp) },
	{ IB_QP_QKEY, offsetof(struct ib_qp_attr, qkey),
	  offsetof(struct irdma_qp_hw_info, qkey),
	  sizeof_field(struct irdma_qp_hw_info, qkey) },
	{ IB_QP_SQ_PSN, offsetof(struct ib_qp_attr, sq_psn),
	  offsetof(struct irdma_qp_hw_info, sq_psn),
	  sizeof_field(struct irdma_qp_hw_info, sq_psn) },
	{ IB_QP_RQ_PSN, offsetof(struct ib_qp_attr, rq_psn),
	  offsetof(struct irdma_qp_hw_info, rq_psn),
	  sizeof_field(struct irdma_qp_hw_info, rq_psn) },
	{ IB_QP_RETRY_CNT, offsetof(struct ib_qp_attr, retry_cnt),
	  offsetof(struct irdma_qp_hw_info, retry_cnt),
	  sizeof_field(struct irdma_qp_hw_info, retry_cnt) },
	{ IB_QP_RNR_RETRY, offsetof(struct ib_qp_attr, rnr_retry),
	  offsetof(struct irdma_qp_hw_info, rnr_retry),
	  sizeof_field(struct irdma_qp_hw_info, rnr_retry) },
};

static int irdma_qp_apply_attrs(struct irdma_qp *qp, struct ib_qp_attr *attr,
				int mask)
{
	struct irdma_qp_hw_info *hw = &qp->hw;
	int err, i;

	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index >= IRDMA_PKEY_TBL_SZ)
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > IRDMA_GEN2_MAX_ORD)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > IRDMA_GEN2_MAX_IRD)
		return -EINVAL;
	if (mask & IB_QP_AV) {
		err = irdma_qp_set_av(qp, attr);
		if (err)
			return err;
	}
	for (i = 0; i < ARRAY_SIZE(irdma_qp_attr_copies); i++) {
		const struct irdma_qp_attr_copy *c = &irdma_qp_attr_copies[i];

		if (mask & c->mask)
			memcpy((u8 *)hw + c->to, (u8 *)attr + c->from, c->len);
	}
	/* The only P_Key is the default one. */
	if (mask & IB_QP_PKEY_INDEX)
		hw->pkey = 0xffff;
	if (mask & IB_QP_SQ_PSN)
		hw->sq_psn_set = true;
	if (mask & IB_QP_PATH_MTU)
		hw->mss = ib_mtu_enum_to_int(attr->path_mtu);
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) && attr->max_rd_atomic)
		hw->ord = attr->max_rd_atomic;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) && attr->max_dest_rd_atomic)
		hw->ird = attr->max_dest_rd_atomic;
	hw->pd = to_iwpd(qp->ibqp.pd)->id;
	return 0;
}

/* Flush what the QP holds; later work completes through flush_work. */
static void irdma_qp_flush(struct irdma_qp *qp)
{
	struct irdma_fn *fn = &qp->iwdev->fn;
	struct irdma_cqp_wqe cmd;
	u16 sq_minor = IRDMA_FLUSH_GENERAL_ERR, rq_minor = IRDMA_FLUSH_GENERAL_ERR;
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->flush_issued) {
		spin_unlock_irqrestore(&qp->lock, flags);
		return;
	}
	qp->flush_issued = true;
	if (qp->flush_code && qp->flush_sq_code)
		sq_minor = qp->flush_code;
	if (qp->flush_code && qp->flush_rq_code)
		rq_minor = qp->flush_code;
	spin_unlock_irqrestore(&qp->lock, flags);

	irdma_build_flush_wqes(&cmd, qp->id, true, true, sq_minor, rq_minor);
	irdma_cqp_exec(fn, &cmd, NULL);
	/* A user QP's provider completes what is left itself. */
	if (!qp->user)
		mod_delayed_work(system_wq, &qp->flush_work,
				 msecs_to_jiffies(IRDMA_FLUSH_DELAY_MS));
	/*
	 * A QP in error takes nothing more from its SRQ: the consumer's
	 * drain (ib_drain_qp()) waits for that word, up to a minute.
	 */
	if (qp->srq && qp->ibqp.event_handler) {
		struct ib_event ev = {
			.device = qp->ibqp.device,
			.element.qp = &qp->ibqp,
			.event = IB_EVENT_QP_LAST_WQE_REACHED,
		};

		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
	}
}

static void irdma_qp_reflush(struct irdma_qp *qp, bool sq, bool rq)
{
	struct irdma_cqp_wqe cmd;

	irdma_build_flush_wqes(&cmd, qp->id, sq, rq, IRDMA_FLUSH_GENERAL_ERR,
			       IRDMA_FLUSH_GENERAL_ERR);
	irdma_cqp_exec(&qp->iwdev->fn, &cmd, NULL);
}

static int irdma_qp_hw_modify(struct irdma_qp *qp, u8 next, u32 flags)
{
	struct irdma_cqp_wqe cmd;
	int err;

	irdma_build_modify_qp(&cmd, &qp->hw, next, flags);
	err = irdma_cqp_exec(&qp->iwdev->fn, &cmd, NULL);
	if (err)
		return -EINVAL;
	qp->hw_state = next;
	return 0;
}

/*
 * Moving to SQD, the hardware reports the SQ drained with an asynchronous
 * event; the stock driver waits five seconds for it, and so do we.
 */
static int irdma_qp_wait_drained(struct irdma_qp *qp)
{
	struct irdma_ws *ws = &qp->iwdev->fn.ws;

	if (wait_event_timeout(ws->suspend_wq, !READ_ONCE(qp->suspend_pending),
			       msecs_to_jiffies(IRDMA_SQD_WAIT_MS)))
		return 0;
	WRITE_ONCE(qp->suspend_pending, false);
	ibdev_warn(qp->ibqp.device, "QP %u: no report of its SQ drained\n", qp->id);
	return -EBUSY;
}

/**
 * irdma_modify_qp_roce - change a RoCE QP's attributes and state
 * @qp: the QP
 * @attr: the new attributes
 * @mask: which of @attr to take
 *
 * The host context is rewritten each time; a state change reaches the
 * hardware through MODIFY_QP, and error states flush the queues.
 *
 * Context: the QP's mutex held.
 * Return: 0, -EOPNOTSUPP for attributes the device does not know,
 * -EINVAL for a transition the state machine forbids or bad attributes.
 */
static int irdma_modify_qp_roce(struct irdma_qp *qp, struct ib_qp_attr *attr,
				int mask)
{
	enum ib_qp_state cur, next;
	u32 flags = 0;
	u8 hw_next = 0;
	int err;

	lockdep_assert_held(&qp->mutex);
	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;

	cur = qp->ib_state;
	next = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, next, qp->ibqp.qp_type, mask)) {
		err = -EINVAL;
		goto out;
	}
	err = irdma_qp_apply_attrs(qp, attr, mask);
	if (err)
		goto out;

	if (mask & IB_QP_STATE) {
		switch (next) {
		case IB_QPS_INIT:
			if (qp->hw_state > IRDMA_QPS_IDLE)
				err = -EINVAL;
			else if (qp->hw_state == IRDMA_QPS_INVALID)
				hw_next = IRDMA_QPS_IDLE;
			break;
		case IB_QPS_RTR:
			if (qp->hw_state > IRDMA_QPS_IDLE)
				err = -EINVAL;
			hw_next = IRDMA_QPS_RTR;
			flags = IRDMA_QPMOD_ARP_VALID | IRDMA_QPMOD_CQ_VALID;
			break;
		case IB_QPS_RTS:
			if (cur < IB_QPS_RTR || cur == IB_QPS_ERR)
				err = -EINVAL;
			hw_next = IRDMA_QPS_RTS;
			flags = IRDMA_QPMOD_ARP_VALID | IRDMA_QPMOD_CQ_VALID |
				IRDMA_QPMOD_ORD_VALID;
			/* The page goes to the hardware in this context. */
			if (!err && irdma_push_wanted(qp))
				irdma_alloc_push_page(qp);
			break;
		case IB_QPS_SQD:
			if (cur == IB_QPS_SQD)
				goto done;
			if (qp->hw_state != IRDMA_QPS_RTS)
				err = -EINVAL;
			hw_next = IRDMA_QPS_SQD;
			break;
		case IB_QPS_SQE:
		case IB_QPS_ERR:
		case IB_QPS_RESET:
			if (qp->hw_state != IRDMA_QPS_ERROR)
				hw_next = IRDMA_QPS_ERROR;
			break;
		default:
			err = -EINVAL;
		}
		if (err)
			goto out;
	}
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		flags |= IRDMA_QPMOD_ORD_VALID;

	irdma_qp_ctx_sync(qp);
	if (hw_next) {
		/* The report of the drained SQ may come before the answer. */
		WRITE_ONCE(qp->suspend_pending, hw_next == IRDMA_QPS_SQD);
		err = irdma_qp_hw_modify(qp, hw_next, flags);
		if (err) {
			WRITE_ONCE(qp->suspend_pending, false);
			goto out;
		}
		if (hw_next == IRDMA_QPS_SQD)
			err = irdma_qp_wait_drained(qp);
		if (err)
			goto out;
	}
	/* The ARP index the next context names as the remote endpoint. */
	qp->hw.rem_endpoint = qp->hw.arp_idx;
done:
	if (mask & IB_QP_STATE)
		qp->ib_state = next;
	if (next >= IB_QPS_SQE && !qp->flush_issued)
		irdma_qp_flush(qp);
out:
	return err;
}

/* An iWARP connection the QP carries is live (a reset would reach it). */
static bool irdma_qp_tcp_live(struct irdma_qp *qp)
{
	u8 tcp = READ_ONCE(qp->tcp_state);

	return (qp->hw_state == IRDMA_QPS_RTS || qp->hw_state == IRDMA_QPS_SQD ||
		qp->hw_state == IRDMA_QPS_TERMINATE) &&
	       tcp != IRDMA_TCP_STATE_CLOSED && tcp != IRDMA_TCP_STATE_TIME_WAIT;
}

/**
 * irdma_qp_iwarp_rts - an iWARP QP takes its connection over: its context
 *	with the connection, and RTS
 * @qp: the QP, its connection's numbers in @qp->iw_conn and @qp->hw
 *
 * Context: @qp->mutex held.
 * Return: 0 or -EINVAL.
 */
int irdma_qp_iwarp_rts(struct irdma_qp *qp)
{
	int err;

	lockdep_assert_held(&qp->mutex);
	qp->tcp_state = IRDMA_TCP_STATE_ESTABLISHED;
	irdma_qp_ctx_sync(qp);
	err = irdma_qp_hw_modify(qp, IRDMA_QPS_RTS, IRDMA_QPMOD_TCP_VALID |
				 IRDMA_QPMOD_ARP_VALID | IRDMA_QPMOD_ORD_VALID |
				 IRDMA_QPMOD_CQ_VALID);
	if (err)
		return err;
	qp->ib_state = IB_QPS_RTS;
	return 0;
}

/*
 * A move the engine's events call for (the peer's FIN, an error) names the
 * QP's CQs and ARP entry again, as the stock driver's does; the
 * consumer's own moves name nothing.
 */
#define IRDMA_QPMOD_IW_EVENT	(IRDMA_QPMOD_CQ_VALID | IRDMA_QPMOD_ARP_VALID)

/**
 * irdma_qp_iwarp_close - an iWARP QP closes its connection gracefully:
 *	CLOSING, the engine sends its FIN
 * @qp: the QP, at RTS
 * @peer: the peer closed first (its FIN came): an engine's event
 *
 * Context: @qp->mutex held.
 */
void irdma_qp_iwarp_close(struct irdma_qp *qp, bool peer)
{
	lockdep_assert_held(&qp->mutex);
	if (!irdma_qp_hw_modify(qp, IRDMA_QPS_SQD, peer ? IRDMA_QPMOD_IW_EVENT : 0))
		qp->ib_state = IB_QPS_SQD;
}

/**
 * irdma_qp_iwarp_err_flags - what an iWARP QP's MODIFY_QP to ERROR takes
 * @qp: the QP
 * @reset: reset the connection
 * @event: an engine's event calls for the move
 *
 * The connection is reset only while live and while the port is active:
 * with the port down (its netdev down, or the device going away) the
 * stock driver sends no reset, and the peer learns of the end only when
 * it next sends. An engine's error also takes the connection's quad hash
 * entry out.
 *
 * Return: IRDMA_QPMOD_* flags.
 */
u32 irdma_qp_iwarp_err_flags(struct irdma_qp *qp, bool reset, bool event)
{
	u32 flags = event ? IRDMA_QPMOD_IW_EVENT | IRDMA_QPMOD_DEL_HASH : 0;

	if (reset && irdma_qp_tcp_live(qp) && READ_ONCE(qp->iwdev->port_active))
		flags |= IRDMA_QPMOD_RESET_CONN;
	return flags;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_qp_iwarp_err_flags);

/**
 * irdma_qp_iwarp_error - an iWARP QP to ERROR, with
 *	irdma_qp_iwarp_err_flags(), and its queues flushed
 * @qp: the QP
 * @reset: reset the connection, if live
 * @event: an engine's event calls for the move
 *
 * Context: @qp->mutex held.
 */
void irdma_qp_iwarp_error(struct irdma_qp *qp, bool reset, bool event)
{
	u32 flags = irdma_qp_iwarp_err_flags(qp, reset, event);

	lockdep_assert_held(&qp->mutex);
	irdma_qp_term_end(qp);
	if (qp->hw_state != IRDMA_QPS_ERROR && qp->hw_state != IRDMA_QPS_INVALID)
		irdma_qp_hw_modify(qp, IRDMA_QPS_ERROR, flags);
	qp->ib_state = IB_QPS_ERR;
	if (!qp->flush_issued)
		irdma_qp_flush(qp);
}

/**
 * irdma_qp_iwarp_fail - an iWARP QP's connection ends: the QP to error
 * @qp: the QP
 * @reset: reset the connection, if live
 *
 * Context: process context; takes @qp->mutex.
 */
void irdma_qp_iwarp_fail(struct irdma_qp *qp, bool reset)
{
	mutex_lock(&qp->mutex);
	irdma_qp_iwarp_error(qp, reset, false);
	mutex_unlock(&qp->mutex);
}

/**
 * irdma_qp_iwarp_closed - an iWARP QP's connection is over: the queues
 *	flushed
 * @qp: the QP
 *
 * A connection the engine ended (closed by both FINs, or reset: its TCP
 * state says so) owes no MODIFY_QP, as with the stock driver; one still
 * live goes to ERROR.
 *
 * Context: process context; takes @qp->mutex.
 */
void irdma_qp_iwarp_closed(struct irdma_qp *qp)
{
	mutex_lock(&qp->mutex);
	if (irdma_qp_tcp_live(qp)) {
		irdma_qp_iwarp_error(qp, false, false);
	} else {
		qp->ib_state = IB_QPS_ERR;
		if (!qp->flush_issued)
			irdma_qp_flush(qp);
	}
	mutex_unlock(&qp->mutex);
}

/*
 * An iWARP QP's states: INIT and RTR are the consumer's; RTS comes from
 * the connection manager only; SQD closes the connection gracefully, the
 * error states reset it.
 */
static int irdma_modify_qp_iwarp(struct irdma_qp *qp, struct ib_qp_attr *attr,
				 int mask)
{
	enum ib_qp_state cur = qp->ib_state, next;
	int err = 0;

	lockdep_assert_held(&qp->mutex);
	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	if (!(mask & IB_QP_STATE))
		return 0;
	next = attr->qp_state;
	switch (next) {
	case IB_QPS_RESET:
		if (cur != IB_QPS_RESET && cur != IB_QPS_ERR)
			irdma_qp_iwarp_error(qp, true, false);
		break;
	case IB_QPS_INIT:
	case IB_QPS_RTR:
		if (cur > IB_QPS_RTR)
			return -EINVAL;
		if (qp->hw_state == IRDMA_QPS_INVALID || qp->iw_idle_owed) {
			irdma_qp_ctx_sync(qp);
			err = irdma_qp_hw_modify(qp, IRDMA_QPS_IDLE, 0);
			if (!err)
				qp->iw_idle_owed = false;
		} else {
			qp->iw_idle_owed = true;
		}
		break;
	case IB_QPS_RTS:
		if (cur != IB_QPS_RTS || !READ_ONCE(qp->cm_conn))
			return -EINVAL;
		break;
	case IB_QPS_SQD:
		/*
		 * Both ends may close at once (rdma_disconnect() moves a user
		 * QP to SQD first): a QP the engine has taken past RTS is
		 * closed or closing already, and that is success, as with
		 * the stock driver. Refused only while the engine still has
		 * the QP short of that and the consumer had it failed.
		 */
		if (qp->hw_state > IRDMA_QPS_RTS)
			return 0;
		if (cur >= IB_QPS_SQE)
			return -EINVAL;
		if (qp->hw_state == IRDMA_QPS_RTS)
			irdma_qp_iwarp_close(qp, false);
		return 0;
	case IB_QPS_SQE:
	case IB_QPS_ERR:
		irdma_qp_iwarp_error(qp, true, false);
		irdma_cm_qp_closing(qp, true);
		return 0;
	default:
		return -EINVAL;
	}
	if (!err)
		qp->ib_state = next;
	return err;
}

/*
 * What query_qp reports of a modify that succeeded. The AV's reference to
 * its GID attributes is swapped here: two modifies at once would drop the
 * old one twice, hence the mutex.
 */
static void irdma_qp_keep_attrs(struct irdma_qp *qp,
				const struct ib_qp_attr *attr, int mask)
{
	lockdep_assert_held(&qp->mutex);
	if (mask & IB_QP_AV)
		rdma_replace_ah_attr(&qp->attr.ah_attr, &attr->ah_attr);
	if (mask & IB_QP_ACCESS_FLAGS)
		qp->attr.qp_access_flags = attr->qp_access_flags;
	if (mask & IB_QP_TIMEOUT)
		qp->attr.timeout = attr->timeout;
	if (mask & IB_QP_MIN_RNR_TIMER)
		qp->attr.min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_PATH_MTU)
		qp->attr.path_mtu = attr->path_mtu;
	if (mask & IB_QP_PKEY_INDEX)
		qp->attr.pkey_index = attr->pkey_index;
	if (mask & IB_QP_PORT)
		qp->attr.port_num = attr->port_num;
}

/**
 * irdma_modify_qp - change a QP's attributes and state
 * @ibqp: the QP
 * @attr: the new attributes
 * @attr_mask: which of @attr to take
 * @udata: user-space request (not for kernel QPs)
 *
 * The whole change, down to the attributes kept for query_qp and the push
 * page's mappings, is made under the QP's mutex: concurrent modifies see
 * each other whole.
 *
 * Return: 0 or a negative errno; the QP is unchanged on error.
 */
int irdma_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		    int attr_mask, struct ib_udata *udata)
{
	struct irdma_modify_qp_resp resp = {};
	struct irdma_modify_qp_req req = {};
	struct irdma_qp *qp = to_iwqp(ibqp);
	int err;

	if (udata && ((udata->inlen && udata->inlen < offsetofend(typeof(req), rq_flush)) ||
		      (udata->outlen && udata->outlen < offsetofend(typeof(resp), push_valid))))
		return -EINVAL;
	if (udata && udata->inlen &&
	    ib_copy_from_udata(&req, udata, min(sizeof(req), udata->inlen)))
		return -EFAULT;
	mutex_lock(&qp->mutex);
	if (qp->hw.type == IRDMA_QP_TYPE_IWARP)
		err = irdma_modify_qp_iwarp(qp, attr, attr_mask);
	else
		err = irdma_modify_qp_roce(qp, attr, attr_mask);
	if (err)
		ibdev_dbg(ibqp->device, "QP %u: modify (mask %#x, state %d -> %d) failed: %d\n",
			  qp->id, attr_mask, qp->ib_state,
			  attr_mask & IB_QP_STATE ? attr->qp_state : qp->ib_state, err);
	/* A provider asks to flush again what it posted after the flush. */
	if (!err && qp->user && (req.sq_flush || req.rq_flush) &&
	    qp->hw_state == IRDMA_QPS_ERROR)
		irdma_qp_reflush(qp, req.sq_flush, req.rq_flush);
	if (!err && udata && udata->outlen) {
		/* A push page's mappings, offered once; without them, no push. */
		if (qp->hw.push && !qp->push_wqe_entry)
			irdma_push_mmap_setup(qp, udata, &resp);
		if (ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen))) {
			if (resp.push_valid)
				irdma_push_mmap_remove(qp);
			err = -EPROTO;
		}
	}
	if (!err)
		irdma_qp_keep_attrs(qp, attr, attr_mask & IB_QP_ATTR_STANDARD_BITS);
	mutex_unlock(&qp->mutex);
	return err;
}

/**
 * irdma_query_qp - a QP's attributes
 * @ibqp: the QP
 * @attr: filled in
 * @attr_mask: what the caller wants (everything is returned)
 * @init_attr: filled in with the creation attributes
 *
 * Return: 0.
 */
int irdma_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		   int attr_mask, struct ib_qp_init_attr *init_attr)
{
	struct irdma_qp *qp = to_iwqp(ibqp);
	const struct irdma_qp_hw_info *hw = &qp->hw;

	memset(attr, 0, sizeof(*attr));
	memset(init_attr, 0, sizeof(*init_attr));
	mutex_lock(&qp->mutex);
	attr->qp_state = qp->ib_state;
	attr->cur_qp_state = qp->ib_state;
	attr->path_mtu = qp->attr.path_mtu ? qp->attr.path_mtu :
			 ib_mtu_int_to_enum(hw->mss);
	attr->qp_access_flags = qp->attr.qp_access_flags;
	attr->qkey = hw->qkey;
	attr->rq_psn = hw->rq_psn;
	attr->sq_psn = hw->sq_psn;
	attr->dest_qp_num = hw->dest_qp;
	attr->pkey_index = qp->attr.pkey_index;
	attr->port_num = 1;
	attr->timeout = qp->attr.timeout;
	attr->min_rnr_timer = qp->attr.min_rnr_timer;
	attr->retry_cnt = hw->retry_cnt;
	attr->rnr_retry = hw->rnr_retry;
	attr->max_rd_atomic = hw->ord;
	attr->max_dest_rd_atomic = hw->ird;
	if (qp->ibqp.qp_type == IB_QPT_RC)
		attr->ah_attr = qp->attr.ah_attr;
	attr->cap = qp->attr.cap;
	mutex_unlock(&qp->mutex);

	init_attr->event_handler = qp->ibqp.event_handler;
	init_attr->qp_context = qp->ibqp.qp_context;
	init_attr->send_cq = qp->ibqp.send_cq;
	init_attr->recv_cq = qp->ibqp.recv_cq;
	init_attr->cap = attr->cap;
	init_attr->sq_sig_type = qp->sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	init_attr->qp_type = qp->ibqp.qp_type;
	init_attr->srq = qp->ibqp.srq;
	return 0;
}

/**
 * irdma_destroy_qp - destroy a queue pair
 * @ibqp: the QP
 * @udata: user-space context (unused)
 *
 * Work still queued is flushed first; completions the consumer has not
 * polled are dropped from the CQs.
 *
 * Return: 0.
 */
int irdma_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct irdma_qp *qp = to_iwqp(ibqp);
	struct irdma_fn *fn = &qp->iwdev->fn;
	bool hw_done;

	mutex_lock(&qp->mutex);
	if (qp->hw.type == IRDMA_QP_TYPE_IWARP) {
		/*
		 * A connection still carried is reset, and its close reported
		 * (one in a terminate sequence too); one closing or closed is
		 * left to the engine (DESTROY_QP takes its hash entry out).
		 */
		if (qp->hw_state == IRDMA_QPS_RTS || qp->hw_state == IRDMA_QPS_TERMINATE)
			irdma_qp_iwarp_error(qp, true, false);
		irdma_cm_qp_closing(qp, true);
	} else if (qp->hw_state == IRDMA_QPS_RTS &&
		   !irdma_qp_hw_modify(qp, IRDMA_QPS_ERROR, 0)) {
		irdma_qp_flush(qp);
	}
	mutex_unlock(&qp->mutex);

	/*
	 * No new event finds the QP; those already found hold it, and their
	 * work runs to its end (cancelling it would lose the reference it
	 * holds). Only then can nothing arm the flush work again.
	 */
	xa_erase_irq(&fn->qp_table, qp->id);
	irdma_qp_put(qp);
	wait_for_completion(&qp->unused);
	flush_work(&qp->ae_work);
	irdma_qp_term_stop(qp);
	irdma_ieq_qp_stop(qp);
	cancel_delayed_work_sync(&qp->flush_work);
	if (!qp->user) {
		irdma_clean_cqes(qp, qp->send_cq);
		if (qp->recv_cq != qp->send_cq)
			irdma_clean_cqes(qp, qp->recv_cq);
	}

	irdma_push_mmap_remove(qp);
	hw_done = irdma_qp_destroy_hw(qp);
	if (hw_done)
		irdma_dealloc_push_page(qp);
	irdma_ws_qp_leave(qp);
	irdma_free_qp_rsrc(qp, hw_done);
	if (hw_done)
		irdma_arp_put(fn, qp->hw.arp_idx);
	rdma_destroy_ah_attr(&qp->attr.ah_attr);
	mutex_destroy(&qp->mutex);
	return 0;
}

/* One software flush completion for the WQE at a queue's tail. */
static struct irdma_sw_cqe *irdma_flush_cqe(struct irdma_qp *qp, u64 wr_id,
					    enum ib_wc_opcode opcode)
{
	struct irdma_sw_cqe *swc = kzalloc(sizeof(*swc), GFP_ATOMIC);

	if (!swc)
		return NULL;
	swc->wc.wr_id = wr_id;
	swc->wc.status = IB_WC_WR_FLUSH_ERR;
	swc->wc.vendor_err = IRDMA_CQE_MAJ_FLUSH << 16 | IRDMA_FLUSH_GENERAL_ERR;
	swc->wc.opcode = opcode;
	swc->wc.qp = &qp->ibqp;
	swc->wc.src_qp = qp->uk.ud ? 0 : qp->id;
	return swc;
}

/*
 * Complete in software what one of the QP's queues (@ring, its SQ's or
 * RQ's) still holds, once its CQ is drained. Return: false if the CQ still
 * had completions.
 */
static bool irdma_flush_queue_sw(struct irdma_qp *qp, struct irdma_ring *ring)
{
	bool sq = ring == &qp->uk.sq_ring;
	struct irdma_cq *cq = sq ? qp->send_cq : qp->recv_cq;
	struct irdma_sw_cqe *swc;
	unsigned long flags;
	u32 step;

	spin_lock_irqsave(&cq->lock, flags);
	if (!irdma_cq_hw_empty(cq)) {
		spin_unlock_irqrestore(&cq->lock, flags);
		return false;
	}
	while (!irdma_ring_empty(ring)) {
		const struct irdma_sq_wr *w = sq ? &qp->sq_wr[ring->tail] : NULL;

		step = w ? w->quanta : 1;
		/* Padding NOPs complete silently. */
		if (!w || w->op != IRDMA_WQEOP_NOP) {
			swc = w ? irdma_flush_cqe(qp, w->wr_id, irdma_sq_wc_opcode(w->op)) :
				  irdma_flush_cqe(qp, qp->rq_wr_id[ring->tail], IB_WC_RECV);
			if (!swc)
				break;
			list_add_tail(&swc->list, &cq->sw_cqes);
		}
		WRITE_ONCE(ring->tail, (ring->tail + step) % ring->size);
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return true;
}

static void irdma_qp_flush_work(struct work_struct *work)
{
	struct irdma_qp *qp = container_of(to_delayed_work(work),
					   struct irdma_qp, flush_work);
	bool done;

	done = irdma_flush_queue_sw(qp, &qp->uk.sq_ring);
	done &= irdma_flush_queue_sw(qp, &qp->uk.rq_ring);
	irdma_cq_kick(qp->send_cq);
	if (qp->recv_cq != qp->send_cq)
		irdma_cq_kick(qp->recv_cq);
	if (!done)
		mod_delayed_work(system_wq, &qp->flush_work,
				 msecs_to_jiffies(IRDMA_FLUSH_DELAY_MS));
}

/**
 * irdma_qp_sw_flush_kick - work was posted to a flushed QP
 * @qp: the QP
 */
void irdma_qp_sw_flush_kick(struct irdma_qp *qp)
{
	mod_delayed_work(system_wq, &qp->flush_work,
			 msecs_to_jiffies(IRDMA_FLUSH_DELAY_MS));
}

static void irdma_qp_ae_work(struct work_struct *work)
{
	struct irdma_qp *qp = container_of(work, struct irdma_qp, ae_work);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = qp->ae_event,
	};
	unsigned long flags;

	mutex_lock(&qp->mutex);
	if (qp->flush_issued) {
		mutex_unlock(&qp->mutex);
		goto out;
	}
	/* An RQ event: the context names the RQ WQE it stopped at. */
	spin_lock_irqsave(&qp->lock, flags);
	qp->hw.err_rq_idx_valid = qp->flush_rq_code;
	if (qp->flush_rq_code)
		qp->hw.err_rq_idx = qp->ae_wqe_idx;
	spin_unlock_irqrestore(&qp->lock, flags);
	if (qp->hw.type == IRDMA_QP_TYPE_IWARP && qp->ae_term)
		irdma_qp_term_start(qp, qp->ae_code);
	else if (qp->hw.type == IRDMA_QP_TYPE_IWARP)
		irdma_qp_iwarp_error(qp, true, true);
	else
		irdma_modify_qp_roce(qp, &attr, IB_QP_STATE);
	mutex_unlock(&qp->mutex);
	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
out:
	irdma_qp_put(qp);
}

/**
 * irdma_qp_suspended - the hardware reports a QP's SQ stopped: drained
 *	for SQD, or suspended for a change of the port's traffic classes
 * @fn: the function
 * @qp_id: the QP (it may be gone already)
 */
void irdma_qp_suspended(struct irdma_fn *fn, u32 qp_id)
{
	struct irdma_qp *qp = irdma_qp_get_live(fn, qp_id);

	irdma_ws_suspended(fn);
	if (!qp)
		return;
	if (READ_ONCE(qp->suspend_pending)) {
		WRITE_ONCE(qp->suspend_pending, false);
		wake_up(&fn->ws.suspend_wq);
	}
	irdma_qp_put(qp);
}

/**
 * irdma_qps_fail_unscheduled - fail the QPs a change of the port's
 *	traffic classes left without a queue set
 * @fn: the function
 *
 * Each gets a fatal event and goes to error, its work flushed.
 */
void irdma_qps_fail_unscheduled(struct irdma_fn *fn)
{
	struct irdma_qp *qp, *entry;
	unsigned long id;

	xa_for_each(&fn->qp_table, id, entry) {
		qp = irdma_qp_get_live(fn, id);
		if (!qp)
			continue;
		if (!READ_ONCE(qp->ws_joined))
			irdma_qp_async_event(fn, id, IRDMA_AE_LCE_QP_CATASTROPHIC,
					     IRDMA_AE_SOURCE_RSVD, 0);
		irdma_qp_put(qp);
	}
}

/**
 * irdma_qp_iwarp_ae - an AEQE named an iWARP QP: its connection manager
 *	hears of it
 * @fn: the function
 * @qp_id: the QP
 * @code: the event
 * @tcp_state: the TCP state the event reports
 * @error: the event moves the QP to error
 *
 * Context: the AEQ's interrupt thread.
 */
void irdma_qp_iwarp_ae(struct irdma_fn *fn, u32 qp_id, u16 code, u8 tcp_state,
		       bool error)
{
	struct irdma_qp *qp = irdma_qp_get_live(fn, qp_id);

	if (!qp)
		return;
	if (qp->hw.type == IRDMA_QP_TYPE_IWARP)
		irdma_cm_qp_ae(qp, code, tcp_state, error);
	irdma_qp_put(qp);
}

/* An error event: the work moves the QP to error, or terminates (@term). */
static void irdma_qp_error_event(struct irdma_fn *fn, u32 qp_id, u16 code, u8 source,
				 u32 wqe_idx, bool term)
{
	struct irdma_qp *qp;
	unsigned long flags;
	u16 flush;

	qp = irdma_qp_get_live(fn, qp_id);
	if (!qp)
		return;

	irdma_ae_qp_error(code, &flush, &qp->ae_event);
	spin_lock_irqsave(&qp->lock, flags);
	qp->ae_code = code;
	qp->ae_term = term;
	qp->flush_code = flush;
	qp->flush_sq_code = source == IRDMA_AE_SOURCE_SQ ||
			    source == IRDMA_AE_SOURCE_SQ_0111;
	qp->flush_rq_code = source == IRDMA_AE_SOURCE_RQ ||
			    source == IRDMA_AE_SOURCE_RQ_0011;
	qp->ae_wqe_idx = wqe_idx;
	spin_unlock_irqrestore(&qp->lock, flags);
	if (!queue_work(system_wq, &qp->ae_work))
		irdma_qp_put(qp);
}

/**
 * irdma_qp_async_event - an AEQE named a QP
 * @fn: the function
 * @qp_id: the QP
 * @code: the event (enum irdma_ae_code)
 * @source: which side of the QP it concerns (IRDMA_AE_SOURCE_*)
 * @wqe_idx: the WQE concerned
 *
 * Error events move the QP to the error state, flushing with the code the
 * event calls for, and tell the consumer.
 *
 * Context: the AEQ's interrupt thread.
 */
void irdma_qp_async_event(struct irdma_fn *fn, u32 qp_id, u16 code, u8 source,
			  u32 wqe_idx)
{
	irdma_qp_error_event(fn, qp_id, code, source, wqe_idx, false);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_qp_async_event);

/**
 * irdma_qp_iwarp_term_event - an error event of a connected iWARP QP,
 *	which the engine stopped: the consumer is told, and the connection
 *	ends with a TERMINATE to the peer (term.c)
 * @fn: the function
 * @qp_id: the QP
 * @code: the event (enum irdma_ae_code)
 * @source: which side of the QP it concerns (IRDMA_AE_SOURCE_*)
 * @wqe_idx: the WQE concerned
 *
 * Context: the AEQ's interrupt thread.
 */
void irdma_qp_iwarp_term_event(struct irdma_fn *fn, u32 qp_id, u16 code, u8 source,
			       u32 wqe_idx)
{
	irdma_qp_error_event(fn, qp_id, code, source, wqe_idx, true);
}
