// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * User memory: regions registered by user space, and the rings of user
 * CQs and QPs, which libirdma registers as memory of the CQ and QP types
 * before creating the queue. Pages go to the hardware as one address
 * when they are contiguous, else as a PBLE list.
 */
#include <kunit/visibility.h>
#include <linux/log2.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>
#include <rdma/uverbs_ioctl.h>
#include <uapi/rdma/irdma-abi.h>

#include "verbs.h"

/**
 * irdma_copy_user_pgaddrs - the DMA addresses of a region's pages
 * @mr: the region, its umem pinned
 * @pgsz: the page size to cut it into
 * @addrs: returns the addresses (kvfree() them)
 *
 * Return: the number of pages, or -ENOMEM.
 */
static int irdma_copy_user_pgaddrs(struct irdma_mr *mr, unsigned long pgsz,
				   u64 **addrs)
{
	struct ib_block_iter biter;
	u32 n = ib_umem_num_dma_blocks(mr->umem, pgsz), i = 0;

	/* Its size is the user's choice: the user's memory cgroup pays. */
	*addrs = kvcalloc(n, sizeof(**addrs), GFP_KERNEL_ACCOUNT);
	if (!*addrs)
		return -ENOMEM;
	rdma_umem_for_each_dma_block(mr->umem, &biter, pgsz)
		(*addrs)[i++] = rdma_block_iter_dma_address(&biter);
	return i;
}

/**
 * irdma_check_mem_contiguous - the pages follow one another
 * @addrs: page addresses
 * @n: how many
 * @pgsz: the page size
 *
 * Return: true if page i + 1 starts where page i ends, for all.
 */
static bool irdma_check_mem_contiguous(const u64 *addrs, u32 n, u64 pgsz)
{
	u32 i;

	for (i = 1; i < n; i++)
		if (addrs[i] != addrs[0] + i * pgsz)
			return false;
	return true;
}

/**
 * irdma_qp_rings_flat - a QP's rings can go to the hardware by address
 * @addrs: the 4 KiB pages of the rings' registration, the SQ's first
 * @sq_pages: how many the SQ has
 * @rq_pages: how many the RQ has, after the SQ's
 *
 * Return: true when the SQ's pages are one run and the RQ's another,
 * wherever the two runs lie.
 */
bool irdma_qp_rings_flat(const u64 *addrs, u32 sq_pages, u32 rq_pages)
{
	return irdma_check_mem_contiguous(addrs, sq_pages, IRDMA_HW_PAGE_SIZE) &&
	       irdma_check_mem_contiguous(addrs + sq_pages, rq_pages,
					  IRDMA_HW_PAGE_SIZE);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_qp_rings_flat);

/**
 * irdma_setup_ring_pbles - describe a queue's ring pages to the hardware
 * @fn: the function
 * @mr: the registration
 * @addrs: its page addresses
 * @n: how many
 * @flat: the hardware can take the pages by address, without a list
 *
 * Queue contexts take one level of PBLEs only.
 *
 * Return: 0, or the PBLE pool's error.
 */
static int irdma_setup_ring_pbles(struct irdma_fn *fn, struct irdma_mr *mr,
				  const u64 *addrs, u32 n, bool flat)
{
	struct irdma_pble_cursor cur = {};
	u32 i;
	int err;

	mr->first_page = addrs[0];
	if (flat)
		return 0;
	err = irdma_pble_alloc(fn, n, IRDMA_PBLE_LEVEL1_ONLY, &mr->pble);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		irdma_pble_set(fn, irdma_next_pbl_addr(&mr->pble, &cur), addrs[i]);
	return 0;
}

/**
 * irdma_check_mr_contiguous - a region's PBLEs name one run of pages
 * @fn: the function
 * @mr: the region, its PBLEs written
 * @pgsz: its page size
 *
 * Return: true if every page starts where the one before it ends: the
 * hardware can take the first page's address alone.
 */
static bool irdma_check_mr_contiguous(struct irdma_fn *fn,
				      const struct irdma_mr *mr, u64 pgsz)
{
	struct irdma_pble_cursor cur = {};
	u32 i;

	for (i = 0; i < mr->pble.count; i++)
		if (irdma_pble_get(fn, irdma_next_pbl_addr(&mr->pble, &cur)) !=
		    mr->first_page + i * pgsz)
			return false;
	return true;
}

/*
 * A region's pages, written straight into its PBLEs: no copy of the page
 * list is kept, however large the region. One page, or one run of pages,
 * goes to the hardware as the first page's address, without PBLEs.
 */
static int irdma_region_pbles(struct irdma_fn *fn, struct irdma_mr *mr,
			      unsigned long pgsz)
{
	u32 n = ib_umem_num_dma_blocks(mr->umem, pgsz);
	struct irdma_pble_cursor cur = {};
	struct ib_block_iter biter;
	bool first = true;
	int err;

	if (n > 1) {
		err = irdma_pble_alloc(fn, n, IRDMA_PBLE_ANY_LEVEL, &mr->pble);
		if (err)
			return err;
	}
	rdma_umem_for_each_dma_block(mr->umem, &biter, pgsz) {
		u64 addr = rdma_block_iter_dma_address(&biter);

		if (first)
			mr->first_page = addr;
		first = false;
		if (n > 1)
			irdma_pble_set(fn, irdma_next_pbl_addr(&mr->pble, &cur), addr);
	}
	if (n > 1 && irdma_check_mr_contiguous(fn, mr, pgsz))
		irdma_pble_free(fn, &mr->pble);
	return 0;
}

/**
 * irdma_get_pbl - take a queue registration by its user address
 * @uctx: the context
 * @va: the address user space registered the ring at
 * @list: the context's registrations of that queue type
 *
 * A registration serves one queue: it leaves the list here, and cannot
 * be deregistered until the queue lets go of it.
 *
 * Context: @uctx's reg_lock held.
 * Return: the registration, or NULL.
 */
static struct irdma_mr *irdma_get_pbl(struct irdma_ucontext *uctx, u64 va,
				      struct list_head *list)
{
	struct irdma_mr *mr;

	lockdep_assert_held(&uctx->reg_lock);

	list_for_each_entry(mr, list, reg_list) {
		if (mr->user_base == va) {
			list_del_init(&mr->reg_list);
			mr->in_use = true;
			return mr;
		}
	}
	return NULL;
}

/*
 * A registration taken for a queue that was refused before the hardware
 * saw it: free again, for another queue or its deregistration.
 * Context: @uctx's reg_lock held.
 */
static void irdma_unget_pbl(struct irdma_ucontext *uctx, struct irdma_mr *mr,
			    struct list_head *list)
{
	lockdep_assert_held(&uctx->reg_lock);
	if (!mr)
		return;
	mr->in_use = false;
	list_add_tail(&mr->reg_list, list);
}

/**
 * irdma_queue_reg_release - a queue lets go of a registration it used
 * @fn: the function
 * @mr: the registration (NULL: none)
 * @hw_done: the hardware no longer uses the queue (its destroy, or the
 *	resize away from the ring, succeeded)
 *
 * Its owner may deregister it from now on. Pages the device may still
 * write stay pinned, and their PBLEs allocated, until the function is
 * down (irdma_umem_release()).
 */
void irdma_queue_reg_release(struct irdma_fn *fn, struct irdma_mr *mr,
			     bool hw_done)
{
	if (!mr)
		return;
	if (!hw_done) {
		irdma_umem_release(fn, mr->umem, false);
		mr->umem = NULL;
		memset(&mr->pble, 0, sizeof(mr->pble));
	}
	/* The deregistration that sees this sees the memory let go. */
	smp_store_release(&mr->in_use, false);
}

/* Queue registrations: where the rings and the shadow area are. */
static int irdma_handle_q_mem(struct irdma_fn *fn, struct irdma_mr *mr,
			      const struct irdma_mem_reg_req *req,
			      struct irdma_ucontext *uctx)
{
	bool qp = req->reg_type == IRDMA_MEMREG_TYPE_QP;
	u32 ring = qp ? req->sq_pages + req->rq_pages : req->cq_pages;
	/* A QP's shadow area is the page after its rings; a CQ's is its own. */
	bool shadow_follows = qp;
	bool flat;
	u64 *addrs;
	int n, err;

	n = irdma_copy_user_pgaddrs(mr, IRDMA_HW_PAGE_SIZE, &addrs);
	if (n < 0)
		return n;
	err = -EINVAL;
	if (ring + shadow_follows > n)
		goto out;
	/*
	 * A QP's SQ and RQ go by address when each is one run of pages,
	 * wherever the two runs lie; else the rings go as one list.
	 */
	if (qp)
		flat = irdma_qp_rings_flat(addrs, req->sq_pages, req->rq_pages);
	else
		flat = irdma_check_mem_contiguous(addrs, ring, IRDMA_HW_PAGE_SIZE);
	/* A ring of no pages still names the memory's first page. */
	err = irdma_setup_ring_pbles(fn, mr, addrs, max(ring, 1U), flat);
	if (err)
		goto out;
	mr->ring_pages = max(ring, 1U);
	mr->sq_pages = qp ? req->sq_pages : 0;
	mr->rq_pages = qp ? req->rq_pages : 0;
	mr->rq_page = qp && req->sq_pages < n ? addrs[req->sq_pages] : 0;
	mr->shadow = shadow_follows ? addrs[ring] : 0;
	spin_lock(&uctx->reg_lock);
	list_add_tail(&mr->reg_list, qp ? &uctx->qp_regs : &uctx->cq_regs);
	spin_unlock(&uctx->reg_lock);
out:
	kvfree(addrs);
	return err;
}

/* A region of user memory, registered in the hardware. */
static int irdma_reg_user_mem(struct irdma_fn *fn, struct irdma_mr *mr,
			      struct ib_pd *pd, u64 virt, int access)
{
	unsigned long pgsz = ib_umem_find_best_pgsz(mr->umem, IRDMA_PAGE_SIZE_CAP,
						    virt);
	int err;

	if (!pgsz)
		return -EOPNOTSUPP;
	err = irdma_region_pbles(fn, mr, pgsz);
	if (err)
		return err;
	mr->page_size = pgsz;
	err = irdma_create_stag(fn, &mr->stag);
	if (err)
		goto free_pble;
	err = irdma_hwreg_mr(fn, mr, pd, access, virt, mr->umem->length);
	if (err)
		goto free_stag;
	mr->ibmr.lkey = mr->stag;
	mr->ibmr.rkey = mr->stag;
	return 0;

free_stag:
	irdma_free_stag(fn, mr->stag);
free_pble:
	irdma_pble_free(fn, &mr->pble);
	return err;
}

/**
 * irdma_reg_user_mr - register user memory: a region, or a queue's rings
 * @pd: the protection domain
 * @start: the memory's address
 * @len: its length
 * @virt: the address the region's users name its start by
 * @access: IB_ACCESS_* rights
 * @udata: the registration type and, for queues, their page counts
 *
 * Return: the registration, or ERR_PTR(-EINVAL) for a bad length, type or
 * page count, -EOPNOTSUPP for memory no page size fits, the pinning's
 * error, -ENOMEM, or the CQP's error.
 */
struct ib_mr *irdma_reg_user_mr(struct ib_pd *pd, u64 start, u64 len, u64 virt,
				int access, struct ib_udata *udata)
{
	struct irdma_ucontext *uctx = rdma_udata_to_drv_context(udata,
					struct irdma_ucontext, ibucontext);
	struct irdma_fn *fn = &to_iwdev(pd->device)->fn;
	struct irdma_mem_reg_req req = {};
	struct irdma_mr *mr;
	int err;

	if (len > IRDMA_MAX_MR_SIZE || !udata ||
	    udata->inlen < offsetofend(struct irdma_mem_reg_req, sq_pages))
		return ERR_PTR(-EINVAL);
	if (ib_copy_from_udata(&req, udata, min(sizeof(req), udata->inlen)))
		return ERR_PTR(-EFAULT);
	if (req.reg_type > IRDMA_MEMREG_TYPE_CQ)
		return ERR_PTR(-EINVAL);

	/* The device writes queue memory, whatever access was asked for. */
	if (req.reg_type != IRDMA_MEMREG_TYPE_MEM)
		access |= IB_ACCESS_LOCAL_WRITE;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	INIT_LIST_HEAD(&mr->reg_list);
	mr->umem = ib_umem_get(pd->device, start, len, access);
	if (IS_ERR(mr->umem)) {
		err = PTR_ERR(mr->umem);
		kfree(mr);
		return ERR_PTR(err);
	}
	mr->reg_type = req.reg_type;
	mr->user_base = virt;
	if (req.reg_type == IRDMA_MEMREG_TYPE_MEM)
		err = irdma_reg_user_mem(fn, mr, pd, virt, access);
	else
		err = irdma_handle_q_mem(fn, mr, &req, uctx);
	if (err) {
		irdma_pble_free(fn, &mr->pble);
		ib_umem_release(mr->umem);
		kfree(mr);
		return ERR_PTR(err);
	}
	mr->ibmr.iova = virt;
	mr->ibmr.length = len;
	return &mr->ibmr;
}

/**
 * irdma_dereg_user_queue - drop a queue registration
 * @mr: the registration
 * @udata: its user context
 *
 * Return: 0 (the caller unpins and frees it), or -EBUSY while a queue
 * lives on it.
 */
int irdma_dereg_user_queue(struct irdma_mr *mr, struct ib_udata *udata)
{
	struct irdma_ucontext *uctx = rdma_udata_to_drv_context(udata,
					struct irdma_ucontext, ibucontext);
	bool busy;

	spin_lock(&uctx->reg_lock);
	/* Seeing it free is seeing what irdma_queue_reg_release() did. */
	busy = smp_load_acquire(&mr->in_use);
	if (!busy && !list_empty(&mr->reg_list))
		list_del_init(&mr->reg_list);
	spin_unlock(&uctx->reg_lock);
	if (busy)
		return -EBUSY;
	irdma_pble_free(&to_iwdev(mr->ibmr.device)->fn, &mr->pble);
	return 0;
}

/* @pages of 4 KiB (libirdma's unit) hold @entries of @size bytes. */
static bool irdma_ring_fits(u32 pages, u32 entries, u32 size)
{
	return (u64)entries * size <= (u64)pages << IRDMA_HW_PAGE_SHIFT;
}

/* The hardware's view of a CQ ring registration. */
static void irdma_cq_ring_hw(struct irdma_cq_hw_info *hw,
			     const struct irdma_mr *ring)
{
	hw->virtual_map = ring->pble.level;
	hw->ring_pa = ring->first_page;
	hw->first_pble = ring->pble.idx;
	hw->pbl_levels = ring->pble.level ? 1 : 0;
}

/**
 * irdma_user_cq_rings - take a user CQ's ring and shadow area
 * @udata: the create request
 * @cq: the CQ, its size set; its ring and shadow registrations, and
 *	their addresses in its hardware info, are filled in
 *
 * Both registrations serve the CQ until irdma_queue_reg_release().
 *
 * Return: 0, -EINVAL for a short request or a ring too small for the
 * CQ's size, -EFAULT, or -EPROTO when the ring (or the shadow area) was
 * never registered.
 */
int irdma_user_cq_rings(struct ib_udata *udata, struct irdma_cq *cq)
{
	struct irdma_ucontext *uctx = rdma_udata_to_drv_context(udata,
					struct irdma_ucontext, ibucontext);
	struct irdma_create_cq_req req = {};
	struct irdma_mr *ring, *shadow;
	int err = 0;

	if (udata->inlen < offsetofend(struct irdma_create_cq_req, user_cq_buf))
		return -EINVAL;
	if (ib_copy_from_udata(&req, udata, min(sizeof(req), udata->inlen)))
		return -EFAULT;
	spin_lock(&uctx->reg_lock);
	ring = irdma_get_pbl(uctx, req.user_cq_buf, &uctx->cq_regs);
	shadow = irdma_get_pbl(uctx, req.user_shadow_area, &uctx->cq_regs);
	if (!ring || !shadow)
		err = -EPROTO;
	else if (!irdma_ring_fits(ring->ring_pages, cq->hw.size, IRDMA_CQE_SIZE))
		err = -EINVAL;
	if (err) {
		irdma_unget_pbl(uctx, ring, &uctx->cq_regs);
		irdma_unget_pbl(uctx, shadow, &uctx->cq_regs);
	} else {
		irdma_cq_ring_hw(&cq->hw, ring);
		cq->hw.shadow_pa = shadow->first_page;
		cq->user_ring = ring;
		cq->user_shadow = shadow;
	}
	spin_unlock(&uctx->reg_lock);
	return err;
}

/**
 * irdma_user_cq_resize_ring - take a user CQ's new ring
 * @udata: the resize request
 * @hw: its new size set; filled in (ring, PBLEs); the shadow area stays
 * @new_ring: returns the ring's registration, which serves the CQ once
 *	the resize is done (release it if the resize fails)
 *
 * Return: 0, -EINVAL for a request that cannot be read or a ring too
 * small for the new size, or -ENOMEM when the ring was never registered.
 */
int irdma_user_cq_resize_ring(struct ib_udata *udata,
			      struct irdma_cq_hw_info *hw,
			      struct irdma_mr **new_ring)
{
	struct irdma_ucontext *uctx = rdma_udata_to_drv_context(udata,
					struct irdma_ucontext, ibucontext);
	struct irdma_resize_cq_req req = {};
	struct irdma_mr *ring;
	int err = 0;

	if (ib_copy_from_udata(&req, udata, min(sizeof(req), udata->inlen)))
		return -EINVAL;
	spin_lock(&uctx->reg_lock);
	ring = irdma_get_pbl(uctx, req.user_cq_buffer, &uctx->cq_regs);
	if (!ring) {
		err = -ENOMEM;
	} else if (!irdma_ring_fits(ring->ring_pages, hw->size, IRDMA_CQE_SIZE)) {
		irdma_unget_pbl(uctx, ring, &uctx->cq_regs);
		err = -EINVAL;
	} else {
		irdma_cq_ring_hw(hw, ring);
		*new_ring = ring;
	}
	spin_unlock(&uctx->reg_lock);
	return err;
}

/**
 * irdma_setup_virt_qp - point a user QP at the rings it registered
 * @qp: the QP
 * @mr: the registration of its rings
 *
 * Rings behind PBLEs go to the hardware as PBLE indices (the RQ's list
 * follows the SQ's), contiguous rings as addresses; the shadow area is
 * the page after the rings either way.
 */
static void irdma_setup_virt_qp(struct irdma_qp *qp, const struct irdma_mr *mr)
{
	bool virt = mr->pble.level;

	qp->hw.vq = virt;
	qp->hw.sq_pa = virt ? mr->pble.idx : mr->first_page;
	qp->hw.rq_pa = virt ? mr->pble.idx + mr->sq_pages : mr->rq_page;
	qp->hw.shadow_pa = mr->shadow;
}

/**
 * irdma_setup_umode_qp - a user QP's rings and sizes
 * @udata: the create request
 * @qp: the QP
 * @init_attr: the requested capacities
 *
 * Providers that send raw capacities get the kernel's sizing; older ones
 * send the depths in WQEs of the largest size.
 *
 * The rings' registration serves the QP until irdma_queue_reg_release().
 *
 * Return: 0, -EINVAL for sizes beyond the hardware or beyond the pages
 * registered for the rings, -EFAULT, or -ENODATA when the rings were
 * never registered.
 */
int irdma_setup_umode_qp(struct ib_udata *udata, struct irdma_qp *qp,
			 struct ib_qp_init_attr *init_attr)
{
	struct irdma_ucontext *uctx = rdma_udata_to_drv_context(udata,
					struct irdma_ucontext, ibucontext);
	const struct irdma_uk_attrs *uk = &qp->iwdev->fn.uk_attrs;
	struct ib_qp_cap *cap = &init_attr->cap;
	struct irdma_create_qp_req req = {};
	u32 sq_depth, rq_depth;
	u8 sq_shift, rq_shift;
	struct irdma_mr *mr;
	int err;

	if (ib_copy_from_udata(&req, udata, min(sizeof(req), udata->inlen)))
		return -EFAULT;
	sq_shift = irdma_wqe_shift(uk, cap->max_send_sge + 1, cap->max_inline_data);
	rq_shift = irdma_wqe_shift(uk, cap->max_recv_sge, 0);
	if (uctx->use_raw_attrs) {
		err = irdma_sq_depth(uk, cap->max_send_wr, sq_shift, &sq_depth);
		if (!err)
			err = irdma_rq_depth(uk, cap->max_recv_wr, rq_shift, &rq_depth);
		if (err)
			return err;
		cap->max_send_wr = (sq_depth - IRDMA_SQ_RSVD) >> sq_shift;
		cap->max_recv_wr = (rq_depth - IRDMA_RQ_RSVD) >> rq_shift;
	} else {
		sq_depth = cap->max_send_wr << sq_shift;
		rq_depth = cap->max_recv_wr << rq_shift;
		if (!is_power_of_2(sq_depth) || !is_power_of_2(rq_depth) ||
		    sq_depth > uk->max_hw_wq_quanta || rq_depth > uk->max_hw_rq_quanta)
			return -EINVAL;
	}

	spin_lock(&uctx->reg_lock);
	mr = irdma_get_pbl(uctx, req.user_wqe_bufs, &uctx->qp_regs);
	if (!mr) {
		err = -ENODATA;
	} else if (!irdma_ring_fits(mr->sq_pages, sq_depth, IRDMA_WQE_QUANTUM_SIZE) ||
		   (!init_attr->srq &&
		    !irdma_ring_fits(mr->rq_pages, rq_depth, IRDMA_WQE_QUANTUM_SIZE))) {
		irdma_unget_pbl(uctx, mr, &uctx->qp_regs);
		err = -EINVAL;
	} else {
		irdma_setup_virt_qp(qp, mr);
		qp->user_rings = mr;
	}
	spin_unlock(&uctx->reg_lock);
	if (err)
		return err;

	qp->hw.sq_quanta = sq_depth;
	qp->hw.rq_quanta = rq_depth;
	qp->hw.rq_shift = rq_shift;
	qp->hw.compl_ctx = req.user_compl_ctx;
	qp->user_sq_size = sq_depth >> sq_shift;
	qp->user_rq_size = rq_depth >> rq_shift;
	return 0;
}
