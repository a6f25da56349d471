// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Physical buffer list entries: the HMC object through which the hardware
 * finds the pages of memory regions and of queues that are not physically
 * contiguous. A PBLE is one 8-byte address; the hardware is told the index
 * of the first.
 *
 * One level: the buffer's page addresses in consecutive PBLEs. Two levels:
 * a root of consecutive PBLEs holding the indices of leaves of up to 512
 * PBLEs each, which hold the addresses. The object's FPM space gets host
 * memory a 2 MiB segment at a time, as allocations need it: one block, or,
 * where no block that large is to be had, 4 KiB pages (a paged segment).
 */
#include <kunit/visibility.h>
#include <linux/genalloc.h>
#include <linux/slab.h>

#include "main.h"

#define IRDMA_PBLE_PER_LEAF	512
#define IRDMA_PBLE_ORDER	3	/* gen_pool granule: one PBLE */

static u64 irdma_pble_fpm(struct irdma_fn *fn, u32 idx)
{
	return fn->hmc.obj[IRDMA_HMC_PBLE].base + (u64)idx * IRDMA_PBLE_SIZE;
}

static u32 irdma_pble_idx(struct irdma_fn *fn, unsigned long fpm)
{
	return (fpm - fn->hmc.obj[IRDMA_HMC_PBLE].base) / IRDMA_PBLE_SIZE;
}

/*
 * Back the part of segment @sd from byte @from to @to: one 2 MiB block if
 * there is one to be had, else separate 4 KiB pages (a paged segment).
 */
static int irdma_pble_back_sd(struct irdma_fn *fn, u32 sd, u32 from, u32 to)
{
	struct irdma_hmc_sd *seg = &fn->hmc.sd[sd];
	int err;

	err = irdma_dma_alloc(fn, &seg->block, IRDMA_HMC_SD_SIZE,
			      GFP_KERNEL | __GFP_NOWARN);
	if (err) {
		dev_dbg(fn->res.dev, "PBLE segment %u goes in pages\n", sd);
		err = irdma_hmc_sd_add_paged(fn, sd, from, to);
	}
	if (err)
		return err;
	err = irdma_hmc_program_sds(fn, &sd, 1);
	if (err)
		irdma_hmc_sd_release(fn, seg, false);
	return err;
}

/* Give the pool the next segment of the PBLE object's FPM space. */
static int irdma_pble_grow(struct irdma_fn *fn)
{
	struct irdma_pble_pool *pp = &fn->pble;
	u64 start, end;
	u32 sd;
	int err;

	if (pp->next_fpm >= pp->end_fpm)
		return -ENOSPC;
	sd = pp->next_fpm / IRDMA_HMC_SD_SIZE;
	start = pp->next_fpm;
	end = min_t(u64, (u64)(sd + 1) * IRDMA_HMC_SD_SIZE, pp->end_fpm);

	/* A segment the objects before the PBLEs share is backed already. */
	if (!irdma_hmc_sd_backed(&fn->hmc.sd[sd])) {
		err = irdma_pble_back_sd(fn, sd, start % IRDMA_HMC_SD_SIZE,
					 end - (u64)sd * IRDMA_HMC_SD_SIZE);
		if (err)
			return err;
	}
	err = gen_pool_add(pp->pool, start, end - start, -1);
	if (err)
		return err;
	pp->next_fpm = end;
	return 0;
}

/* @count consecutive PBLEs, growing the pool as needed. */
static int irdma_pble_take(struct irdma_fn *fn, u32 count, u32 *idx)
{
	struct irdma_pble_pool *pp = &fn->pble;
	size_t bytes = (size_t)count * IRDMA_PBLE_SIZE;
	unsigned long fpm;

	if (bytes > IRDMA_HMC_SD_SIZE)
		return -ENOSPC;
	for (;;) {
		fpm = gen_pool_alloc(pp->pool, bytes);
		if (fpm) {
			*idx = irdma_pble_idx(fn, fpm);
			return 0;
		}
		if (irdma_pble_grow(fn))
			return -ENOMEM;
	}
}

static void irdma_pble_give(struct irdma_fn *fn, u32 idx, u32 count)
{
	gen_pool_free(fn->pble.pool, irdma_pble_fpm(fn, idx),
		      (size_t)count * IRDMA_PBLE_SIZE);
}

/**
 * irdma_pble_alloc - PBLEs for a buffer of @count pages
 * @fn: the function
 * @count: pages
 * @levels: whether the user of the list can take two levels
 * @alloc: returns the allocation
 *
 * One level if @count PBLEs are to be had in a row, else two.
 *
 * Return: 0, -EINVAL for no pages, -ENOMEM when the PBLEs ran out.
 */
int irdma_pble_alloc(struct irdma_fn *fn, u32 count,
		     enum irdma_pble_levels levels,
		     struct irdma_pble_alloc *alloc)
{
	u32 leaves, i, left;
	int err;

	might_sleep();

	memset(alloc, 0, sizeof(*alloc));
	if (!count)
		return -EINVAL;
	alloc->count = count;

	mutex_lock(&fn->pble.lock);
	err = irdma_pble_take(fn, count, &alloc->idx);
	if (!err) {
		alloc->level = 1;
		goto out;
	}
	if (levels == IRDMA_PBLE_LEVEL1_ONLY)
		goto out;

	leaves = DIV_ROUND_UP(count, IRDMA_PBLE_PER_LEAF);
	/* Sized by the registration: charged to its owner's memory cgroup. */
	alloc->leaf = kcalloc(leaves, sizeof(*alloc->leaf), GFP_KERNEL_ACCOUNT);
	err = -ENOMEM;
	if (!alloc->leaf)
		goto out;
	err = irdma_pble_take(fn, leaves, &alloc->idx);
	if (err)
		goto free_leaves;
	for (i = 0, left = count; i < leaves; i++) {
		u32 cnt = min_t(u32, left, IRDMA_PBLE_PER_LEAF);

		err = irdma_pble_take(fn, cnt, &alloc->leaf[i].idx);
		if (err)
			break;
		alloc->leaf[i].cnt = cnt;
		alloc->leaf_cnt++;
		left -= cnt;
		irdma_pble_set(fn, alloc->idx + i, alloc->leaf[i].idx);
	}
	if (!err) {
		alloc->level = 2;
		goto out;
	}
	for (i = 0; i < alloc->leaf_cnt; i++)
		irdma_pble_give(fn, alloc->leaf[i].idx, alloc->leaf[i].cnt);
	irdma_pble_give(fn, alloc->idx, leaves);
free_leaves:
	kfree(alloc->leaf);
	alloc->leaf = NULL;
	alloc->leaf_cnt = 0;
out:
	if (!err)
		fn->pble.used += count;
	mutex_unlock(&fn->pble.lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_pble_alloc);

/**
 * irdma_pble_free - give back an allocation
 * @fn: the function
 * @alloc: what irdma_pble_alloc() returned; emptied
 */
void irdma_pble_free(struct irdma_fn *fn, struct irdma_pble_alloc *alloc)
{
	u32 i;

	if (!alloc->level)
		return;
	mutex_lock(&fn->pble.lock);
	if (alloc->level == 2) {
		for (i = 0; i < alloc->leaf_cnt; i++)
			irdma_pble_give(fn, alloc->leaf[i].idx, alloc->leaf[i].cnt);
		irdma_pble_give(fn, alloc->idx, alloc->leaf_cnt);
	} else {
		irdma_pble_give(fn, alloc->idx, alloc->count);
	}
	fn->pble.used -= alloc->count;
	mutex_unlock(&fn->pble.lock);
	kfree(alloc->leaf);
	memset(alloc, 0, sizeof(*alloc));
}
EXPORT_SYMBOL_IF_KUNIT(irdma_pble_free);

/**
 * irdma_pble_set - write one PBLE
 * @fn: the function
 * @idx: its index in the PBLE object
 * @val: a page address, or a leaf's index in a two-level root
 */
void irdma_pble_set(struct irdma_fn *fn, u32 idx, u64 val)
{
	u64 fpm = irdma_pble_fpm(fn, idx);
	__le64 *slot = irdma_hmc_sd_va(&fn->hmc.sd[fpm / IRDMA_HMC_SD_SIZE],
				       fpm % IRDMA_HMC_SD_SIZE);

	*slot = cpu_to_le64(val);
}

/**
 * irdma_pble_get - read one PBLE back
 * @fn: the function
 * @idx: its index in the PBLE object
 *
 * Return: the page address (or leaf index) it holds.
 */
u64 irdma_pble_get(struct irdma_fn *fn, u32 idx)
{
	u64 fpm = irdma_pble_fpm(fn, idx);
	__le64 *slot = irdma_hmc_sd_va(&fn->hmc.sd[fpm / IRDMA_HMC_SD_SIZE],
				       fpm % IRDMA_HMC_SD_SIZE);

	return le64_to_cpu(*slot);
}

/**
 * irdma_pble_set_page - write the address of a buffer's page @n
 * @fn: the function
 * @alloc: the buffer's PBLEs
 * @n: page number in the buffer
 * @addr: the page's device address
 */
void irdma_pble_set_page(struct irdma_fn *fn,
			 const struct irdma_pble_alloc *alloc, u32 n, u64 addr)
{
	if (alloc->level == 2)
		irdma_pble_set(fn, alloc->leaf[n / IRDMA_PBLE_PER_LEAF].idx +
			       n % IRDMA_PBLE_PER_LEAF, addr);
	else
		irdma_pble_set(fn, alloc->idx + n, addr);
}

/**
 * irdma_next_pbl_addr - the PBLE for a buffer's next page
 * @alloc: the buffer's PBLEs
 * @cur: where the walk stands (zeroed to start); advanced
 *
 * Pages go one after another through a one-level list, and through the
 * leaves of a two-level one, stepping to the next leaf when one is full.
 *
 * Return: the PBLE's index in the PBLE object.
 */
u32 irdma_next_pbl_addr(const struct irdma_pble_alloc *alloc,
			struct irdma_pble_cursor *cur)
{
	const struct irdma_pble_leaf *leaf;
	u32 idx;

	if (alloc->level != 2)
		return alloc->idx + cur->off++;
	leaf = &alloc->leaf[cur->leaf];
	idx = leaf->idx + cur->off;
	if (++cur->off == leaf->cnt) {
		cur->leaf++;
		cur->off = 0;
	}
	return idx;
}

/**
 * irdma_pble_pool_init - an empty pool over the PBLE object
 * @fn: the function, its HMC committed
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_pble_pool_init(struct irdma_fn *fn)
{
	struct irdma_hmc_objinfo *o = &fn->hmc.obj[IRDMA_HMC_PBLE];
	struct irdma_pble_pool *pp = &fn->pble;

	mutex_init(&pp->lock);
	pp->pool = gen_pool_create(IRDMA_PBLE_ORDER, -1);
	if (!pp->pool)
		return -ENOMEM;
	pp->next_fpm = o->base;
	pp->end_fpm = o->base + (u64)o->cnt * IRDMA_PBLE_SIZE;
	pp->used = 0;
	return 0;
}

/**
 * irdma_pble_pool_destroy - drop the pool (its segments go with the HMC's)
 * @fn: the function
 */
void irdma_pble_pool_destroy(struct irdma_fn *fn)
{
	if (!fn->pble.pool)
		return;
	/* ib_core freed every user first; a leak must not become a BUG. */
	if (!WARN_ON_ONCE(fn->pble.used))
		gen_pool_destroy(fn->pble.pool);
	fn->pble.pool = NULL;
	mutex_destroy(&fn->pble.lock);
}
