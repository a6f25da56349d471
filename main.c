// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The life of an RDMA function, and the module's.
 *
 * A front-end (bind_*.c) finds a function on its LAN driver's auxiliary
 * bus, gathers its resources and hands them to irdma_fn_probe(), which
 * sets up the software tables, has hw.c bring the engine up, and makes the
 * function an ib_device (verbs.c). From then on ib_core owns the device:
 * irdma_fn_remove() unregisters it, and ib_core's dealloc_driver call
 * takes everything down through irdma_fn_teardown(), the one path that
 * also undoes a probe that failed half way.
 *
 * Calls go one way: the front-ends call up into this file, this file
 * calls down into the verbs layer and the hardware layer, and the hardware
 * layer calls up only through the event entry points main.h declares.
 */
#include <linux/auxiliary_bus.h>
#include <linux/module.h>
#include <linux/net/intel/iidc.h>

#include "verbs.h"
#include "sim/irdma_sim.h"

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
	/* The bring-up speaks the E810's registers; the X722's differ. */
	if (res->gen != IRDMA_GEN_2) {
		dev_err(res->dev, "GEN_%u (X722) RDMA functions are not supported yet\n",
			res->gen);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* What needs no memory: from here on irdma_fn_teardown() is safe. */
static void irdma_fn_init_tables(struct irdma_fn *fn)
{
	fn->hw = fn->res.hw_addr;
	fn->max_pd = IRDMA_MAX_PDS;
	fn->mtu = fn->res.netdev->mtu;
	spin_lock_init(&fn->orphan_lock);
	INIT_LIST_HEAD(&fn->orphan_list);
	xa_init_flags(&fn->cq_table, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&fn->qp_table, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&fn->srq_table, XA_FLAGS_ALLOC1);
	irdma_ws_init(fn);
	spin_lock_init(&fn->arp_lock);
	mutex_init(&fn->mcast_lock);
	INIT_LIST_HEAD(&fn->mcast_list);
	mutex_init(&fn->ah_lock);
	hash_init(fn->ah_hash);
	mutex_init(&fn->apbvt_lock);
	xa_init(&fn->apbvt);
	mutex_init(&fn->puda_lock);
}

static void irdma_fn_free_tables(struct irdma_fn *fn)
{
	irdma_ids_destroy(&fn->pd_ids);
	irdma_ids_destroy(&fn->mr_ids);
	irdma_ids_destroy(&fn->ah_ids);
	irdma_ids_destroy(&fn->mcast_ids);
	xa_destroy(&fn->cq_table);
	xa_destroy(&fn->qp_table);
	xa_destroy(&fn->srq_table);
	kfree(fn->arp);
	bitmap_free(fn->arp_used);
	fn->arp = NULL;
	fn->arp_used = NULL;
	irdma_ws_fini(fn);
	mutex_destroy(&fn->mcast_lock);
	mutex_destroy(&fn->ah_lock);
	xa_destroy(&fn->apbvt);
	mutex_destroy(&fn->apbvt_lock);
	mutex_destroy(&fn->puda_lock);
}

/* The software copy of the hardware's ARP table; entry 0 stays unused. */
static int irdma_fn_arp_alloc(struct irdma_fn *fn)
{
	fn->arp_size = fn->hmc.obj[IRDMA_HMC_ARP].cnt;
	if (!fn->arp_size)
		return 0;
	fn->arp = kcalloc(fn->arp_size, sizeof(*fn->arp), GFP_KERNEL);
	fn->arp_used = bitmap_zalloc(fn->arp_size, GFP_KERNEL);
	if (!fn->arp || !fn->arp_used)
		return -ENOMEM;
	set_bit(0, fn->arp_used);
	return 0;
}

/* The sets object numbers come from, sized by the HMC's counts. */
static int irdma_fn_ids_alloc(struct irdma_fn *fn)
{
	return irdma_ids_init(&fn->pd_ids, fn->max_pd) ?:
	       irdma_ids_init(&fn->mr_ids, fn->hmc.obj[IRDMA_HMC_MR].cnt) ?:
	       irdma_ids_init(&fn->ah_ids, fn->hmc.obj[IRDMA_HMC_FSIAV].cnt) ?:
	       irdma_ids_init(&fn->mcast_ids, IRDMA_MAX_MCAST_GRPS);
}

/*
 * Have the LAN driver steer RoCE packets to the engine, or leave them to
 * its LAN queues: on once the device is registered, off when ib_core lets
 * it go, its QPs and their queue sets gone. A refusal is reported and
 * otherwise changes nothing, as the stock driver ignores it.
 */
static void irdma_fn_rdma_filter(struct irdma_fn *fn, bool on)
{
	const struct irdma_fn_ops *ops = fn->res.ops;
	int err;

	if (!ops->rdma_filter || fn->rdma_filter == on)
		return;
	err = ops->rdma_filter(fn, on);
	if (err)
		dev_warn(fn->res.dev, "the LAN driver refused to turn RDMA filtering %s: %d\n",
			 on ? "on" : "off", err);
	else
		fn->rdma_filter = on;
}

/* Undo whatever irdma_fn_probe() got to, the hardware first. */
static void irdma_fn_teardown(struct irdma_fn *fn)
{
	irdma_fn_rdma_filter(fn, false);
	irdma_cm_fini(container_of(fn, struct irdma_device, fn));
	irdma_puda_teardown(fn);
	irdma_stats_fini(fn);
	irdma_hw_deinit(fn);
	irdma_fn_free_tables(fn);
}

/* ib_core is done with the device, or a probe failed before registering. */
static void irdma_fn_dealloc_driver(struct ib_device *ibdev)
{
	irdma_fn_teardown(&to_iwdev(ibdev)->fn);
}

static const struct ib_device_ops irdma_fn_life_ops = {
	.dealloc_driver = irdma_fn_dealloc_driver,
};

static int irdma_fn_setup(struct irdma_fn *fn)
{
	int err;

	irdma_fn_load_qos(fn);
	err = irdma_stats_init(fn) ?:
	      irdma_init_uk_attrs(fn->res.gen, &fn->uk_attrs) ?:
	      irdma_hw_init(fn);
	if (err)
		return err;
	irdma_srq_caps(fn);
	return irdma_fn_arp_alloc(fn) ?: irdma_fn_ids_alloc(fn) ?:
	       irdma_puda_setup(fn) ?:
	       irdma_cm_init(container_of(fn, struct irdma_device, fn));
}

/**
 * irdma_fn_probe - take over an RDMA function a front-end found
 * @res: the function's resources; copied, the caller keeps its own
 *
 * Brings the hardware up and registers the ib_device.
 *
 * Return: the function's state, or an ERR_PTR; on error the function is
 * left as it was found.
 */
struct irdma_fn *irdma_fn_probe(const struct irdma_fn_res *res)
{
	struct irdma_device *iwdev;
	struct irdma_fn *fn;
	int err;

	err = irdma_fn_check_res(res);
	if (err)
		return ERR_PTR(err);

	iwdev = ib_alloc_device(irdma_device, ibdev);
	if (!iwdev)
		return ERR_PTR(-ENOMEM);
	fn = &iwdev->fn;
	fn->res = *res;
	irdma_fn_init_tables(fn);
	/* From here on ib_dealloc_device() undoes what was done. */
	ib_set_device_ops(&iwdev->ibdev, &irdma_fn_life_ops);

	err = irdma_fn_setup(fn);
	if (err) {
		ib_dealloc_device(&iwdev->ibdev);
		return ERR_PTR(err);
	}
	/* On failure this has freed the device, hardware included. */
	err = irdma_ib_register_device(iwdev);
	if (err)
		return ERR_PTR(err);
	irdma_fn_rdma_filter(fn, true);

	ibdev_info(&iwdev->ibdev, "%s %s function %u: firmware %u.%u, %u QPs, %u CQs, %u MRs, netdev %s\n",
		   res->frontend, irdma_protocol_names[res->protocol], res->pf_id,
		   fn->fw_major, fn->fw_minor, fn->hmc.obj[IRDMA_HMC_QP].cnt,
		   fn->hmc.obj[IRDMA_HMC_CQ].cnt, fn->hmc.obj[IRDMA_HMC_MR].cnt,
		   netdev_name(res->netdev));
	return fn;
}

/**
 * irdma_fn_remove - release an RDMA function
 * @fn: state from irdma_fn_probe(); freed on return
 */
void irdma_fn_remove(struct irdma_fn *fn)
{
	irdma_ib_unregister_device(fn_to_iwdev(fn));
}

/*
 * The front-ends' auxiliary drivers, one per kind of LAN driver; one whose
 * LAN driver is not built is left out.
 */
static struct auxiliary_driver *const irdma_frontends[] = {
#if IS_ENABLED(CONFIG_I40E)
	&irdma_i40e_frontend,
#endif
#if IS_ENABLED(CONFIG_ICE)
	&irdma_ice_frontend.adrv,
#endif
#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_SIM)
	&irdma_sim_frontend.adrv,
#endif
};

static void irdma_unregister_frontends(unsigned int count)
{
	while (count--)
		auxiliary_driver_unregister(irdma_frontends[count]);
}

static int __init irdma_init_module(void)
{
	unsigned int i;
	int err;

	err = irdma_register_notifiers();
	if (err)
		return err;
	for (i = 0; i < ARRAY_SIZE(irdma_frontends); i++) {
		err = auxiliary_driver_register(irdma_frontends[i]);
		if (err)
			goto err_unregister;
	}
	return 0;

err_unregister:
	irdma_unregister_frontends(i);
	irdma_unregister_notifiers();
	return err;
}

static void __exit irdma_exit_module(void)
{
	irdma_unregister_frontends(ARRAY_SIZE(irdma_frontends));
	irdma_unregister_notifiers();
}

module_init(irdma_init_module);
module_exit(irdma_exit_module);

MODULE_DESCRIPTION("Intel(R) Ethernet Protocol Driver for RDMA");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_ALIAS("i40iw");
