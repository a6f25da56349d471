// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Push pages: a page of BAR0 a user QP writes its WQEs into (besides its
 * ring) so the hardware need not fetch them, with a doorbell page after
 * it. The upstream driver has the code but never turns push mode on, and
 * Debian's libirdma has no push path; here it is off unless the push_mode
 * parameter asks for it. A QP gets its page when it goes to RTS, and the
 * provider the two pages' mmap keys in the modify response.
 */
#include <kunit/visibility.h>
#include <linux/module.h>
#include <rdma/uverbs_ioctl.h>
#include <uapi/rdma/irdma-abi.h>

#include "verbs.h"

static bool push_mode;
module_param(push_mode, bool, 0444);
MODULE_PARM_DESC(push_mode, "Offer push pages to user QPs (default off, as upstream)");

/**
 * irdma_push_wanted - a QP going to RTS should get a push page
 * @qp: the QP
 *
 * Return: push mode is on, the QP is a user QP without a page, and BAR0
 * has push pages.
 */
bool irdma_push_wanted(const struct irdma_qp *qp)
{
	return push_mode && qp->user && !qp->hw.push &&
	       qp->iwdev->fn.res.push_pages;
}

/**
 * irdma_alloc_push_page - take a push page for a QP
 * @qp: the QP; its next context names the page
 *
 * A failure only means the QP goes without: push is an optimisation.
 */
void irdma_alloc_push_page(struct irdma_qp *qp)
{
	struct irdma_fn *fn = &qp->iwdev->fn;
	struct irdma_cqp_compl compl;
	struct irdma_cqp_wqe cmd;

	irdma_build_take_push_page(&cmd, qp->hw.qs_handle);
	if (irdma_cqp_exec(fn, &cmd, &compl))
		return;
	if (compl.ret_val >= min_t(u32, fn->res.push_pages, IRDMA_MAX_PUSH_PAGES)) {
		/* A page beyond BAR0: give it back. */
		irdma_build_give_back_push_page(&cmd, qp->hw.qs_handle,
						compl.ret_val);
		irdma_cqp_exec(fn, &cmd, NULL);
		return;
	}
	qp->hw.push = true;
	qp->hw.push_idx = compl.ret_val;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_alloc_push_page);

/**
 * irdma_dealloc_push_page - give a destroyed QP's push page back
 * @qp: the QP, gone from the hardware
 */
void irdma_dealloc_push_page(struct irdma_qp *qp)
{
	struct irdma_cqp_wqe cmd;

	if (!qp->hw.push)
		return;
	irdma_build_give_back_push_page(&cmd, qp->hw.qs_handle, qp->hw.push_idx);
	irdma_cqp_exec(&qp->iwdev->fn, &cmd, NULL);
	qp->hw.push = false;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_dealloc_push_page);

/**
 * irdma_push_mmap_setup - the push pages' mmap entries, for the provider
 * @qp: a user QP with a push page and no entries yet
 * @udata: the modify request, its context the QP's
 * @resp: gets the keys
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_push_mmap_setup(struct irdma_qp *qp, struct ib_udata *udata,
			  struct irdma_modify_qp_resp *resp)
{
	struct irdma_ucontext *uctx = rdma_udata_to_drv_context(udata,
					struct irdma_ucontext, ibucontext);
	u64 page = IRDMA_PUSH_OFFSET +
		   (u64)qp->hw.push_idx * IRDMA_PUSH_PAGE_SIZE;

	/* Two modifies at once would each insert the entries. */
	lockdep_assert_held(&qp->mutex);
	qp->push_wqe_entry = irdma_mmap_entry_insert(uctx, page, true,
						     &resp->push_wqe_mmap_key);
	if (!qp->push_wqe_entry)
		return -ENOMEM;
	qp->push_db_entry = irdma_mmap_entry_insert(uctx, page + IRDMA_PUSH_PAGE_SIZE,
						    false, &resp->push_db_mmap_key);
	if (!qp->push_db_entry) {
		irdma_push_mmap_remove(qp);
		return -ENOMEM;
	}
	resp->push_valid = 1;
	resp->push_offset = 0;
	return 0;
}

/**
 * irdma_push_mmap_remove - withdraw a QP's push mmap entries
 * @qp: the QP
 *
 * Mappings user space already has stay until it unmaps them (or the
 * device goes away); new ones fail.
 */
void irdma_push_mmap_remove(struct irdma_qp *qp)
{
	if (qp->push_db_entry)
		rdma_user_mmap_entry_remove(qp->push_db_entry);
	if (qp->push_wqe_entry)
		rdma_user_mmap_entry_remove(qp->push_wqe_entry);
	qp->push_db_entry = NULL;
	qp->push_wqe_entry = NULL;
}
