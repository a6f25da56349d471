// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Address handles for UD work, and the hardware ARP table through which
 * they and RC QPs reach their peers' MAC addresses.
 */
#include <linux/if_vlan.h>
#include <net/addrconf.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>

#include "verbs.h"

/**
 * irdma_arp_add - the ARP table entry for an address, made if needed
 * @fn: the function
 * @ip: the IP address, host-order words (IPv4 in word 3)
 * @ipv4: an IPv4 address
 * @mac: the MAC address it resolves to
 *
 * An entry for the address with another MAC is replaced. The hardware is
 * told without waiting: commands run in order, so whatever names the
 * entry later finds it in place.
 *
 * Context: any; does not sleep.
 * Return: the entry's index, or -ENOSPC when the table is full.
 */
int irdma_arp_add(struct irdma_fn *fn, const u32 *ip, bool ipv4,
		  const u8 *mac)
{
	struct irdma_cqp_wqe cmd;
	unsigned long flags;
	u32 key[4] = {};
	int idx;

	if (ipv4)
		key[0] = ip[3];
	else
		memcpy(key, ip, sizeof(key));

	spin_lock_irqsave(&fn->arp_lock, flags);
	for_each_set_bit(idx, fn->arp_used, fn->arp_size) {
		if (memcmp(fn->arp[idx].ip, key, sizeof(key)))
			continue;
		if (ether_addr_equal(fn->arp[idx].mac, mac))
			goto out;
		irdma_build_manage_arp(&cmd, idx, NULL, false);
		irdma_cqp_post_async(fn, &cmd);
		clear_bit(idx, fn->arp_used);
		break;
	}
	/* Entry 0 is never handed out. */
	idx = find_next_zero_bit(fn->arp_used, fn->arp_size, 1);
	if (idx >= fn->arp_size) {
		idx = -ENOSPC;
		goto out;
	}
	memcpy(fn->arp[idx].ip, key, sizeof(key));
	ether_addr_copy(fn->arp[idx].mac, mac);
	irdma_build_manage_arp(&cmd, idx, mac, true);
	if (irdma_cqp_post_async(fn, &cmd))
		idx = -ENOSPC;
	else
		set_bit(idx, fn->arp_used);
out:
	spin_unlock_irqrestore(&fn->arp_lock, flags);
	return idx;
}

/**
 * irdma_roce_addr_info - the IP and L2 addressing of a RoCEv2 path
 * @sgid_attr: the source GID's attributes
 * @dgid: the destination GID
 * @ipv4: returns whether the path is RoCEv2 over IPv4
 * @src_ip: returns the source address, host-order words
 * @dest_ip: returns the destination address, host-order words
 * @mac: returns the source MAC address
 * @vlan: returns the source's VLAN id (0xffff for none)
 *
 * Return: 0, or -EINVAL for a GID that is not RoCEv2, or the error of
 * reading the GID's netdev.
 */
int irdma_roce_addr_info(const struct ib_gid_attr *sgid_attr,
			 const union ib_gid *dgid, bool *ipv4, u32 *src_ip,
			 u32 *dest_ip, u8 *mac, u16 *vlan)
{
	enum rdma_network_type net = rdma_gid_attr_network_type(sgid_attr);
	int err;

	if (net != RDMA_NETWORK_IPV4 && net != RDMA_NETWORK_IPV6)
		return -EINVAL;
	err = rdma_read_gid_l2_fields(sgid_attr, vlan, mac);
	if (err)
		return err;
	*ipv4 = net == RDMA_NETWORK_IPV4;
	memset(src_ip, 0, 4 * sizeof(u32));
	memset(dest_ip, 0, 4 * sizeof(u32));
	if (*ipv4) {
		src_ip[3] = be32_to_cpu(*(__be32 *)&sgid_attr->gid.raw[12]);
		dest_ip[3] = be32_to_cpu(*(__be32 *)&dgid->raw[12]);
	} else {
		irdma_addr_ntoh(src_ip, (const __be32 *)sgid_attr->gid.raw, 4);
		irdma_addr_ntoh(dest_ip, (const __be32 *)dgid->raw, 4);
	}
	return 0;
}

static bool irdma_ah_is_loopback(const struct irdma_ah_hw_info *hw)
{
	if (hw->ipv4)
		return hw->dest_ip[3] == hw->src_ip[3] ||
		       (hw->dest_ip[3] >> 24) == 127;
	return !memcmp(hw->dest_ip, hw->src_ip, sizeof(hw->src_ip)) ||
	       (!hw->dest_ip[0] && !hw->dest_ip[1] && !hw->dest_ip[2] &&
		hw->dest_ip[3] == 1);
}

/**
 * irdma_create_ah - an address handle for UD work
 * @ibah: the AH ib_core allocated
 * @attr: the address and whether the call may sleep
 * @udata: user-space request (not for kernel AHs)
 *
 * Return: 0, -EINVAL for an address without a RoCEv2 GID, -ENOSPC when
 * the AH or ARP table is full, -ENOMEM or -ETIMEDOUT when the hardware
 * does not take it.
 */
int irdma_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *attr,
		    struct ib_udata *udata)
{
	struct irdma_fn *fn = &to_iwdev(ibah->device)->fn;
	struct rdma_ah_attr *ah_attr = attr->ah_attr;
	const struct ib_global_route *grh = rdma_ah_read_grh(ah_attr);
	bool sleep = attr->flags & RDMA_CREATE_AH_SLEEPABLE;
	struct irdma_ah *ah = to_iwah(ibah);
	struct irdma_ah_hw_info *hw = &ah->hw;
	struct irdma_cqp_wqe cmd;
	u8 mcast_mac[ETH_ALEN];
	const u8 *dmac;
	u16 vlan;
	int id, err;

	if (udata && (udata->inlen || udata->outlen))
		return -EOPNOTSUPP;
	if (!(rdma_ah_get_ah_flags(ah_attr) & IB_AH_GRH) || !grh->sgid_attr)
		return -EINVAL;

	err = irdma_roce_addr_info(grh->sgid_attr, &grh->dgid, &hw->ipv4,
				   hw->src_ip, hw->dest_ip, hw->mac, &vlan);
	if (err)
		return err;
	hw->pd = to_iwpd(ibah->pd)->id;
	hw->tc = grh->traffic_class;
	hw->hop_limit = grh->hop_limit;
	hw->flow_label = grh->flow_label;
	hw->insert_vlan = vlan < VLAN_N_VID;
	hw->vlan = hw->insert_vlan ? vlan : 0;
	hw->loopback = irdma_ah_is_loopback(hw) ||
		       rdma_is_multicast_addr((struct in6_addr *)grh->dgid.raw);

	dmac = ah_attr->roce.dmac;
	if (rdma_is_multicast_addr((struct in6_addr *)grh->dgid.raw)) {
		u32 group[4] = { hw->ipv4 ? hw->dest_ip[3] : hw->dest_ip[0],
				 hw->dest_ip[1], hw->dest_ip[2], hw->dest_ip[3] };

		irdma_mcast_mac(group, mcast_mac, hw->ipv4);
		dmac = mcast_mac;
	}
	err = irdma_arp_add(fn, hw->dest_ip, hw->ipv4, dmac);
	if (err < 0)
		return -EINVAL;
	hw->arp_idx = err;

	id = ida_alloc_range(&fn->ah_ids, 1, fn->hmc.obj[IRDMA_HMC_FSIAV].cnt - 1,
			     sleep ? GFP_KERNEL : GFP_ATOMIC);
	if (id < 0)
		return -ENOSPC;
	hw->id = id;
	irdma_build_ah(&cmd, hw, true);
	err = sleep ? irdma_cqp_exec(fn, &cmd, NULL) :
		      irdma_cqp_exec_atomic(fn, &cmd);
	if (err) {
		ida_free(&fn->ah_ids, id);
		return sleep ? -ENOMEM : err;
	}
	ah->attr = *ah_attr;
	ah->attr.grh.sgid_attr = NULL;
	return 0;
}

/**
 * irdma_destroy_ah - release an address handle
 * @ibah: the AH
 * @ah_flags: whether the call may sleep
 *
 * The hardware is told without waiting.
 *
 * Return: 0.
 */
int irdma_destroy_ah(struct ib_ah *ibah, u32 ah_flags)
{
	struct irdma_fn *fn = &to_iwdev(ibah->device)->fn;
	struct irdma_ah *ah = to_iwah(ibah);
	struct irdma_cqp_wqe cmd;

	irdma_build_ah(&cmd, &ah->hw, false);
	irdma_cqp_post_async(fn, &cmd);
	ida_free(&fn->ah_ids, ah->hw.id);
	return 0;
}

/**
 * irdma_query_ah - an address handle's attributes
 * @ibah: the AH
 * @ah_attr: filled in
 *
 * Return: 0.
 */
int irdma_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *ah_attr)
{
	struct irdma_ah *ah = to_iwah(ibah);

	memset(ah_attr, 0, sizeof(*ah_attr));
	if (rdma_ah_get_ah_flags(&ah->attr) & IB_AH_GRH) {
		ah_attr->ah_flags = IB_AH_GRH;
		ah_attr->grh.flow_label = ah->hw.flow_label;
		ah_attr->grh.traffic_class = ah->hw.tc;
		ah_attr->grh.hop_limit = ah->hw.hop_limit;
		ah_attr->grh.sgid_index = ah->attr.grh.sgid_index;
		ah_attr->grh.dgid = ah->attr.grh.dgid;
	}
	return 0;
}
