// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The i40e half of irdma_sim_ice: irdma.ko links against i40e's client
 * interface, so the personality provides it. The simulator has no X722,
 * so no "i40e.iwarp" device exists and nothing ever registers.
 */
#include "i40e.h"

/**
 * i40e_client_device_register - an RDMA driver claims an X722 function
 * @ldev: the function
 * @client: the driver
 *
 * There is no simulated X722: no function exists to claim.
 */
void i40e_client_device_register(struct i40e_info *ldev, struct i40e_client *client)
{
	dev_warn(&ldev->pcidev->dev, "no X722 in the simulator: %s not registered\n",
		 client->name);
}
EXPORT_SYMBOL_GPL(i40e_client_device_register);

/**
 * i40e_client_device_unregister - an RDMA driver lets go of an X722 function
 * @ldev: the function
 */
void i40e_client_device_unregister(struct i40e_info *ldev)
{
}
EXPORT_SYMBOL_GPL(i40e_client_device_unregister);
