// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The iWARP connection manager's entry points.
 *
 * ib_core's iw_cm calls every iw_* op of an RDMA_NODE_RNIC device
 * without checking that it exists, so an iWARP function must have them
 * all. Connections are the connection manager's (cm.c); finding the QP a
 * connection is for and holding it are here.
 */

#include <rdma/iw_cm.h>

#include "main.h"
#include "verbs.h"

/*
 * iw_cm looks the QP up with iw_get_qp() and, whenever it finds one,
 * holds it at once with iw_add_ref(), both under its own lock. Taking the
 * reference in the lookup, while the QP table's lock proves the QP is not
 * being destroyed, leaves no window in which destroy could drop the last
 * reference between the two; iw_add_ref() then has nothing left to do.
 */
static struct ib_qp *irdma_iw_get_qp(struct ib_device *ibdev, int qpn)
{
	struct irdma_qp *qp;

	if (qpn < 0)
		return NULL;
	qp = irdma_qp_get_live(&to_iwdev(ibdev)->fn, qpn);
	return qp ? &qp->ibqp : NULL;
}

static void irdma_iw_add_ref(struct ib_qp *ibqp)
{
}

static void irdma_iw_rem_ref(struct ib_qp *ibqp)
{
	irdma_qp_put(container_of(ibqp, struct irdma_qp, ibqp));
}

static int irdma_iw_connect(struct iw_cm_id *cm_id,
			    struct iw_cm_conn_param *conn_param)
{
	return irdma_cm_connect(cm_id, conn_param);
}

static int irdma_iw_accept(struct iw_cm_id *cm_id,
			   struct iw_cm_conn_param *conn_param)
{
	return irdma_cm_accept(cm_id, conn_param);
}

static int irdma_iw_reject(struct iw_cm_id *cm_id, const void *pdata,
			   u8 pdata_len)
{
	return irdma_cm_reject(cm_id, pdata, pdata_len);
}

static int irdma_iw_create_listen(struct iw_cm_id *cm_id, int backlog)
{
	return irdma_cm_listen(cm_id, backlog);
}

static int irdma_iw_destroy_listen(struct iw_cm_id *cm_id)
{
	return irdma_cm_unlisten(cm_id);
}

static const struct ib_device_ops irdma_iw_cm_ops = {
	.iw_get_qp = irdma_iw_get_qp,
	.iw_add_ref = irdma_iw_add_ref,
	.iw_rem_ref = irdma_iw_rem_ref,
	.iw_connect = irdma_iw_connect,
	.iw_accept = irdma_iw_accept,
	.iw_reject = irdma_iw_reject,
	.iw_create_listen = irdma_iw_create_listen,
	.iw_destroy_listen = irdma_iw_destroy_listen,
};

/**
 * irdma_set_iw_cm_ops - give an iWARP device the iw_cm entry points
 * @ibdev: the device, before it is registered
 */
void irdma_set_iw_cm_ops(struct ib_device *ibdev)
{
	ib_set_device_ops(ibdev, &irdma_iw_cm_ops);
}
