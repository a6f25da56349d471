// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Multicast groups for UD QPs: a group per IP address, up to eight QPs
 * each, kept in the hardware through the MCAST_GRP commands.
 */
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <net/addrconf.h>
#include <rdma/ib_addr.h>

#include "verbs.h"

/**
 * struct irdma_mcast_grp - a multicast group
 * @list: entry in the function's groups
 * @id: the hardware's group index
 * @ip: the group address, host-order words (IPv4 in word 0)
 * @ipv4: an IPv4 group
 * @mac: the group's MAC address
 * @ctx: the QP list the hardware reads
 * @qp: the member QPs
 * @use: how often each member attached
 * @count: members
 */
struct irdma_mcast_grp {
	struct list_head list;
	u32 id;
	u32 ip[4];
	bool ipv4;
	u8 mac[ETH_ALEN];
	struct irdma_dma_mem ctx;
	u32 qp[IRDMA_MAX_MGS_PER_CTX];
	u32 use[IRDMA_MAX_MGS_PER_CTX];
	u32 count;
};

/*
 * How many multicast group indexes the function has, index 0 included: one
 * per QP context, and no more than the group index field holds.
 */
static u32 irdma_mcast_grp_count(struct irdma_fn *fn)
{
	return min_t(u32, fn->hmc.obj[IRDMA_HMC_QP].cnt, IRDMA_MAX_MCAST_GRPS);
}

/**
 * irdma_mcast_mac - the MAC address of a multicast group
 * @ip_addr: the group address, host-order words
 * @mac: returns the MAC address
 * @ipv4: an IPv4 group (its address in word 0)
 *
 * IPv4 groups map their low 23 bits into 01:00:5e; IPv6 groups map the
 * bytes of word 0 into 33:33, as the hardware expects.
 */
void irdma_mcast_mac(u32 *ip_addr, u8 *mac, bool ipv4)
{
	u32 w = ip_addr[0];

	if (ipv4) {
		mac[0] = 0x01;
		mac[1] = 0x00;
		mac[2] = 0x5e;
		mac[3] = (w >> 16) & 0x7f;
	} else {
		mac[0] = 0x33;
		mac[1] = 0x33;
		mac[2] = w >> 24;
		mac[3] = w >> 16;
	}
	mac[4] = w >> 8;
	mac[5] = w;
}

/**
 * mcast_list_lookup_ip - the group of an address
 * @fn: the function, its mcast lock held
 * @ip: the address, host-order words
 *
 * Return: the group, or NULL.
 */
static struct irdma_mcast_grp *mcast_list_lookup_ip(struct irdma_fn *fn,
						    const u32 *ip)
{
	struct irdma_mcast_grp *g;

	lockdep_assert_held(&fn->mcast_lock);
	list_for_each_entry(g, &fn->mcast_list, list)
		if (!memcmp(g->ip, ip, sizeof(g->ip)))
			return g;
	return NULL;
}

/**
 * mcast_list_add - a QP joins a group's member list
 * @g: the group
 * @qpn: the QP
 *
 * Return: 0, or -ENOMEM when the group is full.
 */
static int mcast_list_add(struct irdma_mcast_grp *g, u32 qpn)
{
	u32 i;

	for (i = 0; i < g->count; i++) {
		if (g->qp[i] == qpn) {
			g->use[i]++;
			return 0;
		}
	}
	if (g->count == IRDMA_MAX_MGS_PER_CTX)
		return -ENOMEM;
	g->qp[g->count] = qpn;
	g->use[g->count++] = 1;
	return 0;
}

/**
 * mcast_list_del - a QP leaves a group's member list
 * @g: the group
 * @qpn: the QP
 *
 * Return: 0, or -EINVAL if it was no member.
 */
static int mcast_list_del(struct irdma_mcast_grp *g, u32 qpn)
{
	u32 i;

	for (i = 0; i < g->count; i++) {
		if (g->qp[i] != qpn)
			continue;
		if (--g->use[i])
			return 0;
		g->count--;
		g->qp[i] = g->qp[g->count];
		g->use[i] = g->use[g->count];
		return 0;
	}
	return -EINVAL;
}

/*
 * The VLAN of the netdev that holds the group's address, as upstream looks
 * for it (a multicast address is seldom anyone's: then none, 0xffff).
 */
static u16 irdma_mcast_vlan(const struct irdma_mcast_grp *g)
{
	struct net_device *dev;
	u16 vlan = 0xffff;

	if (g->ipv4) {
		dev = ip_dev_find(&init_net, htonl(g->ip[0]));
		if (dev) {
			vlan = rdma_vlan_dev_vlan_id(dev);
			dev_put(dev);
		}
		return vlan;
	}
#if IS_ENABLED(CONFIG_IPV6)
	{
		struct in6_addr addr;
		int i;

		for (i = 0; i < 4; i++)
			addr.s6_addr32[i] = htonl(g->ip[i]);
		rcu_read_lock();
		for_each_netdev_rcu(&init_net, dev)
			if (ipv6_chk_addr(&init_net, &addr, dev, 1)) {
				vlan = rdma_vlan_dev_vlan_id(dev);
				break;
			}
		rcu_read_unlock();
	}
#endif
	return vlan;
}

/**
 * irdma_mcast_cqp_op - tell the hardware about a group
 * @fn: the function
 * @g: the group
 * @op: IRDMA_CQPOP_CREATE_MCAST_GRP, _MODIFY_ or _DESTROY_
 * @qs_handle: the queue set of the QP joining or leaving, as the stock
 *	driver gives the group that of its QP's priority
 *
 * Return: 0 or the CQP's error.
 */
static int irdma_mcast_cqp_op(struct irdma_fn *fn, struct irdma_mcast_grp *g,
			      u8 op, u16 qs_handle)
{
	u16 vlan = irdma_mcast_vlan(g);
	__le64 *list = g->ctx.va;
	struct irdma_cqp_wqe cmd;
	u32 i;

	memset(list, 0, IRDMA_MAX_MGS_PER_CTX * sizeof(*list));
	if (op != IRDMA_CQPOP_DESTROY_MCAST_GRP)
		for (i = 0; i < g->count; i++)
			list[i] = cpu_to_le64(FIELD_PREP(IRDMA_MG_ENTRY_QPID, g->qp[i]) |
					      IRDMA_MG_ENTRY_VALID);
	irdma_cmd_init(&cmd, op);
	cmd.q[0] = FIELD_PREP(IRDMA_MG_MAC, ether_addr_to_u64(g->mac));
	cmd.q[1] = FIELD_PREP(IRDMA_MG_HMC_FCN_ID, fn->res.pf_id);
	cmd.q[2] = FIELD_PREP(IRDMA_MG_VLANID, vlan & VLAN_VID_MASK) |
		   FIELD_PREP(IRDMA_MG_QS_HANDLE, qs_handle);
	cmd.q[3] |= FIELD_PREP(IRDMA_MG_IDX, g->id) |
		    FIELD_PREP(IRDMA_MG_VLANVALID, vlan < VLAN_N_VID) |
		    FIELD_PREP(IRDMA_MG_IPV4VALID, g->ipv4);
	cmd.q[4] = g->ctx.pa;
	if (g->ipv4) {
		cmd.q[6] = g->ip[0];
	} else {
		cmd.q[7] = (u64)g->ip[0] << 32 | g->ip[1];
		cmd.q[6] = (u64)g->ip[2] << 32 | g->ip[3];
	}
	return irdma_cqp_exec(fn, &cmd, NULL);
}

static void irdma_mcast_free(struct irdma_fn *fn, struct irdma_mcast_grp *g,
			     bool hw_done)
{
	irdma_dma_release(fn, &g->ctx, hw_done);
	irdma_ids_free(&fn->mcast_ids, g->id);
	kfree(g);
}

static void irdma_gid_to_group(const union ib_gid *gid, u32 *ip, bool *ipv4)
{
	memset(ip, 0, 4 * sizeof(u32));
	*ipv4 = ipv6_addr_v4mapped((const struct in6_addr *)gid->raw);
	if (*ipv4)
		ip[0] = be32_to_cpu(*(const __be32 *)&gid->raw[12]);
	else
		irdma_addr_ntoh(ip, (const __be32 *)gid->raw, 4);
}

/**
 * irdma_attach_mcast - a UD QP joins a multicast group
 * @ibqp: the QP
 * @ibgid: the group's GID
 * @lid: unused (RoCE)
 *
 * Return: 0, -ENOMEM when the group or the group table is full, or the
 * CQP's error.
 */
int irdma_attach_mcast(struct ib_qp *ibqp, union ib_gid *ibgid, u16 lid)
{
	struct irdma_fn *fn = &to_iwdev(ibqp->device)->fn;
	struct irdma_mcast_grp *g;
	u32 ip[4], before;
	bool ipv4, fresh = false;
	int id, err;

	irdma_gid_to_group(ibgid, ip, &ipv4);
	mutex_lock(&fn->mcast_lock);
	g = mcast_list_lookup_ip(fn, ip);
	if (!g) {
		g = kzalloc(sizeof(*g), GFP_KERNEL);
		id = irdma_ids_alloc(&fn->mcast_ids, 1,
				     irdma_mcast_grp_count(fn) - 1);
		if (!g || id < 0 ||
		    irdma_dma_alloc(fn, &g->ctx, IRDMA_MG_CTX_SIZE, GFP_KERNEL)) {
			if (id >= 0)
				irdma_ids_free(&fn->mcast_ids, id);
			kfree(g);
			err = -ENOMEM;
			goto out;
		}
		g->id = id;
		memcpy(g->ip, ip, sizeof(ip));
		g->ipv4 = ipv4;
		irdma_mcast_mac(g->ip, g->mac, ipv4);
		list_add(&g->list, &fn->mcast_list);
		fresh = true;
	}
	before = g->count;
	err = mcast_list_add(g, ibqp->qp_num);
	if (err || g->count == before)
		goto out;
	err = irdma_mcast_cqp_op(fn, g, before ? IRDMA_CQPOP_MODIFY_MCAST_GRP :
					   IRDMA_CQPOP_CREATE_MCAST_GRP,
				 to_iwqp(ibqp)->hw.qs_handle);
	if (err) {
		mcast_list_del(g, ibqp->qp_num);
		if (!g->count) {
			list_del(&g->list);
			irdma_mcast_free(fn, g, !fresh || err != -ETIMEDOUT);
		}
	}
out:
	mutex_unlock(&fn->mcast_lock);
	return err;
}

/**
 * irdma_detach_mcast - a UD QP leaves a multicast group
 * @ibqp: the QP
 * @ibgid: the group's GID
 * @lid: unused (RoCE)
 *
 * Return: 0, -EAGAIN if the hardware kept the group, or the CQP's error.
 */
int irdma_detach_mcast(struct ib_qp *ibqp, union ib_gid *ibgid, u16 lid)
{
	struct irdma_fn *fn = &to_iwdev(ibqp->device)->fn;
	struct irdma_mcast_grp *g;
	bool ipv4;
	u32 ip[4];
	int err = 0;

	irdma_gid_to_group(ibgid, ip, &ipv4);
	mutex_lock(&fn->mcast_lock);
	g = mcast_list_lookup_ip(fn, ip);
	if (!g)
		goto out;
	mcast_list_del(g, ibqp->qp_num);
	if (g->count) {
		err = irdma_mcast_cqp_op(fn, g, IRDMA_CQPOP_MODIFY_MCAST_GRP,
					 to_iwqp(ibqp)->hw.qs_handle);
		goto out;
	}
	if (irdma_mcast_cqp_op(fn, g, IRDMA_CQPOP_DESTROY_MCAST_GRP,
			       to_iwqp(ibqp)->hw.qs_handle)) {
		err = -EAGAIN;
		goto out;
	}
	list_del(&g->list);
	irdma_mcast_free(fn, g, true);
out:
	mutex_unlock(&fn->mcast_lock);
	return err;
}
