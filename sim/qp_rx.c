// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Receiving: a message arriving at a QP takes the receive WQE at the head
 * of its RQ (or SRQ) by the WQE's valid bit, its payload is placed in the
 * WQE's fragments (behind a GRH for UD), and its completion is written.
 */
#include <linux/bitfield.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <rdma/ib_pack.h>

#include "qp.h"
#include "trace.h"

/* The RQ WQE at the head, if the driver has posted one. */
static int isim_rq_peek(struct isim_dev *sdev, struct isim_qp *qp, __le64 *wqe)
{
	u64 base, hdr;

	if (isim_rq_addr(sdev, qp, qp->rq_head, &base) ||
	    isim_dma_read_qword(sdev, base + 24, &hdr))
		return -EFAULT;
	if (!isim_valid(hdr, qp->rq_polarity))
		return -EAGAIN;
	/* The valid bit first: the rest was written before it. */
	dma_rmb();
	if (isim_dma_read(sdev, base, wqe, IRDMA_WQE_QUANTUM_SIZE << qp->rq_shift))
		return -EFAULT;
	return 0;
}

static void isim_rq_advance(struct isim_qp *qp)
{
	if (++qp->rq_head == qp->rq_size) {
		qp->rq_head = 0;
		qp->rq_polarity = !qp->rq_polarity;
	}
}

/*
 * The receive WQE at the head of the QP's RQ or SRQ, and where the
 * completion says it was.
 */
int isim_recv_peek(struct isim_dev *sdev, struct isim_qp *qp, __le64 *wqe,
		   u32 *idx)
{
	if (qp->srq)
		return isim_srq_peek(sdev, qp->srq, qp->pd, wqe, idx);
	*idx = qp->rq_head << qp->rq_shift;
	return isim_rq_peek(sdev, qp, wqe);
}

/* The receive WQE at the head is taken, from the RQ or the SRQ. */
static void isim_recv_advance(struct isim_dev *sdev, struct isim_qp *qp)
{
	if (qp->srq)
		isim_srq_advance(sdev, qp->srq);
	else
		isim_rq_advance(qp);
}

/* Scatter @len bytes into the fragments of a receive WQE. */
static int isim_scatter(struct isim_dev *sdev, struct isim_qp *qp,
			const __le64 *wqe, const u8 *data, u32 len)
{
	u32 frags, k, flen, stag, n;
	u64 addr;
	int err;

	err = isim_wqe_frags(le64_to_cpu(wqe[3]), &frags);
	if (err)
		return err;

	for (k = 0; k < frags && len; k++) {
		struct isim_access acc;

		isim_frag(wqe, k, &addr, &flen, &stag);
		n = min(flen, len);
		acc = (struct isim_access) {
			.stag = stag, .pd = qp->pd, .priv = qp->priv,
			.rights = IRDMA_MR_RIGHT_LOCAL_WRITE,
		};
		err = isim_mem_copy(sdev, &acc, addr, (void *)data, n, true);
		if (err)
			return err > 0 ? err : IRDMA_AE_AMP_BOUNDS_VIOLATION;
		data += n;
		len -= n;
	}
	return len ? IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER : 0;
}

/* The 40 bytes in front of a UD payload: a GRH, or an IPv4 header in its
 * last 20 bytes.
 */
static void isim_build_grh(u8 *grh, const struct isim_msg *msg)
{
	const struct isim_ah *ah = msg->ah;
	int i;

	memset(grh, 0, ISIM_GRH_SIZE);
	if (ah->ipv4) {
		struct iphdr *ip = (struct iphdr *)(grh + ISIM_GRH_SIZE - sizeof(*ip));

		ip->version = 4;
		ip->ihl = 5;
		ip->ttl = 64;
		ip->protocol = IPPROTO_UDP;
		ip->tot_len = htons(sizeof(*ip) + 8 + 12 + msg->len + 4);
		ip->saddr = htonl(ah->src_ip[3]);
		ip->daddr = htonl(ah->dest_ip[3]);
		ip->check = ip_fast_csum(ip, ip->ihl);
	} else {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)grh;

		ip6->version = 6;
		ip6->payload_len = htons(8 + 12 + msg->len + 4);
		ip6->nexthdr = IPPROTO_UDP;
		ip6->hop_limit = 64;
		for (i = 0; i < 4; i++) {
			ip6->saddr.s6_addr32[i] = htonl(ah->src_ip[i]);
			ip6->daddr.s6_addr32[i] = htonl(ah->dest_ip[i]);
		}
	}
}

/* Deliver a message into the receiver's RQ, with its completion. */
void isim_deliver(struct isim_dev *dst, struct isim_qp *qp,
		  const struct isim_msg *msg, struct isim_result *r)
{
	/* Slots past the WQE's own quanta read as empty fragments. */
	__le64 wqe[IRDMA_MAX_QUANTA_PER_WR * 4] = {};
	u64 cqe[4] = {}, ext[4] = {};
	bool ud = qp->type == IRDMA_QP_TYPE_ROCE_UD;
	u32 len = msg->len, idx;
	int err;

	err = isim_recv_peek(dst, qp, wqe, &idx);
	/* An SRQ of another PD, or one that is gone. */
	if (err == -EPERM || err == -ENOENT) {
		r->resp_ae = IRDMA_AE_AMP_BAD_PD;
		r->req_ae = IRDMA_AE_IB_REMOTE_OP_ERROR;
		return;
	}
	if (err) {
		/* No receive posted: RC retries, UD drops. */
		r->retry = !ud;
		if (ud)
			dst->stats.ud_dropped++;
		return;
	}
	if (ud) {
		u8 *buf = kmalloc(ISIM_GRH_SIZE + msg->len, GFP_KERNEL);

		if (!buf)
			return;
		isim_build_grh(buf, msg);
		memcpy(buf + ISIM_GRH_SIZE, msg->data, msg->len);
		len += ISIM_GRH_SIZE;
		err = isim_scatter(dst, qp, wqe, buf, len);
		kfree(buf);
	} else {
		err = isim_scatter(dst, qp, wqe, msg->data, msg->len);
	}
	if (!err && msg->inv_stag && !ud)
		err = isim_mr_invalidate(dst, msg->inv_stag, qp->pd, true);
	if (err && ud) {
		dst->stats.ud_dropped++;
		isim_recv_advance(dst, qp);
		return;
	}
	if (err) {
		r->resp_ae = err;
		r->req_ae = err == IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER ?
			    IRDMA_AE_IB_INVALID_REQUEST : IRDMA_AE_IB_REMOTE_ACCESS_ERROR;
		return;
	}

	cqe[0] = FIELD_PREP(IRDMA_CQE_PAYLDLEN, len);
	cqe[3] = FIELD_PREP(IRDMA_CQE_WQEIDX, idx) |
		 FIELD_PREP(IRDMA_CQE_OPTYPE, msg->op) |
		 FIELD_PREP(IRDMA_CQE_SOEVENT, msg->solicited);
	if (qp->srq) {
		cqe[1] = le64_to_cpu(wqe[2]);
		cqe[3] |= IRDMA_CQE_SRQ;
	}
	if (ud) {
		cqe[2] = FIELD_PREP(IRDMA_CQE_UDSRCQPN, msg->src->id);
		cqe[3] |= FIELD_PREP(IRDMA_CQE_IPV4, msg->ah->ipv4);
		ext[2] = FIELD_PREP(IRDMA_CQE_EXT_UDSMAC,
				    ether_addr_to_u64(msg->src_dev->netdev->dev_addr));
		ext[3] = IRDMA_CQE_EXT_UDSMACVALID;
	} else if (msg->inv_stag) {
		cqe[2] = FIELD_PREP(IRDMA_CQE_INVSTAG, msg->inv_stag);
		cqe[3] |= IRDMA_CQE_STAG;
	}
	if (msg->imm_valid) {
		ext[0] = FIELD_PREP(IRDMA_CQE_EXT_IMMDATA, msg->imm);
		ext[3] |= IRDMA_CQE_EXT_IMMVALID;
	}
	isim_qp_complete(dst, qp, false, cqe, ext[3] ? ext : NULL);
	trace_irdma_sim_wqe(dst->id, qp->id, qp->srq ? "srq" : "rq", qp->priv,
			    wqe, 8);
	isim_recv_advance(dst, qp);
}

/* Deliver a UD message to a QP if it takes the Q_Key. */
bool isim_ud_deliver(struct isim_dev *dst, u32 qpn, u32 qkey,
		     const struct isim_msg *msg)
{
	struct isim_qp *dqp = xa_load(&dst->qps, qpn);
	struct isim_result dr = {};

	if (!dqp || dqp->type != IRDMA_QP_TYPE_ROCE_UD || dqp->qkey != qkey ||
	    (dqp->state != IRDMA_QPS_RTR && dqp->state != IRDMA_QPS_RTS)) {
		dst->stats.ud_dropped++;
		return false;
	}
	isim_deliver(dst, dqp, msg, &dr);
	return true;
}

/* Where a UDA QP's receive buffer has the IP and TCP headers (GEN_2). */
#define ISIM_UDA_IPV4_PAD	20
#define ISIM_UDA_TCP_OFFSET	40

/**
 * isim_uda_receive - a TCP segment into a UDA QP's receive buffer
 * @sdev: the simulated function
 * @qp: the UDA QP (the ILQ) its quad hash entry names
 * @skb: the frame, from its Ethernet header
 * @f: its headers, read
 *
 * The Ethernet header stays behind: its source MAC and VLAN tag go to the
 * extended completion. The buffer gets the IP header so that it ends 40
 * bytes in (an IPv4 one after 20 bytes of padding), the TCP header and
 * its data from there; the completion's length counts from the start.
 * Receive WQEs are taken by their valid bit: a UDA QP has no RQ
 * doorbell. A segment finding none, or one too small, is lost.
 *
 * Context: under the engine lock.
 * Return: true if the segment landed in a buffer.
 */
bool isim_uda_receive(struct isim_dev *sdev, struct isim_qp *qp,
		      const struct sk_buff *skb, const struct isim_tcp_frame *f)
{
	__le64 wqe[IRDMA_MAX_QUANTA_PER_WR * 4] = {};
	u32 len = ISIM_UDA_TCP_OFFSET + f->l4_len, idx;
	u64 cqe[4] = {}, ext[4] = {};
	u8 *buf;
	int err;

	if (qp->state != IRDMA_QPS_RTS || isim_recv_peek(sdev, qp, wqe, &idx)) {
		sdev->stats.tcp_rx_dropped++;
		return false;
	}
	buf = kzalloc(len, GFP_KERNEL);
	if (!buf) {
		sdev->stats.tcp_rx_dropped++;
		return false;
	}
	err = skb_copy_bits(skb, f->l3_off, buf + ISIM_UDA_TCP_OFFSET - f->l3_len,
			    f->l3_len + f->l4_len);
	if (!err)
		err = isim_scatter(sdev, qp, wqe, buf, len);
	kfree(buf);
	if (err) {
		sdev->stats.tcp_rx_dropped++;
		return false;
	}
	cqe[0] = FIELD_PREP(IRDMA_CQE_PAYLDLEN, len);
	cqe[3] = FIELD_PREP(IRDMA_CQE_WQEIDX, idx) |
		 FIELD_PREP(IRDMA_CQE_IPV4, f->ipv4);
	ext[2] = FIELD_PREP(IRDMA_CQE_EXT_UDSMAC, ether_addr_to_u64(f->smac));
	ext[3] = IRDMA_CQE_EXT_UDSMACVALID;
	if (f->vlan_valid) {
		ext[2] |= FIELD_PREP(IRDMA_CQE_EXT_UDVLAN, f->vlan_tci);
		ext[3] |= IRDMA_CQE_EXT_UDVLANVALID;
	}
	isim_qp_complete(sdev, qp, false, cqe, ext);
	trace_irdma_sim_wqe(sdev->id, qp->id, "rq", qp->priv, wqe, 4);
	isim_recv_advance(sdev, qp);
	sdev->stats.uda_rx++;
	return true;
}
