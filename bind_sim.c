// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Front-end for irdma_sim's simulated E810 functions ("irdma_sim.roce.N",
 * "irdma_sim.iwarp.N"). It differs from the ice front-end only in where
 * the resources come from; everything after the hand-over is the path
 * silicon takes.
 */
#include <linux/auxiliary_bus.h>
#include <linux/vmalloc.h>

#include "main.h"
#include "sim/irdma_sim.h"

static void irdma_sim_fn_reset(struct irdma_fn *fn)
{
	struct irdma_sim_adev *sadev = fn->res.lan_priv;

	sadev->request_reset(sadev);
}

/* The simulated BAR is memory: map its pages as such. */
static bool irdma_sim_bar_pfn(struct irdma_fn *fn, u64 offset,
			      unsigned long *pfn)
{
	*pfn = vmalloc_to_pfn((void __force *)fn->res.hw_addr + offset);
	return true;
}

/* The simulated LAN side's queue sets and RDMA filter, as ice's. */
static int irdma_sim_fn_add_qset(struct irdma_fn *fn, u8 tc, u16 qs_handle,
				 u32 *teid)
{
	struct irdma_sim_adev *sadev = fn->res.lan_priv;

	return sadev->add_qset(sadev, qs_handle, tc, teid);
}

static void irdma_sim_fn_del_qset(struct irdma_fn *fn, u8 tc, u16 qs_handle,
				  u32 teid)
{
	struct irdma_sim_adev *sadev = fn->res.lan_priv;

	sadev->del_qset(sadev, teid);
}

static int irdma_sim_fn_rdma_filter(struct irdma_fn *fn, bool on)
{
	struct irdma_sim_adev *sadev = fn->res.lan_priv;

	sadev->rdma_filter(sadev, on);
	return 0;
}

static void irdma_sim_fn_get_qos(struct irdma_fn *fn, struct irdma_qos *qos)
{
	struct irdma_sim_adev *sadev = fn->res.lan_priv;
	struct irdma_sim_qos q;
	int i;

	sadev->get_qos(sadev, &q);
	memset(qos, 0, sizeof(*qos));
	qos->num_tc = min_t(u8, q.num_tc, IRDMA_MAX_UPS);
	for (i = 0; i < IRDMA_MAX_UPS; i++) {
		qos->up2tc[i] = q.up2tc[i] & (IRDMA_MAX_UPS - 1);
		qos->rel_bw[i] = q.rel_bw[i];
	}
}

static const struct irdma_fn_ops irdma_sim_ops = {
	.request_reset = irdma_sim_fn_reset,
	.bar_pfn = irdma_sim_bar_pfn,
	.add_qset = irdma_sim_fn_add_qset,
	.del_qset = irdma_sim_fn_del_qset,
	.rdma_filter = irdma_sim_fn_rdma_filter,
	.get_qos = irdma_sim_fn_get_qos,
};

static int irdma_sim_probe(struct auxiliary_device *adev,
			   const struct auxiliary_device_id *id)
{
	struct irdma_sim_adev *sadev =
		container_of(adev, struct irdma_sim_adev, adev);
	struct irdma_fn_res res = {
		.frontend = "sim",
		.gen = IRDMA_GEN_2,
		.protocol = sadev->roce ? IRDMA_PROTOCOL_ROCEV2 : IRDMA_PROTOCOL_IWARP,
		.dev = sadev->dma_dev,
		.hw_addr = sadev->hw_addr,
		.msix = sadev->msix,
		.msix_count = sadev->msix_count,
		.netdev = sadev->netdev,
		.pf_id = sadev->pf_id,
		.vendor_id = sadev->vendor_id,
		.device_id = sadev->device_id,
		.revision = sadev->revision,
		.vsi_num = sadev->vsi_num,
		.ops = &irdma_sim_ops,
		.lan_priv = sadev,
		.srq = sadev->srq,
		.push_pages = sadev->push_pages,
	};
	struct irdma_fn *fn;

	fn = irdma_fn_probe(&res);
	if (IS_ERR(fn))
		return PTR_ERR(fn);
	auxiliary_set_drvdata(adev, fn);
	return 0;
}

static void irdma_sim_remove(struct auxiliary_device *adev)
{
	irdma_fn_remove(auxiliary_get_drvdata(adev));
}

static const struct auxiliary_device_id irdma_sim_id_table[] = {
	{ .name = "irdma_sim." IRDMA_SIM_ROCE_NAME },
	{ .name = "irdma_sim." IRDMA_SIM_IWARP_NAME },
	{}
};
MODULE_DEVICE_TABLE(auxiliary, irdma_sim_id_table);

/* The simulated LAN side's events, as irdma_fn_event() takes them. */
static void irdma_sim_event_handler(struct irdma_sim_adev *sadev,
				    unsigned long type, u32 reg)
{
	static const struct {
		u8 sim;
		u32 event;
	} map[] = {
		{ IRDMA_SIM_EVENT_AFTER_MTU, IRDMA_EVENT_AFTER_MTU },
		{ IRDMA_SIM_EVENT_BEFORE_TC, IRDMA_EVENT_BEFORE_TC },
		{ IRDMA_SIM_EVENT_AFTER_TC, IRDMA_EVENT_AFTER_TC },
		{ IRDMA_SIM_EVENT_CRIT_ERR, IRDMA_EVENT_CRIT_ERR },
	};
	struct irdma_fn *fn = auxiliary_get_drvdata(&sadev->adev);
	u32 events = 0;
	int i;

	if (!fn)
		return;
	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (type & BIT(map[i].sim))
			events |= map[i].event;
	irdma_fn_event(fn, events, reg);
}

struct irdma_sim_aux_driver irdma_sim_frontend = {
	.adrv = {
		.name = "sim",
		.id_table = irdma_sim_id_table,
		.probe = irdma_sim_probe,
		.remove = irdma_sim_remove,
	},
	.event_handler = irdma_sim_event_handler,
};

