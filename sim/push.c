// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Push pages. The simulator's own functions have IRDMA_SIM_PUSH_PAGES of
 * them after 8 MiB of BAR0 (each page's doorbell is the page after it);
 * MANAGE_PUSH_PAGES hands them out and takes them back, and a QP context
 * may name only a page handed out. The WQEs a provider pushes are also in
 * its SQ, which the engine executes as always: a write to a push page's
 * doorbell wakes the engine as the SQ doorbell does.
 */
#include <linux/bitfield.h>

#include "sim.h"

/* The first qword of page @idx's doorbell. */
static void __iomem *isim_push_db(struct isim_dev *sdev, u32 idx)
{
	return sdev->regs + IRDMA_PUSH_OFFSET + (idx + 1) * IRDMA_PUSH_PAGE_SIZE;
}

/**
 * isim_push_manage - MANAGE_PUSH_PAGES: hand out a page, or take one back
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion; an allocation's returns the page
 */
void isim_push_manage(struct isim_dev *sdev, const __le64 *wqe,
		      struct isim_cqp_result *res)
{
	u64 hdr = le64_to_cpu(wqe[3]);
	u32 idx = FIELD_GET(IRDMA_CQPSQ_MPP_PPIDX, hdr);

	if (hdr & IRDMA_CQPSQ_MPP_FREE_PAGE) {
		if (!isim_push_valid(sdev, idx))
			return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
		clear_bit(idx, sdev->push_used);
		return;
	}
	idx = find_first_zero_bit(sdev->push_used, sdev->push_pages);
	if (idx >= sdev->push_pages)
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	set_bit(idx, sdev->push_used);
	/* Neither the page nor its doorbell holds anything yet. */
	memset_io(sdev->regs + IRDMA_PUSH_OFFSET + idx * IRDMA_PUSH_PAGE_SIZE, 0,
		  2 * IRDMA_PUSH_PAGE_SIZE);
	res->ret_val = idx;
}

/**
 * isim_push_valid - a push page is handed out
 * @sdev: the simulated function
 * @idx: the page
 *
 * Return: true if a QP may name it.
 */
bool isim_push_valid(struct isim_dev *sdev, u32 idx)
{
	return idx < sdev->push_pages && test_bit(idx, sdev->push_used);
}

/**
 * isim_push_poll - take writes to the doorbells of the handed-out pages
 * @sdev: the simulated function
 *
 * Return: a doorbell was written (the engine has SQ work to look for).
 */
bool isim_push_poll(struct isim_dev *sdev)
{
	bool rang = false;
	u32 idx;

	for_each_set_bit(idx, sdev->push_used, sdev->push_pages) {
		if (readq(isim_push_db(sdev, idx))) {
			writeq(0, isim_push_db(sdev, idx));
			rang = true;
		}
	}
	return rang;
}
