# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours -- it runs the stock driver and ours (as irdma_twin.ko) side by side itself
# kernel: debian
# standins: 2
# Debian's irdma.ko on simulated function 32 and ours, built a second
# time as irdma_twin.ko ("make twin"), on function 33,
# in one kernel, function 33's netdev in a network namespace of its own:
# the two drivers as two hosts on the simulator's fabric. perftest RC and
# UD bandwidth and latency both ways, rping with data checks both ways,
# ucmatose and udaddy: our contexts, address handles and GSI/MAD path
# against an implementation nobody here wrote.
. "$IRDMA_REPO/tests/vm/lib.sh"
require ib_send_bw ib_send_lat ib_write_bw ib_write_lat ib_read_bw ib_read_lat rping ucmatose udaddy rdma ss ibv_devinfo

TWIN_KO=${IRDMA_TEST_TWIN_KO:-/var/cache/irdma/twin/irdma_twin.ko}
ADDR=192.168.77.1
PEER=192.168.77.2
[ -f "$TWIN_KO" ] || fail "no $TWIN_KO (make twin)"

# The RDMA device on a netdev, and that netdev's GID index for an address.
dev_of() { rdma_dev_of "$1"; }
gid_of() {
	local hex

	hex=$(ipv4_gid_hex "$2")
	basename "$(grep -l "$hex" /sys/class/infiniband/"$1"/ports/1/gids/* | head -1)"
}
has_dev() { [ -n "$(dev_of "$1")" ]; }
has_gid_of() { [ -n "$(gid_of "$1" "$2")" ]; }

modprobe -a ib_core ib_uverbs rdma_ucm || fail "ib_core"
load_sim nr_devices=0
load_sim_ice
load_stock
wait_for has_dev simeth33 || fail "the stock driver took no function 33"
# Function 33 goes from the stock driver to ours.
echo ice.roce.33 >/sys/bus/auxiliary/drivers/irdma/unbind || fail "unbind 33 from irdma"
insmod "$TWIN_KO" || fail "insmod irdma_twin.ko"
wait_for test -e /sys/bus/auxiliary/drivers/irdma_twin/ice.roce.33 ||
	fail "irdma_twin did not bind function 33"
[ ! -e /sys/bus/auxiliary/drivers/irdma_twin/ice.roce.32 ] ||
	fail "irdma_twin took function 32 from the stock driver"
wait_for has_dev simeth33 || fail "no RDMA device on simeth33"
STOCK=$(dev_of simeth32)
OURS=$(dev_of simeth33)
echo "stock driver: $STOCK (simeth32); ours: $OURS (simeth33, namespace peer)"

ip link set simeth32 up
ip addr add $ADDR/24 dev simeth32 || fail "address on simeth32"
ip netns add peer || fail "netns"
ip link set simeth33 netns peer || fail "simeth33 into the namespace"
ip -n peer link set lo up
ip -n peer link set simeth33 up
ip -n peer addr add $PEER/24 dev simeth33 || fail "address on simeth33"
wait_for port_active "$STOCK" || fail "$STOCK not active"
wait_for port_active "$OURS" || fail "$OURS not active"
ip netns exec peer ping -c 2 -W 2 $ADDR || fail "no ping from the namespace"
ping -c 2 -W 2 $PEER || fail "no ping into the namespace"
wait_for has_gid_of "$STOCK" $ADDR || fail "no GID for $ADDR"
wait_for has_gid_of "$OURS" $PEER || fail "no GID for $PEER"
GS=$(gid_of "$STOCK" $ADDR)
GO=$(gid_of "$OURS" $PEER)

# A perftest server on one driver, its client on the other.
#   across NAME TOOL SERVER-SIDE ARGS...   (SERVER-SIDE: stock or ours)
across() {
	local name=$1 tool=$2 side=$3 srv_ns='' cli_ns='' srv_netns='' sdev cdev sg cg to
	shift 3

	if [ "$side" = stock ]; then
		sdev=$STOCK sg=$GS cdev=$OURS cg=$GO cli_ns="ip netns exec peer" to=$ADDR
	else
		sdev=$OURS sg=$GO cdev=$STOCK cg=$GS srv_ns="ip netns exec peer" to=$PEER
		srv_netns=peer
	fi
	timeout 120 $srv_ns $tool -d "$sdev" -x "$sg" -F "$@" >/tmp/srv.x 2>&1 &
	wait_for -t 20 tcp_listening 18515 "$srv_netns" ||
		{ cat /tmp/srv.x; fail "$name: no server on $side"; }
	timeout 120 $cli_ns $tool -d "$cdev" -x "$cg" -F "$@" $to >/tmp/cli.x 2>&1 ||
		{ cat /tmp/srv.x /tmp/cli.x; fail "$name: client to the $side side"; }
	wait $! || { cat /tmp/srv.x; fail "$name: server on the $side side"; }
	grep -A1 -E '^ #bytes' /tmp/cli.x | tail -1
	echo "ok: $name, server on the $side side"
}

for side in stock ours; do	# the server's driver: Debian's, then ours
	across "RC send" ib_send_bw $side -s 65536 -n 50
	across "RC write" ib_write_bw $side -s 65536 -n 50
	across "RC read" ib_read_bw $side -s 65536 -n 50
	across "UD send" ib_send_bw $side -c UD -s 1024 -n 100
	across "send latency" ib_send_lat $side -s 64 -I 64 -n 100
	across "write latency" ib_write_lat $side -s 64 -I 64 -n 100
	across "read latency" ib_read_lat $side -s 64 -n 100
done

# rdma_cm: the connection MADs go over both drivers' GSI QPs.
cm_pair() {	# NAME SERVER-NS CLIENT-NS SERVER-ADDR TOOL SERVER-ARGS -- CLIENT-ARGS
	local name=$1 sns=$2 cns=$3 to=$4 tool=$5 sargs=$6 cargs=$7
	local sns_name=${sns##* }	# the namespace's name: "ip netns exec NAME"

	timeout 120 $sns $tool $sargs >/tmp/srv.cm 2>&1 &
	wait_for -t 20 cm_listening "$sns_name" ||
		{ cat /tmp/srv.cm; fail "$name: no listener"; }
	timeout 120 $cns $tool $cargs >/tmp/cli.cm 2>&1 ||
		{ cat /tmp/srv.cm /tmp/cli.cm; fail "$name: client"; }
	wait $! || { cat /tmp/srv.cm; fail "$name: server"; }
	echo "ok: $name"
}
NS="ip netns exec peer"
cm_pair "rping, server on the stock driver" "" "$NS" $ADDR rping \
	"-s -a $ADDR -v -V -C 10 -S 100" "-c -a $ADDR -v -V -C 10 -S 100"
expect_eq "checked rping replies from the stock driver" "$(grep -c 'ping data:' /tmp/cli.cm)" 10
cm_pair "rping, server on ours" "$NS" "" $PEER rping \
	"-s -a $PEER -v -V -C 10 -S 100" "-c -a $PEER -v -V -C 10 -S 100"
expect_eq "checked rping replies from ours" "$(grep -c 'ping data:' /tmp/cli.cm)" 10
cm_pair "ucmatose, server on the stock driver" "" "$NS" $ADDR ucmatose \
	"-c 2 -C 10" "-s $ADDR -c 2 -C 10"
cm_pair "ucmatose, server on ours" "$NS" "" $PEER ucmatose "-c 2 -C 10" "-s $PEER -c 2 -C 10"
cm_pair "udaddy, server on the stock driver" "" "$NS" $ADDR udaddy \
	"-c 2 -C 10" "-s $ADDR -c 2 -C 10"
cm_pair "udaddy, server on ours" "$NS" "" $PEER udaddy "-c 2 -C 10" "-s $PEER -c 2 -C 10"

# Function 0, on the simulator's own front-end (irdma_twin binds it too),
# in a third namespace: frames cross the switch between it and the ice
# personality's functions, and RDMA between it and the stock driver.
THIRD=192.168.77.3
echo "0 roce" >$SIM_BUS/new_device || fail "function 0"
wait_for has_dev simeth0 || fail "no RDMA device on simeth0"
OURS0=$(dev_of simeth0)
ip netns add third || fail "netns third"
ip link set simeth0 netns third || fail "simeth0 into its namespace"
ip -n third link set lo up
ip -n third link set simeth0 up
ip -n third addr add $THIRD/24 dev simeth0 || fail "address on simeth0"
ip netns exec third ping -c 2 -W 2 $PEER || fail "no ping from function 0 to 33"
ip netns exec third ping -c 2 -W 2 $ADDR || fail "no ping from function 0 to 32"
wait_for has_gid_of "$OURS0" $THIRD || fail "no GID for $THIRD"
timeout 120 ib_write_bw -d "$STOCK" -x "$GS" -F -s 65536 -n 50 >/tmp/srv.x 2>&1 &
wait_for -t 20 tcp_listening 18515 || fail "no server on $STOCK"
timeout 120 ip netns exec third ib_write_bw -d "$OURS0" -x "$(gid_of "$OURS0" $THIRD)" -F \
	-s 65536 -n 50 $ADDR >/tmp/cli.x 2>&1 || { cat /tmp/srv.x /tmp/cli.x; fail "RC write from function 0"; }
wait $! || { cat /tmp/srv.x; fail "RC write: server on the stock driver"; }
echo "ok: function 0 ($OURS0, ours, simulator front-end) to 32 ($STOCK, stock): ping, RC write"
ip netns del third
wait_for -t 10 test -e /sys/class/net/simeth0 || fail "simeth0 did not come back"
echo 0 >$SIM_BUS/del_device || fail "removing function 0"

ip netns del peer
wait_for -t 10 test -e /sys/class/net/simeth33 || fail "simeth33 did not come back"
rmmod irdma_twin || fail "rmmod irdma_twin"
rmmod irdma || fail "rmmod irdma"
rmmod irdma_sim_ice || fail "rmmod irdma_sim_ice"
unload_sim
echo "PASS: the stock driver and ours as two hosts on one fabric"
