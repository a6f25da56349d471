// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The control layer: builds CQP (control QP) commands in the hardware's
 * layout. Every command is a 64-byte WQE whose header quadword, written
 * last, carries the opcode and the valid bit of the current ring pass.
 */
#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/slab.h>

#include "main.h"

/**
 * irdma_cqp_wqe_hdr - the header quadword of a CQP command
 * @op: CQP opcode
 * @polarity: valid-bit value of the current pass over the CQP ring
 *
 * Command-specific header fields are or-ed into the returned value.
 *
 * Return: the header in CPU order.
 */
u64 irdma_cqp_wqe_hdr(u8 op, bool polarity)
{
	return FIELD_PREP(IRDMA_CQPSQ_OPCODE, op) |
	       FIELD_PREP(IRDMA_CQPSQ_WQEVALID, polarity);
}

/**
 * irdma_cqp_wqe_set_hdr - publish a CQP command by writing its header
 * @wqe: the command's 64 bytes, all other fields already written
 * @hdr: header from irdma_cqp_wqe_hdr() plus command fields
 *
 * The hardware owns the WQE from the moment it sees the valid bit, so
 * the body must reach memory first.
 */
void irdma_cqp_wqe_set_hdr(__le64 *wqe, u64 hdr)
{
	dma_wmb();
	WRITE_ONCE(wqe[IRDMA_CQP_WQE_HDR_OFFSET / sizeof(*wqe)],
		   cpu_to_le64(hdr));
}

/**
 * irdma_init_uk_attrs - queue limits of a hardware generation
 * @gen: the generation
 * @attrs: filled with the generation's limits
 *
 * Return: 0, or -EINVAL for an unknown generation.
 */
int irdma_init_uk_attrs(enum irdma_hw_gen gen, struct irdma_uk_attrs *attrs)
{
	switch (gen) {
	case IRDMA_GEN_1:
		*attrs = (struct irdma_uk_attrs) {
			.hw_rev = gen,
			.max_hw_wq_frags = IRDMA_GEN1_MAX_WQ_FRAGS,
			.max_hw_read_sges = IRDMA_GEN1_MAX_READ_SGES,
			.max_hw_inline = IRDMA_GEN1_MAX_INLINE,
			.max_hw_rq_quanta = IRDMA_GEN1_MAX_RQ_QUANTA,
			.max_hw_wq_quanta = IRDMA_GEN1_MAX_WQ_QUANTA,
			.max_hw_sq_chunk = IRDMA_GEN1_MAX_QUANTA_PER_WR,
			.min_hw_wq_size = IRDMA_GEN1_MIN_WQ_SIZE,
			.min_hw_cq_size = IRDMA_MIN_CQ_SIZE,
			.max_hw_cq_size = IRDMA_MAX_CQ_SIZE,
		};
		return 0;
	case IRDMA_GEN_2:
		*attrs = (struct irdma_uk_attrs) {
			.hw_rev = gen,
			.max_hw_wq_frags = IRDMA_GEN2_MAX_WQ_FRAGS,
			.max_hw_read_sges = IRDMA_GEN2_MAX_READ_SGES,
			.max_hw_inline = IRDMA_GEN2_MAX_INLINE,
			.max_hw_rq_quanta = IRDMA_QP_SW_MAX_RQ_QUANTA,
			.max_hw_wq_quanta = IRDMA_QP_SW_MAX_WQ_QUANTA,
			.max_hw_sq_chunk = IRDMA_MAX_QUANTA_PER_WR,
			.min_hw_wq_size = IRDMA_GEN2_MIN_WQ_SIZE,
			.min_hw_cq_size = IRDMA_MIN_CQ_SIZE,
			.max_hw_cq_size = IRDMA_MAX_CQ_SIZE,
			.feature_flags = IRDMA_FEATURE_RTS_AE |
					 IRDMA_FEATURE_CQ_RESIZE,
		};
		return 0;
	}
	return -EINVAL;
}

#define IRDMA_CQP_CREATE_POLLS	100000	/* 10 us apart: about 1 s */

/**
 * irdma_cqp_create - create the CQP through its host context
 * @fn: the function; its init block is allocated
 *
 * Return: 0, -ENOMEM, -EIO if the hardware refused the context, or
 * -ETIMEDOUT if it never answered.
 */
int irdma_cqp_create(struct irdma_fn *fn)
{
	struct irdma_cqp *cqp = &fn->cqp;
	__le64 *ctx = fn->init_mem.va + IRDMA_INIT_CQP_CTX;
	dma_addr_t ctx_pa = fn->init_mem.pa + IRDMA_INIT_CQP_CTX;
	u32 size = IRDMA_CQP_SW_SQSIZE;
	u32 status = 0;
	int err, i;

	spin_lock_init(&cqp->lock);
	err = irdma_dma_alloc(fn, &cqp->sq, size * IRDMA_CQP_WQE_SIZE, GFP_KERNEL);
	if (err)
		return err;
	err = irdma_dma_alloc(fn, &cqp->sdbuf, size * IRDMA_UPESD_BUF_SIZE,
			      GFP_KERNEL);
	if (err)
		goto err_sdbuf;
	cqp->reqs = kcalloc(size, sizeof(*cqp->reqs), GFP_KERNEL);
	if (!cqp->reqs) {
		err = -ENOMEM;
		goto err_reqs;
	}
	irdma_ring_init(&cqp->ring, size);
	cqp->polarity = true;

	memset(ctx, 0, IRDMA_CQPHC_SIZE);
	ctx[0] = cpu_to_le64(FIELD_PREP(IRDMA_CQPHC_SQSIZE, ilog2(size / 4) + 1) |
			     FIELD_PREP(IRDMA_CQPHC_PROTOCOL_USED,
					fn->res.protocol == IRDMA_PROTOCOL_ROCEV2 ?
					IRDMA_PROTOCOL_USED_ROCE_ONLY :
					IRDMA_PROTOCOL_USED_IWARP_ONLY));
	ctx[1] = cpu_to_le64(cqp->sq.pa);
	ctx[2] = cpu_to_le64(FIELD_PREP(IRDMA_CQPHC_HMC_PROFILE,
					IRDMA_HMC_PROFILE_DEFAULT));
	/* Completions echo this back; it names the function. */
	ctx[3] = cpu_to_le64((uintptr_t)fn);
	ctx[4] = cpu_to_le64(FIELD_PREP(IRDMA_CQPHC_HW_MAJVER,
					IRDMA_HW_MAJVER_GEN_2));

	irdma_wr32(fn, IRDMA_PFPE_CQPTAIL, 0);
	irdma_wr32(fn, IRDMA_PFPE_CQPDB, 0);
	irdma_wr32(fn, IRDMA_PFPE_CCQPSTATUS, 0);
	irdma_wr32(fn, IRDMA_PFPE_CCQPHIGH, upper_32_bits(ctx_pa));
	irdma_wr32(fn, IRDMA_PFPE_CCQPLOW, lower_32_bits(ctx_pa));

	for (i = 0; i < IRDMA_CQP_CREATE_POLLS && !status; i++) {
		usleep_range(10, 20);
		status = irdma_rd32(fn, IRDMA_PFPE_CCQPSTATUS);
	}
	if (status & IRDMA_CCQPSTATUS_ERR) {
		u32 codes = irdma_rd32(fn, IRDMA_PFPE_CQPERRCODES);

		dev_err(fn->res.dev, "CQP create failed: major %#lx minor %#lx\n",
			FIELD_GET(IRDMA_CQPERRCODES_MAJOR, codes),
			FIELD_GET(IRDMA_CQPERRCODES_MINOR, codes));
		err = -EIO;
		goto err_hw;
	}
	if (!(status & IRDMA_CCQPSTATUS_DONE)) {
		dev_err(fn->res.dev, "CQP create timed out\n");
		err = -ETIMEDOUT;
		goto err_hw;
	}
	return 0;

err_hw:
	irdma_wr32(fn, IRDMA_PFPE_CCQPHIGH, 0);
	irdma_wr32(fn, IRDMA_PFPE_CCQPLOW, 0);
	kfree(cqp->reqs);
	cqp->reqs = NULL;
err_reqs:
	irdma_dma_free(fn, &cqp->sdbuf);
err_sdbuf:
	irdma_dma_free(fn, &cqp->sq);
	return err;
}

/**
 * irdma_cqp_destroy - take the CQP down and free it
 * @fn: the function
 *
 * Waiters still outstanding are released with an error. If the hardware
 * does not confirm, its rings are kept (leaked) rather than freed.
 *
 * Return: 0, or -ETIMEDOUT if the CQP did not go down.
 */
int irdma_cqp_destroy(struct irdma_fn *fn)
{
	struct irdma_cqp *cqp = &fn->cqp;
	int i;

	irdma_wr32(fn, IRDMA_PFPE_CCQPHIGH, 0);
	irdma_wr32(fn, IRDMA_PFPE_CCQPLOW, 0);
	for (i = 0; i < IRDMA_CQP_CREATE_POLLS; i++) {
		if (!(irdma_rd32(fn, IRDMA_PFPE_CCQPSTATUS) & IRDMA_CCQPSTATUS_DONE))
			break;
		usleep_range(10, 20);
	}
	if (i == IRDMA_CQP_CREATE_POLLS)
		dev_warn(fn->res.dev, "CQP destroy timed out\n");

	irdma_cqp_flush_waiters(fn);
	kfree(cqp->reqs);
	cqp->reqs = NULL;
	irdma_dma_release(fn, &cqp->sdbuf, i < IRDMA_CQP_CREATE_POLLS);
	irdma_dma_release(fn, &cqp->sq, i < IRDMA_CQP_CREATE_POLLS);
	return i < IRDMA_CQP_CREATE_POLLS ? 0 : -ETIMEDOUT;
}

/**
 * irdma_cqp_post - place a command on the CQP and ring the doorbell
 * @fn: the function
 * @cmd: the command
 * @idx: returns the WQE's index in the ring
 *
 * Context: with the CQP lock held.
 * Return: 0, or -EBUSY when the ring is full.
 */
int irdma_cqp_post(struct irdma_fn *fn, const struct irdma_cqp_wqe *cmd,
		   u32 *idx)
{
	struct irdma_cqp *cqp = &fn->cqp;
	__le64 *wqe;
	int i;

	lockdep_assert_held(&cqp->lock);
	if (irdma_ring_produce(&cqp->ring, 1, 0, idx))
		return -EBUSY;

	wqe = cqp->sq.va + *idx * IRDMA_CQP_WQE_SIZE;
	for (i = 0; i < ARRAY_SIZE(cmd->q); i++)
		if (i != IRDMA_CQP_WQE_HDR_OFFSET / 8)
			wqe[i] = cpu_to_le64(cmd->q[i]);
	if (cmd->ext_len) {
		dma_addr_t slot = cqp->sdbuf.pa + *idx * IRDMA_UPESD_BUF_SIZE;

		memcpy(cqp->sdbuf.va + *idx * IRDMA_UPESD_BUF_SIZE, cmd->ext,
		       cmd->ext_len);
		wqe[2] = cpu_to_le64(cmd->q[2] | slot);
	}
	irdma_cqp_wqe_set_hdr(wqe, cmd->q[3] |
			      FIELD_PREP(IRDMA_CQPSQ_WQEVALID, cqp->polarity));
	if (!cqp->ring.head)
		cqp->polarity = !cqp->polarity;
	irdma_wr32(fn, IRDMA_PFPE_CQPDB, cqp->ring.head);
	return 0;
}

/**
 * irdma_ccq_next - take the next completion from the CCQ
 * @fn: the function
 * @idx: returns the index of the CQP WQE it completes
 * @compl: returns how it completed
 *
 * Context: with the CQP lock held.
 * Return: 0, -ENOENT when there is none, -EIO for a CQE that does not
 * belong to this function's CQP (it is consumed all the same).
 */
int irdma_ccq_next(struct irdma_fn *fn, u32 *idx, struct irdma_cqp_compl *compl)
{
	struct irdma_ccq *ccq = &fn->ccq;
	__le64 *cqe = ccq->ring.va + ccq->head * IRDMA_CQE_SIZE;
	u64 q3 = le64_to_cpu(READ_ONCE(cqe[3]));
	bool ours;

	if (!!(q3 & IRDMA_CQE_VALID) != ccq->polarity)
		return -ENOENT;
	dma_rmb();

	ours = le64_to_cpu(cqe[1]) == (uintptr_t)fn;
	*idx = FIELD_GET(IRDMA_CCQE_WQEIDX, q3);
	compl->min = FIELD_GET(IRDMA_CCQE_MINERR, q3);
	compl->maj = q3 & IRDMA_CCQE_ERROR ?
		     FIELD_GET(IRDMA_CCQE_MAJERR, q3) : IRDMA_CQP_MAJ_NO_ERROR;
	compl->ret_val = FIELD_GET(IRDMA_CCQE_OPRETVAL, le64_to_cpu(cqe[2]));

	if (++ccq->head == IRDMA_CCQ_SIZE) {
		ccq->head = 0;
		ccq->polarity = !ccq->polarity;
	}
	ccq->shadow[0] = cpu_to_le64(FIELD_PREP(IRDMA_CQ_DBSA_CQEIDX, ccq->head));
	return ours ? 0 : -EIO;
}

/**
 * irdma_ccq_arm - ask for an event at the CCQ's next completion
 * @fn: the function
 *
 * Context: with the CQP lock held.
 */
void irdma_ccq_arm(struct irdma_fn *fn)
{
	__le64 *word = &fn->ccq.shadow[4];
	u64 arm = le64_to_cpu(*word);
	u8 seq = FIELD_GET(IRDMA_CQ_DBSA_ARM_SEQ_NUM, arm) + 1;

	arm &= IRDMA_CQ_DBSA_SW_CQ_SELECT | IRDMA_CQ_DBSA_ARM_NEXT_SE;
	arm |= FIELD_PREP(IRDMA_CQ_DBSA_ARM_SEQ_NUM, seq) | IRDMA_CQ_DBSA_ARM_NEXT;
	*word = cpu_to_le64(arm);
	dma_wmb();
	irdma_wr32(fn, IRDMA_PFPE_CQARM, 0);
}

/**
 * irdma_build_query_fpm - QUERY_FPM_VAL: the HMC's limits into @buf
 * @cmd: the command to fill
 * @fn_id: HMC function id
 * @buf: device address of a 176-byte buffer
 */
void irdma_build_query_fpm(struct irdma_cqp_wqe *cmd, u8 fn_id, dma_addr_t buf)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_QUERY_FPM_VAL);
	cmd->q[2] = FIELD_PREP(IRDMA_CQPSQ_HMCFNID, fn_id);
	cmd->q[4] = buf;
}

/**
 * irdma_build_commit_fpm - COMMIT_FPM_VAL: place the counts in @buf
 * @cmd: the command to fill
 * @fn_id: HMC function id
 * @buf: device address of the 176-byte commit buffer
 */
void irdma_build_commit_fpm(struct irdma_cqp_wqe *cmd, u8 fn_id, dma_addr_t buf)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_COMMIT_FPM_VAL);
	cmd->q[2] = FIELD_PREP(IRDMA_CQPSQ_HMCFNID, fn_id);
	cmd->q[3] |= FIELD_PREP(IRDMA_CQPSQ_BUFSIZE, IRDMA_FPM_BUF_SIZE);
	cmd->q[4] = buf;
}

/**
 * irdma_build_update_sds - UPDATE_PE_SDS: program segment descriptors
 * @cmd: the command to fill
 * @fn_id: HMC function id
 * @cmds: each entry's command word (segment index and flags)
 * @data: each entry's data word
 * @count: entries, 1 to IRDMA_HMC_MAX_SD_PER_CMD
 *
 * Three entries travel in the WQE; the rest go to the WQE's side buffer,
 * whose address irdma_cqp_post() adds.
 */
void irdma_build_update_sds(struct irdma_cqp_wqe *cmd, u8 fn_id,
			    const u64 *cmds, const u64 *data, u32 count)
{
	u32 i;

	irdma_cmd_init(cmd, IRDMA_CQPOP_UPDATE_PE_SDS);
	cmd->q[0] = cmds[0];
	cmd->q[1] = data[0];
	cmd->q[2] = FIELD_PREP(IRDMA_CQPSQ_HMCFNID, fn_id);
	for (i = 1; i < min(count, 3U); i++) {
		cmd->q[2 + 2 * i] = cmds[i] | IRDMA_CQPSQ_UPESD_ENTRY_VALID;
		cmd->q[3 + 2 * i] = data[i];
	}
	if (count <= 3)
		return;
	for (i = 3; i < count; i++) {
		cmd->ext[2 * (i - 3)] = cpu_to_le64(cmds[i]);
		cmd->ext[2 * (i - 3) + 1] = cpu_to_le64(data[i]);
	}
	cmd->q[3] |= FIELD_PREP(IRDMA_CQPSQ_UPESD_ENTRY_COUNT, count - 3);
	cmd->ext_len = (count - 3) * 16;
}

/**
 * irdma_build_shmc_pages - SHMC_PAGES_ALLOCATED: the HMC backing is in place
 * @cmd: the command to fill
 * @fn_id: HMC function id
 */
void irdma_build_shmc_pages(struct irdma_cqp_wqe *cmd, u8 fn_id)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_SHMC_PAGES_ALLOCATED);
	cmd->q[2] = FIELD_PREP(IRDMA_CQPSQ_HMCFNID, fn_id);
}

/**
 * irdma_build_query_features - QUERY_RDMA_FEATURES into @buf
 * @cmd: the command to fill
 * @buf: device address of the feature buffer
 * @len: its length in bytes
 */
void irdma_build_query_features(struct irdma_cqp_wqe *cmd, dma_addr_t buf,
				u32 len)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_QUERY_RDMA_FEATURES);
	cmd->q[3] |= FIELD_PREP(IRDMA_CQPSQ_BUFSIZE, len);
	cmd->q[4] = buf;
}

static u64 irdma_cq_hdr_fields(const struct irdma_cq_hw_info *info)
{
	return FIELD_PREP(IRDMA_CQCMD_CQID, info->id) |
	       FIELD_PREP(IRDMA_CQCMD_VIRTMAP, info->virtual_map) |
	       FIELD_PREP(IRDMA_CQCMD_LPBLSIZE, info->pbl_levels) |
	       FIELD_PREP(IRDMA_CQCMD_CEQID, info->ceq_valid ? info->ceq_id : 0) |
	       FIELD_PREP(IRDMA_CQCMD_ENCEQEMASK, info->ceqe_mask) |
	       FIELD_PREP(IRDMA_CQCMD_CEQIDVALID, info->ceq_valid);
}

/**
 * irdma_build_create_cq - CREATE_CQ for a physically contiguous ring
 * @cmd: the command to fill
 * @info: the CQ
 */
void irdma_build_create_cq(struct irdma_cqp_wqe *cmd,
			   const struct irdma_cq_hw_info *info)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_CREATE_CQ);
	cmd->q[0] = info->size;
	cmd->q[1] = info->ctx;
	cmd->q[2] = FIELD_PREP(IRDMA_CQCMD_SHADOW_READ_THRESHOLD,
			       info->shadow_threshold);
	cmd->q[3] |= irdma_cq_hdr_fields(info) | IRDMA_CQCMD_CHKOVERFLOW;
	cmd->q[4] = info->virtual_map ? 0 : info->ring_pa;
	cmd->q[5] = info->shadow_pa;
	if (info->virtual_map)
		cmd->q[6] = FIELD_PREP(IRDMA_CQPSQ_FIRSTPMPBLIDX, info->first_pble);
	cmd->q[7] = FIELD_PREP(IRDMA_CQPSQ_VSIIDX, info->vsi);
}

/**
 * irdma_build_destroy_cq - DESTROY_CQ
 * @cmd: the command to fill
 * @info: the CQ as it was created
 */
void irdma_build_destroy_cq(struct irdma_cqp_wqe *cmd,
			    const struct irdma_cq_hw_info *info)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_DESTROY_CQ);
	cmd->q[0] = info->size;
	cmd->q[1] = info->ctx;
	cmd->q[3] |= irdma_cq_hdr_fields(info);
	cmd->q[5] = info->shadow_pa;
	if (info->virtual_map)
		cmd->q[6] = info->first_pble;
}

/**
 * irdma_build_resize_cq - MODIFY_CQ moving a CQ to a new ring
 * @cmd: the command to fill
 * @info: the CQ with its new ring and size
 *
 * The CQ keeps its CEQ; the hardware takes the new ring at once and the
 * consumer finishes the old one first.
 */
void irdma_build_resize_cq(struct irdma_cqp_wqe *cmd,
			   const struct irdma_cq_hw_info *info)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_MODIFY_CQ);
	cmd->q[0] = info->size;
	cmd->q[1] = info->ctx;
	cmd->q[2] = FIELD_PREP(IRDMA_CQCMD_SHADOW_READ_THRESHOLD,
			       info->shadow_threshold);
	cmd->q[3] |= FIELD_PREP(IRDMA_CQCMD_CQID, info->id) |
		     IRDMA_CQCMD_CQRESIZE |
		     FIELD_PREP(IRDMA_CQCMD_LPBLSIZE, info->pbl_levels) |
		     FIELD_PREP(IRDMA_CQCMD_VIRTMAP, info->virtual_map) |
		     FIELD_PREP(IRDMA_CQCMD_ENCEQEMASK, info->ceqe_mask);
	cmd->q[4] = info->virtual_map ? 0 : info->ring_pa;
	cmd->q[5] = info->shadow_pa;
	cmd->q[6] = info->virtual_map ? info->first_pble : 0;
	cmd->q[7] = FIELD_PREP(IRDMA_CQPSQ_VSIIDX, info->vsi);
}

/**
 * irdma_build_create_ceq - CREATE_CEQ for a physically contiguous ring
 * @cmd: the command to fill
 * @id: CEQ number
 * @size: entries
 * @ring: device address of the ring
 * @vsi: VSI the CEQ serves
 */
void irdma_build_create_ceq(struct irdma_cqp_wqe *cmd, u32 id, u32 size,
			    dma_addr_t ring, u16 vsi)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_CREATE_CEQ);
	cmd->q[2] = size;
	cmd->q[3] |= FIELD_PREP(IRDMA_CQPSQ_CEQ_CEQID, id);
	cmd->q[4] = ring;
	cmd->q[7] = FIELD_PREP(IRDMA_CQPSQ_VSIIDX, vsi);
}

/**
 * irdma_build_destroy_ceq - DESTROY_CEQ
 * @cmd: the command to fill
 * @id: CEQ number
 * @size: entries, as created
 */
void irdma_build_destroy_ceq(struct irdma_cqp_wqe *cmd, u32 id, u32 size)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_DESTROY_CEQ);
	cmd->q[2] = size;
	cmd->q[3] |= FIELD_PREP(IRDMA_CQPSQ_CEQ_CEQID, id);
}

/* What CREATE_AEQ and DESTROY_AEQ both say of the ring's pages. */
static void irdma_eq_ring_fields(struct irdma_cqp_wqe *cmd,
				 const struct irdma_eq_ring_hw *ring)
{
	if (!ring->paged)
		return;
	cmd->q[3] |= FIELD_PREP(IRDMA_CQPSQ_EQ_LPBLSIZE, 1) | IRDMA_CQPSQ_EQ_VMAP;
	cmd->q[6] = FIELD_PREP(IRDMA_CQPSQ_EQ_FIRSTPMPBLIDX, ring->first_pble);
}

/**
 * irdma_build_create_aeq - CREATE_AEQ
 * @cmd: the command to fill
 * @size: entries
 * @ring: a contiguous ring's address, or a paged one's PBLEs (one level)
 */
void irdma_build_create_aeq(struct irdma_cqp_wqe *cmd, u32 size,
			    const struct irdma_eq_ring_hw *ring)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_CREATE_AEQ);
	cmd->q[2] = size;
	if (!ring->paged)
		cmd->q[4] = ring->pa;
	irdma_eq_ring_fields(cmd, ring);
}

/**
 * irdma_build_destroy_aeq - DESTROY_AEQ
 * @cmd: the command to fill
 * @size: entries, as created
 * @ring: the ring, as created
 */
void irdma_build_destroy_aeq(struct irdma_cqp_wqe *cmd, u32 size,
			     const struct irdma_eq_ring_hw *ring)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_DESTROY_AEQ);
	cmd->q[2] = size;
	irdma_eq_ring_fields(cmd, ring);
}
