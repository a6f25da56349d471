/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The common core of the driver: what a front-end (ice, i40e, the
 * simulator) hands over when it binds an RDMA function, and the state the
 * driver keeps for that function.
 */
#ifndef IRDMA_MAIN_H
#define IRDMA_MAIN_H

#include <linux/device.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/types.h>

#include "hwdefs.h"
#include "uk.h"

#define IRDMA_DRV_NAME	KBUILD_MODNAME

/* AEQ plus at least one CEQ. */
#define IRDMA_MIN_MSIX	2

enum irdma_protocol {
	IRDMA_PROTOCOL_IWARP,
	IRDMA_PROTOCOL_ROCEV2,
};

struct irdma_fn;

/**
 * struct irdma_fn_ops - services the front-end's LAN driver provides
 * @request_reset: ask the LAN driver to reset the function
 */
struct irdma_fn_ops {
	void (*request_reset)(struct irdma_fn *fn);
};

/**
 * struct irdma_fn_res - resources of one RDMA function, from its front-end
 * @frontend: name of the front-end that found the function
 * @gen: hardware generation
 * @protocol: protocol the LAN driver enabled on the function
 * @dev: the device DMA mappings are made for
 * @hw_addr: the function's BAR0 register window
 * @msix: MSI-X vectors reserved for RDMA
 * @msix_count: number of entries in @msix
 * @netdev: the function's Ethernet device
 * @pf_id: PCI function number within the adapter
 * @vsi_num: the LAN driver's VSI the RDMA traffic belongs to
 * @ops: the LAN driver's services
 * @lan_priv: the front-end's handle on the LAN driver
 */
struct irdma_fn_res {
	const char *frontend;
	enum irdma_hw_gen gen;
	enum irdma_protocol protocol;
	struct device *dev;
	u8 __iomem *hw_addr;
	struct msix_entry *msix;
	u32 msix_count;
	struct net_device *netdev;
	u8 pf_id;
	u16 vsi_num;
	const struct irdma_fn_ops *ops;
	void *lan_priv;
};

/**
 * struct irdma_fn - the driver's state for one bound RDMA function
 * @res: what the front-end handed over
 * @uk_attrs: queue limits of the function's hardware generation
 */
struct irdma_fn {
	struct irdma_fn_res res;
	struct irdma_uk_attrs uk_attrs;
};

/* hw.c */
struct irdma_fn *irdma_fn_probe(const struct irdma_fn_res *res);
void irdma_fn_remove(struct irdma_fn *fn);

/* ctrl.c */
u64 irdma_cqp_wqe_hdr(enum irdma_cqp_opcode op, bool polarity);
void irdma_cqp_wqe_set_hdr(__le64 *wqe, u64 hdr);
int irdma_init_uk_attrs(enum irdma_hw_gen gen, struct irdma_uk_attrs *attrs);

/* utils.c */
void irdma_addr_ntoh(u32 *dst, const __be32 *src, unsigned int words);
void irdma_addr_hton(__be32 *dst, const u32 *src, unsigned int words);

/*
 * Front-ends: each gathers its functions' resources and calls the core.
 * One whose LAN driver is not built has nothing to register.
 */
#if IS_ENABLED(CONFIG_ICE)
int irdma_ice_register(void);
void irdma_ice_unregister(void);
#else
static inline int irdma_ice_register(void) { return 0; }
static inline void irdma_ice_unregister(void) { }
#endif

#if IS_ENABLED(CONFIG_INFINIBAND_IRDMA_SIM)
int irdma_sim_register(void);
void irdma_sim_unregister(void);
#else
static inline int irdma_sim_register(void) { return 0; }
static inline void irdma_sim_unregister(void) { }
#endif

#if IS_ENABLED(CONFIG_I40E)
int irdma_i40e_register(void);
void irdma_i40e_unregister(void);
#else
static inline int irdma_i40e_register(void) { return 0; }
static inline void irdma_i40e_unregister(void) { }
#endif

#endif /* IRDMA_MAIN_H */
