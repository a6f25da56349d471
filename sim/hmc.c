// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Host Memory Cache: the function's private memory space (FPM) where
 * the engine keeps its objects' contexts. QUERY_FPM_VAL tells the driver
 * how many objects of each kind fit and how large they are; the counts the
 * driver commits are placed one after another; segment descriptors map
 * each 2 MiB of FPM space to host memory, directly or through a page of
 * page descriptors.
 */
#include <linux/bitfield.h>

#include "sim.h"

/**
 * struct isim_fpm_obj - what QUERY_FPM_VAL reports for one object type
 * @max: most objects the function may have
 * @shift: log2 of an object's size, or for free lists the block size
 */
struct isim_fpm_obj {
	u32 max;
	u32 shift;
};

/*
 * Sized like a small E810 profile: 4096 QPs, 8192 CQs, 64 Ki MRs and 128 Ki
 * address vectors fit in 32 segments, of which about eight are backed
 * before any PBLE is used.
 */
static const struct isim_fpm_obj isim_fpm[IRDMA_HMC_OBJ_COUNT] = {
	[IRDMA_HMC_QP] = { 4096, 9 },
	[IRDMA_HMC_CQ] = { ISIM_MAX_CQS, 6 },
	[IRDMA_HMC_HTE] = { 16384, 5 },
	[IRDMA_HMC_ARP] = { 2048, 6 },
	[IRDMA_HMC_MR] = { 65536, 5 },
	[IRDMA_HMC_XF] = { 16384, 4 },
	[IRDMA_HMC_XFFL] = { 16384, 1 },	/* block size */
	[IRDMA_HMC_Q1] = { 1048576, 2 },
	[IRDMA_HMC_Q1FL] = { 16384, 64 },	/* block size */
	[IRDMA_HMC_TIMER] = { 2048, 6 },
	[IRDMA_HMC_FSIMC] = { 4096, 6 },
	[IRDMA_HMC_FSIAV] = { ISIM_MAX_AHS, 4 },
	[IRDMA_HMC_PBLE] = { 2097152, 0 },
	[IRDMA_HMC_HDR] = { 4096, 6 },
};

/* With the SRQ extension: 1024 SRQ contexts of 64 bytes. */
static const struct isim_fpm_obj isim_fpm_srq = { 1024, 6 };

static const struct isim_fpm_obj *isim_fpm_get(struct isim_dev *sdev,
					       enum irdma_hmc_obj obj)
{
	static const struct isim_fpm_obj none;

	if (obj == IRDMA_HMC_SRQ)
		return sdev->srq ? &isim_fpm_srq : &none;
	return &isim_fpm[obj];
}

#define ISIM_FPM_MAX_SDS		32
#define ISIM_FPM_MAX_CEQS	ISIM_MAX_CEQS
#define ISIM_FPM_HT_MULTIPLIER	1
#define ISIM_FPM_TIMER_BUCKET	64

static bool isim_fpm_is_free_list(enum irdma_hmc_obj obj)
{
	return obj == IRDMA_HMC_XFFL || obj == IRDMA_HMC_Q1FL ||
	       obj == IRDMA_HMC_RRFFL || obj == IRDMA_HMC_OOISCFFL;
}

static u32 isim_fpm_obj_size(struct isim_dev *sdev, enum irdma_hmc_obj obj)
{
	const struct isim_fpm_obj *o = isim_fpm_get(sdev, obj);

	if (obj == IRDMA_HMC_APBVT)
		return IRDMA_APBVT_SIZE;
	if (obj == IRDMA_HMC_PBLE)
		return IRDMA_PBLE_SIZE;
	if (isim_fpm_is_free_list(obj))
		return IRDMA_FL_OBJ_SIZE;
	return o->max ? 1U << o->shift : 0;
}

/**
 * isim_hmc_query - QUERY_FPM_VAL: report object limits and sizes
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void isim_hmc_query(struct isim_dev *sdev, const __le64 *wqe,
		    struct isim_cqp_result *res)
{
	__le64 buf[IRDMA_FPM_BUF_SIZE / 8] = {};
	int obj;

	BUILD_BUG_ON(ISIM_FIRST_SD_ODD + ISIM_FPM_MAX_SDS > ISIM_MAX_SDS);
	buf[0] = cpu_to_le64(FIELD_PREP(IRDMA_QUERY_FPM_MAX_PE_SDS, ISIM_FPM_MAX_SDS) |
			     FIELD_PREP(IRDMA_QUERY_FPM_FIRST_PE_SD_INDEX,
					sdev->first_sd));
	for (obj = 0; obj < IRDMA_HMC_OBJ_COUNT; obj++) {
		const struct isim_fpm_obj *o = isim_fpm_get(sdev, obj);

		if (obj == IRDMA_HMC_APBVT)
			continue;
		buf[irdma_fpm_query_qword(obj)] =
			cpu_to_le64(FIELD_PREP(IRDMA_QUERY_FPM_COUNT, o->max) |
				    FIELD_PREP(IRDMA_QUERY_FPM_SIZE_SHIFT, o->shift));
	}
	buf[IRDMA_QUERY_FPM_MISC_QWORD] =
		cpu_to_le64(FIELD_PREP(IRDMA_QUERY_FPM_MAX_CEQS, ISIM_FPM_MAX_CEQS) |
			    FIELD_PREP(IRDMA_QUERY_FPM_HTMULTIPLIER,
				       ISIM_FPM_HT_MULTIPLIER) |
			    FIELD_PREP(IRDMA_QUERY_FPM_TIMERBUCKET,
				       ISIM_FPM_TIMER_BUCKET));

	if (isim_dma_write(sdev, le64_to_cpu(wqe[4]), buf, sizeof(buf)))
		isim_fail(res, ISIM_MIN_DMA_FAULT);
}

/**
 * isim_hmc_commit - COMMIT_FPM_VAL: place the committed objects
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 *
 * Objects go one after another in the order of their types, each on a
 * 512-byte boundary, from the function's first segment; the APBVT always
 * takes one object. The bases are written back, in 512-byte units, beside
 * the counts.
 */
void isim_hmc_commit(struct isim_dev *sdev, const __le64 *wqe,
		     struct isim_cqp_result *res)
{
	__le64 buf[IRDMA_FPM_BUF_SIZE / 8];
	struct isim_hmc *hmc = &sdev->hmc;
	u64 addr = le64_to_cpu(wqe[4]);
	u64 next = (u64)sdev->first_sd * IRDMA_HMC_SD_SIZE;
	int obj;

	if (isim_dma_read(sdev, addr, buf, sizeof(buf)))
		return isim_fail(res, ISIM_MIN_DMA_FAULT);

	for (obj = 0; obj < IRDMA_HMC_OBJ_COUNT; obj++) {
		u64 q = le64_to_cpu(buf[irdma_fpm_commit_qword(obj)]);
		u32 cnt;

		if (obj == IRDMA_HMC_QP)
			cnt = FIELD_GET(IRDMA_COMMIT_FPM_QPCNT, q);
		else if (obj == IRDMA_HMC_CQ)
			cnt = FIELD_GET(IRDMA_COMMIT_FPM_CQCNT, q);
		else if (obj == IRDMA_HMC_APBVT)
			cnt = 1;
		else
			cnt = FIELD_GET(IRDMA_COMMIT_FPM_COUNT, q);

		hmc->size[obj] = isim_fpm_obj_size(sdev, obj);
		if (cnt && !hmc->size[obj])
			return isim_fail(res, ISIM_MIN_BAD_PARAM);
		hmc->cnt[obj] = cnt;
		hmc->base[obj] = next;
		next = ALIGN(next + (u64)cnt * hmc->size[obj], IRDMA_FPM_BASE_UNIT);
	}
	if (next > (u64)(sdev->first_sd + ISIM_FPM_MAX_SDS) * IRDMA_HMC_SD_SIZE)
		return isim_fail(res, ISIM_MIN_NO_SPACE);

	for (obj = 0; obj < IRDMA_HMC_OBJ_COUNT; obj++)
		buf[irdma_fpm_commit_qword(obj)] =
			cpu_to_le64(FIELD_PREP(IRDMA_COMMIT_FPM_COUNT, hmc->cnt[obj]) |
				       FIELD_PREP(IRDMA_COMMIT_FPM_BASE,
						  hmc->base[obj] / IRDMA_FPM_BASE_UNIT));
	isim_ahs_clear(sdev);
	if (isim_dma_write(sdev, addr, buf, sizeof(buf)))
		return isim_fail(res, ISIM_MIN_DMA_FAULT);
	hmc->committed = true;
}

static int isim_hmc_set_sd(struct isim_dev *sdev, u64 cmd, u64 data)
{
	u32 idx = FIELD_GET(IRDMA_SD_CMD_IDX, cmd);

	if (!(cmd & IRDMA_SD_CMD_WRITE))
		return 0;
	if (idx < sdev->first_sd || idx >= sdev->first_sd + ISIM_FPM_MAX_SDS)
		return -EINVAL;
	sdev->hmc.sd[idx] = data;
	return 0;
}

/**
 * isim_hmc_update_sds - UPDATE_PE_SDS: program segment descriptors
 * @sdev: the simulated function
 * @wqe: the command: up to three entries inline, more in a buffer
 * @res: its completion
 */
void isim_hmc_update_sds(struct isim_dev *sdev, const __le64 *wqe,
			 struct isim_cqp_result *res)
{
	u32 extra = FIELD_GET(IRDMA_CQPSQ_UPESD_ENTRY_COUNT, le64_to_cpu(wqe[3]));
	__le64 buf[IRDMA_UPESD_BUF_SIZE / 8];
	int err, i;

	err = isim_hmc_set_sd(sdev, le64_to_cpu(wqe[0]), le64_to_cpu(wqe[1]));
	for (i = 4; i <= 6 && !err; i += 2) {
		u64 cmd = le64_to_cpu(wqe[i]);

		if (cmd & IRDMA_CQPSQ_UPESD_ENTRY_VALID)
			err = isim_hmc_set_sd(sdev, cmd & IRDMA_CQPSQ_UPESD_SDCMD,
					      le64_to_cpu(wqe[i + 1]));
	}
	if (!err && extra) {
		if (extra > ARRAY_SIZE(buf) / 2)
			return isim_fail(res, ISIM_MIN_BAD_PARAM);
		if (isim_dma_read(sdev, le64_to_cpu(wqe[2]) & ~(u64)0x7f, buf,
				  extra * 16))
			return isim_fail(res, ISIM_MIN_DMA_FAULT);
		for (i = 0; i < extra && !err; i++)
			err = isim_hmc_set_sd(sdev, le64_to_cpu(buf[2 * i]),
					      le64_to_cpu(buf[2 * i + 1]));
	}
	if (err)
		isim_fail(res, ISIM_MIN_BAD_PARAM);
}

/**
 * isim_hmc_manage_arp - MANAGE_ARP: add or remove an ARP table entry
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void isim_hmc_manage_arp(struct isim_dev *sdev, const __le64 *wqe,
			 struct isim_cqp_result *res)
{
	u64 hdr = le64_to_cpu(wqe[3]);
	u32 idx = FIELD_GET(IRDMA_CQPSQ_ARP_INDEX, hdr);
	struct isim_hmc *hmc = &sdev->hmc;

	if (!hmc->committed || idx >= min_t(u32, hmc->cnt[IRDMA_HMC_ARP], ISIM_MAX_ARPS))
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	if (hdr & IRDMA_CQPSQ_ARP_QUERY)
		return;
	if (hdr & IRDMA_CQPSQ_ARP_ENTRYVALID) {
		hmc->arp[idx] = FIELD_GET(IRDMA_CQPSQ_ARP_MACADDR, le64_to_cpu(wqe[2]));
		set_bit(idx, hmc->arp_valid);
	} else {
		clear_bit(idx, hmc->arp_valid);
	}
}

/**
 * isim_hmc_fpm_to_pa - where in host memory a byte of the FPM space lives
 * @sdev: the simulated function
 * @fpm: the FPM address
 * @pa: returns the host DMA address
 * @contig: returns how many bytes from there are contiguous in host memory
 *
 * Return: 0, or -EFAULT if no valid segment (or page) backs @fpm.
 */
int isim_hmc_fpm_to_pa(struct isim_dev *sdev, u64 fpm, u64 *pa, u32 *contig)
{
	u64 sd_idx = fpm / IRDMA_HMC_SD_SIZE;
	u64 off = fpm % IRDMA_HMC_SD_SIZE;
	u64 sd, pd;

	if (sd_idx < sdev->first_sd || sd_idx >= sdev->first_sd + ISIM_FPM_MAX_SDS)
		return -EFAULT;
	sd = sdev->hmc.sd[sd_idx];
	if (!(sd & IRDMA_SD_DATA_VALID))
		return -EFAULT;
	if (sd & IRDMA_SD_DATA_DIRECT) {
		*pa = (sd & IRDMA_SD_DATA_ADDR) + off;
		*contig = IRDMA_HMC_SD_SIZE - off;
		return 0;
	}
	/* Paged: a page of page descriptors, one per 4 KiB of the segment. */
	if (isim_dma_read_qword(sdev, (sd & IRDMA_SD_DATA_ADDR) +
			       (off / IRDMA_HMC_PD_SIZE) * 8, &pd) ||
	    !(pd & IRDMA_PD_VALID))
		return -EFAULT;
	*pa = (pd & ~(u64)(IRDMA_HMC_PD_SIZE - 1)) + off % IRDMA_HMC_PD_SIZE;
	*contig = IRDMA_HMC_PD_SIZE - off % IRDMA_HMC_PD_SIZE;
	return 0;
}

/**
 * isim_hmc_read_pble - read one PBLE from the function's PBLE object
 * @sdev: the simulated function
 * @idx: the PBLE's index in the object
 * @val: returns its value
 *
 * Return: 0, or -EFAULT if the index is out of range or not backed.
 */
int isim_hmc_read_pble(struct isim_dev *sdev, u64 idx, u64 *val)
{
	struct isim_hmc *hmc = &sdev->hmc;
	u32 contig;
	u64 pa;

	if (!hmc->committed || idx >= hmc->cnt[IRDMA_HMC_PBLE])
		return -EFAULT;
	if (isim_hmc_fpm_to_pa(sdev, hmc->base[IRDMA_HMC_PBLE] +
			      idx * IRDMA_PBLE_SIZE, &pa, &contig))
		return -EFAULT;
	return isim_dma_read_qword(sdev, pa, val);
}

/**
 * isim_ring_pa - the host address of a byte of a queue's ring
 * @sdev: the simulated function
 * @ring: the ring
 * @off: the byte's offset in the ring
 * @pa: returns its DMA address
 *
 * Return: 0, or -EFAULT if a PBLE on the way is not there.
 */
int isim_ring_pa(struct isim_dev *sdev, const struct isim_ring *ring, u64 off,
		 u64 *pa)
{
	u64 page = off / IRDMA_HMC_PD_SIZE, idx = ring->base + page, leaf;

	if (!ring->virt) {
		*pa = ring->base + off;
		return 0;
	}
	if (ring->levels > 1) {
		if (isim_hmc_read_pble(sdev, ring->base + page / 512, &leaf))
			return -EFAULT;
		idx = leaf + page % 512;
	}
	if (isim_hmc_read_pble(sdev, idx, pa))
		return -EFAULT;
	*pa += off % IRDMA_HMC_PD_SIZE;
	return 0;
}
