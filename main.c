// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Module entry: registers the front-ends of the LAN drivers this driver
 * serves. A front-end that is not built (its LAN driver is disabled)
 * registers nothing.
 */
#include <linux/module.h>

#include "verbs.h"

static int __init irdma_init_module(void)
{
	int err;

	err = irdma_register_notifiers();
	if (err)
		return err;

	err = irdma_i40e_register();
	if (err)
		goto err_i40e;

	err = irdma_ice_register();
	if (err)
		goto err_ice;

	err = irdma_sim_register();
	if (err)
		goto err_sim;
	return 0;

err_sim:
	irdma_ice_unregister();
err_ice:
	irdma_i40e_unregister();
err_i40e:
	irdma_unregister_notifiers();
	return err;
}

static void __exit irdma_exit_module(void)
{
	irdma_sim_unregister();
	irdma_ice_unregister();
	irdma_i40e_unregister();
	irdma_unregister_notifiers();
}

module_init(irdma_init_module);
module_exit(irdma_exit_module);

MODULE_DESCRIPTION("Intel(R) Ethernet Protocol Driver for RDMA");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_ALIAS("i40iw");
