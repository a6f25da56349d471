// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What an asynchronous event is about. An AEQE names an object by number
 * and carries a code and a source; the code decides first, as the stock
 * driver decides: a QP's fatal codes are the QP's whatever the source
 * says (silicon reports some with a reserved source), a few codes only
 * inform, and a CQ's error names a CQ. A code this table does not know,
 * or knows only for its flush code (key and window faults: silicon gives
 * them the side of the QP they hit), is the QP's when the source names a
 * side of a QP (the odd sources: RQ, SQ, inbound and outbound read), a
 * CQ's error when it is a CQ operation error, and nothing otherwise.
 *
 * For a QP's error the same table says what its work completes with (the
 * flush code) and what its consumer hears (access, request or fatal
 * error), in upstream's classes: key and protection faults are
 * protection errors, the consumer's own bad window bindings bind errors,
 * lengths length errors, and so on; the rest general.
 */
#include <kunit/visibility.h>
#include <linux/bsearch.h>

#include "verbs.h"

/* A code whose target its source gives (its entry is for its flush code). */
#define IRDMA_AE_BY_SOURCE	0xff

struct irdma_ae_kind {
	u16 code;
	u8 target;
	u8 flush;
	u8 event;
};

/*
 * Sorted by code: the event's target, and for a QP's error the flush code
 * its work completes with and the event its consumer gets (default: a
 * general flush and a fatal event).
 */
static const struct irdma_ae_kind irdma_ae_kinds[] = {
	{ IRDMA_AE_AMP_UNALLOCATED_STAG, IRDMA_AE_BY_SOURCE,
	  IRDMA_FLUSH_PROT_ERR, IB_EVENT_QP_ACCESS_ERR },
	{ IRDMA_AE_AMP_INVALID_STAG, IRDMA_AE_BY_SOURCE,
	  IRDMA_FLUSH_PROT_ERR, IB_EVENT_QP_ACCESS_ERR },
	{ IRDMA_AE_AMP_BAD_QP, IRDMA_AE_BY_SOURCE,
	  IRDMA_FLUSH_PROT_ERR, IB_EVENT_QP_ACCESS_ERR },
	{ IRDMA_AE_AMP_BAD_PD, IRDMA_AE_BY_SOURCE,
	  IRDMA_FLUSH_PROT_ERR, IB_EVENT_QP_ACCESS_ERR },
	{ IRDMA_AE_AMP_BAD_STAG_KEY, IRDMA_AE_BY_SOURCE,
	  IRDMA_FLUSH_PROT_ERR, IB_EVENT_QP_ACCESS_ERR },
	{ IRDMA_AE_AMP_BAD_STAG_INDEX, IRDMA_AE_BY_SOURCE,
	  IRDMA_FLUSH_PROT_ERR, IB_EVENT_QP_ACCESS_ERR },
	{ IRDMA_AE_AMP_BOUNDS_VIOLATION, IRDMA_AE_BY_SOURCE,
	  IRDMA_FLUSH_PROT_ERR, IB_EVENT_QP_ACCESS_ERR },
	{ IRDMA_AE_AMP_RIGHTS_VIOLATION, IRDMA_AE_BY_SOURCE,
	  IRDMA_FLUSH_PROT_ERR, IB_EVENT_QP_ACCESS_ERR },
	{ IRDMA_AE_AMP_TO_WRAP, IRDMA_AE_BY_SOURCE,
	  IRDMA_FLUSH_PROT_ERR, IB_EVENT_QP_ACCESS_ERR },
	{ IRDMA_AE_AMP_INVALIDATE_SHARED, IRDMA_AE_BY_SOURCE },
	{ IRDMA_AE_AMP_INVALIDATE_NO_REMOTE_ACCESS_RIGHTS, IRDMA_AE_BY_SOURCE,
	  IRDMA_FLUSH_REM_ACCESS_ERR, IB_EVENT_QP_ACCESS_ERR },
	{ IRDMA_AE_AMP_INVALIDATE_MR_WITH_BOUND_WINDOWS, IRDMA_AE_BY_SOURCE },
	{ IRDMA_AE_AMP_MWBIND_VALID_STAG, IRDMA_AE_BY_SOURCE,
	  IRDMA_FLUSH_MW_BIND_ERR, IB_EVENT_QP_ACCESS_ERR },
	{ IRDMA_AE_AMP_MWBIND_OF_MR_STAG, IRDMA_AE_BY_SOURCE },
	{ IRDMA_AE_AMP_MWBIND_TO_ZERO_BASED_STAG, IRDMA_AE_BY_SOURCE },
	{ IRDMA_AE_AMP_MWBIND_TO_MW_STAG, IRDMA_AE_BY_SOURCE },
	{ IRDMA_AE_AMP_MWBIND_INVALID_RIGHTS, IRDMA_AE_BY_SOURCE,
	  IRDMA_FLUSH_MW_BIND_ERR, IB_EVENT_QP_ACCESS_ERR },
	{ IRDMA_AE_AMP_MWBIND_INVALID_BOUNDS, IRDMA_AE_BY_SOURCE,
	  IRDMA_FLUSH_MW_BIND_ERR, IB_EVENT_QP_ACCESS_ERR },
	{ IRDMA_AE_AMP_MWBIND_TO_INVALID_PARENT, IRDMA_AE_BY_SOURCE },
	{ IRDMA_AE_AMP_MWBIND_BIND_DISABLED, IRDMA_AE_BY_SOURCE,
	  IRDMA_FLUSH_MW_BIND_ERR, IB_EVENT_QP_ACCESS_ERR },
	{ IRDMA_AE_PRIV_OPERATION_DENIED, IRDMA_AE_QP_ERROR,
	  IRDMA_FLUSH_PROT_ERR, IB_EVENT_QP_ACCESS_ERR },
	{ IRDMA_AE_AMP_INVALIDATE_TYPE1_MW, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_AMP_MWBIND_ZERO_BASED_TYPE1_MW, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_AMP_FASTREG_INVALID_PBL_HPS_CFG, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_AMP_MWBIND_WRONG_TYPE, IRDMA_AE_BY_SOURCE },
	{ IRDMA_AE_AMP_FASTREG_PBLE_MISMATCH, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_UDA_XMIT_DGRAM_TOO_LONG, IRDMA_AE_QP_ERROR,
	  IRDMA_FLUSH_LOC_LEN_ERR },
	{ IRDMA_AE_UDA_XMIT_BAD_PD, IRDMA_AE_QP_ERROR,
	  IRDMA_FLUSH_LOC_QP_OP_ERR },
	{ IRDMA_AE_UDA_XMIT_DGRAM_TOO_SHORT, IRDMA_AE_QP_ERROR,
	  IRDMA_FLUSH_LOC_LEN_ERR },
	{ IRDMA_AE_UDA_L4LEN_INVALID, IRDMA_AE_QP_ERROR,
	  IRDMA_FLUSH_LOC_LEN_ERR },
	{ IRDMA_AE_BAD_CLOSE, IRDMA_AE_QP_ERROR },
	/* iWARP's connection events are its connection manager's. */
	{ IRDMA_AE_RDMAP_ROE_BAD_LLP_CLOSE, IRDMA_AE_QP_NOTE },
	{ IRDMA_AE_RDMA_READ_WHILE_ORD_ZERO, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_STAG_ZERO_INVALID, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_IB_RREQ_AND_Q1_FULL, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_IB_INVALID_REQUEST, IRDMA_AE_QP_ERROR,
	  IRDMA_FLUSH_REM_INV_REQ_ERR, IB_EVENT_QP_REQ_ERR },
	{ IRDMA_AE_SRQ_LIMIT, IRDMA_AE_SRQ_EVENT },
	{ IRDMA_AE_WQE_UNEXPECTED_OPCODE, IRDMA_AE_QP_ERROR,
	  IRDMA_FLUSH_LOC_QP_OP_ERR },
	{ IRDMA_AE_IB_REMOTE_ACCESS_ERROR, IRDMA_AE_QP_ERROR,
	  IRDMA_FLUSH_REM_ACCESS_ERR, IB_EVENT_QP_ACCESS_ERR },
	{ IRDMA_AE_IB_REMOTE_OP_ERROR, IRDMA_AE_QP_ERROR,
	  IRDMA_FLUSH_REM_OP_ERR },
	{ IRDMA_AE_WQE_LSMM_TOO_LONG, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER, IRDMA_AE_BY_SOURCE,
	  IRDMA_FLUSH_LOC_LEN_ERR },
	{ IRDMA_AE_DDP_UBE_INVALID_DDP_VERSION, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_DDP_UBE_INVALID_MO, IRDMA_AE_QP_ERROR,
	  IRDMA_FLUSH_LOC_LEN_ERR },
	{ IRDMA_AE_DDP_UBE_INVALID_MSN_NO_BUFFER_AVAILABLE, IRDMA_AE_QP_ERROR,
	  IRDMA_FLUSH_GENERAL_ERR },
	{ IRDMA_AE_DDP_UBE_INVALID_QN, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_DDP_NO_L_BIT, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_RDMAP_ROE_INVALID_RDMAP_VERSION, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_RDMAP_ROE_UNEXPECTED_OPCODE, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_ROE_INVALID_RDMA_READ_REQUEST, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_ROE_INVALID_RDMA_WRITE_OR_READ_RESP, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_ROCE_RSP_LENGTH_ERROR, IRDMA_AE_QP_ERROR,
	  IRDMA_FLUSH_REM_OP_ERR },
	{ IRDMA_AE_ROCE_EMPTY_MCG, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_ROCE_BAD_MC_IP_ADDR, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_ROCE_BAD_MC_QPID, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_MCG_QP_PROTOCOL_MISMATCH, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_INVALID_ARP_ENTRY, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_INVALID_TCP_OPTION_RCVD, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_STALE_ARP_ENTRY, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_INVALID_AH_ENTRY, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_LLP_CLOSE_COMPLETE, IRDMA_AE_QP_NOTE },
	{ IRDMA_AE_LLP_CONNECTION_RESET, IRDMA_AE_QP_NOTE },
	{ IRDMA_AE_LLP_FIN_RECEIVED, IRDMA_AE_QP_NOTE },
	{ IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR, IRDMA_AE_QP_ERROR,
	  IRDMA_FLUSH_REM_OP_ERR },
	{ IRDMA_AE_LLP_SEGMENT_TOO_SMALL, IRDMA_AE_QP_ERROR,
	  IRDMA_FLUSH_REM_OP_ERR },
	{ IRDMA_AE_LLP_SYN_RECEIVED, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_LLP_TERMINATE_RECEIVED, IRDMA_AE_QP_NOTE },
	{ IRDMA_AE_LLP_TOO_MANY_RETRIES, IRDMA_AE_QP_ERROR,
	  IRDMA_FLUSH_RETRY_EXC_ERR },
	/* Informational: the QP goes on. */
	{ IRDMA_AE_LLP_DOUBT_REACHABILITY, IRDMA_AE_QP_NOTE },
	{ IRDMA_AE_LLP_CONNECTION_ESTABLISHED, IRDMA_AE_QP_NOTE },
	{ IRDMA_AE_RESOURCE_EXHAUSTION, IRDMA_AE_QP_NOTE },
	{ IRDMA_AE_RESET_SENT, IRDMA_AE_QP_ERROR },
	{ IRDMA_AE_TERMINATE_SENT, IRDMA_AE_QP_NOTE },
	{ IRDMA_AE_RESET_NOT_SENT, IRDMA_AE_QP_NOTE },
	{ IRDMA_AE_LCE_QP_CATASTROPHIC, IRDMA_AE_QP_ERROR,
	  IRDMA_FLUSH_FATAL_ERR },
	/*
	 * The stock driver drops a CQ's catastrophic error; its consumer
	 * is told here, as of a CQ operation error.
	 */
	{ IRDMA_AE_LCE_CQ_CATASTROPHIC, IRDMA_AE_CQ_ERROR },
	{ IRDMA_AE_QP_SUSPEND_COMPLETE, IRDMA_AE_QP_NOTE },
};

static int irdma_ae_kind_cmp(const void *key, const void *elt)
{
	const struct irdma_ae_kind *k = elt;

	return (int)*(const u16 *)key - (int)k->code;
}

/**
 * irdma_ae_target - what an asynchronous event is about
 * @code: the AEQE's code (enum irdma_ae_code)
 * @source: its source field (IRDMA_AE_SOURCE_*)
 *
 * Return: enum irdma_ae_target: an error of the QP the AEQE names, a note
 * about it, an error of a CQ, an SRQ's event, or nothing for the driver.
 */
enum irdma_ae_target irdma_ae_target(u16 code, u8 source)
{
	const struct irdma_ae_kind *k;

	k = bsearch(&code, irdma_ae_kinds, ARRAY_SIZE(irdma_ae_kinds),
		    sizeof(*k), irdma_ae_kind_cmp);
	if (k && k->target != IRDMA_AE_BY_SOURCE)
		return k->target;
	if (source & 1)
		return IRDMA_AE_QP_ERROR;
	if (code == IRDMA_AE_CQ_OPERATION_ERROR)
		return IRDMA_AE_CQ_ERROR;
	return IRDMA_AE_NOTHING;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_ae_target);

/**
 * irdma_ae_terminates - an iWARP QP's error event ends its connection with
 *	a TERMINATE
 * @iw_state: the QP's state the event reports (enum irdma_qp_hw_state)
 * @tcp_state: its connection's
 *
 * As the stock driver's: a QP the engine left in RTS, or stopped in
 * TERMINATE, sends one. Here the connection must be open too: with none
 * there is nothing to carry it, and the QP goes to error at once.
 *
 * Return: true if the QP terminates.
 */
bool irdma_ae_terminates(u8 iw_state, u8 tcp_state)
{
	return (iw_state == IRDMA_QPS_RTS || iw_state == IRDMA_QPS_TERMINATE) &&
	       (tcp_state == IRDMA_TCP_STATE_ESTABLISHED ||
		tcp_state == IRDMA_TCP_STATE_CLOSE_WAIT);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_ae_terminates);

/**
 * irdma_ae_qp_error - how a QP's error event completes its work and what
 * its consumer is told, as upstream classes the codes
 * @code: the AEQE's code (enum irdma_ae_code)
 * @flush: returns the flush code (enum irdma_flush_opcode)
 * @event: returns the ib_core event
 */
void irdma_ae_qp_error(u16 code, u16 *flush, enum ib_event_type *event)
{
	const struct irdma_ae_kind *k;

	k = bsearch(&code, irdma_ae_kinds, ARRAY_SIZE(irdma_ae_kinds),
		    sizeof(*k), irdma_ae_kind_cmp);
	*flush = k && k->flush ? k->flush : IRDMA_FLUSH_GENERAL_ERR;
	*event = k && k->event ? k->event : IB_EVENT_QP_FATAL;
}
