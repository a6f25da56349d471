# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours stock
# standins: 2
# iWARP between two simulated functions as two hosts. Both functions of
# the ice personality run iWARP (iwarp=1), each with its own address; the
# switch joins their netdevs. The connection managers open TCP
# connections and run MPA through their ILQs (real frames on the
# switch); the QPs then take the connections over, and the engines carry
# their RDMA traffic: rping with its data checked, to a function's own
# address and between the functions both ways, a closed port's refusal,
# perftest's rdma_cm mode (send, write, read; bandwidth to 8 MiB and
# latency), ucmatose with four connections each way, the close of each
# connection (FINs on the wire), and a storm of 100 connect/disconnect
# cycles (20 on the sanitizing kernel).
. "$IRDMA_REPO/tests/vm/lib.sh"
require rping ucmatose rdma ibv_devinfo

modprobe -a ib_core ib_uverbs rdma_ucm iw_cm || fail "cannot load the RDMA stack"
load_sim nr_devices=0
if [ "$IRDMA_DRIVER" = ours ]; then
	FN0=0 FN1=1
	echo "0 iwarp" >$SIM_BUS/new_device || fail "function 0"
	echo "1 iwarp" >$SIM_BUS/new_device || fail "function 1"
	load_irdma_deps
	load_irdma
else
	FN0=32 FN1=33
	load_sim_ice iwarp=1
	load_driver
fi
NET0=simeth$FN0
NET1=simeth$FN1
wait_for test -n "$(rdma_dev_of $NET1)" || fail "no RDMA device on $NET1"
DEV0=$(rdma_dev_of $NET0)
DEV1=$(rdma_dev_of $NET1)
. "$IRDMA_REPO/tests/vm/iwarp-lib.sh"
iwarp_run
if [ "$IRDMA_DRIVER" = ours ]; then
	unload_irdma
	echo 1 >$SIM_BUS/del_device
	echo 0 >$SIM_BUS/del_device
else
	unload_driver
	rmmod irdma_sim_ice || fail "rmmod irdma_sim_ice"
fi
unload_sim
[ $CHECKS_FAILED -eq 0 ] || fail "$CHECKS_FAILED checks failed"
echo "PASS: iWARP connections and traffic between two functions"
