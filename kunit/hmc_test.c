// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of the HMC sizing. The expected counts were worked out by
 * hand from the sizing rules for a given set of hardware limits.
 */
#include <kunit/test.h>

#include "../main.h"

/* Limits as the simulator reports them: count, size. */
static void irdma_hmc_test_limits(struct irdma_fn *fn, u32 max_sds)
{
	static const struct { u32 max; u32 size; } lim[IRDMA_HMC_OBJ_COUNT] = {
		[IRDMA_HMC_QP] = { 4096, 512 },
		[IRDMA_HMC_CQ] = { 8192, 64 },
		[IRDMA_HMC_HTE] = { 16384, 32 },
		[IRDMA_HMC_ARP] = { 2048, 64 },
		[IRDMA_HMC_APBVT] = { 1, 8192 },
		[IRDMA_HMC_MR] = { 65536, 32 },
		[IRDMA_HMC_XF] = { 16384, 16 },
		[IRDMA_HMC_XFFL] = { 16384, 4 },
		[IRDMA_HMC_Q1] = { 1048576, 4 },
		[IRDMA_HMC_Q1FL] = { 16384, 4 },
		[IRDMA_HMC_TIMER] = { 2048, 64 },
		[IRDMA_HMC_FSIMC] = { 4096, 64 },
		[IRDMA_HMC_FSIAV] = { 131072, 16 },
		[IRDMA_HMC_PBLE] = { 2097152, 8 },
		[IRDMA_HMC_HDR] = { 4096, 64 },
	};
	int i;

	memset(fn, 0, sizeof(*fn));
	fn->res.protocol = IRDMA_PROTOCOL_ROCEV2;
	for (i = 0; i < IRDMA_HMC_OBJ_COUNT; i++) {
		fn->hmc.obj[i].max_cnt = lim[i].max;
		fn->hmc.obj[i].size = lim[i].size;
	}
	fn->hmc.max_sds = max_sds;
	fn->hmc.xf_block = 1;
	fn->hmc.q1_block = 64;
	fn->hmc.ht_multiplier = 1;
	fn->hmc.timer_bucket = 64;
}

static void irdma_hmc_size_fits_test(struct kunit *test)
{
	struct irdma_fn *fn = kunit_kzalloc(test, sizeof(*fn), GFP_KERNEL);
	struct irdma_hmc_objinfo *o;

	KUNIT_ASSERT_NOT_NULL(test, fn);
	irdma_hmc_test_limits(fn, 32);
	o = fn->hmc.obj;

	/* 29,143,040 bytes: 14 segments of 32, the first plan stands. */
	KUNIT_ASSERT_EQ(test, irdma_hmc_size(fn), 0);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_QP].cnt, 4096);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_CQ].cnt, 8192);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_MR].cnt, 65536);
	/* pow2(roundup(4096 + 4096, 512)) x 1 */
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_HTE].cnt, 8192);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_XF].cnt, 16384);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_XFFL].cnt, 16384);
	/* RoCE: pow2(254 x 4096 + 512) */
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_Q1].cnt, 1048576);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_Q1FL].cnt, 16384);
	/* (4096 / 512 + 1) x 64 */
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_TIMER].cnt, 576);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_HDR].cnt, 4096);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_FSIAV].cnt, 131072);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_APBVT].cnt, 1);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_SRQ].cnt, 0);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_PBLE].cnt, 2097152);
}

static void irdma_hmc_size_shrinks_test(struct kunit *test)
{
	struct irdma_fn *fn = kunit_kzalloc(test, sizeof(*fn), GFP_KERNEL);
	struct irdma_hmc_objinfo *o;

	KUNIT_ASSERT_NOT_NULL(test, fn);
	irdma_hmc_test_limits(fn, 10);
	o = fn->hmc.obj;

	/*
	 * Round 0 needs 14 of 10: PBLEs -10K, MRs -1K, QPs and AVs halved.
	 * Round 1 needs 12: PBLEs -512K. Round 2 needs 10 and fits.
	 */
	KUNIT_ASSERT_EQ(test, irdma_hmc_size(fn), 0);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_QP].cnt, 2048);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_CQ].cnt, 4096);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_MR].cnt, 64512);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_FSIAV].cnt, 65536);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_Q1].cnt, 524288);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_TIMER].cnt, 320);
	KUNIT_EXPECT_EQ(test, o[IRDMA_HMC_PBLE].cnt, 1562624);
}

static void irdma_hmc_size_fails_test(struct kunit *test)
{
	struct irdma_fn *fn = kunit_kzalloc(test, sizeof(*fn), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fn);
	/* No segment at all: 2000 rounds of shrinking cannot help. */
	irdma_hmc_test_limits(fn, 0);
	KUNIT_EXPECT_EQ(test, irdma_hmc_size(fn), -EINVAL);

	irdma_hmc_test_limits(fn, 32);
	fn->hmc.obj[IRDMA_HMC_QP].max_cnt = 0;
	KUNIT_EXPECT_EQ(test, irdma_hmc_size(fn), -EINVAL);
}

static struct kunit_case irdma_hmc_cases[] = {
	KUNIT_CASE(irdma_hmc_size_fits_test),
	KUNIT_CASE(irdma_hmc_size_shrinks_test),
	KUNIT_CASE(irdma_hmc_size_fails_test),
	{}
};

static struct kunit_suite irdma_hmc_suite = {
	.name = "irdma_hmc",
	.test_cases = irdma_hmc_cases,
};

kunit_test_suite(irdma_hmc_suite);
