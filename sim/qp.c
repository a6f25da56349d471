// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue pairs: their CQP commands (create, modify, suspend, resume,
 * destroy, flush), the contexts they load, and what sending (qp_tx.c) and
 * receiving (qp_rx.c) share: where a queue's WQEs live, their fragments,
 * and completions.
 */
#include <linux/bitfield.h>
#include <linux/slab.h>

#include "qp.h"
#include "trace.h"

/*
 * Read the context's fields the engine uses: the CQs' when @cqs; the
 * addresses (and the ARP entry) when @ip. An offloaded iWARP QP's are its
 * connection's, in the TCP part of the context, which a MODIFY_QP without
 * TOECTXVALID leaves alone: the stock driver rewrites the context without
 * that part when an error event names an RQ WQE, then terminates the
 * connection (it is not reread). ARPTABIDXVALID takes the ARP entry alone.
 */
static int isim_qp_load_ctx(struct isim_dev *sdev, struct isim_qp *qp, u64 ctx_pa,
			    bool cqs, bool ip, bool arp)
{
	__le64 ctx[IRDMA_QP_CTX_SIZE / 8];
	u64 q;
	int i;

	if (isim_dma_read(sdev, ctx_pa, ctx, sizeof(ctx)))
		return -EFAULT;
	trace_irdma_sim_qpctx(sdev->id, qp->id, ctx, ARRAY_SIZE(ctx));
	q = le64_to_cpu(ctx[0]);
	if (ip)
		qp->ipv4 = !!(q & IRDMA_QPC_IPV4);
	qp->pd = FIELD_GET(IRDMA_QPC_PDIDXHI, q) << 16 |
		 FIELD_GET(IRDMA_QPC_PDIDX, le64_to_cpu(ctx[7]));
	/* A push page must have been handed out. */
	if ((q & IRDMA_QPC_PMENA) &&
	    !isim_push_valid(sdev, FIELD_GET(IRDMA_QPC_PPIDX, q)))
		return -EINVAL;
	qp->srq = q & IRDMA_QPC_USE_SRQ ?
		  FIELD_GET(IRDMA_QPC_SRQ_ID, le64_to_cpu(ctx[25])) : 0;
	if (qp->srq && !xa_load(&sdev->srqs, qp->srq))
		return -EINVAL;
	if (cqs) {
		qp->rq_shift = FIELD_GET(IRDMA_QPC_RQWQESIZE, q);
		qp->sq.base = le64_to_cpu(ctx[1]);
		qp->rq.base = le64_to_cpu(ctx[2]);
		q = le64_to_cpu(ctx[3]);
		qp->sq_size = 4U << FIELD_GET(IRDMA_QPC_SQSIZE, q);
		qp->rq_size = (4U << FIELD_GET(IRDMA_QPC_RQSIZE, q)) >> qp->rq_shift;
		q = le64_to_cpu(ctx[17]);
		qp->scq = FIELD_GET(IRDMA_QPC_TXCQNUM, q);
		qp->rcq = FIELD_GET(IRDMA_QPC_RXCQNUM, q);
	}
	for (i = 0; ip && i < 2; i++) {
		u64 d = le64_to_cpu(ctx[5 - i]), s = le64_to_cpu(ctx[24 - i]);

		qp->dest_ip[2 * i] = FIELD_GET(IRDMA_QPC_IPADDR_HI, d);
		qp->dest_ip[2 * i + 1] = FIELD_GET(IRDMA_QPC_IPADDR_LO, d);
		qp->src_ip[2 * i] = FIELD_GET(IRDMA_QPC_IPADDR_HI, s);
		qp->src_ip[2 * i + 1] = FIELD_GET(IRDMA_QPC_IPADDR_LO, s);
	}
	if (ip || arp)
		qp->arp_idx = FIELD_GET(IRDMA_QPC_ARPIDX, le64_to_cpu(ctx[6]));
	qp->qs_handle = FIELD_GET(IRDMA_QPC_QSHANDLE, le64_to_cpu(ctx[22]));
	q = le64_to_cpu(ctx[8]);
	qp->dest_qp = FIELD_GET(IRDMA_QPC_DESTQP, q);
	qp->qkey = FIELD_GET(IRDMA_QPC_QKEY, q);
	qp->rnr_retry = FIELD_GET(IRDMA_QPC_RNRNAK_THRESH, le64_to_cpu(ctx[16]));
	u64_to_ether_addr(FIELD_GET(IRDMA_QPC_MACADDR, le64_to_cpu(ctx[19])),
			  qp->mac);
	qp->priv = !!(le64_to_cpu(ctx[20]) & IRDMA_QPC_PRIVEN);
	qp->bind_en = !!(le64_to_cpu(ctx[20]) & IRDMA_QPC_BINDEN);
	qp->compl_ctx = le64_to_cpu(ctx[IRDMA_QPC_COMPL_CTX_QWORD]);
	return 0;
}

/*
 * The QP types a function makes: RoCE's on a RoCE function; on an iWARP
 * one its iWARP QPs and the UDA QPs its connection manager sends and
 * receives TCP segments through (the ILQ and IEQ).
 */
static bool isim_qp_type_modelled(struct isim_dev *sdev, u8 type)
{
	if (sdev->roce)
		return type == IRDMA_QP_TYPE_ROCE_RC || type == IRDMA_QP_TYPE_ROCE_UD;
	return type == IRDMA_QP_TYPE_UDA || type == IRDMA_QP_TYPE_IWARP;
}

/**
 * isim_qp_create - CREATE_QP
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void isim_qp_create(struct isim_dev *sdev, const __le64 *wqe,
		    struct isim_cqp_result *res)
{
	u64 hdr = le64_to_cpu(wqe[3]);
	u32 id = FIELD_GET(IRDMA_QPCMD_QPID, hdr);
	u8 type = FIELD_GET(IRDMA_QPCMD_QPTYPE, hdr);
	struct isim_qp *qp;

	if (!sdev->hmc.committed || id >= sdev->hmc.cnt[IRDMA_HMC_QP] ||
	    !isim_qp_type_modelled(sdev, type))
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	if (xa_load(&sdev->qps, id))
		return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	qp = kzalloc(sizeof(*qp), GFP_KERNEL);
	if (!qp)
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	qp->id = id;
	qp->type = type;
	qp->state = FIELD_GET(IRDMA_QPCMD_NEXTIWSTATE, hdr);
	qp->shadow_pa = le64_to_cpu(wqe[5]);
	qp->sq_polarity = true;
	qp->rq_polarity = true;
	/* User QPs' rings are PBLE lists (one level). */
	qp->sq.virt = !!(hdr & IRDMA_QPCMD_VQ);
	qp->rq.virt = qp->sq.virt;
	qp->sq.levels = 1;
	qp->rq.levels = 1;
	if (isim_qp_load_ctx(sdev, qp, le64_to_cpu(wqe[2]), true, true, true) ||
	    qp->sq_size < 8 || qp->rq_size < 1 ||
	    (!qp->sq.virt && (!qp->sq.base || !qp->rq.base)) ||
	    (type == IRDMA_QP_TYPE_UDA && (!qp->priv || qp->sq.virt)) ||
	    !isim_cq_find(sdev, qp->scq) || !isim_cq_find(sdev, qp->rcq) ||
	    isim_dma_write_qword(sdev, qp->shadow_pa, 0) ||
	    xa_err(xa_store(&sdev->qps, id, qp, GFP_KERNEL))) {
		kfree(qp);
		isim_fail(res, ISIM_MIN_BAD_PARAM);
	}
}

/* The QP a QP command's header names, or NULL. */
static struct isim_qp *isim_qp_of_cmd(struct isim_dev *sdev, const __le64 *wqe)
{
	return xa_load(&sdev->qps, FIELD_GET(IRDMA_QPCMD_QPID, le64_to_cpu(wqe[3])));
}

/**
 * isim_qp_modify - MODIFY_QP
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void isim_qp_modify(struct isim_dev *sdev, const __le64 *wqe,
		    struct isim_cqp_result *res)
{
	u64 hdr = le64_to_cpu(wqe[3]);
	struct isim_qp *qp = isim_qp_of_cmd(sdev, wqe);
	u8 from;

	if (!qp)
		return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	if (isim_qp_load_ctx(sdev, qp, le64_to_cpu(wqe[2]),
			     !!(hdr & IRDMA_QPCMD_CQNUMVALID),
			     qp->type != IRDMA_QP_TYPE_IWARP || !qp->tcp.offloaded ||
			     (hdr & IRDMA_QPCMD_TOECTXVALID),
			     !!(hdr & IRDMA_QPCMD_ARPTABIDXVALID)))
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	from = qp->state;
	qp->state = FIELD_GET(IRDMA_QPCMD_NEXTIWSTATE, hdr);
	if (qp->type == IRDMA_QP_TYPE_IWARP) {
		u16 err = isim_iwarp_modify(sdev, qp, hdr, le64_to_cpu(wqe[2]),
					    FIELD_GET(IRDMA_QPCMD_TERMLEN,
						      le64_to_cpu(wqe[1])));

		if (err) {
			qp->state = from;
			isim_fail(res, err);
		}
		return;
	}
	/* Its SQ drained (the model runs WQEs to the end): the QP says so. */
	if (from == IRDMA_QPS_RTS && qp->state == IRDMA_QPS_SQD)
		isim_aeq_post_qp(sdev, IRDMA_AE_QP_SUSPEND_COMPLETE, qp->id,
				 IRDMA_AE_SOURCE_RSVD, 0, qp->state);
}

/**
 * isim_qp_suspend - SUSPEND_QP: stop a QP's SQ, as for a change of the
 *	port's traffic classes
 * @sdev: the simulated function
 * @wqe: the command (the QP in the header)
 * @res: its completion
 *
 * The SQ takes no WQE until RESUME_QP; the QP reports the suspension with
 * IRDMA_AE_QP_SUSPEND_COMPLETE, whatever its state.
 */
void isim_qp_suspend(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res)
{
	struct isim_qp *qp = isim_qp_of_cmd(sdev, wqe);

	if (!qp)
		return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	qp->suspended = true;
	sdev->stats.qps_suspended++;
	isim_aeq_post_qp(sdev, IRDMA_AE_QP_SUSPEND_COMPLETE, qp->id,
			 IRDMA_AE_SOURCE_RSVD, 0, qp->state);
}

/**
 * isim_qp_resume - RESUME_QP: let a QP's SQ run again, through the queue
 *	set qword 2 names
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 *
 * A QP that was not suspended takes it too (a driver resumes every QP
 * after a change, whether or not its suspension was reported).
 */
void isim_qp_resume(struct isim_dev *sdev, const __le64 *wqe,
		    struct isim_cqp_result *res)
{
	struct isim_qp *qp = isim_qp_of_cmd(sdev, wqe);

	if (!qp)
		return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	qp->qs_handle = FIELD_GET(IRDMA_CQPSQ_RESUMEQP_QSHANDLE,
				  le64_to_cpu(wqe[2]));
	qp->suspended = false;
	sdev->stats.qps_resumed++;
}

/**
 * isim_qp_destroy - DESTROY_QP
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void isim_qp_destroy(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res)
{
	struct isim_qp *qp = xa_erase(&sdev->qps,
				     FIELD_GET(IRDMA_QPCMD_QPID, le64_to_cpu(wqe[3])));

	if (!qp)
		return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	if (qp->type == IRDMA_QP_TYPE_IWARP)
		isim_iwarp_destroy(sdev, qp, le64_to_cpu(wqe[3]));
	isim_ieq_release(qp);
	kfree(qp);
}

/**
 * isim_qps_destroy_all - forget every QP (function reset)
 * @sdev: the simulated function
 */
void isim_qps_destroy_all(struct isim_dev *sdev)
{
	struct isim_qp *qp;
	unsigned long id;

	xa_for_each(&sdev->qps, id, qp)
		isim_ieq_release(qp);
	isim_xa_free_all(&sdev->qps);
}

/* Where SQ quantum @idx, or RQ WQE @idx, lives. */
int isim_sq_addr(struct isim_dev *sdev, struct isim_qp *qp, u32 idx, u64 *pa)
{
	return isim_ring_pa(sdev, &qp->sq, (u64)idx * IRDMA_WQE_QUANTUM_SIZE, pa);
}

int isim_rq_addr(struct isim_dev *sdev, struct isim_qp *qp, u32 idx, u64 *pa)
{
	return isim_ring_pa(sdev, &qp->rq,
			   ((u64)idx << qp->rq_shift) * IRDMA_WQE_QUANTUM_SIZE, pa);
}

u64 isim_sq_wqe_hdr(struct isim_dev *sdev, struct isim_qp *qp, u32 idx)
{
	u64 hdr = 0, pa;

	if (!isim_sq_addr(sdev, qp, idx, &pa))
		isim_dma_read_qword(sdev, pa + 24, &hdr);
	return hdr;
}

/*
 * One completion for a QP's queue. Receives from a shared receive queue
 * carry the WQE's wr_id in qword 1 (already there) instead of the QP's
 * context.
 */
void isim_qp_complete(struct isim_dev *sdev, struct isim_qp *qp, bool sq,
		      u64 *cqe, const u64 *ext)
{
	struct isim_cq *cq = isim_cq_find(sdev, sq ? qp->scq : qp->rcq);

	if (!(cqe[3] & IRDMA_CQE_SRQ))
		cqe[1] = qp->compl_ctx;
	cqe[2] |= FIELD_PREP(IRDMA_CQE_QPID, qp->id);
	cqe[3] |= FIELD_PREP(IRDMA_CQE_SQ, sq);
	if (!cq || (ext ? isim_cq_post_ext(sdev, cq, cqe, ext) :
			  isim_cq_post(sdev, cq, cqe))) {
		sdev->stats.cq_overflows++;
		isim_aeq_post_qp(sdev, IRDMA_AE_CQ_OPERATION_ERROR, sq ? qp->scq : qp->rcq,
				 IRDMA_AE_SOURCE_CQ, 0, 0);
	}
}

/* Fragment @k of a WQE: address, length, key. */
void isim_frag(const __le64 *wqe, u32 k, u64 *addr, u32 *len, u32 *stag)
{
	const __le64 *f = k ? wqe + 4 + 2 * (k - 1) : wqe;
	u64 q1 = le64_to_cpu(f[1]);

	*addr = le64_to_cpu(f[0]);
	*len = FIELD_GET(IRDMA_WQE_FRAG_LEN, q1);
	*stag = FIELD_GET(IRDMA_WQE_FRAG_STAG, q1);
}

/*
 * The fragments a WQE names. The E810 takes at most 13: more is a WQE
 * no driver writes, and their slots would lie past its 8 quanta.
 */
int isim_wqe_frags(u64 hdr, u32 *frags)
{
	*frags = FIELD_GET(IRDMA_WQE_ADDFRAGCNT, hdr) + 1;
	return *frags > IRDMA_GEN2_MAX_WQ_FRAGS ? IRDMA_AE_WQE_INVALID_PARAMETER : 0;
}

/**
 * isim_qp_flush - FLUSH_WQES: one flush completion per queue that holds work
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion; the minor code says which queue was flushed
 *
 * With GENERATE_AE (the same opcode, as GEN_AE) the QP gets the AE whose
 * code and source qword 1 holds: the stock driver asks so for an MPA CRC
 * error its IEQ found. Without a queue to flush that is all: the QP
 * stays as it is.
 */
void isim_qp_flush(struct isim_dev *sdev, const __le64 *wqe,
		   struct isim_cqp_result *res)
{
	u64 hdr = le64_to_cpu(wqe[3]), codes = le64_to_cpu(wqe[2]);
	struct isim_qp *qp = xa_load(&sdev->qps, FIELD_GET(IRDMA_QPCMD_QPID, hdr));
	u64 cqe[4] = {};
	u64 rqhdr = 0, pa;

	if (!qp)
		return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	if (hdr & IRDMA_FLUSH_GENERATE_AE) {
		u64 ae = le64_to_cpu(wqe[1]);

		sdev->stats.gen_ae++;
		isim_aeq_post_tcp(sdev, FIELD_GET(IRDMA_GEN_AE_CODE, ae), qp,
				  FIELD_GET(IRDMA_GEN_AE_SOURCE, ae), 0);
		if (!(hdr & (IRDMA_FLUSH_SQ | IRDMA_FLUSH_RQ)))
			return;
	}
	qp->state = IRDMA_QPS_ERROR;
	if ((hdr & IRDMA_FLUSH_SQ) &&
	    isim_valid(isim_sq_wqe_hdr(sdev, qp, qp->sq_tail), qp->sq_polarity)) {
		/*
		 * A flush completion's WQE index is not the queue's oldest WQE: the
		 * stock driver never reads it there (it walks from its own tail), and
		 * what silicon puts in it is not known. The one past the oldest is
		 * given, so a driver that trusts it loses a completion.
		 */
		cqe[3] = IRDMA_CQE_ERROR |
			 FIELD_PREP(IRDMA_CQE_MAJERR, FIELD_GET(IRDMA_FLUSH_SQMAJOR, codes)) |
			 FIELD_PREP(IRDMA_CQE_MINERR, FIELD_GET(IRDMA_FLUSH_SQMINOR, codes)) |
			 FIELD_PREP(IRDMA_CQE_WQEIDX, (qp->sq_tail + 1) % qp->sq_size);
		isim_qp_complete(sdev, qp, true, cqe, NULL);
		res->min = IRDMA_FLUSH_DONE_SQ;
	}
	if (!isim_rq_addr(sdev, qp, qp->rq_head, &pa))
		isim_dma_read_qword(sdev, pa + 24, &rqhdr);
	if ((hdr & IRDMA_FLUSH_RQ) && isim_valid(rqhdr, qp->rq_polarity)) {
		memset(cqe, 0, sizeof(cqe));
		cqe[3] = IRDMA_CQE_ERROR |
			 FIELD_PREP(IRDMA_CQE_MAJERR, FIELD_GET(IRDMA_FLUSH_RQMAJOR, codes)) |
			 FIELD_PREP(IRDMA_CQE_MINERR, FIELD_GET(IRDMA_FLUSH_RQMINOR, codes)) |
			 FIELD_PREP(IRDMA_CQE_WQEIDX,
				    ((qp->rq_head + 1) % qp->rq_size) << qp->rq_shift);
		isim_qp_complete(sdev, qp, false, cqe, NULL);
		res->min = res->min ? 0 : IRDMA_FLUSH_DONE_RQ;
	}
}
