// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * iWARP's TERMINATE (RFC 5040 section 7, RFC 5041 section 8): how an
 * offloaded connection ends on an error.
 *
 * The engine that finds an error in what it received (a write or read out
 * of a key's bounds, a send with no receive posted, a bad header) stops
 * the QP (TERMINATE) and raises an error event. The driver writes the
 * Terminate control word into the QP's Q2 buffer and moves the QP to
 * TERMINATE asking for the message alone; the engine sends it and says
 * so (TERMINATE_SENT), and the driver has it close its half with a FIN.
 * The peer's engine writes the frame it took into its Q2 buffer and
 * raises LLP_TERMINATE_RECEIVED: its driver checks the frame (a bad one
 * is answered with a TERMINATE of its own); an error of the RDMAP layer
 * ends the connection there and then, one of a lower layer is answered
 * with a FIN first. Either end gives the sequence a second to finish
 * (the close completed, or a reset); then the QP goes to error (the
 * connection reset if it still lives), its work is flushed and iw_cm
 * hears DISCONNECT and CLOSE. These are the stock driver's steps.
 *
 * The control word alone goes out: the length of the message in the
 * command is four bits wide, short of the offending headers a peer may
 * copy after it (upstream's copy is cut there).
 */
#include <kunit/visibility.h>
#include <linux/if_ether.h>
#include <linux/unaligned.h>

#include "main.h"
#include "verbs.h"

/* The Terminate control word: layer and error type, error code, flags. */
#define IRDMA_TERM_LEN			4
#define IRDMA_TERM_LAYER_RDMAP		0
#define IRDMA_TERM_LAYER_DDP		1
#define IRDMA_TERM_LAYER_MPA		2
/* Error types, by layer (RFC 5040 7.2, RFC 5041 8.2, RFC 5044 8) */
#define IRDMA_TERM_RDMAP_PROT		1	/* remote protection error */
#define IRDMA_TERM_RDMAP_OP		2	/* remote operation error */
#define IRDMA_TERM_DDP_CATASTROPHIC	0
#define IRDMA_TERM_DDP_UNTAGGED		2
#define IRDMA_TERM_MPA_LLP		3

#define IRDMA_TERM_CTRL(layer, etype)	((layer) << 4 | (etype))
#define IRDMA_TERM_RDMAP_ERR(etype)	IRDMA_TERM_CTRL(IRDMA_TERM_LAYER_RDMAP, etype)
#define IRDMA_TERM_DDP_ERR(etype)	IRDMA_TERM_CTRL(IRDMA_TERM_LAYER_DDP, etype)

/* What we read of the frame the engine took into Q2. */
#define IRDMA_TERM_FRAME_MAX		(ETH_HLEN + 60 + 60 + 24 + IRDMA_TERM_LEN)

/* How long a terminate sequence may take before the QP goes to error. */
#define IRDMA_TERM_TIMEOUT		HZ

/**
 * struct irdma_term_cause - what a TERMINATE says of an error event
 * @ae: the event (enum irdma_ae_code)
 * @ctrl: layer and error type
 * @code: the error code
 */
struct irdma_term_cause {
	u16 ae;
	u8 ctrl;
	u8 code;
};

/* By event code; the rest is an unspecified remote operation error. */
static const struct irdma_term_cause irdma_term_causes[] = {
	{ IRDMA_AE_AMP_UNALLOCATED_STAG, IRDMA_TERM_RDMAP_ERR(IRDMA_TERM_RDMAP_PROT), 0x00 },
	{ IRDMA_AE_AMP_INVALID_STAG, IRDMA_TERM_RDMAP_ERR(IRDMA_TERM_RDMAP_PROT), 0x00 },
	{ IRDMA_AE_AMP_BAD_QP, IRDMA_TERM_DDP_ERR(IRDMA_TERM_DDP_UNTAGGED), 0x01 },
	{ IRDMA_AE_AMP_BAD_PD, IRDMA_TERM_RDMAP_ERR(IRDMA_TERM_RDMAP_PROT), 0x03 },
	{ IRDMA_AE_AMP_BAD_STAG_KEY, IRDMA_TERM_RDMAP_ERR(IRDMA_TERM_RDMAP_OP), 0x00 },
	{ IRDMA_AE_AMP_BAD_STAG_INDEX, IRDMA_TERM_RDMAP_ERR(IRDMA_TERM_RDMAP_OP), 0x00 },
	{ IRDMA_AE_AMP_BOUNDS_VIOLATION, IRDMA_TERM_RDMAP_ERR(IRDMA_TERM_RDMAP_PROT), 0x01 },
	{ IRDMA_AE_AMP_RIGHTS_VIOLATION, IRDMA_TERM_RDMAP_ERR(IRDMA_TERM_RDMAP_PROT), 0x02 },
	{ IRDMA_AE_AMP_TO_WRAP, IRDMA_TERM_RDMAP_ERR(IRDMA_TERM_RDMAP_PROT), 0x04 },
	{ IRDMA_AE_AMP_INVALIDATE_NO_REMOTE_ACCESS_RIGHTS,
	  IRDMA_TERM_RDMAP_ERR(IRDMA_TERM_RDMAP_PROT), 0x02 },
	{ IRDMA_AE_PRIV_OPERATION_DENIED, IRDMA_TERM_RDMAP_ERR(IRDMA_TERM_RDMAP_PROT), 0x02 },
	{ IRDMA_AE_DDP_INVALID_MSN_GAP_IN_MSN, IRDMA_TERM_DDP_ERR(IRDMA_TERM_DDP_UNTAGGED), 0x03 },
	{ IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER,
	  IRDMA_TERM_DDP_ERR(IRDMA_TERM_DDP_UNTAGGED), 0x05 },
	{ IRDMA_AE_DDP_UBE_INVALID_DDP_VERSION, IRDMA_TERM_DDP_ERR(IRDMA_TERM_DDP_UNTAGGED), 0x06 },
	{ IRDMA_AE_DDP_UBE_INVALID_MO, IRDMA_TERM_DDP_ERR(IRDMA_TERM_DDP_UNTAGGED), 0x04 },
	{ IRDMA_AE_DDP_UBE_INVALID_MSN_NO_BUFFER_AVAILABLE,
	  IRDMA_TERM_DDP_ERR(IRDMA_TERM_DDP_UNTAGGED), 0x02 },
	{ IRDMA_AE_DDP_UBE_INVALID_QN, IRDMA_TERM_DDP_ERR(IRDMA_TERM_DDP_UNTAGGED), 0x01 },
	{ IRDMA_AE_DDP_NO_L_BIT, IRDMA_TERM_DDP_ERR(IRDMA_TERM_DDP_CATASTROPHIC), 0x00 },
	{ IRDMA_AE_RDMAP_ROE_INVALID_RDMAP_VERSION,
	  IRDMA_TERM_RDMAP_ERR(IRDMA_TERM_RDMAP_OP), 0x05 },
	{ IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR,
	  IRDMA_TERM_CTRL(IRDMA_TERM_LAYER_MPA, IRDMA_TERM_MPA_LLP), 0x02 },
	{ IRDMA_AE_LLP_SEGMENT_TOO_SMALL, IRDMA_TERM_DDP_ERR(IRDMA_TERM_DDP_CATASTROPHIC), 0x00 },
	{ IRDMA_AE_LCE_QP_CATASTROPHIC, IRDMA_TERM_DDP_ERR(IRDMA_TERM_DDP_CATASTROPHIC), 0x00 },
};

/**
 * irdma_term_ctrl - the Terminate control word an error event calls for
 * @ae: the event (enum irdma_ae_code)
 * @word: returns the word, as it goes on the wire
 */
void irdma_term_ctrl(u16 ae, u8 word[IRDMA_TERM_LEN])
{
	int i;

	word[0] = IRDMA_TERM_RDMAP_ERR(IRDMA_TERM_RDMAP_OP);
	word[1] = 0xff;		/* unspecified */
	word[2] = 0;		/* no offending header follows */
	word[3] = 0;
	for (i = 0; i < ARRAY_SIZE(irdma_term_causes); i++) {
		if (irdma_term_causes[i].ae == ae) {
			word[0] = irdma_term_causes[i].ctrl;
			word[1] = irdma_term_causes[i].code;
			break;
		}
	}
}
EXPORT_SYMBOL_IF_KUNIT(irdma_term_ctrl);

/**
 * irdma_term_check - read a TERMINATE frame the engine wrote into Q2
 * @frame: the frame, from its Ethernet header on
 * @len: the bytes of it there are
 * @ctrl: returns its Terminate control word's first byte (layer, type)
 *
 * The frame must hold an RDMAP TERMINATE: an untagged last DDP segment of
 * DDP and RDMAP version 1 on queue 2, message 1, offset 0.
 *
 * Return: 0, or the error event its fault is (to answer it with).
 */
u16 irdma_term_check(const u8 *frame, u32 len, u8 *ctrl)
{
	const u8 *p = frame + ETH_HLEN, *end = frame + len;
	u32 l3;

	if (len < ETH_HLEN + 1)
		return IRDMA_AE_LCE_QP_CATASTROPHIC;
	switch (*p >> 4) {
	case 4:
		l3 = (*p & 0xf) * 4;
		break;
	case 6:
		l3 = 40;
		break;
	default:
		return IRDMA_AE_LCE_QP_CATASTROPHIC;
	}
	p += l3;
	if (p + 13 > end)
		return IRDMA_AE_LCE_QP_CATASTROPHIC;
	p += (p[12] >> 4) * 4;			/* TCP's data offset */
	if (p + 20 + IRDMA_TERM_LEN > end)
		return IRDMA_AE_LCE_QP_CATASTROPHIC;
	/* p[0..1]: MPA's length; p[2]: DDP's control; p[3]: RDMAP's. */
	if ((p[2] & 0xc0) != 0x40)		/* untagged, last */
		return IRDMA_AE_LCE_QP_CATASTROPHIC;
	if ((p[2] & 0x3) != 1)
		return IRDMA_AE_DDP_UBE_INVALID_DDP_VERSION;
	if (get_unaligned_be32(p + 8) != 2)
		return IRDMA_AE_DDP_UBE_INVALID_QN;
	if (get_unaligned_be32(p + 12) != 1)
		return IRDMA_AE_DDP_INVALID_MSN_GAP_IN_MSN;
	if (get_unaligned_be32(p + 16))
		return IRDMA_AE_DDP_UBE_INVALID_MO;
	if ((p[3] & 0xc0) != 0x40)
		return IRDMA_AE_RDMAP_ROE_INVALID_RDMAP_VERSION;
	*ctrl = p[20];
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_term_check);

/* MODIFY_QP to TERMINATE: the message (Q2's first @len bytes), the FIN. */
static void irdma_qp_term_modify(struct irdma_qp *qp, bool msg, bool fin, u8 len)
{
	struct irdma_cqp_wqe cmd;

	irdma_build_terminate_qp(&cmd, &qp->hw, msg, fin, len);
	if (!irdma_cqp_exec(&qp->iwdev->fn, &cmd, NULL))
		qp->hw_state = IRDMA_QPS_TERMINATE;
}

/* Our FIN, from a QP the engine holds in RTS or TERMINATE (not once in error). */
static void irdma_qp_term_fin(struct irdma_qp *qp)
{
	if (qp->hw_state == IRDMA_QPS_RTS || qp->hw_state == IRDMA_QPS_TERMINATE)
		irdma_qp_term_modify(qp, false, true, 0);
}

/* A step of the sequence is due: the work takes it. */
static void irdma_qp_term_kick(struct irdma_qp *qp, unsigned long step)
{
	set_bit(step, &qp->term_pending);
	queue_work(system_wq, &qp->term_work);
}

/* Send our TERMINATE for error event @ae, and give the end a second. */
static void irdma_qp_term_send(struct irdma_qp *qp, u16 ae)
{
	lockdep_assert_held(&qp->mutex);
	if (qp->term_flags & IRDMA_TERM_SENT)
		return;
	set_bit(IRDMA_TERMW_ACTIVE, &qp->term_pending);
	WRITE_ONCE(qp->term_flags, qp->term_flags | IRDMA_TERM_SENT);
	irdma_term_ctrl(ae, qp->ctx.va);
	/* The word is in memory before the engine is told to send it. */
	dma_wmb();
	irdma_qp_term_modify(qp, true, false, IRDMA_TERM_LEN);
	mod_delayed_work(system_wq, &qp->term_timer, IRDMA_TERM_TIMEOUT);
}

/* The peer's TERMINATE came: checked, then the end or a FIN first. */
static void irdma_qp_term_taken(struct irdma_qp *qp)
{
	u8 frame[IRDMA_TERM_FRAME_MAX], ctrl = 0;
	u16 bad;

	lockdep_assert_held(&qp->mutex);
	memcpy(frame, qp->ctx.va + IRDMA_Q2_FRAME_OFFSET, sizeof(frame));
	bad = irdma_term_check(frame, sizeof(frame), &ctrl);
	if (bad) {
		ibdev_dbg(qp->ibqp.device, "QP %u: a bad TERMINATE (%#x)\n", qp->id, bad);
		irdma_qp_term_send(qp, bad);
		return;
	}
	ibdev_dbg(qp->ibqp.device, "QP %u: TERMINATE, layer/type %#x\n", qp->id, ctrl);
	if (ctrl == IRDMA_TERM_RDMAP_ERR(IRDMA_TERM_RDMAP_PROT) ||
	    ctrl == IRDMA_TERM_RDMAP_ERR(IRDMA_TERM_RDMAP_OP)) {
		set_bit(IRDMA_TERMW_DONE, &qp->term_pending);
		return;
	}
	irdma_qp_term_fin(qp);
	mod_delayed_work(system_wq, &qp->term_timer, IRDMA_TERM_TIMEOUT);
}

/*
 * The end: the QP to error (its connection reset if still open, its hash
 * entry out), its work flushed, iw_cm told. True if the consumer is yet
 * to hear of the error (the peer's TERMINATE, or our answer to a bad one).
 */
static bool irdma_qp_term_done(struct irdma_qp *qp)
{
	lockdep_assert_held(&qp->mutex);
	if (qp->term_flags & IRDMA_TERM_DONE)
		return false;
	irdma_qp_iwarp_error(qp, true, true);
	irdma_cm_qp_terminated(qp);
	return !(qp->term_flags & IRDMA_TERM_TOLD);
}

static void irdma_qp_term_work(struct work_struct *work)
{
	struct irdma_qp *qp = container_of(work, struct irdma_qp, term_work);
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = IB_EVENT_QP_FATAL,
	};
	bool tell = false;

	mutex_lock(&qp->mutex);
	if (qp->term_stopped || (qp->term_flags & IRDMA_TERM_DONE)) {
		mutex_unlock(&qp->mutex);
		return;
	}
	if (test_and_clear_bit(IRDMA_TERMW_TAKEN, &qp->term_pending))
		irdma_qp_term_taken(qp);
	if (test_and_clear_bit(IRDMA_TERMW_FIN, &qp->term_pending) &&
	    !test_bit(IRDMA_TERMW_DONE, &qp->term_pending))
		irdma_qp_term_fin(qp);
	if (test_and_clear_bit(IRDMA_TERMW_DONE, &qp->term_pending))
		tell = irdma_qp_term_done(qp);
	mutex_unlock(&qp->mutex);
	/* As the AE work does: the consumer's handler may modify the QP. */
	if (tell && qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

static void irdma_qp_term_timeout(struct work_struct *work)
{
	struct irdma_qp *qp = container_of(to_delayed_work(work), struct irdma_qp,
					   term_timer);

	irdma_qp_term_kick(qp, IRDMA_TERMW_DONE);
}

/**
 * irdma_qp_term_end - the QP goes to error: a terminate sequence under
 *	way ends (no FIN or second move to error follows)
 * @qp: the QP
 *
 * Context: @qp->mutex held.
 */
void irdma_qp_term_end(struct irdma_qp *qp)
{
	lockdep_assert_held(&qp->mutex);
	if (!test_bit(IRDMA_TERMW_ACTIVE, &qp->term_pending) ||
	    (qp->term_flags & IRDMA_TERM_DONE))
		return;
	WRITE_ONCE(qp->term_flags, qp->term_flags | IRDMA_TERM_DONE);
	cancel_delayed_work(&qp->term_timer);
}

/**
 * irdma_qp_term_init - a QP's terminate sequence, idle
 * @qp: the QP
 */
void irdma_qp_term_init(struct irdma_qp *qp)
{
	INIT_WORK(&qp->term_work, irdma_qp_term_work);
	INIT_DELAYED_WORK(&qp->term_timer, irdma_qp_term_timeout);
}

/**
 * irdma_qp_term_stop - no step of the sequence runs from now on
 * @qp: the QP, going away; nothing can find it to start a step
 *
 * Context: process context, @qp->mutex not held.
 */
void irdma_qp_term_stop(struct irdma_qp *qp)
{
	mutex_lock(&qp->mutex);
	qp->term_stopped = true;
	mutex_unlock(&qp->mutex);
	cancel_delayed_work_sync(&qp->term_timer);
	cancel_work_sync(&qp->term_work);
}

/**
 * irdma_qp_term_start - an error event of a connected iWARP QP, which the
 *	engine stopped: a TERMINATE goes to the peer
 * @qp: the QP
 * @ae: the event (enum irdma_ae_code)
 *
 * Context: @qp->mutex held; the caller tells the consumer.
 */
void irdma_qp_term_start(struct irdma_qp *qp, u16 ae)
{
	lockdep_assert_held(&qp->mutex);
	if (qp->term_stopped || (qp->term_flags & IRDMA_TERM_DONE))
		return;
	/* The AE work tells the consumer of this error. */
	WRITE_ONCE(qp->term_flags, qp->term_flags | IRDMA_TERM_TOLD);
	irdma_qp_term_send(qp, ae);
}

/**
 * irdma_qp_term_ae - an event of the terminate sequence, or one that ends
 *	it
 * @qp: the QP, held by the caller
 * @code: the event (enum irdma_ae_code)
 *
 * Context: the AEQ's thread.
 * Return: true if the sequence took the event (the connection manager
 * is not to act on it).
 */
bool irdma_qp_term_ae(struct irdma_qp *qp, u16 code)
{
	bool active = test_bit(IRDMA_TERMW_ACTIVE, &qp->term_pending);

	switch (code) {
	case IRDMA_AE_TERMINATE_SENT:
		irdma_qp_term_kick(qp, IRDMA_TERMW_FIN);
		return true;
	case IRDMA_AE_LLP_TERMINATE_RECEIVED:
		set_bit(IRDMA_TERMW_ACTIVE, &qp->term_pending);
		irdma_qp_term_kick(qp, IRDMA_TERMW_TAKEN);
		return true;
	case IRDMA_AE_LLP_FIN_RECEIVED:
	case IRDMA_AE_RDMAP_ROE_BAD_LLP_CLOSE:
		/* The peer's FIN after a TERMINATE: the close completes. */
		return active;
	case IRDMA_AE_LLP_CLOSE_COMPLETE:
	case IRDMA_AE_LLP_CONNECTION_RESET:
		if (active)
			irdma_qp_term_kick(qp, IRDMA_TERMW_DONE);
		return active;
	default:
		return false;
	}
}
EXPORT_SYMBOL_IF_KUNIT(irdma_qp_term_ae);
