// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Helpers shared across the driver: coherent DMA memory, memory the device
 * may still own after a failed destroy (kept until the CQP is known to be
 * down), and the byte order of IP address words.
 */
#include <rdma/ib_umem.h>

#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "main.h"

/* Coherent DMA blocks the driver holds, all functions together. */
static atomic_t irdma_dma_blocks = ATOMIC_INIT(0);

/* Pinned user memory or coherent pages kept from a failed destroy. */
struct irdma_orphan {
	struct list_head list;
	struct ib_umem *umem;
	struct irdma_dma_pages pages;
};

/**
 * irdma_dma_outstanding - coherent DMA blocks the driver holds
 *
 * For tests: after a function is gone, the count is back where it was.
 *
 * Return: the number of blocks.
 */
int irdma_dma_outstanding(void)
{
	return atomic_read(&irdma_dma_blocks);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_dma_outstanding);

/**
 * irdma_dma_alloc - allocate zeroed coherent DMA memory
 * @fn: the function
 * @mem: filled in
 * @size: bytes
 * @gfp: allocation flags
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_dma_alloc(struct irdma_fn *fn, struct irdma_dma_mem *mem,
		    size_t size, gfp_t gfp)
{
	/* KUnit makes large blocks fail here, as on a fragmented machine. */
	KUNIT_STATIC_STUB_REDIRECT(irdma_dma_alloc, fn, mem, size, gfp);
	return irdma_dma_alloc_block(fn, mem, size, gfp);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_dma_alloc);

/**
 * irdma_dma_alloc_block - irdma_dma_alloc() itself, never redirected
 * @fn: the function
 * @mem: filled in
 * @size: bytes
 * @gfp: allocation flags
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_dma_alloc_block(struct irdma_fn *fn, struct irdma_dma_mem *mem,
			  size_t size, gfp_t gfp)
{
	mem->va = dma_alloc_coherent(fn->res.dev, size, &mem->pa, gfp);
	if (!mem->va)
		return -ENOMEM;
	mem->size = size;
	atomic_inc(&irdma_dma_blocks);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_dma_alloc_block);

/**
 * irdma_dma_free - free memory from irdma_dma_alloc(); a no-op if empty
 * @fn: the function
 * @mem: the memory
 */
void irdma_dma_free(struct irdma_fn *fn, struct irdma_dma_mem *mem)
{
	if (!mem->va)
		return;
	dma_free_coherent(fn->res.dev, mem->size, mem->va, mem->pa);
	mem->va = NULL;
	atomic_dec(&irdma_dma_blocks);
}

/**
 * irdma_dma_release - free memory the hardware may still own
 * @fn: the function
 * @mem: the memory
 * @hw_done: the hardware let go of it (its destroy command succeeded)
 *
 * Memory whose destroy failed may still be written by the device: it is
 * kept until the CQP is known to be down (irdma_dma_free_orphans()).
 */
void irdma_dma_release(struct irdma_fn *fn, struct irdma_dma_mem *mem,
		       bool hw_done)
{
	if (!mem->va)
		return;
	if (hw_done) {
		irdma_dma_free(fn, mem);
		return;
	}
	spin_lock(&fn->orphan_lock);
	if (fn->orphan_count < IRDMA_MAX_ORPHANS) {
		fn->orphans[fn->orphan_count++] = *mem;
	} else {
		dev_warn(fn->res.dev, "leaking %zu bytes the device may own\n",
			 mem->size);
		atomic_dec(&irdma_dma_blocks);
	}
	spin_unlock(&fn->orphan_lock);
	mem->va = NULL;
}

/**
 * irdma_dma_free_orphans - free the memory kept from failed destroys
 * @fn: the function
 * @hw_down: the CQP is down, so the device owns nothing any more
 *
 * If the device may still be alive, the memory is leaked rather than
 * handed back while it could write to it.
 */
void irdma_dma_free_orphans(struct irdma_fn *fn, bool hw_down)
{
	struct irdma_orphan *orphan, *next;
	u32 i;

	if (fn->orphan_count && !hw_down)
		dev_warn(fn->res.dev, "leaking %u blocks the device may still write\n",
			 fn->orphan_count);
	for (i = 0; i < fn->orphan_count; i++) {
		if (hw_down)
			irdma_dma_free(fn, &fn->orphans[i]);
		else
			atomic_dec(&irdma_dma_blocks);
	}
	fn->orphan_count = 0;

	if (!hw_down && !list_empty(&fn->orphan_list))
		dev_warn(fn->res.dev, "leaking memory the device may still write\n");
	list_for_each_entry_safe(orphan, next, &fn->orphan_list, list) {
		list_del(&orphan->list);
		if (hw_down)
			ib_umem_release(orphan->umem);
		for (i = 0; i < orphan->pages.count; i++) {
			if (hw_down)
				irdma_dma_free(fn, &orphan->pages.page[i]);
			else
				atomic_dec(&irdma_dma_blocks);
		}
		kvfree(orphan->pages.page);
		kfree(orphan);
	}
}

/**
 * irdma_orphan_keep - keep memory the device may still write
 * @fn: the function
 * @umem: pinned user memory, or NULL
 * @pages: coherent pages, or NULL; emptied
 *
 * The memory is freed once the CQP is known to be down
 * (irdma_dma_free_orphans()), or, if it never is, leaked for good.
 */
void irdma_orphan_keep(struct irdma_fn *fn, struct ib_umem *umem,
		       struct irdma_dma_pages *pages)
{
	struct irdma_orphan *orphan = kzalloc(sizeof(*orphan), GFP_KERNEL);

	if (!orphan) {
		/* Without a note of it, the memory stays the device's for good. */
		if (pages) {
			atomic_sub(pages->count, &irdma_dma_blocks);
			kvfree(pages->page);
		}
	} else {
		orphan->umem = umem;
		if (pages)
			orphan->pages = *pages;
		spin_lock(&fn->orphan_lock);
		list_add_tail(&orphan->list, &fn->orphan_list);
		spin_unlock(&fn->orphan_lock);
	}
	if (pages)
		memset(pages, 0, sizeof(*pages));
}

/**
 * irdma_umem_release - unpin user memory the hardware may still write
 * @fn: the function
 * @umem: the memory (NULL: none)
 * @hw_done: the hardware let go of it
 *
 * Memory the device may still write stays pinned until the CQP is known
 * to be down (irdma_dma_free_orphans()), or for good if it never is.
 */
void irdma_umem_release(struct irdma_fn *fn, struct ib_umem *umem,
			bool hw_done)
{
	if (!umem || hw_done)
		ib_umem_release(umem);
	else
		irdma_orphan_keep(fn, umem, NULL);
}

/**
 * irdma_addr_ntoh - IP address words from network to host order
 * @dst: host-order words, as the hardware's address fields take them
 * @src: network-order words (1 for IPv4, 4 for IPv6)
 * @words: number of 32-bit words
 */
void irdma_addr_ntoh(u32 *dst, const __be32 *src, unsigned int words)
{
	unsigned int i;

	for (i = 0; i < words; i++)
		dst[i] = be32_to_cpu(src[i]);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_addr_ntoh);

/**
 * irdma_addr_hton - IP address words from host to network order
 * @dst: network-order words
 * @src: host-order words
 * @words: number of 32-bit words
 */
void irdma_addr_hton(__be32 *dst, const u32 *src, unsigned int words)
{
	unsigned int i;

	for (i = 0; i < words; i++)
		dst[i] = cpu_to_be32(src[i]);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_addr_hton);
