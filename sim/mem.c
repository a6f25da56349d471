// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory keys (ALLOC_STAG, REG_MR, fast registration, invalidation,
 * DEALLOC_STAG) and the translation of keyed addresses to host memory;
 * address handles; the transmit scheduler's nodes.
 */
#include <linux/bitfield.h>
#include <linux/log2.h>
#include <linux/slab.h>

#include "sim.h"

#define ISIM_PBLES_PER_LEAF	512

/**
 * isim_mr_index - the MR object a key names
 * @sdev: the simulated function
 * @stag: the key
 *
 * Index bits beyond what the MR count needs (at least 14) are ignored:
 * drivers put random bits there.
 *
 * Return: the index.
 */
u32 isim_mr_index(struct isim_dev *sdev, u32 stag)
{
	u32 bits = max_t(u32, order_base_2(sdev->hmc.cnt[IRDMA_HMC_MR]), 14);

	return (stag >> 8) & GENMASK(min_t(u32, bits, 24) - 1, 0);
}

static u8 isim_page_shift(u8 code)
{
	return code == IRDMA_PAGE_SIZE_1G ? 30 : code == IRDMA_PAGE_SIZE_2M ? 21 : 12;
}

static struct isim_mr *isim_mr_slot(struct isim_dev *sdev, u32 stag,
				    struct isim_cqp_result *res)
{
	u32 idx = isim_mr_index(sdev, stag);
	struct isim_mr *mr;

	if (!sdev->hmc.committed || !idx || idx >= sdev->hmc.cnt[IRDMA_HMC_MR]) {
		isim_fail(res, ISIM_MIN_BAD_PARAM);
		return NULL;
	}
	if (xa_load(&sdev->mrs, idx)) {
		isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
		return NULL;
	}
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr || xa_err(xa_store(&sdev->mrs, idx, mr, GFP_KERNEL))) {
		kfree(mr);
		isim_fail(res, ISIM_MIN_BAD_PARAM);
		return NULL;
	}
	return mr;
}

/**
 * isim_mr_alloc - ALLOC_STAG: a region for fast registration, or a window
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void isim_mr_alloc(struct isim_dev *sdev, const __le64 *wqe,
		   struct isim_cqp_result *res)
{
	u64 hdr = le64_to_cpu(wqe[3]);
	u32 stag = FIELD_GET(IRDMA_STAG_IDX, le64_to_cpu(wqe[2])) << 8;
	struct isim_mr *mr = isim_mr_slot(sdev, stag, res);

	if (!mr)
		return;
	mr->stag = stag;
	mr->pd = FIELD_GET(IRDMA_STAG_PDID, le64_to_cpu(wqe[1]));
	mr->is_mw = !(hdr & IRDMA_STAG_MR);
	mr->mw_type1 = mr->is_mw && (hdr & IRDMA_STAG_MWTYPE);
	mr->fast_reg = !mr->is_mw;
	mr->len = FIELD_GET(IRDMA_STAG_LEN, le64_to_cpu(wqe[1]));
}

/**
 * isim_mr_reg - REG_MR: a region, valid at once
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void isim_mr_reg(struct isim_dev *sdev, const __le64 *wqe,
		 struct isim_cqp_result *res)
{
	u64 hdr = le64_to_cpu(wqe[3]);
	u32 stag = FIELD_GET(IRDMA_STAG_IDX, le64_to_cpu(wqe[2])) << 8 |
		   FIELD_GET(IRDMA_STAG_KEY, le64_to_cpu(wqe[2]));
	struct isim_mr *mr;

	if (FIELD_GET(IRDMA_STAG_LPBLSIZE, hdr) &&
	    FIELD_GET(IRDMA_STAG_FIRSTPMPBLIDX, le64_to_cpu(wqe[6])) >=
	    sdev->hmc.cnt[IRDMA_HMC_PBLE])
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	mr = isim_mr_slot(sdev, stag, res);
	if (!mr)
		return;
	*mr = (struct isim_mr) {
		.stag = stag,
		.pd = FIELD_GET(IRDMA_STAG_PDID, le64_to_cpu(wqe[1])),
		.valid = true,
		.va = le64_to_cpu(wqe[0]),
		.len = FIELD_GET(IRDMA_STAG_LEN, le64_to_cpu(wqe[1])),
		.zero_based = !(hdr & IRDMA_STAG_VABASEDTO),
		.rights = FIELD_GET(IRDMA_STAG_ARIGHTS, hdr),
		.levels = FIELD_GET(IRDMA_STAG_LPBLSIZE, hdr),
		.first_pble = FIELD_GET(IRDMA_STAG_FIRSTPMPBLIDX, le64_to_cpu(wqe[6])),
		.pa = le64_to_cpu(wqe[4]),
		.page_shift = isim_page_shift(FIELD_GET(IRDMA_STAG_HPAGESIZE, hdr)),
	};
}

/**
 * isim_mr_dealloc - DEALLOC_STAG
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void isim_mr_dealloc(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res)
{
	u32 stag = FIELD_GET(IRDMA_STAG_IDX, le64_to_cpu(wqe[2])) << 8;
	u32 pd = FIELD_GET(IRDMA_STAG_PDID, le64_to_cpu(wqe[1]));
	u32 idx = isim_mr_index(sdev, stag);
	struct isim_mr *mr = xa_load(&sdev->mrs, idx);

	if (!mr || mr->pd != pd)
		return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	xa_erase(&sdev->mrs, idx);
	kfree(mr);
}

/**
 * isim_mr_fast_reg - a fast-register WQE: give a region its pages
 * @sdev: the simulated function
 * @pd: the posting QP's PD
 * @wqe: the WQE
 *
 * Return: 0, or the AE code of the failure.
 */
int isim_mr_fast_reg(struct isim_dev *sdev, u32 pd, const __le64 *wqe)
{
	u64 hdr = le64_to_cpu(wqe[3]), q1 = le64_to_cpu(wqe[1]);
	u64 q2 = le64_to_cpu(wqe[2]);
	u32 stag = FIELD_GET(IRDMA_WQE_STAGINDEX, hdr) << 8 |
		   FIELD_GET(IRDMA_WQE_STAGKEY, hdr);
	struct isim_mr *mr = xa_load(&sdev->mrs, isim_mr_index(sdev, stag));

	if (!mr || !mr->fast_reg)
		return IRDMA_AE_AMP_INVALID_STAG;
	if (mr->valid)
		return IRDMA_AE_AMP_BAD_STAG_INDEX;
	if (mr->pd != pd)
		return IRDMA_AE_AMP_BAD_PD;
	mr->stag = stag;
	mr->valid = true;
	mr->va = le64_to_cpu(wqe[0]);
	mr->len = FIELD_GET(IRDMA_FASTREG_LEN, q2);
	mr->zero_based = !(hdr & IRDMA_WQE_VABASEDTO);
	mr->rights = FIELD_GET(IRDMA_WQE_STAGRIGHTS, hdr);
	mr->levels = FIELD_GET(IRDMA_WQE_LPBLSIZE, hdr);
	mr->first_pble = FIELD_GET(IRDMA_FASTREG_PBLIDX_HI, q1) << 16 |
			 FIELD_GET(IRDMA_FASTREG_PBLIDX_LO, q2);
	mr->pa = q1 & IRDMA_FASTREG_PBLADDR;
	mr->page_shift = isim_page_shift(FIELD_GET(IRDMA_WQE_HPAGESIZE, hdr));
	return 0;
}

/**
 * isim_mr_invalidate - make a region's key unusable until registered again
 * @sdev: the simulated function
 * @stag: the key
 * @pd: the invalidating QP's PD
 * @remote: a peer asks (send with invalidate)
 *
 * Return: 0, or the AE code of the failure.
 */
int isim_mr_invalidate(struct isim_dev *sdev, u32 stag, u32 pd, bool remote)
{
	struct isim_mr *mr = xa_load(&sdev->mrs, isim_mr_index(sdev, stag));

	if (!mr || !mr->valid || mr->stag != stag)
		return IRDMA_AE_AMP_INVALID_STAG;
	/* A type 1 window goes only with its binding or its deallocation. */
	if (mr->mw_type1)
		return IRDMA_AE_AMP_INVALIDATE_TYPE1_MW;
	if (mr->pd != pd)
		return IRDMA_AE_AMP_BAD_PD;
	if (remote && !(mr->rights & (IRDMA_MR_RIGHT_REMOTE_READ |
				      IRDMA_MR_RIGHT_REMOTE_WRITE)))
		return IRDMA_AE_AMP_INVALIDATE_NO_REMOTE_ACCESS_RIGHTS;
	/* Regions registered by REG_MR cannot be invalidated. */
	if (!mr->fast_reg && !mr->is_mw)
		return IRDMA_AE_AMP_RIGHTS_VIOLATION;
	mr->valid = false;
	return 0;
}

/* A window's new bounds and rights: none a region cannot give. */
static int isim_mw_bind_check(const struct isim_mr *mr, u32 parent, u32 pd,
			      u64 va, u64 len, u8 rights, bool va_based)
{
	if (!mr || !mr->valid || mr->stag != parent)
		return IRDMA_AE_AMP_MWBIND_TO_INVALID_PARENT;
	if (mr->is_mw)
		return IRDMA_AE_AMP_MWBIND_TO_MW_STAG;
	if (mr->pd != pd)
		return IRDMA_AE_AMP_BAD_PD;
	if (!(mr->rights & IRDMA_MR_RIGHT_BIND_WINDOW))
		return IRDMA_AE_AMP_MWBIND_BIND_DISABLED;
	if (mr->zero_based)
		return IRDMA_AE_AMP_MWBIND_TO_ZERO_BASED_STAG;
	if (!va_based)
		return IRDMA_AE_AMP_MWBIND_ZERO_BASED_TYPE1_MW;
	/* Remote access only; remote writes need the region's local write. */
	if ((rights & ~(IRDMA_MR_RIGHT_REMOTE_READ | IRDMA_MR_RIGHT_REMOTE_WRITE)) ||
	    ((rights & IRDMA_MR_RIGHT_REMOTE_WRITE) &&
	     !(mr->rights & IRDMA_MR_RIGHT_LOCAL_WRITE)))
		return IRDMA_AE_AMP_MWBIND_INVALID_RIGHTS;
	if (va + len < va || va < mr->va || va + len > mr->va + mr->len)
		return IRDMA_AE_AMP_MWBIND_INVALID_BOUNDS;
	return 0;
}

/**
 * isim_mw_bind - a BIND_MW WQE: a type 1 window takes a key, bounds and
 * remote rights inside a region
 * @sdev: the simulated function
 * @pd: the posting QP's PD
 * @wqe: the WQE
 *
 * The window keeps its index and takes the WQE's key (libirdma moves the
 * key at every bind); a type 1 window may be bound again while valid.
 * Only type 1 windows are bound this way on this generation.
 *
 * Return: 0, or the AE code of the failure (the window is unchanged).
 */
int isim_mw_bind(struct isim_dev *sdev, u32 pd, const __le64 *wqe)
{
	u64 hdr = le64_to_cpu(wqe[3]), q1 = le64_to_cpu(wqe[1]);
	u32 stag = FIELD_GET(IRDMA_BIND_MW_STAG, q1);
	u32 parent = FIELD_GET(IRDMA_BIND_PARENT_STAG, q1);
	struct isim_mr *mw = xa_load(&sdev->mrs, isim_mr_index(sdev, stag));
	u64 va = le64_to_cpu(wqe[0]), len = le64_to_cpu(wqe[2]);
	u8 rights = FIELD_GET(IRDMA_WQE_STAGRIGHTS, hdr);
	int err;

	if (!mw)
		return IRDMA_AE_AMP_INVALID_STAG;
	if (!mw->is_mw)
		return IRDMA_AE_AMP_MWBIND_OF_MR_STAG;
	if (!mw->mw_type1 || !(hdr & IRDMA_WQE_MWTYPE1))
		return IRDMA_AE_AMP_MWBIND_WRONG_TYPE;
	if (mw->pd != pd)
		return IRDMA_AE_AMP_BAD_PD;
	err = isim_mw_bind_check(xa_load(&sdev->mrs, isim_mr_index(sdev, parent)),
				 parent, pd, va, len, rights,
				hdr & IRDMA_WQE_VABASEDTO);
	if (err)
		return err;
	mw->stag = stag;
	mw->parent = parent;
	mw->va = va;
	mw->len = len;
	mw->rights = rights;
	mw->valid = true;
	return 0;
}

/*
 * An access through a window: its own key, rights and bounds, then its
 * region's, which must still be the one it was bound to. The region
 * translates (both are VA-based, so the address is the same).
 */
static int isim_mw_check(struct isim_dev *sdev, const struct isim_mr *mw,
			 const struct isim_access *acc, u64 addr, u32 len,
			struct isim_mr **out)
{
	struct isim_mr *mr;

	if (!mw->valid || mw->stag != acc->stag)
		return (mw->stag & 0xff) != (acc->stag & 0xff) ?
		       IRDMA_AE_AMP_BAD_STAG_KEY : IRDMA_AE_AMP_INVALID_STAG;
	if (mw->pd != acc->pd)
		return IRDMA_AE_AMP_BAD_PD;
	if ((mw->rights & acc->rights) != acc->rights)
		return IRDMA_AE_AMP_RIGHTS_VIOLATION;
	if (addr < mw->va || addr + len < addr || addr + len > mw->va + mw->len)
		return IRDMA_AE_AMP_BOUNDS_VIOLATION;
	mr = xa_load(&sdev->mrs, isim_mr_index(sdev, mw->parent));
	if (!mr || !mr->valid || mr->stag != mw->parent || mr->is_mw)
		return IRDMA_AE_AMP_INVALID_STAG;
	*out = mr;
	return 0;
}

/* The host address of byte @off of a region with a page list. */
static int isim_mr_page(struct isim_dev *sdev, const struct isim_mr *mr, u64 off,
			u64 *pa)
{
	u64 page = off >> mr->page_shift, entry;
	u64 idx = mr->first_pble + page;

	if (mr->levels == IRDMA_PBL_LEVELS_2 || mr->levels == 2) {
		if (isim_hmc_read_pble(sdev, mr->first_pble + page / ISIM_PBLES_PER_LEAF,
				       &entry))
			return -EFAULT;
		idx = entry + page % ISIM_PBLES_PER_LEAF;
	}
	if (isim_hmc_read_pble(sdev, idx, &entry))
		return -EFAULT;
	*pa = entry + (off & (BIT_ULL(mr->page_shift) - 1));
	return 0;
}

/* Check an access of @len bytes at @addr through @acc; the region found. */
static int isim_mr_check(struct isim_dev *sdev, const struct isim_access *acc,
			 u64 addr, u32 len, struct isim_mr **out)
{
	struct isim_mr *mr = xa_load(&sdev->mrs, isim_mr_index(sdev, acc->stag));
	u64 start;

	if (!mr)
		return IRDMA_AE_AMP_INVALID_STAG;
	if (mr->is_mw)
		return isim_mw_check(sdev, mr, acc, addr, len, out);
	if ((mr->stag & 0xff) != (acc->stag & 0xff))
		return IRDMA_AE_AMP_BAD_STAG_KEY;
	if (!mr->valid)
		return IRDMA_AE_AMP_INVALID_STAG;
	if (mr->pd != acc->pd)
		return IRDMA_AE_AMP_BAD_PD;
	if ((mr->rights & acc->rights) != acc->rights)
		return IRDMA_AE_AMP_RIGHTS_VIOLATION;
	if (mr->len || mr->levels || mr->pa) {
		start = mr->zero_based ? 0 : mr->va;
		if (addr < start || addr + len < addr ||
		    addr + len > start + mr->len)
			return IRDMA_AE_AMP_BOUNDS_VIOLATION;
	}
	*out = mr;
	return 0;
}

/**
 * isim_mem_copy - move bytes between a buffer and keyed memory
 * @sdev: the simulated function whose keys apply
 * @acc: the key and what the access needs
 * @addr: the address in the key's terms
 * @buf: the buffer
 * @len: bytes
 * @to_mem: write memory (else read it)
 *
 * Return: 0, an AE code for a key violation, or -EFAULT for host memory
 * the hardware cannot reach.
 */
int isim_mem_copy(struct isim_dev *sdev, const struct isim_access *acc, u64 addr,
		  void *buf, u32 len, bool to_mem)
{
	struct isim_mr *mr = NULL;
	u64 off, pa;
	u32 chunk;
	int err;

	if (!len)
		return 0;
	if (!acc->stag) {
		if (!acc->priv)
			return IRDMA_AE_STAG_ZERO_INVALID;
	} else {
		err = isim_mr_check(sdev, acc, addr, len, &mr);
		if (err)
			return err;
	}
	/* STag 0 and the all-memory region address host memory directly. */
	if (!mr || (!mr->len && !mr->levels && !mr->pa))
		return to_mem ? isim_dma_write(sdev, addr, buf, len) :
				isim_dma_read(sdev, addr, buf, len);

	off = (mr->zero_based ? addr : addr - mr->va) +
	      (mr->va & (BIT_ULL(mr->page_shift) - 1));
	while (len) {
		if (mr->levels) {
			err = isim_mr_page(sdev, mr, off, &pa);
			if (err)
				return err;
		} else {
			pa = (mr->pa & ~(BIT_ULL(mr->page_shift) - 1)) + off;
		}
		chunk = min_t(u64, len, BIT_ULL(mr->page_shift) -
				   (off & (BIT_ULL(mr->page_shift) - 1)));
		err = to_mem ? isim_dma_write(sdev, pa, buf, chunk) :
			       isim_dma_read(sdev, pa, buf, chunk);
		if (err)
			return err;
		buf += chunk;
		off += chunk;
		len -= chunk;
	}
	return 0;
}

/**
 * isim_ahs_alloc - the function's address handle table
 * @sdev: the simulated function
 *
 * Room for ISIM_MAX_AHS handles in chunks; the first chunk is there from
 * the start, so that the trap can make the first ISIM_AH_CHUNK handles (and
 * commit the HMC) without allocating. Later chunks come with the first
 * handle a thread makes in them.
 *
 * Return: 0 or -ENOMEM.
 */
int isim_ahs_alloc(struct isim_dev *sdev)
{
	sdev->ah_chunks = kcalloc(ISIM_MAX_AHS / ISIM_AH_CHUNK,
				  sizeof(*sdev->ah_chunks), GFP_KERNEL);
	if (!sdev->ah_chunks)
		return -ENOMEM;
	sdev->ah_chunks[0] = kcalloc(ISIM_AH_CHUNK, sizeof(**sdev->ah_chunks),
				     GFP_KERNEL);
	if (!sdev->ah_chunks[0]) {
		kfree(sdev->ah_chunks);
		sdev->ah_chunks = NULL;
		return -ENOMEM;
	}
	return 0;
}

/**
 * isim_ahs_clear - forget every address handle (HMC commit, CQP down)
 * @sdev: the simulated function
 *
 * Context: a thread, or the trap; allocates nothing.
 */
void isim_ahs_clear(struct isim_dev *sdev)
{
	u32 i;

	for (i = 0; i < ISIM_MAX_AHS / ISIM_AH_CHUNK; i++)
		if (sdev->ah_chunks[i])
			memset(sdev->ah_chunks[i], 0,
			       ISIM_AH_CHUNK * sizeof(**sdev->ah_chunks));
}

/**
 * isim_ahs_free - drop the address handle table
 * @sdev: the simulated function, being destroyed
 */
void isim_ahs_free(struct isim_dev *sdev)
{
	u32 i;

	if (!sdev->ah_chunks)
		return;
	for (i = 0; i < ISIM_MAX_AHS / ISIM_AH_CHUNK; i++)
		kfree(sdev->ah_chunks[i]);
	kfree(sdev->ah_chunks);
	sdev->ah_chunks = NULL;
}

/* The table's entry for AH @id, or NULL where its chunk is missing. */
static struct isim_ah *isim_ah_slot(struct isim_dev *sdev, u32 id)
{
	if (!id || id >= sdev->hmc.cnt[IRDMA_HMC_FSIAV] || id >= ISIM_MAX_AHS ||
	    !sdev->ah_chunks[id / ISIM_AH_CHUNK])
		return NULL;
	return &sdev->ah_chunks[id / ISIM_AH_CHUNK][id % ISIM_AH_CHUNK];
}

/**
 * isim_ah_cmd_atomic - whether the trap can execute an AH command
 * @sdev: the simulated function
 * @wqe: CREATE_ADDR_HANDLE or DESTROY_ADDR_HANDLE
 *
 * Return: true if its entry of the table exists (or the command fails
 * its checks without one).
 */
bool isim_ah_cmd_atomic(struct isim_dev *sdev, const __le64 *wqe)
{
	u64 hdr = le64_to_cpu(wqe[3]);
	u32 id = FIELD_GET(IRDMA_AH_AVIDX, hdr);

	/* Sends rung before it go first, from a thread (isim_uda_sqs_run()). */
	if (!sdev->roce &&
	    FIELD_GET(IRDMA_CQPSQ_OPCODE, hdr) == IRDMA_CQPOP_DESTROY_ADDR_HANDLE)
		return false;
	return isim_ah_slot(sdev, id) || !sdev->hmc.committed ||
	       !id || id >= sdev->hmc.cnt[IRDMA_HMC_FSIAV] || id >= ISIM_MAX_AHS;
}

/**
 * isim_ah_cmd - CREATE_ADDR_HANDLE or DESTROY_ADDR_HANDLE
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 *
 * Context: a thread, or the CQPDB trap if isim_ah_cmd_atomic() said so.
 */
void isim_ah_cmd(struct isim_dev *sdev, const __le64 *wqe,
		 struct isim_cqp_result *res)
{
	u64 hdr = le64_to_cpu(wqe[3]);
	u32 id = FIELD_GET(IRDMA_AH_AVIDX, hdr);
	struct isim_ah **chunk, *ah;
	int i;

	if (!sdev->hmc.committed || !id || id >= sdev->hmc.cnt[IRDMA_HMC_FSIAV] ||
	    id >= ISIM_MAX_AHS)
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	chunk = &sdev->ah_chunks[id / ISIM_AH_CHUNK];
	if (!*chunk)
		*chunk = kcalloc(ISIM_AH_CHUNK, sizeof(**chunk), GFP_KERNEL);
	if (!*chunk)
		return isim_fail(res, ISIM_MIN_NO_SPACE);
	ah = &(*chunk)[id % ISIM_AH_CHUNK];
	/* The data path reads entries without the CQP: valid goes first. */
	if (FIELD_GET(IRDMA_CQPSQ_OPCODE, hdr) == IRDMA_CQPOP_DESTROY_ADDR_HANDLE &&
	    !sdev->roce)
		isim_uda_sqs_run(sdev);
	WRITE_ONCE(ah->valid, false);
	if (FIELD_GET(IRDMA_CQPSQ_OPCODE, hdr) == IRDMA_CQPOP_DESTROY_ADDR_HANDLE)
		return;
	/* Invalid before rewritten: pairs with isim_ah_get()'s smp_rmb(). */
	smp_wmb();
	ah->pd = FIELD_GET(IRDMA_AH_PDIDXLO, le64_to_cpu(wqe[1])) |
		 FIELD_GET(IRDMA_AH_PDIDXHI, le64_to_cpu(wqe[2])) << 16;
	ah->ipv4 = !!(hdr & IRDMA_AH_IPV4VALID);
	ah->arp_idx = FIELD_GET(IRDMA_AH_ARPINDEX, le64_to_cpu(wqe[2]));
	u64_to_ether_addr(FIELD_GET(IRDMA_AH_MAC, le64_to_cpu(wqe[0])), ah->mac);
	ah->tc = FIELD_GET(IRDMA_AH_TC, le64_to_cpu(wqe[1]));
	ah->vlan_tag = FIELD_GET(IRDMA_AH_VLANTAG, le64_to_cpu(wqe[1]));
	ah->hop_limit = FIELD_GET(IRDMA_AH_HOPLIMIT, le64_to_cpu(wqe[2]));
	ah->flow_label = FIELD_GET(IRDMA_AH_FLOWLABEL, le64_to_cpu(wqe[2]));
	ah->insert_vlan = !!(hdr & IRDMA_AH_INSERTVLANTAG);
	ah->loopback = !!(hdr & IRDMA_AH_DOLOOPBACK);
	for (i = 0; i < 2; i++) {
		u64 d = le64_to_cpu(wqe[5 - i]), sq = le64_to_cpu(wqe[7 - i]);

		ah->dest_ip[2 * i] = FIELD_GET(IRDMA_QPC_IPADDR_HI, d);
		ah->dest_ip[2 * i + 1] = FIELD_GET(IRDMA_QPC_IPADDR_LO, d);
		ah->src_ip[2 * i] = FIELD_GET(IRDMA_QPC_IPADDR_HI, sq);
		ah->src_ip[2 * i + 1] = FIELD_GET(IRDMA_QPC_IPADDR_LO, sq);
	}
	/* Written before valid: pairs with isim_ah_get()'s smp_rmb(). */
	smp_wmb();
	WRITE_ONCE(ah->valid, true);
}

/**
 * isim_ah_get - an address handle by index
 * @sdev: the simulated function
 * @id: the index
 *
 * Return: the AH, or NULL if there is none at @id.
 */
struct isim_ah *isim_ah_get(struct isim_dev *sdev, u32 id)
{
	struct isim_ah *ah = isim_ah_slot(sdev, id);

	if (!ah || !READ_ONCE(ah->valid))
		return NULL;
	/* Valid before the fields: pairs with isim_ah_cmd()'s smp_wmb(). */
	smp_rmb();
	return ah;
}

/**
 * isim_ws_node - WORK_SCHED_NODE: the scheduler takes any tree; a leaf's
 * queue set handle is its node id
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 *
 * Context: a thread or the trap (no allocation, no lock).
 */
void isim_ws_node(struct isim_dev *sdev, const __le64 *wqe,
		  struct isim_cqp_result *res)
{
	u64 hdr = le64_to_cpu(wqe[3]);

	u32 node = FIELD_GET(IRDMA_WS_NODEID, hdr);

	if (FIELD_GET(IRDMA_WS_NODEOP, hdr) > IRDMA_WS_OP_DELETE)
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	if (!(hdr & IRDMA_WS_LEAF))
		return;
	res->ret_val = node;
	if (FIELD_GET(IRDMA_WS_NODEOP, hdr) != IRDMA_WS_OP_DELETE)
		WRITE_ONCE(sdev->lan.leaf_weight[node],
			   FIELD_GET(IRDMA_WS_WEIGHT, le64_to_cpu(wqe[4])));
}

/**
 * isim_mg_cmd - CREATE_, MODIFY_ and DESTROY_MCAST_GRP
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 *
 * The group's member list is read from the buffer in qword 4: up to eight
 * entries, the valid ones naming QPs.
 */
void isim_mg_cmd(struct isim_dev *sdev, const __le64 *wqe,
		 struct isim_cqp_result *res)
{
	u64 hdr = le64_to_cpu(wqe[3]);
	u8 op = FIELD_GET(IRDMA_CQPSQ_OPCODE, hdr);
	u32 id = FIELD_GET(IRDMA_MG_IDX, hdr);
	__le64 list[IRDMA_MAX_MGS_PER_CTX];
	struct isim_mg *mg;
	int i;

	if (id >= IRDMA_MAX_MCAST_GRPS)
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	if (op == IRDMA_CQPOP_DESTROY_MCAST_GRP) {
		mg = xa_erase(&sdev->mgs, id);
		if (!mg)
			return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
		kfree(mg);
		return;
	}
	mg = xa_load(&sdev->mgs, id);
	/* Create names a free index, modify a group that exists. */
	if (op == IRDMA_CQPOP_CREATE_MCAST_GRP ? !!mg : !mg)
		return isim_fail(res, IRDMA_CQP_MIN_INVALID_STATE);
	if (isim_dma_read(sdev, le64_to_cpu(wqe[4]), list, sizeof(list)))
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	if (!mg) {
		mg = kzalloc(sizeof(*mg), GFP_KERNEL);
		if (!mg || xa_err(xa_store(&sdev->mgs, id, mg, GFP_KERNEL))) {
			kfree(mg);
			return isim_fail(res, ISIM_MIN_BAD_PARAM);
		}
	}
	mg->ipv4 = !!(hdr & IRDMA_MG_IPV4VALID);
	memset(mg->ip, 0, sizeof(mg->ip));
	if (mg->ipv4) {
		mg->ip[0] = lower_32_bits(le64_to_cpu(wqe[6]));
	} else {
		mg->ip[0] = upper_32_bits(le64_to_cpu(wqe[7]));
		mg->ip[1] = lower_32_bits(le64_to_cpu(wqe[7]));
		mg->ip[2] = upper_32_bits(le64_to_cpu(wqe[6]));
		mg->ip[3] = lower_32_bits(le64_to_cpu(wqe[6]));
	}
	mg->count = 0;
	for (i = 0; i < IRDMA_MAX_MGS_PER_CTX; i++)
		if (le64_to_cpu(list[i]) & IRDMA_MG_ENTRY_VALID)
			mg->qp[mg->count++] = FIELD_GET(IRDMA_MG_ENTRY_QPID,
							le64_to_cpu(list[i]));
}

/**
 * isim_mem_destroy_all - forget every key and address handle (reset)
 * @sdev: the simulated function
 */
void isim_mem_destroy_all(struct isim_dev *sdev)
{
	isim_xa_free_all(&sdev->mrs);
	isim_ahs_clear(sdev);
	isim_xa_free_all(&sdev->mgs);
}
