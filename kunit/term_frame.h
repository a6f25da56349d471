/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A TERMINATE frame as the engine writes one it took into Q2, for the
 * suites that check it (term_test.c) and that hand one to a QP
 * (iwcm_test.c).
 */
#ifndef IRDMA_KUNIT_TERM_FRAME_H
#define IRDMA_KUNIT_TERM_FRAME_H

#include <kunit/test.h>
#include <linux/types.h>

u8 *irdma_test_term_frame(struct kunit *test, bool ipv6, u32 *len);

#endif /* IRDMA_KUNIT_TERM_FRAME_H */
