// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim_ice: the simulator dressed as ice, so that an unmodified irdma
 * (Debian's stock irdma.ko, or ours through its ice front-end) drives a
 * simulated E810 through the very interface it uses on silicon: an
 * "ice.roce.N" (or "ice.iwarp.N") IIDC auxiliary device whose pf is a
 * struct ice_pf, and the functions ice exports to RDMA drivers.
 *
 * Each simulated function stands on a PCI function of the test VM: QEMU's
 * secondary-vga (1234:1111), whose 16 MiB BAR0 is plain memory. That BAR
 * becomes the simulated BAR0, so the register window the driver gets and
 * the doorbell page it maps for user space (BAR0 + 8 MiB - 64 KiB) are the
 * simulator's own; the PCI function takes on the E810's identity.
 *
 * It exports ice's and i40e's symbols: never load it beside ice or i40e.
 */
#include <linux/auxiliary_bus.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/net/intel/iidc.h>
#include <linux/pci.h>

#include "ice.h"
#include "irdma_sim.h"

#define ISIM_ICE_FIRST_ID	IRDMA_SIM_NATIVE_IDS
#define ISIM_ICE_LAST_ID		63

static bool iwarp;
module_param(iwarp, bool, 0444);
MODULE_PARM_DESC(iwarp, "Present the functions as iWARP (default RoCEv2)");

static DEFINE_IDA(isim_ice_ids);

/**
 * struct isim_ice_fn - one simulated function presented as ice's
 * @pf: what irdma takes for ice's PF
 * @pdev: the stand-in PCI function
 * @bar: its BAR0, the simulated register window
 * @id: the simulated function's number
 * @vsi: the PF's main VSI
 * @vsis: ice's VSI table, of one
 * @iadev: the IIDC auxiliary device, while plugged
 * @sim: the simulator's handle on the function, while plugged
 * @orig_vendor: the stand-in's own PCI vendor, given back on removal
 * @orig_device: its own PCI device id
 * @orig_revision: its own revision
 */
struct isim_ice_fn {
	struct ice_pf pf;
	struct pci_dev *pdev;
	void __iomem *bar;
	u32 id;
	struct ice_vsi vsi;
	struct ice_vsi *vsis[1];
	struct iidc_auxiliary_dev *iadev;
	void *sim;
	u16 orig_vendor;
	u16 orig_device;
	u8 orig_revision;
};

static struct isim_ice_fn *isim_ice_from_pf(struct ice_pf *pf)
{
	return container_of(pf, struct isim_ice_fn, pf);
}

/**
 * ice_add_rdma_qset - attach an RDMA queue set to the transmit scheduler
 * @pf: the PF
 * @qset: the queue set (its handle and traffic class); the scheduler
 *	node's TEID is filled in
 *
 * As ice: the PF's main VSI whatever @qset->vport_id says, and only a
 * traffic class the port has enabled.
 *
 * Return: 0, or -EINVAL for a bad request.
 */
int ice_add_rdma_qset(struct ice_pf *pf, struct iidc_rdma_qset_params *qset)
{
	u32 teid;
	int err;

	if (!pf || !qset)
		return -EINVAL;
	err = irdma_sim_qset_add(isim_ice_from_pf(pf)->sim, qset->qs_handle,
				 qset->tc, &teid);
	if (err)	/* a class not enabled, or no scheduler room: as ice */
		err = -EINVAL;
	else
		qset->teid = teid;
	irdma_sim_trace_ice(isim_ice_from_pf(pf)->id, __func__, qset->qs_handle,
			    qset->tc, qset->vport_id, err);
	return err;
}
EXPORT_SYMBOL_GPL(ice_add_rdma_qset);

/**
 * ice_del_rdma_qset - detach an RDMA queue set
 * @pf: the PF
 * @qset: the queue set, with the TEID ice_add_rdma_qset() gave and the
 *	VSI it was added for
 *
 * As ice: a TEID that names no node is ignored.
 *
 * Return: 0, or -EINVAL for a VSI the PF does not have.
 */
int ice_del_rdma_qset(struct ice_pf *pf, struct iidc_rdma_qset_params *qset)
{
	int err;

	if (!pf || !qset)
		return -EINVAL;
	err = qset->vport_id == isim_ice_from_pf(pf)->vsi.vsi_num ? 0 : -EINVAL;
	irdma_sim_trace_ice(isim_ice_from_pf(pf)->id, __func__, qset->qs_handle,
			    qset->tc, qset->vport_id, err);
	if (err)
		return err;
	irdma_sim_qset_del(isim_ice_from_pf(pf)->sim, qset->teid);
	return 0;
}
EXPORT_SYMBOL_GPL(ice_del_rdma_qset);

/**
 * ice_rdma_request_reset - the RDMA driver asks for a function reset
 * @pf: the PF
 * @reset_type: PF, CORE or GLOBAL reset
 *
 * Every kind resets the simulated function as ice would: unplug the RDMA
 * function, reset, plug it back.
 *
 * Return: 0, or -EINVAL.
 */
int ice_rdma_request_reset(struct ice_pf *pf, enum iidc_reset_type reset_type)
{
	if (!pf || reset_type > IIDC_GLOBR)
		return -EINVAL;
	irdma_sim_trace_ice(isim_ice_from_pf(pf)->id, __func__, reset_type, 0, 0,
			    0);
	irdma_sim_request_reset(isim_ice_from_pf(pf)->sim);
	return 0;
}
EXPORT_SYMBOL_GPL(ice_rdma_request_reset);

/**
 * ice_rdma_update_vsi_filter - steer RDMA traffic of a VSI to the engine
 * @pf: the PF
 * @vsi_id: the VSI's number
 * @enable: on or off
 *
 * Return: 0, or -EINVAL for a VSI the PF does not have.
 */
int ice_rdma_update_vsi_filter(struct ice_pf *pf, u16 vsi_id, bool enable)
{
	int err;

	if (!pf)
		return -EINVAL;
	err = vsi_id == isim_ice_from_pf(pf)->vsi.vsi_num ? 0 : -EINVAL;
	irdma_sim_trace_ice(isim_ice_from_pf(pf)->id, __func__, vsi_id, enable, 0,
			    err);
	if (err)
		return err;
	irdma_sim_rdma_filter(isim_ice_from_pf(pf)->sim, enable);
	return 0;
}
EXPORT_SYMBOL_GPL(ice_rdma_update_vsi_filter);

/**
 * ice_get_qos_params - the port's QoS: DCB off, one traffic class
 * @pf: the PF
 * @qos: filled in
 */
void ice_get_qos_params(struct ice_pf *pf, struct iidc_qos_params *qos)
{
	struct irdma_sim_qos q;
	int i;

	irdma_sim_get_qos(isim_ice_from_pf(pf)->sim, &q);
	memset(qos, 0, sizeof(*qos));
	qos->num_tc = q.num_tc;
	for (i = 0; i < IIDC_MAX_USER_PRIORITY; i++) {
		qos->up2tc[i] = q.up2tc[i];
		qos->tc_info[i].rel_bw = q.rel_bw[i];
	}
	irdma_sim_trace_ice(isim_ice_from_pf(pf)->id, __func__, q.num_tc, 0, 0,
			    0);
}
EXPORT_SYMBOL_GPL(ice_get_qos_params);

static void isim_ice_adev_release(struct device *dev)
{
	struct auxiliary_device *adev = to_auxiliary_dev(dev);

	kfree(container_of(adev, struct iidc_auxiliary_dev, adev));
}

/* Present the function: fill ice's PF and plug "ice.roce.N". */
static int isim_ice_plug(void *priv, const struct irdma_sim_res *res)
{
	struct isim_ice_fn *f = priv;
	struct iidc_auxiliary_dev *iadev;
	struct ice_pf *pf = &f->pf;
	int err;

	memset(pf, 0, sizeof(*pf));
	memset(&f->vsi, 0, sizeof(f->vsi));
	mutex_init(&pf->adev_mutex);
	f->sim = res->handle;
	pf->pdev = f->pdev;
	pf->hw.hw_addr = res->hw_addr;
	pf->hw.pf_id = PCI_FUNC(f->pdev->devfn);
	pf->msix_entries = res->msix;
	pf->rdma_base_vector = 0;
	pf->num_rdma_msix = res->msix_count;
	pf->rdma_mode = res->roce ? IIDC_RDMA_PROTOCOL_ROCEV2 :
				    IIDC_RDMA_PROTOCOL_IWARP;
	f->vsi.back = pf;
	f->vsi.type = ICE_VSI_PF;
	f->vsi.netdev = res->netdev;
	f->vsi.vsi_num = res->vsi_num;
	f->vsis[0] = &f->vsi;
	pf->vsi = f->vsis;
	pf->num_alloc_vsi = 1;

	iadev = kzalloc(sizeof(*iadev), GFP_KERNEL);
	if (!iadev)
		return -ENOMEM;
	iadev->pf = pf;
	iadev->adev.name = res->roce ? "roce" : "iwarp";
	iadev->adev.id = res->id;
	iadev->adev.dev.parent = &f->pdev->dev;
	iadev->adev.dev.release = isim_ice_adev_release;
	err = auxiliary_device_init(&iadev->adev);
	if (err) {
		kfree(iadev);
		return err;
	}
	/* Named as ice names it, whoever adds it. */
	err = __auxiliary_device_add(&iadev->adev, "ice");
	if (err) {
		auxiliary_device_uninit(&iadev->adev);
		return err;
	}
	f->iadev = iadev;
	mutex_lock(&pf->adev_mutex);
	pf->adev = &iadev->adev;
	mutex_unlock(&pf->adev_mutex);
	return 0;
}

static void isim_ice_unplug(void *priv)
{
	struct isim_ice_fn *f = priv;

	/* As ice: no event finds the device once it starts to go. */
	mutex_lock(&f->pf.adev_mutex);
	f->pf.adev = NULL;
	mutex_unlock(&f->pf.adev_mutex);
	auxiliary_device_delete(&f->iadev->adev);
	auxiliary_device_uninit(&f->iadev->adev);
	f->iadev = NULL;
}

/*
 * As ice_send_event_to_aux(): in task context, under the PF's adev_mutex
 * and the device's lock, to the iidc_auxiliary_drv bound, if it has a
 * handler.
 */
static void isim_ice_event(void *priv, unsigned long type, u32 reg)
{
	struct isim_ice_fn *f = priv;
	struct ice_pf *pf = &f->pf;
	struct iidc_auxiliary_drv *drv;
	struct iidc_event *event;

	BUILD_BUG_ON((int)IRDMA_SIM_EVENT_NBITS != (int)IIDC_EVENT_NBITS);
	BUILD_BUG_ON((int)IRDMA_SIM_EVENT_CRIT_ERR != (int)IIDC_EVENT_CRIT_ERR);
	BUILD_BUG_ON((int)IRDMA_SIM_EVENT_AFTER_TC != (int)IIDC_EVENT_AFTER_TC_CHANGE);
	if (WARN_ON_ONCE(!in_task()))
		return;
	event = kzalloc(sizeof(*event), GFP_KERNEL);
	if (!event)
		return;
	event->type[0] = type;	/* IIDC_EVENT_NBITS fit in one long */
	event->reg = reg;
	mutex_lock(&pf->adev_mutex);
	if (pf->adev) {
		device_lock(&pf->adev->dev);
		drv = pf->adev->dev.driver ?
		      container_of(pf->adev->dev.driver, struct iidc_auxiliary_drv,
				   adrv.driver) : NULL;
		if (drv && drv->event_handler)
			drv->event_handler(pf, event);
		device_unlock(&pf->adev->dev);
	}
	mutex_unlock(&pf->adev_mutex);
	kfree(event);
}

static const struct irdma_sim_front isim_ice_front = {
	.plug = isim_ice_plug,
	.unplug = isim_ice_unplug,
	.event = isim_ice_event,
};

static int isim_ice_probe(struct pci_dev *pdev, const struct pci_device_id *ent)
{
	struct isim_ice_fn *f;
	int err, id;

	if (pci_resource_len(pdev, 0) < IRDMA_SIM_BAR_SIZE)
		return -ENODEV;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->pdev = pdev;

	err = pci_enable_device_mem(pdev);
	if (err)
		goto err_free;
	err = pci_request_region(pdev, 0, KBUILD_MODNAME);
	if (err)
		goto err_disable;
	f->bar = pci_iomap(pdev, 0, IRDMA_SIM_BAR_SIZE);
	if (!f->bar) {
		err = -ENOMEM;
		goto err_region;
	}
	err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (err)
		goto err_unmap;
	pci_set_master(pdev);

	/* The stand-in answers as an E810-C for QSFP while it is one. */
	f->orig_vendor = pdev->vendor;
	f->orig_device = pdev->device;
	f->orig_revision = pdev->revision;
	pdev->vendor = IRDMA_SIM_VENDOR_ID;
	pdev->device = IRDMA_SIM_DEVICE_ID;
	pdev->revision = IRDMA_SIM_REVISION;

	id = ida_alloc_range(&isim_ice_ids, ISIM_ICE_FIRST_ID, ISIM_ICE_LAST_ID,
			     GFP_KERNEL);
	if (id < 0) {
		err = id;
		goto err_ident;
	}
	f->id = id;
	pci_set_drvdata(pdev, f);

	err = irdma_sim_add_fronted(id, !iwarp, f->bar, &isim_ice_front, f);
	if (err)
		goto err_id;
	dev_info(&pdev->dev, "simulated E810 function %u presented as ice\n", id);
	return 0;

err_id:
	ida_free(&isim_ice_ids, id);
err_ident:
	pdev->vendor = f->orig_vendor;
	pdev->device = f->orig_device;
	pdev->revision = f->orig_revision;
err_unmap:
	pci_iounmap(pdev, f->bar);
err_region:
	pci_release_region(pdev, 0);
err_disable:
	pci_disable_device(pdev);
err_free:
	kfree(f);
	return err;
}

static void isim_ice_remove(struct pci_dev *pdev)
{
	struct isim_ice_fn *f = pci_get_drvdata(pdev);

	irdma_sim_del(f->id);
	ida_free(&isim_ice_ids, f->id);
	pdev->vendor = f->orig_vendor;
	pdev->device = f->orig_device;
	pdev->revision = f->orig_revision;
	pci_iounmap(pdev, f->bar);
	pci_release_region(pdev, 0);
	pci_disable_device(pdev);
	kfree(f);
}

/* QEMU's secondary-vga: the test VM's stand-in PCI functions. */
static const struct pci_device_id isim_ice_pci_ids[] = {
	{ PCI_DEVICE_SUB(0x1234, 0x1111, PCI_ANY_ID, PCI_ANY_ID),
	  .class = PCI_CLASS_DISPLAY_OTHER << 8, .class_mask = 0xffff00 },
	{}
};
MODULE_DEVICE_TABLE(pci, isim_ice_pci_ids);

static struct pci_driver isim_ice_pci_driver = {
	.name = KBUILD_MODNAME,
	.id_table = isim_ice_pci_ids,
	.probe = isim_ice_probe,
	.remove = isim_ice_remove,
};
module_pci_driver(isim_ice_pci_driver);

MODULE_DESCRIPTION("irdma_sim presented as the ice driver's RDMA function");
MODULE_LICENSE("Dual BSD/GPL");
