// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of bring-up and teardown against the simulator (both built
 * in): a function comes up as the hardware says it should, and a CQP
 * command failing at any step of bring-up leaves nothing behind.
 */
#include <kunit/test.h>
#include <linux/interrupt.h>

#include "../verbs.h"
#include "../sim/irdma_sim.h"

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

static struct kunit_case irdma_bringup_cases[] = {
	KUNIT_CASE_SLOW(irdma_bringup_teardown_test),
	KUNIT_CASE_PARAM(irdma_bringup_failure_test, irdma_bringup_op_gen_params),
	KUNIT_CASE_PARAM(irdma_teardown_failure_test, irdma_teardown_op_gen_params),
	{}
};

static struct kunit_suite irdma_bringup_suite = {
	.name = "irdma_bringup",
	.test_cases = irdma_bringup_cases,
};

kunit_test_suite(irdma_bringup_suite);
