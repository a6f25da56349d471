// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory regions: the DMA region, fast-register regions with their page
 * lists, and deregistration.
 */
#include <linux/log2.h>
#include <linux/random.h>
#include <rdma/ib_umem.h>
#include <uapi/rdma/irdma-abi.h>

#include "verbs.h"

/* Bits of a key's index above what the MR count needs carry random bits. */
static u32 irdma_stag_index_mask(struct irdma_fn *fn)
{
	u32 bits = max_t(u32, order_base_2(fn->hmc.obj[IRDMA_HMC_MR].cnt), 14);

	return GENMASK(min_t(u32, bits + 8, 32) - 1, 0);
}

/**
 * irdma_create_stag - a fresh memory key
 * @fn: the function
 * @stag: returns the key
 *
 * The key is an unused index, the first free one from a random start,
 * with random bits above it and a random consumer key below.
 *
 * Return: 0, or -ENOMEM when every index is in use.
 */
int irdma_create_stag(struct irdma_fn *fn, u32 *stag)
{
	u32 max = fn->hmc.obj[IRDMA_HMC_MR].cnt;
	u32 mask = irdma_stag_index_mask(fn);
	u32 r = get_random_u32();
	int idx;

	if (max <= IRDMA_RSVD_MRS)
		return -ENOMEM;
	/* The search starts at a random index: keys are not guessable. */
	idx = irdma_ids_alloc_from(&fn->mr_ids, IRDMA_RSVD_MRS, max - 1,
				   ((r & mask) >> 8) % max);
	if (idx < 0)
		return -ENOMEM;
	*stag = ((u32)idx << 8) | (r & ~mask) | (r & 0xff);
	return 0;
}

/**
 * irdma_free_stag - give back a key's index
 * @fn: the function
 * @stag: the key
 */
void irdma_free_stag(struct irdma_fn *fn, u32 stag)
{
	irdma_ids_free(&fn->mr_ids, (stag & irdma_stag_index_mask(fn)) >> 8);
}

/**
 * irdma_hwreg_mr - register a region in the hardware (REG_MR)
 * @fn: the function
 * @mr: the region, its key and pages set
 * @pd: its protection domain
 * @access: IB_ACCESS_* rights
 * @va: its first address
 * @len: its length (0 with a page address of 0: all of memory)
 *
 * Return: 0 or the CQP's error.
 */
int irdma_hwreg_mr(struct irdma_fn *fn, struct irdma_mr *mr,
		   struct ib_pd *pd, int access, u64 va, u64 len)
{
	struct irdma_stag_info info = {
		.stag = mr->stag,
		.pd = to_iwpd(pd)->id,
		.len = len,
		.va = va,
		.rights = irdma_get_mr_access(access),
		.zero_based = access & IB_ZERO_BASED,
		/* The device steps through the PBLEs by it. */
		.page_size = irdma_hw_page_size(mr->page_size),
		.pa = mr->first_page,
	};
	struct irdma_cqp_wqe cmd;

	if (mr->pble.level) {
		info.pbl_levels = mr->pble.level == 2 ? IRDMA_PBL_LEVELS_2 : 1;
		info.first_pble = mr->pble.idx;
	}
	irdma_build_reg_mr(&cmd, &info);
	return irdma_cqp_exec(fn, &cmd, NULL);
}

/**
 * irdma_reg_phys_mr - a region over a physically contiguous range
 * @pd: its protection domain
 * @addr: the range's device address (0 with @size 0: all of memory)
 * @size: its length
 * @access: IB_ACCESS_* rights
 * @iova: the address the region's users name its first byte by
 * @dma_mr: the region covers all of memory
 *
 * Return: the region, or ERR_PTR(-ENOMEM) or the CQP's error.
 */
static struct ib_mr *irdma_reg_phys_mr(struct ib_pd *pd, u64 addr, u64 size,
				       int access, u64 iova, bool dma_mr)
{
	struct irdma_fn *fn = &to_iwdev(pd->device)->fn;
	struct irdma_mr *mr;
	int err;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	err = irdma_create_stag(fn, &mr->stag);
	if (err)
		goto free_mr;
	mr->first_page = addr;
	mr->page_size = PAGE_SIZE;
	mr->dma_mr = dma_mr;
	err = irdma_hwreg_mr(fn, mr, pd, access, iova, size);
	if (err)
		goto free_stag;
	mr->ibmr.lkey = mr->stag;
	mr->ibmr.rkey = mr->stag;
	mr->ibmr.iova = iova;
	mr->ibmr.length = size;
	return &mr->ibmr;

free_stag:
	irdma_free_stag(fn, mr->stag);
free_mr:
	kfree(mr);
	return ERR_PTR(err);
}

/**
 * irdma_reg_kernel_mr - a region over a buffer of the driver's own, for a
 *	QP's work on the buffer (an iWARP QP's MPA reply)
 * @pd: the QP's protection domain
 * @addr: the buffer's device address, which also names it in WQEs
 * @size: its length
 *
 * Release it with irdma_dereg_mr().
 *
 * Return: the region, or ERR_PTR(-ENOMEM) or the CQP's error.
 */
struct ib_mr *irdma_reg_kernel_mr(struct ib_pd *pd, dma_addr_t addr, u32 size)
{
	struct ib_mr *ibmr = irdma_reg_phys_mr(pd, addr, size, IB_ACCESS_LOCAL_WRITE,
					       addr, false);

	if (!IS_ERR(ibmr)) {
		ibmr->device = pd->device;
		ibmr->pd = pd;
	}
	return ibmr;
}

/**
 * irdma_get_dma_mr - a region covering all of memory
 * @pd: its protection domain
 * @access: IB_ACCESS_* rights
 *
 * Return: the region, or ERR_PTR(-ENOMEM) or the CQP's error.
 */
struct ib_mr *irdma_get_dma_mr(struct ib_pd *pd, int access)
{
	return irdma_reg_phys_mr(pd, 0, 0, access, 0, true);
}

/**
 * irdma_hw_alloc_stag - a fast-register region's key in the hardware
 * @fn: the function
 * @mr: the region, its key and page list set
 * @pd: its protection domain
 *
 * Return: 0 or the CQP's error.
 */
static int irdma_hw_alloc_stag(struct irdma_fn *fn, struct irdma_mr *mr,
			       struct ib_pd *pd)
{
	struct irdma_stag_info info = {
		.stag = mr->stag,
		.pd = to_iwpd(pd)->id,
		.len = (u64)mr->max_pages * PAGE_SIZE,
	};
	struct irdma_cqp_wqe cmd;

	irdma_build_alloc_stag(&cmd, &info);
	return irdma_cqp_exec(fn, &cmd, NULL);
}

/**
 * irdma_alloc_mr - a region registered later by fast-register work requests
 * @pd: its protection domain
 * @mr_type: IB_MR_TYPE_MEM_REG
 * @max_num_sg: pages it may cover
 *
 * Return: the region, or ERR_PTR(-EINVAL) for another type or no pages,
 * -ENOMEM, or the CQP's error.
 */
struct ib_mr *irdma_alloc_mr(struct ib_pd *pd, enum ib_mr_type mr_type,
			     u32 max_num_sg)
{
	struct irdma_fn *fn = &to_iwdev(pd->device)->fn;
	struct irdma_mr *mr;
	int err;

	if (mr_type != IB_MR_TYPE_MEM_REG || !max_num_sg ||
	    max_num_sg > IRDMA_MAX_PAGES_PER_FMR)
		return ERR_PTR(-EINVAL);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	err = irdma_create_stag(fn, &mr->stag);
	if (err)
		goto free_mr;
	err = irdma_pble_alloc(fn, max_num_sg, IRDMA_PBLE_ANY_LEVEL, &mr->pble);
	if (err)
		goto free_stag;
	mr->max_pages = max_num_sg;
	err = irdma_hw_alloc_stag(fn, mr, pd);
	if (err)
		goto free_pble;

	mr->ibmr.lkey = mr->stag;
	mr->ibmr.rkey = mr->stag;
	return &mr->ibmr;

free_pble:
	irdma_pble_free(fn, &mr->pble);
free_stag:
	irdma_free_stag(fn, mr->stag);
free_mr:
	kfree(mr);
	return ERR_PTR(err);
}

/**
 * irdma_set_page - add one page to a fast-register region's page list
 * @ibmr: the region
 * @addr: the page's device address
 *
 * Return: 0, or -ENOMEM when the list is full.
 */
static int irdma_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct irdma_mr *mr = to_iwmr(ibmr);
	struct irdma_fn *fn = &to_iwdev(ibmr->device)->fn;

	if (mr->npages == mr->max_pages)
		return -ENOMEM;
	if (!mr->npages)
		mr->first_page = addr;
	irdma_pble_set_page(fn, &mr->pble, mr->npages++, addr);
	return 0;
}

/**
 * irdma_map_mr_sg - the page list of a fast-register region
 * @ibmr: the region
 * @sg: the scatterlist to cover
 * @sg_nents: its entries
 * @sg_offset: offset into the first entry
 *
 * Return: entries mapped.
 */
int irdma_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		    unsigned int *sg_offset)
{
	struct irdma_mr *mr = to_iwmr(ibmr);
	int n;

	mr->npages = 0;
	n = ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, irdma_set_page);
	mr->page_size = ibmr->page_size;
	return n;
}

/**
 * irdma_dereg_mr - release a memory region
 * @ibmr: the region
 * @udata: user-space context (that of a queue registration)
 *
 * Return: 0, -EBUSY for the registration of a live queue's rings, or
 * the CQP's error; on an error the region stays.
 */
int irdma_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct irdma_fn *fn = &to_iwdev(ibmr->device)->fn;
	struct irdma_mr *mr = to_iwmr(ibmr);
	struct irdma_cqp_wqe cmd;
	int err;

	/* Queue registrations have no key: they only described rings. */
	if (mr->reg_type != IRDMA_MEMREG_TYPE_MEM) {
		err = irdma_dereg_user_queue(mr, udata);
		if (err)
			return err;
		ib_umem_release(mr->umem);
		kfree(mr);
		return 0;
	}
	irdma_build_dealloc_stag(&cmd, mr->stag, to_iwpd(ibmr->pd)->id,
				 IRDMA_STAG_KIND_MR);
	err = irdma_cqp_exec(fn, &cmd, NULL);
	if (err)
		return err;
	irdma_free_stag(fn, mr->stag);
	irdma_pble_free(fn, &mr->pble);
	ib_umem_release(mr->umem);
	kfree(mr);
	return 0;
}

/**
 * irdma_hw_alloc_mw - create a window's key in the hardware
 * @fn: the function
 * @mw: the window, its key chosen
 *
 * Return: 0 or the CQP's error.
 */
static int irdma_hw_alloc_mw(struct irdma_fn *fn, struct ib_mw *mw)
{
	struct irdma_cqp_wqe cmd;

	irdma_build_alloc_mw(&cmd, mw->rkey, to_iwpd(mw->pd)->id,
			     mw->type == IB_MW_TYPE_1);
	return irdma_cqp_exec(fn, &cmd, NULL);
}

/**
 * irdma_alloc_mw - a memory window, bound later by its user
 * @ibmw: the window ib_core allocated
 * @udata: user-space request (unused)
 *
 * Return: 0, -ENOMEM when no key is free, or the CQP's error.
 */
int irdma_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct irdma_fn *fn = &to_iwdev(ibmw->device)->fn;
	u32 stag;
	int err;

	err = irdma_create_stag(fn, &stag);
	if (err)
		return err;
	ibmw->rkey = stag;
	err = irdma_hw_alloc_mw(fn, ibmw);
	if (err)
		irdma_free_stag(fn, stag);
	return err;
}

/**
 * irdma_dealloc_mw - release a memory window
 * @ibmw: the window
 *
 * Return: 0.
 */
int irdma_dealloc_mw(struct ib_mw *ibmw)
{
	struct irdma_fn *fn = &to_iwdev(ibmw->device)->fn;
	struct irdma_cqp_wqe cmd;

	irdma_build_dealloc_stag(&cmd, ibmw->rkey, to_iwpd(ibmw->pd)->id,
				 IRDMA_STAG_KIND_MW);
	irdma_cqp_exec(fn, &cmd, NULL);
	irdma_free_stag(fn, ibmw->rkey);
	return 0;
}
