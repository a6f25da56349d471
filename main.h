/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The common core of the driver: what a front-end (ice, i40e, the
 * simulator) hands over when it binds an RDMA function, and the state the
 * driver keeps for that function.
 */
#ifndef IRDMA_MAIN_H
#define IRDMA_MAIN_H

#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/etherdevice.h>
#include <linux/hashtable.h>
#include <linux/idr.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/types.h>
#include <linux/workqueue.h>
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

/* What an asynchronous event is about (ae.c). */
enum irdma_ae_target {
	IRDMA_AE_NOTHING,	/* nothing the driver acts on */
	IRDMA_AE_QP_ERROR,	/* the QP it names fails: to error, flushed */
	IRDMA_AE_QP_NOTE,	/* news of the QP that leaves it as it is */
	IRDMA_AE_CQ_ERROR,	/* the CQ it names failed */
	IRDMA_AE_SRQ_EVENT,	/* the SRQ it names reached its limit */
};

struct irdma_fn;
struct irdma_puda;
struct irdma_cm;

/* The privileged UDA queues: the ILQ (QP and CQ 1) and the IEQ (2). */
#define IRDMA_PUDA_QUEUES	2

#define IRDMA_MAX_UPS		8	/* user priorities, and traffic classes */
#define IRDMA_DSCP_CODES	64

/**
 * struct irdma_qos - the port's quality of service, as the LAN driver
 *	configured it (DCB)
 * @num_tc: traffic classes enabled, from 0 (0: the LAN driver has none)
 * @up2tc: the traffic class of each user priority
 * @rel_bw: each traffic class's share of the port (ETS, percent)
 * @dscp: priorities come from the DSCP (else from the IP TOS)
 * @dscp_map: the user priority of each DSCP value
 */
struct irdma_qos {
	u8 num_tc;
	u8 up2tc[IRDMA_MAX_UPS];
	u8 rel_bw[IRDMA_MAX_UPS];
	bool dscp;
	u8 dscp_map[IRDMA_DSCP_CODES];
};

#define IRDMA_WS_MAX_NODES	(2 + IRDMA_MAX_UPS)	/* root, VSI, leaves */

/**
 * struct irdma_ws_leaf - a traffic class's queue set: a scheduler leaf
 * @users: QPs sending through it (0: it does not exist)
 * @node: its node id
 * @qs_handle: the queue set the scheduler gave it
 * @teid: the LAN scheduler's node for it
 */
struct irdma_ws_leaf {
	u32 users;
	u16 node;
	u16 qs_handle;
	u32 teid;
};

/**
 * struct irdma_ws - the function's transmit scheduler tree
 * @lock: the tree, @qps and the QPs' places in it
 * @users: QPs on the tree (0: neither root nor VSI node exists)
 * @leaf: by traffic class
 * @nodes: node ids in use
 * @qps: the QPs on the tree, by their ws_entry
 * @tc_change_pending: the LAN driver is changing the port's classes: the
 *	tree is down and no QP may join
 * @suspend_reqs: QPs whose suspension the hardware has yet to report
 * @suspend_wq: waits for those reports (and for an SQD's)
 * @puda: the PUDA queues on the tree (priority 0's class), by their
 *	struct irdma_puda::id - 1
 * @puda_tc: their traffic class
 */
struct irdma_ws {
	struct mutex lock; /* the tree and its QPs */
	u32 users;
	struct irdma_ws_leaf leaf[IRDMA_MAX_UPS];
	DECLARE_BITMAP(nodes, IRDMA_WS_MAX_NODES);
	struct list_head qps;
	struct irdma_puda *puda[IRDMA_PUDA_QUEUES];
	u8 puda_tc;
	bool tc_change_pending;
	atomic_t suspend_reqs;
	wait_queue_head_t suspend_wq;
};

/**
 * struct irdma_fn_ops - services the front-end's LAN driver provides
 * @request_reset: ask the LAN driver to reset the function
 * @bar_pfn: page frame of a BAR0 page, for mapping it to user space;
 *	returns true if the page is ordinary memory (mapped cached) rather
 *	than device memory (mapped uncached)
 * @add_qset: have the LAN driver attach an RDMA queue set (the handle a
 *	scheduler leaf node got) to the port's transmit scheduler in a
 *	traffic class; it gives back the scheduler node's TEID. Without it
 *	the engine transmits nothing. 0 or a negative errno.
 * @del_qset: detach a queue set @add_qset attached
 * @rdma_filter: have the LAN driver steer RoCE packets to the RDMA engine
 *	(on) or leave them to the LAN queues (off). 0 or a negative errno.
 * @get_qos: the port's traffic classes, priorities and shares (DCB)
 *
 * The last four are absent where the LAN driver leaves them to the RDMA
 * driver (X722).
 */
struct irdma_fn_ops {
	void (*request_reset)(struct irdma_fn *fn);
	bool (*bar_pfn)(struct irdma_fn *fn, u64 offset, unsigned long *pfn);
	int (*add_qset)(struct irdma_fn *fn, u8 tc, u16 qs_handle, u32 *teid);
	void (*del_qset)(struct irdma_fn *fn, u8 tc, u16 qs_handle, u32 teid);
	int (*rdma_filter)(struct irdma_fn *fn, bool on);
	void (*get_qos)(struct irdma_fn *fn, struct irdma_qos *qos);
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
 * @srq: the engine has shared receive queues (the sim's SRQ extension;
 *	 no E800 or X722 part has them)
 * @push_pages: push pages BAR0 has room for after IRDMA_PUSH_OFFSET
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
	bool srq;
	u32 push_pages;
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
 * struct irdma_dma_pages - coherent DMA memory in separate 4 KiB pages
 * @page: the pages, in order
 * @count: entries in @page
 */
struct irdma_dma_pages {
	struct irdma_dma_mem *page;
	u32 count;
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

/* A command of opcode @op with every other field zero. */
static inline void irdma_cmd_init(struct irdma_cqp_wqe *cmd, u8 op)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->q[3] = FIELD_PREP(IRDMA_CQPSQ_OPCODE, op);
}

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
 * struct irdma_hmc_sd - the host memory behind one 2 MiB segment
 * @block: all of it in one block (a direct segment)
 * @pd_page: a paged segment's page descriptors, one per 4 KiB
 * @pages: a paged segment's pages, from page @first_pd on
 * @first_pd: the first 4 KiB of the segment that has a page
 */
struct irdma_hmc_sd {
	struct irdma_dma_mem block;
	struct irdma_dma_mem pd_page;
	struct irdma_dma_pages pages;
	u32 first_pd;
};

static inline bool irdma_hmc_sd_backed(const struct irdma_hmc_sd *sd)
{
	return sd->block.va || sd->pd_page.va;
}

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
 * @sd_cnt: segment numbers up to the committed objects' end (from 0:
 *	those below @first_sd are never the function's)
 * @sd: the backing of each segment, where allocated
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
	struct irdma_hmc_sd *sd;
};

/**
 * struct irdma_pble_pool - the PBLE object's FPM space, handed out in runs
 * @pool: free runs, by FPM address
 * @lock: allocation and growth
 * @next_fpm: where the part of the object with no backing yet starts
 * @end_fpm: the object's end
 * @used: PBLEs handed out
 */
struct irdma_pble_pool {
	struct gen_pool *pool;
	struct mutex lock; /* allocation and growth */
	u64 next_fpm;
	u64 end_fpm;
	u32 used;
};

/**
 * struct irdma_pble_leaf - one leaf of a two-level list
 * @idx: its first PBLE
 * @cnt: PBLEs in it
 */
struct irdma_pble_leaf {
	u32 idx;
	u32 cnt;
};

/**
 * struct irdma_pble_alloc - the PBLEs of one buffer
 * @level: 1 or 2; 0 when nothing is allocated
 * @count: pages the buffer has
 * @idx: first PBLE (level 1) or the root's first PBLE (level 2)
 * @leaf: the leaves (level 2)
 * @leaf_cnt: entries in @leaf
 */
struct irdma_pble_alloc {
	u8 level;
	u32 count;
	u32 idx;
	struct irdma_pble_leaf *leaf;
	u32 leaf_cnt;
};

/*
 * What the user of a PBLE list can take: queue contexts (and the AEQ) name
 * one level only; memory regions take a root of leaves too.
 */
enum irdma_pble_levels {
	IRDMA_PBLE_ANY_LEVEL,
	IRDMA_PBLE_LEVEL1_ONLY,
};

/**
 * struct irdma_eq - an event queue: a CEQ or the AEQ
 * @fn: the function
 * @ring: the entries, when in one block
 * @pages: the entries, when in pages (the AEQ, if no block was to be had)
 * @pble: the PBLEs listing @pages
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
	struct irdma_dma_pages pages;
	struct irdma_pble_alloc pble;
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
 * struct irdma_stats - the function's hardware counters
 * @mem: GATHER_STATS' target, then the previous snapshot
 * @acc: the counters, accumulated over the hardware's widths
 * @lock: gathering and @acc
 * @work: gathers now and then, so narrow counters never wrap twice
 */
struct irdma_stats {
	struct irdma_dma_mem mem;
	u64 acc[IRDMA_STAT_COUNT];
	struct mutex lock; /* gathering and the accumulators */
	struct delayed_work work;
};

/**
 * struct irdma_arp_entry - where the hardware's ARP table sends an address
 * @ip: the IP address, host-order words (IPv4 in word 0)
 * @mac: its MAC address
 * @refs: the AHs and QPs that name the entry; it goes with the last
 */
struct irdma_arp_entry {
	u32 ip[4];
	u8 mac[ETH_ALEN];
	u32 refs;
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
 * struct irdma_ids - numbers handed out in turn (ids.c)
 * @lock: @map
 * @map: the numbers in use
 * @size: how many numbers the set has
 * @next: where the next search starts
 */
struct irdma_ids {
	spinlock_t lock; /* @map */
	unsigned long *map;
	u32 size;
	u32 next;
};

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
 * @orphan_lock: @orphans and @orphan_list
 * @orphan_list: pinned user memory and coherent pages the hardware may
 *	still write (the destroy of the queue on them failed)
 * @cq_table: live CQs by number
 * @cq_next: where the search for a free CQ number starts
 * @cq_gen: creation count, so a CQ number's reuse is told apart
 * @qp_table: live QPs by number
 * @qp_next: where the search for a free QP number starts
 * @srq_table: shared receive queues by number
 * @max_srq: SRQ numbers the HMC has room for (0: no SRQs)
 * @pble: the PBLE pool
 * @ws: the transmit scheduler's tree (ws.c)
 * @qos: the port's traffic classes and priorities (irdma_fn_load_qos())
 * @reset: the function is to be reset (a critical error): the CQP is
 *	not used any more and what it would destroy is left to the reset
 * @mtu: the netdev's MTU as the LAN driver last reported it (new QPs'
 *	MSS)
 * @rdma_filter: the LAN driver steers RoCE packets to the engine
 * @mr_ids: memory key indexes in use
 * @ah_ids: address handle indexes in use
 * @arp_lock: the ARP table
 * @arp: the ARP table's entries (IP, MAC), by index
 * @arp_used: entries in use
 * @arp_next: where the search for a free entry starts
 * @arp_size: entries the hardware's table has
 * @stats: the hardware counters
 * @mcast_lock: the multicast groups
 * @mcast_list: the multicast groups
 * @mcast_ids: multicast group indexes in use
 * @ah_lock: the shared user AHs
 * @ah_hash: the shared user AHs, by destination address
 * @apbvt_lock: @apbvt, and the hardware's table with it
 * @apbvt: the local TCP ports in the APBVT, with their users' count
 * @puda_lock: keeps @ilq and @ieq while their CQ's events are taken
 * @ilq: iWARP: the connection manager's queue (puda.c)
 * @ieq: iWARP: the queue of offloaded streams' exceptions
 * @cm: iWARP: the connection manager, while the ILQ's segments go to it
 *	(set and cleared under @puda_lock)
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
	struct irdma_ids pd_ids;
	u32 max_pd;
	struct irdma_dma_mem orphans[IRDMA_MAX_ORPHANS];
	u32 orphan_count;
	spinlock_t orphan_lock; /* @orphans, @orphan_list */
	struct list_head orphan_list;
	struct xarray cq_table;
	u32 cq_next;
	u32 cq_gen;
	struct xarray qp_table;
	u32 qp_next;
	struct xarray srq_table;
	u32 max_srq;
	struct irdma_pble_pool pble;
	struct irdma_ws ws;
	struct irdma_qos qos;
	bool reset;
	u32 mtu;
	bool rdma_filter;
	struct irdma_ids mr_ids;
	struct irdma_ids ah_ids;
	spinlock_t arp_lock; /* the ARP table */
	struct irdma_arp_entry *arp;
	unsigned long *arp_used;
	u32 arp_next;
	u32 arp_size;
	struct irdma_stats stats;
	struct mutex mcast_lock; /* the multicast groups */
	struct list_head mcast_list;
	struct irdma_ids mcast_ids;
	struct mutex ah_lock; /* the shared user AHs */
	DECLARE_HASHTABLE(ah_hash, 8);
	struct mutex apbvt_lock; /* @apbvt and the hardware's */
	struct xarray apbvt;
	struct mutex puda_lock; /* @ilq and @ieq against their events */
	struct irdma_puda *ilq;
	struct irdma_puda *ieq;
	struct irdma_cm *cm;
};

static inline u32 irdma_rd32(struct irdma_fn *fn, u32 reg)
{
	return readl(fn->hw + reg);
}

static inline void irdma_wr32(struct irdma_fn *fn, u32 reg, u32 val)
{
	writel(val, fn->hw + reg);
}

/* utils.c: coherent DMA memory, and memory the device may still own */
int irdma_dma_alloc(struct irdma_fn *fn, struct irdma_dma_mem *mem,
		    size_t size, gfp_t gfp);
int irdma_dma_alloc_block(struct irdma_fn *fn, struct irdma_dma_mem *mem,
			  size_t size, gfp_t gfp);
void irdma_dma_free(struct irdma_fn *fn, struct irdma_dma_mem *mem);
int irdma_dma_outstanding(void);
void irdma_dma_release(struct irdma_fn *fn, struct irdma_dma_mem *mem,
		       bool hw_done);
void irdma_dma_free_orphans(struct irdma_fn *fn, bool hw_down);
struct ib_umem;
void irdma_orphan_keep(struct irdma_fn *fn, struct ib_umem *umem,
		       struct irdma_dma_pages *pages);
void irdma_umem_release(struct irdma_fn *fn, struct ib_umem *umem,
			bool hw_done);
void irdma_addr_ntoh(u32 *dst, const __be32 *src, unsigned int words);
void irdma_addr_hton(__be32 *dst, const u32 *src, unsigned int words);

/* pages.c: coherent memory in separate 4 KiB pages */
int irdma_dma_pages_alloc(struct irdma_fn *fn, struct irdma_dma_pages *pages,
			  size_t bytes);
void irdma_dma_pages_free(struct irdma_fn *fn, struct irdma_dma_pages *pages);
void irdma_dma_pages_release(struct irdma_fn *fn,
			     struct irdma_dma_pages *pages, bool hw_done);
void *irdma_dma_pages_va(const struct irdma_dma_pages *pages, size_t off);

/* main.c: the function's life cycle */
struct irdma_fn *irdma_fn_probe(const struct irdma_fn_res *res);
void irdma_fn_remove(struct irdma_fn *fn);

/* hw.c: bring-up, teardown, the event queues */
int irdma_hw_init(struct irdma_fn *fn);
void irdma_hw_deinit(struct irdma_fn *fn);

/*
 * The event entry points: where the event queues (hw.c) hand a CQ's
 * completion event or an object's asynchronous event to the verbs layer,
 * the hardware layer's only calls upward.
 */
void irdma_cq_ceq_event(struct irdma_fn *fn, u64 ctx);
void irdma_cq_async_event(struct irdma_fn *fn, u32 id);
void irdma_qp_suspended(struct irdma_fn *fn, u32 qp_id);
void irdma_qp_iwarp_ae(struct irdma_fn *fn, u32 qp_id, u16 code, u8 tcp_state,
		       bool error);
void irdma_qp_iwarp_term_event(struct irdma_fn *fn, u32 qp_id, u16 code, u8 source,
			       u32 wqe_idx);
void irdma_qp_async_event(struct irdma_fn *fn, u32 qp_id, u16 code, u8 source,
			  u32 wqe_idx);
void irdma_srq_event(struct irdma_fn *fn, u32 srq_id);

/* ae.c */
enum irdma_ae_target irdma_ae_target(u16 code, u8 source);
bool irdma_ae_terminates(u8 iw_state, u8 tcp_state);

/* cqp.c: the CQP, and the life of a request on it */
int irdma_cqp_create(struct irdma_fn *fn);
int irdma_cqp_destroy(struct irdma_fn *fn);
int irdma_cqp_post(struct irdma_fn *fn, const struct irdma_cqp_wqe *cmd,
		   u32 *idx);
int irdma_cqp_exec(struct irdma_fn *fn, const struct irdma_cqp_wqe *cmd,
		   struct irdma_cqp_compl *compl);
int irdma_cqp_post_async(struct irdma_fn *fn, const struct irdma_cqp_wqe *cmd);
int irdma_cqp_exec_atomic(struct irdma_fn *fn, const struct irdma_cqp_wqe *cmd);
int irdma_cqp_exec_ccq_create(struct irdma_fn *fn, const struct irdma_cqp_wqe *cmd);
void irdma_cqp_process_ccq(struct irdma_fn *fn);
void irdma_ccq_arm(struct irdma_fn *fn);

/* ctrl.c: command layouts; the CQP's own, CQ and EQ commands */
u64 irdma_cqp_wqe_hdr(u8 op, bool polarity);
void irdma_cqp_wqe_set_hdr(__le64 *wqe, u64 hdr);
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
 * @check_overflow: the hardware refuses to write over CQEs not yet
 *	taken (the verbs CQs and the CCQ; upstream leaves it off for the
 *	PUDA queues' CQs)
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
	bool check_overflow;
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

/**
 * struct irdma_eq_ring_hw - where the hardware finds an event queue's ring
 * @pa: device address of a contiguous ring (when not @paged)
 * @first_pble: the first of the one-level PBLEs of a @paged ring
 * @paged: the ring is in 4 KiB pages its PBLEs list
 */
struct irdma_eq_ring_hw {
	dma_addr_t pa;
	u32 first_pble;
	bool paged;
};

void irdma_build_create_aeq(struct irdma_cqp_wqe *cmd, u32 size,
			    const struct irdma_eq_ring_hw *ring);
void irdma_build_destroy_aeq(struct irdma_cqp_wqe *cmd, u32 size,
			     const struct irdma_eq_ring_hw *ring);

/**
 * struct irdma_qp_hw_info - what the hardware is told about a QP
 * @id: QP number
 * @type: enum irdma_qp_hw_type
 * @ctx_pa: device address of the 256-byte host context
 * @shadow_pa: device address of the shadow area
 * @sq_pa: device address of the SQ ring
 * @rq_pa: device address of the RQ ring
 * @sq_quanta: SQ ring size in quanta (a power of two)
 * @rq_quanta: RQ ring size in quanta (a power of two)
 * @rq_shift: an RQ WQE is 1 << @rq_shift quanta
 * @send_cq: CQ of send completions
 * @recv_cq: CQ of receive completions
 * @pd: protection domain
 * @compl_ctx: the value CQEs carry for the QP
 * @qs_handle: transmit scheduler queue set
 * @kernel: a kernel QP (privileged: STag 0, fast registration)
 * @vq: the rings are PBLE lists (@sq_pa, @rq_pa are PBLE indexes)
 * @mac: source MAC address
 * @mss: path MTU in bytes
 * @ipv4: the addresses are IPv4 (in word 3)
 * @dest_ip: destination address, host-order words, most significant first
 * @src_ip: source address, the same way
 * @ttl: hop limit
 * @tos: traffic class
 * @flow_label: flow label
 * @src_port: UDP source port
 * @vlan: VLAN tag with priority
 * @insert_vlan: the VLAN tag is inserted
 * @arp_idx: ARP table entry of the destination MAC
 * @rem_endpoint: remote endpoint index
 * @dest_qp: destination QP number
 * @qkey: Q_Key
 * @pkey: partition key
 * @sq_psn: next send PSN
 * @sq_psn_set: a send PSN was given (IB_QP_SQ_PSN), zero included: the
 *	context's last-sequence-number field is then 0xffff
 * @rq_psn: expected receive PSN
 * @retry_cnt: transport retries
 * @rnr_retry: RNR retries
 * @err_rq_idx: the RQ WQE an error event named
 * @err_rq_idx_valid: @err_rq_idx is set (the event came from the RQ)
 * @ord: outbound RDMA reads in flight
 * @ird: inbound RDMA reads in flight
 * @use_srq: receives take WQEs from a shared receive queue
 * @srq_id: that SRQ
 * @push: the QP has a push page
 * @push_idx: its index
 * @q2_pa: iWARP: device address of the Q2 buffer (256-byte aligned)
 * @conn: iWARP: the connection, once the QP takes it over (NULL at
 *	creation)
 */
struct irdma_qp_hw_info {
	u32 id;
	u8 type;
	dma_addr_t ctx_pa;
	dma_addr_t shadow_pa;
	dma_addr_t sq_pa;
	dma_addr_t rq_pa;
	u32 sq_quanta;
	u32 rq_quanta;
	u8 rq_shift;
	u32 send_cq;
	u32 recv_cq;
	u32 pd;
	u64 compl_ctx;
	u16 qs_handle;
	bool kernel;
	bool vq;
	u8 mac[ETH_ALEN];
	u16 mss;
	bool ipv4;
	u32 dest_ip[4];
	u32 src_ip[4];
	u8 ttl;
	u8 tos;
	u32 flow_label;
	u16 src_port;
	u16 vlan;
	bool insert_vlan;
	u16 arp_idx;
	u16 rem_endpoint;
	u32 dest_qp;
	u32 qkey;
	u16 pkey;
	u32 sq_psn;
	bool sq_psn_set;
	u32 rq_psn;
	u8 retry_cnt;
	u8 rnr_retry;
	u16 err_rq_idx;
	bool err_rq_idx_valid;
	u8 ord;
	u8 ird;
	bool use_srq;
	u32 srq_id;
	bool push;
	u32 push_idx;
	dma_addr_t q2_pa;
	const struct irdma_iwarp_conn *conn;
};

/**
 * struct irdma_iwarp_conn - the TCP connection an iWARP QP takes over from
 * the connection manager (its addresses, ports but the peer's, MSS, VLAN
 * and ARP entry are in struct irdma_qp_hw_info)
 * @dst_port: the peer's port
 * @snd_nxt: the next sequence number to send
 * @snd_wnd: the peer's window, scaled
 * @max_snd_wnd: the largest the peer offered
 * @rcv_nxt: the next sequence number expected
 * @rcv_wnd: this side's window, scaled
 * @snd_wscale: the peer's window scale
 * @rcv_wscale: this side's
 * @snd_markers: the peer asked for markers in what it receives
 * @snd_mark_offset: where the first marker goes, with @snd_markers
 */
struct irdma_iwarp_conn {
	u16 dst_port;
	u32 snd_nxt;
	u32 snd_wnd;
	u32 max_snd_wnd;
	u32 rcv_nxt;
	u32 rcv_wnd;
	u8 snd_wscale;
	u8 rcv_wscale;
	bool snd_markers;
	u16 snd_mark_offset;
};

/* Flags of a MODIFY_QP besides the next state. */
#define IRDMA_QPMOD_ARP_VALID	BIT(0)
#define IRDMA_QPMOD_CQ_VALID	BIT(1)
#define IRDMA_QPMOD_ORD_VALID	BIT(2)
#define IRDMA_QPMOD_TCP_VALID	BIT(3)	/* iWARP: the TCP part of the context */
#define IRDMA_QPMOD_RESET_CONN	BIT(4)	/* iWARP: reset the connection */
#define IRDMA_QPMOD_DEL_HASH	BIT(5)	/* iWARP: its quad hash entry goes */

/* ctrl_qp.c: QP contexts and the commands on QPs */
void irdma_qp_ctx_write(__le64 *ctx, const struct irdma_qp_hw_info *info);
void irdma_qp_ctx_write_iwarp(__le64 *ctx, const struct irdma_qp_hw_info *info);
void irdma_qp_ctx_write_uda(__le64 *ctx, const struct irdma_qp_hw_info *info);
void irdma_build_create_uda_qp(struct irdma_cqp_wqe *cmd,
			       const struct irdma_qp_hw_info *info);
void irdma_build_create_qp(struct irdma_cqp_wqe *cmd,
			   const struct irdma_qp_hw_info *info);
void irdma_build_terminate_qp(struct irdma_cqp_wqe *cmd,
			      const struct irdma_qp_hw_info *info, bool msg, bool fin,
			      u8 len);
void irdma_build_modify_qp(struct irdma_cqp_wqe *cmd,
			   const struct irdma_qp_hw_info *info, u8 next_state,
			   u32 flags);
void irdma_build_destroy_qp(struct irdma_cqp_wqe *cmd,
			    const struct irdma_qp_hw_info *info);
void irdma_build_flush_wqes(struct irdma_cqp_wqe *cmd, u32 qp_id, bool sq,
			    bool rq, u16 sq_minor, u16 rq_minor);
void irdma_build_gen_ae(struct irdma_cqp_wqe *cmd, u32 qp_id, u16 ae_code, u8 ae_src);

/**
 * struct irdma_ws_node - a node of the transmit scheduler's tree
 * @id: the node's id
 * @parent: its parent's id (the root is its own parent)
 * @vsi: the VSI it serves
 * @tc: its traffic class (a leaf's; 0 for inner nodes)
 * @weight: its share among its siblings (weighted round robin)
 * @leaf: a queue set rather than an inner node
 * @enable: the node schedules
 */
struct irdma_ws_node {
	u16 id;
	u16 parent;
	u16 vsi;
	u8 tc;
	u8 weight;
	bool leaf;
	bool enable;
};

void irdma_build_ws_node(struct irdma_cqp_wqe *cmd, u8 op,
			 const struct irdma_ws_node *node);
void irdma_build_suspend_qp(struct irdma_cqp_wqe *cmd, u32 qp_id);
void irdma_build_resume_qp(struct irdma_cqp_wqe *cmd, u32 qp_id,
			   u16 qs_handle);
void irdma_build_manage_arp(struct irdma_cqp_wqe *cmd, u16 idx,
			    const u8 *mac);
void irdma_build_take_push_page(struct irdma_cqp_wqe *cmd, u16 qs_handle);
void irdma_build_give_back_push_page(struct irdma_cqp_wqe *cmd, u16 qs_handle,
				     u32 idx);

/**
 * struct irdma_stag_info - a memory key as ALLOC_STAG and REG_MR give it
 * @stag: the key: index << 8 | consumer key
 * @pd: protection domain
 * @len: length in bytes (0 with a PA of 0: all memory)
 * @va: first address (VA-based)
 * @rights: IRDMA_MR_RIGHT_* bits
 * @zero_based: addresses count from the region's start
 * @page_size: enum irdma_page_size
 * @pbl_levels: 0 (@pa is the region), 1 or IRDMA_PBL_LEVELS_2
 * @first_pble: first PBLE (or root) index when @pbl_levels
 * @pa: the region's first page (no PBLEs)
 */
struct irdma_stag_info {
	u32 stag;
	u32 pd;
	u64 len;
	u64 va;
	u8 rights;
	bool zero_based;
	u8 page_size;
	u8 pbl_levels;
	u32 first_pble;
	u64 pa;
};

/**
 * struct irdma_srq_hw_info - a shared receive queue as the hardware knows it
 * @id: its number
 * @pd: protection domain
 * @ring_pa: the ring (256-byte aligned), or its PBLEs' list
 * @shadow_pa: the shadow area (64-byte aligned)
 * @quanta: the ring's size in quanta
 * @shift: log2 of a WQE's quanta
 * @compl_ctx: returned with its events
 * @virtual_map: the ring is behind PBLEs
 * @pbl_levels: PBLE levels of a virtually mapped ring
 * @first_pble: its first PBLE
 */
struct irdma_srq_hw_info {
	u32 id;
	u32 pd;
	dma_addr_t ring_pa;
	dma_addr_t shadow_pa;
	u32 quanta;
	u8 shift;
	u64 compl_ctx;
	bool virtual_map;
	u8 pbl_levels;
	u32 first_pble;
};

/* ws.c: the work scheduler tree and the QoS the LAN driver set */
void irdma_ws_init(struct irdma_fn *fn);
void irdma_ws_fini(struct irdma_fn *fn);
void irdma_ws_suspended(struct irdma_fn *fn);
void irdma_ws_tc_before(struct irdma_fn *fn);
bool irdma_ws_tc_after(struct irdma_fn *fn);
void irdma_fn_load_qos(struct irdma_fn *fn);
int irdma_ws_puda_join(struct irdma_fn *fn, struct irdma_puda *q);
void irdma_ws_puda_leave(struct irdma_fn *fn, struct irdma_puda *q);

/* events.c: the LAN driver's events (ice's IIDC events) */
#define IRDMA_EVENT_AFTER_MTU	BIT(0)
#define IRDMA_EVENT_BEFORE_TC	BIT(1)
#define IRDMA_EVENT_AFTER_TC	BIT(2)
#define IRDMA_EVENT_CRIT_ERR	BIT(3)

void irdma_fn_event(struct irdma_fn *fn, u32 events, u32 reg);

/* ctrl_srq.c: shared receive queues */
void irdma_build_create_srq(struct irdma_cqp_wqe *cmd,
			    const struct irdma_srq_hw_info *info);
void irdma_build_modify_srq(struct irdma_cqp_wqe *cmd,
			    const struct irdma_srq_hw_info *info, u32 limit);
void irdma_build_destroy_srq(struct irdma_cqp_wqe *cmd,
			     const struct irdma_srq_hw_info *info);

/* ctrl_mem.c: memory keys and address handles */
void irdma_build_alloc_stag(struct irdma_cqp_wqe *cmd,
			    const struct irdma_stag_info *info);
void irdma_build_reg_mr(struct irdma_cqp_wqe *cmd,
			const struct irdma_stag_info *info);
/* What a key to retire names (DEALLOC_STAG's MR bit). */
enum irdma_stag_kind {
	IRDMA_STAG_KIND_MW,
	IRDMA_STAG_KIND_MR,
};

void irdma_build_dealloc_stag(struct irdma_cqp_wqe *cmd, u32 stag, u32 pd,
			      enum irdma_stag_kind kind);
void irdma_build_alloc_mw(struct irdma_cqp_wqe *cmd, u32 stag, u32 pd,
			  bool type1);

/**
 * struct irdma_ah_hw_info - an address handle as the hardware keeps it
 * @id: AH index
 * @pd: protection domain
 * @mac: source MAC address
 * @ipv4: IPv4 addresses (in word 3)
 * @dest_ip: destination address, host-order words
 * @src_ip: source address
 * @arp_idx: ARP table entry of the destination MAC
 * @tc: traffic class
 * @hop_limit: hop limit
 * @flow_label: flow label
 * @vlan: VLAN tag with priority
 * @insert_vlan: the tag is inserted
 * @loopback: the destination is this host
 */
struct irdma_ah_hw_info {
	u32 id;
	u32 pd;
	u8 mac[ETH_ALEN];
	bool ipv4;
	u32 dest_ip[4];
	u32 src_ip[4];
	u16 arp_idx;
	u8 tc;
	u8 hop_limit;
	u32 flow_label;
	u16 vlan;
	bool insert_vlan;
	bool loopback;
};

void irdma_build_ah(struct irdma_cqp_wqe *cmd,
		    const struct irdma_ah_hw_info *info, u8 op);

/* ctrl_cm.c: the tables that steer TCP segments (iWARP) */
void irdma_build_manage_apbvt(struct irdma_cqp_wqe *cmd, u16 port,
			      enum irdma_cm_table_op op);

/**
 * struct irdma_qhash_info - a quad-hash entry
 * @type: %IRDMA_QHASH_TCP_SYN for a listener (local address and port) or
 *	%IRDMA_QHASH_TCP_ESTABLISHED for a connection (both ends)
 * @ipv4: IPv4 addresses (in word 3)
 * @vlan_valid: only frames on @vlan match
 * @vlan: the VLAN id
 * @mac: the local MAC address
 * @local_ip: the local address, host-order words
 * @remote_ip: the remote address (a connection's only)
 * @local_port: the local TCP port
 * @remote_port: the remote TCP port (a connection's only)
 * @qp_id: the QP matching segments go to
 * @qs_handle: the queue set of the entry's priority
 */
struct irdma_qhash_info {
	enum irdma_qhash_type type;
	bool ipv4;
	bool vlan_valid;
	u16 vlan;
	u8 mac[ETH_ALEN];
	u32 local_ip[4];
	u32 remote_ip[4];
	u16 local_port;
	u16 remote_port;
	u32 qp_id;
	u16 qs_handle;
};

void irdma_build_manage_qhash(struct irdma_cqp_wqe *cmd,
			      const struct irdma_qhash_info *info,
			      enum irdma_cm_table_op op);

/* cm_tables.c */
int irdma_apbvt_get(struct irdma_fn *fn, u16 port);
void irdma_apbvt_put(struct irdma_fn *fn, u16 port);
int irdma_qhash_manage(struct irdma_fn *fn, const struct irdma_qhash_info *info,
		       enum irdma_cm_table_op op);

/* hmc.c */
void *irdma_hmc_sd_va(const struct irdma_hmc_sd *sd, u32 off);
int irdma_hmc_sd_add_paged(struct irdma_fn *fn, u32 idx, u32 from, u32 to);
void irdma_hmc_sd_release(struct irdma_fn *fn, struct irdma_hmc_sd *sd,
			  bool hw_done);
int irdma_hmc_program_sds(struct irdma_fn *fn, const u32 *idx, u32 count);
int irdma_hmc_size(struct irdma_fn *fn);
int irdma_hmc_setup(struct irdma_fn *fn);
void irdma_hmc_teardown(struct irdma_fn *fn);

/* pble.c */
int irdma_pble_pool_init(struct irdma_fn *fn);
void irdma_pble_pool_destroy(struct irdma_fn *fn);
int irdma_pble_alloc(struct irdma_fn *fn, u32 count,
		     enum irdma_pble_levels levels,
		     struct irdma_pble_alloc *alloc);
void irdma_pble_free(struct irdma_fn *fn, struct irdma_pble_alloc *alloc);
void irdma_pble_set(struct irdma_fn *fn, u32 idx, u64 val);
u64 irdma_pble_get(struct irdma_fn *fn, u32 idx);
void irdma_pble_set_page(struct irdma_fn *fn,
			 const struct irdma_pble_alloc *alloc, u32 n, u64 addr);

/**
 * struct irdma_pble_cursor - a walk over an allocation's PBLEs, page by page
 * @leaf: the leaf (two levels)
 * @off: the PBLE within the leaf, or within the list (one level)
 */
struct irdma_pble_cursor {
	u32 leaf;
	u32 off;
};

u32 irdma_next_pbl_addr(const struct irdma_pble_alloc *alloc,
			struct irdma_pble_cursor *cur);

/* ids.c: object numbers */
int irdma_ids_init(struct irdma_ids *ids, u32 size);
void irdma_ids_destroy(struct irdma_ids *ids);
int irdma_ids_alloc_from(struct irdma_ids *ids, u32 min, u32 max, u32 start);
int irdma_ids_alloc(struct irdma_ids *ids, u32 min, u32 max);
void irdma_ids_free(struct irdma_ids *ids, u32 id);

/*
 * Front-ends: each gathers its functions' resources and calls
 * irdma_fn_probe(); main.c registers their auxiliary drivers. One whose LAN
 * driver is not built has none.
 */
struct auxiliary_driver;
struct iidc_auxiliary_drv;
struct irdma_sim_aux_driver;
extern struct auxiliary_driver irdma_i40e_frontend;
extern struct iidc_auxiliary_drv irdma_ice_frontend;
extern struct irdma_sim_aux_driver irdma_sim_frontend;

/* puda.c: the privileged UDA queues (iWARP) */
#define IRDMA_ILQ_ID			1
#define IRDMA_PUDA_CQ_CTX_FLAG		BIT_ULL(52)
#define IRDMA_PUDA_CQ_ID		GENMASK_ULL(19, 0)

/**
 * struct irdma_puda_rx - a segment a PUDA queue received
 * @data: the buffer: the IP header ending 40 bytes in (an IPv4 one after
 *	20 bytes of padding), the TCP header from there
 * @len: bytes in @data, from its start
 * @ipv4: an IPv4 packet
 * @vlan_valid: it came with a VLAN tag
 * @vlan: the tag
 * @smac: its source MAC
 */
struct irdma_puda_rx {
	const u8 *data;
	u32 len;
	bool ipv4;
	bool vlan_valid;
	u16 vlan;
	u8 smac[ETH_ALEN];
};

/**
 * struct irdma_puda_cfg - a PUDA queue to make
 * @id: its QP and CQ number (IRDMA_ILQ_ID or IRDMA_IEQ_QP_ID)
 * @size: WQEs in its SQ and in its RQ (a power of two)
 * @rx_wide: a receive may take two CQEs (the ILQ on GEN_2): the CQ has
 *	room for a second RQ's worth
 * @buf_size: bytes a buffer holds
 * @tx_bufs: transmit buffers
 * @receive: takes each segment received, in the CEQ's interrupt thread;
 *	it must not wait for a CQP command (their completions come through
 *	the same thread); the buffer is the queue's again on return
 * @priv: the owner's
 */
struct irdma_puda_cfg {
	u32 id;
	u32 size;
	bool rx_wide;
	u32 buf_size;
	u32 tx_bufs;
	void (*receive)(struct irdma_puda *q, const struct irdma_puda_rx *rx);
	void *priv;
};

/**
 * struct irdma_puda_stats - what a PUDA queue did
 * @rx: segments received and handed on
 * @rx_errors: receive completions in error or malformed
 * @tx: segments posted
 * @tx_errors: send completions in error, or out of the SQ's order
 * @tx_busy: sends refused, every buffer or SQ slot in flight
 */
struct irdma_puda_stats {
	u64 rx;
	u64 rx_errors;
	u64 tx;
	u64 tx_errors;
	u64 tx_busy;
};

/**
 * struct irdma_puda_bufs - a PUDA queue's buffers of one kind, in DMA
 *	chunks (thousands of buffers: no one contiguous block)
 * @chunk: the chunks
 * @chunks: how many
 * @per_chunk: buffers a chunk holds
 */
struct irdma_puda_bufs {
	struct irdma_dma_mem *chunk;
	u32 chunks;
	u32 per_chunk;
};

/**
 * struct irdma_puda - a privileged UDA queue: QP, CQ and buffers
 * @fn: its function
 * @id: QP and CQ number
 * @size: WQEs in the SQ and in the RQ
 * @cq_size: CQEs in the CQ
 * @buf_size: bytes a buffer holds
 * @tx_bufs: transmit buffers
 * @receive: the owner's receive hook
 * @priv: the owner's
 * @qp_mem: SQ, RQ, host context and shadow area, in that order
 * @cq_mem: the CQ's ring and shadow area
 * @rx: a receive buffer per RQ slot
 * @tx: the transmit buffers
 * @cq: the CQ, as consumed
 * @hw: the QP as the hardware knows it
 * @cq_hw: the CQ as the hardware knows it
 * @lock: the SQ and the transmit buffers
 * @sq: the SQ's ring (one quantum a WQE)
 * @sq_polarity: the valid bit of the SQ's current pass
 * @sq_buf: the transmit buffer each SQ slot carries
 * @tx_free: the free transmit buffers, a stack
 * @tx_free_count: entries in @tx_free
 * @rq_valid: the valid bit each RQ slot was last posted with
 * @qs_handle: the queue set it sends through
 * @ws_joined: it holds a place on the scheduler tree
 * @hw_cq: the CQ exists in the hardware
 * @hw_qp: the QP exists in the hardware
 * @stats: what it did
 */
struct irdma_puda {
	struct irdma_fn *fn;
	u32 id;
	u32 size;
	u32 cq_size;
	u32 buf_size;
	u32 tx_bufs;
	void (*receive)(struct irdma_puda *q, const struct irdma_puda_rx *rx);
	void *priv;
	struct irdma_dma_mem qp_mem;
	struct irdma_dma_mem cq_mem;
	struct irdma_puda_bufs rx;
	struct irdma_puda_bufs tx;
	struct irdma_uk_cq cq;
	struct irdma_qp_hw_info hw;
	struct irdma_cq_hw_info cq_hw;
	spinlock_t lock; /* @sq, @sq_buf, @tx_free */
	struct irdma_ring sq;
	bool sq_polarity;
	u16 *sq_buf;
	u16 *tx_free;
	u32 tx_free_count;
	unsigned long *rq_valid;
	u16 qs_handle;
	bool ws_joined;
	bool hw_cq;
	bool hw_qp;
	struct irdma_puda_stats stats;
};

int irdma_puda_create(struct irdma_fn *fn, const struct irdma_puda_cfg *cfg,
		      struct irdma_puda **out);
void irdma_puda_destroy(struct irdma_fn *fn, struct irdma_puda *q);
int irdma_puda_send_parts(struct irdma_puda *q, u32 ah_id, const void *hdr,
			  u32 l4_len, const void *data, u32 len);
int irdma_puda_send(struct irdma_puda *q, u32 ah_id, const void *data, u32 len,
		    u32 l4_len);
void irdma_puda_ceq_event(struct irdma_fn *fn, u64 ctx);
int irdma_puda_setup(struct irdma_fn *fn);
int irdma_puda_ieq_remake(struct irdma_fn *fn);
void irdma_puda_teardown(struct irdma_fn *fn);

/* cm.c */
void irdma_cm_ilq_receive(struct irdma_puda *q, const struct irdma_puda_rx *rx);

/* ieq.c */
void irdma_ieq_receive(struct irdma_puda *q, const struct irdma_puda_rx *rx);

#endif /* IRDMA_MAIN_H */
