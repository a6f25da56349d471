// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The connection manager's use of the steering tables (ctrl_cm.c builds
 * the commands). A local port may serve several listeners and
 * connections at once: the hardware's bit for it is set by the first
 * user and cleared after the last, counted here per port.
 */
#include <kunit/visibility.h>

#include "main.h"

/**
 * irdma_apbvt_get - make a local TCP port the engine's
 * @fn: the function
 * @port: the port, host order
 *
 * Context: process context; sleeps.
 * Return: 0, or the CQP's error (the port is not taken then).
 */
int irdma_apbvt_get(struct irdma_fn *fn, u16 port)
{
	struct irdma_cqp_wqe cmd;
	unsigned long users;
	int err = 0;

	mutex_lock(&fn->apbvt_lock);
	users = xa_to_value(xa_load(&fn->apbvt, port) ?: xa_mk_value(0));
	if (!users) {
		irdma_build_manage_apbvt(&cmd, port, IRDMA_CM_TABLE_ADD);
		err = irdma_cqp_exec(fn, &cmd, NULL);
		if (err)
			goto out;
	}
	err = xa_err(xa_store(&fn->apbvt, port, xa_mk_value(users + 1),
			      GFP_KERNEL));
	if (err && !users) {
		irdma_build_manage_apbvt(&cmd, port, IRDMA_CM_TABLE_DELETE);
		irdma_cqp_exec(fn, &cmd, NULL);
	}
out:
	mutex_unlock(&fn->apbvt_lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_apbvt_get);

/**
 * irdma_apbvt_put - a user of a local TCP port lets go of it
 * @fn: the function
 * @port: the port, as given to irdma_apbvt_get()
 *
 * Context: process context; sleeps.
 */
void irdma_apbvt_put(struct irdma_fn *fn, u16 port)
{
	struct irdma_cqp_wqe cmd;
	unsigned long users;

	mutex_lock(&fn->apbvt_lock);
	users = xa_to_value(xa_load(&fn->apbvt, port) ?: xa_mk_value(0));
	if (users > 1) {
		/* Replacing an entry allocates nothing. */
		xa_store(&fn->apbvt, port, xa_mk_value(users - 1), GFP_KERNEL);
	} else if (users == 1) {
		xa_erase(&fn->apbvt, port);
		irdma_build_manage_apbvt(&cmd, port, IRDMA_CM_TABLE_DELETE);
		if (irdma_cqp_exec(fn, &cmd, NULL))
			dev_warn(fn->res.dev, "port %u left in the APBVT\n", port);
	}
	mutex_unlock(&fn->apbvt_lock);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_apbvt_put);

/**
 * irdma_qhash_manage - add or delete a quad-hash entry
 * @fn: the function
 * @info: the entry
 * @op: %IRDMA_CM_TABLE_ADD or %IRDMA_CM_TABLE_DELETE
 *
 * Context: process context; sleeps.
 * Return: 0, or the CQP's error.
 */
int irdma_qhash_manage(struct irdma_fn *fn, const struct irdma_qhash_info *info,
		       enum irdma_cm_table_op op)
{
	struct irdma_cqp_wqe cmd;

	irdma_build_manage_qhash(&cmd, info, op);
	return irdma_cqp_exec(fn, &cmd, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_qhash_manage);
