/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the simulator hands to the driver's sim front-end with each
 * simulated RDMA function: the same resources ice hands over for an E810,
 * gathered in one structure. The driver only reads these fields and calls
 * the function pointers, so it has no symbol dependency on irdma_sim.
 */
#ifndef IRDMA_SIM_H
#define IRDMA_SIM_H

#include <linux/auxiliary_bus.h>
#include <linux/netdevice.h>
#include <linux/pci.h>

/* Functions 0-31 are the simulator's own; 32-63 belong to fronts. */
#define IRDMA_SIM_NATIVE_IDS	32

/* Auxiliary device names: "irdma_sim.roce.N" and "irdma_sim.iwarp.N". */
#define IRDMA_SIM_ROCE_NAME	"roce"
#define IRDMA_SIM_IWARP_NAME	"iwarp"

/* What the simulated function reports: an E810-C for QSFP. */
#define IRDMA_SIM_VENDOR_ID	PCI_VENDOR_ID_INTEL
#define IRDMA_SIM_DEVICE_ID	0x1592
#define IRDMA_SIM_REVISION	2

/* The E810's BAR0 as far as the RDMA engine uses it. */
#define IRDMA_SIM_BAR_SIZE	(8 * 1024 * 1024)
/*
 * The simulator's own functions have push pages after that: 64 of them,
 * and the doorbell page of the last.
 */
#define IRDMA_SIM_PUSH_PAGES	64
#define IRDMA_SIM_NATIVE_BAR_SIZE \
	(IRDMA_SIM_BAR_SIZE + (IRDMA_SIM_PUSH_PAGES + 1) * 4096)

/**
 * struct irdma_sim_qos - the port's traffic classes, as the LAN side
 *	configured them (DCB)
 * @num_tc: traffic classes enabled, from 0
 * @up2tc: the traffic class of each user priority
 * @rel_bw: each traffic class's share of the port, in percent
 */
struct irdma_sim_qos {
	u8 num_tc;
	u8 up2tc[8];
	u8 rel_bw[8];
};

/*
 * Events the LAN side sends its RDMA function's driver, bits of a type
 * word numbered as ice numbers its IIDC events (enum iidc_event_type).
 */
enum irdma_sim_event_type {
	IRDMA_SIM_EVENT_BEFORE_MTU,
	IRDMA_SIM_EVENT_AFTER_MTU,
	IRDMA_SIM_EVENT_BEFORE_TC,
	IRDMA_SIM_EVENT_AFTER_TC,
	IRDMA_SIM_EVENT_CRIT_ERR,
	IRDMA_SIM_EVENT_NBITS
};

/**
 * struct irdma_sim_adev - a simulated E810 RDMA function
 * @adev: the auxiliary device the driver binds to
 * @dma_dev: device to make DMA mappings for
 * @hw_addr: the BAR0 register window
 * @msix: MSI-X vectors for the RDMA engine (Linux IRQ numbers)
 * @msix_count: entries in @msix
 * @netdev: the function's Ethernet device
 * @pf_id: PCI function number
 * @vendor_id: PCI vendor the function reports (Intel)
 * @device_id: PCI device id it reports (an E810 part)
 * @revision: PCI revision it reports
 * @vsi_num: VSI of the function's LAN traffic
 * @roce: RoCEv2 personality (else iWARP)
 * @srq: the engine has the sim's shared receive queue extension
 * @push_pages: push pages its BAR0 has (after 8 MiB)
 * @request_reset: ask the simulated LAN side to reset the function
 * @add_qset: ask the LAN side to attach an RDMA queue set (the handle a
 *	WORK_SCHED_NODE leaf returned) to the transmit scheduler, in a
 *	traffic class; it gives the scheduler node's TEID. 0 or -errno.
 * @del_qset: detach the queue set of a TEID @add_qset gave
 * @rdma_filter: steer RoCE packets to the RDMA engine (on) or back to
 *	the LAN queues (off)
 * @get_qos: the port's traffic classes (DCB), as ice_get_qos_params()
 */
struct irdma_sim_adev {
	struct auxiliary_device adev;
	struct device *dma_dev;
	u8 __iomem *hw_addr;
	struct msix_entry *msix;
	u32 msix_count;
	struct net_device *netdev;
	u8 pf_id;
	u16 vendor_id;
	u16 device_id;
	u8 revision;
	u16 vsi_num;
	bool roce;
	bool srq;
	u32 push_pages;
	void (*request_reset)(struct irdma_sim_adev *sadev);
	int (*add_qset)(struct irdma_sim_adev *sadev, u16 qs_handle, u8 tc,
			u32 *teid);
	void (*del_qset)(struct irdma_sim_adev *sadev, u32 teid);
	void (*rdma_filter)(struct irdma_sim_adev *sadev, bool on);
	void (*get_qos)(struct irdma_sim_adev *sadev, struct irdma_sim_qos *qos);
};

/**
 * struct irdma_sim_aux_driver - a driver of the native front's functions
 * @adrv: the auxiliary driver
 * @event_handler: takes the LAN side's events (a type word of
 *	enum irdma_sim_event_type bits, and for CRIT_ERR the OICR), as
 *	ice's iidc_auxiliary_drv.event_handler does; called in task context
 *	with the device lock held, never while the driver is not bound
 */
struct irdma_sim_aux_driver {
	struct auxiliary_driver adrv;
	void (*event_handler)(struct irdma_sim_adev *sadev, unsigned long type,
			      u32 reg);
};

/**
 * struct irdma_sim_res - a simulated function's resources, for its front
 * @id: the function's number
 * @roce: RoCEv2 personality (else iWARP)
 * @hw_addr: its register window
 * @msix: its MSI-X vectors (Linux IRQ numbers and table entries)
 * @msix_count: entries in @msix
 * @netdev: its Ethernet device
 * @pf_id: its PCI function number
 * @vsi_num: the VSI of its LAN traffic
 * @handle: the simulator's handle on the function, for irdma_sim_request_reset()
 */
struct irdma_sim_res {
	u32 id;
	bool roce;
	u8 __iomem *hw_addr;
	struct msix_entry *msix;
	u32 msix_count;
	struct net_device *netdev;
	u8 pf_id;
	u16 vsi_num;
	void *handle;
};

/**
 * struct irdma_sim_front - how a simulated function meets its driver
 * @plug: present the function (create the device a driver binds to)
 * @unplug: withdraw it; its driver has let go when this returns
 * @event: deliver an event of the LAN side to the function's driver, if
 *	one is bound (task context; never concurrent with @plug or @unplug)
 *
 * The simulator's own front is the "irdma_sim.roce.N" auxiliary device;
 * another module may present the function as its LAN driver would.
 */
struct irdma_sim_front {
	int (*plug)(void *priv, const struct irdma_sim_res *res);
	void (*unplug)(void *priv);
	void (*event)(void *priv, unsigned long type, u32 reg);
};

int irdma_sim_add_fronted(u32 id, bool roce, void __iomem *regs,
			  const struct irdma_sim_front *front, void *priv);
int irdma_sim_del(u32 id);
void irdma_sim_request_reset(void *handle);
int irdma_sim_qset_add(void *handle, u16 qs_handle, u8 tc, u32 *teid);
void irdma_sim_qset_del(void *handle, u32 teid);
void irdma_sim_rdma_filter(void *handle, bool on);
void irdma_sim_get_qos(void *handle, struct irdma_sim_qos *qos);
void irdma_sim_trace_ice(u32 fn, const char *call, u64 a0, u64 a1, u64 a2,
			 int ret);

/*
 * For in-kernel tests (KUnit) with the simulator built in: what
 * new_device, del_device and the fault knobs do from user space.
 */
int irdma_sim_add(u32 id, bool roce);
int irdma_sim_add_srq(u32 id);
struct auxiliary_device *irdma_sim_adev(u32 id);
void irdma_sim_fail_cqp_op(u32 id, u8 opcode, u32 count);
int irdma_sim_send_event(u32 id, unsigned long type, u32 reg);
int irdma_sim_set_qos(u32 id, const struct irdma_sim_qos *qos);

#endif /* IRDMA_SIM_H */
