# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours -- stock: fail_page_alloc is in the sanitizing kernel only
# User MRs whose PBLEs outgrow the PBLE segment backed at bring-up
# (tests/vm/mr-paged.c), registered by a process whose allocations of
# 2 MiB and more all fail (fail_page_alloc, task-filtered; the sanitizing
# kernel has it), as on a machine whose memory is fragmented: the driver
# backs the next PBLE segment with 4 KiB pages behind a page of
# descriptors, the simulator sees a paged segment, and RDMA writes and
# reads through the last MR move the right bytes.
. "$IRDMA_REPO/tests/vm/lib.sh"
require ibv_devinfo
ADDR=192.168.77.1
fpa=/sys/kernel/debug/fail_page_alloc

[ -d $fpa ] || fail "no fail_page_alloc in this kernel"

load_stack
roce_up $ADDR
[ "$(sim_stat hmc_sds_paged)" = 0 ] || fail "a paged segment before any MR"
echo Y >$fpa/task-filter
echo N >$fpa/ignore-gfp-wait
echo N >$fpa/ignore-gfp-highmem
echo 9 >$fpa/min-order
echo 1 >$fpa/interval
echo -1 >$fpa/times
echo 0 >$fpa/verbose
echo 100 >$fpa/probability
rc=0
sh -c 'echo 1 >/proc/self/make-it-fail && exec "$IRDMA_TEST_TOOLS"/mr-paged irdma0 "$1" 8' \
	mr-paged "$GIDX" || rc=$?
echo 0 >$fpa/probability
[ $rc = 0 ] || fail "RDMA through MRs whose PBLEs are in a paged segment"
paged=$(sim_stat hmc_sds_paged)
echo "segments: $(sim_stat hmc_sds_direct) direct, $paged paged"
[ "$paged" -ge 1 ] || fail "no PBLE segment was paged"
ip addr del $ADDR/24 dev "$SIM_NETDEV"
unload_stack
echo "PASS: PBLEs in paged segments ($IRDMA_DRIVER)"
