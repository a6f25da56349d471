# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours ours-ice stock
# kernel: debian
# standins: 2
# perftest between two simulated functions as two hosts: the second
# function (1, or under the ice personality 33, the second stand-in PCI
# function) has its netdev moved into its own network namespace, so that
# each namespace has one function answering ARP; the simulator's Ethernet
# switch joins the two netdevs (ARP and the perftest TCP exchange go over
# it), and perftest runs from irdma1 in the namespace to irdma0 over the
# RDMA fabric: RC send, write and read bandwidth, send across sizes to
# 8 MiB, inline, UD, and the three latency tests.
. "$IRDMA_REPO/tests/vm/lib.sh"
require ib_send_bw ib_send_lat ib_write_bw ib_write_lat ib_read_bw ib_read_lat rdma ss ibv_devinfo

ADDR=192.168.77.1
PEER=192.168.77.2
load_stack
roce_up $ADDR
if [ "$IRDMA_DRIVER" = ours ]; then
	echo "1 roce" >$SIM_BUS/new_device || fail "second function"
	PEER_NETDEV=simeth1
else
	PEER_NETDEV=simeth33
fi
wait_for test -e /sys/class/infiniband/irdma1 || fail "no irdma1"
expect_eq "irdma1's netdev" "$(rdma link show irdma1/1 | grep -o 'netdev [a-z0-9]*')" \
	"netdev $PEER_NETDEV"
ip netns add peer || fail "netns"
ip link set $PEER_NETDEV netns peer || fail "$PEER_NETDEV into the namespace"
ip -n peer link set lo up
ip -n peer link set $PEER_NETDEV up
ip -n peer addr add $PEER/24 dev $PEER_NETDEV || fail "address on $PEER_NETDEV"
# A TCP connection attempt (refused) makes the namespace resolve $ADDR;
# the switch carries the ARP request and the reply.
reach() {
	ip netns exec peer timeout 2 bash -c "echo >/dev/tcp/$ADDR/9" 2>/dev/null
	ip -n peer neigh show "$ADDR" | grep -q "lladdr $(cat /sys/class/net/$SIM_NETDEV/address)"
}
wait_for -t 20 reach || { ip -n peer neigh; fail "no IP between the functions"; }
# The switch hands frames over as a wire would: an ICMP echo crosses
# from the namespace and its reply comes back, both ways.
ip netns exec peer ping -c 2 -W 2 $ADDR || fail "no ping from the namespace"
ping -c 2 -W 2 $PEER || fail "no ping into the namespace"
echo "ok: the two functions' netdevs reach each other through the switch"
# irdma1's RoCEv2 GID for the peer address (::ffff:192.168.77.2).
wait_for has_gid irdma1 c0a8:4d02 ||
	fail "no GID for $PEER on irdma1"
G1=$(basename "$(grep -l c0a8:4d02 /sys/class/infiniband/irdma1/ports/1/gids/* | tail -1)")

two_hosts() {
	local name=$1 tool=$2

	shift 2
	timeout 120 $tool -d irdma0 -x "$GIDX" -F "$@" >/tmp/srv.2h 2>&1 &
	wait_for -t 20 tcp_listening 18515 ||
		{ cat /tmp/srv.2h; fail "$name: server never listened"; }
	timeout 120 ip netns exec peer $tool -d irdma1 -x "$G1" -F "$@" $ADDR \
		>/tmp/cli.2h 2>&1 || { cat /tmp/srv.2h /tmp/cli.2h; fail "$name from irdma1"; }
	wait $! || { cat /tmp/srv.2h; fail "$name: server on irdma0"; }
	grep -A1 -E '^ #bytes' /tmp/cli.2h | tail -1
	echo "ok: $name from function 1 (irdma1, namespace peer) to function 0 (irdma0)"
}

for t in ib_send_bw ib_write_bw ib_read_bw; do
	two_hosts "$t" $t -s 65536 -n 100
done
two_hosts "ib_send_bw -a" ib_send_bw -a -n 10
grep -qE '^ +8388608 ' /tmp/cli.2h || fail "ib_send_bw -a did not reach 8 MiB"
two_hosts "ib_send_bw inline" ib_send_bw -s 64 -I 64 -n 200
two_hosts "ib_send_bw UD" ib_send_bw -c UD -s 1024 -n 200
for t in ib_send_lat ib_write_lat; do
	two_hosts "$t" $t -s 64 -I 64 -n 200
done
two_hosts "ib_read_lat" ib_read_lat -s 64 -n 200
# Both functions carried traffic: each counted IPv4 packets in.
for d in irdma0 irdma1; do
	n=$(rdma statistic show link "$d/1" 2>/dev/null |
		grep -o 'ip4InPkts [0-9]*' | awk '{ print $2 }')
	[ "${n:-0}" -gt 0 ] || fail "$d counted no IPv4 receives"
	echo "ok: $d ip4InPkts $n"
done
ip netns del peer
wait_for -t 10 test -e "/sys/class/net/$PEER_NETDEV" || fail "$PEER_NETDEV did not come back"
if [ "$IRDMA_DRIVER" = ours ]; then
	echo 1 >$SIM_BUS/del_device || fail "removing the second function"
fi
ip addr del $ADDR/24 dev "$SIM_NETDEV"
unload_stack
echo "PASS: perftest between two simulated functions as two hosts"
