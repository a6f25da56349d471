// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The ib_device verbs layer: translates between ib_core's view of
 * resources and work and the hardware's.
 */
#include "verbs.h"

/**
 * irdma_flush_err_to_ib_wc_status - completion status for a CQE minor code
 * @opcode: the minor error code of a failed or flushed CQE
 *
 * Return: the ib_wc status the consumer sees; unknown codes are fatal.
 */
enum ib_wc_status irdma_flush_err_to_ib_wc_status(enum irdma_flush_opcode opcode)
{
	static const enum ib_wc_status status[] = {
		[FLUSH_GENERAL_ERR] = IB_WC_WR_FLUSH_ERR,
		[FLUSH_PROT_ERR] = IB_WC_LOC_PROT_ERR,
		[FLUSH_REM_ACCESS_ERR] = IB_WC_REM_ACCESS_ERR,
		[FLUSH_LOC_QP_OP_ERR] = IB_WC_LOC_QP_OP_ERR,
		[FLUSH_REM_OP_ERR] = IB_WC_REM_OP_ERR,
		[FLUSH_LOC_LEN_ERR] = IB_WC_LOC_LEN_ERR,
		[FLUSH_FATAL_ERR] = IB_WC_FATAL_ERR,
		[FLUSH_RETRY_EXC_ERR] = IB_WC_RETRY_EXC_ERR,
		[FLUSH_MW_BIND_ERR] = IB_WC_MW_BIND_ERR,
		[FLUSH_REM_INV_REQ_ERR] = IB_WC_REM_INV_REQ_ERR,
	};

	if (opcode == FLUSH_INVALID || opcode >= ARRAY_SIZE(status))
		return IB_WC_FATAL_ERR;
	return status[opcode];
}

/**
 * irdma_get_mr_access - hardware access rights for ib_core access flags
 * @access: IB_ACCESS_* and IB_ZERO_BASED flags
 *
 * Local read is always granted; remote rights imply the local ones the
 * hardware's encoding bundles with them.
 *
 * Return: the IRDMA_ACCESS_FLAGS_* value for a memory region or window.
 */
u16 irdma_get_mr_access(int access)
{
	u16 rights = IRDMA_ACCESS_FLAGS_LOCALREAD;

	if (access & IB_ACCESS_LOCAL_WRITE)
		rights |= IRDMA_ACCESS_FLAGS_LOCALWRITE;
	if (access & IB_ACCESS_REMOTE_WRITE)
		rights |= IRDMA_ACCESS_FLAGS_REMOTEWRITE;
	if (access & IB_ACCESS_REMOTE_READ)
		rights |= IRDMA_ACCESS_FLAGS_REMOTEREAD;
	if (access & IB_ACCESS_MW_BIND)
		rights |= IRDMA_ACCESS_FLAGS_BIND_WINDOW;
	if (access & IB_ZERO_BASED)
		rights |= IRDMA_ACCESS_FLAGS_ZERO_BASED;
	return rights;
}
