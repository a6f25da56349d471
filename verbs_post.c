// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The kernel data path: work requests into send and receive WQEs.
 */
#include "verbs.h"

static int irdma_copy_sges(const struct ib_sge *ib, int n, struct irdma_sge *sg)
{
	int i;

	if (n < 0 || n > IRDMA_GEN2_MAX_WQ_FRAGS)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		sg[i].addr = ib[i].addr;
		sg[i].len = ib[i].length;
		sg[i].stag = ib[i].lkey;
	}
	return 0;
}

static u8 irdma_send_op(const struct ib_send_wr *wr)
{
	bool sol = wr->send_flags & IB_SEND_SOLICITED;

	if (wr->opcode == IB_WR_SEND_WITH_INV)
		return sol ? IRDMA_WQEOP_SEND_SOL_INV : IRDMA_WQEOP_SEND_INV;
	return sol ? IRDMA_WQEOP_SEND_SOL : IRDMA_WQEOP_SEND;
}

static int irdma_post_fast_reg(struct irdma_qp *qp, const struct ib_reg_wr *rw,
			       bool signaled)
{
	struct irdma_mr *mr = to_iwmr(rw->mr);
	struct irdma_fast_reg fr = {
		.wr_id = rw->wr.wr_id,
		.signaled = signaled,
		.read_fence = rw->wr.send_flags & IB_SEND_FENCE,
		.stag = rw->key,
		.va = mr->ibmr.iova,
		.len = mr->ibmr.length,
		.rights = irdma_get_mr_access(rw->access),
		.first_pble = mr->pble.idx,
		.first_page = mr->first_page,
		.page_size = irdma_hw_page_size(mr->page_size),
	};

	if (mr->npages > 1)
		fr.pbl_levels = mr->pble.level == 2 ? IRDMA_PBL_LEVELS_2 : 1;
	return irdma_uk_post_fast_reg(&qp->uk, &fr);
}

static int irdma_post_one_send(struct irdma_qp *qp, const struct ib_send_wr *wr)
{
	struct irdma_sge sg[IRDMA_GEN2_MAX_WQ_FRAGS];
	bool roce = rdma_protocol_roce(qp->ibqp.device, 1);
	struct irdma_sq_post p = {
		.wr_id = wr->wr_id,
		.signaled = (wr->send_flags & IB_SEND_SIGNALED) || qp->sig_all,
		.read_fence = wr->send_flags & IB_SEND_FENCE,
		.inline_data = wr->send_flags & IB_SEND_INLINE,
		.sg = sg,
		.num_sg = wr->num_sge,
	};
	int err;

	err = irdma_copy_sges(wr->sg_list, wr->num_sge, sg);
	if (err)
		return err;

	switch (wr->opcode) {
	case IB_WR_SEND_WITH_IMM:
		if (!roce)
			return -EINVAL;
		p.imm_valid = true;
		p.imm = be32_to_cpu(wr->ex.imm_data);
		fallthrough;
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_INV:
		p.op = irdma_send_op(wr);
		if (wr->opcode == IB_WR_SEND_WITH_INV)
			p.rem_stag = wr->ex.invalidate_rkey;
		if (qp->uk.ud) {
			p.ah_id = to_iwah(ud_wr(wr)->ah)->hw.id;
			p.dest_qpn = ud_wr(wr)->remote_qpn;
			p.qkey = ud_wr(wr)->remote_qkey;
		}
		break;
	case IB_WR_RDMA_WRITE_WITH_IMM:
		if (qp->uk.ud)
			return -EINVAL;
		p.imm_valid = true;
		p.imm = be32_to_cpu(wr->ex.imm_data);
		fallthrough;
	case IB_WR_RDMA_WRITE:
		if (qp->uk.ud)
			return -EINVAL;
		p.op = (wr->send_flags & IB_SEND_SOLICITED) ?
		       IRDMA_WQEOP_RDMA_WRITE_SOL : IRDMA_WQEOP_RDMA_WRITE;
		p.rem_addr = rdma_wr(wr)->remote_addr;
		p.rem_stag = rdma_wr(wr)->rkey;
		break;
	case IB_WR_RDMA_READ:
	case IB_WR_RDMA_READ_WITH_INV:
		if (qp->uk.ud || wr->num_sge > IRDMA_GEN2_MAX_READ_SGES)
			return -EINVAL;
		p.op = wr->opcode == IB_WR_RDMA_READ ? IRDMA_WQEOP_RDMA_READ :
						       IRDMA_WQEOP_RDMA_READ_INV_STAG;
		p.rem_addr = rdma_wr(wr)->remote_addr;
		p.rem_stag = rdma_wr(wr)->rkey;
		p.inline_data = false;
		break;
	case IB_WR_LOCAL_INV:
		if (qp->uk.ud)
			return -EINVAL;
		return irdma_uk_post_local_inv(&qp->uk, wr->wr_id,
					       wr->ex.invalidate_rkey,
					       p.signaled, p.read_fence);
	case IB_WR_REG_MR:
		if (qp->uk.ud)
			return -EINVAL;
		return irdma_post_fast_reg(qp, reg_wr(wr), p.signaled);
	default:
		return -EINVAL;
	}
	return irdma_uk_post_sq(&qp->uk, &p);
}

/**
 * irdma_post_send - queue send-side work
 * @ibqp: the QP
 * @wr: the work requests
 * @bad_wr: returns the first one not queued
 *
 * Work before a failing request stays queued and is started.
 *
 * Return: 0, -EINVAL for a malformed request, -ENOMEM when the SQ is full.
 */
int irdma_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		    const struct ib_send_wr **bad_wr)
{
	struct irdma_qp *qp = to_iwqp(ibqp);
	unsigned long flags;
	int err = 0;

	/* A user QP's rings are its provider's to fill. */
	if (qp->user) {
		*bad_wr = wr;
		return -EOPNOTSUPP;
	}
	spin_lock_irqsave(&qp->lock, flags);
	for (; wr; wr = wr->next) {
		err = irdma_post_one_send(qp, wr);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	if (qp->flush_issued)
		irdma_qp_sw_flush_kick(qp);
	else
		irdma_uk_sq_ring_db(&qp->uk);
	spin_unlock_irqrestore(&qp->lock, flags);
	return err;
}

/**
 * irdma_post_srq_recv - queue receive buffers on a shared receive queue
 * @ibsrq: the SRQ
 * @wr: the work requests
 * @bad_wr: returns the first one not queued
 *
 * Return: 0, -EINVAL for too many scatter entries, -ENOMEM when the SRQ
 * is full.
 */
int irdma_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
			const struct ib_recv_wr **bad_wr)
{
	struct irdma_srq *srq = to_iwsrq(ibsrq);
	struct irdma_sge sg[IRDMA_GEN2_MAX_WQ_FRAGS];
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&srq->lock, flags);
	for (; wr; wr = wr->next) {
		err = irdma_copy_sges(wr->sg_list, wr->num_sge, sg);
		if (!err)
			err = irdma_uk_post_srq(&srq->uk, wr->wr_id, sg, wr->num_sge);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	spin_unlock_irqrestore(&srq->lock, flags);
	return err;
}

/**
 * irdma_post_recv - queue receive buffers
 * @ibqp: the QP
 * @wr: the work requests
 * @bad_wr: returns the first one not queued
 *
 * Return: 0, -EINVAL for too many scatter entries, -ENOMEM when the RQ is
 * full.
 */
int irdma_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		    const struct ib_recv_wr **bad_wr)
{
	struct irdma_sge sg[IRDMA_GEN2_MAX_WQ_FRAGS];
	struct irdma_qp *qp = to_iwqp(ibqp);
	unsigned long flags;
	int err = 0;

	if (qp->user) {
		*bad_wr = wr;
		return -EOPNOTSUPP;
	}
	/* Its receives come from the shared receive queue. */
	if (qp->srq) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->lock, flags);
	for (; wr; wr = wr->next) {
		err = irdma_copy_sges(wr->sg_list, wr->num_sge, sg);
		if (!err)
			err = irdma_uk_post_rq(&qp->uk, wr->wr_id, sg, wr->num_sge);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	if (qp->flush_issued)
		irdma_qp_sw_flush_kick(qp);
	spin_unlock_irqrestore(&qp->lock, flags);
	return err;
}
