# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Helpers for the guest-side VM tests; sourced by each test.
set -u

# The modules under test: the repo's build, or on a kernel built here
# (IRDMA_TEST_KERNEL=san) the build against that kernel.
IRDMA_MODULES=${IRDMA_TEST_MODULES:-$IRDMA_REPO}
IRDMA_KO=$IRDMA_MODULES/irdma.ko
SIM_KO=$IRDMA_MODULES/sim/irdma_sim.ko
SIM_ICE_KO=$IRDMA_MODULES/sim/irdma_sim_ice.ko
STOCK_KO=/tmp/irdma-stock.ko
# The tests' C programs (tests/vm/*.c, tests/fuzz/*.c), built on the host
# by scripts/vm.
# shellcheck disable=SC2034 # the tests that source this use it
TOOLS=${IRDMA_TEST_TOOLS:?scripts/vm builds the programs of the tests}

# The driver under test (scripts/test runs a test once for each it names):
#   ours        our irdma.ko through its sim front-end
#   ours-ice    our irdma.ko through its ice front-end, on irdma_sim_ice
#   stock       Debian's irdma.ko, unmodified, on irdma_sim_ice
IRDMA_DRIVER=${IRDMA_TEST_DRIVER:-ours}
SIM_BUS=/sys/bus/irdma_sim
SIM_DBG=/sys/kernel/debug/irdma_sim
SIM_DRV=/sys/bus/auxiliary/drivers/irdma.sim

# As the kernel's selftests do: a check that fails reports and the test
# goes on (expect_eq, check_failed), failing at its end; fail() ends the
# test at once, for what the rest cannot do without; skip() ends it with
# 4 when something it needs is not there.
CHECKS_FAILED=0
CLEANUPS=()

fail() {
	echo "FAIL: $*"
	exit 1
}

check_failed() {
	echo "FAIL: $*"
	CHECKS_FAILED=$((CHECKS_FAILED + 1))
}

expect_eq() {
	local what=$1 got=$2 want=$3

	if [ "$got" != "$want" ]; then
		check_failed "$what: got '$got', want '$want'"
		return 1
	fi
	echo "ok: $what = $want"
}

skip() {
	echo "SKIP: $*"
	exit 4
}

# The sanitizing kernel (KASAN, lockdep, kmemleak: kmemleak says which):
# a round of anything costs several times Debian's there, so a test
# repeats less on it, each repetition still checked (the counts on
# Debian's kernel are for the stock driver, and for scale).
sanitizing() {
	[ -e /sys/kernel/debug/kmemleak ]
}

# The tools a test needs, or a skip.
require() {
	local tool

	for tool in "$@"; do
		command -v "$tool" >/dev/null || skip "$tool is not installed"
	done
}

# Run FUNCTION when the test ends, however it ends; the last registered
# runs first.
at_exit() {
	CLEANUPS+=("$1")
}

lib_exit() {
	local rc=$? i

	for ((i = ${#CLEANUPS[@]} - 1; i >= 0; i--)); do
		"${CLEANUPS[i]}"
	done
	if [ "$rc" = 0 ] && [ "$CHECKS_FAILED" -gt 0 ]; then
		echo "$CHECKS_FAILED check(s) failed"
		rc=1
	fi
	exit "$rc"
}
trap lib_exit EXIT

# The LAN drivers and ib_core that irdma.ko links against, from the image.
load_irdma_deps() {
	modprobe -a ice i40e ib_core ib_uverbs || fail "cannot load irdma's dependencies"
}

# Module parameters, if any, follow (bad-udata.sh passes push_mode=1).
# shellcheck disable=SC2120
load_irdma() {
	insmod "$IRDMA_KO" "$@" || fail "insmod irdma.ko failed"
}

unload_irdma() {
	rmmod irdma || fail "rmmod irdma failed"
}

load_sim() {
	insmod "$SIM_KO" "$@" || fail "insmod irdma_sim.ko failed"
}

# The ice personality replaces ice's and i40e's RDMA exports: the real
# drivers, if a test before loaded them, go first. Its parameters, if
# any, follow (iwarp=1).
# shellcheck disable=SC2120
load_sim_ice() {
	local m

	for m in ice i40e; do
		[ ! -e "/sys/module/$m/initstate" ] || rmmod "$m" ||
			fail "rmmod $m before irdma_sim_ice"
	done
	insmod "$SIM_ICE_KO" "$@" || fail "insmod irdma_sim_ice.ko $* failed"
}

# The RDMA device on a netdev (empty if none).
rdma_dev_of() {	# NETDEV
	rdma link show | awk -v n="$1" '$0 ~ "netdev " n "( |$)" { sub("/.*", "", $2); print $2 }'
}

# The block device nvme-rdma made for subsystem NQN (fails if none yet).
nvme_host_dev() {	# NQN
	local d ns

	for d in /sys/class/nvme/nvme*; do
		[ "$(cat "$d/subsysnqn" 2>/dev/null)" = "$1" ] || continue
		for ns in "$d"/nvme*n* /sys/class/nvme-subsystem/*/nvme*n*; do
			[[ $(basename "$ns") =~ ^nvme[0-9]+n[0-9]+$ ]] || continue
			basename "$ns"
			return 0
		done
	done
	return 1
}

unload_sim() {
	rmmod irdma_sim || fail "rmmod irdma_sim failed"
}

# wait_for [-t SECONDS] COMMAND [ARG...]: wait up to SECONDS (default 10)
# for COMMAND to succeed; its output is dropped.
wait_for() {
	local tries=100

	if [ "$1" = -t ]; then
		tries=$(($2 * 10))
		shift 2
	fi
	until "$@" >/dev/null 2>&1; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.1
	done
}

# Conditions to wait for.
not() { ! "$@"; }
port_active() { [ "$(devinfo_field "$1" state)" = PORT_ACTIVE ]; }
has_gid() { grep -q "$2" /sys/class/infiniband/"$1"/ports/1/gids/*; }
gone() {	# PID...: every one has ended
	local pid

	for pid in "$@"; do
		! kill -0 "$pid" 2>/dev/null || return 1
	done
}
# The kernel stacks of every task waiting uninterruptibly: for a failure
# where something hangs in the kernel.
dump_blocked() {
	local t

	for t in /proc/[0-9]*; do
		grep -q '^State:.*D' "$t/status" 2>/dev/null || continue
		echo "== $(cat "$t/comm") ${t#/proc/}:"
		cat "$t/stack"
	done
}
dmesg_since() { dmesg | tail -n +$(($1 + 1)) | grep -q "$2"; }	# LINES REGEX
stat_above() { [ "$(sim_stat "$1")" -gt "$2" ]; }
# Something listens on a TCP port, in network namespace NS if given.
tcp_listening() {	# PORT [NS]
	${2:+ip netns exec "$2"} ss -Htln "sport = :$1" | grep -q LISTEN
}
# An rdma_cm ID listens, in network namespace NS if given.
cm_listening() {	# [NS]
	${1:+ip netns exec "$1"} rdma resource show cm_id 2>/dev/null | grep -q LISTEN
}
# An rdma_cm ID listens on PORT on device DEV (a wildcard listener is one
# on each device, made one after another).
cm_port_listening() {	# PORT DEV
	rdma resource show cm_id 2>/dev/null | grep "^link $2/" | grep LISTEN |
		grep -qE ":$1( |$)"
}

# The value of one field of ibv_devinfo -v for a device.
devinfo_field() {
	ibv_devinfo -v -d "$1" | awk -v f="$2:" '$1 == f { print $2; exit }'
}

# Every field of ibv_devinfo -v for a device at once, into DEVINFO (the
# first value of each name, as devinfo_field gives it): one run of the
# tool instead of one per field (each costs a second on the sanitizing
# kernel).
declare -A DEVINFO
devinfo_load() {
	local name value

	DEVINFO=()
	while read -r name value _; do
		[[ $name == *: ]] || continue
		name=${name%:}
		[ -n "${DEVINFO[$name]:-}" ] || DEVINFO[$name]=$value
	done <<<"$(ibv_devinfo -v -d "$1")"
}

# The first simulated function as the driver under test sees it.
case $IRDMA_DRIVER in
ours) SIM_FN=irdma_sim0 SIM_NETDEV=simeth0 ;;
*) SIM_FN=irdma_sim32 SIM_NETDEV=simeth32 ;;
esac

# The first function's auxiliary device (ADEV) and the driver that binds
# it (DRV), for unbinding and binding by hand.
# shellcheck disable=SC2034 # the tests that source this use them
case $IRDMA_DRIVER in
ours) ADEV=irdma_sim.roce.0 DRV=$SIM_DRV ;;
*) ADEV=ice.roce.32 DRV=/sys/bus/auxiliary/drivers/irdma ;;
esac

# Bring up the whole stack for the driver under test, with one function.
load_stack() {
	modprobe -a ib_core ib_uverbs || fail "cannot load ib_core"
	case $IRDMA_DRIVER in
	ours)
		modprobe -a ice i40e || fail "cannot load ice and i40e"
		load_sim nr_devices=1
		load_irdma
		;;
	ours-ice)
		load_sim nr_devices=0
		load_sim_ice
		load_irdma
		;;
	stock)
		load_sim nr_devices=0
		load_sim_ice
		load_stock
		;;
	*)
		fail "unknown driver $IRDMA_DRIVER"
		;;
	esac
	wait_for test -e /sys/class/infiniband/irdma0 || fail "no irdma0 ($IRDMA_DRIVER)"
}

# The driver alone, on and off, leaving the simulated functions.
load_driver() {
	if [ "$IRDMA_DRIVER" = stock ]; then load_stock; else load_irdma; fi
}

unload_driver() {
	rmmod irdma || fail "rmmod irdma ($IRDMA_DRIVER) failed"
}

# One counter of the simulated function's debugfs stats.
sim_stat() { stat_of "$SIM_DBG/$SIM_FN/stats" "$1"; }

# The value of KEY in a "KEY VALUE" file such as the simulator's stats,
# read with the shell's builtins (a process costs a quarter of a second
# on the sanitizing kernel).
stat_of() {	# FILE KEY
	local k v

	while read -r k v; do
		[ "$k" != "$2" ] || { echo "$v"; return 0; }
	done <"$1"
}

# Every CQ event the driver took was acknowledged (CQACK): the simulator,
# as silicon, gives a CQ no other event until its last is. Events held
# for an acknowledgment still to come are given when it comes; one still
# waiting at the end never got it.
cq_ack_check() {
	local waiting
	[ -r "$SIM_DBG/$SIM_FN/stats" ] || return 0
	waiting=$(sim_stat cq_events_waiting)
	echo "CQ events acknowledged: $(sim_stat cq_acks)" \
		"($(sim_stat cq_acks_unmatched) naming no CQ due);" \
		"held until acknowledged: $(sim_stat cq_events_held)," \
		"given then: $(sim_stat cq_events_released)"
	[ "${waiting:-0}" -eq 0 ] ||
		fail "$waiting CQs wait for an event: their last was never acknowledged"
}

# Take the function under test away as its LAN side would on hot removal:
# the simulator's own deletes it; under the ice personality its stand-in
# PCI function is removed, as the PCI core removes an E810 (ice's remove
# unplugs the RDMA function).
remove_function() {
	local pci

	if [ "$IRDMA_DRIVER" = ours ]; then
		echo "${SIM_FN#irdma_sim}" >"$SIM_BUS/del_device"
		return
	fi
	# irdma0's parent is the PF, the stand-in PCI function.
	pci=$(basename "$(readlink -f /sys/class/infiniband/irdma0/device)")
	[ -e "/sys/bus/pci/devices/$pci/remove" ] || return 1
	echo 1 >"/sys/bus/pci/devices/$pci/remove"
}

unload_stack() {
	cq_ack_check
	unload_driver
	[ "$IRDMA_DRIVER" = ours ] || rmmod irdma_sim_ice || fail "rmmod irdma_sim_ice failed"
	unload_sim
}

# cycles N UP DOWN [UP_CHECK [DOWN_CHECK]]: N times UP then DOWN (load and
# unload functions), each followed by its check, which gets the cycle's
# number.
cycles() {
	local n=$1 up=$2 down=$3 up_check=${4:-:} down_check=${5:-:} i

	for ((i = 1; i <= n; i++)); do
		"$up"
		"$up_check" "$i"
		"$down"
		"$down_check" "$i"
	done
	echo "ok: $n cycles of $up and $down"
}

# Debian's irdma.ko from the running kernel's image, as shipped. Its
# probe has to succeed the first time: a stock driver that times out
# waiting for the simulator found a simulator defect.
load_stock() {
	[ -f "$STOCK_KO" ] ||
		xz -dc "/lib/modules/$(uname -r)/kernel/drivers/infiniband/hw/irdma/irdma.ko.xz" >"$STOCK_KO" ||
		fail "no stock irdma.ko"
	insmod "$STOCK_KO" || fail "insmod of Debian's irdma.ko failed"
}

# Bind the driver under test to a simulated function's auxiliary device.
bind_driver() {
	echo "$1" >"$2/bind"
}

# The function's netdev up with an IPv4 address, the port active and the
# address's RoCEv2 GID in place; its index in GIDX.
# The low 32 bits of an IPv4 address's RoCEv2 GID as sysfs prints them.
ipv4_gid_hex() {
	local IFS=.

	# shellcheck disable=SC2086 # split at the dots
	set -- $1
	printf '%02x%02x:%02x%02x' "$1" "$2" "$3" "$4"
}

roce_up() {
	local addr=$1 hex

	hex=$(ipv4_gid_hex "$addr")
	ip link set "$SIM_NETDEV" up
	ip addr add "$addr/24" dev "$SIM_NETDEV" || fail "address $addr"
	wait_for port_active irdma0 || fail "port not active"
	wait_for has_gid irdma0 "$hex" ||
		fail "no GID for $addr"
	# shellcheck disable=SC2034 # for the tests that source this
	GIDX=$(basename "$(grep -l "$hex" /sys/class/infiniband/irdma0/ports/1/gids/* | head -1)")
}

# A server in the background and its client to $ADDR; both must succeed.
# Output goes to /tmp/srv.NAME and /tmp/cli.NAME (spaces as _).
pair() {
	local name=$1 f srv rc src
	shift

	f=$(echo "$name" | tr ' ' _)
	timeout 120 "$@" >"/tmp/srv.$f" 2>&1 &
	srv=$!
	# The server is ready once it listens on the tools' TCP port (18515
	# for perftest and the libibverbs examples); their output to a file
	# is block-buffered, so it cannot tell.
	wait_for -t 20 tcp_listening 18515 ||
		{ cat "/tmp/srv.$f"; fail "$name: the server never listened"; }
	timeout 120 "$@" "$ADDR" >"/tmp/cli.$f" 2>&1
	rc=$?
	wait $srv
	src=$?
	if [ $rc -ne 0 ] || [ $src -ne 0 ]; then
		cat "/tmp/srv.$f" "/tmp/cli.$f"
		fail "$name: client $rc, server $src"
	fi
	echo "ok: $name"
}

# An rdma_cm server is ready once its ID listens.
listening() {
	wait_for -t 20 cm_listening ||
		fail "no rdma_cm listener"
}

# The kernel's NVMe over RDMA target (nvmet-rdma) on ADDR:4420 exporting
# /dev/nullb0 as subsystem NQN to any host; nvmet-rdma's use_srq as asked.
NVMET_CFG=/sys/kernel/config/nvmet
nvmet_target_up() {	# NQN ADDR USE_SRQ
	local nqn=$1 addr=$2 cfg=$NVMET_CFG

	modprobe nvmet || fail "nvmet"
	modprobe nvmet-rdma use_srq="$3" || fail "nvmet-rdma use_srq=$3"
	mkdir $cfg/subsystems/"$nqn" || fail "subsystem"
	echo 1 >$cfg/subsystems/"$nqn"/attr_allow_any_host
	mkdir $cfg/subsystems/"$nqn"/namespaces/1
	echo /dev/nullb0 >$cfg/subsystems/"$nqn"/namespaces/1/device_path
	echo 1 >$cfg/subsystems/"$nqn"/namespaces/1/enable || fail "namespace"
	mkdir $cfg/ports/1
	echo rdma >$cfg/ports/1/addr_trtype
	echo ipv4 >$cfg/ports/1/addr_adrfam
	echo "$addr" >$cfg/ports/1/addr_traddr
	echo 4420 >$cfg/ports/1/addr_trsvcid
	ln -s $cfg/subsystems/"$nqn" $cfg/ports/1/subsystems/"$nqn" || fail "port"
}

nvmet_target_down() {	# NQN
	local nqn=$1 cfg=$NVMET_CFG

	rm $cfg/ports/1/subsystems/"$nqn"
	rmdir $cfg/ports/1
	echo 0 >$cfg/subsystems/"$nqn"/namespaces/1/enable
	rmdir $cfg/subsystems/"$nqn"/namespaces/1
	rmdir $cfg/subsystems/"$nqn"
	rmmod nvmet_rdma nvmet || fail "unload nvmet"
}
