// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The ib_device verbs layer: translates between ib_core's view of
 * resources and work and the hardware's.
 */
#include <kunit/visibility.h>
#include <linux/bitfield.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <net/addrconf.h>
#include <net/if_inet6.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/uverbs_ioctl.h>
#include <uapi/rdma/irdma-abi.h>

#include "verbs.h"

/**
 * irdma_flush_err_to_ib_wc_status - completion status for a CQE minor code
 * @opcode: the minor error code of a failed or flushed CQE
 *
 * Return: the ib_wc status the consumer sees; unknown codes are fatal.
 */
enum ib_wc_status irdma_flush_err_to_ib_wc_status(enum irdma_flush_opcode opcode)
{
	static const enum ib_wc_status status[] = {
		[IRDMA_FLUSH_GENERAL_ERR] = IB_WC_WR_FLUSH_ERR,
		[IRDMA_FLUSH_PROT_ERR] = IB_WC_LOC_PROT_ERR,
		[IRDMA_FLUSH_REM_ACCESS_ERR] = IB_WC_REM_ACCESS_ERR,
		[IRDMA_FLUSH_LOC_QP_OP_ERR] = IB_WC_LOC_QP_OP_ERR,
		[IRDMA_FLUSH_REM_OP_ERR] = IB_WC_REM_OP_ERR,
		[IRDMA_FLUSH_LOC_LEN_ERR] = IB_WC_LOC_LEN_ERR,
		[IRDMA_FLUSH_FATAL_ERR] = IB_WC_FATAL_ERR,
		[IRDMA_FLUSH_RETRY_EXC_ERR] = IB_WC_RETRY_EXC_ERR,
		[IRDMA_FLUSH_MW_BIND_ERR] = IB_WC_MW_BIND_ERR,
		[IRDMA_FLUSH_REM_INV_REQ_ERR] = IB_WC_REM_INV_REQ_ERR,
	};

	if (opcode == IRDMA_FLUSH_INVALID || opcode >= ARRAY_SIZE(status))
		return IB_WC_FATAL_ERR;
	return status[opcode];
}
EXPORT_SYMBOL_IF_KUNIT(irdma_flush_err_to_ib_wc_status);

/**
 * irdma_get_mr_access - hardware access rights for ib_core access flags
 * @access: IB_ACCESS_* and IB_ZERO_BASED flags
 *
 * Local read is always granted; remote rights imply the local ones the
 * hardware's encoding bundles with them.
 *
 * Return: the IRDMA_ACCESS_FLAGS_* value for a memory region or window.
 */
u16 irdma_get_mr_access(int access)
{
	static const struct {
		int ib;
		u16 rights;
	} map[] = {
		{ IB_ACCESS_LOCAL_WRITE, IRDMA_MR_RIGHT_LOCAL_WRITE },
		{ IB_ACCESS_REMOTE_READ,
		  IRDMA_MR_RIGHT_REMOTE_READ | IRDMA_MR_RIGHT_LOCAL_READ },
		{ IB_ACCESS_REMOTE_WRITE,
		  IRDMA_MR_RIGHT_REMOTE_WRITE | IRDMA_MR_RIGHT_LOCAL_WRITE },
		{ IB_ACCESS_MW_BIND, IRDMA_MR_RIGHT_BIND_WINDOW },
		{ IB_ZERO_BASED, IRDMA_MR_RIGHT_ZERO_BASED },
	};
	u16 rights = IRDMA_MR_RIGHT_LOCAL_READ;
	int i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (access & map[i].ib)
			rights |= map[i].rights;
	return rights;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_get_mr_access);

/**
 * irdma_query_device - the device's attributes
 * @ibdev: the device
 * @props: filled in
 * @udata: must carry nothing
 *
 * Return: 0, or -EINVAL for user data.
 */
static int irdma_query_device(struct ib_device *ibdev,
			      struct ib_device_attr *props,
			      struct ib_udata *udata)
{
	struct irdma_fn *fn = &to_iwdev(ibdev)->fn;
	struct irdma_hmc_objinfo *o = fn->hmc.obj;
	const struct irdma_uk_attrs *uk = &fn->uk_attrs;

	if (udata->inlen || udata->outlen)
		return -EINVAL;

	memset(props, 0, sizeof(*props));
	addrconf_addr_eui48((u8 *)&props->sys_image_guid, fn->res.netdev->dev_addr);
	props->fw_ver = (u64)fn->fw_major << 32 | fn->fw_minor;
	props->device_cap_flags = IB_DEVICE_MEM_WINDOW | IB_DEVICE_MEM_MGT_EXTENSIONS;
	props->kernel_cap_flags = IBK_LOCAL_DMA_LKEY;
	props->vendor_id = fn->res.vendor_id;
	props->vendor_part_id = fn->res.device_id;
	props->hw_ver = fn->res.revision;
	props->page_size_cap = IRDMA_PAGE_SIZE_CAP;
	props->max_mr_size = IRDMA_MAX_MR_SIZE;
	props->max_qp = o[IRDMA_HMC_QP].cnt - IRDMA_RSVD_QPS;
	props->max_qp_wr = (uk->max_hw_wq_quanta - IRDMA_SQ_RSVD) /
			   uk->max_hw_sq_chunk;
	props->max_send_sge = uk->max_hw_wq_frags;
	props->max_recv_sge = uk->max_hw_wq_frags;
	props->max_cq = o[IRDMA_HMC_CQ].cnt - IRDMA_RSVD_CQS;
	props->max_cqe = uk->max_hw_cq_size - 1;
	props->max_mr = o[IRDMA_HMC_MR].cnt - IRDMA_RSVD_MRS;
	props->max_mw = props->max_mr;
	props->max_pd = fn->max_pd - IRDMA_RSVD_PDS;
	props->max_sge_rd = uk->max_hw_read_sges;
	props->max_qp_rd_atom = IRDMA_GEN2_MAX_IRD;
	props->max_qp_init_rd_atom = IRDMA_GEN2_MAX_ORD;
	if (rdma_protocol_roce(ibdev, 1)) {
		props->device_cap_flags |= IB_DEVICE_RC_RNR_NAK_GEN;
		props->max_pkeys = IRDMA_PKEY_TBL_SZ;
	}
	/*
	 * As upstream states them, though index 0 of each is never handed
	 * out and groups stop at 4095 (verbs_mcast.c).
	 */
	props->max_ah = o[IRDMA_HMC_FSIAV].cnt;
	props->max_mcast_grp = o[IRDMA_HMC_QP].cnt;
	props->max_mcast_qp_attach = IRDMA_MAX_MGS_PER_CTX;
	props->max_total_mcast_qp_attach = o[IRDMA_HMC_QP].cnt * IRDMA_MAX_MGS_PER_CTX;
	props->max_fast_reg_page_list_len = IRDMA_MAX_PAGES_PER_FMR;
	props->timestamp_mask = IRDMA_TIMESTAMP_MASK;
	irdma_srq_query_device(fn, props);
	return 0;
}

/**
 * irdma_query_port - the port's attributes
 * @ibdev: the device
 * @port: the port (there is one)
 * @props: filled in; ib_core has zeroed it
 *
 * Return: 0.
 */
static int irdma_query_port(struct ib_device *ibdev, u32 port,
			    struct ib_port_attr *props)
{
	struct irdma_fn *fn = &to_iwdev(ibdev)->fn;
	struct net_device *netdev = fn->res.netdev;
	bool roce = fn->res.protocol == IRDMA_PROTOCOL_ROCEV2;
	bool up = netif_running(netdev) && netif_carrier_ok(netdev);

	/* ib_core zeroed @props: LMC, SM and the counters stay 0. */
	props->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	props->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP :
				 IB_PORT_PHYS_STATE_DISABLED;
	ib_get_eth_speed(ibdev, port, &props->active_speed, &props->active_width);
	props->max_mtu = IB_MTU_4096;
	props->active_mtu = ib_mtu_int_to_enum(netdev->mtu);
	props->max_msg_sz = IRDMA_MAX_MSG_SIZE;
	props->lid = 1;
	props->port_cap_flags |= IB_PORT_CM_SUP | IB_PORT_REINIT_SUP;
	props->gid_tbl_len = roce ? IRDMA_ROCE_GID_TBL_SZ : 1;
	props->pkey_tbl_len = roce ? IRDMA_PKEY_TBL_SZ : 0;
	props->ip_gids = roce;
	return 0;
}

/* What never changes about the port: fixed by the protocol. */
static int irdma_get_port_immutable(struct ib_device *ibdev, u32 port,
				    struct ib_port_immutable *immutable)
{
	if (to_iwdev(ibdev)->fn.res.protocol == IRDMA_PROTOCOL_IWARP) {
		*immutable = (struct ib_port_immutable) {
			.core_cap_flags = RDMA_CORE_PORT_IWARP,
			.gid_tbl_len = 1,
		};
	} else {
		*immutable = (struct ib_port_immutable) {
			.core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP,
			.gid_tbl_len = IRDMA_ROCE_GID_TBL_SZ,
			.pkey_tbl_len = IRDMA_PKEY_TBL_SZ,
			.max_mad_size = IB_MGMT_MAD_SIZE,
		};
	}
	return 0;
}

/**
 * irdma_query_gid - a GID of an iWARP port: its MAC address
 * @ibdev: the device
 * @port: the port
 * @index: the GID's index
 * @gid: filled in
 *
 * Return: 0.
 */
static int irdma_query_gid(struct ib_device *ibdev, u32 port, int index,
			   union ib_gid *gid)
{
	memset(gid->raw, 0, sizeof(gid->raw));
	ether_addr_copy(gid->raw, to_iwdev(ibdev)->fn.res.netdev->dev_addr);
	return 0;
}

/**
 * irdma_query_pkey - the P_Key of a RoCE port: the default one only
 * @ibdev: the device
 * @port: the port
 * @index: the P_Key's index
 * @pkey: filled in
 *
 * Return: 0, or -EINVAL for an index past the table.
 */
static int irdma_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			    u16 *pkey)
{
	/* A one-entry table holding the full-membership default. */
	if (index)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

static enum rdma_link_layer irdma_get_link_layer(struct ib_device *ibdev,
						 u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

static void irdma_get_dev_fw_str(struct ib_device *ibdev, char *str)
{
	struct irdma_fn *fn = &to_iwdev(ibdev)->fn;

	snprintf(str, IB_FW_VERSION_NAME_MAX, "%u.%u", fn->fw_major, fn->fw_minor);
}

/**
 * irdma_alloc_pd - allocate a protection domain
 * @ibpd: ib_core's part, embedded in ours
 * @udata: for a user PD, the response to fill
 *
 * Return: 0, -EOVERFLOW when every PD is in use, -ENOMEM, -EINVAL for a
 * response too short, -EFAULT if it cannot be written.
 */
static int irdma_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct irdma_fn *fn = &to_iwdev(ibpd->device)->fn;
	struct irdma_pd *pd = container_of(ibpd, struct irdma_pd, ibpd);
	struct irdma_alloc_pd_resp resp = {};
	int id;

	if (udata && udata->outlen < offsetofend(struct irdma_alloc_pd_resp, rsvd))
		return -EINVAL;

	id = irdma_ids_alloc(&fn->pd_ids, IRDMA_RSVD_PDS, fn->max_pd - 1);
	if (id < 0)
		return id == -ENOSPC ? -EOVERFLOW : id;
	pd->id = id;

	if (udata) {
		resp.pd_id = id;
		if (ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen))) {
			irdma_ids_free(&fn->pd_ids, id);
			return -EFAULT;
		}
	}
	return 0;
}

/**
 * irdma_dealloc_pd - free a protection domain
 * @ibpd: the PD
 * @udata: unused
 *
 * Return: 0.
 */
static int irdma_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct irdma_pd *pd = container_of(ibpd, struct irdma_pd, ibpd);

	irdma_ids_free(&to_iwdev(ibpd->device)->fn.pd_ids, pd->id);
	return 0;
}

/**
 * irdma_mmap_entry_insert - offer a page of BAR0 for mapping
 * @uctx: the user context that may map it
 * @bar_offset: the page's offset in BAR0
 * @wc: map it write-combining (else uncached)
 * @key: returns the mmap offset user space passes
 *
 * Return: the entry (rdma_user_mmap_entry_remove() withdraws it), or NULL.
 */
struct rdma_user_mmap_entry *
irdma_mmap_entry_insert(struct irdma_ucontext *uctx, u64 bar_offset, bool wc,
			u64 *key)
{
	struct irdma_mmap_entry *entry;
	int err;

	entry = kzalloc(sizeof(*entry), GFP_KERNEL);
	if (!entry)
		return NULL;
	entry->bar_offset = bar_offset;
	entry->wc = wc;
	err = rdma_user_mmap_entry_insert(&uctx->ibucontext, &entry->rdma_entry,
					  PAGE_SIZE);
	if (err) {
		kfree(entry);
		return NULL;
	}
	*key = rdma_user_mmap_get_offset(&entry->rdma_entry);
	return &entry->rdma_entry;
}

/**
 * irdma_alloc_ucontext - open the device for a user-space process
 * @ibuctx: ib_core's part, embedded in ours
 * @udata: the provider's request and the response
 *
 * GEN_2 answers ABI version 5 with the hardware's queue limits and the
 * doorbell page's mmap key. The short (i40iw) response exists for GEN_1
 * only.
 *
 * Return: 0, -EINVAL for a malformed or unreadable request or an unknown
 * version, -EOPNOTSUPP for the legacy ABI on GEN_2, -ENOMEM, or -EFAULT
 * for a response that cannot be written.
 */
static int irdma_alloc_ucontext(struct ib_ucontext *ibuctx,
				struct ib_udata *udata)
{
	struct irdma_ucontext *uctx = container_of(ibuctx, struct irdma_ucontext,
						   ibucontext);
	struct irdma_fn *fn = &to_iwdev(ibuctx->device)->fn;
	const size_t min_req = offsetofend(struct irdma_alloc_ucontext_req, rsvd8);
	const size_t min_resp = offsetofend(struct irdma_alloc_ucontext_resp, rsvd);
	const struct irdma_uk_attrs *uk = &fn->uk_attrs;
	struct irdma_alloc_ucontext_resp resp = {};
	struct irdma_alloc_ucontext_req req = {};

	if (udata->inlen < min_req || udata->outlen < min_resp)
		return -EINVAL;
	if (ib_copy_from_udata(&req, udata, min(sizeof(req), udata->inlen)))
		return -EINVAL;
	if (req.userspace_ver < 4 || req.userspace_ver > IRDMA_ABI_VER) {
		ibdev_dbg(ibuctx->device, "provider ABI %u, driver ABI %u\n",
			  req.userspace_ver, IRDMA_ABI_VER);
		return -EINVAL;
	}
	/* The i40iw layout: X722 only. */
	if (udata->outlen == min_resp)
		return -EOPNOTSUPP;
	uctx->abi_ver = req.userspace_ver;
	uctx->use_raw_attrs = req.comp_mask & IRDMA_ALLOC_UCTX_USE_RAW_ATTR;
	spin_lock_init(&uctx->reg_lock);
	INIT_LIST_HEAD(&uctx->qp_regs);
	INIT_LIST_HEAD(&uctx->cq_regs);

	uctx->db_entry = irdma_mmap_entry_insert(uctx, IRDMA_DB_ADDR_OFFSET,
						 false, &resp.db_mmap_key);
	if (!uctx->db_entry)
		return -ENOMEM;

	resp.kernel_ver = IRDMA_ABI_VER;
	resp.feature_flags = IRDMA_FEATURE_RTS_AE | IRDMA_FEATURE_CQ_RESIZE;
	resp.max_hw_wq_frags = uk->max_hw_wq_frags;
	resp.max_hw_read_sges = uk->max_hw_read_sges;
	resp.max_hw_inline = uk->max_hw_inline;
	resp.max_hw_rq_quanta = uk->max_hw_rq_quanta;
	resp.max_hw_wq_quanta = uk->max_hw_wq_quanta;
	resp.max_hw_sq_chunk = uk->max_hw_sq_chunk;
	resp.max_hw_cq_size = uk->max_hw_cq_size;
	resp.min_hw_cq_size = uk->min_hw_cq_size;
	resp.hw_rev = uk->hw_rev;
	resp.comp_mask = IRDMA_ALLOC_UCTX_USE_RAW_ATTR |
			 IRDMA_ALLOC_UCTX_MIN_HW_WQ_SIZE;
	resp.min_hw_wq_size = uk->min_hw_wq_size;
	if (ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen))) {
		rdma_user_mmap_entry_remove(uctx->db_entry);
		return -EFAULT;
	}
	return 0;
}

/**
 * irdma_dealloc_ucontext - close a user-space context
 * @ibuctx: the context
 */
static void irdma_dealloc_ucontext(struct ib_ucontext *ibuctx)
{
	struct irdma_ucontext *uctx = container_of(ibuctx, struct irdma_ucontext,
						   ibucontext);

	rdma_user_mmap_entry_remove(uctx->db_entry);
}

/**
 * irdma_disassociate_ucontext - the device is going away under a context
 * @ibuctx: the context
 *
 * Nothing to do: ib_core zaps the user mappings itself.
 */
static void irdma_disassociate_ucontext(struct ib_ucontext *ibuctx)
{
}

/**
 * irdma_mmap - map a page of BAR0 (a doorbell or push page) into user space
 * @ibuctx: the context
 * @vma: the mapping
 *
 * Return: 0, or -EINVAL for an offset that names no entry.
 */
static int irdma_mmap(struct ib_ucontext *ibuctx, struct vm_area_struct *vma)
{
	struct irdma_fn *fn = &to_iwdev(ibuctx->device)->fn;
	struct rdma_user_mmap_entry *rdma_entry;
	struct irdma_mmap_entry *entry;
	unsigned long pfn;
	pgprot_t prot;
	int err;

	rdma_entry = rdma_user_mmap_entry_get(ibuctx, vma);
	if (!rdma_entry)
		return -EINVAL;
	entry = container_of(rdma_entry, struct irdma_mmap_entry, rdma_entry);

	if (fn->res.ops->bar_pfn(fn, entry->bar_offset, &pfn))
		prot = vma->vm_page_prot;
	else if (entry->wc)
		prot = pgprot_writecombine(vma->vm_page_prot);
	else
		prot = pgprot_noncached(vma->vm_page_prot);
	err = rdma_user_mmap_io(ibuctx, vma, pfn, PAGE_SIZE, prot, rdma_entry);
	rdma_user_mmap_entry_put(rdma_entry);
	return err;
}

static void irdma_mmap_free(struct rdma_user_mmap_entry *rdma_entry)
{
	kfree(container_of(rdma_entry, struct irdma_mmap_entry, rdma_entry));
}

/* What RoCEv2 and iWARP ports answer differently. */
static const struct ib_device_ops irdma_ops_rocev2 = {
	.modify_qp = irdma_modify_qp,
	.get_link_layer = irdma_get_link_layer,
	.query_pkey = irdma_query_pkey,
	.create_ah = irdma_create_ah,
	.create_user_ah = irdma_create_user_ah,
	.destroy_ah = irdma_destroy_ah,
	.query_ah = irdma_query_ah,
	.attach_mcast = irdma_attach_mcast,
	.detach_mcast = irdma_detach_mcast,
	INIT_RDMA_OBJ_SIZE(ib_ah, irdma_ah, ibah),
};

static const struct ib_device_ops irdma_ops_iwarp = {
	.modify_qp = irdma_modify_qp,
	.query_gid = irdma_query_gid,
};

static const struct ib_device_ops irdma_ops_common = {
	/* the device and its port */
	.query_device = irdma_query_device,
	.query_port = irdma_query_port,
	.get_port_immutable = irdma_get_port_immutable,
	.get_dev_fw_str = irdma_get_dev_fw_str,
	.alloc_hw_port_stats = irdma_alloc_hw_port_stats,
	.get_hw_stats = irdma_get_hw_stats,

	/* user contexts and their mappings */
	.alloc_ucontext = irdma_alloc_ucontext,
	.dealloc_ucontext = irdma_dealloc_ucontext,
	.disassociate_ucontext = irdma_disassociate_ucontext,
	.mmap = irdma_mmap,
	.mmap_free = irdma_mmap_free,

	/* protection domains */
	.alloc_pd = irdma_alloc_pd,
	.dealloc_pd = irdma_dealloc_pd,

	/* completion queues */
	.create_cq = irdma_create_cq,
	.destroy_cq = irdma_destroy_cq,
	.poll_cq = irdma_poll_cq,
	.req_notify_cq = irdma_req_notify_cq,
	.resize_cq = irdma_resize_cq,

	/* queue pairs and their work */
	.create_qp = irdma_create_qp,
	.query_qp = irdma_query_qp,
	.destroy_qp = irdma_destroy_qp,
	.post_send = irdma_post_send,
	.post_recv = irdma_post_recv,

	/* memory */
	.get_dma_mr = irdma_get_dma_mr,
	.alloc_mr = irdma_alloc_mr,
	.map_mr_sg = irdma_map_mr_sg,
	.reg_user_mr = irdma_reg_user_mr,
	.alloc_mw = irdma_alloc_mw,
	.dealloc_mw = irdma_dealloc_mw,
	.dereg_mr = irdma_dereg_mr,

	INIT_RDMA_OBJ_SIZE(ib_ucontext, irdma_ucontext, ibucontext),
	INIT_RDMA_OBJ_SIZE(ib_pd, irdma_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_cq, irdma_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_qp, irdma_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_mw, irdma_mw, ibmw),

	/* who we are to ib_core and to user space */
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_IRDMA,
	.uverbs_abi_ver = IRDMA_ABI_VER,
};

static void irdma_init_roce_device(struct irdma_device *iwdev)
{
	iwdev->ibdev.node_type = RDMA_NODE_IB_CA;
	addrconf_addr_eui48((u8 *)&iwdev->ibdev.node_guid,
			    iwdev->fn.res.netdev->dev_addr);
	ib_set_device_ops(&iwdev->ibdev, &irdma_ops_rocev2);
}

static void irdma_init_iw_device(struct irdma_device *iwdev)
{
	struct net_device *netdev = iwdev->fn.res.netdev;

	iwdev->ibdev.node_type = RDMA_NODE_RNIC;
	addrconf_addr_eui48((u8 *)&iwdev->ibdev.node_guid, netdev->dev_addr);
	memcpy(iwdev->ibdev.iw_ifname, netdev->name, sizeof(iwdev->ibdev.iw_ifname));
	ib_set_device_ops(&iwdev->ibdev, &irdma_ops_iwarp);
	irdma_set_iw_cm_ops(&iwdev->ibdev);
}

static void irdma_init_rdma_device(struct irdma_device *iwdev)
{
	struct irdma_fn *fn = &iwdev->fn;

	if (fn->res.protocol == IRDMA_PROTOCOL_ROCEV2)
		irdma_init_roce_device(iwdev);
	else
		irdma_init_iw_device(iwdev);
	iwdev->ibdev.phys_port_cnt = 1;
	iwdev->ibdev.num_comp_vectors = fn->ceq_count;
	iwdev->ibdev.dev.parent = fn->res.dev;
	ib_set_device_ops(&iwdev->ibdev, &irdma_ops_common);
	irdma_set_srq_ops(&iwdev->ibdev);
}

/**
 * irdma_port_ibevent - tell ib_core the port went up or down
 * @iwdev: the device
 * @type: %IB_EVENT_PORT_ACTIVE or %IB_EVENT_PORT_ERR
 */
void irdma_port_ibevent(struct irdma_device *iwdev, enum ib_event_type type)
{
	struct ib_event event = {
		.device = &iwdev->ibdev,
		.element.port_num = 1,
		.event = type,
	};

	WRITE_ONCE(iwdev->port_active, type == IB_EVENT_PORT_ACTIVE);
	ib_dispatch_event(&event);
}

#ifdef IRDMA_TWIN
/*
 * The tests' second build of this driver (irdma_twin.ko, "make twin")
 * loads beside Debian's irdma.ko. Both register as RDMA_DRIVER_IRDMA,
 * the id libirdma puts in every command; the stock driver's netdev
 * notifiers take any device ib_device_get_by_netdev() finds under that id
 * for one of their own. The twin stays out of that lookup: ib_core learns
 * its netdev by asking.
 */
static struct net_device *irdma_twin_get_netdev(struct ib_device *ibdev,
						u32 port)
{
	struct net_device *netdev = to_iwdev(ibdev)->fn.res.netdev;

	dev_hold(netdev);
	return netdev;
}

static const struct ib_device_ops irdma_twin_ops = {
	.get_netdev = irdma_twin_get_netdev,
};

static int irdma_ib_attach_netdev(struct irdma_device *iwdev)
{
	ib_set_device_ops(&iwdev->ibdev, &irdma_twin_ops);
	return 0;
}
#else
static int irdma_ib_attach_netdev(struct irdma_device *iwdev)
{
	return ib_device_set_netdev(&iwdev->ibdev, iwdev->fn.res.netdev, 1);
}
#endif

/**
 * irdma_ib_register_device - make the function an ib_device
 * @iwdev: the device; its hardware is up
 *
 * Once this is called, ib_core owns @iwdev: on failure it has been freed,
 * hardware and all, through its dealloc_driver (main.c).
 *
 * Return: 0 or a negative errno.
 */
int irdma_ib_register_device(struct irdma_device *iwdev)
{
	struct irdma_fn *fn = &iwdev->fn;
	int err;

	irdma_init_rdma_device(iwdev);
	err = irdma_ib_attach_netdev(iwdev);
	if (err)
		goto err_dealloc;
	dma_set_max_seg_size(fn->res.dev, UINT_MAX);
	err = ib_register_device(&iwdev->ibdev, "irdma%d", fn->res.dev);
	if (err)
		goto err_dealloc;
	irdma_port_ibevent(iwdev, IB_EVENT_PORT_ACTIVE);
	irdma_stats_start(fn);
	return 0;

err_dealloc:
	dev_err(fn->res.dev, "ib_device registration failed: %d\n", err);
	ib_dealloc_device(&iwdev->ibdev);
	return err;
}

/**
 * irdma_ib_unregister_device - remove the ib_device, then the hardware
 * @iwdev: the device; freed on return
 */
void irdma_ib_unregister_device(struct irdma_device *iwdev)
{
	irdma_port_ibevent(iwdev, IB_EVENT_PORT_ERR);
	ib_unregister_device(&iwdev->ibdev);
}

/*
 * An address of @dev came or went, or @dev went up or down: if @dev is a
 * function's netdev or a VLAN on one, its listeners follow, by
 * the time this returns if @can_sleep (process context). @gone, if not
 * NULL, is an address @dev lost (IPv4 if @ipv4): its connections end.
 */
static void irdma_addrs_changed(struct net_device *dev, bool can_sleep,
				bool ipv4, const void *gone)
{
	struct net_device *real = is_vlan_dev(dev) ? vlan_dev_real_dev(dev) : dev;
	struct ib_device *ibdev;

	ibdev = ib_device_get_by_netdev(real, RDMA_DRIVER_IRDMA);
	if (!ibdev)
		return;
	if (ibdev->ops.owner == THIS_MODULE) {
		irdma_cm_addrs_changed(to_iwdev(ibdev), can_sleep);
		if (gone)
			irdma_cm_addr_removed(to_iwdev(ibdev), dev, ipv4, gone);
	}
	ib_device_put(ibdev);
}

static int irdma_inetaddr_event(struct notifier_block *nb, unsigned long event,
				void *ptr)
{
	const struct in_ifaddr *ifa = ptr;

	if (event == NETDEV_UP || event == NETDEV_DOWN)
		irdma_addrs_changed(ifa->ifa_dev->dev, true, true,
				    event == NETDEV_DOWN ? &ifa->ifa_local : NULL);
	return NOTIFY_DONE;
}

static int irdma_inet6addr_event(struct notifier_block *nb, unsigned long event,
				 void *ptr)
{
	const struct inet6_ifaddr *ifa = ptr;

	if (event == NETDEV_UP || event == NETDEV_DOWN)
		irdma_addrs_changed(ifa->idev->dev, false, false,
				    event == NETDEV_DOWN ? &ifa->addr : NULL);
	return NOTIFY_DONE;
}

static struct notifier_block irdma_inetaddr_nb = {
	.notifier_call = irdma_inetaddr_event,
};

static struct notifier_block irdma_inet6addr_nb = {
	.notifier_call = irdma_inet6addr_event,
};

static int irdma_netdevice_event(struct notifier_block *nb, unsigned long event,
				 void *ptr)
{
	struct net_device *netdev = netdev_notifier_info_to_dev(ptr);
	struct ib_device *ibdev;

	if (event != NETDEV_UP && event != NETDEV_DOWN)
		return NOTIFY_DONE;
	/* Addresses of a netdev down are not listened on. */
	irdma_addrs_changed(netdev, false, false, NULL);
	ibdev = ib_device_get_by_netdev(netdev, RDMA_DRIVER_IRDMA);
	if (!ibdev)
		return NOTIFY_DONE;
	/* Another driver's device under the same id is not ours to touch. */
	if (ibdev->ops.owner == THIS_MODULE)
		irdma_port_ibevent(to_iwdev(ibdev), event == NETDEV_UP ?
				   IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR);
	ib_device_put(ibdev);
	return NOTIFY_DONE;
}

static struct notifier_block irdma_netdevice_nb = {
	.notifier_call = irdma_netdevice_event,
};

/**
 * irdma_register_notifiers - follow the functions' netdevs and their
 *	addresses
 *
 * Return: 0 or a negative errno, with none registered.
 */
int irdma_register_notifiers(void)
{
	int err;

	err = register_inetaddr_notifier(&irdma_inetaddr_nb);
	if (err)
		return err;
	err = register_inet6addr_notifier(&irdma_inet6addr_nb);
	if (err)
		goto err_inet;
	err = register_netdevice_notifier(&irdma_netdevice_nb);
	if (err)
		goto err_inet6;
	return 0;

err_inet6:
	unregister_inet6addr_notifier(&irdma_inet6addr_nb);
err_inet:
	unregister_inetaddr_notifier(&irdma_inetaddr_nb);
	return err;
}

/**
 * irdma_unregister_notifiers - stop following the netdevs
 */
void irdma_unregister_notifiers(void)
{
	unregister_netdevice_notifier(&irdma_netdevice_nb);
	unregister_inet6addr_notifier(&irdma_inet6addr_nb);
	unregister_inetaddr_notifier(&irdma_inetaddr_nb);
}
