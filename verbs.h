/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The ib_device verbs layer.
 */
#ifndef IRDMA_VERBS_H
#define IRDMA_VERBS_H

#include <rdma/ib_verbs.h>

#include "hwdefs.h"

enum ib_wc_status irdma_flush_err_to_ib_wc_status(enum irdma_flush_opcode opcode);
u16 irdma_get_mr_access(int access);

#endif /* IRDMA_VERBS_H */
