// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The MPA exchange that turns a TCP connection into an iWARP one: the
 * initiator's request, the responder's reply (or rejection), and, with
 * revision 2 (RFC 6581), the IRD/ORD each side offers and the
 * ready-to-receive (RTR) message the initiator sends first.
 *
 * What the driver asks for is fixed, as upstream's: CRCs always, markers
 * never, the peer-to-peer mode, and a zero-length RDMA read or write as
 * RTR (never a zero-length send). Revision 2's private data length
 * counts the 4-byte enhanced header, as the RFC says; the consumer gets
 * its own bytes only.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "cm.h"

/**
 * irdma_mpa_build - write an MPA request or reply
 * @buf: where, room for %IRDMA_MPA_HDR_LEN + %IRDMA_MPA_V2_CTRL_LEN +
 *	@f->pdata_len bytes
 * @f: the frame: @request, @reject, @rev, @no_ird_ord, @ird, @ord, @rtr
 *	and the private data are used; CRCs are asked for, markers not
 *
 * Return: the frame's length.
 */
u32 irdma_mpa_build(u8 *buf, const struct irdma_mpa_frame *f)
{
	u16 ird = min_t(u16, f->ird, IRDMA_MPA_V2_NO_IRD_ORD);
	u16 ord = min_t(u16, f->ord, IRDMA_MPA_V2_NO_IRD_ORD);
	u32 hdr = IRDMA_MPA_HDR_LEN;
	u8 flags = IRDMA_MPA_FLAG_CRC;

	memcpy(buf, f->request ? IRDMA_MPA_KEY_REQ : IRDMA_MPA_KEY_REP,
	       IRDMA_MPA_KEY_LEN);
	if (f->reject)
		flags |= IRDMA_MPA_FLAG_REJECT;
	if (f->rev == 2) {
		flags |= IRDMA_MPA_FLAG_ENHANCED;
		if (f->no_ird_ord) {
			ird = IRDMA_MPA_V2_NO_IRD_ORD;
			ord = IRDMA_MPA_V2_NO_IRD_ORD;
		}
		if (f->rtr & IRDMA_RTR_WRITE)
			ord |= IRDMA_MPA_V2_RTR_WRITE;
		if (f->rtr & IRDMA_RTR_READ)
			ord |= IRDMA_MPA_V2_RTR_READ;
		put_unaligned_be16(IRDMA_MPA_V2_PEER_TO_PEER | ird, buf + hdr);
		put_unaligned_be16(ord, buf + hdr + 2);
		hdr += IRDMA_MPA_V2_CTRL_LEN;
	}
	buf[IRDMA_MPA_KEY_LEN] = flags;
	buf[IRDMA_MPA_KEY_LEN + 1] = f->rev;
	put_unaligned_be16(hdr - IRDMA_MPA_HDR_LEN + f->pdata_len,
			   buf + IRDMA_MPA_KEY_LEN + 2);
	if (f->pdata_len)
		memcpy(buf + hdr, f->pdata, f->pdata_len);
	return hdr + f->pdata_len;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_mpa_build);

/**
 * irdma_mpa_parse - read an MPA request or reply
 * @buf: the segment's payload
 * @len: its length
 * @request: a request is expected (else a reply)
 * @max_rev: the highest revision taken: 2 from an initiator, the
 *	revision offered from a responder
 * @f: returns the frame; @f->pdata points into @buf
 *
 * Bytes after the frame are not looked at.
 *
 * Return: 0; -EINVAL for a frame too short, of another key, of a
 * revision not taken, or of revision 2 without its enhanced header;
 * -EOVERFLOW for private data over 512 bytes, or longer than the payload,
 * or a payload longer than a frame can be.
 */
int irdma_mpa_parse(const u8 *buf, u32 len, bool request, u8 max_rev,
		    struct irdma_mpa_frame *f)
{
	u16 pd_len, ird, ord;
	u32 hdr = IRDMA_MPA_HDR_LEN;

	memset(f, 0, sizeof(*f));
	if (len < IRDMA_MPA_HDR_LEN)
		return -EINVAL;
	pd_len = get_unaligned_be16(buf + IRDMA_MPA_KEY_LEN + 2);
	if (pd_len > IRDMA_MPA_MAX_PDATA)
		return -EOVERFLOW;
	f->rev = buf[IRDMA_MPA_KEY_LEN + 1];
	if (f->rev < 1 || f->rev > 2 || f->rev > max_rev)
		return -EINVAL;
	if (memcmp(buf, request ? IRDMA_MPA_KEY_REQ : IRDMA_MPA_KEY_REP,
		   IRDMA_MPA_KEY_LEN))
		return -EINVAL;
	if (IRDMA_MPA_HDR_LEN + pd_len > len || len > IRDMA_MPA_MAX_FRAME)
		return -EOVERFLOW;

	f->request = request;
	f->markers = buf[IRDMA_MPA_KEY_LEN] & IRDMA_MPA_FLAG_MARKERS;
	f->crc = buf[IRDMA_MPA_KEY_LEN] & IRDMA_MPA_FLAG_CRC;
	f->reject = buf[IRDMA_MPA_KEY_LEN] & IRDMA_MPA_FLAG_REJECT;
	if (f->rev == 2) {
		if (pd_len < IRDMA_MPA_V2_CTRL_LEN)
			return -EINVAL;
		ird = get_unaligned_be16(buf + hdr);
		ord = get_unaligned_be16(buf + hdr + 2);
		f->peer_to_peer = ird & IRDMA_MPA_V2_PEER_TO_PEER;
		f->rtr_send = ird & IRDMA_MPA_V2_RTR_SEND;
		f->ird = ird & IRDMA_MPA_V2_IRD_ORD;
		f->ord = ord & IRDMA_MPA_V2_IRD_ORD;
		f->no_ird_ord = f->ird == IRDMA_MPA_V2_NO_IRD_ORD ||
				f->ord == IRDMA_MPA_V2_NO_IRD_ORD;
		if (ord & IRDMA_MPA_V2_RTR_WRITE)
			f->rtr |= IRDMA_RTR_WRITE;
		if (ord & IRDMA_MPA_V2_RTR_READ)
			f->rtr |= IRDMA_RTR_READ;
		hdr += IRDMA_MPA_V2_CTRL_LEN;
		pd_len -= IRDMA_MPA_V2_CTRL_LEN;
	}
	f->pdata = buf + hdr;
	f->pdata_len = pd_len;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_mpa_parse);

/**
 * irdma_mpa_negotiate - settle IRD, ORD and the RTR from a revision 2 frame
 * @peer: the peer's request (@initiator false) or reply (@initiator true)
 * @initiator: this side sent the request
 * @ird: this side's IRD, updated
 * @ord: this side's ORD, updated
 * @rtr: returns the RTR message: %IRDMA_RTR_READ where offered, else
 *	%IRDMA_RTR_WRITE
 *
 * A peer that gave no IRD and ORD leaves this side's as they are.
 *
 * Return: 0; -EOPNOTSUPP when the peer does not ask for the peer-to-peer
 * mode, offers neither a zero-length read nor write, or, answering us,
 * chose a read with an IRD of 0; -EINVAL when, answering us, it wants
 * more reads in flight than this side's IRD allows.
 */
int irdma_mpa_negotiate(const struct irdma_mpa_frame *peer, bool initiator,
			u16 *ird, u16 *ord, u8 *rtr)
{
	if (!peer->peer_to_peer)
		return -EOPNOTSUPP;
	if (!peer->no_ird_ord) {
		if (initiator) {
			if (!peer->ird && (peer->rtr & IRDMA_RTR_READ))
				return -EOPNOTSUPP;
			*ord = min(*ord, peer->ird);
			if (*ird < peer->ord)
				return -EINVAL;
		} else {
			/* Only the initiator's RTR read is to be answered. */
			if (!peer->ord && (peer->rtr & IRDMA_RTR_READ))
				*ird = 1;
			*ord = min(*ord, peer->ird);
		}
	}
	if (peer->rtr & IRDMA_RTR_READ)
		*rtr = IRDMA_RTR_READ;
	else if (peer->rtr & IRDMA_RTR_WRITE)
		*rtr = IRDMA_RTR_WRITE;
	else
		return -EOPNOTSUPP;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_mpa_negotiate);
