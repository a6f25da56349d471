// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The steering tables of the engine's TCP side: the accelerated port bit
 * vector (a bit per local port the engine owns) and the quad hash (which
 * connection or listener a segment belongs to, and the QP it goes to).
 * MANAGE_APBVT sets and clears bits, as the hardware's vector does: a
 * second set or a clear of a clear bit is no error. The quad hash
 * refuses an entry it already has and the deletion of one it has not:
 * the driver keeps one of each. Of its entry types only the two iWARP's
 * connection manager uses are modelled; the others, and MODIFY, are
 * refused as such (ISIM_MIN_UNMODELLED).
 *
 * Frames come from the Ethernet switch (netdev.c). A TCP segment for a
 * port of the APBVT goes to the engine, whose threads look it up in the
 * quad hash: a connection's entry first, then a listener's (which
 * matches any remote end). An entry naming a UDA QP (the ILQ) puts the
 * frame in one of its receive buffers; one naming an offloaded iWARP QP
 * (the engine points a connection's entry at its QP when the QP takes
 * the connection over, iwarp.c) hands the segment to the connection; a
 * segment no entry takes goes on to the LAN, where the host's stack
 * answers it.
 */
#include <kunit/visibility.h>
#include <linux/bitfield.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/jhash.h>
#include <linux/tcp.h>
#include <net/ip.h>

#include "sim.h"

#define ISIM_MAX_QHASH	4096

/**
 * struct isim_qhash_entry - an entry of the quad hash
 * @node: in the table, by the hash of @key
 * @key: what a segment must match: type, VLAN, addresses and ports
 * @qpn: where matching segments go
 * @qs_handle: the queue set named with it
 * @mac: the local MAC address named with it
 */
struct isim_qhash_entry {
	struct hlist_node node;
	struct isim_qhash_key {
		u32 local_ip[4];
		u32 remote_ip[4];
		u16 local_port;
		u16 remote_port;
		u16 vlan;	/* with bit 15 set when valid */
		u8 type;
		u8 ipv4;
	} key;
	u32 qpn;
	u16 qs_handle;
	u64 mac;
};

/**
 * isim_steer_apbvt - MANAGE_APBVT: a local port's bit set or cleared
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void isim_steer_apbvt(struct isim_dev *sdev, const __le64 *wqe,
		      struct isim_cqp_result *res)
{
	u16 port = FIELD_GET(IRDMA_CQPSQ_MAPT_PORT, le64_to_cpu(wqe[2]));

	/* The vector lives in the HMC: no object, no vector. */
	if (!sdev->hmc.committed || !sdev->hmc.cnt[IRDMA_HMC_APBVT])
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	if (le64_to_cpu(wqe[3]) & IRDMA_CQPSQ_MAPT_ADDPORT)
		set_bit(port, sdev->steer.apbvt);
	else
		clear_bit(port, sdev->steer.apbvt);
}

static void isim_qhash_addr(u32 *ip, const __le64 *q)
{
	u64 lo = le64_to_cpu(q[0]), hi = le64_to_cpu(q[1]);

	ip[0] = FIELD_GET(IRDMA_CQPSQ_QHASH_ADDR_HI, hi);
	ip[1] = FIELD_GET(IRDMA_CQPSQ_QHASH_ADDR_LO, hi);
	ip[2] = FIELD_GET(IRDMA_CQPSQ_QHASH_ADDR_HI, lo);
	ip[3] = FIELD_GET(IRDMA_CQPSQ_QHASH_ADDR_LO, lo);
}

static struct isim_qhash_entry *isim_qhash_find(struct isim_dev *sdev,
						const struct isim_qhash_key *key,
						u32 hash)
{
	struct isim_qhash_entry *e;

	hash_for_each_possible(sdev->steer.qhash, e, node, hash)
		if (!memcmp(&e->key, key, sizeof(*key)))
			return e;
	return NULL;
}

/**
 * isim_steer_qhash - MANAGE_QUAD_HASH_TABLE_ENTRY: add or delete an entry
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void isim_steer_qhash(struct isim_dev *sdev, const __le64 *wqe,
		      struct isim_cqp_result *res)
{
	u64 hdr = le64_to_cpu(wqe[3]), q1 = le64_to_cpu(wqe[1]);
	u64 q2 = le64_to_cpu(wqe[2]);
	u8 manage = FIELD_GET(IRDMA_CQPSQ_QHASH_MANAGE, hdr);
	struct isim_qhash_key key = {};
	struct isim_qhash_entry *e;
	u32 qpn, hash;

	key.type = FIELD_GET(IRDMA_CQPSQ_QHASH_ENTRYTYPE, hdr);
	if ((key.type != IRDMA_QHASH_TCP_ESTABLISHED &&
	     key.type != IRDMA_QHASH_TCP_SYN) ||
	    (manage != IRDMA_CM_TABLE_ADD && manage != IRDMA_CM_TABLE_DELETE)) {
		dev_warn_ratelimited(&sdev->dev,
				     "quad hash: entry type %u, manage %u not modelled\n",
				     key.type, manage);
		return isim_fail(res, ISIM_MIN_UNMODELLED);
	}
	qpn = FIELD_GET(IRDMA_CQPSQ_QHASH_QPN, q1);
	if (!sdev->hmc.committed || qpn >= sdev->hmc.cnt[IRDMA_HMC_QP])
		return isim_fail(res, ISIM_MIN_BAD_PARAM);

	key.ipv4 = !!(hdr & IRDMA_CQPSQ_QHASH_IPV4VALID);
	if (hdr & IRDMA_CQPSQ_QHASH_VLANVALID)
		key.vlan = BIT(15) | FIELD_GET(IRDMA_CQPSQ_QHASH_VLANID, q2);
	key.local_port = FIELD_GET(IRDMA_CQPSQ_QHASH_DEST_PORT, q1);
	isim_qhash_addr(key.local_ip, &wqe[6]);
	/* A listener's entry matches any remote end. */
	if (key.type == IRDMA_QHASH_TCP_ESTABLISHED) {
		key.remote_port = FIELD_GET(IRDMA_CQPSQ_QHASH_SRC_PORT, q1);
		isim_qhash_addr(key.remote_ip, &wqe[4]);
	}
	if (key.ipv4) {
		memset(key.local_ip, 0, 3 * sizeof(u32));
		memset(key.remote_ip, 0, 3 * sizeof(u32));
	}

	hash = jhash(&key, sizeof(key), 0);
	e = isim_qhash_find(sdev, &key, hash);
	if (manage == IRDMA_CM_TABLE_DELETE) {
		if (!e)
			return isim_fail(res, ISIM_MIN_BAD_PARAM);
		hash_del(&e->node);
		sdev->steer.qhash_count--;
		kfree(e);
		return;
	}
	if (e)
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	if (sdev->steer.qhash_count >= ISIM_MAX_QHASH)
		return isim_fail(res, ISIM_MIN_NO_SPACE);
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return isim_fail(res, ISIM_MIN_NO_SPACE);
	e->key = key;
	e->qpn = qpn;
	e->qs_handle = FIELD_GET(IRDMA_CQPSQ_QHASH_QS_HANDLE, q2);
	e->mac = FIELD_GET(IRDMA_CQPSQ_QHASH_MAC, le64_to_cpu(wqe[0]));
	hash_add(sdev->steer.qhash, &e->node, hash);
	sdev->steer.qhash_count++;
}

/**
 * isim_steer_clear - the tables go with the function's state
 * @sdev: the simulated function, its engine stopped or its lock held
 */
void isim_steer_clear(struct isim_dev *sdev)
{
	struct isim_qhash_entry *e;
	struct hlist_node *tmp;
	int bkt;

	hash_for_each_safe(sdev->steer.qhash, bkt, tmp, e, node) {
		hash_del(&e->node);
		kfree(e);
	}
	sdev->steer.qhash_count = 0;
	bitmap_zero(sdev->steer.apbvt, 65536);
	skb_queue_purge(&sdev->steer.rxq);
}

/* The key of a connection's entry. */
static u32 isim_conn_key(struct isim_qhash_key *key, const struct isim_tcp_tuple *t)
{
	memset(key, 0, sizeof(*key));
	key->type = IRDMA_QHASH_TCP_ESTABLISHED;
	key->ipv4 = t->ipv4;
	key->local_port = t->local_port;
	key->remote_port = t->remote_port;
	key->vlan = t->vlan;
	memcpy(key->local_ip, t->local_ip, sizeof(key->local_ip));
	memcpy(key->remote_ip, t->remote_ip, sizeof(key->remote_ip));
	if (key->ipv4) {
		memset(key->local_ip, 0, 3 * sizeof(u32));
		memset(key->remote_ip, 0, 3 * sizeof(u32));
	}
	return jhash(key, sizeof(*key), 0);
}

/**
 * isim_steer_conn_bind - point a connection's entry at the QP taking the
 *	connection over (an iWARP QP going to RTS)
 * @sdev: the simulated function
 * @t: the connection
 * @qpn: the QP
 *
 * Return: false if the quad hash has no entry for the connection: its
 * segments then reach no QP.
 */
bool isim_steer_conn_bind(struct isim_dev *sdev, const struct isim_tcp_tuple *t,
			  u32 qpn)
{
	struct isim_qhash_key key;
	struct isim_qhash_entry *e;

	e = isim_qhash_find(sdev, &key, isim_conn_key(&key, t));
	if (e)
		e->qpn = qpn;
	return e;
}

/**
 * isim_steer_conn_unbind - remove a connection's entry, if it names the QP
 *	(REMOVEHASHENTRY of MODIFY_QP and DESTROY_QP)
 * @sdev: the simulated function
 * @t: the connection
 * @qpn: the QP
 */
void isim_steer_conn_unbind(struct isim_dev *sdev, const struct isim_tcp_tuple *t,
			    u32 qpn)
{
	struct isim_qhash_key key;
	struct isim_qhash_entry *e;

	e = isim_qhash_find(sdev, &key, isim_conn_key(&key, t));
	if (!e || e->qpn != qpn)
		return;
	hash_del(&e->node);
	sdev->steer.qhash_count--;
	kfree(e);
}

/**
 * isim_steer_conn_qpn - where a connection's segments go
 * @sdev: the simulated function they arrive at
 * @t: the connection, as that function sees it
 * @qpn: the QP its entry names
 *
 * Return: 0; -ENOENT if the function does not accelerate the local port
 * or has no entry for the connection (its stack takes the segments).
 */
int isim_steer_conn_qpn(struct isim_dev *sdev, const struct isim_tcp_tuple *t,
			u32 *qpn)
{
	struct isim_qhash_key key;
	struct isim_qhash_entry *e;

	if (!test_bit(t->local_port, sdev->steer.apbvt))
		return -ENOENT;
	e = isim_qhash_find(sdev, &key, isim_conn_key(&key, t));
	if (!e)
		return -ENOENT;
	*qpn = e->qpn;
	return 0;
}

/* Frames waiting for the engine; more are dropped, as a full buffer does. */
#define ISIM_STEER_RXQ_MAX	1024
/* Frames an engine step takes off the queue. */
#define ISIM_STEER_RX_BUDGET	64

static void isim_ip_words(u32 *words, const __be32 *addr, bool ipv4)
{
	int i;

	memset(words, 0, 4 * sizeof(u32));
	if (ipv4) {
		words[3] = be32_to_cpu(addr[0]);
		return;
	}
	for (i = 0; i < 4; i++)
		words[i] = be32_to_cpu(addr[i]);
}

/**
 * isim_tcp_frame_parse - read a frame's headers, if it is a TCP segment
 * @skb: the frame, its data starting at the Ethernet header
 * @f: what was read
 *
 * Only what the engine accelerates qualifies: IPv4 without options and
 * unfragmented, or IPv6 with TCP as its next header, behind one VLAN tag
 * at most.
 *
 * Return: true for such a segment.
 */
bool isim_tcp_frame_parse(const struct sk_buff *skb, struct isim_tcp_frame *f)
{
	struct vlan_ethhdr vh_buf;
	const struct vlan_ethhdr *vh;
	struct tcphdr th_buf;
	const struct tcphdr *th;
	u32 off = ETH_HLEN, tot;
	__be16 proto;

	memset(f, 0, sizeof(*f));
	vh = skb_header_pointer(skb, 0, sizeof(vh_buf), &vh_buf);
	if (!vh)
		return false;
	ether_addr_copy(f->smac, vh->h_source);
	proto = vh->h_vlan_proto;
	if (proto == htons(ETH_P_8021Q)) {
		f->vlan_valid = true;
		f->vlan_tci = ntohs(vh->h_vlan_TCI);
		proto = vh->h_vlan_encapsulated_proto;
		off = VLAN_ETH_HLEN;
	}
	f->l3_off = off;
	if (proto == htons(ETH_P_IP)) {
		struct iphdr ip_buf;
		const struct iphdr *ip = skb_header_pointer(skb, off, sizeof(ip_buf),
							    &ip_buf);

		if (!ip || ip->version != 4 || ip->ihl != 5 ||
		    ip->protocol != IPPROTO_TCP ||
		    (ip->frag_off & htons(IP_MF | IP_OFFSET)))
			return false;
		f->ipv4 = true;
		f->l3_len = sizeof(*ip);
		tot = ntohs(ip->tot_len);
		isim_ip_words(f->local_ip, &ip->daddr, true);
		isim_ip_words(f->remote_ip, &ip->saddr, true);
	} else if (proto == htons(ETH_P_IPV6)) {
		struct ipv6hdr ip6_buf;
		const struct ipv6hdr *ip6 = skb_header_pointer(skb, off, sizeof(ip6_buf),
							       &ip6_buf);

		if (!ip6 || ip6->version != 6 || ip6->nexthdr != IPPROTO_TCP)
			return false;
		f->l3_len = sizeof(*ip6);
		tot = sizeof(*ip6) + ntohs(ip6->payload_len);
		isim_ip_words(f->local_ip, ip6->daddr.s6_addr32, false);
		isim_ip_words(f->remote_ip, ip6->saddr.s6_addr32, false);
	} else {
		return false;
	}
	if (tot < f->l3_len + sizeof(*th) || off + tot > skb->len)
		return false;
	f->l4_len = tot - f->l3_len;
	th = skb_header_pointer(skb, off + f->l3_len, sizeof(th_buf), &th_buf);
	if (!th || th->doff < 5 || th->doff * 4 > f->l4_len)
		return false;
	f->local_port = ntohs(th->dest);
	f->remote_port = ntohs(th->source);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(isim_tcp_frame_parse);

/**
 * isim_steer_take - offer a frame off the switch to the function's engine
 * @sdev: the function the frame is for
 * @skb: the frame (not consumed)
 *
 * A TCP segment for a port of the APBVT goes to the engine, while the
 * LAN driver steers RDMA traffic there (the VSI's RDMA filter); the
 * engine's threads look it up in the quad hash (isim_steer_rx_run()).
 *
 * Context: any but NMI (the switch holds a spinlock).
 * Return: true if the engine took it (or dropped it, its queue full).
 */
bool isim_steer_take(struct isim_dev *sdev, struct sk_buff *skb)
{
	struct isim_tcp_frame f;
	struct sk_buff *nskb;

	if (!READ_ONCE(sdev->lan.rdma_filter) || !isim_tcp_frame_parse(skb, &f) ||
	    !test_bit(f.local_port, sdev->steer.apbvt))
		return false;
	sdev->stats.tcp_steered++;
	nskb = skb_queue_len(&sdev->steer.rxq) < ISIM_STEER_RXQ_MAX ?
	       skb_clone(skb, GFP_ATOMIC) : NULL;
	if (!nskb) {
		sdev->stats.tcp_rx_dropped++;
		return true;
	}
	skb_queue_tail(&sdev->steer.rxq, nskb);
	isim_engine_kick(sdev);
	return true;
}

/* The quad hash entry a segment belongs to: its connection's, else its
 * listener's.
 */
static struct isim_qhash_entry *isim_steer_lookup(struct isim_dev *sdev,
						  const struct isim_tcp_frame *f)
{
	struct isim_qhash_key key = {
		.type = IRDMA_QHASH_TCP_ESTABLISHED,
		.ipv4 = f->ipv4,
		.local_port = f->local_port,
		.remote_port = f->remote_port,
	};
	struct isim_qhash_entry *e;

	if (f->vlan_valid)
		key.vlan = BIT(15) | (f->vlan_tci & VLAN_VID_MASK);
	memcpy(key.local_ip, f->local_ip, sizeof(key.local_ip));
	memcpy(key.remote_ip, f->remote_ip, sizeof(key.remote_ip));
	e = isim_qhash_find(sdev, &key, jhash(&key, sizeof(key), 0));
	if (e)
		return e;
	key.type = IRDMA_QHASH_TCP_SYN;
	key.remote_port = 0;
	memset(key.remote_ip, 0, sizeof(key.remote_ip));
	return isim_qhash_find(sdev, &key, jhash(&key, sizeof(key), 0));
}

/* One frame the switch handed over: to the QP its entry names, or on. */
static void isim_steer_rx_one(struct isim_dev *sdev, struct sk_buff *skb)
{
	struct isim_qhash_entry *e;
	struct isim_tcp_frame f;
	struct isim_qp *qp;

	if (!isim_tcp_frame_parse(skb, &f)) {
		kfree_skb(skb);
		return;
	}
	e = isim_steer_lookup(sdev, &f);
	if (!e) {
		/* Not the engine's connection: the host's stack answers it. */
		sdev->stats.tcp_to_lan++;
		isim_netdev_rx(sdev, skb);
		return;
	}
	qp = xa_load(&sdev->qps, e->qpn);
	if (qp && qp->type == IRDMA_QP_TYPE_UDA)
		isim_uda_receive(sdev, qp, skb, &f);
	else if (qp && qp->type == IRDMA_QP_TYPE_IWARP && qp->tcp.offloaded)
		isim_iwarp_segment_rx(sdev, qp, skb, &f);
	else
		sdev->stats.tcp_rx_dropped++;
	kfree_skb(skb);
}

/**
 * isim_steer_rx_run - take the frames the switch handed over
 * @sdev: the simulated function
 *
 * Context: under the engine lock.
 * Return: true if there were any.
 */
bool isim_steer_rx_run(struct isim_dev *sdev)
{
	struct sk_buff *skb;
	int n;

	for (n = 0; n < ISIM_STEER_RX_BUDGET; n++) {
		skb = skb_dequeue(&sdev->steer.rxq);
		if (!skb)
			break;
		isim_steer_rx_one(sdev, skb);
	}
	return n > 0;
}
