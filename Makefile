# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# irdma, the Intel(R) Ethernet Protocol Driver for RDMA.
#
# In a kernel tree this directory is drivers/infiniband/hw/irdma and
# kbuild reads the first part. Run from the directory itself, "make"
# builds the modules against a prepared kernel tree (KDIR).

ifneq ($(KERNELRELEASE),)

obj-$(CONFIG_INFINIBAND_IRDMA) += irdma.o

irdma-y := main.o hw.o ae.o events.o cqp.o ctrl.o ctrl_qp.o ctrl_srq.o ctrl_mem.o \
	ctrl_cm.o hmc.o pble.o pages.o utils.o uk.o ws.o ids.o \
	verbs.o verbs_cq.o verbs_qp.o verbs_post.o verbs_mr.o verbs_ah.o \
	verbs_stats.o verbs_srq.o verbs_push.o verbs_mcast.o verbs_user.o \
	verbs_iwcm.o cm_tables.o cm_mpa.o cm_tcp.o cm_node.o cm.o term.o ieq.o puda.o
irdma-$(CONFIG_ICE) += bind_ice.o
irdma-$(CONFIG_I40E) += bind_i40e.o
obj-$(CONFIG_INFINIBAND_IRDMA_KUNIT_TEST) += kunit/

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

# Tests only ("make twin"): the same driver as irdma_twin.ko, which loads
# beside Debian's irdma.ko (verbs.c: ib_core asks it for its netdev).
ifeq ($(IRDMA_TWIN),1)
obj-m := irdma_twin.o
irdma_twin-y := $(irdma-y) $(irdma-m)
ccflags-y += -DIRDMA_TWIN
endif

else

IRDMA_CACHE ?= /var/cache/irdma
KDIR ?= $(IRDMA_CACHE)/kbuild

all: modules

modules clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) IRDMA_OUT_OF_TREE=1 \
		CONFIG_INFINIBAND_IRDMA_SIM=m $@

# The twin builds in a directory of its own, from links to these sources,
# from scratch each time (the directory may have served another checkout).
TWIN_DIR ?= $(IRDMA_CACHE)/twin
twin:
	rm -rf $(TWIN_DIR)
	mkdir -p $(TWIN_DIR)
	ln -sfn $(CURDIR)/*.c $(CURDIR)/*.h $(abspath $(firstword $(MAKEFILE_LIST))) \
		$(CURDIR)/sim $(TWIN_DIR)/
	$(MAKE) -C $(KDIR) M=$(TWIN_DIR) IRDMA_OUT_OF_TREE=1 IRDMA_TWIN=1 \
		CONFIG_INFINIBAND_IRDMA_SIM=m modules

.PHONY: all modules clean twin

endif
