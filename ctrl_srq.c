// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The control layer for shared receive queues: CREATE_SRQ, MODIFY_SRQ
 * (which also arms the limit event) and DESTROY_SRQ.
 */
#include <linux/log2.h>

#include "main.h"

/* The ring's size code: log2 of its quanta, less three (8 quanta is 0). */
static u64 irdma_srq_size_code(u32 quanta)
{
	return ilog2(max_t(u32, quanta, IRDMA_SRQ_MIN_QUANTA)) - 3;
}

/* Everything CREATE_SRQ and MODIFY_SRQ carry but their qword 1 and opcode. */
static void irdma_srq_cmd(struct irdma_cqp_wqe *cmd, u8 op,
			  const struct irdma_srq_hw_info *info, u32 limit)
{
	irdma_cmd_init(cmd, op);
	cmd->q[0] = FIELD_PREP(IRDMA_SRQCMD_RQSIZE,
			       irdma_srq_size_code(info->quanta)) |
		    FIELD_PREP(IRDMA_SRQCMD_RQWQESIZE, info->shift) |
		    FIELD_PREP(IRDMA_SRQCMD_LIMIT, limit);
	cmd->q[2] = FIELD_PREP(IRDMA_SRQCMD_PDID, info->pd);
	cmd->q[3] |= FIELD_PREP(IRDMA_SRQCMD_SRQID, info->id) |
		     FIELD_PREP(IRDMA_SRQCMD_LPBLSIZE, info->pbl_levels) |
		     FIELD_PREP(IRDMA_SRQCMD_VIRTMAP, info->virtual_map);
	cmd->q[4] = FIELD_PREP(IRDMA_SRQCMD_RING_PA, info->ring_pa >> 8);
	cmd->q[5] = FIELD_PREP(IRDMA_SRQCMD_SHADOW_PA, info->shadow_pa >> 6);
	if (info->virtual_map)
		cmd->q[6] = FIELD_PREP(IRDMA_SRQCMD_FIRST_PBLE, info->first_pble);
}

/**
 * irdma_build_create_srq - CREATE_SRQ
 * @cmd: the command to fill
 * @info: the SRQ
 *
 * The limit event starts disarmed.
 */
void irdma_build_create_srq(struct irdma_cqp_wqe *cmd,
			    const struct irdma_srq_hw_info *info)
{
	irdma_srq_cmd(cmd, IRDMA_CQPOP_CREATE_SRQ, info, 0);
	cmd->q[1] = info->compl_ctx;
}

/**
 * irdma_build_modify_srq - MODIFY_SRQ: a new limit, armed
 * @cmd: the command to fill
 * @info: the SRQ
 * @limit: the limit; an event follows when fewer WQEs than this remain
 */
void irdma_build_modify_srq(struct irdma_cqp_wqe *cmd,
			    const struct irdma_srq_hw_info *info, u32 limit)
{
	irdma_srq_cmd(cmd, IRDMA_CQPOP_MODIFY_SRQ, info,
		      min_t(u32, limit, IRDMA_SRQ_LIMIT_MAX));
	cmd->q[1] = FIELD_PREP(IRDMA_SRQCMD_SRQCTX, info->id);
	cmd->q[3] |= IRDMA_SRQCMD_ARM_LIMIT;
}

/**
 * irdma_build_destroy_srq - DESTROY_SRQ
 * @cmd: the command to fill
 * @info: the SRQ
 */
void irdma_build_destroy_srq(struct irdma_cqp_wqe *cmd,
			     const struct irdma_srq_hw_info *info)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_DESTROY_SRQ);
	cmd->q[1] = info->compl_ctx;
	cmd->q[3] |= FIELD_PREP(IRDMA_SRQCMD_SRQID, info->id);
}
