// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Sending: the engine walks an SQ as long as it finds valid WQEs and keeps
 * its position in the QP's shadow area; each WQE's data is gathered (or
 * read from the peer), counted as the packets the wire would carry, and
 * delivered over the fabric to the QPs of the same or another simulated
 * function, found by the destination MAC address. A peer function's
 * state is touched only with that function's engine lock, taken by
 * trylock: a busy peer means "try again at the next step". UDA QPs (the
 * ILQ and IEQ of an iWARP function) instead put real TCP/IP frames on the
 * Ethernet switch.
 */
#include <kunit/visibility.h>
#include <linux/bitfield.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <rdma/ib_pack.h>

#include "qp.h"
#include "trace.h"

static LIST_HEAD(isim_peers);
static DEFINE_SPINLOCK(isim_peers_lock);

/**
 * isim_peer_add - let the fabric reach a function
 * @sdev: the simulated function
 */
void isim_peer_add(struct isim_dev *sdev)
{
	spin_lock(&isim_peers_lock);
	list_add_tail(&sdev->peer, &isim_peers);
	spin_unlock(&isim_peers_lock);
}

/**
 * isim_peer_del - take a function off the fabric
 * @sdev: the simulated function
 *
 * A peer delivering to it right now finishes first.
 */
void isim_peer_del(struct isim_dev *sdev)
{
	spin_lock(&isim_peers_lock);
	list_del_init(&sdev->peer);
	spin_unlock(&isim_peers_lock);
	mutex_lock(&sdev->engine_lock);
	mutex_unlock(&sdev->engine_lock);
}

/*
 * Does a RoCE packet for @dst reach its engine? Only while its LAN driver
 * steers RoCE there (the VSI's RDMA filter); otherwise it goes to the LAN
 * queues, where nobody takes it.
 */
static bool isim_rx_filtered(struct isim_dev *dst)
{
	if (READ_ONCE(dst->lan.rdma_filter))
		return false;
	dst->stats.rx_filtered++;
	return true;
}

/**
 * isim_peer_get - the function owning a MAC address, locked, if its engine
 *	takes RDMA traffic
 * @self: the function asking (already locked)
 * @mac: the address
 *
 * Return: the function (@self for its own address), NULL if none takes
 * the traffic, ERR_PTR(-EAGAIN) if it is busy.
 */
struct isim_dev *isim_peer_get(struct isim_dev *self, const u8 *mac)
{
	struct isim_dev *p, *found = NULL;

	if (ether_addr_equal(self->netdev->dev_addr, mac))
		return isim_rx_filtered(self) ? NULL : self;
	spin_lock(&isim_peers_lock);
	list_for_each_entry(p, &isim_peers, peer) {
		if (p == self || !ether_addr_equal(p->netdev->dev_addr, mac))
			continue;
		found = mutex_trylock(&p->engine_lock) ? p : ERR_PTR(-EAGAIN);
		break;
	}
	spin_unlock(&isim_peers_lock);
	if (!IS_ERR_OR_NULL(found) && isim_rx_filtered(found)) {
		mutex_unlock(&found->engine_lock);
		found = NULL;
	}
	return found;
}

/**
 * isim_peer_put - let go of a function isim_peer_get() found
 * @self: the function that asked
 * @peer: the one found
 */
void isim_peer_put(struct isim_dev *self, struct isim_dev *peer)
{
	if (peer != self)
		mutex_unlock(&peer->engine_lock);
}

#define ISIM_WIRE_MTU		4096
#define ISIM_ROCE_OVERHEAD	(8 + 12 + 4)	/* UDP, BTH, ICRC */
/* A PUDA send that failed: the major code its completion carries (ours). */
#define ISIM_PUDA_TX_MAJERR	0x8001

/* Count @len bytes of payload as the packets the wire MTU makes them. */
static void isim_count_pkts(struct isim_dev *sdev, bool ipv4, u32 len, bool tx)
{
	u32 pkts = max_t(u32, DIV_ROUND_UP(len, ISIM_WIRE_MTU), 1);
	u64 octs = len + (u64)pkts * ((ipv4 ? 20 : 40) + ISIM_ROCE_OVERHEAD);
	u64 *c = sdev->counters;

	if (tx) {
		c[ipv4 ? IRDMA_STAT_IP4TXPKTS : IRDMA_STAT_IP6TXPKTS] += pkts;
		c[ipv4 ? IRDMA_STAT_IP4TXOCTS : IRDMA_STAT_IP6TXOCTS] += octs;
		c[IRDMA_STAT_UDPTXPKTS] += pkts;
	} else {
		c[ipv4 ? IRDMA_STAT_IP4RXPKTS : IRDMA_STAT_IP6RXPKTS] += pkts;
		c[ipv4 ? IRDMA_STAT_IP4RXOCTS : IRDMA_STAT_IP6RXOCTS] += octs;
		c[IRDMA_STAT_UDPRXPKTS] += pkts;
	}
}

/**
 * isim_count_msg - count a message in the function's statistics
 * @sdev: the simulated function
 * @ipv4: it travels over IPv4 (else IPv6)
 * @len: its payload
 * @tx: sent (else received), as the work request goes
 * @rdma: the RDMA counter it adds to (an enum irdma_hw_stat of the
 *	transmit side), or -1
 *
 * A message is as many packets as the wire MTU makes it. An RDMA read is
 * a one-packet request one way and its data the other.
 */
void isim_count_msg(struct isim_dev *sdev, bool ipv4, u32 len, bool tx, int rdma)
{
	if (rdma == IRDMA_STAT_RDMATXRDS) {
		isim_count_pkts(sdev, ipv4, 0, tx);
		isim_count_pkts(sdev, ipv4, len, !tx);
	} else {
		isim_count_pkts(sdev, ipv4, len, tx);
	}
	if (rdma < 0)
		return;
	/* The receive counters mirror the transmit ones. */
	if (!tx)
		rdma += IRDMA_STAT_RDMARXRDS - IRDMA_STAT_RDMATXRDS;
	sdev->counters[rdma]++;
}

static int isim_rdma_stat(u8 op)
{
	switch (op) {
	case IRDMA_WQEOP_RDMA_WRITE:
	case IRDMA_WQEOP_RDMA_WRITE_SOL:
		return IRDMA_STAT_RDMATXWRS;
	case IRDMA_WQEOP_RDMA_READ:
	case IRDMA_WQEOP_RDMA_READ_INV_STAG:
		return IRDMA_STAT_RDMATXRDS;
	default:
		return IRDMA_STAT_RDMATXSNDS;
	}
}

/* Gather the data of a send or write from the local fragments. */
static int isim_gather(struct isim_dev *sdev, struct isim_qp *qp,
		       const __le64 *wqe, u32 first, u32 frags, u8 **data,
		      u32 *len)
{
	u32 k, flen, stag, off = 0;
	u64 addr, total = 0;
	u8 *buf;
	int err;

	/* Up to 13 fragments of up to 2^31 - 1 bytes: no u64 wraps. */
	for (k = first; k < frags; k++) {
		isim_frag(wqe, k, &addr, &flen, &stag);
		total += flen;
	}
	if (total > ISIM_MAX_MSG)
		return IRDMA_AE_UDA_XMIT_DGRAM_TOO_LONG;
	buf = kvmalloc(max_t(u64, total, 1), GFP_KERNEL);
	if (!buf)
		return IRDMA_AE_LCE_QP_CATASTROPHIC;
	for (k = first; k < frags; k++) {
		struct isim_access acc;

		isim_frag(wqe, k, &addr, &flen, &stag);
		acc = (struct isim_access) {
			.stag = stag, .pd = qp->pd, .priv = qp->priv,
			.rights = IRDMA_MR_RIGHT_LOCAL_READ,
		};
		err = isim_mem_copy(sdev, &acc, addr, buf + off, flen, false);
		if (err) {
			kvfree(buf);
			return err > 0 ? err : IRDMA_AE_AMP_BOUNDS_VIOLATION;
		}
		off += flen;
	}
	*data = buf;
	*len = total;
	return 0;
}

/* Inline data: 8 bytes in quantum 0, then 31 per quantum. */
static u8 *isim_inline(const __le64 *wqe, u32 len)
{
	const u8 *q0 = (const u8 *)&wqe[1], *rest = (const u8 *)wqe + 32;
	u8 *buf = kmalloc(max(len, 1U), GFP_KERNEL);
	u32 i;

	if (!buf)
		return NULL;
	for (i = 0; i < len; i++) {
		u32 past = i - 8;

		buf[i] = i < 8 ? q0[i] : rest[past / 31 * 32 + past % 31];
	}
	return buf;
}

/* The peer an RC QP talks to, by its ARP entry's MAC address. */
static struct isim_dev *isim_rc_peer(struct isim_dev *sdev, struct isim_qp *qp,
				     struct isim_qp **peer_qp)
{
	struct isim_dev *dst;
	u8 mac[ETH_ALEN];

	if (qp->arp_idx >= ISIM_MAX_ARPS || !test_bit(qp->arp_idx, sdev->hmc.arp_valid))
		return NULL;
	u64_to_ether_addr(sdev->hmc.arp[qp->arp_idx], mac);
	dst = isim_peer_get(sdev, mac);
	if (IS_ERR_OR_NULL(dst))
		return dst;
	*peer_qp = xa_load(&dst->qps, qp->dest_qp);
	if (!*peer_qp || (*peer_qp)->type != IRDMA_QP_TYPE_ROCE_RC ||
	    ((*peer_qp)->state != IRDMA_QPS_RTR && (*peer_qp)->state != IRDMA_QPS_RTS)) {
		isim_peer_put(sdev, dst);
		return NULL;
	}
	return dst;
}

static u8 isim_recv_op(u8 op, bool imm)
{
	switch (op) {
	case IRDMA_WQEOP_SEND_INV:
	case IRDMA_WQEOP_SEND_SOL_INV:
		return IB_OPCODE_SEND_ONLY_WITH_INVALIDATE;
	case IRDMA_WQEOP_RDMA_WRITE:
	case IRDMA_WQEOP_RDMA_WRITE_SOL:
		return IB_OPCODE_RDMA_WRITE_ONLY_WITH_IMMEDIATE;
	default:
		return imm ? IB_OPCODE_SEND_ONLY_WITH_IMMEDIATE : IB_OPCODE_SEND_ONLY;
	}
}

static bool isim_ip_is_mcast(const struct isim_ah *ah)
{
	return ah->ipv4 ? (ah->dest_ip[3] >> 28) == 0xe : (ah->dest_ip[0] >> 24) == 0xff;
}

/* Multicast: every member QP of every function's group for the address. */
static void isim_exec_mcast(struct isim_dev *sdev, u32 qkey, struct isim_msg *msg)
{
	const struct isim_ah *ah = msg->ah;
	u32 key[4] = { ah->ipv4 ? ah->dest_ip[3] : ah->dest_ip[0],
		       ah->ipv4 ? 0 : ah->dest_ip[1], ah->ipv4 ? 0 : ah->dest_ip[2],
		       ah->ipv4 ? 0 : ah->dest_ip[3] };
	struct isim_dev *dst, *devs[ISIM_MAX_DEVICES];
	struct isim_mg *mg;
	unsigned long id;
	int n = 0, i;
	u32 q;

	devs[n++] = sdev;
	spin_lock(&isim_peers_lock);
	list_for_each_entry(dst, &isim_peers, peer)
		if (dst != sdev && n < ISIM_MAX_DEVICES && mutex_trylock(&dst->engine_lock))
			devs[n++] = dst;
	spin_unlock(&isim_peers_lock);

	for (i = 0; i < n; i++) {
		dst = devs[i];
		if (isim_rx_filtered(dst)) {
			isim_peer_put(sdev, dst);
			continue;
		}
		xa_for_each(&dst->mgs, id, mg) {
			if (memcmp(mg->ip, key, sizeof(key)))
				continue;
			for (q = 0; q < mg->count; q++)
				if (isim_ud_deliver(dst, mg->qp[q], qkey, msg))
					dst->counters[ah->ipv4 ? IRDMA_STAT_IP4RXMCPKTS :
						      IRDMA_STAT_IP6RXMCPKTS]++;
		}
		isim_peer_put(sdev, dst);
	}
	sdev->counters[ah->ipv4 ? IRDMA_STAT_IP4TXMCPKTS : IRDMA_STAT_IP6TXMCPKTS]++;
}

/* UD: the AH names the destination function, the WQE the QP. */
static void isim_exec_ud(struct isim_dev *sdev, struct isim_qp *qp,
			 const __le64 *wqe, struct isim_msg *msg,
			struct isim_result *r)
{
	u64 q2 = le64_to_cpu(wqe[2]);
	u32 qkey = FIELD_GET(IRDMA_WQE_DESTQKEY, q2);
	struct isim_dev *dst;
	u8 mac[ETH_ALEN];

	/* A Q_Key with its top bit set means the sending QP's own. */
	if (qkey & ISIM_QKEY_USE_QP)
		qkey = qp->qkey;
	msg->ah = isim_ah_get(sdev, FIELD_GET(IRDMA_WQE_AHID, le64_to_cpu(wqe[3])));
	if (msg->ah && msg->ah->pd == qp->pd && isim_ip_is_mcast(msg->ah)) {
		r->ipv4 = msg->ah->ipv4;
		return isim_exec_mcast(sdev, qkey, msg);
	}
	if (!msg->ah || msg->ah->arp_idx >= ISIM_MAX_ARPS ||
	    !test_bit(msg->ah->arp_idx, sdev->hmc.arp_valid)) {
		r->req_ae = IRDMA_AE_INVALID_AH_ENTRY;
		return;
	}
	if (msg->ah->pd != qp->pd) {
		r->req_ae = IRDMA_AE_UDA_XMIT_BAD_PD;
		return;
	}
	u64_to_ether_addr(sdev->hmc.arp[msg->ah->arp_idx], mac);
	dst = isim_peer_get(sdev, mac);
	if (IS_ERR(dst)) {
		r->busy = true;
		return;
	}
	if (!dst) {
		sdev->stats.ud_dropped++;
		return;		/* nobody there: the datagram is lost */
	}
	if (isim_ud_deliver(dst, FIELD_GET(IRDMA_WQE_DESTQPN, q2), qkey, msg))
		isim_count_msg(dst, msg->ah->ipv4, msg->len, false, IRDMA_STAT_RDMATXSNDS);
	r->ipv4 = msg->ah->ipv4;
	isim_peer_put(sdev, dst);
}

/*
 * UDA: the WQE holds a TCP segment (its header L4LEN words long); the
 * engine puts the Ethernet header (the destination MAC from the AH's ARP
 * entry, the source MAC the AH names, its VLAN tag) and the IP header in
 * front, fills in the TCP checksum and sends the frame out of the port,
 * or back into it if the AH says so (the IEQ's).
 */
static void isim_exec_uda(struct isim_dev *sdev, struct isim_qp *qp, u64 hdr,
			  const struct isim_msg *msg, struct isim_result *r)
{
	const struct isim_ah *ah = isim_ah_get(sdev, FIELD_GET(IRDMA_WQE_AHID, hdr));
	u32 l4_hdr = FIELD_GET(IRDMA_WQE_UDA_L4LEN, hdr) * 4;
	struct isim_wire_addr a;
	int err;

	r->len_valid = false;
	if (!ah || ah->arp_idx >= ISIM_MAX_ARPS ||
	    !test_bit(ah->arp_idx, sdev->hmc.arp_valid)) {
		r->req_ae = IRDMA_AE_INVALID_AH_ENTRY;
		return;
	}
	if (ah->pd != qp->pd) {
		r->req_ae = IRDMA_AE_UDA_XMIT_BAD_PD;
		return;
	}
	if (l4_hdr < sizeof(struct tcphdr) || l4_hdr > msg->len) {
		r->req_ae = IRDMA_AE_UDA_L4LEN_INVALID;
		return;
	}
	a = (struct isim_wire_addr) {
		.ipv4 = ah->ipv4,
		.tos = ah->tc,
		.ttl = ah->hop_limit,
		.flow_label = ah->flow_label,
		.insert_vlan = ah->insert_vlan,
		.vlan_tag = ah->vlan_tag,
		.loopback = ah->loopback,
	};
	memcpy(a.src_ip, ah->src_ip, sizeof(a.src_ip));
	memcpy(a.dest_ip, ah->dest_ip, sizeof(a.dest_ip));
	ether_addr_copy(a.smac, ah->mac);
	u64_to_ether_addr(sdev->hmc.arp[ah->arp_idx], a.dmac);
	err = isim_wire_tcp_send(sdev, &a, msg->data, msg->len);
	if (err == -EMSGSIZE)
		r->req_ae = IRDMA_AE_UDA_XMIT_DGRAM_TOO_LONG;
	else if (err)
		r->busy = true;
	else
		sdev->stats.uda_tx++;
}

/* iWARP's stream mode: the data goes as bytes of the TCP stream. */
static void isim_exec_stream(struct isim_dev *sdev, struct isim_qp *qp, u64 hdr,
			     const struct isim_msg *msg, struct isim_result *r)
{
	int err;

	r->len_valid = false;
	if (!qp->tcp.offloaded) {
		r->req_ae = IRDMA_AE_WQE_UNEXPECTED_OPCODE;
		return;
	}
	err = isim_iwarp_lsmm(sdev, qp, hdr, msg->data, msg->len);
	if (err == -EAGAIN)
		r->busy = true;
	else
		r->req_ae = err;
}

/* An RDMA read: fetch from the peer, scatter locally. */
static void isim_exec_read(struct isim_dev *sdev, struct isim_qp *qp,
			   const __le64 *wqe, struct isim_dev *dst,
			  struct isim_qp *dqp, struct isim_result *r)
{
	u32 frags = FIELD_GET(IRDMA_WQE_ADDFRAGCNT, le64_to_cpu(wqe[3])) + 1;
	struct isim_access racc = {
		.stag = FIELD_GET(IRDMA_WQE_REMSTAG, le64_to_cpu(wqe[3])),
		.pd = dqp->pd,
		.rights = IRDMA_MR_RIGHT_REMOTE_READ,
	};
	u64 addr, raddr = le64_to_cpu(wqe[2]), total = 0;
	u32 k, flen, stag;
	u8 *buf;
	int err;

	/* isim_exec() bounded the fragments: no u64 wraps. */
	for (k = 0; k < frags; k++) {
		isim_frag(wqe, k, &addr, &flen, &stag);
		total += flen;
	}
	if (total > ISIM_MAX_MSG) {
		r->req_ae = IRDMA_AE_UDA_XMIT_DGRAM_TOO_LONG;
		return;
	}
	/* iWARP's zero-length read (an RTR) names no buffer to check. */
	if (!total && qp->type == IRDMA_QP_TYPE_IWARP) {
		r->len = 0;
		return;
	}
	buf = kvmalloc(max_t(u64, total, 1), GFP_KERNEL);
	if (!buf) {
		r->busy = true;
		return;
	}
	err = isim_mem_copy(dst, &racc, raddr, buf, total, false);
	if (err) {
		/*
		 * iWARP has no error response: the peer terminates the
		 * connection, and the read waits for its data till then.
		 */
		if (qp->type == IRDMA_QP_TYPE_IWARP)
			r->stall = true;
		else
			r->req_ae = IRDMA_AE_IB_REMOTE_ACCESS_ERROR;
		r->resp_ae = err > 0 ? err : IRDMA_AE_AMP_BOUNDS_VIOLATION;
		goto out;
	}
	total = 0;
	for (k = 0; k < frags; k++) {
		struct isim_access acc;

		isim_frag(wqe, k, &addr, &flen, &stag);
		acc = (struct isim_access) {
			.stag = stag, .pd = qp->pd, .priv = qp->priv,
			.rights = IRDMA_MR_RIGHT_LOCAL_WRITE,
		};
		err = isim_mem_copy(sdev, &acc, addr, buf + total, flen, true);
		if (err) {
			r->req_ae = err > 0 ? err : IRDMA_AE_AMP_BOUNDS_VIOLATION;
			break;
		}
		total += flen;
	}
	r->len = total;
out:
	kvfree(buf);
}

/* A send or RDMA write (with its data gathered) on an RC QP. */
static void isim_exec_rc(struct isim_dev *sdev, struct isim_qp *qp, u8 op,
			 const __le64 *wqe, struct isim_msg *msg,
			struct isim_result *r)
{
	bool iwarp = qp->type == IRDMA_QP_TYPE_IWARP;
	struct isim_qp *dqp = NULL;
	struct isim_dev *dst;
	bool write = op == IRDMA_WQEOP_RDMA_WRITE || op == IRDMA_WQEOP_RDMA_WRITE_SOL;
	bool read = op == IRDMA_WQEOP_RDMA_READ || op == IRDMA_WQEOP_RDMA_READ_INV_STAG;
	__le64 rq[IRDMA_MAX_QUANTA_PER_WR * 4] = {};
	u32 idx;
	int err;

	if (iwarp && read && !qp->tcp.ord) {
		r->req_ae = IRDMA_AE_RDMA_READ_WHILE_ORD_ZERO;
		return;
	}
	if (iwarp) {
		dst = isim_iwarp_peer(sdev, qp, &dqp, r, false);
		if (!dst)
			return;
	} else {
		dst = isim_rc_peer(sdev, qp, &dqp);
		if (IS_ERR(dst)) {
			r->busy = true;
			return;
		}
		if (!dst) {
			r->req_ae = IRDMA_AE_LLP_TOO_MANY_RETRIES;
			return;
		}
	}
	/* A message cut into pieces for the peer's IEQ waits for them. */
	if (iwarp && !read && isim_ieq_hold(sdev, dst, qp, dqp, op, wqe, msg, r)) {
		isim_peer_put(sdev, dst);
		return;
	}
	if (read) {
		isim_exec_read(sdev, qp, wqe, dst, dqp, r);
		/*
		 * A read with local invalidate: the sink's key (the first
		 * fragment's) is invalid once the data is in.
		 */
		if (!r->req_ae && op == IRDMA_WQEOP_RDMA_READ_INV_STAG)
			r->req_ae = isim_mr_invalidate(sdev,
						       FIELD_GET(IRDMA_WQE_FRAG_STAG,
								 le64_to_cpu(wqe[1])),
						       qp->pd, false);
		goto out;
	}
	/* Immediate data needs a receive; check before touching memory. */
	if (write && msg->imm_valid && isim_recv_peek(dst, dqp, rq, &idx)) {
		r->retry = true;
		goto out;
	}
	/* iWARP's zero-length write (an RTR) names no buffer to check. */
	if (write && !(iwarp && !msg->len)) {
		struct isim_access racc = {
			.stag = FIELD_GET(IRDMA_WQE_REMSTAG, le64_to_cpu(wqe[3])),
			.pd = dqp->pd,
			.rights = IRDMA_MR_RIGHT_REMOTE_WRITE,
		};

		err = isim_mem_copy(dst, &racc, le64_to_cpu(wqe[2]), (void *)msg->data,
				    msg->len, true);
		if (err) {
			/* iWARP's writer learns of it from the peer's TERMINATE. */
			if (!iwarp)
				r->req_ae = IRDMA_AE_IB_REMOTE_ACCESS_ERROR;
			r->resp_ae = err > 0 ? err : IRDMA_AE_AMP_BOUNDS_VIOLATION;
			goto out;
		}
		if (!msg->imm_valid)
			goto out;
	}
	isim_deliver(dst, dqp, msg, r);
	/* iWARP has no RNR: a send finding no receive is the receiver's error. */
	if (iwarp && r->retry) {
		r->retry = false;
		r->resp_ae = IRDMA_AE_DDP_UBE_INVALID_MSN_NO_BUFFER_AVAILABLE;
	}
out:
	if (!r->req_ae && !r->retry)
		isim_count_msg(dst, qp->ipv4, r->len, false, r->rdma_stat);
	if (iwarp && !r->req_ae)
		isim_iwarp_carried(dst, qp, dqp, op, r->len, !r->stall);
	if (r->resp_ae) {
		/*
		 * An iWARP QP that finds an error stops and waits for its
		 * driver to terminate the connection (MODIFY_QP to TERMINATE).
		 */
		dqp->state = iwarp ? IRDMA_QPS_TERMINATE : IRDMA_QPS_ERROR;
		isim_aeq_post_tcp(dst, r->resp_ae, dqp, IRDMA_AE_SOURCE_RQ,
				  dqp->rq_head << dqp->rq_shift);
	}
	isim_peer_put(sdev, dst);
}

/* Quanta of the WQE whose header is @hdr. */
static u32 isim_wqe_quanta(u64 hdr)
{
	u8 op = FIELD_GET(IRDMA_WQE_OPCODE, hdr);
	u32 len;

	if (op == IRDMA_WQEOP_NOP || op == IRDMA_WQEOP_INV_STAG ||
	    op == IRDMA_WQEOP_FAST_REG_NSMR || op == IRDMA_WQEOP_BIND_MW)
		return 1;
	if (hdr & IRDMA_WQE_INLINEDATAFLAG) {
		len = FIELD_GET(IRDMA_WQE_INLINEDATALEN, hdr);
		return len <= 8 ? 1 : min(2 + (len - 9) / 31, 8U);
	}
	return min_t(u32, FIELD_GET(IRDMA_WQE_ADDFRAGCNT, hdr) / 2 + 1, 8);
}

/* Execute the WQE; the outcome in @r. Its frame stays apart from its caller's. */
static noinline_for_stack void isim_exec(struct isim_dev *sdev, struct isim_qp *qp,
					 const __le64 *wqe, struct isim_result *r)
{
	u64 hdr = le64_to_cpu(wqe[3]);
	u8 op = FIELD_GET(IRDMA_WQE_OPCODE, hdr);
	bool imm = hdr & IRDMA_WQE_IMMDATAFLAG;
	bool stream = qp->type == IRDMA_QP_TYPE_IWARP && (hdr & IRDMA_WQE_STREAMMODE);
	struct isim_msg msg = {
		.imm_valid = imm,
		.imm = imm ? lower_32_bits(le64_to_cpu(wqe[0])) : 0,
		.solicited = op == IRDMA_WQEOP_SEND_SOL ||
			     op == IRDMA_WQEOP_SEND_SOL_INV ||
			     op == IRDMA_WQEOP_RDMA_WRITE_SOL,
		.src = qp,
		.src_dev = sdev,
	};
	u8 *data = NULL;
	u32 frags;
	int err;

	switch (op) {
	case IRDMA_WQEOP_NOP:
		return;
	case IRDMA_WQEOP_INV_STAG:
		err = isim_mr_invalidate(sdev, FIELD_GET(IRDMA_WQE_FRAG_STAG,
							 le64_to_cpu(wqe[1])), qp->pd, false);
		r->req_ae = err;
		return;
	case IRDMA_WQEOP_FAST_REG_NSMR:
		r->req_ae = qp->priv ? isim_mr_fast_reg(sdev, qp->pd, wqe) :
				       IRDMA_AE_PRIV_OPERATION_DENIED;
		return;
	case IRDMA_WQEOP_GEN_RTS_AE:
		/* The last connection WQE: the QP says it is established. */
		if (qp->type != IRDMA_QP_TYPE_IWARP || !qp->tcp.offloaded)
			r->req_ae = IRDMA_AE_WQE_UNEXPECTED_OPCODE;
		else
			isim_aeq_post_tcp(sdev, IRDMA_AE_LLP_CONNECTION_ESTABLISHED, qp,
					  IRDMA_AE_SOURCE_RSVD, 0);
		return;
	case IRDMA_WQEOP_BIND_MW:
		if (qp->type == IRDMA_QP_TYPE_ROCE_UD || qp->type == IRDMA_QP_TYPE_UDA)
			r->req_ae = IRDMA_AE_WQE_UNEXPECTED_OPCODE;
		else
			r->req_ae = qp->bind_en ? isim_mw_bind(sdev, qp->pd, wqe) :
						  IRDMA_AE_PRIV_OPERATION_DENIED;
		return;
	case IRDMA_WQEOP_SEND:
	case IRDMA_WQEOP_SEND_SOL:
	case IRDMA_WQEOP_SEND_INV:
	case IRDMA_WQEOP_SEND_SOL_INV:
	case IRDMA_WQEOP_RDMA_WRITE:
	case IRDMA_WQEOP_RDMA_WRITE_SOL:
	case IRDMA_WQEOP_RDMA_READ:
	case IRDMA_WQEOP_RDMA_READ_INV_STAG:
		break;
	default:
		r->req_ae = IRDMA_AE_WQE_UNEXPECTED_OPCODE;
		return;
	}
	if ((qp->type == IRDMA_QP_TYPE_ROCE_UD &&
	     op != IRDMA_WQEOP_SEND && op != IRDMA_WQEOP_SEND_SOL) ||
	    (qp->type == IRDMA_QP_TYPE_UDA && op != IRDMA_WQEOP_SEND) ||
	    (stream && op != IRDMA_WQEOP_SEND)) {
		r->req_ae = IRDMA_AE_WQE_UNEXPECTED_OPCODE;
		return;
	}

	/* What no driver writes: more fragments or inline data than fit. */
	err = isim_wqe_frags(hdr, &frags);
	if (!err && (hdr & IRDMA_WQE_INLINEDATAFLAG) &&
	    FIELD_GET(IRDMA_WQE_INLINEDATALEN, hdr) > IRDMA_GEN2_MAX_INLINE)
		err = IRDMA_AE_WQE_INVALID_PARAMETER;
	if (err) {
		r->req_ae = err;
		return;
	}

	msg.op = isim_recv_op(op, imm);
	if (op == IRDMA_WQEOP_SEND_INV || op == IRDMA_WQEOP_SEND_SOL_INV)
		msg.inv_stag = FIELD_GET(IRDMA_WQE_REMSTAG, hdr);
	if (op != IRDMA_WQEOP_RDMA_READ && op != IRDMA_WQEOP_RDMA_READ_INV_STAG) {
		if (hdr & IRDMA_WQE_INLINEDATAFLAG) {
			msg.len = FIELD_GET(IRDMA_WQE_INLINEDATALEN, hdr);
			data = isim_inline(wqe, msg.len);
			if (!data) {
				r->busy = true;
				return;
			}
		} else {
			err = isim_gather(sdev, qp, wqe, imm ? 1 : 0, frags,
					  &data, &msg.len);
			if (err) {
				r->req_ae = err;
				return;
			}
		}
		msg.data = data;
	}
	r->len_valid = true;
	r->len = msg.len;
	r->ipv4 = qp->ipv4;
	r->rdma_stat = isim_rdma_stat(op);
	if (qp->type == IRDMA_QP_TYPE_ROCE_UD)
		isim_exec_ud(sdev, qp, wqe, &msg, r);
	else if (qp->type == IRDMA_QP_TYPE_UDA)
		isim_exec_uda(sdev, qp, hdr, &msg, r);
	else if (stream)
		isim_exec_stream(sdev, qp, hdr, &msg, r);
	else
		isim_exec_rc(sdev, qp, op, wqe, &msg, r);
	kvfree(data);
}

/* The RNR rules: retry later, or give up when the retries are spent. */
static bool isim_rnr(struct isim_dev *sdev, struct isim_qp *qp)
{
	if (!qp->rnr_until) {
		qp->rnr_left = qp->rnr_retry;
	} else if (qp->rnr_retry != ISIM_RNR_FOREVER) {
		if (!qp->rnr_left)
			return false;
		qp->rnr_left--;
	}
	qp->rnr_until = jiffies + ISIM_RNR_DELAY;
	sdev->stats.rnr_waits++;
	return true;
}

/*
 * A WQE whose data is short enough to be moved in the time of the process
 * that posted it (isim_engine_run_sq()); the rest goes to the threads.
 */
static bool isim_wqe_short(const __le64 *wqe, u64 hdr)
{
	u8 op = FIELD_GET(IRDMA_WQE_OPCODE, hdr);
	u32 k, frags, len, stag;
	u64 addr, total = 0;

	/* Key work carries no data. */
	if (op == IRDMA_WQEOP_NOP || op == IRDMA_WQEOP_INV_STAG ||
	    op == IRDMA_WQEOP_FAST_REG_NSMR || op == IRDMA_WQEOP_BIND_MW)
		return true;
	if (hdr & IRDMA_WQE_INLINEDATAFLAG)
		return true;
	if (isim_wqe_frags(hdr, &frags))
		return true;
	for (k = 0; k < frags; k++) {
		isim_frag(wqe, k, &addr, &len, &stag);
		total += len;
	}
	return total <= ISIM_SHORT_MSG;
}

/* Run one WQE of an SQ as @run says. Return: true if the SQ moved on. */
static bool isim_sq_step(struct isim_dev *sdev, struct isim_qp *qp,
			 struct isim_sq_pass *run)
{
	__le64 wqe[IRDMA_MAX_QUANTA_PER_WR * 4] = {};
	u64 hdr = isim_sq_wqe_hdr(sdev, qp, qp->sq_tail), cqe[4] = {}, base;
	struct isim_result r = {};
	bool short_wqe;
	u32 quanta, i;

	if (!isim_valid(hdr, qp->sq_polarity) || qp->tcp.wait_pdu || qp->tcp.read_lost)
		return false;
	if (qp->rnr_until && time_before(jiffies, qp->rnr_until))
		return false;
	quanta = isim_wqe_quanta(hdr);
	dma_rmb();
	if (isim_sq_addr(sdev, qp, qp->sq_tail, &base) ||
	    isim_dma_read(sdev, base, wqe, quanta * IRDMA_WQE_QUANTUM_SIZE))
		return false;
	/* Each further quantum's last qword says it is written. */
	for (i = 1; i < quanta; i++)
		if (!isim_valid(le64_to_cpu(wqe[4 * i + 3]), qp->sq_polarity))
			return false;
	short_wqe = isim_wqe_short(wqe, hdr);
	if (run->short_only && !short_wqe) {
		run->backlog = true;
		return false;
	}

	isim_exec(sdev, qp, wqe, &r);
	if (r.busy)
		return false;
	if (r.stall) {
		qp->tcp.read_lost = true;
		return false;
	}
	/*
	 * A user QP's short WQE its process would have run itself, had the
	 * engine lock been free: it does not keep the threads quick.
	 */
	if (qp->priv || !short_wqe)
		run->quick = true;
	if (r.retry && !r.req_ae) {
		if (isim_rnr(sdev, qp))
			return false;
		r.req_ae = IRDMA_AE_LLP_TOO_MANY_RNRS;
	}
	/* Done with, once: a WQE an RNR NAK sends back is traced when it goes. */
	trace_irdma_sim_wqe(sdev->id, qp->id, "sq", qp->priv, wqe, quanta * 4);
	qp->rnr_until = 0;
	if (!r.req_ae && r.len_valid)
		isim_count_msg(sdev, r.ipv4, r.len, true, r.rdma_stat);
	if (r.req_ae && qp->type != IRDMA_QP_TYPE_UDA) {
		/* The WQE stays: the flush completes it with the error. */
		qp->state = IRDMA_QPS_ERROR;
		isim_aeq_post_tcp(sdev, r.req_ae, qp, IRDMA_AE_SOURCE_SQ, qp->sq_tail);
		return false;
	}
	if (r.req_ae) {
		/*
		 * A PUDA queue's send that fails (a reset to a peer whose ARP
		 * entry the driver has deleted since) fails alone: the stock
		 * driver takes the event for a QP it does not have and skips
		 * the completion's error, and nothing in it ever brings its ILQ
		 * back. The codes are the simulator's: the AE's as the minor.
		 */
		isim_aeq_post_tcp(sdev, r.req_ae, qp, IRDMA_AE_SOURCE_SQ, qp->sq_tail);
		cqe[3] = IRDMA_CQE_ERROR | FIELD_PREP(IRDMA_CQE_MAJERR, ISIM_PUDA_TX_MAJERR) |
			 FIELD_PREP(IRDMA_CQE_MINERR, r.req_ae);
	}
	if ((hdr & IRDMA_WQE_SIGCOMPL) || r.req_ae) {
		cqe[3] |= FIELD_PREP(IRDMA_CQE_WQEIDX, qp->sq_tail) |
			  FIELD_PREP(IRDMA_CQE_OPTYPE, FIELD_GET(IRDMA_WQE_OPCODE, hdr));
		isim_qp_complete(sdev, qp, true, cqe, NULL);
	}
	qp->sq_tail += quanta;
	if (qp->sq_tail >= qp->sq_size) {
		qp->sq_tail -= qp->sq_size;
		qp->sq_polarity = !qp->sq_polarity;
	}
	isim_dma_write_qword(sdev, qp->shadow_pa,
			     FIELD_PREP(IRDMA_QP_DBSA_HW_SQ_TAIL, qp->sq_tail));
	/* The position is out before the next WQE is looked at. */
	mb();
	return true;
}

/* Run up to a budget of one SQ's WQEs; note in @run if WQEs are left. */
static bool isim_sq_run(struct isim_dev *sdev, struct isim_qp *qp,
			struct isim_sq_pass *run)
{
	/* An iWARP QP that is CLOSING sends what it holds, then its FIN. */
	bool closing = qp->state == IRDMA_QPS_SQD && qp->tcp.fin_pending;
	int n;

	if (qp->suspended)
		return false;
	if (qp->tcp.term_pending)
		return qp->state == IRDMA_QPS_TERMINATE && isim_iwarp_term_tx(sdev, qp);
	if (qp->state == IRDMA_QPS_RTS && !isim_qset_live(sdev, qp->qs_handle)) {
		/* No scheduler node: the SQ never gets a turn. */
		if (isim_valid(isim_sq_wqe_hdr(sdev, qp, qp->sq_tail), qp->sq_polarity))
			sdev->stats.tx_no_qset++;
		return false;
	}
	for (n = 0; n < ISIM_SQ_BUDGET; n++) {
		if ((qp->state != IRDMA_QPS_RTS && !closing) ||
		    !isim_sq_step(sdev, qp, run)) {
			if (closing && qp->state == IRDMA_QPS_SQD &&
			    !isim_valid(isim_sq_wqe_hdr(sdev, qp, qp->sq_tail),
					qp->sq_polarity))
				isim_iwarp_sq_empty(sdev, qp);
			return n > 0;
		}
	}
	run->backlog = true;
	return true;
}

/**
 * isim_qps_run - execute what the SQs of QPs ready to send hold
 * @sdev: the simulated function
 * @quick: set if a WQE run keeps the threads quick to answer: one of a
 *	kernel QP, or one that moves more than a process moves itself
 *
 * Context: under the engine lock.
 * Return: true if any WQE was executed.
 */
bool isim_qps_run(struct isim_dev *sdev, bool *quick)
{
	struct isim_sq_pass run = {};
	struct isim_qp *qp;
	unsigned long id;
	bool work = false;

	xa_for_each(&sdev->qps, id, qp)
		work |= isim_sq_run(sdev, qp, &run);
	*quick |= run.quick;
	return work;
}
EXPORT_SYMBOL_IF_KUNIT(isim_qps_run);

/**
 * isim_qp_run_sq - execute what one QP's SQ holds, up to an engine step's
 * share, as long as its WQEs move little data
 * @sdev: the simulated function
 * @qpn: the QP's number
 * @backlog: set if WQEs may be left for the threads
 *
 * Context: under the engine lock.
 * Return: true if any WQE was executed.
 */
bool isim_qp_run_sq(struct isim_dev *sdev, u32 qpn, bool *backlog)
{
	struct isim_sq_pass run = { .short_only = true };
	struct isim_qp *qp = xa_load(&sdev->qps, qpn);
	bool work = qp && isim_sq_run(sdev, qp, &run);

	*backlog |= run.backlog;
	return work;
}

/**
 * isim_uda_sqs_run - send what the SQs of UDA QPs hold
 * @sdev: the simulated function
 *
 * The connection manager frees a connection's AH right after posting its
 * last segment, without waiting for the send: on silicon the SQ, rung
 * first, is long done with the AH when the CQP gets to its destruction.
 * The simulator's threads take CQP commands before SQs, so an AH's
 * destruction has them send first what was rung before it.
 *
 * Context: a thread, under the engine lock.
 */
void isim_uda_sqs_run(struct isim_dev *sdev)
{
	struct isim_sq_pass run = {};
	struct isim_qp *qp;
	unsigned long id;

	xa_for_each(&sdev->qps, id, qp)
		if (qp->type == IRDMA_QP_TYPE_UDA)
			isim_sq_run(sdev, qp, &run);
}
