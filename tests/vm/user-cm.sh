# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours stock
# Debian's rdma_cm tools on irdma0 (rping checking its data, ucmatose,
# udaddy), then ten ib_send_bw runs (four on the sanitizing kernel),
# after each of which the resource counts are back where they were.
. "$IRDMA_REPO/tests/vm/lib.sh"
require ib_send_bw rping ucmatose udaddy rdma ss ibv_devinfo

ADDR=192.168.77.1
load_stack
roce_up $ADDR

PT="-d irdma0 -x $GIDX -F"

# rping checks each reply's data (-V) and prints it (-v).
timeout 120 rping -s -a $ADDR -v -V -C 10 -S 100 >/tmp/srv.rping 2>&1 &
listening
timeout 120 rping -c -a $ADDR -v -V -C 10 -S 100 >/tmp/cli.rping 2>&1 ||
	{ cat /tmp/*.rping; fail "rping client"; }
wait $! || { cat /tmp/*.rping; fail "rping server"; }
expect_eq "rping pings with checked data" "$(grep -c 'ping data:' /tmp/cli.rping)" 10
timeout 120 ucmatose -c 2 -C 10 >/tmp/srv.ucm 2>&1 &
listening
timeout 120 ucmatose -s $ADDR -c 2 -C 10 >/tmp/cli.ucm 2>&1 || { cat /tmp/*.ucm; fail "ucmatose"; }
wait $! || fail "ucmatose server"
echo "ok: ucmatose"
timeout 120 udaddy -c 2 -C 10 >/tmp/srv.uda 2>&1 &
listening
timeout 120 udaddy -s $ADDR -c 2 -C 10 >/tmp/cli.uda 2>&1 || { cat /tmp/*.uda; fail "udaddy"; }
wait $! || fail "udaddy server"
echo "ok: udaddy"

# Ten runs (four on the sanitizing kernel), and nothing left behind
# after each.
res() { rdma resource show "$1" 2>/dev/null | grep -c 'irdma0' ; }
base_qp=$(res qp) base_cq=$(res cq) base_mr=$(res mr) base_pd=$(res pd)
runs=10
sanitizing && runs=4
for i in $(seq 1 $runs); do
	pair "ib_send_bw run $i" ib_send_bw $PT -s 4096 -n 50
	[ "$(res qp) $(res cq) $(res mr) $(res pd)" = "$base_qp $base_cq $base_mr $base_pd" ] ||
		fail "resources after run $i: qp $(res qp) cq $(res cq) mr $(res mr) pd $(res pd)"
done
echo "ok: $runs ib_send_bw runs, resources back to qp $base_qp cq $base_cq mr $base_mr pd $base_pd"

ip addr del $ADDR/24 dev "$SIM_NETDEV"
unload_stack
echo "PASS: rdma_cm tools and repeated runs on irdma0 ($IRDMA_DRIVER)"
