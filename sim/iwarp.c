// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Offloaded iWARP connections.
 *
 * The driver's connection manager opens a TCP connection and runs the MPA
 * exchange through the ILQ; then it loads the connection into a QP's
 * context (sequence numbers, windows, MSS, addresses, ports, the ARP
 * entry) and moves the QP to RTS. From then on the engine owns the
 * connection: it points the connection's quad hash entry at the QP, sends
 * what the SQ holds, and answers the segments that arrive.
 *
 * The first WQEs of the SQ are the connection manager's: on the passive
 * side the MPA reply as stream bytes (the LSMM), sent as a real segment,
 * after which the SQ waits for the peer's first PDU; on the active side
 * the RTR, a zero-length RDMA read or write. A NOP with a local fence and
 * a GEN_RTS_AE WQE follow: the engine reports the connection established.
 *
 * Messages between two simulated functions are carried whole, as RoCE's
 * are (qp_tx.c), to the QP the receiving function's quad hash names for
 * the connection; the sequence numbers on both sides move by what the
 * FPDUs would have taken on the wire, so that the segments the engines do
 * send (FIN, reset, acknowledgments) carry the numbers a peer expects.
 * Closing follows TCP: MODIFY_QP to CLOSING sends a FIN once the SQ is
 * empty; a FIN taken raises LLP_FIN_RECEIVED, the end of the close
 * LLP_CLOSE_COMPLETE; MODIFY_QP to ERROR with RESETCON sends a reset,
 * which raises LLP_CONNECTION_RESET at the peer.
 *
 * A message may instead go through the receiving function's IEQ in
 * pieces, as a peer cutting FPDUs across segments makes it (ieq.c).
 *
 * Not modelled, and refused loudly: stream data from anything but a
 * simulated function's engine (its FPDUs would need parsing), TERMINATE
 * messages (an error is reported to both ends as an AE instead),
 * retransmission and congestion control inside the stream, markers.
 */
#include <linux/bitfield.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <net/tcp.h>

#include "qp.h"

/* How long a message waits for its peer's QP to take the connection. */
#define ISIM_IWARP_GIVE_UP	(8 * HZ)
#define ISIM_IWARP_RETRY	msecs_to_jiffies(1)

static void isim_iwarp_carry(struct isim_qp *from, struct isim_qp *to, u32 bytes);

#define ISIM_RDMA_READ_REQ	28	/* a read request's payload */
#define ISIM_MPA_LEN_CRC	6	/* MPA's length field and CRC */

/* An IRDSIZE code's inbound reads. */
static const u16 isim_ird_sizes[] = { 4, 16, 64, 128, 256 };

static bool isim_tcp_synced(u8 state)
{
	return state >= IRDMA_TCP_STATE_ESTABLISHED &&
	       state <= IRDMA_TCP_STATE_FIN_WAIT_2;
}

/* The connection as the QP's function sees it. */
static void isim_iwarp_tuple(const struct isim_qp *qp, struct isim_tcp_tuple *t)
{
	memset(t, 0, sizeof(*t));
	t->ipv4 = qp->ipv4;
	memcpy(t->local_ip, qp->src_ip, sizeof(t->local_ip));
	memcpy(t->remote_ip, qp->dest_ip, sizeof(t->remote_ip));
	t->local_port = qp->tcp.local_port;
	t->remote_port = qp->tcp.remote_port;
	if (qp->tcp.insert_vlan)
		t->vlan = BIT(15) | (qp->tcp.vlan_tag & VLAN_VID_MASK);
}

/* The TCP part of the context: what the connection manager handed over. */
static int isim_iwarp_load(struct isim_dev *sdev, struct isim_qp *qp, u64 ctx_pa)
{
	struct isim_tcp_conn *c = &qp->tcp;
	__le64 ctx[IRDMA_QP_CTX_SIZE / 8];
	u64 q;
	u8 ird;

	if (isim_dma_read(sdev, ctx_pa, ctx, sizeof(ctx)))
		return -EFAULT;
	q = le64_to_cpu(ctx[20]);
	if (!(q & IRDMA_QPC_IWARPMODE))
		return -EINVAL;
	c->ord = FIELD_GET(IRDMA_QPC_ORDSIZE, q);
	ird = FIELD_GET(IRDMA_QPC_IRDSIZE, q);
	if (ird >= ARRAY_SIZE(isim_ird_sizes))
		return -EINVAL;
	c->ird = isim_ird_sizes[ird];
	c->rd_ok = !!(q & IRDMA_QPC_RDOK);
	c->insert_vlan = !!(le64_to_cpu(ctx[0]) & IRDMA_QPC_INSERTVLANTAG);
	q = le64_to_cpu(ctx[3]);
	c->ttl = FIELD_GET(IRDMA_QPC_TTL, q);
	c->tos = FIELD_GET(IRDMA_QPC_TOS, q);
	c->local_port = FIELD_GET(IRDMA_QPC_SRCPORTNUM, q);
	c->remote_port = FIELD_GET(IRDMA_QPC_DESTPORTNUM, q);
	q = le64_to_cpu(ctx[6]);
	c->mss = FIELD_GET(IRDMA_QPC_SNDMSS, q);
	c->vlan_tag = FIELD_GET(IRDMA_QPC_VLANTAG, q);
	q = le64_to_cpu(ctx[7]);
	c->state = FIELD_GET(IRDMA_QPC_TCPSTATE, q);
	c->rcv_wscale = FIELD_GET(IRDMA_QPC_RCVSCALE, q);
	c->snd_nxt = FIELD_GET(IRDMA_QPC_TCP_LO, le64_to_cpu(ctx[10]));
	q = le64_to_cpu(ctx[11]);
	c->rcv_nxt = FIELD_GET(IRDMA_QPC_TCP_LO, q);
	c->rcv_wnd = FIELD_GET(IRDMA_QPC_TCP_HI, q);
	c->snd_una = FIELD_GET(IRDMA_QPC_TCP_HI, le64_to_cpu(ctx[12]));
	c->q2_pa = FIELD_GET(IRDMA_QPC_Q2ADDR, le64_to_cpu(ctx[18])) << 8;
	c->ieq_qpn = FIELD_GET(IRDMA_QPC_EXCEPTION_LAN_QUEUE, le64_to_cpu(ctx[22]));
	/* A connection, open, between two ports, with room for an FPDU. */
	if (c->state != IRDMA_TCP_STATE_ESTABLISHED || !c->local_port ||
	    !c->remote_port || c->mss < 128 || c->rcv_wscale > 14)
		return -EINVAL;
	return 0;
}

/**
 * isim_iwarp_tcp_hdr - a segment's TCP header, from the QP's numbers, with
 *	room for data behind it
 * @qp: the QP sending it
 * @flags: its flags (ACK is added)
 * @len: the room, in bytes
 *
 * Return: the header, zeroed behind it (kfree()), or NULL.
 */
struct tcphdr *isim_iwarp_tcp_hdr(const struct isim_qp *qp, u8 flags, u32 len)
{
	const struct isim_tcp_conn *c = &qp->tcp;
	struct tcphdr *th = kzalloc(sizeof(*th) + len, GFP_KERNEL);

	if (!th)
		return NULL;
	th->source = htons(c->local_port);
	th->dest = htons(c->remote_port);
	th->seq = htonl(c->snd_nxt);
	th->ack_seq = htonl(c->rcv_nxt);
	th->doff = sizeof(*th) / 4;
	tcp_flag_byte(th) = flags | TCPHDR_ACK;
	th->window = htons(min(c->rcv_wnd >> c->rcv_wscale, 0xffffU));
	return th;
}

/**
 * isim_iwarp_wire_addr - the Ethernet and IP headers of the connection's
 *	segments, as the QP sends them
 * @sdev: the QP's function
 * @qp: the QP
 * @a: the headers
 *
 * Return: 0, or -ENXIO if the QP's ARP entry is not valid.
 */
int isim_iwarp_wire_addr(struct isim_dev *sdev, const struct isim_qp *qp,
			 struct isim_wire_addr *a)
{
	const struct isim_tcp_conn *c = &qp->tcp;

	if (qp->arp_idx >= ISIM_MAX_ARPS || !test_bit(qp->arp_idx, sdev->hmc.arp_valid))
		return -ENXIO;
	*a = (struct isim_wire_addr) {
		.ipv4 = qp->ipv4,
		.tos = c->tos,
		.ttl = c->ttl,
		.insert_vlan = c->insert_vlan,
		.vlan_tag = c->vlan_tag,
	};
	memcpy(a->src_ip, qp->src_ip, sizeof(a->src_ip));
	memcpy(a->dest_ip, qp->dest_ip, sizeof(a->dest_ip));
	ether_addr_copy(a->smac, qp->mac);
	u64_to_ether_addr(sdev->hmc.arp[qp->arp_idx], a->dmac);
	return 0;
}

/* A segment of the connection, from the QP's numbers. */
static int isim_iwarp_send_seg(struct isim_dev *sdev, struct isim_qp *qp,
			       u8 flags, const void *data, u32 len)
{
	struct isim_wire_addr a;
	struct tcphdr *th;
	int err;

	err = isim_iwarp_wire_addr(sdev, qp, &a);
	if (err)
		return err;
	th = isim_iwarp_tcp_hdr(qp, flags, len);
	if (!th)
		return -ENOMEM;
	memcpy(th + 1, data, len);
	err = isim_wire_tcp_send(sdev, &a, th, sizeof(*th) + len);
	kfree(th);
	return err;
}

static void isim_iwarp_close_complete(struct isim_dev *sdev, struct isim_qp *qp,
				      u8 state)
{
	qp->tcp.state = state;
	isim_aeq_post_tcp(sdev, IRDMA_AE_LLP_CLOSE_COMPLETE, qp, IRDMA_AE_SOURCE_RSVD, 0);
}

/**
 * isim_iwarp_give_up - the engine gives a connection up (its
 *	retransmissions ran out)
 * @qp: the QP
 * @r: the outcome of the WQE that was being sent: the AE its QP gets
 *
 * Gone without a segment, and the report says so (TCP state CLOSED), as
 * the stock driver needs to close its side.
 */
void isim_iwarp_give_up(struct isim_qp *qp, struct isim_result *r)
{
	qp->tcp.state = IRDMA_TCP_STATE_CLOSED;
	qp->tcp.fin_pending = false;
	qp->tcp.wait_pdu = false;
	r->req_ae = IRDMA_AE_LLP_TOO_MANY_RETRIES;
}

/* The reset a connection ends with: sent, and the connection is gone. */
static void isim_iwarp_reset(struct isim_dev *sdev, struct isim_qp *qp)
{
	if (isim_tcp_synced(qp->tcp.state) &&
	    !isim_iwarp_send_seg(sdev, qp, TCPHDR_RST, NULL, 0))
		sdev->stats.iwarp_rst_tx++;
	qp->tcp.state = IRDMA_TCP_STATE_CLOSED;
	qp->tcp.fin_pending = false;
}

/*
 * TERMINATE (RFC 5040, 5041): an RDMAP message on DDP's untagged queue 2,
 * message 1, offset 0, whose payload is the Terminate control word and
 * what the sender copied of the offending headers, from its Q2 buffer.
 * The engine that takes one writes the frame, as it came and untagged,
 * into its QP's Q2 buffer at ISIM_Q2_FRAME_OFFSET and raises
 * LLP_TERMINATE_RECEIVED (Q2 data written), the QP stopped (TERMINATE).
 */
#define ISIM_TERM_QN		2
#define ISIM_TERM_MSN		1
#define ISIM_RDMAP_TERMINATE	7
#define ISIM_DDP_CTL_LAST_V1	0x41	/* untagged, last segment, DDP version 1 */
#define ISIM_RDMAP_V1		0x40	/* RDMAP version 1, in the control byte */
#define ISIM_Q2_FRAME_OFFSET	72
#define ISIM_TERM_CTRL		4	/* the Terminate control word */
#define ISIM_TERM_MAX		15	/* TERMLEN's four bits */
/* What of the frame goes to Q2: Ethernet, IPv6, TCP, the FPDU. */
#define ISIM_Q2_FRAME_MAX	(ETH_HLEN + 40 + 20 + 2 + ISIM_DDP_UNTAGGED_HDR + \
				 ISIM_TERM_MAX + 3 + 4)

struct isim_term_fpdu {
	__be16 ulpdu_len;
	u8 ddp_ctl;
	u8 rdmap_ctl;
	__be32 rsvd_ulp;
	__be32 qn;
	__be32 msn;
	__be32 mo;
	u8 payload[];
} __packed;

/* The TERMINATE FPDU of @len payload bytes, as a segment of the connection. */
static struct tcphdr *isim_iwarp_term_seg(struct isim_qp *qp, const u8 *payload,
					  u32 len, u32 *seg_len)
{
	u32 fpdu = round_up(sizeof(struct isim_term_fpdu) + len, 4) + 4;
	struct isim_term_fpdu *t;
	struct tcphdr *th;

	th = isim_iwarp_tcp_hdr(qp, TCPHDR_PSH, fpdu);
	if (!th)
		return NULL;
	t = (struct isim_term_fpdu *)(th + 1);
	t->ulpdu_len = htons(ISIM_DDP_UNTAGGED_HDR + len);
	t->ddp_ctl = ISIM_DDP_CTL_LAST_V1;
	t->rdmap_ctl = ISIM_RDMAP_V1 | ISIM_RDMAP_TERMINATE;
	t->qn = htonl(ISIM_TERM_QN);
	t->msn = htonl(qp->tcp.term_msn);
	memcpy(t->payload, payload, len);
	/* The CRC is the wire's: the engines check it there, no driver reads it. */
	*seg_len = sizeof(*th) + fpdu;
	return th;
}

/*
 * The peer's QP takes the TERMINATE: the frame into its Q2 buffer, the QP
 * stopped, and its driver told. -EAGAIN while the peer's engine is busy.
 */
static int isim_iwarp_term_deliver(struct isim_dev *sdev, struct isim_qp *qp,
				   const struct tcphdr *th, u32 seg_len)
{
	struct isim_result r = {};
	struct isim_wire_addr a = {
		.ipv4 = qp->ipv4,
		.tos = qp->tcp.tos,
		.ttl = qp->tcp.ttl,
	};
	struct isim_qp *dqp;
	struct isim_dev *dst;
	u8 *frame;
	int len;

	dst = isim_iwarp_peer(sdev, qp, &dqp, &r, true);
	if (!dst)
		return r.busy ? -EAGAIN : -ENXIO;
	memcpy(a.src_ip, qp->src_ip, sizeof(a.src_ip));
	memcpy(a.dest_ip, qp->dest_ip, sizeof(a.dest_ip));
	ether_addr_copy(a.smac, qp->mac);
	u64_to_ether_addr(sdev->hmc.arp[qp->arp_idx], a.dmac);
	frame = kzalloc(ISIM_Q2_FRAME_MAX, GFP_KERNEL);
	len = frame ? isim_wire_tcp_image(&a, th, seg_len, frame, ISIM_Q2_FRAME_MAX) : -ENOMEM;
	if (len > 0 && dqp->tcp.q2_pa &&
	    !isim_dma_write(dst, dqp->tcp.q2_pa + ISIM_Q2_FRAME_OFFSET, frame, len)) {
		isim_iwarp_carry(qp, dqp, seg_len - sizeof(*th));
		dqp->state = IRDMA_QPS_TERMINATE;
		dqp->tcp.fin_pending = false;
		dst->stats.iwarp_term_rx++;
		dst->stats.iwarp_term_rx_ctrl =
			get_unaligned_be32(((struct isim_term_fpdu *)(th + 1))->payload);
		isim_aeq_post_q2(dst, IRDMA_AE_LLP_TERMINATE_RECEIVED, dqp);
		len = 0;
	}
	kfree(frame);
	isim_peer_put(sdev, dst);
	return len < 0 ? len : 0;
}

/* The FIN a TERMINATE's sender (or receiver) closes its half with, now. */
static void isim_iwarp_term_fin(struct isim_dev *sdev, struct isim_qp *qp)
{
	struct isim_tcp_conn *c = &qp->tcp;

	if (c->state != IRDMA_TCP_STATE_ESTABLISHED &&
	    c->state != IRDMA_TCP_STATE_CLOSE_WAIT)
		return;
	c->fin_pending = true;
	isim_iwarp_sq_empty(sdev, qp);
}

/**
 * isim_iwarp_term_tx - send the TERMINATE a QP holds, then its FIN if
 *	asked, and report it sent (whether or not the peer was there)
 * @sdev: the simulated function
 * @qp: the QP, its TERMINATE pending
 *
 * Context: under the engine lock.
 * Return: false while the peer's engine is busy (the next step tries again).
 */
bool isim_iwarp_term_tx(struct isim_dev *sdev, struct isim_qp *qp)
{
	struct isim_tcp_conn *c = &qp->tcp;
	struct tcphdr *th = NULL;
	u32 seg_len;
	int err = -ENXIO;

	if (isim_tcp_synced(c->state)) {
		th = isim_iwarp_term_seg(qp, c->term_msg, c->term_len, &seg_len);
		err = th ? isim_iwarp_term_deliver(sdev, qp, th, seg_len) : -ENOMEM;
		kfree(th);
		if (err == -EAGAIN || err == -ENOMEM)
			return false;
		/* On the wire, whether the peer's QP took it or not. */
		sdev->stats.iwarp_term_tx++;
		sdev->stats.iwarp_term_tx_ctrl = get_unaligned_be32(c->term_msg);
	}
	c->term_pending = false;
	isim_aeq_post_tcp(sdev, IRDMA_AE_TERMINATE_SENT, qp, IRDMA_AE_SOURCE_RSVD, 0);
	if (c->term_fin)
		isim_iwarp_term_fin(sdev, qp);
	return true;
}

/*
 * MODIFY_QP to TERMINATE: TERMACT says what goes, the TERMINATE message
 * (TERMLEN bytes of Q2, at least its control word), the FIN, both or
 * neither. The message goes from the engine's next step (the peer's
 * engine may be busy now); its FIN after it.
 */
static void isim_iwarp_terminate(struct isim_dev *sdev, struct isim_qp *qp, u8 act,
				 u8 termlen)
{
	struct isim_tcp_conn *c = &qp->tcp;
	bool msg = act == IRDMA_TERM_SEND_TERM_AND_FIN || act == IRDMA_TERM_SEND_TERM_ONLY;
	bool fin = act == IRDMA_TERM_SEND_TERM_AND_FIN || act == IRDMA_TERM_SEND_FIN_ONLY;

	if (!msg) {
		if (fin)
			isim_iwarp_term_fin(sdev, qp);
		return;
	}
	c->term_len = clamp_t(u8, termlen, ISIM_TERM_CTRL, ISIM_TERM_MAX);
	if (!c->q2_pa || isim_dma_read(sdev, c->q2_pa, c->term_msg, c->term_len))
		memset(c->term_msg, 0, sizeof(c->term_msg));
	c->term_fin = fin;
	/* A wrong message number if the term_bad_msn knob asks for one. */
	c->term_msn = ISIM_TERM_MSN +
		      (atomic_dec_if_positive(&sdev->faults.term_bad_msn) >= 0);
	c->term_pending = true;
	isim_engine_kick(sdev);
}

/**
 * isim_iwarp_modify - what MODIFY_QP does to an iWARP QP's connection
 * @sdev: the simulated function
 * @qp: the QP, its new state set
 * @hdr: the command's header
 * @ctx_pa: its context
 * @termlen: the TERMINATE message's length in Q2 (qword 1's four bits)
 *
 * Return: 0, or the command's error code.
 */
u16 isim_iwarp_modify(struct isim_dev *sdev, struct isim_qp *qp, u64 hdr,
		      u64 ctx_pa, u8 termlen)
{
	struct isim_tcp_tuple t;

	if ((hdr & IRDMA_QPCMD_TOECTXVALID) && !qp->tcp.offloaded &&
	    isim_iwarp_load(sdev, qp, ctx_pa))
		return ISIM_MIN_BAD_PARAM;
	switch (qp->state) {
	case IRDMA_QPS_RTS:
		if (qp->tcp.offloaded)
			break;
		if (!(hdr & IRDMA_QPCMD_TOECTXVALID))
			return ISIM_MIN_BAD_PARAM;
		isim_iwarp_tuple(qp, &t);
		if (!isim_steer_conn_bind(sdev, &t, qp->id))
			dev_warn_ratelimited(&sdev->dev,
					     "QP %u: no quad hash entry for its connection\n",
					     qp->id);
		qp->tcp.offloaded = true;
		sdev->stats.iwarp_offloaded++;
		break;
	case IRDMA_QPS_SQD:	/* CLOSING: a FIN follows what the SQ holds */
		if (qp->tcp.state == IRDMA_TCP_STATE_ESTABLISHED ||
		    qp->tcp.state == IRDMA_TCP_STATE_CLOSE_WAIT)
			qp->tcp.fin_pending = true;
		break;
	case IRDMA_QPS_ERROR:
		if (hdr & IRDMA_QPCMD_RESETCON)
			isim_iwarp_reset(sdev, qp);
		qp->tcp.term_pending = false;
		qp->tcp.fin_pending = false;
		qp->tcp.wait_pdu = false;
		break;
	case IRDMA_QPS_TERMINATE:
		isim_iwarp_terminate(sdev, qp, FIELD_GET(IRDMA_QPCMD_TERMACT, hdr), termlen);
		break;
	default:
		break;
	}
	if ((hdr & IRDMA_QPCMD_REMOVEHASHENTRY) && qp->tcp.offloaded) {
		isim_iwarp_tuple(qp, &t);
		isim_steer_conn_unbind(sdev, &t, qp->id);
	}
	return 0;
}

/**
 * isim_iwarp_destroy - what DESTROY_QP does to an iWARP QP's connection
 * @sdev: the simulated function
 * @qp: the QP
 * @hdr: the command's header (REMOVEHASHENTRY)
 */
void isim_iwarp_destroy(struct isim_dev *sdev, struct isim_qp *qp, u64 hdr)
{
	struct isim_tcp_tuple t;

	if (!qp->tcp.offloaded || !(hdr & IRDMA_QPCMD_REMOVEHASHENTRY))
		return;
	isim_iwarp_tuple(qp, &t);
	isim_steer_conn_unbind(sdev, &t, qp->id);
}

/**
 * isim_iwarp_sq_empty - the SQ of a CLOSING QP has nothing left: its FIN
 * @sdev: the simulated function
 * @qp: the QP
 */
void isim_iwarp_sq_empty(struct isim_dev *sdev, struct isim_qp *qp)
{
	struct isim_tcp_conn *c = &qp->tcp;

	if (!c->fin_pending || isim_iwarp_send_seg(sdev, qp, TCPHDR_FIN, NULL, 0))
		return;
	c->fin_pending = false;
	c->snd_nxt++;
	c->state = c->state == IRDMA_TCP_STATE_CLOSE_WAIT ? IRDMA_TCP_STATE_LAST_ACK :
							    IRDMA_TCP_STATE_FIN_WAIT_1;
	sdev->stats.iwarp_fin_tx++;
}

/**
 * isim_iwarp_lsmm - send a stream-mode WQE's data (the MPA reply) as a
 *	segment of the connection
 * @sdev: the simulated function
 * @qp: the QP
 * @hdr: the WQE's header
 * @data: the data
 * @len: its length
 *
 * Return: 0, an AE code, or -EAGAIN to try again.
 */
int isim_iwarp_lsmm(struct isim_dev *sdev, struct isim_qp *qp, u64 hdr,
		    const void *data, u32 len)
{
	struct isim_tcp_conn *c = &qp->tcp;
	int err;

	if (len > c->mss)
		return IRDMA_AE_WQE_LSMM_TOO_LONG;
	err = isim_iwarp_send_seg(sdev, qp, TCPHDR_PSH, data, len);
	if (err == -ENXIO)
		return IRDMA_AE_INVALID_ARP_ENTRY;
	if (err == -EMSGSIZE)
		return IRDMA_AE_WQE_LSMM_TOO_LONG;
	if (err)
		return -EAGAIN;
	c->snd_nxt += len;
	c->snd_una = c->snd_nxt;
	if ((hdr & IRDMA_WQE_WAITFORRCVPDU) && !c->pdu_rcvd)
		c->wait_pdu = true;
	sdev->stats.iwarp_lsmm++;
	return 0;
}

/**
 * isim_iwarp_peer - the function and QP an offloaded connection's
 *	messages reach
 * @sdev: the sending function
 * @qp: the sending QP
 * @dqp: the receiving QP
 * @r: the outcome, when there is none: busy (try at the next step), or
 *	the AE the sender gets
 * @term: the message is a TERMINATE: a QP stopped by one it sent (in
 *	TERMINATE, its connection open) takes it in its TCP and drops it
 *	(the stock driver, given a second, would set its terminate timer up
 *	again while it is pending)
 *
 * The receiving function is the one owning the ARP entry's MAC address;
 * the QP, the one its quad hash names for the connection. A function not
 * accelerating the connection hands its segments to its stack, which
 * resets the connection; one whose entry names no offloaded QP yet takes
 * them in its connection manager, which drops them: TCP sends them
 * again, until it gives up.
 *
 * Return: the receiving function, locked (isim_peer_put()), or NULL.
 */
struct isim_dev *isim_iwarp_peer(struct isim_dev *sdev, struct isim_qp *qp,
				 struct isim_qp **dqp, struct isim_result *r, bool term)
{
	struct isim_tcp_tuple t, own;
	struct isim_dev *dst;
	u8 mac[ETH_ALEN];
	u32 qpn;

	if (qp->arp_idx >= ISIM_MAX_ARPS || !test_bit(qp->arp_idx, sdev->hmc.arp_valid)) {
		r->req_ae = IRDMA_AE_INVALID_ARP_ENTRY;
		return NULL;
	}
	u64_to_ether_addr(sdev->hmc.arp[qp->arp_idx], mac);
	dst = isim_peer_get(sdev, mac);
	if (IS_ERR(dst)) {
		r->busy = true;
		return NULL;
	}
	if (!dst) {
		dev_warn_ratelimited(&sdev->dev,
				     "QP %u: stream data for an engine not simulated here is not modelled\n",
				     qp->id);
		sdev->stats.stream_unmodelled++;
		isim_iwarp_give_up(qp, r);
		return NULL;
	}
	isim_iwarp_tuple(qp, &own);
	t = (struct isim_tcp_tuple) {
		.ipv4 = own.ipv4,
		.local_port = own.remote_port,
		.remote_port = own.local_port,
		.vlan = own.vlan,
	};
	memcpy(t.local_ip, own.remote_ip, sizeof(t.local_ip));
	memcpy(t.remote_ip, own.local_ip, sizeof(t.remote_ip));
	if (isim_steer_conn_qpn(dst, &t, &qpn)) {
		/* The peer's stack answers with a reset. */
		isim_peer_put(sdev, dst);
		qp->tcp.state = IRDMA_TCP_STATE_CLOSED;
		sdev->stats.iwarp_rst_rx++;
		r->req_ae = IRDMA_AE_LLP_CONNECTION_RESET;
		return NULL;
	}
	*dqp = xa_load(&dst->qps, qpn);
	if (*dqp && (*dqp)->type == IRDMA_QP_TYPE_IWARP && (*dqp)->tcp.offloaded &&
	    isim_tcp_synced((*dqp)->tcp.state)) {
		if ((*dqp)->state == IRDMA_QPS_RTS || (*dqp)->state == IRDMA_QPS_SQD) {
			qp->tcp.lost_since = 0;
			return dst;
		}
		if (term && (*dqp)->state == IRDMA_QPS_TERMINATE) {
			isim_peer_put(sdev, dst);
			qp->tcp.lost_since = 0;
			return NULL;
		}
	}
	isim_peer_put(sdev, dst);
	sdev->stats.iwarp_unreached++;
	if (!qp->tcp.lost_since) {
		qp->tcp.lost_since = jiffies | 1;
	} else if (time_after(jiffies, qp->tcp.lost_since + ISIM_IWARP_GIVE_UP)) {
		qp->tcp.lost_since = 0;
		isim_iwarp_give_up(qp, r);
		return NULL;
	}
	qp->rnr_until = jiffies + ISIM_IWARP_RETRY;
	r->busy = true;
	return NULL;
}

/**
 * isim_iwarp_stream_len - stream bytes of a message: its FPDUs, each at
 *	most an MSS
 * @hdr: its DDP/RDMAP header's length (ISIM_DDP_*_HDR)
 * @len: its data's
 * @mss: the connection's MSS
 *
 * Return: the bytes.
 */
u32 isim_iwarp_stream_len(u32 hdr, u32 len, u16 mss)
{
	u32 per = (mss - ISIM_MPA_LEN_CRC - hdr) & ~3U, full, rest, total;

	if (!per)
		per = 4;
	full = len / per;
	rest = len % per;
	total = full * (round_up(2 + hdr + per, 4) + 4);
	if (rest || !full)
		total += round_up(2 + hdr + rest, 4) + 4;
	return total;
}

static void isim_iwarp_carry(struct isim_qp *from, struct isim_qp *to, u32 bytes)
{
	from->tcp.snd_nxt += bytes;
	from->tcp.snd_una = from->tcp.snd_nxt;
	to->tcp.rcv_nxt += bytes;
}

/**
 * isim_iwarp_carried - a message reached the peer's QP: both ends' sequence
 *	numbers move by its FPDUs, and the peer has its first PDU
 * @dst: the receiving function
 * @qp: the sending QP
 * @dqp: the receiving QP
 * @op: the WQE's opcode
 * @len: the data's length
 * @answered: a read's response came (else the peer refused its request)
 */
void isim_iwarp_carried(struct isim_dev *dst, struct isim_qp *qp, struct isim_qp *dqp,
			u8 op, u32 len, bool answered)
{
	switch (op) {
	case IRDMA_WQEOP_RDMA_READ:
	case IRDMA_WQEOP_RDMA_READ_INV_STAG:
		isim_iwarp_carry(qp, dqp, isim_iwarp_stream_len(ISIM_DDP_UNTAGGED_HDR,
								ISIM_RDMA_READ_REQ,
								qp->tcp.mss));
		if (!answered)
			break;
		isim_iwarp_carry(dqp, qp, isim_iwarp_stream_len(ISIM_DDP_TAGGED_HDR, len,
								dqp->tcp.mss));
		qp->tcp.pdu_rcvd = true;
		break;
	case IRDMA_WQEOP_RDMA_WRITE:
	case IRDMA_WQEOP_RDMA_WRITE_SOL:
		isim_iwarp_carry(qp, dqp, isim_iwarp_stream_len(ISIM_DDP_TAGGED_HDR, len,
								qp->tcp.mss));
		break;
	default:
		isim_iwarp_carry(qp, dqp, isim_iwarp_stream_len(ISIM_DDP_UNTAGGED_HDR, len,
								qp->tcp.mss));
		dqp->tcp.sends_rx++;
	}
	dqp->tcp.pdu_rcvd = true;
	if (dqp->tcp.wait_pdu) {
		dqp->tcp.wait_pdu = false;
		isim_engine_kick(dst);
	}
}

/* An acknowledgment: what it covers of our FIN moves the close on. */
static void isim_iwarp_ack(struct isim_dev *sdev, struct isim_qp *qp, u32 ack)
{
	struct isim_tcp_conn *c = &qp->tcp;

	if (after(ack, c->snd_nxt) || before(ack, c->snd_una))
		return;
	c->snd_una = ack;
	if (ack != c->snd_nxt)
		return;
	switch (c->state) {
	case IRDMA_TCP_STATE_FIN_WAIT_1:
		c->state = IRDMA_TCP_STATE_FIN_WAIT_2;
		break;
	case IRDMA_TCP_STATE_CLOSING:
		isim_iwarp_close_complete(sdev, qp, IRDMA_TCP_STATE_TIME_WAIT);
		break;
	case IRDMA_TCP_STATE_LAST_ACK:
		isim_iwarp_close_complete(sdev, qp, IRDMA_TCP_STATE_CLOSED);
		break;
	default:
		break;
	}
}

/* The peer's FIN, in sequence: acknowledged, and the close moves on. */
static void isim_iwarp_fin(struct isim_dev *sdev, struct isim_qp *qp)
{
	struct isim_tcp_conn *c = &qp->tcp;

	c->rcv_nxt++;
	sdev->stats.iwarp_fin_rx++;
	isim_iwarp_send_seg(sdev, qp, 0, NULL, 0);
	switch (c->state) {
	case IRDMA_TCP_STATE_ESTABLISHED:
		c->state = IRDMA_TCP_STATE_CLOSE_WAIT;
		isim_aeq_post_tcp(sdev, IRDMA_AE_LLP_FIN_RECEIVED, qp,
				  IRDMA_AE_SOURCE_RSVD, 0);
		break;
	case IRDMA_TCP_STATE_FIN_WAIT_1:
		c->state = IRDMA_TCP_STATE_CLOSING;
		break;
	case IRDMA_TCP_STATE_FIN_WAIT_2:
		isim_iwarp_close_complete(sdev, qp, IRDMA_TCP_STATE_TIME_WAIT);
		break;
	default:
		break;
	}
}

/**
 * isim_iwarp_segment_rx - a segment of an offloaded connection, off the wire
 * @sdev: the simulated function
 * @qp: the QP the quad hash names for it
 * @skb: the frame
 * @f: its headers, read
 *
 * Acknowledgments, FINs and resets are taken as TCP takes them (a reset
 * or FIN only in sequence); data already received is dropped as a
 * duplicate. New data is the FPDU the IEQ's driver loops back (ieq.c),
 * or else, sent as segments only by a peer other than a simulated
 * engine, not modelled.
 *
 * Context: a thread, under the engine lock.
 */
void isim_iwarp_segment_rx(struct isim_dev *sdev, struct isim_qp *qp,
			   const struct sk_buff *skb, const struct isim_tcp_frame *f)
{
	struct isim_tcp_conn *c = &qp->tcp;
	struct tcphdr th_buf;
	const struct tcphdr *th;
	u32 seq, len;

	th = skb_header_pointer(skb, f->l3_off + f->l3_len, sizeof(th_buf), &th_buf);
	if (!th || !isim_tcp_synced(c->state)) {
		sdev->stats.tcp_rx_dropped++;
		return;
	}
	seq = ntohl(th->seq);
	len = f->l4_len - th->doff * 4;
	if (th->rst) {
		if (seq != c->rcv_nxt) {
			sdev->stats.tcp_rx_dropped++;
			return;
		}
		sdev->stats.iwarp_rst_rx++;
		c->state = IRDMA_TCP_STATE_CLOSED;
		c->fin_pending = false;
		c->wait_pdu = false;
		qp->state = IRDMA_QPS_ERROR;
		isim_aeq_post_tcp(sdev, IRDMA_AE_LLP_CONNECTION_RESET, qp,
				  IRDMA_AE_SOURCE_RSVD, 0);
		return;
	}
	if (th->syn) {
		sdev->stats.tcp_rx_dropped++;
		return;
	}
	if (len && after(seq + len, c->rcv_nxt)) {
		/* The FPDU the IEQ put together, looped back by its driver. */
		if (isim_ieq_lpb_rx(sdev, qp, skb, f, th, seq, len))
			return;
		sdev->stats.stream_unmodelled++;
		dev_warn_ratelimited(&sdev->dev,
				     "QP %u: stream data in segments is not modelled\n",
				     qp->id);
		return;
	}
	if (th->ack)
		isim_iwarp_ack(sdev, qp, ntohl(th->ack_seq));
	if (th->fin && seq + len == c->rcv_nxt)
		isim_iwarp_fin(sdev, qp);
}
