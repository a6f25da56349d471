# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours -- it runs the stock driver and ours (as irdma_twin.ko) side by side itself
# kernel: debian
# standins: 2
# iWARP between two independent connection managers: Debian's irdma.ko on
# simulated function 32 and ours, built a second time as irdma_twin.ko
# ("make twin"), on function 33, both functions iWARP, as two hosts on
# the simulator's fabric (iwarp-lib.sh). rping with data checks and
# ucmatose, each way, on a VLAN over IPv4 and IPv6 too, a TERMINATE each
# way, and 100 connect/disconnect cycles from the stock
# driver's side to ours: our TCP handshake, MPA request and reply, RTR
# and close against code nobody here wrote.
. "$IRDMA_REPO/tests/vm/lib.sh"
require rping ucmatose rdma ibv_devinfo

TWIN_KO=${IRDMA_TEST_TWIN_KO:-/var/cache/irdma/twin/irdma_twin.ko}
[ -f "$TWIN_KO" ] || fail "no $TWIN_KO (make twin)"

has_dev() { [ -n "$(rdma_dev_of "$1")" ]; }

modprobe -a ib_core ib_uverbs rdma_ucm iw_cm || fail "cannot load the RDMA stack"
load_sim nr_devices=0
load_sim_ice iwarp=1
load_stock
wait_for has_dev simeth33 || fail "the stock driver took no function 33"
# Function 33 goes from the stock driver to ours.
echo ice.iwarp.33 >/sys/bus/auxiliary/drivers/irdma/unbind || fail "unbind 33 from irdma"
insmod "$TWIN_KO" || fail "insmod irdma_twin.ko"
wait_for test -e /sys/bus/auxiliary/drivers/irdma_twin/ice.iwarp.33 ||
	fail "irdma_twin did not bind function 33"
[ ! -e /sys/bus/auxiliary/drivers/irdma_twin/ice.iwarp.32 ] ||
	fail "irdma_twin took function 32 from the stock driver"
wait_for has_dev simeth33 || fail "no RDMA device on simeth33"
FN0=32 FN1=33
STOCK_FNS=32
NET0=simeth32
NET1=simeth33
DEV0=$(rdma_dev_of $NET0)
DEV1=$(rdma_dev_of $NET1)
echo "stock driver: $DEV0 ($NET0); ours: $DEV1 ($NET1)"
. "$IRDMA_REPO/tests/vm/iwarp-lib.sh"
iwarp_run
rmmod irdma_twin || fail "rmmod irdma_twin"
rmmod irdma || fail "rmmod irdma"
rmmod irdma_sim_ice || fail "rmmod irdma_sim_ice"
unload_sim
[ $CHECKS_FAILED -eq 0 ] || fail "$CHECKS_FAILED checks failed"
echo "PASS: iWARP between the stock driver's connection manager and ours"
