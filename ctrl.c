// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The control layer: builds CQP (control QP) commands in the hardware's
 * layout. Every command is a 64-byte WQE whose header quadword, written
 * last, carries the opcode and the valid bit of the current ring pass.
 */
#include <kunit/visibility.h>
#include <linux/bitfield.h>
#include <linux/errno.h>

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
EXPORT_SYMBOL_IF_KUNIT(irdma_cqp_wqe_hdr);

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
EXPORT_SYMBOL_IF_KUNIT(irdma_cqp_wqe_set_hdr);

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
EXPORT_SYMBOL_IF_KUNIT(irdma_build_query_fpm);

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
EXPORT_SYMBOL_IF_KUNIT(irdma_build_commit_fpm);

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
EXPORT_SYMBOL_IF_KUNIT(irdma_build_update_sds);

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
EXPORT_SYMBOL_IF_KUNIT(irdma_build_shmc_pages);

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
EXPORT_SYMBOL_IF_KUNIT(irdma_build_query_features);

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
	cmd->q[3] |= irdma_cq_hdr_fields(info) |
		     FIELD_PREP(IRDMA_CQCMD_CHKOVERFLOW, info->check_overflow);
	cmd->q[4] = info->virtual_map ? 0 : info->ring_pa;
	cmd->q[5] = info->shadow_pa;
	if (info->virtual_map)
		cmd->q[6] = FIELD_PREP(IRDMA_CQPSQ_FIRSTPMPBLIDX, info->first_pble);
	cmd->q[7] = FIELD_PREP(IRDMA_CQPSQ_VSIIDX, info->vsi);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_build_create_cq);

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
EXPORT_SYMBOL_IF_KUNIT(irdma_build_destroy_cq);

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
EXPORT_SYMBOL_IF_KUNIT(irdma_build_create_ceq);

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
EXPORT_SYMBOL_IF_KUNIT(irdma_build_destroy_ceq);

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
EXPORT_SYMBOL_IF_KUNIT(irdma_build_create_aeq);

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
EXPORT_SYMBOL_IF_KUNIT(irdma_build_destroy_aeq);
