# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: stock -- ours: the driver has no connection manager yet (issue 16)
# kernel: debian
# standins: 2
# iWARP between two simulated functions as two hosts. Both functions of
# the ice personality run iWARP (iwarp=1), each with its own address; the
# switch joins their netdevs. The connection managers open TCP
# connections and run MPA through their ILQs (real frames on the
# switch); the QPs then take the connections over, and the engines carry
# their RDMA traffic: rping with its data checked, to a function's own
# address and between the functions both ways, ucmatose with four
# connections, and the close of each connection (FINs on the wire).
. "$IRDMA_REPO/tests/vm/lib.sh"
require rping ucmatose rdma ibv_devinfo

ADDR=192.168.80.1
PEER=192.168.80.2

modprobe -a ib_core ib_uverbs rdma_ucm iw_cm || fail "cannot load the RDMA stack"
load_sim nr_devices=0
for m in ice i40e; do
	[ ! -e "/sys/module/$m/initstate" ] || rmmod "$m" || fail "rmmod $m"
done
insmod "$SIM_ICE_KO" iwarp=1 || fail "insmod irdma_sim_ice.ko iwarp=1"
load_driver
netdev_dev() {
	rdma link show | awk -v n="$1" '$0 ~ "netdev " n "( |$)" { sub("/.*", "", $2); print $2 }'
}
wait_for test -n "$(netdev_dev simeth33)" || fail "no RDMA device on simeth33"
DEV0=$(netdev_dev simeth32)
DEV1=$(netdev_dev simeth33)
expect_eq "transport" "$(devinfo_field "$DEV0" transport)" iWARP
expect_eq "transport" "$(devinfo_field "$DEV1" transport)" iWARP

# Two hosts in one network namespace: each address is on its own
# function's netdev, and what this host sends to the other address leaves
# through the other function's netdev (policy routing ahead of the local
# table), crossing the switch. The drivers resolve neighbours in the
# initial namespace (the stock one only there), so both functions stay
# in it; taking a frame from an address of this host needs accept_local.
ip link set simeth32 up
ip link set simeth33 up
ip addr add $ADDR/32 dev simeth32 || fail "address on simeth32"
ip addr add $PEER/32 dev simeth33 || fail "address on simeth33"
for c in all default simeth32 simeth33; do
	sysctl -qw net.ipv4.conf.$c.rp_filter=0 net.ipv4.conf.$c.accept_local=1 ||
		fail "sysctl for $c"
done
del_rules() {
	ip rule del pref 10 2>/dev/null
	ip rule del pref 11 2>/dev/null
	ip rule add pref 0 lookup local 2>/dev/null
	ip rule del pref 1000 2>/dev/null
	:
}
at_exit del_rules
ip rule add pref 10 iif lo to $PEER lookup 100 || fail "rule to $PEER"
ip rule add pref 11 iif lo to $ADDR lookup 101 || fail "rule to $ADDR"
ip route add $PEER dev simeth32 src $ADDR table 100 || fail "route to $PEER"
ip route add $ADDR dev simeth33 src $PEER table 101 || fail "route to $ADDR"
ip rule add pref 1000 lookup local || fail "local table later"
ip rule del pref 0 || fail "local table first"
wait_for port_active "$DEV0" || fail "$DEV0 not active"
wait_for port_active "$DEV1" || fail "$DEV1 not active"
ping -c 2 -W 2 $PEER || fail "no ping to $PEER"
ping -c 2 -W 2 -I $PEER $ADDR || fail "no ping from $PEER to $ADDR"
ip neigh show
expect_eq "route to $PEER" "$(ip route get $PEER | grep -o 'dev [a-z0-9]*')" "dev simeth32"

fn_stat() {	# FUNCTION KEY
	awk -v k="$2" '$1 == k { print $2 }' "$SIM_DBG/irdma_sim$1/stats"
}
stats() {
	local fn k line

	for fn in 32 33; do
		line="function $fn:"
		for k in uda_tx uda_rx iwarp_offloaded iwarp_lsmm iwarp_fin_tx \
			iwarp_fin_rx iwarp_rst_tx iwarp_rst_rx iwarp_unreached \
			stream_unmodelled; do
			line+=" $k $(fn_stat $fn $k)"
		done
		echo "$line"
	done
}

# rping: COUNT pings of SIZE bytes, each checked (-v prints the data,
# and the client compares what it reads back with what it wrote).
rping_run() {	# NAME SERVER_ADDR CLIENT_ADDR
	local name=$1 saddr=$2 caddr=$3

	timeout 120 rping -s -a "$saddr" -v -C 10 -S 100 >/tmp/srv.rp 2>&1 &
	local srv=$!
	wait_for -t 20 cm_listening || { cat /tmp/srv.rp; fail "$name: no listener"; }
	timeout 120 rping -c -a "$saddr" -I "$caddr" -v -C 10 -S 100 >/tmp/cli.rp 2>&1
	local rc=$?
	wait $srv
	local src=$?
	if [ $rc -ne 0 ] || [ $src -ne 0 ]; then
		cat /tmp/srv.rp /tmp/cli.rp
		stats
		dmesg | tail -30
		fail "$name: client $rc, server $src"
	fi
	expect_eq "$name: pings the client checked" \
		"$(grep -c '^ping data: rdma-ping-' /tmp/cli.rp)" 10
	expect_eq "$name: pings the server saw" \
		"$(grep -c '^server ping data: rdma-ping-' /tmp/srv.rp)" 10
	echo "ok: $name"
}

rping_run "rping to the function's own address" $ADDR $ADDR
rping_run "rping from $DEV0 to $DEV1" $PEER $ADDR
rping_run "rping from $DEV1 to $DEV0" $ADDR $PEER
stats
[ "$(fn_stat 32 iwarp_offloaded)" -ge 2 ] && [ "$(fn_stat 33 iwarp_offloaded)" -ge 2 ] ||
	check_failed "not every connection was offloaded"
[ "$(fn_stat 32 iwarp_lsmm)" -ge 1 ] && [ "$(fn_stat 33 iwarp_lsmm)" -ge 1 ] ||
	check_failed "a passive side sent no MPA reply from its QP"
[ "$(fn_stat 32 iwarp_fin_tx)" -ge 1 ] && [ "$(fn_stat 33 iwarp_fin_tx)" -ge 1 ] ||
	check_failed "no connection was closed with FINs"
expect_eq "unmodelled stream frames" \
	"$(($(fn_stat 32 stream_unmodelled) + $(fn_stat 33 stream_unmodelled)))" 0

# ucmatose: connections, sends both ways, disconnects.
timeout 120 ucmatose -c 4 -C 20 >/tmp/srv.ucm 2>&1 &
srv=$!
wait_for -t 20 cm_listening || { cat /tmp/srv.ucm; fail "ucmatose: no listener"; }
timeout 120 ucmatose -c 4 -C 20 -s $ADDR -b $PEER >/tmp/cli.ucm 2>&1
rc=$?
wait $srv
src=$?
if [ $rc -ne 0 ] || [ $src -ne 0 ]; then
	cat /tmp/srv.ucm /tmp/cli.ucm
	stats
	check_failed "ucmatose: client $rc, server $src"
else
	grep -q 'test complete' /tmp/cli.ucm || check_failed "ucmatose: client did not complete"
	echo "ok: ucmatose, 4 connections"
fi
stats

expect_eq "cm_ids left" "$(rdma resource show cm_id 2>/dev/null | grep -c irdma)" 0
unload_driver
rmmod irdma_sim_ice || fail "rmmod irdma_sim_ice"
unload_sim
[ $CHECKS_FAILED -eq 0 ] || fail "$CHECKS_FAILED checks failed"
echo "PASS: iWARP connections and traffic between two functions"
