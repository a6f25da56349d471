// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Address handles for UD work, and the hardware ARP table through which
 * they and RC QPs reach their peers' MAC addresses.
 */
#include <kunit/visibility.h>
#include <linux/if_vlan.h>
#include <net/route.h>
#include <net/addrconf.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <uapi/rdma/irdma-abi.h>

#include "verbs.h"

/**
 * irdma_arp_add - the ARP table entry for an address, made if needed
 * @fn: the function
 * @ip: the IP address, host-order words (IPv4 in word 3)
 * @ipv4: an IPv4 address
 * @mac: the MAC address it resolves to
 *
 * The caller holds a reference to the entry until irdma_arp_put(). An
 * entry for the address with another MAC is rewritten in place, for all
 * who name it. The hardware is told without waiting: commands run in
 * order, so whatever names the entry later finds it in place.
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
		if (!ether_addr_equal(fn->arp[idx].mac, mac)) {
			irdma_build_manage_arp(&cmd, idx, NULL);
			irdma_cqp_post_async(fn, &cmd);
			irdma_build_manage_arp(&cmd, idx, mac);
			if (irdma_cqp_post_async(fn, &cmd)) {
				/* Gone from the hardware: nobody may name it now. */
				fn->arp[idx].refs = 0;
				clear_bit(idx, fn->arp_used);
				idx = -ENOSPC;
				goto out;
			}
			ether_addr_copy(fn->arp[idx].mac, mac);
		}
		fn->arp[idx].refs++;
		goto out;
	}
	/* Entries are taken in turn; entry 0 is never handed out. */
	idx = find_next_zero_bit(fn->arp_used, fn->arp_size,
				 max(fn->arp_next, 1U));
	if (idx >= fn->arp_size)
		idx = find_next_zero_bit(fn->arp_used, fn->arp_size, 1);
	if (idx >= fn->arp_size) {
		idx = -ENOSPC;
		goto out;
	}
	fn->arp_next = idx + 1;
	memcpy(fn->arp[idx].ip, key, sizeof(key));
	ether_addr_copy(fn->arp[idx].mac, mac);
	fn->arp[idx].refs = 1;
	irdma_build_manage_arp(&cmd, idx, mac);
	if (irdma_cqp_post_async(fn, &cmd))
		idx = -ENOSPC;
	else
		set_bit(idx, fn->arp_used);
out:
	spin_unlock_irqrestore(&fn->arp_lock, flags);
	return idx;
}

/**
 * irdma_arp_put - drop a reference to an ARP table entry
 * @fn: the function
 * @idx: the entry, as irdma_arp_add() returned it
 *
 * The last reference takes the entry out of the hardware's table (after
 * whatever named it: commands run in order) and frees its index.
 *
 * Context: any; does not sleep.
 */
void irdma_arp_put(struct irdma_fn *fn, u32 idx)
{
	struct irdma_cqp_wqe cmd;
	unsigned long flags;

	spin_lock_irqsave(&fn->arp_lock, flags);
	if (idx && idx < fn->arp_size && test_bit(idx, fn->arp_used) &&
	    fn->arp[idx].refs && !--fn->arp[idx].refs) {
		irdma_build_manage_arp(&cmd, idx, NULL);
		irdma_cqp_post_async(fn, &cmd);
		clear_bit(idx, fn->arp_used);
	}
	spin_unlock_irqrestore(&fn->arp_lock, flags);
}

/**
 * irdma_roce_path_get - the IP and L2 addressing of a RoCEv2 path
 * @sgid_attr: the source GID's attributes
 * @dgid: the destination GID
 * @path: filled in
 *
 * Return: 0, or -EINVAL for a GID that is not RoCEv2, or the error of
 * reading the GID's netdev.
 */
int irdma_roce_path_get(const struct ib_gid_attr *sgid_attr,
			const union ib_gid *dgid, struct irdma_roce_path *path)
{
	enum rdma_network_type net = rdma_gid_attr_network_type(sgid_attr);
	int err;

	if (net != RDMA_NETWORK_IPV4 && net != RDMA_NETWORK_IPV6)
		return -EINVAL;
	memset(path, 0, sizeof(*path));
	err = rdma_read_gid_l2_fields(sgid_attr, &path->vlan, path->mac);
	if (err)
		return err;
	path->ipv4 = net == RDMA_NETWORK_IPV4;
	if (path->ipv4) {
		path->src_ip[3] = be32_to_cpu(*(__be32 *)&sgid_attr->gid.raw[12]);
		path->dest_ip[3] = be32_to_cpu(*(__be32 *)&dgid->raw[12]);
	} else {
		irdma_addr_ntoh(path->src_ip, (const __be32 *)sgid_attr->gid.raw, 4);
		irdma_addr_ntoh(path->dest_ip, (const __be32 *)dgid->raw, 4);
	}
	return 0;
}

/**
 * irdma_roce_user_pri - the user priority of a RoCEv2 path's packets
 * @fn: the function (its traffic classes)
 * @sgid_attr: the source GID's attributes
 * @tos: the path's traffic class (IP TOS)
 * @map: %IRDMA_UP_FROM_DSCP to take it from the DSCP where the port maps
 *	DSCPs to priorities (QPs do); address handles take the TOS's
 *	priority (%IRDMA_UP_FROM_TOS), as upstream's
 *
 * A VLAN netdev's egress map then has the last word.
 *
 * Return: the priority, 0 to 7.
 */
u8 irdma_roce_user_pri(struct irdma_fn *fn, const struct ib_gid_attr *sgid_attr,
		       u8 tos, enum irdma_up_map map)
{
	u8 up = map == IRDMA_UP_FROM_DSCP && fn->qos.dscp ?
		fn->qos.dscp_map[tos >> 2] : rt_tos2priority(tos);
	struct net_device *ndev;

	rcu_read_lock();
	ndev = rcu_dereference(sgid_attr->ndev);
	if (ndev && is_vlan_dev(ndev))
		up = (vlan_dev_get_egress_qos_mask(ndev, up) & VLAN_PRIO_MASK) >>
		     VLAN_PRIO_SHIFT;
	rcu_read_unlock();
	return up & (IRDMA_MAX_UPS - 1);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_roce_user_pri);

/**
 * irdma_roce_vlan_tag - the VLAN tag a RoCEv2 path's packets carry
 * @fn: the function (its traffic classes)
 * @vlan: the source netdev's VLAN id (VLAN_N_VID or more: none)
 * @up: the packets' user priority
 * @tag: returns the tag, its priority bits set
 *
 * Where the port tells traffic classes apart by VLAN priority (DCB with
 * more than one class, not by DSCP), untagged packets get a tag of VLAN 0.
 *
 * Return: true if the packets carry a tag.
 */
bool irdma_roce_vlan_tag(struct irdma_fn *fn, u16 vlan, u8 up, u16 *tag)
{
	if (vlan >= VLAN_N_VID && fn->qos.num_tc > 1 && !fn->qos.dscp)
		vlan = 0;
	if (vlan >= VLAN_N_VID) {
		*tag = 0;
		return false;
	}
	*tag = vlan | (u16)up << VLAN_PRIO_SHIFT;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_roce_vlan_tag);

static bool irdma_ah_is_loopback(const struct irdma_ah_hw_info *hw)
{
	if (hw->ipv4)
		return hw->dest_ip[3] == hw->src_ip[3] ||
		       (hw->dest_ip[3] >> 24) == 127;
	return !memcmp(hw->dest_ip, hw->src_ip, sizeof(hw->src_ip)) ||
	       (!hw->dest_ip[0] && !hw->dest_ip[1] && !hw->dest_ip[2] &&
		hw->dest_ip[3] == 1);
}

/* The address handle's hardware fields from its attributes (no index). */
static int irdma_setup_ah(struct ib_ah *ibah, struct rdma_ah_attr *ah_attr)
{
	struct irdma_fn *fn = &to_iwdev(ibah->device)->fn;
	const struct ib_global_route *grh = rdma_ah_read_grh(ah_attr);
	struct irdma_ah_hw_info *hw = &to_iwah(ibah)->hw;
	bool mcast = rdma_is_multicast_addr((struct in6_addr *)grh->dgid.raw);
	u8 mcast_mac[ETH_ALEN];
	const u8 *dmac = ah_attr->roce.dmac;
	struct irdma_roce_path path;
	u16 vlan;
	int err;

	if (!(rdma_ah_get_ah_flags(ah_attr) & IB_AH_GRH) || !grh->sgid_attr)
		return -EINVAL;
	err = irdma_roce_path_get(grh->sgid_attr, &grh->dgid, &path);
	if (err)
		return err;
	hw->ipv4 = path.ipv4;
	memcpy(hw->src_ip, path.src_ip, sizeof(hw->src_ip));
	memcpy(hw->dest_ip, path.dest_ip, sizeof(hw->dest_ip));
	ether_addr_copy(hw->mac, path.mac);
	vlan = path.vlan;
	hw->pd = to_iwpd(ibah->pd)->id;
	hw->tc = grh->traffic_class;
	hw->hop_limit = grh->hop_limit;
	hw->flow_label = grh->flow_label;
	hw->insert_vlan = irdma_roce_vlan_tag(fn, vlan,
					      irdma_roce_user_pri(fn, grh->sgid_attr,
								  grh->traffic_class,
								  IRDMA_UP_FROM_TOS),
					      &hw->vlan);
	/* Untagged: the field keeps the id as read, as the stock driver's. */
	if (!hw->insert_vlan)
		hw->vlan = vlan;
	hw->loopback = irdma_ah_is_loopback(hw) || mcast;
	if (mcast) {
		u32 group[4] = { hw->ipv4 ? hw->dest_ip[3] : hw->dest_ip[0],
				 hw->dest_ip[1], hw->dest_ip[2], hw->dest_ip[3] };

		irdma_mcast_mac(group, mcast_mac, hw->ipv4);
		dmac = mcast_mac;
	}
	err = irdma_arp_add(fn, hw->dest_ip, hw->ipv4, dmac);
	if (err < 0)
		return -EINVAL;
	hw->arp_idx = err;
	to_iwah(ibah)->attr = *ah_attr;
	to_iwah(ibah)->attr.grh.sgid_attr = NULL;
	return 0;
}

/**
 * irdma_create_hw_ah - an index and CREATE_ADDR_HANDLE for an address
 *	handle's hardware fields
 * @fn: the function
 * @hw: the fields; its index is set
 * @flags: as create_ah's (RDMA_CREATE_AH_SLEEPABLE: the caller may sleep
 *	for the CQP)
 *
 * Return: 0, -EOVERFLOW when every index is in use, or the CQP's error.
 */
int irdma_create_hw_ah(struct irdma_fn *fn, struct irdma_ah_hw_info *hw,
		       u32 flags)
{
	bool sleep = flags & RDMA_CREATE_AH_SLEEPABLE;
	struct irdma_cqp_wqe cmd;
	int id, err;

	id = irdma_ids_alloc(&fn->ah_ids, 1, fn->hmc.obj[IRDMA_HMC_FSIAV].cnt - 1);
	if (id < 0)
		return id == -ENOSPC ? -EOVERFLOW : id;
	hw->id = id;
	irdma_build_ah(&cmd, hw, IRDMA_CQPOP_CREATE_ADDR_HANDLE);
	err = sleep ? irdma_cqp_exec(fn, &cmd, NULL) :
		      irdma_cqp_exec_atomic(fn, &cmd);
	if (err) {
		irdma_ids_free(&fn->ah_ids, id);
		return sleep ? -ENOMEM : err;
	}
	return 0;
}

/**
 * irdma_create_ah - an address handle for UD work
 * @ibah: the AH ib_core allocated
 * @attr: the address and whether the call may sleep
 * @udata: user-space request (not for kernel AHs)
 *
 * Return: 0, -EINVAL for an address without a RoCEv2 GID or with the ARP
 * table full, -EOVERFLOW when every AH index is in use, -ENOMEM or
 * -ETIMEDOUT when the hardware does not take it.
 */
int irdma_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *attr,
		    struct ib_udata *udata)
{
	struct irdma_fn *fn = &to_iwdev(ibah->device)->fn;
	int err;

	if (udata && (udata->inlen || udata->outlen))
		return -EOPNOTSUPP;
	err = irdma_setup_ah(ibah, attr->ah_attr);
	if (err)
		return err;
	err = irdma_create_hw_ah(fn, &to_iwah(ibah)->hw, attr->flags);
	if (err)
		irdma_arp_put(fn, to_iwah(ibah)->hw.arp_idx);
	return err;
}

static u32 irdma_ah_key(const struct irdma_ah_hw_info *hw)
{
	return hw->dest_ip[0] ^ hw->dest_ip[1] ^ hw->dest_ip[2] ^ hw->dest_ip[3];
}

/**
 * irdma_ah_exists - share the hardware AH of an identical user AH
 * @fn: the function, its AH lock held
 * @ah: the new AH, its fields set
 *
 * Return: true if @ah now uses an existing hardware AH.
 */
static bool irdma_ah_exists(struct irdma_fn *fn, struct irdma_ah *ah)
{
	struct irdma_ah_share *sh;

	lockdep_assert_held(&fn->ah_lock);
	hash_for_each_possible(fn->ah_hash, sh, node, irdma_ah_key(&ah->hw)) {
		ah->hw.id = sh->hw.id;
		if (memcmp(&sh->hw, &ah->hw, sizeof(ah->hw)))
			continue;
		sh->refs++;
		ah->share = sh;
		return true;
	}
	return false;
}

/**
 * irdma_create_user_ah - an address handle for a user UD QP
 * @ibah: the AH ib_core allocated
 * @attr: the address
 * @udata: where the AH's index goes
 *
 * User AHs with the same fields share one hardware AH.
 *
 * Return: 0, -EINVAL for a short response or a bad address, -EOVERFLOW,
 * -ENOMEM, or -EPROTO if the index cannot be returned.
 */
int irdma_create_user_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *attr,
			 struct ib_udata *udata)
{
	struct irdma_fn *fn = &to_iwdev(ibah->device)->fn;
	struct irdma_ah *ah = to_iwah(ibah);
	struct irdma_create_ah_resp resp = {};
	struct irdma_ah_share *sh;
	int err;

	if (udata->outlen < sizeof(resp))
		return -EINVAL;
	err = irdma_setup_ah(ibah, attr->ah_attr);
	if (err)
		return err;

	mutex_lock(&fn->ah_lock);
	if (!irdma_ah_exists(fn, ah)) {
		err = irdma_create_hw_ah(fn, &ah->hw, RDMA_CREATE_AH_SLEEPABLE);
		/* Without the shared entry the AH still works, unshared. */
		sh = err ? NULL : kzalloc(sizeof(*sh), GFP_KERNEL);
		if (sh) {
			sh->hw = ah->hw;
			sh->refs = 1;
			hash_add(fn->ah_hash, &sh->node, irdma_ah_key(&sh->hw));
			ah->share = sh;
		}
	}
	mutex_unlock(&fn->ah_lock);
	if (err) {
		irdma_arp_put(fn, ah->hw.arp_idx);
		return err;
	}

	resp.ah_id = ah->hw.id;
	if (ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen))) {
		irdma_destroy_ah(ibah, RDMA_DESTROY_AH_SLEEPABLE);
		return -EPROTO;
	}
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

	/* A shared hardware AH goes with its last user. */
	if (ah->share) {
		mutex_lock(&fn->ah_lock);
		if (--ah->share->refs) {
			mutex_unlock(&fn->ah_lock);
			goto put_arp;
		}
		hash_del(&ah->share->node);
		mutex_unlock(&fn->ah_lock);
		kfree(ah->share);
	}
	irdma_build_ah(&cmd, &ah->hw, IRDMA_CQPOP_DESTROY_ADDR_HANDLE);
	irdma_cqp_post_async(fn, &cmd);
	irdma_ids_free(&fn->ah_ids, ah->hw.id);
put_arp:
	/* Every AH holds its own reference, shared hardware AH or not. */
	irdma_arp_put(fn, ah->hw.arp_idx);
	return 0;
}

/**
 * irdma_destroy_hw_ah - DESTROY_ADDR_HANDLE, without waiting, and the index
 *	freed
 * @fn: the function
 * @hw: the handle irdma_create_hw_ah() made
 *
 * What the queues posted with it before goes first: the CQP runs after
 * the SQs whose doorbells rang before it.
 */
void irdma_destroy_hw_ah(struct irdma_fn *fn, const struct irdma_ah_hw_info *hw)
{
	struct irdma_cqp_wqe cmd;

	irdma_build_ah(&cmd, hw, IRDMA_CQPOP_DESTROY_ADDR_HANDLE);
	irdma_cqp_post_async(fn, &cmd);
	irdma_ids_free(&fn->ah_ids, hw->id);
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
