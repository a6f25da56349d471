/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The common core of the driver: what a front-end (ice, i40e, the
 * simulator) hands over when it binds an RDMA function, and the state the
 * driver keeps for that function.
 */
#ifndef IRDMA_MAIN_H
#define IRDMA_MAIN_H

#include <linux/device.h>
#include <linux/idr.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/types.h>
#include <linux/xarray.h>

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
 * @bar_pfn: page frame of a BAR0 page, for mapping it to user space;
 *	returns true if the page is ordinary memory (mapped cached) rather
 *	than device memory (mapped uncached)
 */
struct irdma_fn_ops {
	void (*request_reset)(struct irdma_fn *fn);
	bool (*bar_pfn)(struct irdma_fn *fn, u64 offset, unsigned long *pfn);
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
 * @vendor_id: PCI vendor of the adapter
 * @device_id: PCI device (part) id of the adapter
 * @revision: PCI revision of the adapter
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
	u16 vendor_id;
	u16 device_id;
	u8 revision;
	u16 vsi_num;
	const struct irdma_fn_ops *ops;
	void *lan_priv;
};

/**
 * struct irdma_dma_mem - a block of coherent DMA memory
 * @va: CPU address
 * @pa: device address
 * @size: bytes
 */
struct irdma_dma_mem {
	void *va;
	dma_addr_t pa;
	size_t size;
};

/**
 * struct irdma_cqp_wqe - a CQP command as a builder prepares it
 * @q: the WQE's qwords; q[3] is the header without the valid bit
 * @ext: the command's side buffer (UPDATE_PE_SDS entries beyond three)
 * @ext_len: bytes of @ext in use; 0 for none
 */
struct irdma_cqp_wqe {
	u64 q[IRDMA_CQP_WQE_SIZE / 8];
	__le64 ext[IRDMA_UPESD_BUF_SIZE / 8];
	u32 ext_len;
};

/**
 * struct irdma_cqp_compl - how a CQP command completed
 * @maj: major error code, 0 on success
 * @min: minor error code (informative on success)
 * @ret_val: the command's return value
 */
struct irdma_cqp_compl {
	u16 maj;
	u16 min;
	u32 ret_val;
};

struct irdma_cqp_request;

/**
 * struct irdma_cqp - the control QP
 * @sq: the WQE ring
 * @sdbuf: UPDATE_PE_SDS side buffers, one slot per WQE
 * @ring: producer (head) and completion (tail) indices
 * @polarity: valid bit of the current pass over the ring
 * @reqs: the waiter of each outstanding WQE, once the CCQ exists
 * @lock: protects all of the above and the CCQ
 */
struct irdma_cqp {
	struct irdma_dma_mem sq;
	struct irdma_dma_mem sdbuf;
	struct irdma_ring ring;
	bool polarity;
	struct irdma_cqp_request **reqs;
	spinlock_t lock; /* the CQP ring, its waiters and the CCQ */
};

/**
 * struct irdma_ccq - the control CQ, where CQP completions arrive
 * @ring: the CQE ring
 * @shadow: its shadow area (consumer index, arm word)
 * @shadow_pa: device address of @shadow
 * @head: next CQE to take
 * @polarity: valid bit of the current pass
 * @live: created in hardware
 * @armed: events are wanted (CEQ 0 is up)
 */
struct irdma_ccq {
	struct irdma_dma_mem ring;
	__le64 *shadow;
	dma_addr_t shadow_pa;
	u32 head;
	bool polarity;
	bool live;
	bool armed;
};

/**
 * struct irdma_eq - an event queue: a CEQ or the AEQ
 * @fn: the function
 * @ring: the entries
 * @id: CEQ number (0 for the AEQ)
 * @size: entries in the ring
 * @tail: next entry to take
 * @polarity: valid bit of the current pass
 * @msix: index into the function's MSI-X table
 * @irq: Linux IRQ, once requested
 * @live: created in hardware
 * @name: IRQ name
 */
struct irdma_eq {
	struct irdma_fn *fn;
	struct irdma_dma_mem ring;
	u32 id;
	u32 size;
	u32 tail;
	bool polarity;
	u32 msix;
	int irq;
	bool live;
	char name[32];
};

/**
 * struct irdma_hmc_objinfo - one object type in the function's FPM space
 * @max_cnt: the hardware's limit
 * @cnt: the committed count
 * @size: bytes per object
 * @base: FPM address of object 0
 */
struct irdma_hmc_objinfo {
	u32 max_cnt;
	u32 cnt;
	u32 size;
	u64 base;
};

/**
 * struct irdma_hmc - the Host Memory Cache layout and its backing
 * @obj: per object type
 * @max_sds: segments the function may use
 * @first_sd: first segment index of the function
 * @max_ceqs: CEQs the function may create
 * @ht_multiplier: hash table entries per QP slot
 * @timer_bucket: timer entries per 512 QPs
 * @xf_block: XF free-list block size
 * @q1_block: Q1 free-list block size
 * @rrf_block: RRF free-list block size
 * @ooiscf_block: OOISC free-list block size
 * @sd_cnt: segments the committed objects span
 * @sd: the 2 MiB backing of each segment, where allocated
 */
struct irdma_hmc {
	struct irdma_hmc_objinfo obj[IRDMA_HMC_OBJ_COUNT];
	u32 max_sds;
	u32 first_sd;
	u32 max_ceqs;
	u32 ht_multiplier;
	u32 timer_bucket;
	u32 xf_block;
	u32 q1_block;
	u32 rrf_block;
	u32 ooiscf_block;
	u32 sd_cnt;
	struct irdma_dma_mem *sd;
};

/* Bring-up steps, in order; teardown undoes those reached, in reverse. */
enum irdma_init_step {
	IRDMA_STEP_NONE,
	IRDMA_STEP_INIT_MEM,
	IRDMA_STEP_CQP,
	IRDMA_STEP_HMC,
	IRDMA_STEP_CCQ,
	IRDMA_STEP_CEQ0,
	IRDMA_STEP_CEQS,
	IRDMA_STEP_DONE,
};

#define IRDMA_MAX_CEQS	64
#define IRDMA_MAX_ORPHANS	(IRDMA_MAX_CEQS + 64)

/* The function's init block: FPM buffers, CQP context, CCQ shadow area. */
#define IRDMA_INIT_MEM_SIZE	4096
#define IRDMA_INIT_QUERY_FPM	0x000
#define IRDMA_INIT_COMMIT_FPM	0x0b0
#define IRDMA_INIT_CQP_CTX	0x160
#define IRDMA_INIT_CCQ_SHADOW	0x200
#define IRDMA_INIT_FEATURES	0x240

/**
 * struct irdma_fn - the driver's state for one bound RDMA function
 * @res: what the front-end handed over
 * @uk_attrs: queue limits of the function's hardware generation
 * @hw: the register window
 * @step: how far bring-up got
 * @init_mem: FPM buffers, CQP host context and CCQ shadow area
 * @cqp: the control QP
 * @ccq: the control CQ
 * @hmc: the HMC layout
 * @msix_shared: the AEQ and CEQ 0 share vector 0
 * @ceq: the CEQs
 * @ceq_max: CEQs the vectors allow
 * @ceq_count: CEQs created
 * @aeq: the AEQ
 * @fw_major: firmware version, major
 * @fw_minor: firmware version, minor
 * @pd_ids: protection domain numbers in use
 * @max_pd: protection domains the function offers
 * @orphans: memory the hardware may still own (its destroy failed)
 * @orphan_count: entries in @orphans
 * @cq_table: live CQs by number
 * @cq_next: where the search for a free CQ number starts
 * @cq_gen: creation count, so a CQ number's reuse is told apart
 * @qp_table: live QPs by number
 * @qp_next: where the search for a free QP number starts
 */
struct irdma_fn {
	struct irdma_fn_res res;
	struct irdma_uk_attrs uk_attrs;
	u8 __iomem *hw;
	enum irdma_init_step step;
	struct irdma_dma_mem init_mem;
	struct irdma_cqp cqp;
	struct irdma_ccq ccq;
	struct irdma_hmc hmc;
	bool msix_shared;
	struct irdma_eq ceq[IRDMA_MAX_CEQS];
	u32 ceq_max;
	u32 ceq_count;
	struct irdma_eq aeq;
	u16 fw_major;
	u16 fw_minor;
	struct ida pd_ids;
	u32 max_pd;
	struct irdma_dma_mem orphans[IRDMA_MAX_ORPHANS];
	u32 orphan_count;
	struct xarray cq_table;
	u32 cq_next;
	u32 cq_gen;
	struct xarray qp_table;
	u32 qp_next;
};

static inline u32 irdma_rd32(struct irdma_fn *fn, u32 reg)
{
	return readl(fn->hw + reg);
}

static inline void irdma_wr32(struct irdma_fn *fn, u32 reg, u32 val)
{
	writel(val, fn->hw + reg);
}

int irdma_dma_alloc(struct irdma_fn *fn, struct irdma_dma_mem *mem,
		    size_t size, gfp_t gfp);
void irdma_dma_free(struct irdma_fn *fn, struct irdma_dma_mem *mem);
int irdma_dma_outstanding(void);
void irdma_dma_release(struct irdma_fn *fn, struct irdma_dma_mem *mem,
		       bool hw_done);
void irdma_dma_free_orphans(struct irdma_fn *fn, bool hw_down);

/* hw.c */
struct irdma_fn *irdma_fn_probe(const struct irdma_fn_res *res);
void irdma_fn_remove(struct irdma_fn *fn);
int irdma_hw_init(struct irdma_fn *fn);
void irdma_hw_deinit(struct irdma_fn *fn);

/* ctrl.c: the CQP and the commands' layouts */
u64 irdma_cqp_wqe_hdr(u8 op, bool polarity);
void irdma_cqp_wqe_set_hdr(__le64 *wqe, u64 hdr);
int irdma_init_uk_attrs(enum irdma_hw_gen gen, struct irdma_uk_attrs *attrs);
int irdma_cqp_create(struct irdma_fn *fn);
int irdma_cqp_destroy(struct irdma_fn *fn);
int irdma_cqp_post(struct irdma_fn *fn, const struct irdma_cqp_wqe *cmd,
		   u32 *idx);
int irdma_ccq_next(struct irdma_fn *fn, u32 *idx, struct irdma_cqp_compl *compl);
void irdma_ccq_arm(struct irdma_fn *fn);
void irdma_build_query_fpm(struct irdma_cqp_wqe *cmd, u8 fn_id, dma_addr_t buf);
void irdma_build_commit_fpm(struct irdma_cqp_wqe *cmd, u8 fn_id, dma_addr_t buf);
void irdma_build_update_sds(struct irdma_cqp_wqe *cmd, u8 fn_id,
			    const u64 *cmds, const u64 *data, u32 count);
void irdma_build_shmc_pages(struct irdma_cqp_wqe *cmd, u8 fn_id);
void irdma_build_query_features(struct irdma_cqp_wqe *cmd, dma_addr_t buf,
				u32 len);

/**
 * struct irdma_cq_hw_info - what CREATE_CQ and DESTROY_CQ tell the hardware
 * @id: CQ number
 * @size: CQEs in the ring
 * @ctx: value CEQEs report for the CQ (63 bits; 0 is never reported)
 * @ring_pa: device address of a contiguous ring
 * @shadow_pa: device address of the shadow area
 * @ceq_id: CEQ for the CQ's events
 * @ceq_valid: events are wanted
 * @ceqe_mask: the CQ's events are maskable
 * @shadow_threshold: shadow-area read threshold
 * @vsi: VSI the CQ belongs to
 * @virtual_map: the ring is described by PBLEs, not @ring_pa
 * @first_pble: FPM index of the ring's first PBLE (with @virtual_map)
 * @pbl_levels: PBLE levels above the ring's pages (with @virtual_map)
 */
struct irdma_cq_hw_info {
	u32 id;
	u32 size;
	u64 ctx;
	dma_addr_t ring_pa;
	dma_addr_t shadow_pa;
	u32 ceq_id;
	bool ceq_valid;
	bool ceqe_mask;
	u32 shadow_threshold;
	u16 vsi;
	bool virtual_map;
	u32 first_pble;
	u8 pbl_levels;
};

void irdma_build_create_cq(struct irdma_cqp_wqe *cmd,
			   const struct irdma_cq_hw_info *info);
void irdma_build_destroy_cq(struct irdma_cqp_wqe *cmd,
			    const struct irdma_cq_hw_info *info);
void irdma_build_resize_cq(struct irdma_cqp_wqe *cmd,
			   const struct irdma_cq_hw_info *info);
void irdma_build_create_ceq(struct irdma_cqp_wqe *cmd, u32 id, u32 size,
			    dma_addr_t ring, u16 vsi);
void irdma_build_destroy_ceq(struct irdma_cqp_wqe *cmd, u32 id, u32 size);
void irdma_build_create_aeq(struct irdma_cqp_wqe *cmd, u32 size,
			    dma_addr_t ring);
void irdma_build_destroy_aeq(struct irdma_cqp_wqe *cmd, u32 size);

/* hmc.c */
int irdma_hmc_size(struct irdma_fn *fn);
int irdma_hmc_setup(struct irdma_fn *fn);
void irdma_hmc_teardown(struct irdma_fn *fn);

/* utils.c: the life of a CQP request */
int irdma_cqp_exec(struct irdma_fn *fn, const struct irdma_cqp_wqe *cmd,
		   struct irdma_cqp_compl *compl);
int irdma_cqp_exec_ccq_create(struct irdma_fn *fn, const struct irdma_cqp_wqe *cmd);
void irdma_cqp_process_ccq(struct irdma_fn *fn);
void irdma_cqp_flush_waiters(struct irdma_fn *fn);
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
