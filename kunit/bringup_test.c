// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of bring-up and teardown against the simulator (both built
 * in): a function comes up as the hardware says it should, and a CQP
 * command failing at any step of bring-up leaves nothing behind.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/stop_machine.h>

#ifdef CONFIG_X86
#include <asm/debugreg.h>
#endif

#include "../verbs.h"
#include "../sim/irdma_sim.h"
#include "../sim/sim.h"

#define TEST_FN_ID	20

static struct irdma_fn *irdma_test_bound_fn(struct auxiliary_device *adev)
{
	return adev->dev.driver ? auxiliary_get_drvdata(adev) : NULL;
}

static void irdma_bringup_teardown_test(struct kunit *test)
{
	int blocks = irdma_dma_outstanding();
	struct auxiliary_device *adev;
	unsigned int aeq_irq, ceq_irq;
	struct irdma_fn *fn;

	KUNIT_ASSERT_EQ(test, irdma_sim_add(TEST_FN_ID, true), 0);
	adev = irdma_sim_adev(TEST_FN_ID);
	KUNIT_ASSERT_NOT_NULL(test, adev);
	fn = irdma_test_bound_fn(adev);
	KUNIT_ASSERT_NOT_NULL(test, fn);

	KUNIT_EXPECT_EQ(test, fn->step, IRDMA_STEP_DONE);
	KUNIT_EXPECT_EQ(test, fn->fw_major, 1);
	KUNIT_EXPECT_EQ(test, fn->fw_minor, 74);
	KUNIT_EXPECT_EQ(test, fn->hmc.obj[IRDMA_HMC_QP].cnt, 4096);
	KUNIT_EXPECT_EQ(test, fn->hmc.obj[IRDMA_HMC_CQ].cnt, 8192);
	KUNIT_EXPECT_GE(test, fn->ceq_count, 1);
	KUNIT_EXPECT_EQ(test, fn->ceq_count, fn->ceq_max);
	KUNIT_EXPECT_EQ(test, fn_to_iwdev(fn)->ibdev.num_comp_vectors, fn->ceq_count);
	KUNIT_EXPECT_TRUE(test, fn->ccq.live);
	KUNIT_EXPECT_TRUE(test, fn->ccq.armed);
	KUNIT_EXPECT_TRUE(test, fn->aeq.live);
	KUNIT_EXPECT_EQ(test, strncmp(fn_to_iwdev(fn)->ibdev.name, "irdma", 5), 0);

	aeq_irq = fn->res.msix[0].vector;
	ceq_irq = fn->res.msix[fn->msix_shared ? 0 : 1].vector;
	KUNIT_EXPECT_TRUE(test, irq_has_action(aeq_irq));
	KUNIT_EXPECT_TRUE(test, irq_has_action(ceq_irq));
	/* Bring-up's CQP commands came back through the CQP ring. */
	KUNIT_EXPECT_TRUE(test, irdma_ring_empty(&fn->cqp.ring));

	put_device(&adev->dev);
	KUNIT_ASSERT_EQ(test, irdma_sim_del(TEST_FN_ID), 0);
	KUNIT_EXPECT_FALSE(test, irq_has_action(aeq_irq));
	KUNIT_EXPECT_FALSE(test, irq_has_action(ceq_irq));
	KUNIT_EXPECT_EQ(test, irdma_dma_outstanding(), blocks);
}

/* Every CQP command bring-up issues, in order. */
static const u8 irdma_bringup_ops[] = {
	IRDMA_CQPOP_QUERY_FPM_VAL, IRDMA_CQPOP_COMMIT_FPM_VAL,
	IRDMA_CQPOP_UPDATE_PE_SDS, IRDMA_CQPOP_SHMC_PAGES_ALLOCATED,
	IRDMA_CQPOP_CREATE_CQ, IRDMA_CQPOP_QUERY_RDMA_FEATURES,
	IRDMA_CQPOP_CREATE_CEQ, IRDMA_CQPOP_CREATE_AEQ,
};

static void irdma_bringup_op_desc(const u8 *op, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "opcode %#x", *op);
}

KUNIT_ARRAY_PARAM(irdma_bringup_op, irdma_bringup_ops, irdma_bringup_op_desc);

static void irdma_bringup_failure_test(struct kunit *test)
{
	const u8 *op = test->param_value;
	struct auxiliary_device *adev;
	unsigned int irq;
	int blocks;

	KUNIT_ASSERT_EQ(test, irdma_sim_add(TEST_FN_ID, true), 0);
	adev = irdma_sim_adev(TEST_FN_ID);
	KUNIT_ASSERT_NOT_NULL(test, adev);
	KUNIT_ASSERT_NOT_NULL(test, irdma_test_bound_fn(adev));
	irq = irdma_test_bound_fn(adev)->res.msix[0].vector;

	device_release_driver(&adev->dev);
	blocks = irdma_dma_outstanding();

	irdma_sim_fail_cqp_op(TEST_FN_ID, *op, 1);
	KUNIT_EXPECT_EQ(test, device_attach(&adev->dev), 0);
	KUNIT_EXPECT_NULL(test, irdma_test_bound_fn(adev));
	KUNIT_EXPECT_EQ(test, irdma_dma_outstanding(), blocks);
	KUNIT_EXPECT_FALSE(test, irq_has_action(irq));

	/* The failure was one-shot: the next probe brings it up. */
	KUNIT_EXPECT_EQ(test, device_attach(&adev->dev), 1);
	KUNIT_EXPECT_NOT_NULL(test, irdma_test_bound_fn(adev));

	put_device(&adev->dev);
	KUNIT_ASSERT_EQ(test, irdma_sim_del(TEST_FN_ID), 0);
}

/* The commands teardown issues that a device may refuse. */
static const u8 irdma_teardown_ops[] = {
	IRDMA_CQPOP_DESTROY_AEQ, IRDMA_CQPOP_DESTROY_CEQ,
	IRDMA_CQPOP_DESTROY_CQ, IRDMA_CQPOP_UPDATE_PE_SDS,
};

KUNIT_ARRAY_PARAM(irdma_teardown_op, irdma_teardown_ops, irdma_bringup_op_desc);

/*
 * A refused destroy leaves the object the device's: its memory is kept
 * until the CQP is down, then freed. KASAN watches the engine meanwhile.
 */
static void irdma_teardown_failure_test(struct kunit *test)
{
	const u8 *op = test->param_value;
	struct auxiliary_device *adev;
	unsigned int irq;
	int blocks = irdma_dma_outstanding();

	KUNIT_ASSERT_EQ(test, irdma_sim_add(TEST_FN_ID, true), 0);
	adev = irdma_sim_adev(TEST_FN_ID);
	KUNIT_ASSERT_NOT_NULL(test, adev);
	KUNIT_ASSERT_NOT_NULL(test, irdma_test_bound_fn(adev));
	irq = irdma_test_bound_fn(adev)->res.msix[0].vector;

	irdma_sim_fail_cqp_op(TEST_FN_ID, *op, 1);
	device_release_driver(&adev->dev);
	KUNIT_EXPECT_NULL(test, irdma_test_bound_fn(adev));
	KUNIT_EXPECT_EQ(test, irdma_dma_outstanding(), blocks);
	KUNIT_EXPECT_FALSE(test, irq_has_action(irq));

	/* The function comes up again afterwards. */
	KUNIT_EXPECT_EQ(test, device_attach(&adev->dev), 1);
	put_device(&adev->dev);
	KUNIT_ASSERT_EQ(test, irdma_sim_del(TEST_FN_ID), 0);
	KUNIT_EXPECT_EQ(test, irdma_dma_outstanding(), blocks);
}

static void irdma_test_sim_del(void *adev)
{
	put_device(&((struct auxiliary_device *)adev)->dev);
	irdma_sim_del(TEST_FN_ID);
}

/* A function up with its driver bound, gone again at the test's end. */
static struct auxiliary_device *irdma_test_sim_up(struct kunit *test)
{
	struct auxiliary_device *adev;

	KUNIT_ASSERT_EQ(test, irdma_sim_add(TEST_FN_ID, true), 0);
	adev = irdma_sim_adev(TEST_FN_ID);
	KUNIT_ASSERT_NOT_NULL(test, adev);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, irdma_test_sim_del, adev), 0);
	KUNIT_ASSERT_NOT_NULL(test, irdma_test_bound_fn(adev));
	return adev;
}

/* Wait up to a second for @flag to read @want: the engine acts by itself. */
static bool irdma_test_wait_flag(const bool *flag, bool want)
{
	int i;

	for (i = 0; i < 1000 && READ_ONCE(*flag) != want; i++)
		usleep_range(1000, 2000);
	return READ_ONCE(*flag) == want;
}

/*
 * A function up with our driver bound, its CQPDB trapped (else the test
 * is skipped), and a NOP to ring in @cmd.
 */
static struct isim_dev *irdma_test_trapped_nop(struct kunit *test,
					       struct irdma_fn **fn,
					      struct irdma_cqp_wqe *cmd)
{
	struct auxiliary_device *adev = irdma_test_sim_up(test);
	struct isim_dev *sdev = to_isim_dev(adev->dev.parent);

	*fn = irdma_test_bound_fn(adev);
	if (!sdev->db.bp[ISIM_TRAP_CQPDB])
		kunit_skip(test, "CQPDB not trapped here");
	memset(cmd, 0, sizeof(*cmd));
	cmd->q[3] = FIELD_PREP(IRDMA_CQPSQ_OPCODE, IRDMA_CQPOP_NOP);
	return sdev;
}

/*
 * A CQP command the simulator's CQPDB trap runs by itself still gives the
 * armed CCQ its event, as silicon does: the trap's irq_work posts it.
 */
static void irdma_bringup_trapped_cmd_event_test(struct kunit *test)
{
	struct auxiliary_device *adev;
	struct irdma_cqp_wqe cmd;
	struct isim_dev *sdev;
	struct irdma_fn *fn;
	struct isim_cq *ccq;
	u64 fast, irqs, irqs_after;

	adev = irdma_test_sim_up(test);
	fn = irdma_test_bound_fn(adev);
	sdev = to_isim_dev(adev->dev.parent);
	ccq = isim_cq_find(sdev, 0);
	KUNIT_ASSERT_NOT_NULL(test, ccq);
	/* The driver armed its CCQ; the engine takes arms when it looks. */
	KUNIT_ASSERT_TRUE(test, irdma_test_wait_flag(&ccq->armed, true));

	fast = atomic64_read(&sdev->db.fast);
	irqs = READ_ONCE(sdev->stats.irqs);
	irdma_build_query_fpm(&cmd, fn->res.pf_id,
			      fn->init_mem.pa + IRDMA_INIT_QUERY_FPM);
	KUNIT_ASSERT_EQ(test, irdma_cqp_exec(fn, &cmd, NULL), 0);
	if (atomic64_read(&sdev->db.fast) == fast)
		kunit_skip(test, "CQPDB not trapped here: a thread ran the command");

	KUNIT_EXPECT_TRUE(test, irdma_test_wait_flag(&sdev->cqp.notify_due, false));
	/* The event was raised: the CCQ's CEQ interrupted. */
	irqs_after = READ_ONCE(sdev->stats.irqs);
	KUNIT_EXPECT_GT(test, irqs_after, irqs);
}

/*
 * The event of a CCQ completion the trap wrote follows it at once, as on
 * silicon, not whenever a thread next runs. The stock driver finds such a
 * completion by itself (it calls its CCQ handler before it sleeps) and
 * goes on: at its teardown, to take CEQ 0 down and poll the CCQ for that.
 * An event arriving late queues its CCQ work in the middle of that poll,
 * and both read the same CQE: one completion taken twice, and its ring
 * walked as if 2047 commands were pending. Here the engine's threads are
 * kept from working; the CCQ is armed the driver's way (a request no
 * thread has seen) and a NOP rung: its event comes all the same.
 */
static void irdma_bringup_trap_event_at_once_test(struct kunit *test)
{
	struct irdma_cqp_wqe cmd;
	struct isim_dev *sdev;
	struct irdma_fn *fn;
	unsigned long flags;
	bool came = false;
	u64 ceqes, fast;
	int err, i;
	u32 idx;

	sdev = irdma_test_trapped_nop(test, &fn, &cmd);
	mutex_lock(&sdev->engine_lock);
	/* Whatever arm the engine took before is used up. */
	spin_lock_irq(&sdev->cqp_lock);
	sdev->ccq.armed = false;
	spin_unlock_irq(&sdev->cqp_lock);
	fast = atomic64_read(&sdev->db.fast);
	ceqes = READ_ONCE(sdev->stats.ceqes);
	spin_lock_irqsave(&fn->cqp.lock, flags);
	irdma_ccq_arm(fn);
	err = irdma_cqp_post(fn, &cmd, &idx);
	spin_unlock_irqrestore(&fn->cqp.lock, flags);
	for (i = 0; i < 100 && !came; i++) {
		came = READ_ONCE(sdev->stats.ceqes) != ceqes;
		if (!came)
			usleep_range(1000, 2000);
	}
	mutex_unlock(&sdev->engine_lock);

	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_ASSERT_NE_MSG(test, atomic64_read(&sdev->db.fast), fast,
			    "the trap did not run the NOP");
	KUNIT_EXPECT_TRUE_MSG(test, came, "no CEQE while the engine's threads wait");
}

struct irdma_test_irq {
	bool fired;
	bool hardirq;
};

static irqreturn_t irdma_test_irq_handler(int irq, void *data)
{
	struct irdma_test_irq *t = data;

	t->hardirq = in_hardirq();
	WRITE_ONCE(t->fired, true);
	return IRQ_HANDLED;
}

/*
 * A vector the engine raises from one of its threads comes as a hard
 * interrupt, as an MSI-X message does: the driver's handler runs in hard
 * interrupt context, and the tasklet it schedules runs as that interrupt
 * ends. (Called from the thread itself, a handler's tasklet was left to
 * ksoftirqd, below the engine's real-time threads, up to a millisecond.)
 */
/*
 * A function up whose driver let its vectors go, and @t's handler on
 * vector 0.
 */
static struct isim_dev *irdma_test_vector0(struct kunit *test,
					   struct irdma_test_irq *t)
{
	struct auxiliary_device *adev;
	struct isim_dev *sdev;
	int err;

	adev = irdma_test_sim_up(test);
	sdev = to_isim_dev(adev->dev.parent);
	device_release_driver(&adev->dev);
	err = request_irq(sdev->msix[0].vector, irdma_test_irq_handler, 0,
			  "irdma_test", t);
	KUNIT_ASSERT_EQ(test, err, 0);
	return sdev;
}

static void irdma_bringup_irq_is_hard_test(struct kunit *test)
{
	struct irdma_test_irq t = {};
	struct isim_dev *sdev = irdma_test_vector0(test, &t);

	isim_irq_raise(sdev, 0);
	KUNIT_EXPECT_TRUE(test, irdma_test_wait_flag(&t.fired, true));
	free_irq(sdev->msix[0].vector, &t);
	KUNIT_EXPECT_TRUE(test, t.hardirq);
}

/*
 * A vector masked since it last fired is raised at once if the driver has
 * enabled it again (GLINT_DYN_CTL) though no thread has looked since:
 * silicon sees the write when it lands. (Left to the threads' looks, an
 * event waited up to their next look, a millisecond when idle.)
 */
static void irdma_bringup_vector_enabled_unseen_test(struct kunit *test)
{
	struct irdma_test_irq t = {};
	struct isim_dev *sdev = irdma_test_vector0(test, &t);
	bool fired;
	u64 irqs;

	/* No thread looks meanwhile. */
	mutex_lock(&sdev->engine_lock);
	spin_lock_irq(&sdev->eq_lock);
	sdev->vec[0].enabled = false;
	sdev->vec[0].pending = false;
	isim_wr32(sdev, IRDMA_GLINT_DYN_CTL(0), IRDMA_DYN_CTL_INTENA);
	irqs = sdev->stats.irqs;
	isim_vector_fire(sdev, 0);
	spin_unlock_irq(&sdev->eq_lock);
	fired = irdma_test_wait_flag(&t.fired, true);
	mutex_unlock(&sdev->engine_lock);
	free_irq(sdev->msix[0].vector, &t);

	KUNIT_EXPECT_TRUE(test, fired);
	KUNIT_EXPECT_EQ(test, sdev->stats.irqs, irqs + 1);
	/* Taken, and the vector masked again by the interrupt. */
	KUNIT_EXPECT_EQ(test, isim_rd32(sdev, IRDMA_GLINT_DYN_CTL(0)), 0);
	KUNIT_EXPECT_FALSE(test, sdev->vec[0].enabled);
}

/*
 * The CCQPLOW trap can stamp a write a thread has already taken (the trap
 * runs late under emulation); a look that finds CCQPLOW idle drops that
 * stamp, or it would start the clock of the next CQP creation early.
 */
static void irdma_bringup_stale_ccqp_stamp_test(struct kunit *test)
{
	struct auxiliary_device *adev;
	struct isim_dev *sdev;
	bool taken;

	adev = irdma_test_sim_up(test);
	sdev = to_isim_dev(adev->dev.parent);
	KUNIT_ASSERT_EQ(test, isim_rd32(sdev, IRDMA_PFPE_CCQPLOW), ISIM_DB_IDLE);

	atomic64_set(&sdev->db.rung_ns[ISIM_TRAP_CCQPLOW], isim_lat_now());
	spin_lock_irq(&sdev->cqp_lock);
	taken = isim_regs_cqp_ctx(sdev);
	spin_unlock_irq(&sdev->cqp_lock);
	KUNIT_EXPECT_FALSE(test, taken);
	KUNIT_EXPECT_EQ(test, atomic64_read(&sdev->db.rung_ns[ISIM_TRAP_CCQPLOW]), 0);
}

/* Clears a function's due cleanup after a few milliseconds, as a thread. */
static int irdma_test_clear_cleanup_fn(void *data)
{
	struct isim_dev *sdev = data;

	usleep_range(5000, 6000);
	/* As isim_cqp_cleanup() ends, for the trap's acquire. */
	smp_store_release(&sdev->cqp_cleanup_due, false);
	return 0;
}

/*
 * The CCQPLOW trap's creation of a CQP waits for the last CQP's state to
 * go, which another CPU's thread clears (the stock driver spins for its
 * new CQP on the CPU that wrote): done at once when none is due, done
 * when a thread clears it, refused after a bound when nobody does (and at
 * once with one CPU, where nobody can meanwhile).
 */
static void irdma_bringup_trap_awaits_cleanup_test(struct kunit *test)
{
	struct isim_dev *sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, sdev);
	KUNIT_EXPECT_TRUE(test, isim_cqp_trap_await_cleanup(sdev));

	WRITE_ONCE(sdev->cqp_cleanup_due, true);
	KUNIT_EXPECT_FALSE(test, isim_cqp_trap_await_cleanup(sdev));
	KUNIT_EXPECT_TRUE(test, READ_ONCE(sdev->cqp_cleanup_due));
	if (num_online_cpus() < 2)
		kunit_skip(test, "one CPU: no thread clears the state during a trap");

	t = kthread_create(irdma_test_clear_cleanup_fn, sdev, "irdma_test_clear");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	/* Held, so that it is waited for even if the trap gave up first. */
	get_task_struct(t);
	wake_up_process(t);
	KUNIT_EXPECT_TRUE(test, isim_cqp_trap_await_cleanup(sdev));
	kthread_stop_put(t);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(sdev->cqp_cleanup_due));
}

struct irdma_test_bind {
	struct auxiliary_device *adev;
	struct completion done;
	int ret;
};

static int irdma_test_bind_fn(void *data)
{
	struct irdma_test_bind *b = data;

	b->ret = device_attach(&b->adev->dev);
	complete(&b->done);
	return 0;
}

/*
 * The commands the stock driver busy-waits for with no CCQ event to wake
 * anyone (10 ms polls): the CCQ's creation and CEQ 0's. The simulator's
 * trap answers them by itself: here the engine's threads are kept from
 * working (their lock is held) while the driver binds, and the CCQ and
 * CEQ 0 still come to exist. The rest of the bring-up waits for the
 * threads, and finishes once they may work again.
 */
static void irdma_bringup_polled_cmds_in_trap_test(struct kunit *test)
{
	struct irdma_test_bind b = {};
	struct task_struct *t;
	struct isim_dev *sdev;
	bool ccq, ceq0;

	b.adev = irdma_test_sim_up(test);
	sdev = to_isim_dev(b.adev->dev.parent);
	if (!sdev->db.bp[ISIM_TRAP_CQPDB] || !sdev->db.bp[ISIM_TRAP_CCQPLOW])
		kunit_skip(test, "no debug registers for the CQP's doorbells here");
	device_release_driver(&b.adev->dev);
	KUNIT_ASSERT_FALSE(test, isim_cq_find(sdev, 0));
	KUNIT_ASSERT_TRUE(test, irdma_test_wait_flag(&sdev->cqp_cleanup_due, false));

	init_completion(&b.done);
	mutex_lock(&sdev->engine_lock);
	t = kthread_run(irdma_test_bind_fn, &b, "irdma_test_bind");
	if (IS_ERR(t)) {
		mutex_unlock(&sdev->engine_lock);
		KUNIT_FAIL(test, "no thread to bind from: %ld", PTR_ERR(t));
		return;
	}
	ccq = irdma_test_wait_flag(&sdev->ccq_live, true);
	ceq0 = irdma_test_wait_flag(&sdev->ceq[0].live, true);
	mutex_unlock(&sdev->engine_lock);
	wait_for_completion(&b.done);

	KUNIT_EXPECT_TRUE(test, ccq);
	KUNIT_EXPECT_TRUE(test, ceq0);
	KUNIT_EXPECT_EQ(test, b.ret, 1);
	KUNIT_EXPECT_NOT_NULL(test, irdma_test_bound_fn(b.adev));
}

/*
 * A thread that looks at CQPDB between a driver's store and the store's
 * trap (the trap comes up to ~250 us late under emulation) leaves the
 * write to the trap once, rather than answer it timed from its previous
 * look, up to 2 ms before the store; a write still there at its next look
 * (no trap came) it takes. Here the store is made with this CPU's debug
 * registers off, as if its trap had not come yet.
 */
static void irdma_bringup_look_before_trap_test(struct kunit *test)
{
#ifdef CONFIG_X86
	struct irdma_cqp_wqe cmd;
	unsigned long flags, dr7;
	struct isim_dev *sdev;
	struct irdma_fn *fn;
	bool ran, young = false;
	int err, looks = 0;
	u32 tail, idx;
	s64 left;

	sdev = irdma_test_trapped_nop(test, &fn, &cmd);
	mutex_lock(&sdev->engine_lock);
	/* Bring-up's looks may have left writes to their traps already. */
	left = atomic64_read(&sdev->db.left_by_looks);
	tail = isim_rd32(sdev, IRDMA_PFPE_CQPTAIL);
	spin_lock_irqsave(&fn->cqp.lock, flags);
	dr7 = local_db_save();
	err = irdma_cqp_post(fn, &cmd, &idx);
	local_db_restore(dr7);
	spin_unlock_irqrestore(&fn->cqp.lock, flags);

	/* A thread's look, its last one a millisecond ago. */
	spin_lock_irq(&sdev->cqp_lock);
	sdev->cqp.looked_ns = isim_lat_now() - NSEC_PER_MSEC;
	spin_unlock_irq(&sdev->cqp_lock);
	ran = isim_cqp_run(sdev, &young);
	KUNIT_EXPECT_FALSE(test, ran);
	KUNIT_EXPECT_EQ(test, isim_rd32(sdev, IRDMA_PFPE_CQPTAIL), tail);
	/* No trap came: the next look takes it, once it is due. */
	do {
		young = false;
		ran = isim_cqp_run(sdev, &young);
		if (young)
			usleep_range(50, 100);
	} while (young && ++looks < 1000);
	mutex_unlock(&sdev->engine_lock);

	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_EXPECT_TRUE(test, ran);
	KUNIT_EXPECT_NE(test, isim_rd32(sdev, IRDMA_PFPE_CQPTAIL), tail);
	KUNIT_EXPECT_EQ(test, atomic64_read(&sdev->db.left_by_looks), left + 1);
#else
	kunit_skip(test, "x86 debug registers only");
#endif
}

struct irdma_test_polled {
	struct irdma_fn *fn;
	struct irdma_cqp_wqe cmd;
	int err;
	bool done;
};

/* Under stop_machine: post, then poll CQPTAIL 20 ms as the stock driver does. */
static int irdma_test_polled_cmd(void *data)
{
	struct irdma_test_polled *p = data;
	struct irdma_fn *fn = p->fn;
	u64 end = ktime_get_ns() + 20 * NSEC_PER_MSEC;
	unsigned long flags;
	u32 before, idx;

	spin_lock_irqsave(&fn->cqp.lock, flags);
	before = FIELD_GET(IRDMA_CQPTAIL_WQTAIL, irdma_rd32(fn, IRDMA_PFPE_CQPTAIL));
	p->err = irdma_cqp_post(fn, &p->cmd, &idx);
	spin_unlock_irqrestore(&fn->cqp.lock, flags);
	while (!p->err && !p->done && ktime_get_ns() < end) {
		p->done = FIELD_GET(IRDMA_CQPTAIL_WQTAIL,
				    irdma_rd32(fn, IRDMA_PFPE_CQPTAIL)) != before;
		cpu_relax();
	}
	return 0;
}

/*
 * WORK_SCHED_NODE, which the stock driver polls for (10 ms) while it has no
 * CEQ, is answered with every CPU busy-waiting with interrupts off: the
 * trap runs it, as silicon needs no CPU.
 */
static void irdma_bringup_ws_node_in_trap_test(struct kunit *test)
{
	struct irdma_test_polled p = {};
	struct auxiliary_device *adev;
	struct isim_dev *sdev;

	adev = irdma_test_sim_up(test);
	p.fn = irdma_test_bound_fn(adev);
	sdev = to_isim_dev(adev->dev.parent);
	if (!sdev->db.bp[ISIM_TRAP_CQPDB])
		kunit_skip(test, "CQPDB not trapped here");
	/* The leaf (node 2) under the VSI's node (1), as bring-up made it. */
	struct irdma_ws_node leaf = {
		.id = 2, .parent = 1, .vsi = p.fn->res.vsi_num, .weight = 100,
		.leaf = true, .enable = true,
	};

	irdma_build_ws_node(&p.cmd, IRDMA_WS_OP_MODIFY, &leaf);

	KUNIT_ASSERT_EQ(test, stop_machine(irdma_test_polled_cmd, &p, cpu_online_mask), 0);
	KUNIT_EXPECT_EQ(test, p.err, 0);
	KUNIT_EXPECT_TRUE(test, p.done);
}

/* A command only a thread executes, posted while no thread may look. */
struct irdma_test_held_cmd {
	struct isim_dev *sdev;
	struct irdma_fn *fn;
	u64 fast;
	u32 tail;
	int cpu;
	int err;
};

/*
 * DESTROY_CEQ of a CEQ nobody made (it fails, in its time), posted with
 * the engine lock held: the caller lets go of it.
 */
static void irdma_test_post_held(struct kunit *test, struct irdma_test_held_cmd *h)
{
	struct irdma_cqp_wqe cmd;
	unsigned long flags;
	u32 idx;

	h->sdev = irdma_test_trapped_nop(test, &h->fn, &cmd);
	irdma_build_destroy_ceq(&cmd, ISIM_MAX_CEQS - 1, IRDMA_MAX_CEQ_ENTRIES);
	mutex_lock(&h->sdev->engine_lock);
	h->fast = atomic64_read(&h->sdev->db.fast);
	h->tail = isim_rd32(h->sdev, IRDMA_PFPE_CQPTAIL);
	spin_lock_irqsave(&h->fn->cqp.lock, flags);
	h->err = irdma_cqp_post(h->fn, &cmd, &idx);
	h->cpu = smp_processor_id();
	spin_unlock_irqrestore(&h->fn->cqp.lock, flags);
}

/*
 * A command a driver sleeps for is the threads', answered no sooner than
 * ISIM_CQP_MIN_NS after its doorbell by any but the thread of the CPU that
 * rang it (here the test looks, not a thread), so that the driver's first
 * look at the CCQ right after ringing finds nothing, as on silicon, and
 * its CCQ work wakes it. Answered at once (in the trap, or by a thread looking all
 * the time), the stock driver took the completion itself and the work its
 * event queued ran late, now and then just as its teardown polled the CCQ
 * without that work's lock. A CEQ's other than CEQ 0's is such a command.
 */
static void irdma_bringup_cmd_answered_later_test(struct kunit *test)
{
	bool first_ran, ran, young = false;
	struct irdma_test_held_cmd h;
	struct isim_dev *sdev;
	int looks;
	u64 waited;

	/* The threads held: this test looks, as often as it can. */
	irdma_test_post_held(test, &h);
	sdev = h.sdev;
	/*
	 * The trap took the doorbell (and left the command): a first look as
	 * if it had just been rung, however long this CPU took to get here.
	 */
	spin_lock_irq(&sdev->cqp_lock);
	sdev->cqp.batch_since = isim_lat_now();
	spin_unlock_irq(&sdev->cqp_lock);
	ran = isim_cqp_run(sdev, &young);
	first_ran = ran;
	for (looks = 0; !ran && looks < 100000; looks++) {
		ran = isim_cqp_run(sdev, &young);
		if (!ran)
			cpu_relax();
	}
	/* From the doorbell, as the simulator saw it, to the look that ran it. */
	waited = sdev->cqp.picked_ns - sdev->cqp.batch_since;
	mutex_unlock(&sdev->engine_lock);

	KUNIT_ASSERT_EQ(test, h.err, 0);
	KUNIT_EXPECT_EQ_MSG(test, atomic64_read(&sdev->db.fast), h.fast,
			    "the trap ran the command");
	KUNIT_EXPECT_TRUE(test, ran);
	/*
	 * The rule is the time: answered only ISIM_CQP_MIN_NS after the
	 * doorbell. Under emulation the host may stop this vCPU for longer
	 * than that between the stamp and the first look; a first look that
	 * late may answer (its wait says so), any earlier one may not.
	 */
	KUNIT_EXPECT_GE(test, waited, ISIM_CQP_MIN_NS);
	if (!first_ran)
		KUNIT_EXPECT_TRUE(test, young);
	else
		kunit_info(test, "first look %llu ns after the doorbell", waited);
}

/*
 * The thread of the CPU that rang a command may answer it before
 * ISIM_CQP_MIN_NS: it runs there only once the driver has let the CPU go
 * (slept for its answer), so the driver's look at the CCQ right after
 * ringing has passed. Here the doorbell is stamped as if rung ten seconds
 * from now, so that only that thread may answer in the test's time; the
 * test then sleeps, as a driver does.
 */
static void irdma_bringup_cmd_answered_by_ringer_test(struct kunit *test)
{
	struct irdma_test_held_cmd h;
	struct isim_dev *sdev;
	int i;

	/* No thread looks until the doorbell is stamped. */
	irdma_test_post_held(test, &h);
	sdev = h.sdev;
	/* Whether the trap started the batch or leaves it to a look. */
	spin_lock_irq(&sdev->cqp_lock);
	sdev->cqp.batch_since = isim_lat_now() + 10 * NSEC_PER_SEC;
	atomic64_set(&sdev->db.rung_ns[ISIM_TRAP_CQPDB], sdev->cqp.batch_since);
	spin_unlock_irq(&sdev->cqp_lock);
	mutex_unlock(&sdev->engine_lock);
	for (i = 0; i < 1000 && isim_rd32(sdev, IRDMA_PFPE_CQPTAIL) == h.tail; i++)
		usleep_range(1000, 2000);

	KUNIT_ASSERT_EQ(test, h.err, 0);
	KUNIT_EXPECT_NE_MSG(test, isim_rd32(sdev, IRDMA_PFPE_CQPTAIL), h.tail,
			    "not answered while the CPU that rang it slept");
	KUNIT_EXPECT_EQ(test, atomic64_read(&sdev->db.fast), h.fast);
	KUNIT_EXPECT_EQ(test, READ_ONCE(sdev->cqp.batch_cpu), h.cpu);
}

struct irdma_test_exec {
	struct irdma_fn *fn;
	struct irdma_cqp_wqe cmd;
	int ret;
	bool done;
};

static int irdma_test_exec_fn(void *data)
{
	struct irdma_test_exec *x = data;

	x->ret = irdma_cqp_exec(x->fn, &x->cmd, NULL);
	WRITE_ONCE(x->done, true);
	return 0;
}

/*
 * A full CQP ring is waited on, not refused: with the engine's threads
 * kept from working, the ring is filled with commands nobody waits for
 * (an ARP entry nothing names, written again and again: a command the
 * trap leaves to the threads); a command issued then waits for room and
 * completes once the engine runs again.
 */
static void irdma_bringup_cqp_full_test(struct kunit *test)
{
	static const u8 mac[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x42 };
	struct irdma_test_exec x = {};
	struct auxiliary_device *adev;
	struct task_struct *t;
	struct isim_dev *sdev;
	unsigned long flags;
	u32 room, posted, i;
	bool early;

	adev = irdma_test_sim_up(test);
	x.fn = irdma_test_bound_fn(adev);
	sdev = to_isim_dev(adev->dev.parent);
	irdma_build_manage_arp(&x.cmd, x.fn->arp_size - 1, mac);

	mutex_lock(&sdev->engine_lock);
	spin_lock_irqsave(&x.fn->cqp.lock, flags);
	room = irdma_ring_free(&x.fn->cqp.ring);
	spin_unlock_irqrestore(&x.fn->cqp.lock, flags);
	for (posted = 0; posted < room; posted++)
		if (irdma_cqp_post_async(x.fn, &x.cmd))
			break;
	t = kthread_run(irdma_test_exec_fn, &x, "irdma_test_exec");
	if (IS_ERR(t)) {
		mutex_unlock(&sdev->engine_lock);
		KUNIT_FAIL(test, "no thread to issue from: %ld", PTR_ERR(t));
		return;
	}
	msleep(200);
	early = READ_ONCE(x.done);
	mutex_unlock(&sdev->engine_lock);
	for (i = 0; i < 5000 && !READ_ONCE(x.done); i++)
		usleep_range(1000, 2000);

	KUNIT_EXPECT_EQ(test, posted, room);
	KUNIT_EXPECT_FALSE_MSG(test, early, "returned %d on a full ring", x.ret);
	KUNIT_ASSERT_TRUE(test, READ_ONCE(x.done));
	KUNIT_EXPECT_EQ(test, x.ret, 0);
}

/* The function bound again, on a device other than @old; held. */
static struct auxiliary_device *irdma_test_rebound(struct auxiliary_device *old)
{
	struct auxiliary_device *adev;
	int tries;

	for (tries = 0; tries < 400; tries++) {
		adev = irdma_sim_adev(TEST_FN_ID);
		if (adev && adev != old && irdma_test_bound_fn(adev))
			return adev;
		if (adev)
			put_device(&adev->dev);
		usleep_range(5000, 10000);
	}
	return NULL;
}

/*
 * A critical error from the LAN side. GLPE_CRITERR showing only the Q1
 * resource check is a warning: the function stays as it is. An HMC
 * error makes the driver stop using the CQP and ask for a reset, which
 * the LAN side performs (unplug, reset, plug): the function comes back
 * bound, and what the old one held was freed.
 */
static void irdma_bringup_crit_err_test(struct kunit *test)
{
	int blocks = irdma_dma_outstanding();
	struct auxiliary_device *adev, *again;
	struct isim_dev *sdev;
	struct irdma_fn *fn;

	KUNIT_ASSERT_EQ(test, irdma_sim_add(TEST_FN_ID, true), 0);
	adev = irdma_sim_adev(TEST_FN_ID);
	KUNIT_ASSERT_NOT_NULL(test, adev);
	fn = irdma_test_bound_fn(adev);
	KUNIT_ASSERT_NOT_NULL(test, fn);
	sdev = to_isim_dev(adev->dev.parent);

	isim_wr32(sdev, IRDMA_GLPE_CRITERR, 0x0001024d);
	KUNIT_EXPECT_EQ(test, irdma_sim_send_event(TEST_FN_ID, BIT(IRDMA_SIM_EVENT_CRIT_ERR),
						   IRDMA_OICR_PE_CRITERR), 0);
	KUNIT_EXPECT_FALSE(test, fn->reset);
	KUNIT_EXPECT_PTR_EQ(test, irdma_test_bound_fn(adev), fn);

	/* From here the reset may free @fn at any time. */
	KUNIT_EXPECT_EQ(test, irdma_sim_send_event(TEST_FN_ID, BIT(IRDMA_SIM_EVENT_CRIT_ERR),
						   IRDMA_OICR_HMC_ERR), 0);
	again = irdma_test_rebound(adev);
	KUNIT_EXPECT_NOT_NULL(test, again);
	if (again) {
		KUNIT_EXPECT_FALSE(test, irdma_test_bound_fn(again)->reset);
		put_device(&again->dev);
	}
	put_device(&adev->dev);
	KUNIT_ASSERT_EQ(test, irdma_sim_del(TEST_FN_ID), 0);
	KUNIT_EXPECT_EQ(test, irdma_dma_outstanding(), blocks);
}

static struct kunit_case irdma_bringup_cases[] = {
	KUNIT_CASE_SLOW(irdma_bringup_teardown_test),
	KUNIT_CASE_PARAM(irdma_bringup_failure_test, irdma_bringup_op_gen_params),
	KUNIT_CASE_PARAM(irdma_teardown_failure_test, irdma_teardown_op_gen_params),
	KUNIT_CASE_SLOW(irdma_bringup_trapped_cmd_event_test),
	KUNIT_CASE(irdma_bringup_trap_event_at_once_test),
	KUNIT_CASE(irdma_bringup_irq_is_hard_test),
	KUNIT_CASE(irdma_bringup_vector_enabled_unseen_test),
	KUNIT_CASE(irdma_bringup_stale_ccqp_stamp_test),
	KUNIT_CASE(irdma_bringup_trap_awaits_cleanup_test),
	KUNIT_CASE_SLOW(irdma_bringup_polled_cmds_in_trap_test),
	KUNIT_CASE(irdma_bringup_look_before_trap_test),
	KUNIT_CASE(irdma_bringup_ws_node_in_trap_test),
	KUNIT_CASE(irdma_bringup_cmd_answered_later_test),
	KUNIT_CASE(irdma_bringup_cmd_answered_by_ringer_test),
	KUNIT_CASE_SLOW(irdma_bringup_cqp_full_test),
	KUNIT_CASE_SLOW(irdma_bringup_crit_err_test),
	{}
};

static struct kunit_suite irdma_bringup_suite = {
	.name = "irdma_bringup",
	.test_cases = irdma_bringup_cases,
};

kunit_test_suite(irdma_bringup_suite);
