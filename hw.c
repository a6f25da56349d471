// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Bring-up and teardown of an RDMA function, whichever front-end found it.
 */
#include <linux/slab.h>

#include "main.h"

static const char *const irdma_protocol_names[] = {
	[IRDMA_PROTOCOL_IWARP] = "iWARP",
	[IRDMA_PROTOCOL_ROCEV2] = "RoCEv2",
};

static int irdma_fn_check_res(const struct irdma_fn_res *res)
{
	if (!res->dev || !res->netdev)
		return -ENODEV;
	if (!res->hw_addr) {
		dev_err(res->dev, "no register window\n");
		return -ENODEV;
	}
	if (!res->msix || res->msix_count < IRDMA_MIN_MSIX) {
		dev_err(res->dev, "%u MSI-X vectors for RDMA, need %u\n",
			res->msix_count, IRDMA_MIN_MSIX);
		return -ENOSPC;
	}
	if (res->gen == IRDMA_GEN_1 && res->protocol != IRDMA_PROTOCOL_IWARP)
		return -EOPNOTSUPP;
	return 0;
}

/**
 * irdma_fn_probe - take over an RDMA function a front-end found
 * @res: the function's resources; copied, the caller keeps its own
 *
 * Return: the function's state, or an ERR_PTR.
 */
struct irdma_fn *irdma_fn_probe(const struct irdma_fn_res *res)
{
	struct irdma_fn *fn;
	int err;

	err = irdma_fn_check_res(res);
	if (err)
		return ERR_PTR(err);

	fn = kzalloc(sizeof(*fn), GFP_KERNEL);
	if (!fn)
		return ERR_PTR(-ENOMEM);

	fn->res = *res;
	err = irdma_init_uk_attrs(res->gen, &fn->uk_attrs);
	if (err) {
		kfree(fn);
		return ERR_PTR(err);
	}

	dev_info(res->dev, "%s: bound %s function %u (GEN_%u), netdev %s, %u MSI-X vectors\n",
		 res->frontend, irdma_protocol_names[res->protocol], res->pf_id,
		 res->gen, netdev_name(res->netdev), res->msix_count);
	return fn;
}

/**
 * irdma_fn_remove - release an RDMA function
 * @fn: state from irdma_fn_probe()
 */
void irdma_fn_remove(struct irdma_fn *fn)
{
	dev_info(fn->res.dev, "%s: released function %u\n", fn->res.frontend,
		 fn->res.pf_id);
	kfree(fn);
}
