// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * iWARP's connection manager: listeners, connections and iw_cm's events.
 *
 * A connection is opened in software, through the ILQ (puda.c): its TCP
 * handshake and MPA exchange are one struct irdma_cm_node's state machine
 * (cm_node.c), fed the segments the ILQ receives and the consumer's
 * answers. Once MPA is done, the connection's numbers go into the QP's
 * context and the QP takes the stream over at RTS; the engine then owns
 * the connection, and reports its end with asynchronous events.
 *
 * Everything a node does happens under the manager's spinlock: the ILQ's
 * receive (in CEQ 0's thread, which must not wait for the CQP), the
 * timer, the iw_cm entry points. What waits for the CQP, and every event
 * for iw_cm, goes to a connection's work item on an ordered workqueue,
 * so that a connection's events keep their order.
 */
#include <linux/etherdevice.h>
#include <linux/highmem.h>
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <net/addrconf.h>
#include <net/ip6_route.h>
#include <net/neighbour.h>
#include <net/route.h>
#include <net/secure_seq.h>
#include <net/tcp.h>
#include <rdma/ib_umem.h>
#include <rdma/iw_cm.h>

#include "cm.h"
#include "main.h"
#include "verbs.h"

#define IRDMA_CM_RCV_WND	0xffff	/* as carried, scaled by 4 */
#define IRDMA_CM_RCV_WSCALE	2
#define IRDMA_CM_TTL		64
#define IRDMA_CM_RTS_WAIT	(12 * HZ)
#define IRDMA_CM_TICK		(HZ / 10)
#define IRDMA_CM_MAX_ADDRS	32	/* a wildcard listener's addresses */
/* The RTR read's STags, which nobody checks (a zero-length read). */
#define IRDMA_RTR_LOCAL_STAG	0xabcd
#define IRDMA_RTR_REMOTE_STAG	0x1234

/**
 * struct irdma_cm - a function's connection manager
 * @iwdev: its device
 * @fn: its function
 * @lock: the lists and every node's state
 * @conns: the connections
 * @listeners: the listeners
 * @wq: ordered: connections' work (CQP commands, iw_cm's events)
 * @timer: the nodes' retransmission and TIME_WAIT clock
 * @addr_work: the netdev's addresses changed: the listeners' quad hash
 *	entries follow them
 * @listen_mutex: the listeners' list and quad hash entries, against
 *	@addr_work (the list's readers in atomic context take @lock)
 * @stopping: the manager is going: no new node, no timer
 */
struct irdma_cm {
	struct irdma_device *iwdev;
	struct irdma_fn *fn;
	spinlock_t lock; /* the lists, every node */
	struct list_head conns;
	struct list_head listeners;
	struct workqueue_struct *wq;
	struct delayed_work timer;
	struct work_struct addr_work;
	struct mutex listen_mutex; /* @listeners' entries and steering */
	bool stopping;
};

/**
 * struct irdma_cm_listener - a listening iw_cm_id
 * @entry: in the manager's list, while it listens
 * @cm_id: its iw_cm_id, held; NULL once destroyed
 * @ipv4: an IPv4 address
 * @wildcard: any address of the function's netdev and its VLANs
 * @ip: the address, host-order words (IPv4 in word 3)
 * @port: the port
 * @vlan: a specific address's VLAN id (IRDMA_CM_NO_VLAN: none)
 * @backlog: connections it keeps waiting for the consumer at most
 * @pending: connections waiting
 * @refs: the list's, and a connection's each
 * @syn: the quad hash's listener entries it added
 * @syn_count: entries in @syn
 *
 * Its port's APBVT use is held until the last reference goes.
 */
struct irdma_cm_listener {
	struct list_head entry;
	struct iw_cm_id *cm_id;
	bool ipv4;
	bool wildcard;
	u32 ip[4];
	u16 port;
	u16 vlan;
	int backlog;
	int pending;
	refcount_t refs;
	struct irdma_qhash_info *syn;
	u32 syn_count;
};

/* What a connection's work item has to do, in this order. */
enum irdma_cm_work_bit {
	IRDMA_CMW_SETUP,	/* passive: AH, ARP entry, quad hash, SYN-ACK */
	IRDMA_CMW_REQUEST,	/* passive: CONNECT_REQUEST */
	IRDMA_CMW_CONNECTED,	/* active: the QP takes over, CONNECT_REPLY */
	IRDMA_CMW_REFUSED,	/* active: CONNECT_REPLY -ECONNREFUSED */
	IRDMA_CMW_ABORTED,	/* active: CONNECT_REPLY -ECONNRESET */
	IRDMA_CMW_FIN,		/* offloaded: the peer closes */
	IRDMA_CMW_DISCONNECT,	/* offloaded: DISCONNECT */
	IRDMA_CMW_CLOSE,	/* offloaded: CLOSE, the QP let go */
	IRDMA_CMW_GONE,		/* the connection's resources go */
};

/**
 * struct irdma_cm_conn - a connection
 * @node: its TCP and MPA state machine (@node.priv is the connection)
 * @cm: its manager
 * @entry: in the manager's list
 * @refs: the list's, a queued work item's, iw_cm's (a request given)
 * @work: its work item
 * @pending: enum irdma_cm_work_bit bits for @work
 * @listener: the listener it came to (passive), held
 * @cm_id: the iw_cm_id it reports to, held (add_ref), with @qp
 * @qp: the QP that carries it, held
 * @ipv4: IPv4 addresses
 * @loc_ip: this end's address, host-order words (IPv4 in word 3)
 * @rem_ip: the peer's
 * @loc_port: this end's port
 * @rem_port: the peer's
 * @vlan: the VLAN id (IRDMA_CM_NO_VLAN: none)
 * @tos: the IP TOS
 * @rem_mac: the next hop's MAC
 * @arp_idx: its ARP entry (0: none held)
 * @ah: the ILQ's address handle for the peer
 * @ah_made: @ah exists
 * @qhash_set: the connection's quad hash entry is the manager's
 * @apbvt: the local port's APBVT use is held (active)
 * @req_given: iw_cm holds a CONNECT_REQUEST for it (a reference)
 * @replied: active: CONNECT_REPLY went
 * @established: iw_cm was told the connection is up (CONNECT_REPLY 0 or
 *	ESTABLISHED): DISCONNECT and CLOSE may follow, and only then
 * @accepted: passive: accepted (no longer waiting in the backlog)
 * @closed: CLOSE went
 * @disconnected: DISCONNECT went
 * @disc_status: the status DISCONNECT carries
 * @gone: the node is closed
 * @pdata: the peer's private data
 * @pdata_len: its length
 * @lsmm: passive: the MPA reply the QP sends
 * @lsmm_len: the reply's length
 * @lsmm_mr: the region it lies in
 * @mutex: iw_cm's events of the connection, one at a time and in order
 *	(the work item and an accept, which reports from its caller)
 * @disc_pending: a DISCONNECT came before the connection was reported up
 * @close_pending: so did a CLOSE
 * @addr_gone: its local address was removed, and the connection ended
 */
struct irdma_cm_conn {
	struct irdma_cm_node node;
	struct irdma_cm *cm;
	struct list_head entry;
	refcount_t refs;
	struct work_struct work;
	unsigned long pending;
	struct irdma_cm_listener *listener;
	struct iw_cm_id *cm_id;
	struct irdma_qp *qp;
	bool ipv4;
	u32 loc_ip[4];
	u32 rem_ip[4];
	u16 loc_port;
	u16 rem_port;
	u16 vlan;
	u8 tos;
	u8 rem_mac[ETH_ALEN];
	u32 arp_idx;
	struct irdma_ah_hw_info ah;
	bool ah_made;
	bool qhash_set;
	bool apbvt;
	bool req_given;
	bool replied;
	bool established;
	bool accepted;
	bool closed;
	bool disconnected;
	int disc_status;
	bool gone;
	u8 pdata[IRDMA_MPA_MAX_PDATA];
	u16 pdata_len;
	struct irdma_dma_mem lsmm;
	u32 lsmm_len;
	struct ib_mr *lsmm_mr;
	struct mutex mutex; /* the connection's iw_cm events */
	bool disc_pending;
	bool close_pending;
	bool addr_gone;
};

static struct irdma_cm_conn *node_conn(struct irdma_cm_node *n)
{
	return n->priv;
}

static void irdma_cm_conn_put(struct irdma_cm_conn *c)
{
	if (refcount_dec_and_test(&c->refs)) {
		mutex_destroy(&c->mutex);
		kfree(c);
	}
}

/*
 * The listener goes with the last connection it took: its port stays the
 * engine's until then, or their segments would go to the host's stack.
 * Context: process context; sleeps.
 */
static void irdma_cm_listener_put(struct irdma_cm *cm, struct irdma_cm_listener *l)
{
	if (!refcount_dec_and_test(&l->refs))
		return;
	irdma_apbvt_put(cm->fn, l->port);
	kfree(l->syn);
	kfree(l);
}

/* Queue work for a connection. Context: any; the bit is set first. */
static void irdma_cm_kick(struct irdma_cm_conn *c, enum irdma_cm_work_bit bit)
{
	set_bit(bit, &c->pending);
	refcount_inc(&c->refs);
	if (!queue_work(c->cm->wq, &c->work))
		irdma_cm_conn_put(c);
}

/*
 * The nodes' clock: within a tick, if a node may have armed a timer. A
 * clock already running is left as it is: segments arriving must not
 * hold it back.
 */
static void irdma_cm_timer_arm(struct irdma_cm *cm)
{
	if (!READ_ONCE(cm->stopping))
		queue_delayed_work(system_wq, &cm->timer, IRDMA_CM_TICK);
}

static void irdma_cm_timer(struct work_struct *work)
{
	struct irdma_cm *cm = container_of(work, struct irdma_cm, timer.work);
	unsigned long now = jiffies, next = now + 60 * HZ;
	struct irdma_cm_conn *c, *tmp;
	bool running = false;

	spin_lock(&cm->lock);
	list_for_each_entry_safe(c, tmp, &cm->conns, entry) {
		if (c->gone || !irdma_cm_node_tick(&c->node, now))
			continue;
		running = true;
		if (time_before(irdma_cm_node_next_due(&c->node), next))
			next = irdma_cm_node_next_due(&c->node);
	}
	spin_unlock(&cm->lock);
	/* A tick at most: a node armed meanwhile is not left waiting. */
	if (running && !READ_ONCE(cm->stopping))
		queue_delayed_work(system_wq, &cm->timer,
				   clamp_t(long, (long)(next - jiffies), 1, IRDMA_CM_TICK));
}

/* A segment to the peer, through the ILQ. Context: under the lock. */
static int irdma_cm_xmit(struct irdma_cm_node *n, const struct irdma_cm_seg *s)
{
	struct irdma_cm_conn *c = node_conn(n);
	struct irdma_fn *fn = c->cm->fn;
	u8 buf[sizeof(struct tcphdr) + IRDMA_CM_SYN_OPT_LEN + IRDMA_MPA_MAX_FRAME];
	u32 len, hdr;

	if (!c->ah_made || !fn->ilq || s->payload_len > IRDMA_MPA_MAX_FRAME)
		return -EAGAIN;
	len = irdma_cm_tcp_build(buf, s);
	hdr = len - s->payload_len;
	return irdma_puda_send(fn->ilq, c->ah.id, buf, len, hdr);
}

/* What a node tells: work for its connection. Context: under the lock. */
static void irdma_cm_node_event(struct irdma_cm_node *n, enum irdma_cm_event ev)
{
	struct irdma_cm_conn *c = node_conn(n);

	switch (ev) {
	case IRDMA_CM_EV_MPA_REQUEST:
	case IRDMA_CM_EV_CONNECTED:
	case IRDMA_CM_EV_REJECTED:
		c->pdata_len = min_t(u16, n->peer.pdata_len, sizeof(c->pdata));
		memcpy(c->pdata, n->peer.pdata, c->pdata_len);
		irdma_cm_kick(c, ev == IRDMA_CM_EV_MPA_REQUEST ? IRDMA_CMW_REQUEST :
			      ev == IRDMA_CM_EV_CONNECTED ? IRDMA_CMW_CONNECTED :
			      IRDMA_CMW_REFUSED);
		break;
	case IRDMA_CM_EV_ABORTED:
		c->gone = true;
		irdma_cm_kick(c, IRDMA_CMW_ABORTED);
		irdma_cm_kick(c, IRDMA_CMW_GONE);
		break;
	case IRDMA_CM_EV_GONE:
		c->gone = true;
		irdma_cm_kick(c, IRDMA_CMW_GONE);
		break;
	}
}

static const struct irdma_cm_node_ops irdma_cm_node_ops = {
	.xmit = irdma_cm_xmit,
	.event = irdma_cm_node_event,
};

static void irdma_cm_work(struct work_struct *work);
static void irdma_cm_established(struct irdma_cm_conn *c, enum iw_cm_event_type type);

static struct irdma_cm_conn *irdma_cm_conn_alloc(struct irdma_cm *cm, gfp_t gfp)
{
	struct irdma_cm_conn *c = kzalloc(sizeof(*c), gfp);

	if (!c)
		return NULL;
	c->cm = cm;
	refcount_set(&c->refs, 1);
	INIT_WORK(&c->work, irdma_cm_work);
	INIT_LIST_HEAD(&c->entry);
	mutex_init(&c->mutex);
	c->vlan = IRDMA_CM_NO_VLAN;
	return c;
}

static u32 irdma_cm_isn(const struct irdma_cm_conn *c)
{
	__be32 l6[4], r6[4];
	int i;

	if (c->ipv4)
		return secure_tcp_seq(htonl(c->loc_ip[3]), htonl(c->rem_ip[3]),
				      htons(c->loc_port), htons(c->rem_port));
	for (i = 0; i < 4; i++) {
		l6[i] = htonl(c->loc_ip[i]);
		r6[i] = htonl(c->rem_ip[i]);
	}
	return secure_tcpv6_seq(l6, r6, htons(c->loc_port), htons(c->rem_port));
}

/* A node's numbers: upstream's window, scale, MSS and MPA offer. */
static void irdma_cm_node_setup(struct irdma_cm_conn *c, const void *pdata,
				u16 pdata_len, u16 ird, u16 ord)
{
	u32 mtu = READ_ONCE(c->cm->fn->mtu);
	struct irdma_cm_node_cfg cfg = {
		.local_port = c->loc_port,
		.remote_port = c->rem_port,
		.isn = irdma_cm_isn(c),
		.mss = mtu - (c->ipv4 ? 40 : 60),
		.rcv_wnd = IRDMA_CM_RCV_WND,
		.rcv_wscale = IRDMA_CM_RCV_WSCALE,
		.mpa = {
			.rev = 2,
			.crc = true,
			.peer_to_peer = true,
			.rtr = IRDMA_RTR_READ | IRDMA_RTR_WRITE,
			.pdata = pdata,
			.pdata_len = pdata_len,
		},
		.ird = ird,
		.ord = ord,
	};

	irdma_cm_node_init(&c->node, &irdma_cm_node_ops, &cfg);
	c->node.priv = c;
}

/* The sockaddr of one end of a connection. */
static void irdma_cm_sockaddr(struct sockaddr_storage *ss, bool ipv4,
			      const u32 *ip, u16 port)
{
	memset(ss, 0, sizeof(*ss));
	if (ipv4) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(ip[3]);
		sin->sin_port = htons(port);
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
		int i;

		sin6->sin6_family = AF_INET6;
		for (i = 0; i < 4; i++)
			sin6->sin6_addr.s6_addr32[i] = htonl(ip[i]);
		sin6->sin6_port = htons(port);
	}
}

/* Read a sockaddr: the address in host-order words, the port. */
static int irdma_cm_addr(const struct sockaddr_storage *ss, bool *ipv4, u32 *ip,
			 u16 *port)
{
	memset(ip, 0, 4 * sizeof(u32));
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)ss;

		*ipv4 = true;
		ip[3] = ntohl(sin->sin_addr.s_addr);
		*port = ntohs(sin->sin_port);
		return 0;
	}
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;
		int i;

		*ipv4 = false;
		for (i = 0; i < 4; i++)
			ip[i] = ntohl(sin6->sin6_addr.s6_addr32[i]);
		*port = ntohs(sin6->sin6_port);
		return 0;
	}
	return -EAFNOSUPPORT;
}

static bool irdma_cm_ip_any(const u32 *ip)
{
	return !(ip[0] | ip[1] | ip[2] | ip[3]);
}

/* The VLAN on the function's netdev that owns an IPv6 address, if one does. */
static u16 irdma_cm_addr6_vlan(struct net_device *nd, const u32 *ip)
{
	u16 vlan = IRDMA_CM_NO_VLAN;
#if IS_ENABLED(CONFIG_IPV6)
	struct net_device *dev;
	struct in6_addr a;
	int i;

	for (i = 0; i < 4; i++)
		a.s6_addr32[i] = htonl(ip[i]);
	rcu_read_lock();
	for_each_netdev_rcu(dev_net(nd), dev) {
		if (!is_vlan_dev(dev) || vlan_dev_real_dev(dev) != nd)
			continue;
		if (ipv6_chk_addr(dev_net(nd), &a, dev, 1)) {
			vlan = vlan_dev_vlan_id(dev);
			break;
		}
	}
	rcu_read_unlock();
#endif
	return vlan;
}

/*
 * The VLAN of a local address: that of the VLAN on the function's netdev
 * owning it, none if the netdev itself (or no device of ours) does.
 */
static u16 irdma_cm_addr_vlan(struct irdma_cm *cm, bool ipv4, const u32 *ip)
{
	struct net_device *nd = cm->fn->res.netdev, *dev;
	u16 vlan = IRDMA_CM_NO_VLAN;

	if (!ipv4)
		return irdma_cm_addr6_vlan(nd, ip);
	rcu_read_lock();
	dev = __ip_dev_find(dev_net(nd), htonl(ip[3]), false);
	if (dev && is_vlan_dev(dev) && vlan_dev_real_dev(dev) == nd)
		vlan = vlan_dev_vlan_id(dev);
	rcu_read_unlock();
	return vlan;
}

/* The next hop's MAC for the peer, from the netdev's namespace. */
static int irdma_cm_resolve(struct irdma_cm *cm, struct irdma_cm_conn *c)
{
	struct net_device *nd = cm->fn->res.netdev;
	struct net *net = dev_net(nd);
	struct neighbour *neigh = NULL;
	struct dst_entry *dst;
	int err = -EINVAL;

	if (!memcmp(c->loc_ip, c->rem_ip, sizeof(c->loc_ip))) {
		ether_addr_copy(c->rem_mac, nd->dev_addr);
		return 0;
	}
	if (c->ipv4) {
		__be32 daddr = htonl(c->rem_ip[3]);
		struct rtable *rt = ip_route_output(net, daddr, htonl(c->loc_ip[3]),
						    0, 0, RT_SCOPE_UNIVERSE);

		if (IS_ERR(rt))
			return -EINVAL;
		dst = &rt->dst;
		neigh = dst_neigh_lookup(dst, &daddr);
	} else {
		struct flowi6 fl6 = {};
		int i;

		for (i = 0; i < 4; i++) {
			fl6.daddr.s6_addr32[i] = htonl(c->rem_ip[i]);
			fl6.saddr.s6_addr32[i] = htonl(c->loc_ip[i]);
		}
		dst = ip6_route_output(net, NULL, &fl6);
		if (dst->error) {
			dst_release(dst);
			return -EINVAL;
		}
		neigh = dst_neigh_lookup(dst, &fl6.daddr);
	}
	if (neigh) {
		if (neigh->nud_state & NUD_VALID) {
			neigh_ha_snapshot(c->rem_mac, neigh, neigh->dev);
			err = 0;
		} else {
			/* Resolution starts; the connect is refused, as upstream's. */
			neigh_event_send(neigh, NULL);
		}
		neigh_release(neigh);
	}
	dst_release(dst);
	return err;
}

/* The ILQ's address handle for the peer, and the ARP entry it names. */
static int irdma_cm_make_ah(struct irdma_cm_conn *c)
{
	struct irdma_fn *fn = c->cm->fn;
	struct irdma_ah_hw_info *ah = &c->ah;
	int idx, err;

	idx = irdma_arp_add(fn, c->rem_ip, c->ipv4, c->rem_mac);
	if (idx < 0)
		return -EINVAL;
	c->arp_idx = idx;
	memset(ah, 0, sizeof(*ah));
	ah->pd = fn->ilq ? fn->ilq->hw.pd : 0;
	ether_addr_copy(ah->mac, fn->res.netdev->dev_addr);
	ah->ipv4 = c->ipv4;
	memcpy(ah->dest_ip, c->rem_ip, sizeof(ah->dest_ip));
	memcpy(ah->src_ip, c->loc_ip, sizeof(ah->src_ip));
	ah->arp_idx = idx;
	ah->tc = c->tos;
	ah->hop_limit = IRDMA_CM_TTL;
	/* Without a VLAN the tag field holds 0xffff, as the stock driver's. */
	ah->insert_vlan = c->vlan < VLAN_N_VID;
	ah->vlan = c->vlan;
	ah->loopback = !memcmp(c->loc_ip, c->rem_ip, sizeof(c->loc_ip));
	err = irdma_create_hw_ah(fn, ah, RDMA_CREATE_AH_SLEEPABLE);
	if (err)
		return err;
	c->ah_made = true;
	return 0;
}

static void irdma_cm_qhash_info(const struct irdma_cm_conn *c,
				struct irdma_qhash_info *q)
{
	struct irdma_fn *fn = c->cm->fn;

	memset(q, 0, sizeof(*q));
	q->type = IRDMA_QHASH_TCP_ESTABLISHED;
	q->ipv4 = c->ipv4;
	q->vlan_valid = c->vlan < VLAN_N_VID;
	q->vlan = q->vlan_valid ? c->vlan : 0;
	ether_addr_copy(q->mac, fn->res.netdev->dev_addr);
	memcpy(q->local_ip, c->loc_ip, sizeof(q->local_ip));
	memcpy(q->remote_ip, c->rem_ip, sizeof(q->remote_ip));
	q->local_port = c->loc_port;
	q->remote_port = c->rem_port;
	q->qp_id = IRDMA_ILQ_ID;
	q->qs_handle = irdma_ws_qs_handle(fn, 0);
}

/* The connection's steering to the ILQ. */
static int irdma_cm_add_qhash(struct irdma_cm_conn *c)
{
	struct irdma_qhash_info q;
	int err;

	irdma_cm_qhash_info(c, &q);
	err = irdma_qhash_manage(c->cm->fn, &q, IRDMA_CM_TABLE_ADD);
	if (err)
		return -EINVAL;
	c->qhash_set = true;
	return 0;
}

/* The ILQ's resources of a connection go: address handle, steering. */
static void irdma_cm_release_setup(struct irdma_cm_conn *c)
{
	struct irdma_fn *fn = c->cm->fn;
	struct irdma_qhash_info q;

	if (c->qhash_set) {
		irdma_cm_qhash_info(c, &q);
		irdma_qhash_manage(fn, &q, IRDMA_CM_TABLE_DELETE);
		c->qhash_set = false;
	}
	if (c->ah_made) {
		irdma_destroy_hw_ah(fn, &c->ah);
		c->ah_made = false;
	}
}

/* The consumer's side lets go: the iw_cm_id and the QP. */
static void irdma_cm_drop_upper(struct irdma_cm_conn *c)
{
	struct iw_cm_id *cm_id = c->cm_id;
	struct irdma_qp *qp = c->qp;

	c->cm_id = NULL;
	c->qp = NULL;
	/* The MPA reply's region is of the QP's PD: it goes first. */
	if (c->lsmm_mr)
		irdma_dereg_mr(c->lsmm_mr, NULL);
	c->lsmm_mr = NULL;
	if (qp) {
		/* Under the lock: whoever found the connection holds it. */
		spin_lock(&c->cm->lock);
		if (qp->cm_conn == c)
			qp->cm_conn = NULL;
		spin_unlock(&c->cm->lock);
		irdma_qp_put(qp);
	}
	if (cm_id)
		cm_id->rem_ref(cm_id);
}

static int irdma_cm_upcall(struct iw_cm_id *cm_id, struct iw_cm_event *ev)
{
	return cm_id ? cm_id->event_handler(cm_id, ev) : 0;
}

static void irdma_cm_report(struct irdma_cm_conn *c, enum iw_cm_event_type type,
			    int status, bool pdata)
{
	struct iw_cm_event ev = {
		.event = type,
		.status = status,
	};

	if (!c->cm_id)
		return;
	if (type == IW_CM_EVENT_CONNECT_REPLY) {
		ev.local_addr = c->cm_id->m_local_addr;
		ev.remote_addr = c->cm_id->m_remote_addr;
	}
	if (pdata) {
		ev.private_data = c->pdata;
		ev.private_data_len = min_t(u16, c->pdata_len, U8_MAX);
	}
	ev.ird = c->node.ird;
	ev.ord = c->node.ord;
	irdma_cm_upcall(c->cm_id, &ev);
}

/* Where the QP's SQ begins, mapped for the connection's WQEs. */
static __le64 *irdma_cm_sq_map(struct irdma_qp *qp)
{
	struct ib_umem *umem;
	unsigned long off;

	if (!qp->user)
		return qp->uk.sq;
	umem = qp->user_rings ? qp->user_rings->umem : NULL;
	if (!umem)
		return NULL;
	off = ib_umem_offset(umem);
	if (off + IRDMA_IWARP_CONN_WQES * IRDMA_WQE_QUANTUM_SIZE > PAGE_SIZE)
		return NULL;
	return kmap_local_page(sg_page(umem->sgt_append.sgt.sgl)) + off;
}

static void irdma_cm_sq_unmap(struct irdma_qp *qp, __le64 *sq)
{
	if (qp->user)
		kunmap_local(sq);
}

static void irdma_cm_wqe(__le64 *wqe, u64 q0, u64 q1, u64 hdr)
{
	wqe[0] = cpu_to_le64(q0);
	wqe[1] = cpu_to_le64(q1);
	wqe[2] = 0;
	dma_wmb();
	WRITE_ONCE(wqe[3], cpu_to_le64(hdr | IRDMA_WQE_VALID));
}

/*
 * The connection's WQEs, the SQ's first three on its first pass: the
 * passive side's MPA reply as stream data, after which the SQ waits for
 * the peer's first PDU, or the active side's RTR; then a NOP with a local
 * fence and the request for the established event.
 */
static int irdma_cm_post_conn_wqes(struct irdma_cm_conn *c, struct irdma_qp *qp)
{
	__le64 *sq = irdma_cm_sq_map(qp);
	u64 hdr;

	if (!sq)
		return -EFAULT;
	if (c->lsmm_mr) {
		hdr = FIELD_PREP(IRDMA_WQE_OPCODE, IRDMA_WQEOP_SEND) |
		      IRDMA_WQE_STREAMMODE | IRDMA_WQE_WAITFORRCVPDU;
		irdma_cm_wqe(sq, c->lsmm.pa,
			     FIELD_PREP(IRDMA_WQE_FRAG_LEN, c->lsmm_len) |
			     FIELD_PREP(IRDMA_WQE_FRAG_STAG, c->lsmm_mr->lkey) |
			     IRDMA_WQE_FRAG_VALID, hdr);
	} else if (c->node.rtr & IRDMA_RTR_READ || !c->node.rtr) {
		hdr = FIELD_PREP(IRDMA_WQE_OPCODE, IRDMA_WQEOP_RDMA_READ) |
		      FIELD_PREP(IRDMA_WQE_REMSTAG, IRDMA_RTR_REMOTE_STAG);
		irdma_cm_wqe(sq, 0, IRDMA_RTR_LOCAL_STAG | IRDMA_WQE_FRAG_VALID, hdr);
	} else {
		hdr = FIELD_PREP(IRDMA_WQE_OPCODE, IRDMA_WQEOP_RDMA_WRITE);
		irdma_cm_wqe(sq, 0, IRDMA_WQE_FRAG_VALID, hdr);
	}
	irdma_cm_wqe(sq + 4, 0, 0, FIELD_PREP(IRDMA_WQE_OPCODE, IRDMA_WQEOP_NOP) |
		     IRDMA_WQE_LOCALFENCE);
	irdma_cm_wqe(sq + 8, 0, 0, FIELD_PREP(IRDMA_WQE_OPCODE, IRDMA_WQEOP_GEN_RTS_AE));
	irdma_cm_sq_unmap(qp, sq);
	return 0;
}

/*
 * The QP takes the connection over: its context gets the connection's
 * numbers, its SQ the connection's WQEs, and it goes to RTS. Then the
 * engine's report that the connection is established is awaited.
 */
static int irdma_cm_offload(struct irdma_cm_conn *c, struct irdma_qp *qp)
{
	struct irdma_cm_node *n = &c->node;
	struct irdma_iwarp_conn *ic = &qp->iw_conn;
	int err;

	mutex_lock(&qp->mutex);
	if (qp->ib_state != IB_QPS_INIT && qp->ib_state != IB_QPS_RTR) {
		mutex_unlock(&qp->mutex);
		return -EINVAL;
	}
	spin_lock(&c->cm->lock);
	*ic = (struct irdma_iwarp_conn) {
		.dst_port = c->rem_port,
		.snd_nxt = n->snd_nxt,
		.snd_wnd = n->snd_wnd,
		.max_snd_wnd = n->max_snd_wnd,
		.rcv_nxt = n->rcv_nxt,
		.rcv_wnd = (u32)n->rcv_wnd << n->rcv_wscale,
		.snd_wscale = n->snd_wscale,
		.rcv_wscale = n->rcv_wscale,
	};
	qp->hw.mss = n->mss;
	qp->hw.pd = to_iwpd(qp->ibqp.pd)->id;
	qp->hw.ord = n->ord;
	qp->hw.ird = max_t(u16, n->ird, 1);
	spin_unlock(&c->cm->lock);
	qp->hw.ipv4 = c->ipv4;
	memcpy(qp->hw.src_ip, c->loc_ip, sizeof(qp->hw.src_ip));
	memcpy(qp->hw.dest_ip, c->rem_ip, sizeof(qp->hw.dest_ip));
	qp->hw.src_port = c->loc_port;
	qp->hw.ttl = IRDMA_CM_TTL;
	qp->hw.tos = c->tos;
	qp->hw.insert_vlan = c->vlan < VLAN_N_VID;
	qp->hw.vlan = qp->hw.insert_vlan ? c->vlan : 0;
	/* The ARP entry is the QP's now: its destroy lets go of it. */
	qp->hw.arp_idx = c->arp_idx;
	c->arp_idx = 0;
	qp->hw.conn = ic;
	qp->rts_ae = false;
	err = irdma_cm_post_conn_wqes(c, qp);
	if (!err)
		err = irdma_qp_iwarp_rts(qp);
	mutex_unlock(&qp->mutex);
	if (err)
		return err;
	/* The QP owns the connection's steering from now on. */
	c->qhash_set = false;
	if (!wait_event_timeout(qp->cm_wait, READ_ONCE(qp->rts_ae), IRDMA_CM_RTS_WAIT))
		return -ECONNRESET;
	return 0;
}

/*
 * The connection is over on the consumer's side: its node takes nothing
 * more, and its resources go. Context: process context, the lock not held.
 */
static void irdma_cm_finish(struct irdma_cm_conn *c)
{
	spin_lock(&c->cm->lock);
	c->node.state = IRDMA_CM_CLOSED;
	c->gone = true;
	spin_unlock(&c->cm->lock);
	irdma_cm_kick(c, IRDMA_CMW_GONE);
}

/*
 * Passive: the peer's MAC from the host's neighbours, the address handle
 * and steering, then the SYN-ACK. A peer not resolved yet is not answered
 * (as upstream's): resolution starts, and its next SYN finds it done. A
 * SYN from an address nobody owns leaves nothing behind.
 */
static void irdma_cm_do_setup(struct irdma_cm_conn *c)
{
	struct irdma_cm *cm = c->cm;
	int err;

	err = irdma_cm_resolve(cm, c);
	if (!err)
		err = irdma_cm_make_ah(c);
	if (!err)
		err = irdma_cm_add_qhash(c);
	spin_lock(&cm->lock);
	if (err) {
		/* Dropped silently, as a SYN the engine could not take. */
		if (!c->gone) {
			c->node.state = IRDMA_CM_CLOSED;
			c->gone = true;
			irdma_cm_kick(c, IRDMA_CMW_GONE);
		}
	} else if (!c->gone) {
		irdma_cm_node_synack(&c->node, jiffies);
	}
	spin_unlock(&cm->lock);
	irdma_cm_timer_arm(cm);
}

/* Passive: the MPA request goes to the listener's consumer. */
static void irdma_cm_do_request(struct irdma_cm_conn *c)
{
	struct irdma_cm *cm = c->cm;
	struct iw_cm_event ev = {
		.event = IW_CM_EVENT_CONNECT_REQUEST,
		.provider_data = c,
		.private_data = c->pdata,
		.private_data_len = min_t(u16, c->pdata_len, U8_MAX),
	};
	int ret = -ENOENT;

	irdma_cm_sockaddr(&ev.local_addr, c->ipv4, c->loc_ip, c->loc_port);
	irdma_cm_sockaddr(&ev.remote_addr, c->ipv4, c->rem_ip, c->rem_port);
	spin_lock(&cm->lock);
	ev.ird = c->node.ird;
	ev.ord = c->node.ord;
	if (!c->gone && c->listener->cm_id) {
		/* iw_cm answers with an accept or a reject: it holds us. */
		refcount_inc(&c->refs);
		c->req_given = true;
		ret = irdma_cm_upcall(c->listener->cm_id, &ev);
		if (ret) {
			c->req_given = false;
			refcount_dec(&c->refs);
		}
	}
	if (ret && !c->gone)
		irdma_cm_node_reset(&c->node);
	spin_unlock(&cm->lock);
}

/* Active: the peer accepted; the QP takes over and the consumer is told. */
static void irdma_cm_do_connected(struct irdma_cm_conn *c)
{
	struct irdma_qp *qp = c->qp;
	int err = qp ? irdma_cm_offload(c, qp) : -EINVAL;

	irdma_cm_release_setup(c);
	if (err) {
		ibdev_dbg(&c->cm->iwdev->ibdev, "CM: the QP took no connection: %d\n", err);
		if (qp)
			irdma_qp_iwarp_fail(qp, true);
		irdma_cm_report(c, IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET, false);
		c->replied = true;
		irdma_cm_drop_upper(c);
		irdma_cm_finish(c);
		return;
	}
	irdma_cm_established(c, IW_CM_EVENT_CONNECT_REPLY);
}

/* Active: no connection; the consumer is told why, and lets go. */
static void irdma_cm_do_failed(struct irdma_cm_conn *c, int status)
{
	if (c->replied)
		return;
	c->replied = true;
	irdma_cm_report(c, IW_CM_EVENT_CONNECT_REPLY, status, status == -ECONNREFUSED);
	irdma_cm_drop_upper(c);
}

/* Offloaded: the peer's FIN; the QP answers with its own. */
static void irdma_cm_do_fin(struct irdma_cm_conn *c)
{
	struct irdma_qp *qp = c->qp;

	if (!qp)
		return;
	mutex_lock(&qp->mutex);
	if (qp->hw_state == IRDMA_QPS_RTS)
		irdma_qp_iwarp_close(qp, true);
	mutex_unlock(&qp->mutex);
}

static void irdma_cm_do_close(struct irdma_cm_conn *c)
{
	struct irdma_qp *qp = c->qp;

	if (c->closed || !qp)
		return;
	/*
	 * Before the connection is up, its outcome is still to be reported:
	 * the close waits for it, and a connect still opening is aborted.
	 */
	if (!c->established) {
		c->close_pending = true;
		spin_lock(&c->cm->lock);
		if (!c->gone && c->node.state < IRDMA_CM_OFFLOADED)
			irdma_cm_node_abort(&c->node);
		spin_unlock(&c->cm->lock);
		return;
	}
	c->closed = true;
	irdma_qp_iwarp_closed(qp);
	irdma_cm_report(c, IW_CM_EVENT_CLOSE, 0, false);
	irdma_cm_drop_upper(c);
	irdma_cm_finish(c);
}

static void irdma_cm_do_disconnect(struct irdma_cm_conn *c)
{
	if (c->disconnected || c->closed)
		return;
	if (!c->established) {
		c->disc_pending = true;
		return;
	}
	c->disconnected = true;
	irdma_cm_report(c, IW_CM_EVENT_DISCONNECT, c->disc_status, false);
}

/*
 * The connection is reported up: what came before waits no more.
 * Context: @c->mutex held.
 */
static void irdma_cm_established(struct irdma_cm_conn *c, enum iw_cm_event_type type)
{
	lockdep_assert_held(&c->mutex);
	c->replied = true;
	c->established = true;
	irdma_cm_report(c, type, 0, type == IW_CM_EVENT_CONNECT_REPLY);
	if (c->disc_pending)
		irdma_cm_kick(c, IRDMA_CMW_DISCONNECT);
	if (c->close_pending)
		irdma_cm_kick(c, IRDMA_CMW_CLOSE);
}

/* The connection's end: what it held goes, then the connection. */
static void irdma_cm_do_gone(struct irdma_cm_conn *c)
{
	struct irdma_cm *cm = c->cm;
	struct irdma_cm_listener *l;
	bool in_list;

	spin_lock(&cm->lock);
	in_list = !list_empty(&c->entry);
	list_del_init(&c->entry);
	l = c->listener;
	c->listener = NULL;
	if (l && !c->accepted)
		l->pending--;
	spin_unlock(&cm->lock);
	if (!in_list)
		return;
	irdma_cm_release_setup(c);
	if (c->arp_idx)
		irdma_arp_put(cm->fn, c->arp_idx);
	c->arp_idx = 0;
	if (c->apbvt)
		irdma_apbvt_put(cm->fn, c->loc_port);
	c->apbvt = false;
	if (!c->closed && c->qp)
		irdma_cm_do_close(c);
	irdma_cm_drop_upper(c);
	if (c->lsmm_mr)
		irdma_dereg_mr(c->lsmm_mr, NULL);
	c->lsmm_mr = NULL;
	irdma_dma_release(cm->fn, &c->lsmm, true);
	if (l)
		irdma_cm_listener_put(cm, l);
	irdma_cm_conn_put(c);
}

static void irdma_cm_work(struct work_struct *work)
{
	struct irdma_cm_conn *c = container_of(work, struct irdma_cm_conn, work);

	if (test_and_clear_bit(IRDMA_CMW_SETUP, &c->pending))
		irdma_cm_do_setup(c);
	mutex_lock(&c->mutex);
	if (test_and_clear_bit(IRDMA_CMW_REQUEST, &c->pending))
		irdma_cm_do_request(c);
	if (test_and_clear_bit(IRDMA_CMW_CONNECTED, &c->pending))
		irdma_cm_do_connected(c);
	if (test_and_clear_bit(IRDMA_CMW_REFUSED, &c->pending))
		irdma_cm_do_failed(c, -ECONNREFUSED);
	if (test_and_clear_bit(IRDMA_CMW_ABORTED, &c->pending))
		irdma_cm_do_failed(c, -ECONNRESET);
	if (test_and_clear_bit(IRDMA_CMW_FIN, &c->pending))
		irdma_cm_do_fin(c);
	if (test_and_clear_bit(IRDMA_CMW_DISCONNECT, &c->pending))
		irdma_cm_do_disconnect(c);
	if (test_and_clear_bit(IRDMA_CMW_CLOSE, &c->pending))
		irdma_cm_do_close(c);
	if (test_and_clear_bit(IRDMA_CMW_GONE, &c->pending))
		irdma_cm_do_gone(c);
	mutex_unlock(&c->mutex);
	irdma_cm_conn_put(c);
}

/* The connection a segment belongs to. Context: under the lock. */
static struct irdma_cm_conn *irdma_cm_find(struct irdma_cm *cm,
					   const struct irdma_cm_rx *rx, u16 vlan)
{
	struct irdma_cm_conn *c;

	list_for_each_entry(c, &cm->conns, entry)
		if (!c->gone && c->ipv4 == rx->ipv4 && c->loc_port == rx->local_port &&
		    c->rem_port == rx->remote_port && c->vlan == vlan &&
		    !memcmp(c->loc_ip, rx->local_ip, sizeof(c->loc_ip)) &&
		    !memcmp(c->rem_ip, rx->remote_ip, sizeof(c->rem_ip)))
			return c;
	return NULL;
}

/* The listener a SYN is for: newest first. Context: under the lock. */
static struct irdma_cm_listener *irdma_cm_find_listener(struct irdma_cm *cm,
							const struct irdma_cm_rx *rx,
							u16 vlan)
{
	struct irdma_cm_listener *l;

	list_for_each_entry(l, &cm->listeners, entry)
		if (l->cm_id && l->ipv4 == rx->ipv4 && l->port == rx->local_port &&
		    (l->wildcard || (l->vlan == vlan &&
				     !memcmp(l->ip, rx->local_ip, sizeof(l->ip)))))
			return l;
	return NULL;
}

/* A SYN for a listener: a new connection. Context: under the lock. */
static void irdma_cm_passive_open(struct irdma_cm *cm, const struct irdma_cm_rx *rx,
				  u16 vlan)
{
	struct irdma_cm_listener *l = irdma_cm_find_listener(cm, rx, vlan);
	struct irdma_cm_conn *c;

	if (!l || l->pending > l->backlog)
		return;
	c = irdma_cm_conn_alloc(cm, GFP_ATOMIC);
	if (!c)
		return;
	c->ipv4 = rx->ipv4;
	memcpy(c->loc_ip, rx->local_ip, sizeof(c->loc_ip));
	memcpy(c->rem_ip, rx->remote_ip, sizeof(c->rem_ip));
	c->loc_port = rx->local_port;
	c->rem_port = rx->remote_port;
	c->vlan = vlan;
	c->tos = rx->tos;
	irdma_cm_node_setup(c, NULL, 0, IRDMA_GEN2_MAX_IRD, IRDMA_GEN2_MAX_ORD);
	if (irdma_cm_node_syn(&c->node, rx)) {
		irdma_cm_conn_put(c);
		return;
	}
	refcount_inc(&l->refs);
	l->pending++;
	c->listener = l;
	list_add_tail(&c->entry, &cm->conns);
	irdma_cm_kick(c, IRDMA_CMW_SETUP);
}

/**
 * irdma_cm_ilq_receive - a segment the ILQ received
 * @q: the ILQ
 * @rx: the segment
 *
 * It goes to its connection's node; a SYN no connection has, to the
 * listener it is for. Anything else is dropped without an answer.
 *
 * Context: CEQ 0's thread, under the function's puda_lock.
 */
void irdma_cm_ilq_receive(struct irdma_puda *q, const struct irdma_puda_rx *rx)
{
	struct irdma_cm *cm = q->fn->cm;
	u16 vlan = rx->vlan_valid ? rx->vlan & VLAN_VID_MASK : IRDMA_CM_NO_VLAN;
	struct irdma_cm_conn *c;
	struct irdma_cm_rx seg;

	if (!cm || irdma_cm_tcp_parse(rx->data, rx->len, rx->ipv4, &seg))
		return;
	spin_lock(&cm->lock);
	c = irdma_cm_find(cm, &seg, vlan);
	if (c)
		irdma_cm_node_rx(&c->node, &seg, jiffies);
	else if ((seg.flags & (TCPHDR_SYN | TCPHDR_ACK | TCPHDR_RST | TCPHDR_FIN)) ==
		 TCPHDR_SYN && !cm->stopping)
		irdma_cm_passive_open(cm, &seg, vlan);
	spin_unlock(&cm->lock);
	irdma_cm_timer_arm(cm);
}

/**
 * irdma_cm_ieq_qp - the QP carrying the connection an IEQ segment is of
 * @cm: the connection manager
 * @rx: the segment, read
 * @vlan: its VLAN id (IRDMA_CM_NO_VLAN: none)
 *
 * Context: CEQ 0's thread, under the function's puda_lock.
 * Return: the QP, held (release with irdma_qp_put()), or NULL when no
 * connection has a live QP for it.
 */
struct irdma_qp *irdma_cm_ieq_qp(struct irdma_cm *cm, const struct irdma_cm_rx *rx,
				 u16 vlan)
{
	struct irdma_cm_conn *c;
	struct irdma_qp *qp = NULL;

	if (!cm)
		return NULL;
	spin_lock(&cm->lock);
	c = irdma_cm_find(cm, rx, vlan);
	if (c && c->qp && refcount_inc_not_zero(&c->qp->refs))
		qp = c->qp;
	spin_unlock(&cm->lock);
	return qp;
}

static struct irdma_cm *irdma_cm_of(struct iw_cm_id *cm_id)
{
	return to_iwdev(cm_id->device)->fn.cm;
}

/**
 * irdma_cm_connect - iw_connect: open a connection for a QP
 * @cm_id: the iw_cm_id, its mapped addresses set
 * @param: the QP, IRD, ORD and private data
 *
 * Context: process context; sleeps.
 * Return: 0 (the outcome comes as CONNECT_REPLY), -EINVAL for a QP,
 * address or neighbour that does not do, -ENOMEM or the CQP's error.
 */
int irdma_cm_connect(struct iw_cm_id *cm_id, struct iw_cm_conn_param *param)
{
	struct irdma_cm *cm = irdma_cm_of(cm_id);
	struct irdma_cm_conn *c;
	struct irdma_qp *qp;
	bool rem_ipv4;
	u16 ird, ord;
	int err;

	if (!cm)
		return -EINVAL;
	qp = irdma_qp_get_live(cm->fn, param->qpn);
	if (!qp)
		return -EINVAL;
	c = irdma_cm_conn_alloc(cm, GFP_KERNEL);
	err = c ? 0 : -ENOMEM;
	if (!err)
		err = irdma_cm_addr(&cm_id->m_local_addr, &c->ipv4, c->loc_ip, &c->loc_port);
	if (!err)
		err = irdma_cm_addr(&cm_id->m_remote_addr, &rem_ipv4, c->rem_ip,
				    &c->rem_port);
	if (!err && (rem_ipv4 != c->ipv4 || !c->loc_port || !c->rem_port ||
		     param->private_data_len > IRDMA_MPA_MAX_PDATA - IRDMA_MPA_V2_CTRL_LEN ||
		     READ_ONCE(cm->fn->mtu) < (c->ipv4 ? 576 : 1280)))
		err = -EINVAL;
	if (err)
		goto err_free;
	c->tos = cm_id->tos;
	c->vlan = irdma_cm_addr_vlan(cm, c->ipv4, c->loc_ip);
	err = irdma_cm_resolve(cm, c);
	if (!err)
		err = irdma_cm_make_ah(c);
	if (!err)
		err = irdma_cm_add_qhash(c);
	if (!err) {
		err = irdma_apbvt_get(cm->fn, c->loc_port) ? -EINVAL : 0;
		c->apbvt = !err;
	}
	if (err)
		goto err_release;
	memcpy(c->pdata, param->private_data, param->private_data_len);
	ird = min_t(u32, param->ird, IRDMA_GEN2_MAX_IRD);
	ord = clamp_t(u32, param->ord, 1, IRDMA_GEN2_MAX_ORD);
	irdma_cm_node_setup(c, c->pdata, param->private_data_len, ird, ord);

	spin_lock(&cm->lock);
	/* A QP carries one connection. */
	if (qp->cm_conn) {
		spin_unlock(&cm->lock);
		err = -EINVAL;
		goto err_release;
	}
	c->qp = qp;
	c->cm_id = cm_id;
	cm_id->add_ref(cm_id);
	cm_id->provider_data = qp;
	qp->cm_conn = c;
	list_add_tail(&c->entry, &cm->conns);
	irdma_cm_node_connect(&c->node, jiffies);
	spin_unlock(&cm->lock);
	irdma_cm_timer_arm(cm);
	return 0;

err_release:
	irdma_cm_release_setup(c);
	if (c->arp_idx)
		irdma_arp_put(cm->fn, c->arp_idx);
	if (c->apbvt)
		irdma_apbvt_put(cm->fn, c->loc_port);
err_free:
	if (c)
		irdma_cm_conn_put(c);
	irdma_qp_put(qp);
	return err;
}

/* The MPA reply the accepting QP sends, in a buffer it can name. */
static int irdma_cm_make_lsmm(struct irdma_cm_conn *c, struct irdma_qp *qp,
			      const void *pdata, u8 len)
{
	struct irdma_cm_node *n = &c->node;
	struct irdma_mpa_frame f = n->mpa;
	struct ib_mr *mr;
	int err;

	f.request = false;
	f.reject = false;
	f.rev = n->peer.rev;
	f.ird = n->ird;
	f.ord = n->ord;
	f.rtr = n->rtr ?: IRDMA_RTR_READ;
	f.pdata = pdata;
	f.pdata_len = len;
	err = irdma_dma_alloc(c->cm->fn, &c->lsmm, IRDMA_MPA_MAX_FRAME, GFP_KERNEL);
	if (err)
		return err;
	c->lsmm_len = irdma_mpa_build(c->lsmm.va, &f);
	/* The region: the private data and room for the headers, as stock's. */
	mr = irdma_reg_kernel_mr(qp->ibqp.pd, c->lsmm.pa, len + IRDMA_MPA_REPLY_ROOM);
	if (IS_ERR(mr)) {
		irdma_dma_release(c->cm->fn, &c->lsmm, true);
		return PTR_ERR(mr);
	}
	c->lsmm_mr = mr;
	return 0;
}

/**
 * irdma_cm_accept - iw_accept: a QP takes a requested connection
 * @cm_id: the connection's iw_cm_id (its provider_data the connection)
 * @param: the QP and the private data of the reply
 *
 * Context: process context; sleeps (up to 12 s for the engine's report).
 * Return: 0, -EINVAL for a QP or connection that does not do,
 * -ECONNRESET when the peer reset it or never became ready, -ENOMEM.
 */
int irdma_cm_accept(struct iw_cm_id *cm_id, struct iw_cm_conn_param *param)
{
	struct irdma_cm *cm = irdma_cm_of(cm_id);
	struct irdma_cm_conn *c = cm_id->provider_data;
	struct irdma_qp *qp;
	int err;

	if (!cm || !c)
		return -EINVAL;
	if (param->private_data_len > IRDMA_MPA_MAX_PDATA - IRDMA_MPA_V2_CTRL_LEN)
		return -EINVAL;
	qp = irdma_qp_get_live(cm->fn, param->qpn);
	if (!qp)
		return -EINVAL;
	spin_lock(&cm->lock);
	/* A QP carries one connection. */
	err = c->req_given && !qp->cm_conn ? irdma_cm_node_accept(&c->node) : -EINVAL;
	if (!err && !c->listener)
		err = -EINVAL;
	spin_unlock(&cm->lock);
	if (err)
		goto out;
	err = irdma_cm_make_lsmm(c, qp, param->private_data, param->private_data_len);
	if (err) {
		spin_lock(&cm->lock);
		irdma_cm_node_reset(&c->node);
		spin_unlock(&cm->lock);
		goto out;
	}
	c->qp = qp;
	c->cm_id = cm_id;
	cm_id->add_ref(cm_id);
	spin_lock(&cm->lock);
	qp->cm_conn = c;
	spin_unlock(&cm->lock);
	err = irdma_cm_offload(c, qp);
	irdma_cm_release_setup(c);
	/* Against the events the engine's reports queue meanwhile. */
	mutex_lock(&c->mutex);
	if (err) {
		irdma_qp_iwarp_fail(qp, true);
		/* iw_cm sends nothing after a failed accept: no event either. */
		c->closed = true;
		irdma_cm_drop_upper(c);
		mutex_unlock(&c->mutex);
		irdma_cm_finish(c);
		err = err == -EINVAL ? -EINVAL : -ECONNRESET;
		goto out_req;
	}
	spin_lock(&cm->lock);
	c->accepted = true;
	if (c->listener)
		c->listener->pending--;
	spin_unlock(&cm->lock);
	irdma_cm_established(c, IW_CM_EVENT_ESTABLISHED);
	mutex_unlock(&c->mutex);
	goto out_req;
out:
	irdma_qp_put(qp);
out_req:
	spin_lock(&cm->lock);
	if (c->req_given) {
		c->req_given = false;
		spin_unlock(&cm->lock);
		irdma_cm_conn_put(c);
	} else {
		spin_unlock(&cm->lock);
	}
	return err;
}

/**
 * irdma_cm_reject - iw_reject: refuse a requested connection
 * @cm_id: the connection's iw_cm_id
 * @pdata: private data for the peer
 * @len: its length
 *
 * The MPA reply with the reject flag goes with a FIN.
 *
 * Return: 0, or -EINVAL for a connection that is not waiting.
 */
int irdma_cm_reject(struct iw_cm_id *cm_id, const void *pdata, u8 len)
{
	struct irdma_cm *cm = irdma_cm_of(cm_id);
	struct irdma_cm_conn *c = cm_id->provider_data;
	int err;

	if (!cm || !c)
		return -EINVAL;
	spin_lock(&cm->lock);
	if (!c->req_given) {
		spin_unlock(&cm->lock);
		return -EINVAL;
	}
	c->req_given = false;
	err = c->gone ? 0 : irdma_cm_node_reject(&c->node, pdata, len, jiffies);
	if (err && !c->gone)
		irdma_cm_node_reset(&c->node);
	spin_unlock(&cm->lock);
	irdma_cm_timer_arm(cm);
	irdma_cm_conn_put(c);
	return err;
}

/* The listener listens on the address (a wildcard: on any). */
static bool irdma_cm_listens_on(const struct irdma_cm_listener *l, const u32 *ip)
{
	return l->wildcard || !memcmp(l->ip, ip, sizeof(l->ip));
}

/* A listener's quad hash entry, but for its address and VLAN. */
static void irdma_cm_syn_base(struct irdma_cm *cm, const struct irdma_cm_listener *l,
			      struct irdma_qhash_info *q)
{
	*q = (struct irdma_qhash_info) {
		.type = IRDMA_QHASH_TCP_SYN,
		.ipv4 = l->ipv4,
		.local_port = l->port,
		.qp_id = IRDMA_ILQ_ID,
		.qs_handle = irdma_ws_qs_handle(cm->fn, 0),
	};
	ether_addr_copy(q->mac, cm->fn->res.netdev->dev_addr);
}

/*
 * A listener's addresses the netdev and its VLANs have now, while up:
 * its own, if there, or every one of them for a wildcard.
 */
static u32 irdma_cm_listen_addrs(struct irdma_cm *cm, struct irdma_cm_listener *l,
				 struct irdma_qhash_info *q, u32 max)
{
	struct net_device *nd = cm->fn->res.netdev, *dev;
	struct irdma_qhash_info base;
	u32 n = 0;

	irdma_cm_syn_base(cm, l, &base);
	rcu_read_lock();
	for_each_netdev_rcu(dev_net(nd), dev) {
		u16 vlan = IRDMA_CM_NO_VLAN;

		if (dev != nd && !(is_vlan_dev(dev) && vlan_dev_real_dev(dev) == nd))
			continue;
		if (!(dev->flags & IFF_UP))
			continue;
		if (dev != nd)
			vlan = vlan_dev_vlan_id(dev);
		if (l->ipv4) {
			struct in_device *in_dev = __in_dev_get_rcu(dev);
			const struct in_ifaddr *ifa;

			if (!in_dev)
				continue;
			in_dev_for_each_ifa_rcu(ifa, in_dev) {
				if (n == max)
					break;
				q[n] = base;
				q[n].local_ip[3] = ntohl(ifa->ifa_local);
				if (!irdma_cm_listens_on(l, q[n].local_ip))
					continue;
				q[n].vlan_valid = vlan < VLAN_N_VID;
				q[n].vlan = q[n].vlan_valid ? vlan : 0;
				n++;
			}
		} else {
			struct inet6_dev *idev = __in6_dev_get(dev);
			struct inet6_ifaddr *ifp;
			int i;

			if (!idev)
				continue;
			read_lock_bh(&idev->lock);
			list_for_each_entry(ifp, &idev->addr_list, if_list) {
				if (n == max)
					break;
				q[n] = base;
				for (i = 0; i < 4; i++)
					q[n].local_ip[i] = ntohl(ifp->addr.s6_addr32[i]);
				if (!irdma_cm_listens_on(l, q[n].local_ip))
					continue;
				q[n].vlan_valid = vlan < VLAN_N_VID;
				q[n].vlan = q[n].vlan_valid ? vlan : 0;
				n++;
			}
			read_unlock_bh(&idev->lock);
		}
	}
	rcu_read_unlock();
	return n;
}

/*
 * The entries a listen makes: a wildcard's, one for each address the
 * netdev and its VLANs have; a specific address's, its own, whether the
 * netdev has it or not (as upstream's).
 */
static u32 irdma_cm_listen_first(struct irdma_cm *cm, struct irdma_cm_listener *l,
				 struct irdma_qhash_info *q, u32 max)
{
	if (l->wildcard)
		return irdma_cm_listen_addrs(cm, l, q, max);
	irdma_cm_syn_base(cm, l, q);
	memcpy(q->local_ip, l->ip, sizeof(l->ip));
	q->vlan_valid = l->vlan < VLAN_N_VID;
	q->vlan = q->vlan_valid ? l->vlan : 0;
	return 1;
}

static void irdma_cm_listener_unsteer(struct irdma_cm *cm, struct irdma_cm_listener *l)
{
	u32 i;

	for (i = 0; i < l->syn_count; i++)
		irdma_qhash_manage(cm->fn, &l->syn[i], IRDMA_CM_TABLE_DELETE);
	l->syn_count = 0;
}

/**
 * irdma_cm_listen - iw_create_listen: listen on an address and port
 * @cm_id: the iw_cm_id, its mapped local address set
 * @backlog: connections kept waiting for the consumer at most
 *
 * A wildcard address listens on every address of the function's netdev
 * and of the VLANs on it, a specific one on itself; the listener follows
 * the addresses as they come and go, and the netdevs as they go up and
 * down.
 *
 * Context: process context; sleeps.
 * Return: 0, -ENOMEM when a listener has the address and port already
 * (as upstream's) or memory is short, -EINVAL when the steering cannot
 * be set up.
 */
int irdma_cm_listen(struct iw_cm_id *cm_id, int backlog)
{
	struct irdma_cm *cm = irdma_cm_of(cm_id);
	struct irdma_cm_listener *l, *o;
	u32 i, n;
	int err;

	if (!cm)
		return -EINVAL;
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	refcount_set(&l->refs, 1);
	INIT_LIST_HEAD(&l->entry);
	err = irdma_cm_addr(&cm_id->m_local_addr, &l->ipv4, l->ip, &l->port);
	if (err || !l->port) {
		kfree(l);
		return -EINVAL;
	}
	l->wildcard = irdma_cm_ip_any(l->ip);
	l->vlan = l->wildcard ? IRDMA_CM_NO_VLAN : irdma_cm_addr_vlan(cm, l->ipv4, l->ip);
	l->backlog = backlog;
	mutex_lock(&cm->listen_mutex);
	list_for_each_entry(o, &cm->listeners, entry) {
		if (o->ipv4 == l->ipv4 && o->port == l->port &&
		    (o->wildcard || l->wildcard || !memcmp(o->ip, l->ip, sizeof(l->ip)))) {
			err = -ENOMEM;
			goto err_free;
		}
	}
	l->syn = kcalloc(IRDMA_CM_MAX_ADDRS, sizeof(*l->syn), GFP_KERNEL);
	if (!l->syn) {
		err = -ENOMEM;
		goto err_free;
	}
	n = irdma_cm_listen_first(cm, l, l->syn, IRDMA_CM_MAX_ADDRS);
	for (i = 0; i < n; i++) {
		if (irdma_qhash_manage(cm->fn, &l->syn[i], IRDMA_CM_TABLE_ADD))
			break;
		l->syn_count++;
	}
	err = i < n ? -EINVAL : irdma_apbvt_get(cm->fn, l->port);
	if (err) {
		irdma_cm_listener_unsteer(cm, l);
		err = -EINVAL;
		goto err_free;
	}
	l->cm_id = cm_id;
	cm_id->add_ref(cm_id);
	cm_id->provider_data = l;
	spin_lock(&cm->lock);
	list_add(&l->entry, &cm->listeners);
	spin_unlock(&cm->lock);
	mutex_unlock(&cm->listen_mutex);
	return 0;

err_free:
	mutex_unlock(&cm->listen_mutex);
	kfree(l->syn);
	kfree(l);
	return err;
}

/* The same address of a listener's, in the same VLAN. */
static bool irdma_cm_syn_same(const struct irdma_qhash_info *a,
			      const struct irdma_qhash_info *b)
{
	return a->ipv4 == b->ipv4 && a->vlan_valid == b->vlan_valid &&
	       a->vlan == b->vlan && !memcmp(a->local_ip, b->local_ip, sizeof(a->local_ip));
}

static bool irdma_cm_syn_has(const struct irdma_qhash_info *set, u32 n,
			     const struct irdma_qhash_info *q)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (irdma_cm_syn_same(&set[i], q))
			return true;
	return false;
}

/*
 * A listener's entries made to match the addresses it listens on that the
 * netdev and its VLANs have now: those gone are deleted, new ones added
 * (as upstream's address notifiers do).
 */
static void irdma_cm_listener_resync(struct irdma_cm *cm, struct irdma_cm_listener *l,
				     struct irdma_qhash_info *now)
{
	u32 i, n = irdma_cm_listen_addrs(cm, l, now, IRDMA_CM_MAX_ADDRS);

	for (i = 0; i < l->syn_count;) {
		if (irdma_cm_syn_has(now, n, &l->syn[i])) {
			i++;
			continue;
		}
		irdma_qhash_manage(cm->fn, &l->syn[i], IRDMA_CM_TABLE_DELETE);
		l->syn[i] = l->syn[--l->syn_count];
	}
	for (i = 0; i < n && l->syn_count < IRDMA_CM_MAX_ADDRS; i++) {
		if (irdma_cm_syn_has(l->syn, l->syn_count, &now[i]) ||
		    irdma_qhash_manage(cm->fn, &now[i], IRDMA_CM_TABLE_ADD))
			continue;
		l->syn[l->syn_count++] = now[i];
	}
}

static void irdma_cm_addr_work(struct work_struct *work)
{
	struct irdma_cm *cm = container_of(work, struct irdma_cm, addr_work);
	struct irdma_cm_listener *l;
	struct irdma_qhash_info *now;

	now = kcalloc(IRDMA_CM_MAX_ADDRS, sizeof(*now), GFP_KERNEL);
	if (!now)
		return;
	mutex_lock(&cm->listen_mutex);
	list_for_each_entry(l, &cm->listeners, entry)
		if (!READ_ONCE(cm->stopping))
			irdma_cm_listener_resync(cm, l, now);
	mutex_unlock(&cm->listen_mutex);
	kfree(now);
}

/**
 * irdma_cm_addrs_changed - an address of the function's netdev or of a
 *	VLAN on it came or went, or one of them went up or down
 * @iwdev: the device, held registered by the caller
 * @can_sleep: the listeners follow before the call returns (as
 *	upstream's IPv4 notifier has them: an address is listened on once
 *	it is added); else in the manager's work queue
 *
 * Context: any (the IPv6 address notifier's is atomic); with @can_sleep,
 * process context.
 */
void irdma_cm_addrs_changed(struct irdma_device *iwdev, bool can_sleep)
{
	struct irdma_cm *cm = READ_ONCE(iwdev->fn.cm);

	if (!cm || READ_ONCE(cm->stopping))
		return;
	if (can_sleep)
		irdma_cm_addr_work(&cm->addr_work);
	else
		queue_work(cm->wq, &cm->addr_work);
}

/* An address removed: the connections on it end. */
struct irdma_cm_addr_gone {
	struct work_struct work;
	struct irdma_cm *cm;
	bool ipv4;
	u32 ip[4];
	u16 vlan;
};

static bool irdma_cm_conn_on(const struct irdma_cm_conn *c,
			     const struct irdma_cm_addr_gone *g)
{
	return c->ipv4 == g->ipv4 && c->vlan == g->vlan &&
	       !memcmp(c->loc_ip, g->ip, sizeof(g->ip));
}

/*
 * The next connection on the removed address: one still opening is aborted
 * here (a reset to the peer; an active open fails); an offloaded one's
 * QP is returned, held, for the caller to fail.
 * Context: under the manager's lock.
 */
static struct irdma_qp *irdma_cm_next_on_addr(struct irdma_cm *cm,
					      const struct irdma_cm_addr_gone *g)
{
	struct irdma_cm_conn *c;

	list_for_each_entry(c, &cm->conns, entry) {
		if (c->gone || c->addr_gone || !irdma_cm_conn_on(c, g))
			continue;
		c->addr_gone = true;
		if (c->node.state < IRDMA_CM_OFFLOADED && !c->accepted)
			irdma_cm_node_abort(&c->node);
		else if (c->qp && refcount_inc_not_zero(&c->qp->refs))
			return c->qp;
	}
	return NULL;
}

/*
 * Each offloaded connection's QP goes to error as a consumer's would: the
 * connection is reset (the port being up) and its close reported, one at
 * a time, the lock let go for the QP's command.
 */
static void irdma_cm_addr_gone_work(struct work_struct *work)
{
	struct irdma_cm_addr_gone *g = container_of(work, struct irdma_cm_addr_gone, work);
	struct irdma_cm *cm = g->cm;
	struct irdma_qp *qp;

	for (;;) {
		spin_lock(&cm->lock);
		qp = irdma_cm_next_on_addr(cm, g);
		spin_unlock(&cm->lock);
		if (!qp)
			break;
		ibdev_dbg(&cm->iwdev->ibdev, "CM: QP %u: its local address was removed\n",
			  qp->id);
		irdma_qp_iwarp_fail(qp, true);
		irdma_cm_qp_closing(qp, true);
		irdma_qp_put(qp);
	}
	kfree(g);
}

/**
 * irdma_cm_addr_removed - an address of the function's netdev, or of a
 *	VLAN on it, was removed: the connections on it end
 * @iwdev: the device, held registered by the caller
 * @dev: the netdev that had the address
 * @ipv4: an IPv4 address
 * @addr: the address (a __be32 or a struct in6_addr)
 *
 * Connections still opening are aborted; offloaded ones have their QPs
 * moved to error, which resets them, as upstream's address notifiers do.
 * Upstream matches the connections of no VLAN whatever netdev had the
 * address; here the address's own VLAN is matched.
 *
 * Context: any (the IPv6 address notifier's is atomic): the work is the
 * manager's work queue's.
 */
void irdma_cm_addr_removed(struct irdma_device *iwdev, struct net_device *dev,
			   bool ipv4, const void *addr)
{
	struct irdma_cm *cm = READ_ONCE(iwdev->fn.cm);
	struct irdma_cm_addr_gone *g;
	int i;

	if (!cm || READ_ONCE(cm->stopping))
		return;
	g = kzalloc(sizeof(*g), GFP_ATOMIC);
	if (!g)
		return;
	INIT_WORK(&g->work, irdma_cm_addr_gone_work);
	g->cm = cm;
	g->ipv4 = ipv4;
	g->vlan = is_vlan_dev(dev) ? vlan_dev_vlan_id(dev) : IRDMA_CM_NO_VLAN;
	if (ipv4) {
		g->ip[3] = ntohl(*(const __be32 *)addr);
	} else {
		for (i = 0; i < 4; i++)
			g->ip[i] = ntohl(((const struct in6_addr *)addr)->s6_addr32[i]);
	}
	queue_work(cm->wq, &g->work);
}

/**
 * irdma_cm_unlisten - iw_destroy_listen: stop listening
 * @cm_id: the listening iw_cm_id
 *
 * Connections still opening, or waiting for the consumer, are reset;
 * accepted ones go on.
 *
 * Context: process context; sleeps.
 * Return: 0.
 */
int irdma_cm_unlisten(struct iw_cm_id *cm_id)
{
	struct irdma_cm *cm = irdma_cm_of(cm_id);
	struct irdma_cm_listener *l = cm_id->provider_data;
	struct irdma_cm_conn *c;

	if (!cm || !l)
		goto out;
	mutex_lock(&cm->listen_mutex);
	spin_lock(&cm->lock);
	l->cm_id = NULL;
	list_del_init(&l->entry);
	list_for_each_entry(c, &cm->conns, entry)
		if (c->listener == l && !c->accepted && !c->gone &&
		    c->node.state < IRDMA_CM_OFFLOADED)
			irdma_cm_node_reset(&c->node);
	spin_unlock(&cm->lock);
	irdma_cm_listener_unsteer(cm, l);
	mutex_unlock(&cm->listen_mutex);
	irdma_cm_listener_put(cm, l);
	cm_id->provider_data = NULL;
out:
	cm_id->rem_ref(cm_id);
	return 0;
}

/*
 * Work for the connection a QP carries, if it still carries one: found
 * and held under the lock, which the connection's release takes to let
 * go of the QP.
 */
static void irdma_cm_qp_kick(struct irdma_qp *qp, enum irdma_cm_work_bit first,
			     enum irdma_cm_work_bit then, int disc_status)
{
	struct irdma_cm *cm = qp->iwdev->fn.cm;
	struct irdma_cm_conn *c;

	if (!cm)
		return;
	spin_lock(&cm->lock);
	c = qp->cm_conn;
	if (c) {
		if (first == IRDMA_CMW_DISCONNECT || then == IRDMA_CMW_DISCONNECT)
			c->disc_status = disc_status;
		irdma_cm_kick(c, first);
		irdma_cm_kick(c, then);
	}
	spin_unlock(&cm->lock);
}

/**
 * irdma_cm_qp_closing - the consumer moves a connected QP out of RTS
 * @qp: the QP
 * @now: to an error state: the connection is closed now (else a graceful
 *	close, whose end the engine reports)
 */
void irdma_cm_qp_closing(struct irdma_qp *qp, bool now)
{
	if (now)
		irdma_cm_qp_kick(qp, IRDMA_CMW_CLOSE, IRDMA_CMW_CLOSE, 0);
}

/**
 * irdma_cm_qp_terminated - a QP's terminate sequence ended its connection:
 *	iw_cm hears DISCONNECT, then CLOSE
 * @qp: the QP, in error
 */
void irdma_cm_qp_terminated(struct irdma_qp *qp)
{
	irdma_cm_qp_kick(qp, IRDMA_CMW_DISCONNECT, IRDMA_CMW_CLOSE, 0);
}

/**
 * irdma_cm_qp_ae - an asynchronous event of an iWARP QP
 * @qp: the QP, held
 * @code: the event
 * @tcp_state: the connection's TCP state the event reports
 * @error: the event moves the QP to error
 *
 * Context: the AEQ's thread.
 */
void irdma_cm_qp_ae(struct irdma_qp *qp, u16 code, u8 tcp_state, bool error)
{
	WRITE_ONCE(qp->tcp_state, tcp_state);
	if (irdma_qp_term_ae(qp, code))
		return;
	switch (code) {
	case IRDMA_AE_LLP_CONNECTION_ESTABLISHED:
		WRITE_ONCE(qp->rts_ae, true);
		wake_up(&qp->cm_wait);
		break;
	case IRDMA_AE_LLP_FIN_RECEIVED:
	case IRDMA_AE_RDMAP_ROE_BAD_LLP_CLOSE:
		irdma_cm_qp_kick(qp, IRDMA_CMW_FIN, IRDMA_CMW_DISCONNECT, 0);
		break;
	case IRDMA_AE_LLP_CLOSE_COMPLETE:
		irdma_cm_qp_kick(qp, IRDMA_CMW_CLOSE, IRDMA_CMW_CLOSE, 0);
		break;
	case IRDMA_AE_LLP_CONNECTION_RESET:
		irdma_cm_qp_kick(qp, IRDMA_CMW_DISCONNECT, IRDMA_CMW_CLOSE,
				 -ECONNRESET);
		break;
	default:
		/* An error: the QP fails, and the connection with it. */
		if (error)
			irdma_cm_qp_kick(qp, IRDMA_CMW_CLOSE, IRDMA_CMW_CLOSE, 0);
	}
}

/**
 * irdma_cm_init - start an iWARP function's connection manager
 * @iwdev: the device, its ILQ made
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_cm_init(struct irdma_device *iwdev)
{
	struct irdma_fn *fn = &iwdev->fn;
	struct irdma_cm *cm;

	if (fn->res.protocol != IRDMA_PROTOCOL_IWARP)
		return 0;
	cm = kzalloc(sizeof(*cm), GFP_KERNEL);
	if (!cm)
		return -ENOMEM;
	cm->wq = alloc_ordered_workqueue("irdma-cm-%s", WQ_MEM_RECLAIM,
					 dev_name(fn->res.dev));
	if (!cm->wq) {
		kfree(cm);
		return -ENOMEM;
	}
	cm->iwdev = iwdev;
	cm->fn = fn;
	spin_lock_init(&cm->lock);
	INIT_LIST_HEAD(&cm->conns);
	INIT_LIST_HEAD(&cm->listeners);
	INIT_DELAYED_WORK(&cm->timer, irdma_cm_timer);
	INIT_WORK(&cm->addr_work, irdma_cm_addr_work);
	mutex_init(&cm->listen_mutex);
	mutex_lock(&fn->puda_lock);
	fn->cm = cm;
	mutex_unlock(&fn->puda_lock);
	return 0;
}

/**
 * irdma_cm_fini - stop the connection manager
 * @iwdev: the device, unregistered (no iw_cm_id is left on it)
 *
 * Connections still opening are reset and their resources released.
 */
void irdma_cm_fini(struct irdma_device *iwdev)
{
	struct irdma_fn *fn = &iwdev->fn;
	struct irdma_cm *cm = fn->cm;
	struct irdma_cm_conn *c;

	if (!cm)
		return;
	mutex_lock(&fn->puda_lock);
	fn->cm = NULL;
	mutex_unlock(&fn->puda_lock);
	spin_lock(&cm->lock);
	cm->stopping = true;
	list_for_each_entry(c, &cm->conns, entry) {
		if (c->gone)
			continue;
		if (c->node.state < IRDMA_CM_OFFLOADED) {
			irdma_cm_node_reset(&c->node);
		} else {
			c->gone = true;
			irdma_cm_kick(c, IRDMA_CMW_GONE);
		}
	}
	spin_unlock(&cm->lock);
	cancel_delayed_work_sync(&cm->timer);
	drain_workqueue(cm->wq);
	/* The last work may have armed the clock again. */
	cancel_delayed_work_sync(&cm->timer);
	destroy_workqueue(cm->wq);
	mutex_destroy(&cm->listen_mutex);
	kfree(cm);
}
