// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion queues: creation in hardware, polling into ib_wc, arming for
 * events, resizing and teardown.
 */
#include <linux/bitfield.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <rdma/ib_pack.h>
#include <rdma/uverbs_ioctl.h>
#include <uapi/rdma/irdma-abi.h>

#include "verbs.h"

/*
 * The context a CQ's events carry: its number plus one (the CCQ, number 0,
 * is context 1) and a creation count above, so an event for a destroyed
 * CQ cannot reach the next CQ given the same number.
 */
#define IRDMA_CQ_CTX_ID		GENMASK_ULL(19, 0)
#define IRDMA_CQ_CTX_GEN	GENMASK_ULL(51, 20)
#define IRDMA_CQ_RING_ALIGN	256

static u64 irdma_cq_ctx(u32 id, u32 gen)
{
	return FIELD_PREP(IRDMA_CQ_CTX_ID, id + 1) |
	       FIELD_PREP(IRDMA_CQ_CTX_GEN, gen);
}

/*
 * The live CQ @id, held for an event (irdma_cq_put() lets go); with @ctx,
 * only while it still carries that context (a CEQE may outlive its CQ).
 */
static struct irdma_cq *irdma_cq_get_live(struct irdma_fn *fn, u32 id, u64 ctx)
{
	struct irdma_cq *cq;
	unsigned long flags;

	xa_lock_irqsave(&fn->cq_table, flags);
	cq = xa_load(&fn->cq_table, id);
	if (cq && ((ctx && cq->hw.ctx != ctx) || !refcount_inc_not_zero(&cq->refs)))
		cq = NULL;
	xa_unlock_irqrestore(&fn->cq_table, flags);
	return cq;
}

static void irdma_cq_put(struct irdma_cq *cq)
{
	if (refcount_dec_and_test(&cq->refs))
		complete(&cq->unused);
}

/**
 * irdma_cq_ceq_event - a CEQ named a CQ: tell its consumer
 * @fn: the function
 * @ctx: the CQ context the CEQE carried
 *
 * Context: the CEQ's interrupt thread.
 */
void irdma_cq_ceq_event(struct irdma_fn *fn, u64 ctx)
{
	struct irdma_cq *cq;
	unsigned long flags;

	cq = irdma_cq_get_live(fn, FIELD_GET(IRDMA_CQ_CTX_ID, ctx) - 1, ctx);
	if (!cq)
		return;
	/* Taken: until the hardware hears so, the CQ gets no other event. */
	irdma_wr32(fn, IRDMA_PFPE_CQACK, cq->hw.id);

	spin_lock_irqsave(&cq->lock, flags);
	cq->armed = false;
	spin_unlock_irqrestore(&cq->lock, flags);
	if (cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	irdma_cq_put(cq);
}

/**
 * irdma_cq_async_event - an AEQE reported a CQ's error: tell its consumer
 * @fn: the function
 * @id: the CQ
 *
 * Context: the AEQ's interrupt thread.
 */
void irdma_cq_async_event(struct irdma_fn *fn, u32 id)
{
	struct ib_event ev = { .event = IB_EVENT_CQ_ERR };
	struct irdma_cq *cq = irdma_cq_get_live(fn, id, 0);

	if (!cq)
		return;

	dev_warn_ratelimited(fn->res.dev, "CQ %u failed (asynchronous event)\n", id);
	if (cq->ibcq.event_handler) {
		ev.device = cq->ibcq.device;
		ev.element.cq = &cq->ibcq;
		cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
	}
	irdma_cq_put(cq);
}

/* CQ slots for @entries completions: each may take two (extended CQEs). */
static u32 irdma_cq_slots(struct irdma_fn *fn, int entries)
{
	u32 slots = entries + 1;

	if (fn->uk_attrs.hw_rev >= IRDMA_GEN_2)
		slots *= 2;
	return max_t(u32, slots, 4);
}

static int irdma_cq_ring_alloc(struct irdma_fn *fn, struct irdma_dma_mem *mem,
			       u32 slots)
{
	return irdma_dma_alloc(fn, mem, ALIGN(slots * IRDMA_CQE_SIZE,
					      IRDMA_CQ_RING_ALIGN), GFP_KERNEL);
}

static int irdma_cq_alloc_id(struct irdma_fn *fn, struct irdma_cq *cq)
{
	u32 max = fn->hmc.obj[IRDMA_HMC_CQ].cnt;
	u32 id;
	int err;

	if (max <= IRDMA_RSVD_CQS)
		return -EOVERFLOW;
	err = xa_alloc_cyclic_irq(&fn->cq_table, &id, cq,
				  XA_LIMIT(IRDMA_RSVD_CQS, max - 1),
				  &fn->cq_next, GFP_KERNEL);
	if (err < 0)
		return err == -EBUSY ? -EOVERFLOW : err;
	cq->hw.id = id;
	return 0;
}

/**
 * irdma_cq_free_rsrc - give back what a CQ holds besides its hardware object
 * @fn: the function
 * @cq: the CQ
 * @hw_done: the hardware let go of the CQ's memory
 */
static void irdma_cq_free_rsrc(struct irdma_fn *fn, struct irdma_cq *cq,
			       bool hw_done)
{
	xa_erase_irq(&fn->cq_table, cq->hw.id);
	irdma_dma_release(fn, &cq->ring, hw_done);
	irdma_dma_release(fn, &cq->shadow, hw_done);
}

static void irdma_cq_free_retired(struct work_struct *work);

/* The CQ's events reach it from now on. */
static void irdma_cq_publish(struct irdma_cq *cq)
{
	refcount_set(&cq->refs, 1);
}

static void irdma_cq_init_sw(struct irdma_cq *cq)
{
	spin_lock_init(&cq->lock);
	mutex_init(&cq->resize_mutex);
	INIT_LIST_HEAD(&cq->resize_list);
	INIT_LIST_HEAD(&cq->retired);
	INIT_WORK(&cq->free_work, irdma_cq_free_retired);
	INIT_LIST_HEAD(&cq->sw_cqes);
	refcount_set(&cq->refs, 0);
	init_completion(&cq->unused);
}

/* A user CQ lets go of the memory its provider registered for it. */
static void irdma_cq_release_user_rings(struct irdma_fn *fn,
					struct irdma_cq *cq, bool hw_done)
{
	irdma_queue_reg_release(fn, cq->user_ring, hw_done);
	irdma_queue_reg_release(fn, cq->user_shadow, hw_done);
	cq->user_ring = NULL;
	cq->user_shadow = NULL;
}

/*
 * A user CQ: its ring and shadow area are memory the provider registered;
 * the provider polls and arms it itself.
 */
static int irdma_create_user_cq(struct ib_cq *ibcq,
				const struct ib_cq_init_attr *attr,
				struct ib_udata *udata)
{
	struct irdma_fn *fn = &to_iwdev(ibcq->device)->fn;
	struct irdma_cq *cq = to_iwcq(ibcq);
	struct irdma_create_cq_resp resp = {};
	struct irdma_cqp_wqe cmd;
	bool hw_done = true;
	int err;

	if (udata->outlen < offsetofend(struct irdma_create_cq_resp, cq_size))
		return -EINVAL;
	/*
	 * libirdma asks for ring slots, two per completion and one spare: the
	 * device's largest CQ (max_cqe) is the largest ring.
	 */
	if (attr->cqe > irdma_cq_slots(fn, ibcq->device->attrs.max_cqe))
		return -EINVAL;
	irdma_cq_init_sw(cq);
	cq->user = true;
	cq->hw.size = max(attr->cqe, 4);
	err = irdma_user_cq_rings(udata, cq);
	if (err)
		return err;
	err = irdma_cq_alloc_id(fn, cq);
	if (err)
		goto release;
	cq->hw.ctx = irdma_cq_ctx(cq->hw.id, ++fn->cq_gen);
	cq->hw.ceq_id = attr->comp_vector < fn->ceq_count ? attr->comp_vector : 0;
	cq->hw.ceq_valid = true;
	cq->hw.ceqe_mask = true;
	cq->hw.check_overflow = true;
	cq->hw.shadow_threshold = min_t(u32, cq->hw.size / 2, IRDMA_MAX_CQ_READ_THRESH);
	cq->hw.vsi = fn->res.vsi_num;
	ibcq->cqe = cq->hw.size;

	irdma_build_create_cq(&cmd, &cq->hw);
	err = irdma_cqp_exec(fn, &cmd, NULL);
	if (err) {
		hw_done = err != -ETIMEDOUT;
		goto free_id;
	}
	resp.cq_id = cq->hw.id;
	resp.cq_size = cq->hw.size;
	if (ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen))) {
		irdma_build_destroy_cq(&cmd, &cq->hw);
		hw_done = !irdma_cqp_exec(fn, &cmd, NULL);
		err = -EPROTO;
		goto free_id;
	}
	irdma_cq_publish(cq);
	return 0;

free_id:
	xa_erase_irq(&fn->cq_table, cq->hw.id);
release:
	irdma_cq_release_user_rings(fn, cq, hw_done);
	return err;
}

/**
 * irdma_create_cq - create a completion queue
 * @ibcq: the CQ ib_core allocated
 * @attr: size, completion vector and flags
 * @attrs: user-space request (not for kernel CQs)
 *
 * Return: 0, -EOPNOTSUPP for flags or user CQs, -EINVAL for a size out of
 * range, -EOVERFLOW when no CQ number is free, -ENOMEM, or the CQP's error.
 */
int irdma_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct uverbs_attr_bundle *attrs)
{
	struct irdma_device *iwdev = to_iwdev(ibcq->device);
	struct ib_udata *udata = attrs ? &attrs->driver_udata : NULL;
	struct irdma_fn *fn = &iwdev->fn;
	struct irdma_cq *cq = to_iwcq(ibcq);
	struct irdma_cqp_wqe cmd;
	u32 slots;
	int err;

	if (attr->flags)
		return -EOPNOTSUPP;
	/* A user request without its rings is refused, not given kernel memory. */
	if (udata)
		return irdma_create_user_cq(ibcq, attr, udata);
	if (attr->cqe < 1 || attr->cqe > iwdev->ibdev.attrs.max_cqe)
		return -EINVAL;

	irdma_cq_init_sw(cq);
	err = irdma_cq_alloc_id(fn, cq);
	if (err)
		return err;
	slots = irdma_cq_slots(fn, attr->cqe);
	err = irdma_cq_ring_alloc(fn, &cq->ring, slots);
	if (err)
		goto free_id;
	err = irdma_dma_alloc(fn, &cq->shadow, IRDMA_CQ_SHADOW_SIZE, GFP_KERNEL);
	if (err)
		goto free_id;

	cq->hw.size = slots;
	cq->hw.ctx = irdma_cq_ctx(cq->hw.id, ++fn->cq_gen);
	cq->hw.ring_pa = cq->ring.pa;
	cq->hw.shadow_pa = cq->shadow.pa;
	cq->hw.ceq_id = attr->comp_vector < fn->ceq_count ? attr->comp_vector : 0;
	cq->hw.ceq_valid = true;
	cq->hw.ceqe_mask = true;
	cq->hw.check_overflow = true;
	cq->hw.shadow_threshold = min_t(u32, slots / 2, IRDMA_MAX_CQ_READ_THRESH);
	cq->hw.vsi = fn->res.vsi_num;
	irdma_uk_cq_init(&cq->uk, cq->ring.va, slots, cq->shadow.va, cq->hw.id,
			 (u32 __iomem *)(fn->hw + IRDMA_PFPE_CQARM));
	cq->uk.srq_cqes = !!(fn->uk_attrs.feature_flags & IRDMA_FEATURE_SRQ);
	ibcq->cqe = max(attr->cqe, 4);

	irdma_build_create_cq(&cmd, &cq->hw);
	err = irdma_cqp_exec(fn, &cmd, NULL);
	if (err)
		goto free_id;
	irdma_cq_publish(cq);
	return 0;

free_id:
	irdma_cq_free_rsrc(fn, cq, true);
	return err;
}

/**
 * irdma_free_cqbuf - free an old ring
 * @fn: the function
 * @buf: the ring, off any list
 *
 * Context: process context (coherent memory is freed).
 */
static void irdma_free_cqbuf(struct irdma_fn *fn, struct irdma_cq_buf *buf)
{
	irdma_dma_free(fn, &buf->mem);
	kfree(buf);
}

/**
 * irdma_destroy_cq - destroy a completion queue
 * @ibcq: the CQ
 * @udata: user-space context (unused)
 *
 * The hardware object goes first; memory it may still write is kept
 * aside if that fails. Event delivery in progress is waited for.
 *
 * Return: 0; ib_core frees the CQ regardless.
 */
int irdma_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct irdma_fn *fn = &to_iwdev(ibcq->device)->fn;
	struct irdma_cq *cq = to_iwcq(ibcq);
	struct irdma_sw_cqe *swc, *next;
	struct irdma_cq_buf *buf, *tmp;
	struct irdma_cqp_wqe cmd;
	bool hw_done;

	irdma_build_destroy_cq(&cmd, &cq->hw);
	hw_done = !irdma_cqp_exec(fn, &cmd, NULL);

	xa_erase_irq(&fn->cq_table, cq->hw.id);
	if (refcount_dec_and_test(&cq->refs))
		complete(&cq->unused);
	wait_for_completion(&cq->unused);

	cancel_work_sync(&cq->free_work);
	list_splice_init(&cq->retired, &cq->resize_list);
	list_for_each_entry_safe(buf, tmp, &cq->resize_list, list) {
		list_del(&buf->list);
		irdma_free_cqbuf(fn, buf);
	}
	list_for_each_entry_safe(swc, next, &cq->sw_cqes, list) {
		list_del(&swc->list);
		kfree(swc);
	}
	irdma_cq_free_rsrc(fn, cq, hw_done);
	irdma_cq_release_user_rings(fn, cq, hw_done);
	return 0;
}

/*
 * A user CQ moves to a ring its provider registered; the provider drains
 * the old one itself.
 */
static int irdma_resize_user_cq(struct irdma_cq *cq, int entries,
				struct ib_udata *udata)
{
	const size_t min_req = offsetofend(struct irdma_resize_cq_req, user_cq_buffer);
	struct irdma_fn *fn = &to_iwdev(cq->ibcq.device)->fn;
	struct irdma_cq_hw_info hw = cq->hw;
	struct irdma_mr *ring = NULL;
	struct irdma_cqp_wqe cmd;
	int err;

	if (!udata || udata->inlen < min_req)
		return -EINVAL;
	/* ib_core passes the user's u32 on: the top bit makes it negative. */
	if (entries < 0 || entries > cq->ibcq.device->attrs.max_cqe)
		return -EINVAL;
	hw.size = max(entries, 4);
	err = irdma_user_cq_resize_ring(udata, &hw, &ring);
	if (err)
		return err;
	irdma_build_resize_cq(&cmd, &hw);
	err = irdma_cqp_exec(fn, &cmd, NULL);
	if (err) {
		irdma_queue_reg_release(fn, ring, err != -ETIMEDOUT);
		return err;
	}
	/* The hardware writes the new ring only: the old one may go. */
	irdma_queue_reg_release(fn, cq->user_ring, true);
	cq->user_ring = ring;
	cq->hw = hw;
	cq->ibcq.cqe = hw.size - 1;
	return 0;
}

/* A kernel CQ moves to a ring the driver allocates. */
static int irdma_resize_kernel_cq(struct irdma_cq *cq, int entries)
{
	struct irdma_fn *fn = &to_iwdev(cq->ibcq.device)->fn;
	struct ib_cq *ibcq = &cq->ibcq;
	struct irdma_cq_hw_info hw = cq->hw;
	struct irdma_dma_mem mem = {};
	struct irdma_cq_buf *old;
	struct irdma_cqp_wqe cmd;
	unsigned long flags;
	u32 slots;
	int err;

	if (entries < 1 || entries > to_iwdev(ibcq->device)->ibdev.attrs.max_cqe)
		return -EINVAL;
	slots = irdma_cq_slots(fn, entries);
	if (slots == cq->hw.size)
		return 0;

	old = kzalloc(sizeof(*old), GFP_KERNEL);
	if (!old)
		return -ENOMEM;
	err = irdma_cq_ring_alloc(fn, &mem, slots);
	if (err)
		goto free_old;

	hw.size = slots;
	hw.ring_pa = mem.pa;
	irdma_build_resize_cq(&cmd, &hw);
	err = irdma_cqp_exec(fn, &cmd, NULL);
	if (err)
		goto free_mem;

	/* From here the hardware writes the new ring; drain the old first. */
	spin_lock_irqsave(&cq->lock, flags);
	old->mem = cq->ring;
	old->uk = cq->uk;
	list_add(&old->list, &cq->resize_list);
	cq->ring = mem;
	cq->hw = hw;
	irdma_uk_cq_init(&cq->uk, mem.va, slots, cq->shadow.va, hw.id,
			 old->uk.arm_db);
	cq->uk.srq_cqes = old->uk.srq_cqes;
	ibcq->cqe = max(entries, 4);
	spin_unlock_irqrestore(&cq->lock, flags);
	return 0;

free_mem:
	irdma_dma_release(fn, &mem, err != -ETIMEDOUT);
free_old:
	kfree(old);
	return err;
}

/**
 * irdma_resize_cq - move a CQ to a ring of another size
 * @ibcq: the CQ
 * @entries: completions the CQ is to hold
 * @udata: user-space request (not for kernel CQs)
 *
 * Completions already in the old ring are still delivered, before those
 * of the new one.
 *
 * Return: 0, -EOPNOTSUPP without the hardware feature, -EINVAL for a
 * size out of range, a short user request or a ring too small for it,
 * -ENOMEM, or the CQP's error.
 */
int irdma_resize_cq(struct ib_cq *ibcq, int entries, struct ib_udata *udata)
{
	struct irdma_fn *fn = &to_iwdev(ibcq->device)->fn;
	struct irdma_cq *cq = to_iwcq(ibcq);
	int err;

	if (!(fn->uk_attrs.feature_flags & IRDMA_FEATURE_CQ_RESIZE))
		return -EOPNOTSUPP;
	/* One resize at a time: each starts from the ring the last one left. */
	mutex_lock(&cq->resize_mutex);
	if (cq->user)
		err = irdma_resize_user_cq(cq, entries, udata);
	else
		err = irdma_resize_kernel_cq(cq, entries);
	mutex_unlock(&cq->resize_mutex);
	return err;
}

/**
 * irdma_sq_wc_opcode - the completion opcode of a send-side WQE
 * @op: the WQE's opcode (enum irdma_wqe_op)
 *
 * Return: the ib_wc opcode.
 */
enum ib_wc_opcode irdma_sq_wc_opcode(u8 op)
{
	switch (op) {
	case IRDMA_WQEOP_RDMA_WRITE:
	case IRDMA_WQEOP_RDMA_WRITE_SOL:
		return IB_WC_RDMA_WRITE;
	case IRDMA_WQEOP_RDMA_READ:
	case IRDMA_WQEOP_RDMA_READ_INV_STAG:
		return IB_WC_RDMA_READ;
	case IRDMA_WQEOP_BIND_MW:
		return IB_WC_BIND_MW;
	case IRDMA_WQEOP_FAST_REG_NSMR:
		return IB_WC_REG_MR;
	case IRDMA_WQEOP_INV_STAG:
		return IB_WC_LOCAL_INV;
	default:
		return IB_WC_SEND;
	}
}

/* Fill @wc from the decoded CQE; @wr_id and the opcode come from the QP. */
static void irdma_process_cqe(struct irdma_qp *qp,
			      const struct irdma_cqe_info *info,
			      struct ib_wc *wc)
{
	bool ud = qp->uk.ud;

	memset(wc, 0, sizeof(*wc));
	wc->qp = &qp->ibqp;
	if (info->error) {
		wc->status = info->major == IRDMA_CQE_MAJ_FLUSH ?
			     irdma_flush_err_to_ib_wc_status(info->minor) :
			     IB_WC_GENERAL_ERR;
		wc->vendor_err = info->major << 16 | info->minor;
	} else {
		if (info->imm_valid) {
			wc->ex.imm_data = cpu_to_be32(info->imm);
			wc->wc_flags |= IB_WC_WITH_IMM;
		}
		if (info->smac_valid) {
			ether_addr_copy(wc->smac, info->smac);
			wc->wc_flags |= IB_WC_WITH_SMAC;
		}
		if (info->vlan_valid) {
			wc->sl = info->vlan >> VLAN_PRIO_SHIFT;
			wc->vlan_id = info->vlan & VLAN_VID_MASK;
			if (wc->vlan_id)
				wc->wc_flags |= IB_WC_WITH_VLAN;
		}
	}
	if (!info->is_sq) {
		wc->byte_len = info->bytes;
		if (info->op == IB_OPCODE_RDMA_WRITE_ONLY_WITH_IMMEDIATE ||
		    info->op == IB_OPCODE_RDMA_WRITE_LAST_WITH_IMMEDIATE)
			wc->opcode = IB_WC_RECV_RDMA_WITH_IMM;
		else
			wc->opcode = IB_WC_RECV;
		if (!ud && info->stag_valid) {
			wc->ex.invalidate_rkey = info->stag_or_src_qp;
			wc->wc_flags |= IB_WC_WITH_INVALIDATE;
		}
	}
	if (ud) {
		wc->src_qp = info->stag_or_src_qp;
		wc->wc_flags |= IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
		wc->network_hdr_type = info->ipv4 ? RDMA_NETWORK_IPV4 :
						    RDMA_NETWORK_IPV6;
	} else {
		wc->src_qp = info->qp_id;
	}
}

/* A flush completion: its WQE index means nothing; the oldest WQE is its. */
static bool irdma_cqe_flushed(const struct irdma_cqe_info *info)
{
	return info->error && info->major == IRDMA_CQE_MAJ_FLUSH;
}

/*
 * The SQ side of a CQE: which WQE, and whether the CQE stands for more. A
 * flush completion goes to the oldest WQE still queued, whatever index
 * it carries, as the stock driver takes it.
 */
static bool irdma_poll_sq(struct irdma_qp *qp, struct irdma_uk_cq *ukcq,
			  struct irdma_cqe_info *info, struct ib_wc *wc,
			  bool *more)
{
	struct irdma_uk_qp *uq = &qp->uk;
	const struct irdma_sq_wr *w;
	u32 idx = irdma_cqe_flushed(info) ? uq->sq_ring.tail : info->wqe_idx;

	*more = false;
	if (idx >= uq->sq_ring.size || irdma_ring_empty(&uq->sq_ring))
		return false;
	w = &uq->sq_wr[idx];
	irdma_process_cqe(qp, info, wc);
	wc->wr_id = w->wr_id;
	wc->opcode = irdma_sq_wc_opcode(w->op);
	wc->byte_len = w->bytes;
	WRITE_ONCE(uq->sq_ring.tail, (idx + w->quanta) % uq->sq_ring.size);

	/* A flush completion covers every WQE still queued. */
	if (irdma_cqe_flushed(info) && !irdma_ring_empty(&uq->sq_ring)) {
		irdma_uk_cq_reuse(ukcq, uq->sq_ring.tail);
		*more = true;
	}
	/* Padding NOPs the driver put in complete silently. */
	return w->op != IRDMA_WQEOP_NOP || w->wr_id;
}

/*
 * The RQ side: receives complete in order, so an error completion (a
 * flush, or the receive that failed) goes to the oldest one queued
 * whatever index it carries, as the stock driver takes it.
 */
static bool irdma_poll_rq(struct irdma_qp *qp, struct irdma_uk_cq *ukcq,
			  struct irdma_cqe_info *info, struct ib_wc *wc,
			  bool *more)
{
	struct irdma_uk_qp *uq = &qp->uk;
	u32 idx = info->error ? uq->rq_ring.tail : info->wqe_idx >> uq->rq_shift;

	*more = false;
	if (idx >= uq->rq_ring.size || irdma_ring_empty(&uq->rq_ring))
		return false;
	irdma_process_cqe(qp, info, wc);
	wc->wr_id = uq->rq_wr_id[idx];
	WRITE_ONCE(uq->rq_ring.tail, (idx + 1) % uq->rq_ring.size);

	if (irdma_cqe_flushed(info) && !irdma_ring_empty(&uq->rq_ring)) {
		irdma_uk_cq_reuse(ukcq, uq->rq_ring.tail << uq->rq_shift);
		*more = true;
	}
	return true;
}

/* A receive that took its WQE from the QP's shared receive queue. */
static bool irdma_poll_srq(struct irdma_qp *qp,
			   const struct irdma_cqe_info *info, struct ib_wc *wc,
			   bool *more)
{
	*more = false;
	irdma_process_cqe(qp, info, wc);
	wc->wr_id = info->qp_ctx;
	irdma_srq_release(qp->srq, 1);
	return true;
}

/**
 * irdma_poll_one - take one completion from a ring
 * @fn: the function
 * @ukcq: the ring
 * @wc: where it goes
 *
 * Completions of QPs that are gone are dropped on the way.
 *
 * Return: 1 if @wc was filled, 0 if the ring has nothing more.
 */
static int irdma_poll_one(struct irdma_fn *fn, struct irdma_uk_cq *ukcq,
			  struct ib_wc *wc)
{
	struct irdma_cqe_info info;
	struct irdma_qp *qp;
	bool more, got;

	while (!irdma_uk_cq_peek(ukcq, &info)) {
		if (info.srq) {
			/* The context field holds the consumer's id here. */
			qp = xa_load(&fn->qp_table, info.qp_id);
			if (qp && !qp->srq)
				qp = NULL;
		} else {
			qp = info.qp_ctx ? xa_load(&fn->qp_table, info.qp_id) : NULL;
			if (qp && (uintptr_t)qp != info.qp_ctx)
				qp = NULL;
		}
		if (!qp) {
			irdma_uk_cq_advance(ukcq, info.slots);
			continue;
		}
		if (info.is_sq)
			got = irdma_poll_sq(qp, ukcq, &info, wc, &more);
		else if (info.srq)
			got = irdma_poll_srq(qp, &info, wc, &more);
		else
			got = irdma_poll_rq(qp, ukcq, &info, wc, &more);
		if (!more)
			irdma_uk_cq_advance(ukcq, info.slots);
		if (got)
			return 1;
	}
	return 0;
}

/* Old rings first, newest last; a ring that is drained and older than the
 * one that last produced completions is done with.
 */
static int irdma_process_resize_list(struct irdma_fn *fn, struct irdma_cq *cq,
				     int num_entries, struct ib_wc *wc)
{
	struct irdma_cq_buf *buf, *tmp;
	int n = 0;
	u32 freed = 0;

	list_for_each_entry_safe_reverse(buf, tmp, &cq->resize_list, list) {
		while (n < num_entries && irdma_poll_one(fn, &buf->uk, wc + n))
			n++;
		if (n == num_entries)
			break;
		list_move(&buf->list, &cq->retired);
		freed++;
	}
	if (freed) {
		irdma_uk_cq_add_resized(&cq->uk, freed);
		schedule_work(&cq->free_work);
	}
	return n;
}

static void irdma_cq_free_retired(struct work_struct *work)
{
	struct irdma_cq *cq = container_of(work, struct irdma_cq, free_work);
	struct irdma_fn *fn = &to_iwdev(cq->ibcq.device)->fn;
	struct irdma_cq_buf *buf, *tmp;
	unsigned long flags;
	LIST_HEAD(done);

	spin_lock_irqsave(&cq->lock, flags);
	list_splice_init(&cq->retired, &done);
	spin_unlock_irqrestore(&cq->lock, flags);
	list_for_each_entry_safe(buf, tmp, &done, list) {
		list_del(&buf->list);
		irdma_free_cqbuf(fn, buf);
	}
}

/**
 * __irdma_poll_cq - take completions with the CQ's lock held
 * @cq: the CQ
 * @num_entries: room in @wc
 * @wc: where they go
 *
 * Return: completions taken.
 */
static int __irdma_poll_cq(struct irdma_cq *cq, int num_entries,
			   struct ib_wc *wc)
{
	struct irdma_fn *fn = &to_iwdev(cq->ibcq.device)->fn;
	struct irdma_sw_cqe *swc;
	int n;

	lockdep_assert_held(&cq->lock);
	n = irdma_process_resize_list(fn, cq, num_entries, wc);
	while (n < num_entries && irdma_poll_one(fn, &cq->uk, wc + n))
		n++;
	while (n < num_entries && !list_empty(&cq->sw_cqes)) {
		swc = list_first_entry(&cq->sw_cqes, struct irdma_sw_cqe, list);
		wc[n++] = swc->wc;
		list_del(&swc->list);
		kfree(swc);
	}
	return n;
}

/**
 * irdma_poll_cq - take completions
 * @ibcq: the CQ
 * @num_entries: room in @entry
 * @entry: where they go
 *
 * Return: completions taken.
 */
int irdma_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *entry)
{
	struct irdma_cq *cq = to_iwcq(ibcq);
	unsigned long flags;
	int n;

	/* A user CQ's ring is not mapped here: its provider polls it. */
	if (cq->user)
		return -EOPNOTSUPP;
	spin_lock_irqsave(&cq->lock, flags);
	n = __irdma_poll_cq(cq, num_entries, entry);
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

/**
 * irdma_cq_add_sw_cqe - queue a completion the driver made
 * @cq: the CQ
 * @cqe: the completion; the CQ owns it from here
 *
 * The consumer hears of it as of a hardware completion.
 */
void irdma_cq_add_sw_cqe(struct irdma_cq *cq, struct irdma_sw_cqe *cqe)
{
	bool notify;
	unsigned long flags;

	spin_lock_irqsave(&cq->lock, flags);
	list_add_tail(&cqe->list, &cq->sw_cqes);
	notify = cq->armed && (!cq->armed_solicited ||
			       cqe->wc.status != IB_WC_SUCCESS);
	if (notify)
		cq->armed = false;
	spin_unlock_irqrestore(&cq->lock, flags);
	if (notify && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}

/**
 * irdma_cq_hw_empty - the CQ's current ring has no completion waiting
 * @cq: the CQ, its lock held
 *
 * Return: true if nothing is there for the consumer to take.
 */
bool irdma_cq_hw_empty(struct irdma_cq *cq)
{
	struct irdma_cqe_info info;

	lockdep_assert_held(&cq->lock);
	return irdma_uk_cq_peek(&cq->uk, &info) == -ENOENT &&
	       list_empty(&cq->resize_list);
}

/**
 * irdma_req_notify_cq - ask for an event at the next completion
 * @ibcq: the CQ
 * @flags: next or solicited, and whether to report missed completions
 *
 * Return: 0, or 1 with IB_CQ_REPORT_MISSED_EVENTS if completions are
 * already waiting.
 */
int irdma_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct irdma_cq *cq = to_iwcq(ibcq);
	bool solicited = (flags & IB_CQ_SOLICITED_MASK) == IB_CQ_SOLICITED;
	struct irdma_cqe_info info;
	unsigned long irqflags;
	int ret = 0;

	if (cq->user)
		return -EOPNOTSUPP;
	spin_lock_irqsave(&cq->lock, irqflags);
	/* Arm once; a request for any event widens a solicited one. */
	if (!cq->armed || (cq->armed_solicited && !solicited)) {
		cq->armed = true;
		cq->armed_solicited = solicited;
		irdma_uk_cq_arm(&cq->uk, solicited);
	}
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) &&
	    (!irdma_uk_cq_peek(&cq->uk, &info) || !list_empty(&cq->sw_cqes)))
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}

/**
 * irdma_clean_cqes - disown a QP's completions waiting in a CQ
 * @qp: the QP, on its way out
 * @cq: one of its CQs
 *
 * The shared receive queue WQEs its dropped completions took are given
 * back to the SRQ.
 */
void irdma_clean_cqes(struct irdma_qp *qp, struct irdma_cq *cq)
{
	struct irdma_sw_cqe *swc, *next;
	struct irdma_cq_buf *buf;
	unsigned long flags;
	u32 srq_wqes;

	spin_lock_irqsave(&cq->lock, flags);
	srq_wqes = irdma_uk_cq_clean(&cq->uk, (uintptr_t)qp, qp->id);
	list_for_each_entry(buf, &cq->resize_list, list)
		srq_wqes += irdma_uk_cq_clean(&buf->uk, (uintptr_t)qp, qp->id);
	if (qp->srq && srq_wqes)
		irdma_srq_release(qp->srq, srq_wqes);
	list_for_each_entry_safe(swc, next, &cq->sw_cqes, list) {
		if (swc->wc.qp == &qp->ibqp) {
			list_del(&swc->list);
			kfree(swc);
		}
	}
	spin_unlock_irqrestore(&cq->lock, flags);
}

/**
 * irdma_cq_kick - call the CQ's handler for completions made in software
 * @cq: the CQ, armed or not
 *
 * Flushed work requests complete from the driver, not from the engine, so
 * no CEQ event announces them: an armed CQ holding some is notified here.
 */
void irdma_cq_kick(struct irdma_cq *cq)
{
	unsigned long flags;
	bool notify;

	spin_lock_irqsave(&cq->lock, flags);
	notify = cq->armed && !list_empty(&cq->sw_cqes);
	if (notify)
		cq->armed = false;
	spin_unlock_irqrestore(&cq->lock, flags);
	if (notify && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}
