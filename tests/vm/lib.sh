# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Helpers for the guest-side VM tests; sourced by each test.
set -u

IRDMA_KO=$IRDMA_REPO/irdma.ko
SIM_KO=$IRDMA_REPO/sim/irdma_sim.ko
SIM_BUS=/sys/bus/irdma_sim
SIM_DBG=/sys/kernel/debug/irdma_sim
SIM_DRV=/sys/bus/auxiliary/drivers/irdma.sim

fail() {
	echo "FAIL: $*"
	exit 1
}

expect_eq() {
	local what=$1 got=$2 want=$3

	[ "$got" = "$want" ] || fail "$what: got '$got', want '$want'"
	echo "ok: $what = $want"
}

# The LAN drivers and ib_core that irdma.ko links against, from the image.
load_irdma_deps() {
	modprobe -a ice i40e ib_core ib_uverbs || fail "cannot load irdma's dependencies"
}

load_irdma() {
	insmod "$IRDMA_KO" "$@" || fail "insmod irdma.ko failed"
}

unload_irdma() {
	rmmod irdma || fail "rmmod irdma failed"
}

load_sim() {
	insmod "$SIM_KO" "$@" || fail "insmod irdma_sim.ko failed"
}

unload_sim() {
	rmmod irdma_sim || fail "rmmod irdma_sim failed"
}

# Wait up to $2 seconds (default 10) for a command to succeed.
wait_for() {
	local cmd=$1 tries=$(( ${2:-10} * 10 ))

	while ! eval "$cmd" >/dev/null 2>&1; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.1
	done
}

# The value of one field of ibv_devinfo -v for a device.
devinfo_field() {
	ibv_devinfo -v -d "$1" | awk -v f="$2:" '$1 == f { print $2; exit }'
}
