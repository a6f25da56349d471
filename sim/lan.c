// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the LAN driver does for the RDMA engine, as the engine sees it.
 *
 * On an E810 the RDMA engine transmits only through queue sets that ice
 * attached to the port's transmit scheduler (ice_add_rdma_qset: an admin
 * queue command that links the qset to a scheduler node and hands back
 * that node's TEID), and RoCE packets reach the engine only while ice
 * has set the VSI's RDMA filter (the PE filter flag of the VSI context).
 * A driver that forgets either gets a function that comes up and then
 * moves nothing. The simulator keeps the same two facts: an SQ whose
 * context names a queue set nobody attached does not run, and a packet
 * for a function whose filter is off never reaches its engine.
 *
 * Both fronts reach this through their LAN side: the ice personality
 * from ice's exported functions, the native front through its
 * auxiliary device's callbacks.
 */
#include <kunit/visibility.h>

#include "sim.h"

/* TEIDs the simulated firmware gives scheduler nodes: any 32-bit value. */
#define ISIM_QSET_TEID_BASE	0x0c000200

/**
 * isim_qset_add - attach a queue set to the transmit scheduler
 * @sdev: the simulated function
 * @qs_handle: the queue set, as WORK_SCHED_NODE returned it
 * @tc: its traffic class, one the port has enabled
 * @teid: the scheduler node's id, for isim_qset_del()
 *
 * Return: 0; -EINVAL for a traffic class the port has not enabled or a
 * handle out of range, -ENOSPC when every slot is taken.
 */
int isim_qset_add(struct isim_dev *sdev, u16 qs_handle, u8 tc, u32 *teid)
{
	struct isim_lan *lan = &sdev->lan;
	int i, err = -ENOSPC;

	if (qs_handle >= ISIM_QSET_HANDLES)
		return -EINVAL;
	spin_lock(&lan->lock);
	if (tc >= lan->qos.num_tc) {
		spin_unlock(&lan->lock);
		return -EINVAL;
	}
	for (i = 0; i < ISIM_MAX_QSETS; i++) {
		if (lan->qset[i].teid)
			continue;
		lan->qset[i].teid = ISIM_QSET_TEID_BASE + lan->teids++;
		lan->qset[i].qs_handle = qs_handle;
		lan->qset[i].tc = tc;
		*teid = lan->qset[i].teid;
		set_bit(qs_handle, lan->live);
		err = 0;
		break;
	}
	spin_unlock(&lan->lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(isim_qset_add);

/* Is a queue set with @qs_handle attached? (lock held) */
static bool isim_qset_attached(struct isim_lan *lan, u16 qs_handle)
{
	int i;

	for (i = 0; i < ISIM_MAX_QSETS; i++)
		if (lan->qset[i].teid && lan->qset[i].qs_handle == qs_handle)
			return true;
	return false;
}

/**
 * isim_qset_del - detach the queue set of a scheduler node
 * @sdev: the simulated function
 * @teid: the node, as isim_qset_add() gave it
 *
 * A TEID that names no node is ignored, as ice ignores it.
 */
void isim_qset_del(struct isim_dev *sdev, u32 teid)
{
	struct isim_lan *lan = &sdev->lan;
	int i;

	if (!teid)
		return;
	spin_lock(&lan->lock);
	for (i = 0; i < ISIM_MAX_QSETS; i++) {
		if (lan->qset[i].teid != teid)
			continue;
		lan->qset[i].teid = 0;
		if (!isim_qset_attached(lan, lan->qset[i].qs_handle))
			clear_bit(lan->qset[i].qs_handle, lan->live);
		break;
	}
	spin_unlock(&lan->lock);
}
EXPORT_SYMBOL_IF_KUNIT(isim_qset_del);

/**
 * isim_qset_live - may an SQ of this queue set transmit?
 * @sdev: the simulated function
 * @qs_handle: the queue set a QP context names
 *
 * Return: true if the LAN side attached it.
 */
bool isim_qset_live(struct isim_dev *sdev, u16 qs_handle)
{
	return qs_handle < ISIM_QSET_HANDLES && test_bit(qs_handle, sdev->lan.live);
}
EXPORT_SYMBOL_IF_KUNIT(isim_qset_live);

/**
 * isim_lan_count - queue sets attached, and the RDMA filter
 * @sdev: the simulated function
 * @filter: set to the filter's state
 *
 * Return: the number of queue sets attached.
 */
int isim_lan_count(struct isim_dev *sdev, bool *filter)
{
	struct isim_lan *lan = &sdev->lan;
	int i, n = 0;

	spin_lock(&lan->lock);
	for (i = 0; i < ISIM_MAX_QSETS; i++)
		n += !!lan->qset[i].teid;
	spin_unlock(&lan->lock);
	*filter = READ_ONCE(lan->rdma_filter);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(isim_lan_count);

/**
 * isim_lan_reset - what a function reset leaves: no queue set, no filter
 * @sdev: the simulated function
 */
void isim_lan_reset(struct isim_dev *sdev)
{
	struct isim_lan *lan = &sdev->lan;

	spin_lock(&lan->lock);
	memset(lan->qset, 0, sizeof(lan->qset));
	bitmap_zero(lan->live, ISIM_QSET_HANDLES);
	WRITE_ONCE(lan->rdma_filter, false);
	spin_unlock(&lan->lock);
}

/**
 * isim_lan_init - a function's LAN side, before it is first plugged
 * @sdev: the simulated function
 */
void isim_lan_init(struct isim_dev *sdev)
{
	spin_lock_init(&sdev->lan.lock);
	isim_lan_reset(sdev);
	/* ice's default: DCB off, one class with all of the port. */
	sdev->lan.qos.num_tc = 1;
	sdev->lan.qos.rel_bw[0] = 100;
}

/**
 * irdma_sim_qset_add - the LAN side attaches an RDMA queue set
 * @handle: the function, as its front received it at plug time
 * @qs_handle: the queue set
 * @tc: its traffic class
 * @teid: the scheduler node's id
 *
 * Return: as isim_qset_add().
 */
int irdma_sim_qset_add(void *handle, u16 qs_handle, u8 tc, u32 *teid)
{
	return isim_qset_add(handle, qs_handle, tc, teid);
}
EXPORT_SYMBOL_GPL(irdma_sim_qset_add);

/**
 * irdma_sim_qset_del - the LAN side detaches an RDMA queue set
 * @handle: the function, as its front received it at plug time
 * @teid: the scheduler node, as irdma_sim_qset_add() gave it
 */
void irdma_sim_qset_del(void *handle, u32 teid)
{
	isim_qset_del(handle, teid);
}
EXPORT_SYMBOL_GPL(irdma_sim_qset_del);

/**
 * irdma_sim_rdma_filter - the LAN side steers RoCE packets to the engine,
 * or back to the LAN queues
 * @handle: the function, as its front received it at plug time
 * @on: steer them to the engine
 */
void irdma_sim_rdma_filter(void *handle, bool on)
{
	struct isim_dev *sdev = handle;

	WRITE_ONCE(sdev->lan.rdma_filter, on);
}
EXPORT_SYMBOL_GPL(irdma_sim_rdma_filter);

/**
 * irdma_sim_get_qos - the port's traffic classes, as the LAN side set
 *	them (ice's default: DCB off, one class with all of the port)
 * @handle: the function, as its front received it at plug time
 * @qos: filled in
 */
void irdma_sim_get_qos(void *handle, struct irdma_sim_qos *qos)
{
	isim_qos_get(handle, qos);
}
EXPORT_SYMBOL_GPL(irdma_sim_get_qos);
