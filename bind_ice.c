// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Front-end for E810 (GEN_2): binds to the RDMA auxiliary devices the ice
 * driver creates ("ice.roce.N", "ice.iwarp.N") through the IIDC interface.
 */
#include <linux/auxiliary_bus.h>
#include <linux/net/intel/iidc.h>

#include "ice.h"
#include "main.h"

static void irdma_ice_request_reset(struct irdma_fn *fn)
{
	ice_rdma_request_reset(fn->res.lan_priv, IIDC_PFR);
}

static bool irdma_ice_bar_pfn(struct irdma_fn *fn, u64 offset,
			      unsigned long *pfn)
{
	struct ice_pf *pf = fn->res.lan_priv;

	*pfn = (pci_resource_start(pf->pdev, 0) + offset) >> PAGE_SHIFT;
	return false;
}

/* ice links the queue set to a node of the port's transmit scheduler. */
static int irdma_ice_add_qset(struct irdma_fn *fn, u8 tc, u16 qs_handle,
			      u32 *teid)
{
	struct iidc_rdma_qset_params qset = {
		.qs_handle = qs_handle,
		.tc = tc,
		.vport_id = fn->res.vsi_num,
	};
	int err;

	err = ice_add_rdma_qset(fn->res.lan_priv, &qset);
	if (err)
		return err;
	*teid = qset.teid;
	return 0;
}

static void irdma_ice_del_qset(struct irdma_fn *fn, u8 tc, u16 qs_handle,
			       u32 teid)
{
	struct iidc_rdma_qset_params qset = {
		.teid = teid,
		.qs_handle = qs_handle,
		.tc = tc,
		.vport_id = fn->res.vsi_num,
	};

	ice_del_rdma_qset(fn->res.lan_priv, &qset);
}

/* ice sets the VSI's PE filter: RoCE packets go to the RDMA engine. */
static int irdma_ice_rdma_filter(struct irdma_fn *fn, bool on)
{
	return ice_rdma_update_vsi_filter(fn->res.lan_priv, fn->res.vsi_num, on);
}

/* ice's DCB state: what it fills, and zeros elsewhere. */
static void irdma_ice_get_qos(struct irdma_fn *fn, struct irdma_qos *qos)
{
	struct iidc_qos_params p = {};
	int i;

	ice_get_qos_params(fn->res.lan_priv, &p);
	memset(qos, 0, sizeof(*qos));
	qos->num_tc = min_t(u8, p.num_tc, IRDMA_MAX_UPS);
	for (i = 0; i < IRDMA_MAX_UPS; i++) {
		qos->up2tc[i] = p.up2tc[i] & (IRDMA_MAX_UPS - 1);
		if (i < qos->num_tc)
			qos->rel_bw[i] = p.tc_info[i].rel_bw;
	}
	qos->dscp = p.pfc_mode == IIDC_DSCP_PFC_MODE;
	if (qos->dscp)
		for (i = 0; i < IRDMA_DSCP_CODES; i++)
			qos->dscp_map[i] = p.dscp_map[i] & (IRDMA_MAX_UPS - 1);
}

static const struct irdma_fn_ops irdma_ice_ops = {
	.request_reset = irdma_ice_request_reset,
	.bar_pfn = irdma_ice_bar_pfn,
	.add_qset = irdma_ice_add_qset,
	.del_qset = irdma_ice_del_qset,
	.rdma_filter = irdma_ice_rdma_filter,
	.get_qos = irdma_ice_get_qos,
};

/* Push pages BAR0 has room for past 8 MiB, the last one's doorbell too. */
static u32 irdma_ice_push_pages(struct pci_dev *pdev)
{
	resource_size_t len = pci_resource_len(pdev, 0);

	if (len < IRDMA_PUSH_OFFSET + 2 * IRDMA_PUSH_PAGE_SIZE)
		return 0;
	return min_t(u64, (len - IRDMA_PUSH_OFFSET) / IRDMA_PUSH_PAGE_SIZE - 1,
		     IRDMA_MAX_PUSH_PAGES);
}

static int irdma_ice_probe(struct auxiliary_device *adev,
			   const struct auxiliary_device_id *id)
{
	struct iidc_auxiliary_dev *iadev =
		container_of(adev, struct iidc_auxiliary_dev, adev);
	struct ice_pf *pf = iadev->pf;
	struct ice_vsi *vsi = ice_get_main_vsi(pf);
	struct irdma_fn_res res = {
		.frontend = "ice",
		.gen = IRDMA_GEN_2,
		.dev = &pf->pdev->dev,
		.hw_addr = pf->hw.hw_addr,
		.msix = &pf->msix_entries[pf->rdma_base_vector],
		.msix_count = pf->num_rdma_msix,
		.pf_id = pf->hw.pf_id,
		.vendor_id = pf->pdev->vendor,
		.device_id = pf->pdev->device,
		.revision = pf->pdev->revision,
		.ops = &irdma_ice_ops,
		.lan_priv = pf,
	};
	struct irdma_fn *fn;

	if (!vsi || !vsi->netdev)
		return -EIO;
	res.netdev = vsi->netdev;
	res.vsi_num = vsi->vsi_num;
	res.protocol = pf->rdma_mode & IIDC_RDMA_PROTOCOL_ROCEV2 ?
		       IRDMA_PROTOCOL_ROCEV2 : IRDMA_PROTOCOL_IWARP;

	res.push_pages = irdma_ice_push_pages(pf->pdev);

	fn = irdma_fn_probe(&res);
	if (IS_ERR(fn))
		return PTR_ERR(fn);
	auxiliary_set_drvdata(adev, fn);
	return 0;
}

static void irdma_ice_remove(struct auxiliary_device *adev)
{
	irdma_fn_remove(auxiliary_get_drvdata(adev));
}

/* ice's events, as irdma_fn_event() takes them. */
static void irdma_ice_event_handler(struct ice_pf *pf, struct iidc_event *event)
{
	static const struct {
		u8 iidc;
		u32 event;
	} map[] = {
		{ IIDC_EVENT_AFTER_MTU_CHANGE, IRDMA_EVENT_AFTER_MTU },
		{ IIDC_EVENT_BEFORE_TC_CHANGE, IRDMA_EVENT_BEFORE_TC },
		{ IIDC_EVENT_AFTER_TC_CHANGE, IRDMA_EVENT_AFTER_TC },
		{ IIDC_EVENT_CRIT_ERR, IRDMA_EVENT_CRIT_ERR },
	};
	struct irdma_fn *fn = pf->adev ? auxiliary_get_drvdata(pf->adev) : NULL;
	u32 events = 0;
	int i;

	if (!fn)
		return;
	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (test_bit(map[i].iidc, event->type))
			events |= map[i].event;
	irdma_fn_event(fn, events, event->reg);
}

static const struct auxiliary_device_id irdma_ice_id_table[] = {
	{ .name = "ice.iwarp" },
	{ .name = "ice.roce" },
	{}
};
MODULE_DEVICE_TABLE(auxiliary, irdma_ice_id_table);

struct iidc_auxiliary_drv irdma_ice_frontend = {
	.adrv = {
		.id_table = irdma_ice_id_table,
		.probe = irdma_ice_probe,
		.remove = irdma_ice_remove,
	},
	.event_handler = irdma_ice_event_handler,
};

