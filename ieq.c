// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The IEQ's exceptions. An offloaded iWARP stream is placed by the engine
 * FPDU by FPDU; a segment that does not hold whole FPDUs (the peer's TCP
 * cut one across segments, after a retransmission or a path's MSS) goes
 * to the exception queue the QP's context names, the IEQ, instead. The
 * engine writes the sequence number at which the cut FPDU starts (the
 * first partial sequence number) into the QP's Q2 buffer and takes
 * nothing more of the stream until it gets it back whole.
 *
 * The driver gathers the sequence's bytes in order, QP by QP, and as soon
 * as whole FPDUs are there (their MPA CRCs checked) sends them back
 * through the IEQ's SQ in a segment that starts at their sequence number
 * and carries the last segment's TCP header, naming an address handle
 * with the loopback bit: the engine takes it as the next segment of the
 * stream, from the peer. Bytes already held or sent back are cut off a
 * segment; one that leaves a gap is dropped, for the peer's TCP to send
 * again. (Upstream means to acknowledge a repeat or a gap through the
 * connection manager, but on GEN_2 the connection's address handle is
 * gone once the QP took over, so nothing goes: the stock driver sends
 * nothing here either.) A bad FPDU drops the rest
 * of the sequence and has the engine raise the MPA CRC error's event for
 * the QP (a TERMINATE follows, term.c).
 */
#include <kunit/visibility.h>
#include <linux/crc32.h>
#include <linux/if_vlan.h>
#include <linux/unaligned.h>
#include <net/tcp.h>

#include "cm.h"
#include "main.h"
#include "verbs.h"

/* Where the engine writes the first partial sequence number into Q2. */
#define IRDMA_IEQ_Q2_FPSN	64
/* The IP header in front of a segment sent back (no IPv4 options). */
#define IRDMA_IEQ_IPV4_HDR	20
#define IRDMA_IEQ_IPV6_HDR	40
/* Again after this long: an address handle the CQP did not make. */
#define IRDMA_IEQ_AH_RETRY	(HZ / 10)
/* An FPDU: MPA's length, the ULPDU, padding to 4 bytes, MPA's CRC. */
#define IRDMA_MPA_LEN_BYTES	2
#define IRDMA_MPA_CRC_BYTES	4
/* Where the sequence number and the flags are in a TCP header. */
#define IRDMA_TCP_SEQ_OFFSET	4
#define IRDMA_TCP_FLAGS_OFFSET	13
/* The IPv4 header's TTL and the IPv6 header's hop limit. */
#define IRDMA_IPV4_TTL_OFFSET	8
#define IRDMA_IPV6_HOP_OFFSET	7

/**
 * irdma_ieq_fpdu_len - the bytes an FPDU takes on the stream
 * @mpa: its first two bytes, MPA's length of the ULPDU
 *
 * Return: MPA's length field, the ULPDU, the padding and the CRC.
 */
u32 irdma_ieq_fpdu_len(const u8 *mpa)
{
	return round_up(IRDMA_MPA_LEN_BYTES + get_unaligned_be16(mpa), 4) +
	       IRDMA_MPA_CRC_BYTES;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_ieq_fpdu_len);

/**
 * irdma_ieq_stream_consume - bytes from the start were sent back
 * @s: the stream
 * @len: how many
 */
void irdma_ieq_stream_consume(struct irdma_ieq_stream *s, u32 len)
{
	memmove(s->data, s->data + len, s->len - len);
	s->len -= len;
	s->seq += len;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_ieq_stream_consume);

/**
 * irdma_ieq_stream_add - a segment's bytes for the partial sequence
 * @s: the stream, its buffer allocated
 * @fpsn: the first partial sequence number the engine gives now; another
 *	than the sequence's starts a new one, unless it lies in the bytes
 *	held (the engine took those before it, from a retransmission: the
 *	rest stay)
 * @seq: the segment's sequence number
 * @data: its payload
 * @len: the payload's length
 * @wnd: the receive window: the sequence holds no byte past it
 *
 * Return: what was done with the segment (enum irdma_ieq_verdict).
 */
enum irdma_ieq_verdict irdma_ieq_stream_add(struct irdma_ieq_stream *s, u32 fpsn,
					    u32 seq, const u8 *data, u32 len, u32 wnd)
{
	u32 end;

	if (s->active && fpsn != s->fpsn && !before(fpsn, s->seq) &&
	    !after(fpsn, s->seq + s->len)) {
		irdma_ieq_stream_consume(s, fpsn - s->seq);
		s->fpsn = fpsn;
	} else if (!s->active || fpsn != s->fpsn) {
		s->active = true;
		s->failed = false;
		s->fpsn = fpsn;
		s->seq = fpsn;
		s->len = 0;
	}
	if (s->failed)
		return IRDMA_IEQ_DROPPED;
	end = s->seq + s->len;
	if (before(seq, end)) {
		if (end - seq >= len)
			return IRDMA_IEQ_OLD;
		data += end - seq;
		len -= end - seq;
		seq = end;
	}
	if (seq != end)
		return IRDMA_IEQ_GAP;
	if (len > s->cap - s->len || s->len + len > wnd)
		return IRDMA_IEQ_DROPPED;
	memcpy(s->data + s->len, data, len);
	s->len += len;
	return IRDMA_IEQ_TAKEN;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_ieq_stream_add);

static bool irdma_ieq_crc_good(const u8 *fpdu, u32 len)
{
	u32 crc = ~__crc32c_le(~0U, fpdu, len - IRDMA_MPA_CRC_BYTES);

	return crc == get_unaligned_le32(fpdu + len - IRDMA_MPA_CRC_BYTES);
}

/**
 * irdma_ieq_stream_ready - the whole FPDUs at the start of the bytes held
 * @s: the stream
 * @max_fpdu: the most FPDU bytes one segment sent back holds (the MTU
 *	less the IP and TCP headers), and so the longest FPDU there can be
 *
 * Return: the bytes of the whole FPDUs, their CRCs good, that one segment
 * carries (0 while the first is not whole); -EBADMSG for an FPDU longer
 * than @max_fpdu or with a bad CRC.
 */
int irdma_ieq_stream_ready(const struct irdma_ieq_stream *s, u32 max_fpdu)
{
	u32 off = 0, n;

	while (s->len - off >= IRDMA_MPA_LEN_BYTES) {
		n = irdma_ieq_fpdu_len(s->data + off);
		if (n > max_fpdu)
			return -EBADMSG;
		if (n > s->len - off || off + n > max_fpdu)
			break;
		if (!irdma_ieq_crc_good(s->data + off, n))
			return -EBADMSG;
		off += n;
	}
	return off;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_ieq_stream_ready);

/* The sequence failed: the rest of it goes, and the engine raises the event. */
static void irdma_ieq_fail(struct irdma_qp *qp)
{
	struct irdma_ieq_qp *e = &qp->ieq;
	struct irdma_cqp_wqe cmd;

	e->stream.failed = true;
	e->stream.len = 0;
	irdma_build_gen_ae(&cmd, qp->id, IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR,
			   IRDMA_AE_SOURCE_RQ);
	if (irdma_cqp_post_async(&qp->iwdev->fn, &cmd))
		ibdev_warn(qp->ibqp.device, "QP %u: no event for a bad FPDU\n", qp->id);
}

/*
 * Whole FPDUs go back to the engine, a segment at a time, from the
 * sequence's first byte, under the last segment's TCP header (its FIN
 * only on the segment that ends where that FIN's did). Bytes that cannot
 * go now (every buffer in flight, or the IEQ being made anew for a new
 * MTU) go from the work a tick later. Context: the function's puda_lock
 * and @qp's ieq.lock held.
 */
static void irdma_ieq_send_back(struct irdma_qp *qp)
{
	struct irdma_fn *fn = &qp->iwdev->fn;
	struct irdma_ieq_qp *e = &qp->ieq;
	u32 max;
	int n, err;

	if (e->ah_state != IRDMA_IEQ_AH_MADE || e->stopped)
		return;
	max = READ_ONCE(fn->mtu) - e->tcph_len -
	      (e->ah.ipv4 ? IRDMA_IEQ_IPV4_HDR : IRDMA_IEQ_IPV6_HDR);
	for (;;) {
		n = irdma_ieq_stream_ready(&e->stream, max);
		if (n < 0)
			irdma_ieq_fail(qp);
		if (n <= 0)
			return;
		put_unaligned_be32(e->stream.seq, e->tcph + IRDMA_TCP_SEQ_OFFSET);
		if (e->fin && e->stream.seq + n == e->fin_end)
			e->tcph[IRDMA_TCP_FLAGS_OFFSET] |= TCPHDR_FIN;
		else
			e->tcph[IRDMA_TCP_FLAGS_OFFSET] &= ~TCPHDR_FIN;
		err = fn->ieq ? irdma_puda_send_parts(fn->ieq, e->ah.id, e->tcph, e->tcph_len,
						      e->stream.data, n) : -EAGAIN;
		if (err) {
			mod_delayed_work(system_wq, &e->work, 1);
			return;
		}
		if (e->tcph[IRDMA_TCP_FLAGS_OFFSET] & TCPHDR_FIN)
			e->fin = false;
		irdma_ieq_stream_consume(&e->stream, n);
	}
}

static void irdma_ieq_work(struct work_struct *work)
{
	struct irdma_ieq_qp *e = container_of(to_delayed_work(work), struct irdma_ieq_qp,
					      work);
	struct irdma_qp *qp = container_of(e, struct irdma_qp, ieq);
	struct irdma_fn *fn = &qp->iwdev->fn;
	struct irdma_ah_hw_info ah;
	bool make;

	spin_lock(&e->lock);
	make = e->ah_state == IRDMA_IEQ_AH_PENDING && !e->stopped;
	ah = e->ah;
	spin_unlock(&e->lock);
	if (make) {
		if (irdma_create_hw_ah(fn, &ah, RDMA_CREATE_AH_SLEEPABLE)) {
			/* The bytes stay: a later try may send them. */
			mod_delayed_work(system_wq, &e->work, IRDMA_IEQ_AH_RETRY);
			return;
		}
		spin_lock(&e->lock);
		e->ah = ah;
		e->ah_state = IRDMA_IEQ_AH_MADE;
		spin_unlock(&e->lock);
	}
	mutex_lock(&fn->puda_lock);
	spin_lock(&e->lock);
	irdma_ieq_send_back(qp);
	spin_unlock(&e->lock);
	mutex_unlock(&fn->puda_lock);
}

/*
 * The loopback address handle, as from the peer: its MAC and address as
 * the source, ours as the destination with an ARP entry of our own MAC
 * (upstream's table holds one for each of the netdev's addresses; ours
 * holds it for the handle), the TTL and TOS the segment came with.
 * Return: false when the ARP table is full.
 */
static bool irdma_ieq_ah_fields(struct irdma_qp *qp, struct irdma_puda *q,
				const struct irdma_puda_rx *rx,
				const struct irdma_cm_rx *seg)
{
	struct irdma_ah_hw_info *ah = &qp->ieq.ah;
	int arp;

	arp = irdma_arp_add(q->fn, seg->local_ip, seg->ipv4, q->fn->res.netdev->dev_addr);
	if (arp < 0)
		return false;
	memset(ah, 0, sizeof(*ah));
	ah->pd = q->hw.pd;
	ether_addr_copy(ah->mac, rx->smac);
	ah->ipv4 = seg->ipv4;
	memcpy(ah->dest_ip, seg->local_ip, sizeof(ah->dest_ip));
	memcpy(ah->src_ip, seg->remote_ip, sizeof(ah->src_ip));
	ah->arp_idx = arp;
	ah->tc = seg->tos;
	ah->hop_limit = seg->ipv4 ? rx->data[IRDMA_CM_IPV4_OFFSET + IRDMA_IPV4_TTL_OFFSET] :
				    rx->data[IRDMA_IPV6_HOP_OFFSET];
	ah->vlan = rx->vlan;
	ah->insert_vlan = rx->vlan_valid;
	ah->loopback = true;
	return true;
}

/* A buffer for the QP's sequences: a partial FPDU and a segment. */
static bool irdma_ieq_buffer(struct irdma_qp *qp, struct irdma_puda *q)
{
	struct irdma_ieq_qp *e = &qp->ieq;
	u32 cap = READ_ONCE(q->fn->mtu) + q->buf_size;
	u8 *buf;

	if (READ_ONCE(e->stream.data))
		return true;
	buf = kmalloc(cap, GFP_KERNEL);
	if (!buf)
		return false;
	spin_lock(&e->lock);
	if (!e->stream.data) {
		e->stream.data = buf;
		e->stream.cap = cap;
		buf = NULL;
	}
	spin_unlock(&e->lock);
	kfree(buf);
	return true;
}

/*
 * A segment of @qp's stream: taken if it carries what comes next, and
 * what is whole goes back. Context: as irdma_ieq_receive().
 */
static void irdma_ieq_qp_take(struct irdma_qp *qp, struct irdma_puda *q,
			      const struct irdma_puda_rx *rx,
			      const struct irdma_cm_rx *seg)
{
	struct irdma_ieq_qp *e = &qp->ieq;
	u32 fpsn, tcph_len;

	if (!irdma_ieq_buffer(qp, q))
		return;
	tcph_len = seg->payload - (rx->data + IRDMA_CM_TCP_OFFSET);
	spin_lock(&e->lock);
	/* The engine wrote it before it completed the receive. */
	fpsn = get_unaligned_le32(qp->ctx.va + IRDMA_IEQ_Q2_FPSN);
	if (irdma_ieq_stream_add(&e->stream, fpsn, seg->seq, seg->payload,
				 seg->payload_len, qp->iw_conn.rcv_wnd) == IRDMA_IEQ_TAKEN) {
		memcpy(e->tcph, rx->data + IRDMA_CM_TCP_OFFSET, tcph_len);
		e->tcph_len = tcph_len;
		if (seg->flags & TCPHDR_FIN) {
			e->fin = true;
			e->fin_end = seg->seq + seg->payload_len;
		}
		if (e->ah_state == IRDMA_IEQ_AH_NONE && irdma_ieq_ah_fields(qp, q, rx, seg)) {
			e->ah_state = IRDMA_IEQ_AH_PENDING;
			mod_delayed_work(system_wq, &e->work, 0);
		}
	}
	irdma_ieq_send_back(qp);
	spin_unlock(&e->lock);
}

/**
 * irdma_ieq_receive - a segment the IEQ received
 * @q: the IEQ
 * @rx: the segment
 *
 * It goes to the QP of the connection it is of; a segment without data
 * or without such a QP is dropped.
 *
 * Context: CEQ 0's thread, under the function's puda_lock.
 */
void irdma_ieq_receive(struct irdma_puda *q, const struct irdma_puda_rx *rx)
{
	u16 vlan = rx->vlan_valid ? rx->vlan & VLAN_VID_MASK : IRDMA_CM_NO_VLAN;
	struct irdma_cm_rx seg;
	struct irdma_qp *qp;

	if (irdma_cm_tcp_parse(rx->data, rx->len, rx->ipv4, &seg) || !seg.payload_len)
		return;
	qp = irdma_cm_ieq_qp(q->fn->cm, &seg, vlan);
	if (!qp)
		return;
	if (qp->hw.type == IRDMA_QP_TYPE_IWARP)
		irdma_ieq_qp_take(qp, q, rx, &seg);
	irdma_qp_put(qp);
}

/**
 * irdma_ieq_qp_init - a QP's exceptions: none yet
 * @qp: the QP
 */
void irdma_ieq_qp_init(struct irdma_qp *qp)
{
	spin_lock_init(&qp->ieq.lock);
	INIT_DELAYED_WORK(&qp->ieq.work, irdma_ieq_work);
}

/**
 * irdma_ieq_qp_stop - the QP goes: what its exceptions hold goes too
 * @qp: the QP; nothing can find it any more
 *
 * Context: process context.
 */
void irdma_ieq_qp_stop(struct irdma_qp *qp)
{
	struct irdma_ieq_qp *e = &qp->ieq;

	spin_lock(&e->lock);
	e->stopped = true;
	spin_unlock(&e->lock);
	cancel_delayed_work_sync(&e->work);
	if (e->ah_state == IRDMA_IEQ_AH_MADE)
		irdma_destroy_hw_ah(&qp->iwdev->fn, &e->ah);
	if (e->ah_state != IRDMA_IEQ_AH_NONE)
		irdma_arp_put(&qp->iwdev->fn, e->ah.arp_idx);
	e->ah_state = IRDMA_IEQ_AH_NONE;
	kfree(e->stream.data);
	e->stream.data = NULL;
}
