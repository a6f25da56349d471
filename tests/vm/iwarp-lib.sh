# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# iWARP between two simulated functions as two hosts, for the tests that
# set the functions up (iwarp-two-hosts, iwarp-interop, iwarp-robust,
# iwarp-hot-remove): FN0 and FN1 are the functions, NET0 and NET1 their
# netdevs, DEV0 and DEV1 their RDMA devices.

ADDR=192.168.80.1
PEER=192.168.80.2
# The functions the stock driver runs (iwarp-interop sets its own).
STOCK_FNS=${STOCK_FNS:-}

# Two iWARP functions with the driver under test: ours on the simulator's
# own functions 0 and 1, the stock one on the ice personality's 32 and 33.
iwarp_functions_up() {
	modprobe -a ib_core ib_uverbs rdma_ucm iw_cm || fail "cannot load the RDMA stack"
	load_sim nr_devices=0
	if [ "$IRDMA_DRIVER" = ours ]; then
		FN0=0 FN1=1
		STOCK_FNS=
		echo "0 iwarp" >$SIM_BUS/new_device || fail "function 0"
		echo "1 iwarp" >$SIM_BUS/new_device || fail "function 1"
		load_irdma_deps
		load_irdma
	else
		FN0=32 FN1=33
		STOCK_FNS="32 33"
		load_sim_ice iwarp=1
		load_driver
	fi
	NET0=simeth$FN0
	NET1=simeth$FN1
	wait_for test -n "$(rdma_dev_of $NET1)" || fail "no RDMA device on $NET1"
	DEV0=$(rdma_dev_of $NET0)
	DEV1=$(rdma_dev_of $NET1)
	# Four debug registers: each function traps both of its CQP's (the
	# second takes the first's CQACK one), on which the stock driver spins
	# for at most 10 ms in bring-up and teardown.
	expect_eq "CQP registers trapped on $FN0" "$(fn_stat $FN0 trapped_regs)" 2
	expect_eq "CQP registers trapped on $FN1" "$(fn_stat $FN1 trapped_regs)" 2
}

# The driver and the simulator unloaded; FUNCTION... are the simulator's
# own functions still there (ours).
iwarp_functions_down() {	# FUNCTION...
	local fn

	if [ "$IRDMA_DRIVER" = ours ]; then
		unload_irdma
		for fn in "$@"; do
			echo "$fn" >$SIM_BUS/del_device
		done
	else
		unload_driver
		rmmod irdma_sim_ice || fail "rmmod irdma_sim_ice"
	fi
	unload_sim
}

# Two hosts in one network namespace: each address is on its own
# function's netdev, and what this host sends to the other address leaves
# through the other function's netdev (policy routing ahead of the local
# table), crossing the switch. The drivers resolve neighbours in the
# initial namespace (the stock one only there), so both functions stay
# in it; taking a frame from an address of this host needs accept_local.
iwarp_hosts_net() {
	ip link set $NET0 up
	ip link set $NET1 up
	ip addr add $ADDR/32 dev $NET0 || fail "address on $NET0"
	ip addr add $PEER/32 dev $NET1 || fail "address on $NET1"
	for c in all default $NET0 $NET1; do
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
	ip route add $PEER dev $NET0 src $ADDR table 100 || fail "route to $PEER"
	ip route add $ADDR dev $NET1 src $PEER table 101 || fail "route to $ADDR"
	ip rule add pref 1000 lookup local || fail "local table later"
	ip rule del pref 0 || fail "local table first"
	wait_for port_active "$DEV0" || fail "$DEV0 not active"
	wait_for port_active "$DEV1" || fail "$DEV1 not active"
	ping -c 2 -W 2 $PEER || fail "no ping to $PEER"
	ping -c 2 -W 2 -I $PEER $ADDR || fail "no ping from $PEER to $ADDR"
	ip neigh show
	expect_eq "route to $PEER" "$(ip route get $PEER | grep -o 'dev [a-z0-9]*')" "dev $NET0"
}

qps_on() { rdma resource show qp 2>/dev/null | grep -q "$1"; }	# DEV
fn_stat() {	# FUNCTION KEY
	stat_of "$SIM_DBG/irdma_sim$1/stats" "$2"
}
stats() {
	local fn k line

	for fn in $FN0 $FN1; do
		line="function $fn:"
		for k in uda_tx uda_rx iwarp_offloaded iwarp_lsmm iwarp_fin_tx \
			iwarp_fin_rx iwarp_rst_tx iwarp_rst_rx iwarp_unreached \
			stream_unmodelled; do
			line+=" $k $(fn_stat $fn $k)"
		done
		echo "$line"
	done
}

# rping: COUNT pings of SIZE bytes (10 of 100 unless said), each checked
# (-v prints the data, -V has the client compare what it reads back with
# what it wrote). A failure ends the test, or with SOFT 1 fails a check.
rping_run() {	# NAME SERVER_ADDR CLIENT_ADDR [COUNT [SIZE [SOFT]]]
	local name=$1 saddr=$2 caddr=$3 count=${4:-10} size=${5:-100} soft=${6:-0}

	timeout 120 rping -s -a "$saddr" -v -V -C "$count" -S "$size" >/tmp/srv.rp 2>&1 &
	local srv=$!
	wait_for -t 20 cm_listening || { cat /tmp/srv.rp; fail "$name: no listener"; }
	timeout 120 rping -c -a "$saddr" -I "$caddr" -v -V -C "$count" -S "$size" \
		>/tmp/cli.rp 2>&1
	local rc=$?
	wait $srv
	local src=$?
	if [ $rc -ne 0 ] || [ $src -ne 0 ]; then
		cat /tmp/srv.rp /tmp/cli.rp
		stats
		cat "$SIM_DBG/irdma_sim$FN0/stats"
		dmesg | tail -40
		[ "$soft" = 1 ] || fail "$name: client $rc, server $src"
		check_failed "$name: client $rc, server $src"
		return
	fi
	expect_eq "$name: pings the client checked" \
		"$(grep -c '^ping data: rdma-ping-' /tmp/cli.rp)" "$count"
	expect_eq "$name: pings the server saw" \
		"$(grep -c '^server ping data: rdma-ping-' /tmp/srv.rp)" "$count"
	echo "ok: $name"
}

# The device holding ADDR or PEER.
dev_of_addr() {	# ADDR
	if [ "$1" = "$ADDR" ]; then echo "$DEV0"; else echo "$DEV1"; fi
}

# A wildcard listener (ucmatose's, on its port 7471) listens on each
# device in turn: the one connected to is waited for.
ucmatose_run() {	# NAME SERVER_ADDR CLIENT_ADDR
	local name=$1 saddr=$2 caddr=$3 srv rc src

	timeout 120 ucmatose -c 4 -C 20 >/tmp/srv.ucm 2>&1 &
	srv=$!
	wait_for -t 20 cm_port_listening 7471 "$(dev_of_addr "$saddr")" ||
		{ cat /tmp/srv.ucm; fail "$name: no listener"; }
	timeout 120 ucmatose -c 4 -C 20 -s "$saddr" -b "$caddr" >/tmp/cli.ucm 2>&1
	rc=$?
	wait $srv
	src=$?
	if [ $rc -ne 0 ] || [ $src -ne 0 ]; then
		cat /tmp/srv.ucm /tmp/cli.ucm
		stats
		check_failed "$name: client $rc, server $src"
		return
	fi
	grep -q 'test complete' /tmp/cli.ucm || check_failed "$name: the client did not complete"
	echo "ok: $name, 4 connections"
}

# perftest over rdma_cm (-R), its server on DEV1, its client on DEV0;
# the figures it prints go to the log. Each report starts with perftest
# fitting the TSC against gettimeofday() over 200 samples; the simulator's
# threads take the CPUs from it meanwhile (under KASAN a look at an idle
# function is ~0.3 ms, every ~2 ms on each CPU), and one of them landing
# between the two clock reads of a sample spoils the fit (r^2 < 0.9).
# Without -F perftest then exits in the middle of a run; with it, as
# every other perftest run here, it goes on and that report reads 0.
perftest_run() {	# NAME TOOL ARG...
	local name=$1 tool=$2 srv rc src fits

	shift 2
	timeout 300 "$tool" -d "$DEV1" -R -F "$@" >/tmp/srv.pt 2>&1 &
	srv=$!
	# Its listener is a wildcard one, on port 18515.
	wait_for -t 20 cm_port_listening 18515 "$DEV1" || { cat /tmp/srv.pt; fail "$name: no listener"; }
	timeout 300 "$tool" -d "$DEV0" -R -F "$@" $PEER >/tmp/cli.pt 2>&1
	rc=$?
	wait $srv
	src=$?
	if [ $rc -ne 0 ] || [ $src -ne 0 ]; then
		cat /tmp/srv.pt /tmp/cli.pt
		stats
		check_failed "$name: client $rc, server $src"
		return
	fi
	echo "ok: $name:"
	grep -E '^ +[0-9]+ +[0-9]+ ' /tmp/cli.pt | tail -3
	fits=$(cat /tmp/srv.pt /tmp/cli.pt | grep -c 'Correlation coefficient')
	[ "$fits" -eq 0 ] || echo "($fits of its clock fits failed: those figures read 0)"
}

# The traffic: rping, a closed port, ucmatose both ways.
iwarp_traffic() {
	rping_run "rping to the function's own address" $ADDR $ADDR
	rping_run "rping from $DEV0 to $DEV1" $PEER $ADDR
	rping_run "rping from $DEV1 to $DEV0" $ADDR $PEER
	echo "[${SECONDS}s] rping done"
	stats
	[ "$(fn_stat $FN0 iwarp_offloaded)" -ge 2 ] && [ "$(fn_stat $FN1 iwarp_offloaded)" -ge 2 ] ||
		check_failed "not every connection was offloaded"
	[ "$(fn_stat $FN0 iwarp_lsmm)" -ge 1 ] && [ "$(fn_stat $FN1 iwarp_lsmm)" -ge 1 ] ||
		check_failed "a passive side sent no MPA reply from its QP"
	[ "$(fn_stat $FN0 iwarp_fin_tx)" -ge 1 ] && [ "$(fn_stat $FN1 iwarp_fin_tx)" -ge 1 ] ||
		check_failed "no connection was closed with FINs"
	expect_eq "unmodelled stream frames" \
		"$(($(fn_stat $FN0 stream_unmodelled) + $(fn_stat $FN1 stream_unmodelled)))" 0

	# Nobody listens on the port: the peer's stack resets the connection; as
	# upstream's, the driver retries once with MPA revision 1, then reports a
	# reset (rdma_cm: REJECTED, -ECONNRESET), within seconds.
	start=$SECONDS
	timeout 60 rping -c -a $PEER -I $ADDR -p 7199 -C 1 >/tmp/cli.rp 2>&1 && fail "rping -c succeeded"
	cat /tmp/cli.rp
	grep -q 'RDMA_CM_EVENT_REJECTED, error -104' /tmp/cli.rp ||
		check_failed "a connect to a closed port did not end in a reset"
	[ $((SECONDS - start)) -lt 30 ] || check_failed "the refusal took $((SECONDS - start)) s"
	echo "ok: a closed port refuses the connection"
	echo "[${SECONDS}s] refusal done"

	# perftest's rdma_cm mode: bandwidth and latency. On the sanitizing
	# kernel ib_read_bw alone (its reads take the IRD/ORD the connection
	# negotiated), with a tenth of the iterations: rping's reads, writes
	# and sends take the same paths, the rest runs on Debian's kernel (in
	# iwarp-interop with ours at one end), and the figures there measure
	# KASAN.
	local n=200 san=
	sanitizing && n=20 san=1
	[ -n "$san" ] || perftest_run "ib_send_bw -R" ib_send_bw -s 65536 -n $n
	[ -n "$san" ] || perftest_run "ib_send_bw -R -a (to 8 MiB)" ib_send_bw -a -n 20
	[ -n "$san" ] || perftest_run "ib_write_bw -R" ib_write_bw -s 65536 -n $n
	perftest_run "ib_read_bw -R" ib_read_bw -s 65536 -n $n
	if [ -z "$san" ]; then
		perftest_run "ib_send_lat -R" ib_send_lat -s 64 -I 64 -n $n
		perftest_run "ib_write_lat -R" ib_write_lat -s 64 -I 64 -n $n
		perftest_run "ib_read_lat -R" ib_read_lat -s 64 -n $n
	fi
	echo "[${SECONDS}s] perftest done"

	# ucmatose: four connections, sends both ways, disconnects (from
	# DEV1 alone on the sanitizing kernel; DEV0 connects in the storm).
	ucmatose_run "ucmatose from $DEV1 to $DEV0" $ADDR $PEER
	[ -n "$san" ] || ucmatose_run "ucmatose from $DEV0 to $DEV1" $PEER $ADDR
	stats
}

# A disconnect storm: 100 rping clients one after another, each a
# connect, a checked ping and a disconnect, to one persistent server;
# every connection is offloaded and closed with FINs, none reset. 10 on
# the sanitizing kernel, where a cycle takes ~2.8 s against Debian's
# ~0.2 s.
iwarp_storm() {
	local ok=0 i n=100 srv start=$SECONDS off fins rsts

	sanitizing && n=10
	off=$(fn_stat $FN1 iwarp_offloaded)
	fins=$(fn_stat $FN1 iwarp_fin_rx)
	rsts=$(($(fn_stat $FN0 iwarp_rst_rx) + $(fn_stat $FN1 iwarp_rst_rx)))
	timeout 600 rping -s -P -a $PEER -C 1 -S 64 >/tmp/srv.st 2>&1 &
	srv=$!
	wait_for -t 20 cm_listening || { cat /tmp/srv.st; fail "storm: no listener"; }
	for i in $(seq 1 $n); do
		if timeout 30 rping -c -a $PEER -I $ADDR -C 1 -S 64 -v >/tmp/cli.st 2>&1 &&
		   grep -q '^ping data: rdma-ping-' /tmp/cli.st; then
			ok=$((ok + 1))
		else
			echo "storm: cycle $i failed:"
			cat /tmp/cli.st
		fi
	done
	kill $srv
	wait $srv
	echo "storm: $n cycles in $((SECONDS - start)) s"
	expect_eq "storm: cycles with their ping checked" $ok $n
	expect_eq "storm: connections offloaded at the server" \
		$(($(fn_stat $FN1 iwarp_offloaded) - off)) $n
	expect_eq "storm: FINs the server took" $(($(fn_stat $FN1 iwarp_fin_rx) - fins)) $n
	expect_eq "storm: resets" \
		$(($(fn_stat $FN0 iwarp_rst_rx) + $(fn_stat $FN1 iwarp_rst_rx) - rsts)) 0
	expect_eq "storm: QPs left on $DEV1" \
		"$(rdma resource show qp 2>/dev/null | grep -c "$DEV1")" 0
}

# A wildcard listener follows its host's addresses (upstream's address
# notifiers): a third address given to DEV1's netdev after the listen
# takes a connection, and a SYN to it a SYN-ACK; once the address is
# gone, a SYN to it finds no quad hash entry and goes to the LAN side
# (tcp_to_lan), unanswered. The SYNs are raw frames from NET0
# (tests/vm/syn-flood.py), from addresses only DEV1's neighbour table
# knows: a connect would wait in iw_cm for its SYN's retransmissions to
# run out (minutes), even killed.
iwarp_wildcard_addrs() {
	local new=192.168.80.3 srv lan cli rst_tx rst_rx

	# A raw SYN to NEW from FROM: the SYN-ACKs that came back.
	raw_syn() {	# FROM
		ip route add "$1" dev $NET1
		ip neigh replace "$1" lladdr "$(cat /sys/class/net/$NET0/address)" \
			dev $NET1 nud permanent
		timeout 30 python3 "$IRDMA_REPO/tests/vm/syn-flood.py" $NET0 \
			"$(cat /sys/class/net/$NET1/address)" $new 7181 "$1" 1 3 >/tmp/syn.wc 2>&1
		ip neigh del "$1" dev $NET1
		ip route del "$1" dev $NET1
		sed -n 's/^synack \([0-9]*\) .*/\1/p' /tmp/syn.wc | tail -1
	}

	timeout 120 rping -s -P -p 7181 -C 1 -S 64 >/tmp/srv.wc 2>&1 &
	srv=$!
	wait_for -t 20 cm_port_listening 7181 "$DEV1" ||
		{ cat /tmp/srv.wc; fail "wildcard: no listener"; }
	ip addr add $new/32 dev $NET1 || fail "$new on $NET1"
	ip rule add pref 12 iif lo to $new lookup 100 || fail "rule to $new"
	ip route add $new dev $NET0 src $ADDR table 100 || fail "route to $new"
	timeout 60 rping -c -a $new -I $ADDR -p 7181 -C 1 -S 64 -v >/tmp/cli.wc 2>&1
	grep -q '^ping data: rdma-ping-' /tmp/cli.wc ||
		{ cat /tmp/cli.wc; check_failed "wildcard: no connection to $new, added after the listen"; }
	echo "ok: a wildcard listener takes connections to an address added after it"
	expect_eq "wildcard: SYN-ACKs to a raw SYN for $new" "$(raw_syn 192.168.80.100)" 1
	# A new listener, which resets the half-open connection that SYN
	# left: upstream 6.12's address removal takes every connection of the
	# address for one with a QP (irdma_cm_teardown_connections()), and a
	# half-open one's NULL QP oopses the stock driver.
	kill $srv
	wait $srv
	timeout 120 rping -s -P -p 7181 -S 64 >/tmp/srv.wc 2>&1 &
	srv=$!
	wait_for -t 20 cm_port_listening 7181 "$DEV1" ||
		{ cat /tmp/srv.wc; fail "wildcard: no second listener"; }
	# A connection on the address, pinging without end, when the address
	# goes: its QP goes to error, which resets the connection (the port
	# is up), both ends get DISCONNECTED, and the listener listens on.
	# Whether rping then ends is rping's: it waits for a flushed
	# completion that the QP, moved to error by the kernel, owes only if
	# it held a work request (libirdma flushes again only for a state it
	# set itself). The client's stdout is a file's, flushed in blocks:
	# what it writes to stderr may land inside a line.
	rst_tx=$(fn_stat $FN1 iwarp_rst_tx)
	rst_rx=$(fn_stat $FN0 iwarp_rst_rx)
	timeout 120 rping -c -a $new -I $ADDR -p 7181 -S 64 -v >/tmp/live.wc 2>&1 &
	cli=$!
	wait_for -t 30 grep -q '^ping data: rdma-ping-' /tmp/live.wc ||
		{ tail -n 5 /tmp/live.wc /tmp/srv.wc; rdma resource show cm_id; stats
		  dmesg | grep -v 'WQE\|CQE' | tail -n 60; fail "wildcard: no pings to $new"; }
	ip addr del $new/32 dev $NET1 || fail "removing $new"
	if wait_for -t 30 grep -q 'client DISCONNECT EVENT' /tmp/live.wc &&
	   wait_for -t 10 grep -q '^server DISCONNECT EVENT' /tmp/srv.wc; then
		echo "ok: both ends of the connection to the removed $new got DISCONNECTED" \
		     "($(grep -c '^ping data' /tmp/live.wc) pings)"
	else
		check_failed "wildcard: the connection to the removed $new lives on"
		tail -n 3 /tmp/live.wc /tmp/srv.wc
		rdma resource show qp
		stats
		dmesg | tail -n 20
	fi
	kill $cli 2>/dev/null
	wait $cli
	[ "$(fn_stat $FN1 iwarp_rst_tx)" -gt "$rst_tx" ] ||
		check_failed "wildcard: no reset sent for the connection to the removed $new"
	[ "$(fn_stat $FN0 iwarp_rst_rx)" -gt "$rst_rx" ] ||
		check_failed "wildcard: the peer got no reset from the removed $new"
	wait_for -t 20 not qps_on "$DEV0" ||
		check_failed "wildcard: QPs left on $DEV0: $(rdma resource show qp | grep "$DEV0")"
	kill -0 $srv || check_failed "wildcard: the listener ended with the address"
	lan=$(fn_stat $FN1 tcp_to_lan)
	expect_eq "wildcard: SYN-ACKs to a raw SYN for the removed $new" \
		"$(raw_syn 192.168.80.101)" 0
	[ "$(fn_stat $FN1 tcp_to_lan)" -gt "$lan" ] ||
		check_failed "wildcard: the SYN for the removed $new did not go to the LAN side"
	kill $srv
	wait $srv
	wait_for -t 20 not qps_on "$DEV1" ||
		check_failed "wildcard: QPs left on $DEV1: $(rdma resource show qp | grep "$DEV1")"
	echo "ok: a wildcard listener lets go of a removed address"

	# A listener on the address itself: it lets go of the address as it
	# goes, and takes it again when it comes back.
	ip addr add $new/32 dev $NET1 || fail "$new on $NET1 again"
	timeout 120 rping -s -P -a $new -p 7181 -C 1 -S 64 >/tmp/srv.wc 2>&1 &
	srv=$!
	wait_for -t 20 cm_port_listening 7181 "$DEV1" ||
		{ cat /tmp/srv.wc; fail "specific: no listener on $new"; }
	ip addr del $new/32 dev $NET1 || fail "removing $new again"
	sleep 1
	lan=$(fn_stat $FN1 tcp_to_lan)
	expect_eq "specific: SYN-ACKs to a raw SYN for the removed $new" \
		"$(raw_syn 192.168.80.102)" 0
	[ "$(fn_stat $FN1 tcp_to_lan)" -gt "$lan" ] ||
		check_failed "specific: the SYN for the removed $new did not go to the LAN side"
	ip addr add $new/32 dev $NET1 || fail "$new on $NET1 a third time"
	timeout 60 rping -c -a $new -I $ADDR -p 7181 -C 1 -S 64 -v >/tmp/cli.wc 2>&1
	grep -q '^ping data: rdma-ping-' /tmp/cli.wc ||
		{ cat /tmp/cli.wc; check_failed "specific: no connection to $new once back"; }
	ip addr del $new/32 dev $NET1
	ip route del $new dev $NET0 table 100
	ip rule del pref 12
	kill $srv
	wait $srv
	echo "ok: a listener on an address follows it as it goes and comes back"
}

# A VLAN on each netdev (id 10; vlFN, a name sysctl can take), with an IPv4 and an IPv6 address on
# each, routed as iwarp_hosts_net routes the netdevs' own: rping over
# each family from DEV0 to DEV1, the connection's frames tagged both
# ways. A side that left the tag off (its SYN, MPA or offloaded frames)
# would miss the peer's quad hash entries and QP, which are the VLAN's:
# the stock driver's in iwarp-interop, where each side is the other's
# judge.
iwarp_vlan() {
	local v0=vl$FN0 v1=vl$FN1 a4=192.168.81.1 p4=192.168.81.2 \
		a6=fd00:81::1 p6=fd00:81::2 c

	vlan_down() {
		ip link del "vl$FN0" 2>/dev/null
		ip link del "vl$FN1" 2>/dev/null
		ip -6 rule del pref 13 2>/dev/null
		ip -6 rule del pref 14 2>/dev/null
		ip -6 rule add pref 0 lookup local 2>/dev/null
		ip -6 rule del pref 1000 2>/dev/null
		ip rule del pref 13 2>/dev/null
		ip rule del pref 14 2>/dev/null
		:
	}
	at_exit vlan_down
	ip link add link $NET0 name $v0 type vlan id 10 || fail "VLAN 10 on $NET0"
	ip link add link $NET1 name $v1 type vlan id 10 || fail "VLAN 10 on $NET1"
	for c in $v0 $v1; do
		sysctl -qw net.ipv4.conf.$c.rp_filter=0 net.ipv4.conf.$c.accept_local=1 \
			net.ipv6.conf.$c.accept_dad=0 || fail "sysctl for $c"
		ip link set $c up
	done
	ip addr add $a4/32 dev $v0 && ip addr add $p4/32 dev $v1 &&
		ip -6 addr add $a6/128 dev $v0 nodad && ip -6 addr add $p6/128 dev $v1 nodad ||
		fail "addresses on the VLANs"
	ip rule add pref 13 iif lo to $p4 lookup 102 &&
		ip route add $p4 dev $v0 src $a4 table 102 &&
		ip rule add pref 14 iif lo to $a4 lookup 103 &&
		ip route add $a4 dev $v1 src $p4 table 103 || fail "IPv4 routes on the VLANs"
	ip -6 rule add pref 13 iif lo to $p6 lookup 102 &&
		ip -6 route add $p6 dev $v0 src $a6 table 102 &&
		ip -6 rule add pref 14 iif lo to $a6 lookup 103 &&
		ip -6 route add $a6 dev $v1 src $p6 table 103 &&
		ip -6 rule add pref 1000 lookup local &&
		ip -6 rule del pref 0 || fail "IPv6 routes on the VLANs"
	ping -c 1 -W 5 $p4 >/dev/null || fail "no ping to $p4 on VLAN 10"
	ping -6 -c 1 -W 5 $p6 >/dev/null || fail "no ping to $p6 on VLAN 10"
	rping_run "rping on VLAN 10 from $DEV0 to $DEV1" $p4 $a4
	rping_run "rping over IPv6 on VLAN 10 from $DEV0 to $DEV1" $p6 $a6
	# The other way on Debian's kernel (iwarp-interop has ours both ways).
	sanitizing || rping_run "rping over IPv6 on VLAN 10 from $DEV1 to $DEV0" $a6 $p6
	vlan_down
}

# An RDMA write, then a read, 32 of its 64 bytes past the end of the
# peer's buffer (tests/vm/iw-term.c), each way: the peer's engine stops
# its QP and its driver sends a TERMINATE (RDMAP, remote protection,
# bounds); the other end's QP takes it and fails (a fatal event to its
# consumer), and both ends see the connection DISCONNECTED. The write
# completes (iWARP has no response to it); the read is flushed. For the
# stock driver DEV1's peer terminates alone (iwarp-interop has it in both
# roles); on the sanitizing kernel the write alone (iwarp-interop has
# ours in both roles, writes and reads). The taker's function records
# the Terminate control word: RDMAP's remote protection error, bounds
# (0x0101). Then the write once more, the peer's TERMINATE malformed
# (the simulator's term_bad_msn: DDP message number 2, not 1): the
# taker answers with a TERMINATE of its own (DDP, untagged buffer,
# invalid MSN range: 0x1203), which the peer's QP, stopped in TERMINATE,
# does not take, and the taker's consumer still hears of the error (ours;
# the stock driver's close clears its terminate flags when the peer's
# reset comes first, and its consumer then hears nothing: upstream's
# irdma_cm_disconn_true()).
iwarp_terminate() {
	local mode srv cli sfn cfn bad tx rx ctx crx runs

	runs=("write $PEER $ADDR $FN1 $FN0" "write $PEER $ADDR $FN1 $FN0 bad")
	sanitizing || runs+=("read $PEER $ADDR $FN1 $FN0")
	sanitizing || [ "$IRDMA_DRIVER" = stock ] ||
		runs+=("write $ADDR $PEER $FN0 $FN1" "read $ADDR $PEER $FN0 $FN1"
		       "write $ADDR $PEER $FN0 $FN1 bad")
	for mode in "${runs[@]}"; do
		read -r mode srv cli sfn cfn bad <<<"$mode"
		tx=$(fn_stat "$sfn" iwarp_term_tx)
		rx=$(fn_stat "$cfn" iwarp_term_rx)
		ctx=$(fn_stat "$cfn" iwarp_term_tx)
		crx=$(fn_stat "$sfn" iwarp_term_rx)
		[ -z "$bad" ] || echo 1 >"$SIM_DBG/irdma_sim$sfn/term_bad_msn"
		timeout 60 "$TOOLS"/iw-term server "$srv" 7300 >/tmp/srv.term 2>&1 &
		local pid=$!
		wait_for -t 20 cm_port_listening 7300 "$(dev_of_addr "$srv")" ||
			{ cat /tmp/srv.term; fail "terminate: no listener"; }
		timeout 60 "$TOOLS"/iw-term client "$srv" 7300 "$cli" "$mode" >/tmp/cli.term 2>&1
		local rc=$?
		wait $pid
		local src=$?
		echo 0 >"$SIM_DBG/irdma_sim$sfn/term_bad_msn"
		if [ $rc -ne 0 ] || [ $src -ne 0 ]; then
			cat /tmp/cli.term /tmp/srv.term
			check_failed "terminate ($mode to $srv): client $rc, server $src"
			continue
		fi
		expect_eq "terminate ($mode to $srv): TERMINATEs sent by $srv's function" \
			$(($(fn_stat "$sfn" iwarp_term_tx) - tx)) 1
		expect_eq "terminate ($mode to $srv): TERMINATEs the other took" \
			$(($(fn_stat "$cfn" iwarp_term_rx) - rx)) 1
		if [ -n "$bad" ]; then
			mode+=", malformed"
			expect_eq "terminate ($mode): answers to it" \
				$(($(fn_stat "$cfn" iwarp_term_tx) - ctx)) 1
			expect_eq "terminate ($mode): the answer's layer, type and code" \
				"$(fn_stat "$cfn" iwarp_term_tx_ctrl | cut -c1-6)" 0x1203
			expect_eq "terminate ($mode): answers $srv, in TERMINATE, took" \
				$(($(fn_stat "$sfn" iwarp_term_rx) - crx)) 0
		elif [ "$mode" = write ]; then
			expect_eq "terminate ($mode): its layer, type and code" \
				"$(fn_stat "$cfn" iwarp_term_rx_ctrl | cut -c1-6)" 0x0101
		fi
		if [ -n "$bad" ] && [[ " $STOCK_FNS " == *" $cfn "* ]]; then
			echo "terminate ($mode): the stock driver's consumer heard:" \
			     "$(grep -c '^client: qp event' /tmp/cli.term) events"
		elif ! grep -q '^client: qp event local work queue catastrophic error' /tmp/cli.term; then
			cat /tmp/cli.term
			check_failed "terminate ($mode to $srv): no fatal event"
		fi
		if [ "$mode" != read ]; then
			grep -q '^client: wc RDMA_WRITE success' /tmp/cli.term ||
				{ cat /tmp/cli.term; check_failed "terminate: the write did not complete"; }
		else
			grep -q '^client: wc RDMA_READ Work Request Flushed Error' /tmp/cli.term ||
				{ cat /tmp/cli.term; check_failed "terminate: the read was not flushed"; }
		fi
		grep -q '^server: cm RDMA_CM_EVENT_DISCONNECTED' /tmp/srv.term ||
			check_failed "terminate ($mode to $srv): the server saw no disconnection"
		echo "ok: terminate: an RDMA $mode out of bounds to $srv"
	done
	wait_for -t 20 not qps_on "$DEV0" && wait_for -t 20 not qps_on "$DEV1" ||
		check_failed "terminate: QPs left"
}

# The IEQ: the server's function cuts the next messages arriving there
# (sends and RDMA writes of one FPDU) into TCP segments for its IEQ (the
# ieq_split knob); its driver puts each FPDU together, checks its CRC and
# loops it back, and only then is the message placed. rping with its
# data checked, with 2 pieces, 3, and 2 with the first given twice (the
# driver drops it and acknowledges), each way; then ib_write_bw's writes.
# Every message cut must come back whole and in sequence, and the QPs
# must end cleanly.
# No function cuts messages any more (whatever a run left armed).
ieq_disarm() {
	local fn

	for fn in $FN0 $FN1; do
		[ ! -e "$SIM_DBG/irdma_sim$fn/ieq_split" ] ||
			echo 0 >"$SIM_DBG/irdma_sim$fn/ieq_split"
	done
}

# What the simulator counted of the messages it cut (the knob disarmed,
# whatever came of them, so that nothing after is cut).
ieq_check() {	# NAME FUNCTION SPLIT_BEFORE OK_BEFORE N
	local name=$1 fn=$2 split ok left

	left=$(cut -d' ' -f1 "$SIM_DBG/irdma_sim$fn/ieq_split")
	echo 0 >"$SIM_DBG/irdma_sim$fn/ieq_split"
	split=$(($(fn_stat "$fn" ieq_split_msgs) - $3))
	ok=$(($(fn_stat "$fn" ieq_lpb_ok) - $4))
	expect_eq "$name: messages cut for the IEQ" $split "$5"
	expect_eq "$name: FPDUs looped back whole" $ok $split
	expect_eq "$name: looped back wrong" \
		$(($(fn_stat $FN0 ieq_lpb_bad) + $(fn_stat $FN1 ieq_lpb_bad))) 0
	expect_eq "$name: FPDUs lost" \
		$(($(fn_stat $FN0 ieq_lost) + $(fn_stat $FN1 ieq_lost))) 0
	expect_eq "$name: knob spent" "$left" 0
	echo "ok: $name: $split messages through the IEQ," \
		"$(fn_stat "$fn" ieq_segs_tx) pieces so far"
}

# Messages cut across segments (the simulator's ieq_split knob on the
# receiving function): the engine puts the pieces into the IEQ and the
# first partial sequence number into Q2, the driver gathers them, checks
# the MPA CRC and sends the FPDU back through a loopback address handle,
# and the engine places it. rping's sends and writes, 2 and 3 pieces, a
# piece repeated (the driver drops it); ib_write_bw's writes; a
# bad CRC, which the driver reports through GEN_AE (MPA CRC error: the
# connection ends). On the sanitizing kernel one rping (3 pieces, one
# repeated, the client's function cutting the server's sends and writes)
# and the bad CRC.
iwarp_ieq() {
	local run runs srv cli sfn cfn n arm split ok name gen

	at_exit ieq_disarm
	# SERVER CLIENT CUTTING_FUNCTION SENDING_FUNCTION N KNOB: the cutting
	# function's arriving sends (and, at the client's, the server's
	# writes). On the sanitizing kernel one run has it all.
	runs=("$PEER $ADDR $FN0 $FN1 4 3 dup")
	sanitizing || runs=("$PEER $ADDR $FN1 $FN0 4 2" "$ADDR $PEER $FN0 $FN1 4 3"
		"$PEER $ADDR $FN1 $FN0 4 2 dup" "$ADDR $PEER $FN0 $FN1 4 2 dup" "${runs[@]}")
	for run in "${runs[@]}"; do
		read -r srv cli sfn cfn n arm <<<"$run"
		name="IEQ: rping to $srv, $sfn cutting, '$arm'"
		split=$(fn_stat "$sfn" ieq_split_msgs)
		ok=$(fn_stat "$sfn" ieq_lpb_ok)
		echo "$n $arm" >"$SIM_DBG/irdma_sim$sfn/ieq_split" || fail "$name: knob"
		rping_run "$name" "$srv" "$cli" 5 64 1
		ieq_check "$name" "$sfn" "$split" "$ok" "$n"
	done
	# RDMA writes, to the server on DEV1.
	if ! sanitizing; then
		split=$(fn_stat $FN1 ieq_split_msgs)
		ok=$(fn_stat $FN1 ieq_lpb_ok)
		echo "3 3" >"$SIM_DBG/irdma_sim$FN1/ieq_split" || fail "IEQ: knob"
		perftest_run "IEQ: ib_write_bw -R" ib_write_bw -s 64 -n 20
		ieq_check "IEQ: ib_write_bw -R" $FN1 "$split" "$ok" 3
	fi
	# An FPDU whose CRC is wrong: the driver finds it so, asks for the
	# MPA CRC error AE (GEN_AE) and ends the connection; rping fails.
	gen=$(fn_stat $FN1 gen_ae)
	ok=$(fn_stat $FN1 ieq_lpb_ok)
	echo "1 2 badcrc" >"$SIM_DBG/irdma_sim$FN1/ieq_split" || fail "IEQ: knob"
	timeout 60 rping -s -a $PEER -v -V -C 5 -S 64 >/tmp/srv.rp 2>&1 &
	srv=$!
	wait_for -t 20 cm_listening || { cat /tmp/srv.rp; fail "IEQ: no listener"; }
	# rping's exit status says nothing of it: its first send is the one.
	timeout 60 rping -c -a $PEER -I $ADDR -v -V -C 5 -S 64 >/tmp/cli.rp 2>&1
	wait $srv
	cat /tmp/srv.rp /tmp/cli.rp
	echo 0 >"$SIM_DBG/irdma_sim$FN1/ieq_split"
	expect_eq "IEQ: pings through a bad CRC" "$(grep -c '^ping data: rdma-ping-' /tmp/cli.rp)" 0
	expect_eq "IEQ: AEs the driver asked for (bad CRC)" $(($(fn_stat $FN1 gen_ae) - gen)) 1
	expect_eq "IEQ: FPDUs looped back (bad CRC)" $(($(fn_stat $FN1 ieq_lpb_ok) - ok)) 0
	wait_for -t 30 not qps_on "$DEV0" && wait_for -t 30 not qps_on "$DEV1" ||
		check_failed "IEQ: QPs left"
	stats
}

# The whole of it: both devices iWARP, the hosts' network, the traffic,
# the storm, and no cm_id left.
iwarp_run() {
	expect_eq "transport" "$(devinfo_field "$DEV0" transport)" iWARP
	expect_eq "transport" "$(devinfo_field "$DEV1" transport)" iWARP
	iwarp_hosts_net
	iwarp_traffic
	echo "[${SECONDS}s] ucmatose done"
	iwarp_vlan
	echo "[${SECONDS}s] VLAN done"
	iwarp_terminate
	echo "[${SECONDS}s] terminate done"
	iwarp_ieq
	echo "[${SECONDS}s] IEQ done"
	iwarp_storm
	echo "[${SECONDS}s] storm done"
	expect_eq "cm_ids left" "$(rdma resource show cm_id 2>/dev/null | grep -c irdma)" 0
}
