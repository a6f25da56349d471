// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Host Memory Cache: the function's objects' contexts live in its
 * private memory space (FPM), which the driver sizes, commits and backs
 * with host memory in 2 MiB segments.
 *
 * Sizing asks the hardware for its limits (QUERY_FPM_VAL), then fits as
 * many QPs as the profile wants into the segments the function may use,
 * shrinking QPs, MRs and PBLEs until the estimate fits; the counts the
 * verbs report (max_qp, max_cq, max_mr, max_ah ...) come from here.
 *
 * The shrinking rules and their numbers (the 256 Ki QPs wanted, Q1 sized
 * for an IRD of 127 plus 512 and rounded up, halving QPs while more than
 * 128 segments are missing, then taking PBLEs 256 Ki a missing segment or
 * 10 Ki / 1 Ki at a time, MRs 1 Ki, and halving QPs and address vectors
 * every tenth round, for at most 2,000 rounds; what is left over goes to
 * PBLEs) are not ours: they are upstream irdma's (irdma_cfg_fpm_val() and
 * its helpers), kept so that a function reports the same limits under
 * both drivers. They are heuristics, not hardware rules.
 */
#include <kunit/visibility.h>
#include <linux/bitfield.h>
#include <linux/log2.h>
#include <linux/slab.h>

#include "main.h"

#define IRDMA_HMC_QP_WANTED	SZ_256K	/* the E810 PF profile's QP limit */
#define IRDMA_HMC_MAX_ROUNDS	2000
#define IRDMA_HMC_IRD		127	/* IRD the Q1 sizing provides for */
#define IRDMA_K			1024

static u32 irdma_hmc_q1_count(struct irdma_fn *fn, u32 qps)
{
	u64 q1 = 2ULL * IRDMA_HMC_IRD * qps;

	if (fn->res.protocol == IRDMA_PROTOCOL_IWARP)
		return q1;
	return roundup_pow_of_two(q1 + 512);
}

/* Segments the current counts need, each object on a 512-byte boundary. */
static u32 irdma_hmc_sds_needed(const struct irdma_hmc *hmc)
{
	u64 bytes = 0;
	int i;

	for (i = 0; i < IRDMA_HMC_OBJ_COUNT; i++)
		bytes += ALIGN((u64)hmc->obj[i].cnt * hmc->obj[i].size,
			       IRDMA_FPM_BASE_UNIT);
	return DIV_ROUND_UP_ULL(bytes, IRDMA_HMC_SD_SIZE);
}

static void irdma_hmc_set_counts(struct irdma_fn *fn, u32 qps, u32 mrs,
				 u32 pbles)
{
	struct irdma_hmc_objinfo *o = fn->hmc.obj;
	struct irdma_hmc *hmc = &fn->hmc;

	o[IRDMA_HMC_QP].cnt = qps;
	o[IRDMA_HMC_CQ].cnt = min(2 * qps, o[IRDMA_HMC_CQ].cnt);
	/* SRQ contexts only where the engine has SRQs (never on E810). */
	o[IRDMA_HMC_SRQ].cnt = fn->res.srq ? o[IRDMA_HMC_SRQ].max_cnt : 0;
	o[IRDMA_HMC_MR].cnt = mrs;
	o[IRDMA_HMC_HTE].cnt = roundup_pow_of_two(roundup(qps + o[IRDMA_HMC_FSIMC].cnt,
							  512)) * hmc->ht_multiplier;
	o[IRDMA_HMC_XF].cnt = 4 * hmc->xf_block * qps;
	o[IRDMA_HMC_XFFL].cnt = o[IRDMA_HMC_XF].cnt / hmc->xf_block;
	o[IRDMA_HMC_HDR].cnt = qps;
	if (o[IRDMA_HMC_RRF].max_cnt)
		o[IRDMA_HMC_RRF].cnt = 32 * qps;
	if (o[IRDMA_HMC_RRFFL].max_cnt)
		o[IRDMA_HMC_RRFFL].cnt = o[IRDMA_HMC_RRF].cnt / hmc->rrf_block;
	if (o[IRDMA_HMC_OOISC].max_cnt)
		o[IRDMA_HMC_OOISC].cnt = 32 * qps;
	if (o[IRDMA_HMC_OOISCFFL].max_cnt)
		o[IRDMA_HMC_OOISCFFL].cnt = o[IRDMA_HMC_OOISC].cnt / hmc->ooiscf_block;
	o[IRDMA_HMC_Q1].cnt = irdma_hmc_q1_count(fn, qps);
	o[IRDMA_HMC_Q1FL].cnt = o[IRDMA_HMC_Q1].cnt / hmc->q1_block;
	o[IRDMA_HMC_TIMER].cnt = (roundup(qps, 512) / 512 + 1) * hmc->timer_bucket;
	o[IRDMA_HMC_PBLE].cnt = pbles;
}

/**
 * irdma_hmc_size - choose the object counts to commit
 * @fn: the function, with the hardware's limits from QUERY_FPM_VAL
 *
 * Fit the objects into max_sds segments: the QP count the profile wants
 * (at most what the hardware has, a power of two), every MR and PBLE the
 * hardware has; shrink until the estimate fits. What a shrunk plan leaves
 * over goes to PBLEs.
 *
 * Return: 0, or -EINVAL when nothing fits.
 */
int irdma_hmc_size(struct irdma_fn *fn)
{
	struct irdma_hmc_objinfo *o = fn->hmc.obj;
	struct irdma_hmc *hmc = &fn->hmc;
	u32 qps, mrs, pbles, needed = 0, diff, round;
	int i;

	for (i = 0; i < IRDMA_HMC_OBJ_COUNT; i++)
		o[i].cnt = o[i].max_cnt;
	qps = min_t(u32, IRDMA_HMC_QP_WANTED, o[IRDMA_HMC_QP].max_cnt);
	if (!qps)
		return -EINVAL;
	qps = rounddown_pow_of_two(qps);
	mrs = o[IRDMA_HMC_MR].max_cnt;
	pbles = o[IRDMA_HMC_PBLE].max_cnt;
	o[IRDMA_HMC_APBVT].cnt = 1;

	while (qps > 1 && irdma_hmc_q1_count(fn, qps) > o[IRDMA_HMC_Q1].max_cnt)
		qps >>= 1;

	for (round = 0; round < IRDMA_HMC_MAX_ROUNDS; round++) {
		irdma_hmc_set_counts(fn, qps, mrs, pbles);
		needed = irdma_hmc_sds_needed(hmc);
		if (needed <= hmc->max_sds)
			break;

		diff = needed - hmc->max_sds;
		if (diff > 128) {
			if (!(round % 2) && qps > 128) {
				qps >>= 1;
			} else {
				mrs >>= 1;
				pbles >>= 1;
			}
			continue;
		}
		if (pbles > 512 * IRDMA_K * diff) {
			pbles -= 256 * IRDMA_K * diff;
			continue;
		}
		if (pbles > 100 * IRDMA_K) {
			pbles -= 10 * IRDMA_K;
		} else if (pbles > IRDMA_K) {
			pbles -= IRDMA_K;
		} else if (qps <= 128) {
			if (o[IRDMA_HMC_FSIMC].cnt > 256)
				o[IRDMA_HMC_FSIMC].cnt >>= 1;
			if (o[IRDMA_HMC_FSIAV].cnt > 256)
				o[IRDMA_HMC_FSIAV].cnt >>= 1;
		}
		if (mrs > IRDMA_K)
			mrs -= IRDMA_K;
		if (!(round % 10) && qps > 128) {
			qps >>= 1;
			if (o[IRDMA_HMC_FSIAV].cnt > 256)
				o[IRDMA_HMC_FSIAV].cnt >>= 1;
		}
	}
	if (needed > hmc->max_sds) {
		dev_err(fn->res.dev, "HMC objects need %u segments, %u available\n",
			needed, hmc->max_sds);
		return -EINVAL;
	}
	if (round && needed < hmc->max_sds)
		o[IRDMA_HMC_PBLE].cnt += (hmc->max_sds - needed) * 256 * IRDMA_K;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_hmc_size);

static int irdma_hmc_query(struct irdma_fn *fn)
{
	__le64 *buf = fn->init_mem.va + IRDMA_INIT_QUERY_FPM;
	struct irdma_hmc_objinfo *o = fn->hmc.obj;
	struct irdma_hmc *hmc = &fn->hmc;
	struct irdma_cqp_wqe cmd;
	u64 q;
	int err, i;

	irdma_build_query_fpm(&cmd, fn->res.pf_id,
			      fn->init_mem.pa + IRDMA_INIT_QUERY_FPM);
	err = irdma_cqp_exec(fn, &cmd, NULL);
	if (err)
		return err;

	q = le64_to_cpu(buf[0]);
	hmc->first_sd = FIELD_GET(IRDMA_QUERY_FPM_FIRST_PE_SD_INDEX, q);
	hmc->max_sds = FIELD_GET(IRDMA_QUERY_FPM_MAX_PE_SDS, q);
	for (i = 0; i < IRDMA_HMC_OBJ_COUNT; i++) {
		if (i == IRDMA_HMC_APBVT)
			continue;
		q = le64_to_cpu(buf[irdma_fpm_query_qword(i)]);
		o[i].max_cnt = FIELD_GET(IRDMA_QUERY_FPM_COUNT, q);
		o[i].size = 1U << min_t(u32, FIELD_GET(IRDMA_QUERY_FPM_SIZE_SHIFT, q), 31);
	}
	o[IRDMA_HMC_QP].max_cnt &= IRDMA_QUERY_FPM_MAX_QPS;
	o[IRDMA_HMC_CQ].max_cnt &= IRDMA_QUERY_FPM_MAX_CQS;
	o[IRDMA_HMC_APBVT].max_cnt = 1;
	o[IRDMA_HMC_APBVT].size = IRDMA_APBVT_SIZE;
	o[IRDMA_HMC_PBLE].size = IRDMA_PBLE_SIZE;

	/* The free lists report a block size where others have a size. */
	hmc->xf_block = FIELD_GET(IRDMA_QUERY_FPM_SIZE_SHIFT,
				  le64_to_cpu(buf[irdma_fpm_query_qword(IRDMA_HMC_XFFL)]));
	hmc->q1_block = FIELD_GET(IRDMA_QUERY_FPM_SIZE_SHIFT,
				  le64_to_cpu(buf[irdma_fpm_query_qword(IRDMA_HMC_Q1FL)]));
	hmc->rrf_block = FIELD_GET(IRDMA_QUERY_FPM_SIZE_SHIFT,
				   le64_to_cpu(buf[irdma_fpm_query_qword(IRDMA_HMC_RRFFL)]));
	hmc->ooiscf_block = FIELD_GET(IRDMA_QUERY_FPM_SIZE_SHIFT,
				      le64_to_cpu(buf[irdma_fpm_query_qword(IRDMA_HMC_OOISCFFL)]));
	o[IRDMA_HMC_XFFL].size = IRDMA_FL_OBJ_SIZE;
	o[IRDMA_HMC_Q1FL].size = IRDMA_FL_OBJ_SIZE;
	o[IRDMA_HMC_RRFFL].size = IRDMA_FL_OBJ_SIZE;
	o[IRDMA_HMC_OOISCFFL].size = IRDMA_FL_OBJ_SIZE;

	q = le64_to_cpu(buf[IRDMA_QUERY_FPM_MISC_QWORD]);
	hmc->max_ceqs = FIELD_GET(IRDMA_QUERY_FPM_MAX_CEQS, q);
	hmc->ht_multiplier = FIELD_GET(IRDMA_QUERY_FPM_HTMULTIPLIER, q);
	hmc->timer_bucket = FIELD_GET(IRDMA_QUERY_FPM_TIMERBUCKET, q);

	if (!hmc->xf_block || !hmc->q1_block || !hmc->max_ceqs || !hmc->max_sds ||
	    (o[IRDMA_HMC_RRFFL].max_cnt && !hmc->rrf_block) ||
	    (o[IRDMA_HMC_OOISCFFL].max_cnt && !hmc->ooiscf_block)) {
		dev_err(fn->res.dev, "HMC query returned unusable limits\n");
		return -EINVAL;
	}
	return 0;
}

static int irdma_hmc_commit(struct irdma_fn *fn)
{
	__le64 *buf = fn->init_mem.va + IRDMA_INIT_COMMIT_FPM;
	struct irdma_hmc_objinfo *o = fn->hmc.obj;
	struct irdma_cqp_wqe cmd;
	u64 end = 0, q;
	int err, i;

	memset(buf, 0, IRDMA_FPM_BUF_SIZE);
	for (i = 0; i < IRDMA_HMC_OBJ_COUNT; i++)
		if (i != IRDMA_HMC_APBVT)
			buf[irdma_fpm_commit_qword(i)] = cpu_to_le64(o[i].cnt);
	irdma_build_commit_fpm(&cmd, fn->res.pf_id,
			       fn->init_mem.pa + IRDMA_INIT_COMMIT_FPM);
	err = irdma_cqp_exec(fn, &cmd, NULL);
	if (err)
		return err;

	for (i = 0; i < IRDMA_HMC_OBJ_COUNT; i++) {
		q = le64_to_cpu(buf[irdma_fpm_commit_qword(i)]);
		o[i].base = FIELD_GET(IRDMA_COMMIT_FPM_BASE, q) * IRDMA_FPM_BASE_UNIT;
		if (i == IRDMA_HMC_QP)
			o[i].cnt = FIELD_GET(IRDMA_COMMIT_FPM_QPCNT, q);
		else if (i == IRDMA_HMC_CQ)
			o[i].cnt = FIELD_GET(IRDMA_COMMIT_FPM_CQCNT, q);
		else if (i == IRDMA_HMC_APBVT)
			o[i].cnt = 1;
		else
			o[i].cnt = FIELD_GET(IRDMA_COMMIT_FPM_COUNT, q);
		if (o[i].cnt)
			end = max(end, o[i].base + (u64)o[i].cnt * o[i].size);
	}
	/*
	 * Segment numbers are the FPM address over 2 MiB: the function's own
	 * start at first_sd, the segments below it are not its to program.
	 */
	fn->hmc.sd_cnt = DIV_ROUND_UP_ULL(end, IRDMA_HMC_SD_SIZE);
	if (fn->hmc.sd_cnt > fn->hmc.first_sd + fn->hmc.max_sds) {
		dev_err(fn->res.dev, "committed HMC ends at segment %u, past %u + %u\n",
			fn->hmc.sd_cnt, fn->hmc.first_sd, fn->hmc.max_sds);
		return -EINVAL;
	}
	return 0;
}

/**
 * irdma_hmc_sd_va - the CPU address of a byte of a segment's backing
 * @sd: the segment, backed where @off lies
 * @off: the byte's offset in the segment
 *
 * Return: its address; what follows it up to the next 4 KiB is there too.
 */
void *irdma_hmc_sd_va(const struct irdma_hmc_sd *sd, u32 off)
{
	if (sd->block.va)
		return sd->block.va + off;
	return irdma_dma_pages_va(&sd->pages,
				  off - sd->first_pd * IRDMA_HMC_PD_SIZE);
}

/**
 * irdma_hmc_sd_add_paged - back part of a segment with separate pages
 * @fn: the function
 * @idx: the segment, not backed yet
 * @from: the first byte of the segment to back
 * @to: the byte after the last
 *
 * The segment gets a page of page descriptors and a 4 KiB page for each
 * descriptor covering [@from, @to); the hardware is told of each
 * descriptor (PDINV). The caller programs the segment afterwards.
 *
 * Return: 0 or -ENOMEM, with nothing left allocated.
 */
int irdma_hmc_sd_add_paged(struct irdma_fn *fn, u32 idx, u32 from, u32 to)
{
	struct irdma_hmc_sd *sd = &fn->hmc.sd[idx];
	u32 first = from / IRDMA_HMC_PD_SIZE;
	__le64 *pd;
	u32 i;
	int err;

	err = irdma_dma_alloc(fn, &sd->pd_page, IRDMA_HMC_PD_SIZE, GFP_KERNEL);
	if (err)
		return err;
	err = irdma_dma_pages_alloc(fn, &sd->pages,
				    to - first * IRDMA_HMC_PD_SIZE);
	if (err) {
		irdma_dma_free(fn, &sd->pd_page);
		return err;
	}
	sd->first_pd = first;
	pd = sd->pd_page.va;
	for (i = 0; i < sd->pages.count; i++) {
		pd[first + i] = cpu_to_le64(sd->pages.page[i].pa | IRDMA_PD_VALID);
		irdma_wr32(fn, IRDMA_PFHMC_PDINV,
			   FIELD_PREP(IRDMA_PDINV_PMSDIDX, idx) |
			   IRDMA_PDINV_PMSDPARTSEL |
			   FIELD_PREP(IRDMA_PDINV_PMPDIDX, first + i));
	}
	return 0;
}

/**
 * irdma_hmc_sd_release - free a segment's backing
 * @fn: the function
 * @sd: the segment
 * @hw_done: the hardware no longer uses it (its descriptor was cleared)
 */
void irdma_hmc_sd_release(struct irdma_fn *fn, struct irdma_hmc_sd *sd,
			  bool hw_done)
{
	irdma_dma_release(fn, &sd->block, hw_done);
	irdma_dma_pages_release(fn, &sd->pages, hw_done);
	irdma_dma_release(fn, &sd->pd_page, hw_done);
}

/* The descriptor's data word: the block's or the PD page's address. */
static u64 irdma_hmc_sd_data(const struct irdma_hmc_sd *sd, bool valid)
{
	u64 data = FIELD_PREP(IRDMA_SD_DATA_BPCOUNT, IRDMA_HMC_PDS_PER_SD);

	if (sd->block.va || !sd->pd_page.va)
		data |= IRDMA_SD_DATA_DIRECT;
	if (valid)
		data |= (sd->block.va ? sd->block.pa : sd->pd_page.pa) |
			IRDMA_SD_DATA_VALID;
	return data;
}

/*
 * Write segment descriptors: each names its backing (@valid) or is
 * cleared, in batches the CQP takes in one command.
 */
static int irdma_hmc_write_sds(struct irdma_fn *fn, const u32 *idx, u32 count,
			       bool valid)
{
	u64 cmds[IRDMA_HMC_MAX_SD_PER_CMD], data[IRDMA_HMC_MAX_SD_PER_CMD];
	struct irdma_cqp_wqe cmd;
	u32 done, n, i;
	int err;

	for (done = 0; done < count; done += n) {
		n = min_t(u32, count - done, IRDMA_HMC_MAX_SD_PER_CMD);
		for (i = 0; i < n; i++) {
			u32 sd = idx[done + i];

			cmds[i] = FIELD_PREP(IRDMA_SD_CMD_IDX, sd) |
				  IRDMA_SD_CMD_PARTSEL | IRDMA_SD_CMD_WRITE;
			data[i] = irdma_hmc_sd_data(&fn->hmc.sd[sd], valid);
		}
		irdma_build_update_sds(&cmd, fn->res.pf_id, cmds, data, n);
		err = irdma_cqp_exec(fn, &cmd, NULL);
		if (err)
			return err;
	}
	return 0;
}

/**
 * irdma_hmc_program_sds - point segment descriptors at their backing
 * @fn: the function
 * @idx: the segments
 * @count: entries in @idx
 *
 * Return: 0 or the CQP's error.
 */
int irdma_hmc_program_sds(struct irdma_fn *fn, const u32 *idx, u32 count)
{
	return irdma_hmc_write_sds(fn, idx, count, true);
}

static int irdma_hmc_clear_sds(struct irdma_fn *fn, const u32 *idx, u32 count)
{
	return irdma_hmc_write_sds(fn, idx, count, false);
}

static void irdma_hmc_free_sds(struct irdma_fn *fn, bool hw_done)
{
	u32 i;

	if (!fn->hmc.sd)
		return;
	for (i = 0; i < fn->hmc.sd_cnt; i++)
		irdma_hmc_sd_release(fn, &fn->hmc.sd[i], hw_done);
	kfree(fn->hmc.sd);
	fn->hmc.sd = NULL;
}

/* Back every segment a committed object (but the PBLEs) touches. */
static int irdma_hmc_back_objects(struct irdma_fn *fn)
{
	struct irdma_hmc *hmc = &fn->hmc;
	u32 *idx, count = 0, first, last, sd;
	int err = 0, i;

	hmc->sd = kcalloc(hmc->sd_cnt, sizeof(*hmc->sd), GFP_KERNEL);
	idx = kcalloc(hmc->sd_cnt, sizeof(*idx), GFP_KERNEL);
	if (!hmc->sd || !idx) {
		err = -ENOMEM;
		goto out;
	}

	for (i = 0; i < IRDMA_HMC_OBJ_COUNT && !err; i++) {
		struct irdma_hmc_objinfo *o = &hmc->obj[i];

		if (!o->cnt || i == IRDMA_HMC_PBLE)
			continue;
		first = o->base / IRDMA_HMC_SD_SIZE;
		last = (o->base + (u64)o->cnt * o->size - 1) / IRDMA_HMC_SD_SIZE;
		for (sd = first; sd <= last && !err; sd++) {
			if (irdma_hmc_sd_backed(&hmc->sd[sd]))
				continue;
			err = irdma_dma_alloc(fn, &hmc->sd[sd].block, IRDMA_HMC_SD_SIZE,
					      GFP_KERNEL | __GFP_NOWARN);
			if (!err)
				idx[count++] = sd;
		}
	}
	if (!err)
		err = irdma_hmc_program_sds(fn, idx, count);
out:
	kfree(idx);
	/* Segments a failed command may have programmed stay the device's. */
	if (err)
		irdma_hmc_free_sds(fn, false);
	return err;
}

/**
 * irdma_hmc_setup - size, commit and back the function's HMC
 * @fn: the function; its CQP is up and no CCQ exists yet
 *
 * Return: 0 or a negative errno; nothing is left allocated on error.
 */
int irdma_hmc_setup(struct irdma_fn *fn)
{
	struct irdma_cqp_wqe cmd;
	int err;

	/* Each step that fails leaves nothing behind. */
	err = irdma_hmc_query(fn);
	if (err)
		return err;
	err = irdma_hmc_size(fn);
	if (err)
		return err;
	err = irdma_hmc_commit(fn);
	if (err)
		return err;
	err = irdma_hmc_back_objects(fn);
	if (err)
		return err;

	irdma_build_shmc_pages(&cmd, fn->res.pf_id);
	err = irdma_cqp_exec(fn, &cmd, NULL);
	if (err)
		goto err_teardown;
	err = irdma_pble_pool_init(fn);
	if (err)
		goto err_teardown;
	return 0;

err_teardown:
	irdma_hmc_teardown(fn);
	return err;
}

/**
 * irdma_hmc_teardown - clear the segments and free their backing
 * @fn: the function
 */
void irdma_hmc_teardown(struct irdma_fn *fn)
{
	struct irdma_hmc *hmc = &fn->hmc;
	u32 *idx, count = 0, sd;
	bool cleared = false;

	irdma_pble_pool_destroy(fn);
	if (!hmc->sd)
		return;

	idx = kcalloc(hmc->sd_cnt, sizeof(*idx), GFP_KERNEL);
	if (idx) {
		for (sd = 0; sd < hmc->sd_cnt; sd++)
			if (irdma_hmc_sd_backed(&hmc->sd[sd]))
				idx[count++] = sd;
		cleared = !irdma_hmc_clear_sds(fn, idx, count);
		if (!cleared && !fn->reset)
			dev_warn(fn->res.dev, "could not clear the HMC segments\n");
		kfree(idx);
	}
	irdma_hmc_free_sds(fn, cleared);
}
