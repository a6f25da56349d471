// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The control layer for memory keys and address handles.
 */
#include <kunit/visibility.h>

#include "main.h"

static u64 irdma_stag_q1(u64 len, u32 pd)
{
	return FIELD_PREP(IRDMA_STAG_LEN, len) | FIELD_PREP(IRDMA_STAG_PDID, pd);
}

/**
 * irdma_build_alloc_stag - ALLOC_STAG: a key for fast registration
 * @cmd: the command to fill
 * @info: the key, its PD and the most it may cover
 *
 * The key gets its pages, rights and address later, from a fast-register
 * WQE on a kernel QP.
 */
void irdma_build_alloc_stag(struct irdma_cqp_wqe *cmd,
			    const struct irdma_stag_info *info)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_ALLOC_STAG);
	cmd->q[1] = irdma_stag_q1(info->len, info->pd);
	cmd->q[2] = FIELD_PREP(IRDMA_STAG_IDX, info->stag >> 8);
	cmd->q[3] |= IRDMA_STAG_MR | IRDMA_STAG_REMACCENABLED |
		     FIELD_PREP(IRDMA_STAG_HPAGESIZE, info->page_size) |
		     FIELD_PREP(IRDMA_STAG_ARIGHTS, info->rights);
	if (info->pbl_levels) {
		cmd->q[3] |= FIELD_PREP(IRDMA_STAG_LPBLSIZE, info->pbl_levels);
		cmd->q[6] = FIELD_PREP(IRDMA_STAG_FIRSTPMPBLIDX, info->first_pble);
	}
}

/**
 * irdma_build_reg_mr - REG_MR: a registered region, valid at once
 * @cmd: the command to fill
 * @info: the region
 */
void irdma_build_reg_mr(struct irdma_cqp_wqe *cmd,
			const struct irdma_stag_info *info)
{
	u64 page = 4096ULL << (9 * info->page_size);
	bool remote = info->rights & (IRDMA_MR_RIGHT_REMOTE_READ |
				      IRDMA_MR_RIGHT_REMOTE_WRITE);

	irdma_cmd_init(cmd, IRDMA_CQPOP_REG_MR);
	cmd->q[0] = info->zero_based ? info->va & (page - 1) : info->va;
	cmd->q[1] = irdma_stag_q1(info->len, info->pd);
	cmd->q[2] = FIELD_PREP(IRDMA_STAG_KEY, info->stag & 0xff) |
		    FIELD_PREP(IRDMA_STAG_IDX, info->stag >> 8);
	if (info->pbl_levels)
		cmd->q[6] = FIELD_PREP(IRDMA_STAG_FIRSTPMPBLIDX, info->first_pble);
	else
		cmd->q[4] = info->pa;
	cmd->q[3] |= IRDMA_STAG_MR |
		     FIELD_PREP(IRDMA_STAG_LPBLSIZE, info->pbl_levels) |
		     FIELD_PREP(IRDMA_STAG_HPAGESIZE, info->page_size) |
		     FIELD_PREP(IRDMA_STAG_ARIGHTS, info->rights) |
		     FIELD_PREP(IRDMA_STAG_REMACCENABLED, remote) |
		     FIELD_PREP(IRDMA_STAG_VABASEDTO, !info->zero_based);
}

/**
 * irdma_build_dealloc_stag - DEALLOC_STAG: retire a key
 * @cmd: the command to fill
 * @stag: the key
 * @pd: its PD
 * @kind: a region's key or a window's
 */
void irdma_build_dealloc_stag(struct irdma_cqp_wqe *cmd, u32 stag, u32 pd,
			      enum irdma_stag_kind kind)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_DEALLOC_STAG);
	cmd->q[1] = irdma_stag_q1(0, pd);
	cmd->q[2] = FIELD_PREP(IRDMA_STAG_IDX, stag >> 8);
	cmd->q[3] |= FIELD_PREP(IRDMA_STAG_MR, kind == IRDMA_STAG_KIND_MR);
}

/**
 * irdma_build_ah - CREATE_ADDR_HANDLE or DESTROY_ADDR_HANDLE
 * @cmd: the command to fill
 * @info: the address handle
 * @op: %IRDMA_CQPOP_CREATE_ADDR_HANDLE or %IRDMA_CQPOP_DESTROY_ADDR_HANDLE
 */
void irdma_build_ah(struct irdma_cqp_wqe *cmd,
		    const struct irdma_ah_hw_info *info, u8 op)
{
	irdma_cmd_init(cmd, op);
	cmd->q[0] = FIELD_PREP(IRDMA_AH_MAC, ether_addr_to_u64(info->mac));
	cmd->q[1] = FIELD_PREP(IRDMA_AH_PDIDXLO, info->pd & 0xffff) |
		    FIELD_PREP(IRDMA_AH_TC, info->tc) |
		    FIELD_PREP(IRDMA_AH_VLANTAG, info->vlan);
	cmd->q[2] = FIELD_PREP(IRDMA_AH_ARPINDEX, info->arp_idx) |
		    FIELD_PREP(IRDMA_AH_HOPLIMIT, info->hop_limit) |
		    FIELD_PREP(IRDMA_AH_PDIDXHI, info->pd >> 16) |
		    FIELD_PREP(IRDMA_AH_FLOWLABEL, info->flow_label);
	cmd->q[3] |= FIELD_PREP(IRDMA_AH_AVIDX, info->id) |
		     FIELD_PREP(IRDMA_AH_IPV4VALID, info->ipv4) |
		     FIELD_PREP(IRDMA_AH_INSERTVLANTAG, info->insert_vlan) |
		     FIELD_PREP(IRDMA_AH_DOLOOPBACK, info->loopback);
	cmd->q[4] = FIELD_PREP(IRDMA_QPC_IPADDR_HI, info->dest_ip[2]) |
		    FIELD_PREP(IRDMA_QPC_IPADDR_LO, info->dest_ip[3]);
	cmd->q[5] = FIELD_PREP(IRDMA_QPC_IPADDR_HI, info->dest_ip[0]) |
		    FIELD_PREP(IRDMA_QPC_IPADDR_LO, info->dest_ip[1]);
	cmd->q[6] = FIELD_PREP(IRDMA_QPC_IPADDR_HI, info->src_ip[2]) |
		    FIELD_PREP(IRDMA_QPC_IPADDR_LO, info->src_ip[3]);
	cmd->q[7] = FIELD_PREP(IRDMA_QPC_IPADDR_HI, info->src_ip[0]) |
		    FIELD_PREP(IRDMA_QPC_IPADDR_LO, info->src_ip[1]);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_build_ah);

/**
 * irdma_build_alloc_mw - ALLOC_STAG for a memory window
 * @cmd: the command to fill
 * @stag: the window's key
 * @pd: its PD
 * @type1: a type 1 window (else type 2)
 */
void irdma_build_alloc_mw(struct irdma_cqp_wqe *cmd, u32 stag, u32 pd,
			  bool type1)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_ALLOC_STAG);
	cmd->q[1] = irdma_stag_q1(0, pd);
	cmd->q[2] = FIELD_PREP(IRDMA_STAG_IDX, stag >> 8);
	cmd->q[3] |= FIELD_PREP(IRDMA_STAG_MWTYPE, type1);
}
