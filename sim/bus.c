// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim's bus, in netdevsim's style: simulated functions are created
 * and removed at run time through /sys/bus/irdma_sim/new_device and
 * del_device, and nr_devices of them exist from module load on.
 *
 *   echo "ID [roce|iwarp]" > /sys/bus/irdma_sim/new_device
 *   echo "ID roce srq" > /sys/bus/irdma_sim/new_device   (SRQ extension)
 *   echo "ID" > /sys/bus/irdma_sim/del_device
 */
#include <kunit/visibility.h>
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "sim.h"

static unsigned int nr_devices = 1;
module_param(nr_devices, uint, 0444);
MODULE_PARM_DESC(nr_devices, "Simulated E810 functions created at load (RoCEv2)");

static bool srq;
module_param(srq, bool, 0444);
MODULE_PARM_DESC(srq, "Functions created at load have the SRQ extension (shared receive queues, which the E810 lacks)");

static LIST_HEAD(isim_devs);
static DEFINE_MUTEX(isim_devs_lock);

static const struct bus_type isim_bus;

static void isim_dev_release(struct device *dev)
{
	kfree(to_isim_dev(dev));
}

static void isim_adev_release(struct device *dev)
{
	struct auxiliary_device *adev = to_auxiliary_dev(dev);

	kfree(container_of(adev, struct irdma_sim_adev, adev));
}

static void isim_request_reset(struct irdma_sim_adev *sadev)
{
	struct isim_dev *sdev = to_isim_dev(sadev->adev.dev.parent);

	dev_info(&sdev->dev, "function reset requested by the RDMA driver\n");
	isim_reset_schedule(sdev);
}

/*
 * The native front's LAN side: what ice does for an E810's RDMA function
 * (ice_add_rdma_qset, ice_del_rdma_qset, ice_rdma_update_vsi_filter),
 * offered as the auxiliary device's callbacks.
 */
static int isim_native_add_qset(struct irdma_sim_adev *sadev, u16 qs_handle,
				u8 tc, u32 *teid)
{
	return isim_qset_add(to_isim_dev(sadev->adev.dev.parent), qs_handle, tc, teid);
}

static void isim_native_del_qset(struct irdma_sim_adev *sadev, u32 teid)
{
	isim_qset_del(to_isim_dev(sadev->adev.dev.parent), teid);
}

static void isim_native_rdma_filter(struct irdma_sim_adev *sadev, bool on)
{
	irdma_sim_rdma_filter(to_isim_dev(sadev->adev.dev.parent), on);
}

static void isim_native_get_qos(struct irdma_sim_adev *sadev,
				struct irdma_sim_qos *qos)
{
	irdma_sim_get_qos(to_isim_dev(sadev->adev.dev.parent), qos);
}

/* The native front: an "irdma_sim.roce.N" auxiliary device. */
static int isim_native_plug(void *priv, const struct irdma_sim_res *res)
{
	struct isim_dev *sdev = priv;
	struct irdma_sim_adev *sadev;
	int err;

	sadev = kzalloc(sizeof(*sadev), GFP_KERNEL);
	if (!sadev)
		return -ENOMEM;

	sadev->dma_dev = &sdev->dev;
	sadev->hw_addr = res->hw_addr;
	sadev->msix = res->msix;
	sadev->msix_count = res->msix_count;
	sadev->netdev = res->netdev;
	sadev->pf_id = res->pf_id;
	sadev->vendor_id = IRDMA_SIM_VENDOR_ID;
	sadev->device_id = IRDMA_SIM_DEVICE_ID;
	sadev->revision = IRDMA_SIM_REVISION;
	sadev->vsi_num = res->vsi_num;
	sadev->roce = res->roce;
	sadev->srq = sdev->srq;
	sadev->push_pages = sdev->push_pages;
	sadev->request_reset = isim_request_reset;
	sadev->add_qset = isim_native_add_qset;
	sadev->del_qset = isim_native_del_qset;
	sadev->rdma_filter = isim_native_rdma_filter;
	sadev->get_qos = isim_native_get_qos;
	sadev->adev.name = res->roce ? IRDMA_SIM_ROCE_NAME : IRDMA_SIM_IWARP_NAME;
	sadev->adev.id = res->id;
	sadev->adev.dev.parent = &sdev->dev;
	sadev->adev.dev.release = isim_adev_release;

	err = auxiliary_device_init(&sadev->adev);
	if (err) {
		kfree(sadev);
		return err;
	}
	err = auxiliary_device_add(&sadev->adev);
	if (err) {
		auxiliary_device_uninit(&sadev->adev);
		return err;
	}
	sdev->sadev = sadev;
	return 0;
}

static void isim_native_unplug(void *priv)
{
	struct isim_dev *sdev = priv;

	auxiliary_device_delete(&sdev->sadev->adev);
	auxiliary_device_uninit(&sdev->sadev->adev);
	sdev->sadev = NULL;
}

/* The native front's events: to the bound irdma_sim_aux_driver, if any. */
static void isim_native_event(void *priv, unsigned long type, u32 reg)
{
	struct isim_dev *sdev = priv;
	struct device *dev = &sdev->sadev->adev.dev;
	struct irdma_sim_aux_driver *drv;

	device_lock(dev);
	if (dev->driver) {
		drv = container_of(to_auxiliary_drv(dev->driver),
				   struct irdma_sim_aux_driver, adrv);
		if (drv->event_handler)
			drv->event_handler(sdev->sadev, type, reg);
	}
	device_unlock(dev);
}

static const struct irdma_sim_front isim_native_front = {
	.plug = isim_native_plug,
	.unplug = isim_native_unplug,
	.event = isim_native_event,
};

static int isim_plug(struct isim_dev *sdev)
{
	struct irdma_sim_res res = {
		.id = sdev->id,
		.roce = sdev->roce,
		.hw_addr = sdev->regs,
		.msix = sdev->msix,
		.msix_count = ISIM_MSIX_COUNT,
		.netdev = sdev->netdev,
		.pf_id = sdev->id & 0x7,
		.vsi_num = sdev->id,
		.handle = sdev,
	};
	int err;

	mutex_lock(&sdev->front_lock);
	err = sdev->front->plug(sdev->front_priv, &res);
	if (!err)
		sdev->plugged = true;
	mutex_unlock(&sdev->front_lock);
	return err;
}

static void isim_unplug(struct isim_dev *sdev)
{
	mutex_lock(&sdev->front_lock);
	if (sdev->plugged) {
		sdev->front->unplug(sdev->front_priv);
		sdev->plugged = false;
	}
	mutex_unlock(&sdev->front_lock);
}

/*
 * A function reset as the LAN driver performs it: the RDMA function is
 * unplugged (its driver lets go), the engine's state and registers are
 * reset, and the function is plugged back in.
 */
static void isim_reset_work(struct work_struct *work)
{
	struct isim_dev *sdev = container_of(work, struct isim_dev, reset_work);
	int err;

	isim_unplug(sdev);
	sdev->stats.resets++;
	/* The LAN driver rebuilds its scheduler and VSIs: nothing attached. */
	isim_lan_reset(sdev);
	isim_engine_stop(sdev);
	isim_cqp_destroy(sdev);
	isim_regs_reset(sdev);
	memset(sdev->vec, 0, sizeof(sdev->vec));
	err = isim_engine_start(sdev);
	if (!err)
		err = isim_plug(sdev);
	if (err)
		dev_err(&sdev->dev, "function did not come back from reset: %d\n", err);
	else
		dev_info(&sdev->dev, "function reset\n");
}

/**
 * isim_reset_schedule - reset the function soon, from a worker
 * @sdev: the simulated function
 */
void isim_reset_schedule(struct isim_dev *sdev)
{
	if (!READ_ONCE(sdev->dying))
		schedule_work(&sdev->reset_work);
}

/**
 * irdma_sim_request_reset - a function's driver asks for a reset
 * @handle: the function, as its front received it at plug time
 *
 * Takes no lock: it may be called from the driver's probe or remove,
 * which run while the simulator holds its own.
 */
void irdma_sim_request_reset(void *handle)
{
	struct isim_dev *sdev = handle;

	dev_info(&sdev->dev, "function reset requested by its driver\n");
	isim_reset_schedule(sdev);
}
EXPORT_SYMBOL_GPL(irdma_sim_request_reset);

static struct isim_dev *isim_dev_find(u32 id)
{
	struct isim_dev *sdev;

	list_for_each_entry(sdev, &isim_devs, list)
		if (sdev->id == id)
			return sdev;
	return NULL;
}

static int isim_dev_create(u32 id, bool roce, bool srq, void __iomem *regs,
			   const struct irdma_sim_front *front, void *front_priv)
{
	struct isim_dev *sdev;
	int err;

	if (id >= ISIM_MAX_DEVICES)
		return -ERANGE;
	if (isim_dev_find(id))
		return -EEXIST;

	sdev = kzalloc(sizeof(*sdev), GFP_KERNEL);
	if (!sdev)
		return -ENOMEM;
	sdev->id = id;
	sdev->roce = roce;
	sdev->srq = srq;
	/*
	 * Silicon may start a function's FPM space past segment 0, as the
	 * query reports; odd-numbered native functions do, so that drivers
	 * meet that case. Those ice presents keep silicon's PF layout.
	 */
	sdev->first_sd = !front && (id & 1) ? ISIM_FIRST_SD_ODD : 0;
	sdev->front = front ? front : &isim_native_front;
	sdev->front_priv = front ? front_priv : sdev;
	xa_init(&sdev->cqs);
	xa_init(&sdev->qps);
	xa_init(&sdev->srqs);
	xa_init(&sdev->mrs);
	xa_init(&sdev->mgs);
	INIT_LIST_HEAD(&sdev->peer);
	INIT_WORK(&sdev->reset_work, isim_reset_work);
	INIT_WORK(&sdev->faults.hold, isim_engine_hold);
	init_completion(&sdev->faults.hold_taken);
	isim_event_init(sdev);
	isim_lan_init(sdev);
	skb_queue_head_init(&sdev->steer.rxq);
	spin_lock_init(&sdev->faults.ae_lock);
	spin_lock_init(&sdev->cqp_lock);
	spin_lock_init(&sdev->eq_lock);
	isim_doorbell_init(sdev);
	INIT_KFIFO(sdev->faults.aes);
	sdev->faults.fail_count = 1;
	sdev->faults.fail_op = -1;
	sdev->faults.delay_op = -1;

	device_initialize(&sdev->dev);
	sdev->dev.bus = &isim_bus;
	sdev->dev.release = isim_dev_release;
	sdev->dev.dma_mask = &sdev->dev.coherent_dma_mask;
	sdev->dev.dma_parms = &sdev->dma_parms;
	err = dev_set_name(&sdev->dev, ISIM_DRV_NAME "%u", id);
	if (err)
		goto err_put;
	err = dma_set_mask_and_coherent(&sdev->dev, DMA_BIT_MASK(64));
	if (err)
		goto err_put;
	err = device_add(&sdev->dev);
	if (err)
		goto err_put;

	if (regs) {
		sdev->regs = regs;
	} else {
		void *mem = vzalloc(IRDMA_SIM_NATIVE_BAR_SIZE);

		if (!mem) {
			err = -ENOMEM;
			goto err_del;
		}
		/* Plain memory standing in for BAR0. */
		sdev->regs = (void __iomem __force *)mem;
		sdev->own_regs = true;
		sdev->push_pages = IRDMA_SIM_PUSH_PAGES;
	}
	isim_regs_reset(sdev);
	err = isim_ahs_alloc(sdev);
	if (err)
		goto err_regs;
	isim_userdb_tidy();
	isim_doorbell_arm(sdev);

	err = isim_irqs_alloc(sdev);
	if (err)
		goto err_ahs;
	err = isim_netdev_create(sdev);
	if (err)
		goto err_irqs;
	err = isim_engine_start(sdev);
	if (err)
		goto err_netdev;
	isim_userdb_add(sdev);
	err = isim_plug(sdev);
	if (err)
		goto err_aux;
	isim_debugfs_add(sdev);

	list_add_tail(&sdev->list, &isim_devs);
	isim_peer_add(sdev);
	dev_info(&sdev->dev, "simulated E810 function %u (%s), netdev %s\n", id,
		 roce ? "RoCEv2" : "iWARP", netdev_name(sdev->netdev));
	return 0;

err_aux:
	isim_userdb_del(sdev);
	sdev->dying = true;
	cancel_work_sync(&sdev->reset_work);
	cancel_work_sync(&sdev->faults.hold);
	isim_engine_stop(sdev);
err_netdev:
	isim_netdev_destroy(sdev);
	cancel_work_sync(&sdev->mtu_work);
err_irqs:
	isim_irqs_free(sdev);
err_ahs:
	isim_doorbell_disarm(sdev);
	isim_ahs_free(sdev);
err_regs:
	if (sdev->own_regs)
		vfree((void __force *)sdev->regs);
err_del:
	device_del(&sdev->dev);
err_put:
	put_device(&sdev->dev);
	return err;
}

static void isim_dev_destroy(struct isim_dev *sdev)
{
	list_del(&sdev->list);
	isim_peer_del(sdev);
	isim_debugfs_del(sdev);
	/* No reset from here on; one under way finishes first. */
	WRITE_ONCE(sdev->dying, true);
	cancel_work_sync(&sdev->reset_work);
	/* The knob is gone: a hold under way ends in its time. */
	flush_work(&sdev->faults.hold);
	/* The driver lets go of the function, then the engine stops. */
	isim_unplug(sdev);
	isim_userdb_del(sdev);
	isim_engine_stop(sdev);
	isim_doorbell_disarm(sdev);
	isim_cqp_destroy(sdev);
	isim_netdev_destroy(sdev);
	/* After the netdev: no MTU change can schedule it again. */
	cancel_work_sync(&sdev->mtu_work);
	isim_irqs_free(sdev);
	isim_ahs_free(sdev);
	if (sdev->own_regs)
		vfree((void __force *)sdev->regs);
	device_unregister(&sdev->dev);
}

/**
 * irdma_sim_add - create a simulated function
 * @id: its number
 * @roce: RoCEv2 personality (else iWARP)
 *
 * Return: 0, -EEXIST, -ERANGE or another negative errno.
 */
int irdma_sim_add(u32 id, bool roce)
{
	return irdma_sim_add_fronted(id, roce, NULL, NULL, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_sim_add);

/**
 * irdma_sim_add_srq - create a RoCEv2 function with the SRQ extension
 * @id: its number
 *
 * The function's engine has shared receive queues, in the formats of the
 * generation that introduced them; the E810 itself has none.
 *
 * Return: 0, -EEXIST, -ERANGE or another negative errno.
 */
int irdma_sim_add_srq(u32 id)
{
	int err;

	mutex_lock(&isim_devs_lock);
	err = isim_dev_create(id, true, true, NULL, NULL, NULL);
	mutex_unlock(&isim_devs_lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_sim_add_srq);

/**
 * irdma_sim_add_fronted - create a simulated function another module presents
 * @id: its number
 * @roce: RoCEv2 personality (else iWARP)
 * @regs: the register window to use (a PCI BAR), or NULL for one of its own
 * @front: how the function is presented to a driver, or NULL for the
 *	simulator's own auxiliary device
 * @priv: the front's context
 *
 * Return: 0, -EEXIST, -ERANGE or another negative errno.
 */
int irdma_sim_add_fronted(u32 id, bool roce, void __iomem *regs,
			  const struct irdma_sim_front *front, void *priv)
{
	int err;

	mutex_lock(&isim_devs_lock);
	err = isim_dev_create(id, roce, false, regs, front, priv);
	mutex_unlock(&isim_devs_lock);
	return err;
}
EXPORT_SYMBOL_GPL(irdma_sim_add_fronted);

/**
 * irdma_sim_del - remove a simulated function
 * @id: its number
 *
 * Return: 0 or -ENOENT.
 */
int irdma_sim_del(u32 id)
{
	struct isim_dev *sdev;

	mutex_lock(&isim_devs_lock);
	sdev = isim_dev_find(id);
	if (sdev)
		isim_dev_destroy(sdev);
	mutex_unlock(&isim_devs_lock);
	return sdev ? 0 : -ENOENT;
}
EXPORT_SYMBOL_GPL(irdma_sim_del);

/**
 * irdma_sim_adev - the auxiliary device of a simulated function
 * @id: its number
 *
 * Return: the device with a reference the caller drops with put_device(),
 * or NULL.
 */
struct auxiliary_device *irdma_sim_adev(u32 id)
{
	struct auxiliary_device *adev = NULL;
	struct isim_dev *sdev;

	mutex_lock(&isim_devs_lock);
	sdev = isim_dev_find(id);
	if (sdev && sdev->sadev) {
		adev = &sdev->sadev->adev;
		get_device(&adev->dev);
	}
	mutex_unlock(&isim_devs_lock);
	return adev;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_sim_adev);

/**
 * irdma_sim_fail_cqp_op - fail the next executions of a CQP opcode
 * @id: the function's number
 * @opcode: the opcode
 * @count: how many times
 */
void irdma_sim_fail_cqp_op(u32 id, u8 opcode, u32 count)
{
	struct isim_dev *sdev;

	mutex_lock(&isim_devs_lock);
	sdev = isim_dev_find(id);
	if (sdev) {
		WRITE_ONCE(sdev->faults.fail_count, count);
		WRITE_ONCE(sdev->faults.fail_op, opcode);
	}
	mutex_unlock(&isim_devs_lock);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_sim_fail_cqp_op);

/**
 * irdma_sim_send_event - the LAN side sends the function's driver an event
 * @id: the function's number
 * @type: enum irdma_sim_event_type bits
 * @reg: for a critical error, the OICR
 *
 * Return: 0 once the driver's handler returned, or -ENODEV.
 */
int irdma_sim_send_event(u32 id, unsigned long type, u32 reg)
{
	struct isim_dev *sdev;

	mutex_lock(&isim_devs_lock);
	sdev = isim_dev_find(id);
	if (sdev)
		isim_event_send(sdev, type, reg);
	mutex_unlock(&isim_devs_lock);
	return sdev ? 0 : -ENODEV;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_sim_send_event);

/**
 * irdma_sim_set_qos - configure the port's traffic classes (DCB)
 * @id: the function's number
 * @qos: the classes
 *
 * Return: as isim_qos_set(), or -ENODEV.
 */
int irdma_sim_set_qos(u32 id, const struct irdma_sim_qos *qos)
{
	struct isim_dev *sdev;
	int err = -ENODEV;

	mutex_lock(&isim_devs_lock);
	sdev = isim_dev_find(id);
	if (sdev)
		err = isim_qos_set(sdev, qos);
	mutex_unlock(&isim_devs_lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_sim_set_qos);

static ssize_t new_device_store(const struct bus_type *bus, const char *buf,
				size_t count)
{
	char kind[8] = "roce", ext[8] = "";
	unsigned int id;
	int err, n;

	n = sscanf(buf, "%u %7s %7s", &id, kind, ext);
	if (n < 1)
		return -EINVAL;
	if (strcmp(kind, "roce") && strcmp(kind, "iwarp"))
		return -EINVAL;
	/* "srq": the SRQ extension, RoCEv2 only */
	if (n == 3 && (strcmp(ext, "srq") || strcmp(kind, "roce")))
		return -EINVAL;
	if (id >= IRDMA_SIM_NATIVE_IDS)
		return -ERANGE;

	if (n == 3)
		err = irdma_sim_add_srq(id);
	else
		err = irdma_sim_add(id, !strcmp(kind, "roce"));
	return err ? err : count;
}
static BUS_ATTR_WO(new_device);

static ssize_t del_device_store(const struct bus_type *bus, const char *buf,
				size_t count)
{
	unsigned int id;
	int err;

	if (kstrtouint(buf, 0, &id))
		return -EINVAL;
	if (id >= IRDMA_SIM_NATIVE_IDS)
		return -ERANGE;
	err = irdma_sim_del(id);
	return err ? err : count;
}
static BUS_ATTR_WO(del_device);

static struct attribute *isim_bus_attrs[] = {
	&bus_attr_new_device.attr,
	&bus_attr_del_device.attr,
	NULL
};
ATTRIBUTE_GROUPS(isim_bus);

static const struct bus_type isim_bus = {
	.name = ISIM_DRV_NAME,
	.bus_groups = isim_bus_groups,
};

static void isim_destroy_all(void)
{
	struct isim_dev *sdev, *tmp;

	mutex_lock(&isim_devs_lock);
	list_for_each_entry_safe_reverse(sdev, tmp, &isim_devs, list)
		isim_dev_destroy(sdev);
	mutex_unlock(&isim_devs_lock);
}

static int __init isim_init(void)
{
	unsigned int i;
	int err;

	err = bus_register(&isim_bus);
	if (err)
		return err;
	isim_debugfs_init();
	isim_userdb_init();

	mutex_lock(&isim_devs_lock);
	for (i = 0; i < nr_devices && !err; i++)
		err = isim_dev_create(i, true, srq, NULL, NULL, NULL);
	mutex_unlock(&isim_devs_lock);
	if (err) {
		isim_destroy_all();
		isim_userdb_exit();
		isim_debugfs_exit();
		bus_unregister(&isim_bus);
	}
	return err;
}

static void __exit isim_exit(void)
{
	isim_destroy_all();
	isim_userdb_exit();
	isim_debugfs_exit();
	bus_unregister(&isim_bus);
}

module_init(isim_init);
module_exit(isim_exit);

MODULE_DESCRIPTION("Functional model of the Intel(R) E810 RDMA engine");
MODULE_LICENSE("Dual BSD/GPL");
/* For the probe that watches user space's doorbells (userdb.c). */
MODULE_SOFTDEP("pre: ib_core");
