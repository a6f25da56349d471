// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The control layer for the tables that steer TCP segments to iWARP's
 * connection manager and, once a connection is offloaded, to its QP: the
 * accelerated port bit vector (APBVT: which local ports are the engine's)
 * and the quad hash (which addresses and ports go to which QP).
 */
#include <kunit/visibility.h>

#include "main.h"

/**
 * irdma_build_manage_apbvt - MANAGE_APBVT: a local TCP port in or out
 * @cmd: the command to fill
 * @port: the port, host order
 * @op: %IRDMA_CM_TABLE_ADD or %IRDMA_CM_TABLE_DELETE
 */
void irdma_build_manage_apbvt(struct irdma_cqp_wqe *cmd, u16 port,
			      enum irdma_cm_table_op op)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_MANAGE_APBVT);
	cmd->q[2] = FIELD_PREP(IRDMA_CQPSQ_MAPT_PORT, port);
	if (op == IRDMA_CM_TABLE_ADD)
		cmd->q[3] |= IRDMA_CQPSQ_MAPT_ADDPORT;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_build_manage_apbvt);

/* An address as the quad hash takes it: the qword with words 2-3 first. */
static void irdma_qhash_addr(u64 *q, const u32 *ip)
{
	q[0] = FIELD_PREP(IRDMA_CQPSQ_QHASH_ADDR_HI, ip[2]) |
	       FIELD_PREP(IRDMA_CQPSQ_QHASH_ADDR_LO, ip[3]);
	q[1] = FIELD_PREP(IRDMA_CQPSQ_QHASH_ADDR_HI, ip[0]) |
	       FIELD_PREP(IRDMA_CQPSQ_QHASH_ADDR_LO, ip[1]);
}

/**
 * irdma_build_manage_qhash - MANAGE_QUAD_HASH_TABLE_ENTRY
 * @cmd: the command to fill
 * @info: the entry
 * @op: %IRDMA_CM_TABLE_ADD or %IRDMA_CM_TABLE_DELETE
 *
 * A listener's entry names the local end only; the remote address and
 * port stay zero.
 */
void irdma_build_manage_qhash(struct irdma_cqp_wqe *cmd,
			      const struct irdma_qhash_info *info,
			      enum irdma_cm_table_op op)
{
	bool conn = info->type == IRDMA_QHASH_TCP_ESTABLISHED;

	irdma_cmd_init(cmd, IRDMA_CQPOP_MANAGE_QUAD_HASH_TABLE_ENTRY);
	cmd->q[0] = FIELD_PREP(IRDMA_CQPSQ_QHASH_MAC, ether_addr_to_u64(info->mac));
	cmd->q[1] = FIELD_PREP(IRDMA_CQPSQ_QHASH_QPN, info->qp_id) |
		    FIELD_PREP(IRDMA_CQPSQ_QHASH_DEST_PORT, info->local_port);
	cmd->q[2] = FIELD_PREP(IRDMA_CQPSQ_QHASH_QS_HANDLE, info->qs_handle);
	if (info->vlan_valid)
		cmd->q[2] |= FIELD_PREP(IRDMA_CQPSQ_QHASH_VLANID, info->vlan);
	if (conn) {
		cmd->q[1] |= FIELD_PREP(IRDMA_CQPSQ_QHASH_SRC_PORT, info->remote_port);
		irdma_qhash_addr(&cmd->q[4], info->remote_ip);
	}
	irdma_qhash_addr(&cmd->q[6], info->local_ip);
	cmd->q[3] |= FIELD_PREP(IRDMA_CQPSQ_QHASH_MANAGE, op) |
		     FIELD_PREP(IRDMA_CQPSQ_QHASH_IPV4VALID, info->ipv4) |
		     FIELD_PREP(IRDMA_CQPSQ_QHASH_VLANVALID, info->vlan_valid) |
		     FIELD_PREP(IRDMA_CQPSQ_QHASH_ENTRYTYPE, info->type);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_build_manage_qhash);
