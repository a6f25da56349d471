# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Helpers for the guest-side VM tests; sourced by each test.
set -u

IRDMA_KO=$IRDMA_REPO/irdma.ko

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
