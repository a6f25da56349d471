# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# irdma, the Intel(R) Ethernet Protocol Driver for RDMA.
#
# In a kernel tree this directory is drivers/infiniband/hw/irdma and
# kbuild reads the first part. Run from the directory itself, "make"
# builds the modules against a prepared kernel tree (KDIR).

ifneq ($(KERNELRELEASE),)

obj-$(CONFIG_INFINIBAND_IRDMA) += irdma.o

irdma-y := main.o hw.o ae.o events.o ctrl.o ctrl_qp.o ctrl_srq.o ctrl_mem.o \
	hmc.o pble.o pages.o utils.o uk.o ws.o ids.o \
	verbs.o verbs_cq.o verbs_qp.o verbs_post.o verbs_mr.o verbs_ah.o \
	verbs_stats.o verbs_srq.o verbs_push.o verbs_mcast.o verbs_user.o \
	verbs_iwcm.o
irdma-$(CONFIG_ICE) += bind_ice.o
irdma-$(CONFIG_I40E) += bind_i40e.o
irdma-$(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST) += kunit/uk_test.o \
	kunit/ctrl_test.o kunit/verbs_test.o kunit/hmc_test.o

# Bring-up against the simulator: both built in, as in the KUnit kernel.
ifeq ($(CONFIG_INFINIBAND_IRDMA)$(CONFIG_INFINIBAND_IRDMA_SIM),yy)
irdma-$(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST) += kunit/bringup_test.o kunit/qp_test.o \
	kunit/iwcm_test.o
endif

ifneq ($(CONFIG_INFINIBAND_IRDMA_SIM),)
irdma-y += bind_sim.o
obj-$(CONFIG_INFINIBAND_IRDMA_SIM) += sim/
endif

# The E810 front-end reads the ice driver's own structures.
CFLAGS_bind_ice.o := -I$(srctree)/drivers/net/ethernet/intel/ice

# Out of tree, the kernel's configuration knows nothing of the simulator;
# the benchmark module is built there too.
ifeq ($(IRDMA_OUT_OF_TREE),1)
ccflags-y += -DCONFIG_INFINIBAND_IRDMA_SIM_MODULE=1
obj-m += bench/
endif

else

IRDMA_CACHE ?= /var/cache/irdma
KDIR ?= $(IRDMA_CACHE)/kbuild

all: modules

modules clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) IRDMA_OUT_OF_TREE=1 \
		CONFIG_INFINIBAND_IRDMA_SIM=m $@

.PHONY: all modules clean

endif
