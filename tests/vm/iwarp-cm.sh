# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours -- stock: the stock driver makes iWARP connections (iwarp-two-hosts)
# rdma_cm on an iWARP function. Until the driver makes iWARP connections,
# every iw_cm entry point answers with an error the caller sees: a listen
# (rping -s, ib_send_bw -R) and a connect (rping -c). None of it may oops
# (the guest's kernel log is checked after every test), and nothing is
# left behind.
. "$IRDMA_REPO/tests/vm/lib.sh"
require ib_send_bw rping rdma ibv_devinfo

ADDR=192.168.78.1

modprobe -a ib_core ib_uverbs rdma_ucm iw_cm ice i40e || fail "cannot load the RDMA stack"
load_sim nr_devices=0
echo "0 iwarp" >$SIM_BUS/new_device || fail "new_device"
load_irdma
wait_for test -e /sys/class/infiniband/irdma0 || fail "no irdma0"
expect_eq "transport" "$(devinfo_field irdma0 transport)" iWARP
ip link set "$SIM_NETDEV" up
ip addr add "$ADDR/24" dev "$SIM_NETDEV" || fail "address $ADDR"
wait_for port_active irdma0 || fail "port not active"

# A listen on the function's address: refused, with the reason.
timeout 60 rping -s -a $ADDR -C 1 >/tmp/srv.rping 2>&1 && fail "rping -s succeeded"
cat /tmp/srv.rping
grep -q 'rdma_listen.*Operation not supported' /tmp/srv.rping ||
	fail "rping -s did not fail in rdma_listen with EOPNOTSUPP"
echo "ok: rdma_listen refused (EOPNOTSUPP)"

# perftest's rdma_cm server takes the same path.
timeout 60 ib_send_bw -d irdma0 -R -n 5 >/tmp/srv.bw 2>&1 && fail "ib_send_bw -R server succeeded"
grep -qi 'listen' /tmp/srv.bw || { cat /tmp/srv.bw; fail "ib_send_bw -R did not fail to listen"; }
echo "ok: ib_send_bw -R server refused"

# A connect to the function's own address: the driver does not yet take
# an iWARP QP out of RESET (rdma_create_qp moves it to INIT), nor
# connect; either way an error, with no oops.
timeout 60 rping -c -a $ADDR -C 1 >/tmp/cli.rping 2>&1 && fail "rping -c succeeded"
cat /tmp/cli.rping
grep -Eq 'rdma_create_qp|rdma_connect' /tmp/cli.rping ||
	fail "rping -c failed elsewhere than at its QP or its connect"
echo "ok: rping -c refused"

# Nothing is left behind: no QP, no listening or connecting cm_id.
expect_eq "QPs left" "$(rdma resource show qp 2>/dev/null | grep -c irdma0)" 0
expect_eq "cm_ids left" "$(rdma resource show cm_id 2>/dev/null | grep -c irdma0)" 0

# The driver leaves as usual: no QP is held by a reference nobody drops.
unload_irdma
echo 0 >$SIM_BUS/del_device || fail "del_device"
unload_sim
echo "PASS: rdma_cm on an iWARP function fails cleanly"
