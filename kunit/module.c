// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The KUnit suites' module: each suite registers itself in its own file;
 * this one names the module and imports the namespace the driver's and
 * the simulator's test-only exports live in.
 */
#include <linux/module.h>

MODULE_DESCRIPTION("KUnit suites of the irdma driver and its simulator");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
