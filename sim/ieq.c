// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The exception queue of an offloaded iWARP stream (the IEQ), as a peer
 * that cut FPDUs across segments makes it work.
 *
 * The engine places a segment of an offloaded stream only if it starts
 * and ends on an FPDU boundary; one that does not (a partial FPDU) goes,
 * as it came, to the QP the QP context names as its exception queue: the
 * function's IEQ, a privileged UDA QP, whose receive buffers take it as
 * the ILQ's take a connection manager's segments (qp_rx.c). Before the
 * first such segment the engine writes the First Partial Sequence Number
 * (the QP's rcv_nxt) into the QP's Q2 buffer at ISIM_Q2_FPSN_OFFSET. The
 * driver puts the FPDU together from the segments, checks its MPA CRC and
 * sends it back whole through the IEQ's SQ, named by an address handle
 * that loops frames back into the port; the engine then takes it as an
 * in-order segment of the stream.
 *
 * The simulator carries a message between two of its functions whole
 * (iwarp.c). While the ieq_split knob of the receiving function is armed
 * (debugfs.c), a send or RDMA write arriving there whose stream is one
 * FPDU is instead built as that FPDU's bytes (MPA, DDP and RDMAP as RFC
 * 5044, 5041 and 5040 lay them out) and given to the IEQ in pieces, real
 * TCP segments from the peer. The sender's WQE waits meanwhile: its
 * engine tries it again each millisecond. When the IEQ's driver loops the
 * FPDU back, the receiving QP checks it (its sequence number is rcv_nxt,
 * its bytes the FPDU's) and lets the message go: it is then carried and
 * placed as any other, from the sender's memory. A looped-back segment
 * that is not the FPDU is counted and reported; with a bad CRC the QP
 * gets the MPA CRC error AE, as silicon raises for such a segment.
 *
 * A receiving QP that goes away (destroyed, or out of RTS) meanwhile
 * leaves the sender as a peer that stops acknowledging: the engine tries
 * until it gives up, as for any message finding no peer (iwarp.c); an
 * FPDU that never comes back (the IEQ had no buffer, or its driver
 * dropped it) does the same after ISIM_IEQ_GIVE_UP.
 */
#include <linux/bitfield.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <linux/unaligned.h>
#include <net/tcp.h>

#include "qp.h"

#define ISIM_Q2_FPSN_OFFSET	64
#define ISIM_IEQ_GIVE_UP	(8 * HZ)
#define ISIM_IEQ_RETRY		msecs_to_jiffies(1)
#define ISIM_IEQ_MAX_PIECES	8

/* DDP's control byte: tagged, last segment, version 1; RDMAP's version 1. */
#define ISIM_DDP_T		0x80
#define ISIM_DDP_L		0x40
#define ISIM_DDP_V1		0x01
#define ISIM_RDMAP_V1		0x40
#define ISIM_RDMAP_WRITE	0

enum isim_ieq_state {
	ISIM_IEQ_PENDING,	/* the pieces are in the IEQ */
	ISIM_IEQ_TAKEN,		/* the FPDU came back: the message may go */
};

/**
 * struct isim_ieq_hold - a message held while its FPDU goes through the IEQ
 * @state: enum isim_ieq_state
 * @seq: the stream's sequence number at the FPDU's start
 * @since: when its pieces went
 * @len: the FPDU's length
 * @fpdu: its bytes, from the MPA length to the CRC
 */
struct isim_ieq_hold {
	u8 state;
	u32 seq;
	unsigned long since;
	u32 len;
	u8 fpdu[];
};

/* CRC32c (Castagnoli, reflected), bit by bit: FPDUs here are short. */
static u32 isim_crc32c(u32 crc, const u8 *p, u32 len)
{
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78 & -(crc & 1));
	}
	return crc;
}

/* MPA's CRC of an FPDU's first @len bytes, as its wire bytes read (LE). */
static u32 isim_mpa_crc(const u8 *fpdu, u32 len)
{
	return ~isim_crc32c(~0U, fpdu, len);
}

/* The FPDU at the start of @p (@len bytes) is whole and its CRC right. */
static bool isim_mpa_crc_ok(const u8 *p, u32 len)
{
	u32 fl;

	if (len < 2)
		return false;
	fl = round_up(2 + get_unaligned_be16(p), 4) + 4;
	return fl <= len && get_unaligned_le32(p + fl - 4) == isim_mpa_crc(p, fl - 4);
}

/**
 * isim_ieq_release - forget the FPDU a QP holds for the IEQ
 * @qp: the QP
 */
void isim_ieq_release(struct isim_qp *qp)
{
	kfree(qp->tcp.ieq);
	qp->tcp.ieq = NULL;
}

/* The FPDU of a send or RDMA write of @msg, at MSN @msn for a send. */
static struct isim_ieq_hold *isim_ieq_fpdu(u8 op, const __le64 *wqe,
					   const struct isim_msg *msg, u32 msn,
					   bool badcrc)
{
	bool tagged = op == IRDMA_WQEOP_RDMA_WRITE;
	u32 hdr = tagged ? ISIM_DDP_TAGGED_HDR : ISIM_DDP_UNTAGGED_HDR;
	u32 len = round_up(2 + hdr + msg->len, 4) + 4;
	struct isim_ieq_hold *h = kzalloc(struct_size(h, fpdu, len), GFP_KERNEL);
	u8 *p;

	if (!h)
		return NULL;
	h->len = len;
	p = h->fpdu;
	put_unaligned_be16(hdr + msg->len, p);
	p += 2;
	if (tagged) {
		p[0] = ISIM_DDP_T | ISIM_DDP_L | ISIM_DDP_V1;
		p[1] = ISIM_RDMAP_V1 | ISIM_RDMAP_WRITE;
		put_unaligned_be32(FIELD_GET(IRDMA_WQE_REMSTAG, le64_to_cpu(wqe[3])), p + 2);
		put_unaligned_be64(le64_to_cpu(wqe[2]), p + 6);
	} else {
		/* Queue 0, the send's MSN, offset 0; a send's opcode is RDMAP's. */
		p[0] = ISIM_DDP_L | ISIM_DDP_V1;
		p[1] = ISIM_RDMAP_V1 | op;
		put_unaligned_be32(msg->inv_stag, p + 2);
		put_unaligned_be32(msn, p + 10);
	}
	memcpy(p + hdr, msg->data, msg->len);
	put_unaligned_le32(isim_mpa_crc(h->fpdu, len - 4) ^ (badcrc ? ~0U : 0),
			   h->fpdu + len - 4);
	return h;
}

/* Piece @k of @n of the FPDU into the IEQ, as the peer's segment. */
static bool isim_ieq_piece(struct isim_dev *sdev, struct isim_qp *qp,
			   struct isim_dev *dst, struct isim_qp *ieq,
			   const struct isim_ieq_hold *h, u32 k, u32 n)
{
	u32 off = h->len * k / n, len = h->len * (k + 1) / n - off;
	struct isim_wire_addr a;
	struct isim_tcp_frame f;
	struct sk_buff *skb;
	struct tcphdr *th;
	bool ok = false;

	if (isim_iwarp_wire_addr(sdev, qp, &a))
		return false;
	th = isim_iwarp_tcp_hdr(qp, TCPHDR_PSH, len);
	if (!th)
		return false;
	th->seq = htonl(h->seq + off);
	memcpy(th + 1, h->fpdu + off, len);
	skb = isim_wire_tcp_skb(&a, th, sizeof(*th) + len);
	kfree(th);
	if (skb && isim_tcp_frame_parse(skb, &f))
		ok = isim_uda_receive(dst, ieq, skb, &f);
	kfree_skb(skb);
	if (ok)
		dst->stats.ieq_segs_tx++;
	return ok;
}

/* Does the knob take this message? It has one FPDU and is a send or write. */
static bool isim_ieq_takes(struct isim_qp *qp, u8 op, const struct isim_msg *msg)
{
	u32 hdr = ISIM_DDP_UNTAGGED_HDR;

	switch (op) {
	case IRDMA_WQEOP_RDMA_WRITE:
		hdr = ISIM_DDP_TAGGED_HDR;
		break;
	case IRDMA_WQEOP_SEND:
	case IRDMA_WQEOP_SEND_SOL:
	case IRDMA_WQEOP_SEND_INV:
	case IRDMA_WQEOP_SEND_SOL_INV:
		break;
	default:
		return false;
	}
	/* A zero-length message (an RTR) has nothing to cut. */
	return msg->len && !msg->imm_valid &&
	       isim_iwarp_stream_len(hdr, msg->len, qp->tcp.mss) ==
	       round_up(2 + hdr + msg->len, 4) + 4;
}

/* Send the message's FPDU to @dqp's IEQ in pieces. Return: the hold, or NULL. */
static struct isim_ieq_hold *isim_ieq_split(struct isim_dev *sdev, struct isim_dev *dst,
					    struct isim_qp *qp, struct isim_qp *dqp,
					    u8 op, const __le64 *wqe,
					    const struct isim_msg *msg)
{
	struct isim_faults *fl = &dst->faults;
	struct isim_qp *ieq = xa_load(&dst->qps, dqp->tcp.ieq_qpn);
	u32 n = clamp_t(u32, READ_ONCE(fl->ieq_pieces), 2, ISIM_IEQ_MAX_PIECES);
	bool dup = READ_ONCE(fl->ieq_dup);
	struct isim_ieq_hold *h;
	__le32 fpsn;
	u32 k;

	if (!ieq || ieq->type != IRDMA_QP_TYPE_UDA || ieq->state != IRDMA_QPS_RTS ||
	    !dqp->tcp.q2_pa || dqp->tcp.rcv_nxt != qp->tcp.snd_nxt)
		return NULL;
	h = isim_ieq_fpdu(op, wqe, msg, dqp->tcp.sends_rx + 1, READ_ONCE(fl->ieq_badcrc));
	if (!h)
		return NULL;
	n = min(n, h->len / 4);
	h->seq = dqp->tcp.rcv_nxt;
	h->since = jiffies;
	fpsn = cpu_to_le32(h->seq);
	if (isim_dma_write(dst, dqp->tcp.q2_pa + ISIM_Q2_FPSN_OFFSET, &fpsn, sizeof(fpsn)) ||
	    atomic_dec_if_positive(&fl->ieq_split) < 0) {
		kfree(h);
		return NULL;
	}
	dst->stats.ieq_split_msgs++;
	/* A piece the IEQ has no buffer for is lost, as silicon loses it. */
	for (k = 0; k < n; k++) {
		isim_ieq_piece(sdev, qp, dst, ieq, h, k, n);
		if (dup && !k)
			isim_ieq_piece(sdev, qp, dst, ieq, h, k, n);
	}
	return h;
}

/**
 * isim_ieq_hold - hold an iWARP message while its FPDU goes through the
 *	receiving function's IEQ, if the ieq_split knob takes it
 * @sdev: the sending function
 * @dst: the receiving function (locked)
 * @qp: the sending QP
 * @dqp: the receiving QP
 * @op: the WQE's opcode
 * @wqe: the WQE
 * @msg: the message, its data gathered
 * @r: the outcome when held: busy (the engine tries again), or the sender
 *	gives up
 *
 * Context: under both functions' engine locks.
 * Return: true if the message does not go now.
 */
bool isim_ieq_hold(struct isim_dev *sdev, struct isim_dev *dst, struct isim_qp *qp,
		   struct isim_qp *dqp, u8 op, const __le64 *wqe,
		   const struct isim_msg *msg, struct isim_result *r)
{
	struct isim_ieq_hold *h = dqp->tcp.ieq;

	if (h && h->seq == qp->tcp.snd_nxt) {
		if (h->state == ISIM_IEQ_TAKEN) {
			isim_ieq_release(dqp);
			return false;
		}
		if (time_after(jiffies, h->since + ISIM_IEQ_GIVE_UP)) {
			dev_warn_ratelimited(&dst->dev,
					     "QP %u: the IEQ did not loop back the FPDU at %u\n",
					     dqp->id, h->seq);
			dst->stats.ieq_lost++;
			isim_ieq_release(dqp);
			isim_iwarp_give_up(qp, r);
			return true;
		}
	} else {
		/* The stream moved on without it (not from here): stale. */
		isim_ieq_release(dqp);
		if (atomic_read(&dst->faults.ieq_split) <= 0 || !isim_ieq_takes(qp, op, msg))
			return false;
		h = isim_ieq_split(sdev, dst, qp, dqp, op, wqe, msg);
		if (!h)
			return false;
		dqp->tcp.ieq = h;
	}
	qp->rnr_until = jiffies + ISIM_IEQ_RETRY;
	r->busy = true;
	return true;
}

/**
 * isim_ieq_lpb_rx - new data on an offloaded connection: the FPDU its
 *	IEQ's driver loops back?
 * @sdev: the simulated function
 * @qp: the QP the quad hash names for the segment
 * @skb: the frame
 * @f: its headers, read
 * @th: its TCP header
 * @seq: its sequence number
 * @len: its data's length
 *
 * The FPDU held for the QP's IEQ must come back at rcv_nxt, byte for
 * byte; then the message it belongs to goes on. Anything else is counted
 * and reported; a bad CRC raises the MPA CRC error AE.
 *
 * Context: under the engine lock.
 * Return: false if no FPDU is held for the QP (the data is not modelled).
 */
bool isim_ieq_lpb_rx(struct isim_dev *sdev, struct isim_qp *qp,
		     const struct sk_buff *skb, const struct isim_tcp_frame *f,
		     const struct tcphdr *th, u32 seq, u32 len)
{
	struct isim_ieq_hold *h = qp->tcp.ieq;
	bool ok;
	u8 *buf;

	if (!h)
		return false;
	buf = kmalloc(len, GFP_KERNEL);
	if (!buf || skb_copy_bits(skb, f->l3_off + f->l3_len + th->doff * 4, buf, len)) {
		kfree(buf);
		sdev->stats.tcp_rx_dropped++;
		return true;
	}
	ok = h->state == ISIM_IEQ_PENDING && seq == h->seq && seq == qp->tcp.rcv_nxt &&
	     len == h->len && !memcmp(buf, h->fpdu, len);
	if (ok) {
		h->state = ISIM_IEQ_TAKEN;
		sdev->stats.ieq_lpb_ok++;
	} else {
		sdev->stats.ieq_lpb_bad++;
		dev_warn_ratelimited(&sdev->dev,
				     "QP %u: looped back %u bytes at %u, not the FPDU of %u bytes at %u\n",
				     qp->id, len, seq, h->len, h->seq);
		if (!isim_mpa_crc_ok(buf, len))
			isim_aeq_post_tcp(sdev, IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR, qp,
					  IRDMA_AE_SOURCE_RQ, 0);
	}
	kfree(buf);
	return true;
}
