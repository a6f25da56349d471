// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Front-end for X722 (GEN_1, iWARP): binds to the "i40e.iwarp.N" auxiliary
 * devices and registers as i40e's client; i40e then opens and closes the
 * function through the client callbacks.
 */
#include <linux/auxiliary_bus.h>
#include <linux/net/intel/i40e_client.h>

#include "main.h"

static struct i40e_client irdma_i40e_client;

static void irdma_i40e_request_reset(struct irdma_fn *fn)
{
	struct i40e_info *ldev = fn->res.lan_priv;

	ldev->ops->request_reset(ldev, &irdma_i40e_client,
				 I40E_CLIENT_RESET_LEVEL_PF);
}

static bool irdma_i40e_bar_pfn(struct irdma_fn *fn, u64 offset,
			       unsigned long *pfn)
{
	struct i40e_info *ldev = fn->res.lan_priv;

	*pfn = (pci_resource_start(ldev->pcidev, 0) + offset) >> PAGE_SHIFT;
	return false;
}

static const struct irdma_fn_ops irdma_i40e_ops = {
	.request_reset = irdma_i40e_request_reset,
	.bar_pfn = irdma_i40e_bar_pfn,
};

static int irdma_i40e_open(struct i40e_info *ldev, struct i40e_client *client)
{
	struct irdma_fn_res res = {
		.frontend = "i40e",
		.gen = IRDMA_GEN_1,
		.protocol = IRDMA_PROTOCOL_IWARP,
		.dev = &ldev->pcidev->dev,
		.hw_addr = ldev->hw_addr,
		.msix = ldev->msix_entries,
		.msix_count = ldev->msix_count,
		.netdev = ldev->netdev,
		.pf_id = ldev->fid,
		.vendor_id = ldev->pcidev->vendor,
		.device_id = ldev->pcidev->device,
		.revision = ldev->pcidev->revision,
		.ops = &irdma_i40e_ops,
		.lan_priv = ldev,
	};
	struct irdma_fn *fn;

	fn = irdma_fn_probe(&res);
	if (IS_ERR(fn))
		return PTR_ERR(fn);
	auxiliary_set_drvdata(ldev->aux_dev, fn);
	return 0;
}

static void irdma_i40e_close(struct i40e_info *ldev, struct i40e_client *client,
			     bool reset)
{
	struct irdma_fn *fn = auxiliary_get_drvdata(ldev->aux_dev);

	if (!fn)
		return;
	auxiliary_set_drvdata(ldev->aux_dev, NULL);
	irdma_fn_remove(fn);
}

static const struct i40e_client_ops irdma_i40e_client_ops = {
	.open = irdma_i40e_open,
	.close = irdma_i40e_close,
};

static struct i40e_client irdma_i40e_client = {
	.name = IRDMA_DRV_NAME,
	.ops = &irdma_i40e_client_ops,
	.type = I40E_CLIENT_IWARP,
};

static int irdma_i40e_probe(struct auxiliary_device *adev,
			    const struct auxiliary_device_id *id)
{
	struct i40e_auxiliary_device *i40e_adev =
		container_of(adev, struct i40e_auxiliary_device, aux_dev);

	i40e_client_device_register(i40e_adev->ldev, &irdma_i40e_client);
	return 0;
}

static void irdma_i40e_remove(struct auxiliary_device *adev)
{
	struct i40e_auxiliary_device *i40e_adev =
		container_of(adev, struct i40e_auxiliary_device, aux_dev);

	i40e_client_device_unregister(i40e_adev->ldev);
}

static const struct auxiliary_device_id irdma_i40e_id_table[] = {
	{ .name = "i40e.iwarp" },
	{}
};
MODULE_DEVICE_TABLE(auxiliary, irdma_i40e_id_table);

struct auxiliary_driver irdma_i40e_frontend = {
	.name = "gen_1",
	.id_table = irdma_i40e_id_table,
	.probe = irdma_i40e_probe,
	.remove = irdma_i40e_remove,
};

