// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The transmit scheduler's tree: a root, a node for the function's VSI,
 * and under it a leaf for each traffic class some QP sends in. A leaf is
 * a queue set: WORK_SCHED_NODE gives it a handle that QP contexts name,
 * and the LAN driver attaches it to the port's scheduler in its class;
 * until then the engine transmits nothing through it. A QP's class is
 * the one the port maps its user priority to.
 *
 * When the port's classes change (DCB), the LAN driver says so before and
 * after. Before: every QP on the tree is suspended (SUSPEND_QP, each
 * reported by an asynchronous event), then the tree is taken down. After:
 * the tree is built again for the new classes and every QP resumed on
 * its class's new queue set (RESUME_QP); one that cannot be is failed.
 */
#include "verbs.h"

#define IRDMA_WS_ROOT		0
#define IRDMA_WS_VSI_NODE	1
#define IRDMA_WS_SUSPEND_MS	5000

static int irdma_ws_cmd(struct irdma_fn *fn, u8 op, u16 id, int tc,
			bool enable, struct irdma_cqp_compl *compl)
{
	struct irdma_ws_node node = {
		.id = id,
		.parent = id == IRDMA_WS_ROOT ? IRDMA_WS_ROOT :
			  tc < 0 ? IRDMA_WS_ROOT : IRDMA_WS_VSI_NODE,
		.vsi = fn->res.vsi_num,
		.tc = tc < 0 ? 0 : tc,
		/* A leaf's share is its class's; inner nodes share alike. */
		.weight = tc >= 0 && fn->qos.rel_bw[tc] ? fn->qos.rel_bw[tc] : 1,
		.leaf = tc >= 0,
		.enable = enable,
	};
	struct irdma_cqp_wqe cmd;

	irdma_build_ws_node(&cmd, op, &node);
	return irdma_cqp_exec(fn, &cmd, compl);
}

/* Root and VSI node, enabled from the start as the stock driver's. */
static int irdma_ws_tree_add(struct irdma_fn *fn)
{
	int err;

	err = irdma_ws_cmd(fn, IRDMA_WS_OP_ADD, IRDMA_WS_ROOT, -1, true, NULL);
	if (err)
		return err;
	err = irdma_ws_cmd(fn, IRDMA_WS_OP_ADD, IRDMA_WS_VSI_NODE, -1, true, NULL);
	if (err) {
		irdma_ws_cmd(fn, IRDMA_WS_OP_DELETE, IRDMA_WS_ROOT, -1, true, NULL);
		return err;
	}
	__set_bit(IRDMA_WS_ROOT, fn->ws.nodes);
	__set_bit(IRDMA_WS_VSI_NODE, fn->ws.nodes);
	return 0;
}

static void irdma_ws_tree_del(struct irdma_fn *fn)
{
	irdma_ws_cmd(fn, IRDMA_WS_OP_DELETE, IRDMA_WS_VSI_NODE, -1, true, NULL);
	irdma_ws_cmd(fn, IRDMA_WS_OP_DELETE, IRDMA_WS_ROOT, -1, true, NULL);
	__clear_bit(IRDMA_WS_VSI_NODE, fn->ws.nodes);
	__clear_bit(IRDMA_WS_ROOT, fn->ws.nodes);
}

/*
 * A class's leaf: made disabled, its queue set attached by the LAN
 * driver, then enabled; undone in reverse on failure.
 */
static int irdma_ws_leaf_add(struct irdma_fn *fn, u8 tc)
{
	const struct irdma_fn_ops *ops = fn->res.ops;
	struct irdma_ws_leaf *leaf = &fn->ws.leaf[tc];
	struct irdma_cqp_compl compl;
	int err;

	/* Node ids are handed out lowest first, as the stock driver's. */
	leaf->node = find_first_zero_bit(fn->ws.nodes, IRDMA_WS_MAX_NODES);
	if (leaf->node >= IRDMA_WS_MAX_NODES)
		return -ENOSPC;
	err = irdma_ws_cmd(fn, IRDMA_WS_OP_ADD, leaf->node, tc, false, &compl);
	if (err)
		return err;
	leaf->qs_handle = compl.ret_val;
	leaf->teid = 0;
	if (ops->add_qset)
		err = ops->add_qset(fn, tc, leaf->qs_handle, &leaf->teid);
	if (!err) {
		err = irdma_ws_cmd(fn, IRDMA_WS_OP_MODIFY, leaf->node, tc, true, NULL);
		if (err && ops->del_qset)
			ops->del_qset(fn, tc, leaf->qs_handle, leaf->teid);
	}
	if (err) {
		irdma_ws_cmd(fn, IRDMA_WS_OP_DELETE, leaf->node, tc, false, NULL);
		return err;
	}
	__set_bit(leaf->node, fn->ws.nodes);
	return 0;
}

/* The leaf goes, then its queue set. */
static void irdma_ws_leaf_del(struct irdma_fn *fn, u8 tc)
{
	const struct irdma_fn_ops *ops = fn->res.ops;
	struct irdma_ws_leaf *leaf = &fn->ws.leaf[tc];

	irdma_ws_cmd(fn, IRDMA_WS_OP_DELETE, leaf->node, tc, true, NULL);
	if (ops->del_qset)
		ops->del_qset(fn, tc, leaf->qs_handle, leaf->teid);
	__clear_bit(leaf->node, fn->ws.nodes);
	leaf->teid = 0;
}

/* Under the lock: one more user of @tc's leaf, made as needed. */
static int irdma_ws_leaf_get(struct irdma_fn *fn, u8 tc)
{
	struct irdma_ws *ws = &fn->ws;
	int err;

	lockdep_assert_held(&fn->ws.lock);
	if (!ws->users) {
		err = irdma_ws_tree_add(fn);
		if (err)
			return err;
	}
	if (!ws->leaf[tc].users) {
		err = irdma_ws_leaf_add(fn, tc);
		if (err) {
			if (!ws->users)
				irdma_ws_tree_del(fn);
			return err;
		}
	}
	ws->leaf[tc].users++;
	ws->users++;
	return 0;
}

static void irdma_ws_leaf_put(struct irdma_fn *fn, u8 tc)
{
	struct irdma_ws *ws = &fn->ws;

	if (!--ws->leaf[tc].users)
		irdma_ws_leaf_del(fn, tc);
	if (!--ws->users)
		irdma_ws_tree_del(fn);
}

static u8 irdma_ws_tc_of(struct irdma_fn *fn, u8 user_pri)
{
	return fn->qos.up2tc[user_pri & (IRDMA_MAX_UPS - 1)] & (IRDMA_MAX_UPS - 1);
}

/**
 * irdma_ws_qs_handle - the queue set a priority's packets go to now
 * @fn: the function
 * @user_pri: the priority
 *
 * A new QP's context names it, as the stock driver's does, before the QP
 * joins the tree; 0 while the class has no leaf.
 *
 * Return: the queue set handle, or 0.
 */
u16 irdma_ws_qs_handle(struct irdma_fn *fn, u8 user_pri)
{
	struct irdma_ws *ws = &fn->ws;
	u16 handle = 0;
	u8 tc;

	mutex_lock(&ws->lock);
	tc = irdma_ws_tc_of(fn, user_pri);
	if (ws->leaf[tc].users)
		handle = ws->leaf[tc].qs_handle;
	mutex_unlock(&ws->lock);
	return handle;
}

/**
 * irdma_ws_qp_join - send a QP's packets of a user priority through its
 *	traffic class's queue set
 * @qp: the QP; its context takes the queue set at its next modify
 * @user_pri: the priority
 *
 * The class's leaf (and the tree) are made with their first QP; a QP
 * that changes class leaves its old one.
 *
 * Return: 0, -EBUSY while the port's classes are changing, or the error
 * of a scheduler command or of the LAN driver.
 */
int irdma_ws_qp_join(struct irdma_qp *qp, u8 user_pri)
{
	struct irdma_fn *fn = &qp->iwdev->fn;
	struct irdma_ws *ws = &fn->ws;
	int err = 0;
	u8 tc;

	mutex_lock(&ws->lock);
	if (ws->tc_change_pending) {
		err = -EBUSY;
		goto out;
	}
	tc = irdma_ws_tc_of(fn, user_pri);
	if (!qp->ws_joined || qp->ws_tc != tc) {
		err = irdma_ws_leaf_get(fn, tc);
		if (err)
			goto out;
		if (qp->ws_joined)
			irdma_ws_leaf_put(fn, qp->ws_tc);
		else
			list_add_tail(&qp->ws_entry, &ws->qps);
		qp->ws_joined = true;
		qp->ws_tc = tc;
		qp->hw.qs_handle = ws->leaf[tc].qs_handle;
	}
	qp->user_pri = user_pri;
out:
	mutex_unlock(&ws->lock);
	return err;
}

/**
 * irdma_ws_puda_join - a PUDA queue sends through priority 0's queue set
 * @fn: the function
 * @q: the queue; its @qs_handle is set
 *
 * Return: 0, -EBUSY while the port's classes are changing, or the error
 * of a scheduler command or of the LAN driver.
 */
int irdma_ws_puda_join(struct irdma_fn *fn, struct irdma_puda *q)
{
	struct irdma_ws *ws = &fn->ws;
	u8 tc;
	int err;

	if (q->id < 1 || q->id > IRDMA_PUDA_QUEUES)
		return -EINVAL;
	mutex_lock(&ws->lock);
	if (ws->tc_change_pending) {
		err = -EBUSY;
		goto out;
	}
	tc = irdma_ws_tc_of(fn, 0);
	err = irdma_ws_leaf_get(fn, tc);
	if (err)
		goto out;
	ws->puda_tc = tc;
	ws->puda[q->id - 1] = q;
	q->qs_handle = ws->leaf[tc].qs_handle;
	q->ws_joined = true;
out:
	mutex_unlock(&ws->lock);
	return err;
}

/**
 * irdma_ws_puda_leave - a PUDA queue leaves the tree
 * @fn: the function
 * @q: the queue; a no-op if it never joined
 */
void irdma_ws_puda_leave(struct irdma_fn *fn, struct irdma_puda *q)
{
	struct irdma_ws *ws = &fn->ws;

	mutex_lock(&ws->lock);
	if (q->ws_joined) {
		ws->puda[q->id - 1] = NULL;
		if (!ws->tc_change_pending)
			irdma_ws_leaf_put(fn, ws->puda_tc);
		q->ws_joined = false;
	}
	mutex_unlock(&ws->lock);
}

/**
 * irdma_ws_qp_leave - a QP gone from the hardware leaves the tree
 * @qp: the QP; a no-op if it never joined
 *
 * The last QP of a class takes its leaf with it, the last of all the
 * tree.
 */
void irdma_ws_qp_leave(struct irdma_qp *qp)
{
	struct irdma_ws *ws = &qp->iwdev->fn.ws;

	mutex_lock(&ws->lock);
	if (qp->ws_joined) {
		list_del(&qp->ws_entry);
		/* While the classes change the tree is down, and counts none. */
		if (!ws->tc_change_pending)
			irdma_ws_leaf_put(&qp->iwdev->fn, qp->ws_tc);
		qp->ws_joined = false;
	}
	mutex_unlock(&ws->lock);
}

/**
 * irdma_ws_suspended - the hardware reported a QP's suspension
 * @fn: the function
 *
 * Counted only while the port's classes change; the waiter wakes at the
 * last.
 */
void irdma_ws_suspended(struct irdma_fn *fn)
{
	struct irdma_ws *ws = &fn->ws;

	if (READ_ONCE(ws->tc_change_pending) &&
	    atomic_dec_if_positive(&ws->suspend_reqs) == 0)
		wake_up(&ws->suspend_wq);
}

/* Under the lock: SUSPEND_QP, its report counted first (it may come first). */
static void irdma_ws_suspend(struct irdma_fn *fn, u32 qp_id)
{
	struct irdma_cqp_wqe cmd;

	atomic_inc(&fn->ws.suspend_reqs);
	irdma_build_suspend_qp(&cmd, qp_id);
	if (irdma_cqp_exec(fn, &cmd, NULL))
		irdma_ws_suspended(fn);
}

/*
 * Under the lock, the classes changed: the PUDA queues resume on
 * priority 0's new queue set (as they were, if it could not be made: the
 * hardware then sends nothing of theirs, as for a QP left off the tree).
 */
static void irdma_ws_puda_resume(struct irdma_fn *fn)
{
	struct irdma_ws *ws = &fn->ws;
	u8 tc = irdma_ws_tc_of(fn, 0);
	struct irdma_cqp_wqe cmd;
	struct irdma_puda *q;
	int i, err;

	ws->puda_tc = tc;
	for (i = 0; i < IRDMA_PUDA_QUEUES; i++) {
		q = ws->puda[i];
		if (!q)
			continue;
		err = irdma_ws_leaf_get(fn, tc);
		if (!err) {
			q->qs_handle = ws->leaf[tc].qs_handle;
			q->hw.qs_handle = q->qs_handle;
		}
		irdma_build_resume_qp(&cmd, q->id, q->qs_handle);
		irdma_cqp_exec(fn, &cmd, NULL);
		if (err) {
			ws->puda[i] = NULL;
			q->ws_joined = false;
		}
	}
}

/**
 * irdma_ws_tc_before - the port's traffic classes are about to change
 * @fn: the function
 *
 * Every QP on the tree is suspended; the hardware's reports are waited
 * for (five seconds at most, as the stock driver waits), then the tree is
 * taken down. Until irdma_ws_tc_after() no QP joins. A second call while
 * a change is pending does nothing.
 */
void irdma_ws_tc_before(struct irdma_fn *fn)
{
	struct irdma_ws *ws = &fn->ws;
	struct irdma_qp *qp;
	int i;
	u8 tc;

	mutex_lock(&ws->lock);
	if (ws->tc_change_pending) {
		mutex_unlock(&ws->lock);
		return;
	}
	atomic_set(&ws->suspend_reqs, 0);
	WRITE_ONCE(ws->tc_change_pending, true);
	list_for_each_entry(qp, &ws->qps, ws_entry)
		irdma_ws_suspend(fn, qp->id);
	for (i = 0; i < IRDMA_PUDA_QUEUES; i++)
		if (ws->puda[i])
			irdma_ws_suspend(fn, ws->puda[i]->id);
	mutex_unlock(&ws->lock);

	if (!wait_event_timeout(ws->suspend_wq, !atomic_read(&ws->suspend_reqs),
				msecs_to_jiffies(IRDMA_WS_SUSPEND_MS)))
		dev_warn(fn->res.dev, "%d QPs did not report their suspension\n",
			 atomic_read(&ws->suspend_reqs));

	mutex_lock(&ws->lock);
	for (tc = 0; tc < IRDMA_MAX_UPS; tc++) {
		if (ws->leaf[tc].users)
			irdma_ws_leaf_del(fn, tc);
		ws->leaf[tc].users = 0;
	}
	if (ws->users)
		irdma_ws_tree_del(fn);
	ws->users = 0;
	mutex_unlock(&ws->lock);
}

/**
 * irdma_ws_tc_after - the port's traffic classes changed
 * @fn: the function
 *
 * The new classes are loaded, the tree is built for them and every QP
 * resumed on its class's new queue set. A QP whose queue set could not
 * be made is resumed as it was and leaves the tree, for the caller to
 * fail. Nothing happens unless irdma_ws_tc_before() came first.
 *
 * Return: true if some QP left the tree so.
 */
bool irdma_ws_tc_after(struct irdma_fn *fn)
{
	struct irdma_ws *ws = &fn->ws;
	struct irdma_qp *qp, *next;
	struct irdma_cqp_wqe cmd;
	bool left = false;
	int err;
	u8 tc;

	mutex_lock(&ws->lock);
	if (!ws->tc_change_pending) {
		mutex_unlock(&ws->lock);
		return false;
	}
	irdma_fn_load_qos(fn);
	WRITE_ONCE(ws->tc_change_pending, false);
	list_for_each_entry_safe(qp, next, &ws->qps, ws_entry) {
		tc = irdma_ws_tc_of(fn, qp->user_pri);
		err = irdma_ws_leaf_get(fn, tc);
		if (!err) {
			qp->ws_tc = tc;
			qp->hw.qs_handle = ws->leaf[tc].qs_handle;
		}
		irdma_build_resume_qp(&cmd, qp->id, qp->hw.qs_handle);
		irdma_cqp_exec(fn, &cmd, NULL);
		if (err) {
			list_del(&qp->ws_entry);
			WRITE_ONCE(qp->ws_joined, false);
			left = true;
		}
	}
	irdma_ws_puda_resume(fn);
	mutex_unlock(&ws->lock);
	return left;
}

/**
 * irdma_fn_load_qos - the port's traffic classes, from the LAN driver
 * @fn: the function
 *
 * Without the LAN driver's word (X722): one class with no share to weigh.
 */
void irdma_fn_load_qos(struct irdma_fn *fn)
{
	struct irdma_qos *qos = &fn->qos;

	memset(qos, 0, sizeof(*qos));
	if (fn->res.ops->get_qos)
		fn->res.ops->get_qos(fn, qos);
	if (!qos->num_tc)
		qos->num_tc = 1;
}

/**
 * irdma_ws_init - an empty tree
 * @fn: the function
 */
void irdma_ws_init(struct irdma_fn *fn)
{
	mutex_init(&fn->ws.lock);
	INIT_LIST_HEAD(&fn->ws.qps);
	init_waitqueue_head(&fn->ws.suspend_wq);
}

/**
 * irdma_ws_fini - the tree's lock goes (every QP left already)
 * @fn: the function
 */
void irdma_ws_fini(struct irdma_fn *fn)
{
	mutex_destroy(&fn->ws.lock);
}
