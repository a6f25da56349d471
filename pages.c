// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory in 4 KiB coherent pages, for what the hardware may reach through
 * PBLEs instead of one contiguous block: the AEQ when no block of its size
 * is to be had, and the PBLE object's own segments. A page is the unit the
 * hardware's page descriptors and one-level PBLEs name.
 */
#include <linux/slab.h>

#include "main.h"

/**
 * irdma_dma_pages_alloc - zeroed coherent memory in 4 KiB pages
 * @fn: the function
 * @pages: filled in
 * @bytes: how much; rounded up to whole pages
 *
 * Return: 0 or -ENOMEM, with nothing left allocated.
 */
int irdma_dma_pages_alloc(struct irdma_fn *fn, struct irdma_dma_pages *pages,
			  size_t bytes)
{
	u32 count = DIV_ROUND_UP(bytes, IRDMA_HW_PAGE_SIZE), i;

	pages->page = kvcalloc(count, sizeof(*pages->page), GFP_KERNEL);
	if (!pages->page)
		return -ENOMEM;
	for (i = 0; i < count; i++) {
		if (irdma_dma_alloc(fn, &pages->page[i], IRDMA_HW_PAGE_SIZE,
				    GFP_KERNEL)) {
			pages->count = i;
			irdma_dma_pages_free(fn, pages);
			return -ENOMEM;
		}
	}
	pages->count = count;
	return 0;
}

/**
 * irdma_dma_pages_free - free pages from irdma_dma_pages_alloc()
 * @fn: the function
 * @pages: the pages; emptied (a no-op when empty)
 */
void irdma_dma_pages_free(struct irdma_fn *fn, struct irdma_dma_pages *pages)
{
	u32 i;

	for (i = 0; i < pages->count; i++)
		irdma_dma_free(fn, &pages->page[i]);
	kvfree(pages->page);
	pages->page = NULL;
	pages->count = 0;
}

/**
 * irdma_dma_pages_release - free pages the hardware may still own
 * @fn: the function
 * @pages: the pages; emptied
 * @hw_done: the hardware let go of them (their destroy succeeded)
 *
 * Pages whose destroy failed are kept until the CQP is known to be down,
 * as irdma_dma_release() keeps a block.
 */
void irdma_dma_pages_release(struct irdma_fn *fn,
			     struct irdma_dma_pages *pages, bool hw_done)
{
	if (hw_done)
		irdma_dma_pages_free(fn, pages);
	else if (pages->count)
		irdma_orphan_keep(fn, NULL, pages);
}

/**
 * irdma_dma_pages_va - the CPU address of a byte of paged memory
 * @pages: the pages
 * @off: the byte's offset; what follows it up to the page's end is there too
 *
 * Return: its address.
 */
void *irdma_dma_pages_va(const struct irdma_dma_pages *pages, size_t off)
{
	return pages->page[off / IRDMA_HW_PAGE_SIZE].va + off % IRDMA_HW_PAGE_SIZE;
}
