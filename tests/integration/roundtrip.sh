#!/usr/bin/env bash
# Round trip: a sweep's front, read back with h5py, and `dse eval` of each
# row's --sa-sizes string (with its io_network / double_buffer knobs) give
# the same numbers, on matrix multiply, the convolution and the multicast
# sweep.
. "$(dirname "$0")/common.sh"

for name in mm-small conv mm-multicast; do
	cfg="$SRC/configs/$name.cfg"
	out="$TMP/$name.h5"
	if mpi 2 1 -q -o "$out" "$cfg"; then
		ok
	else
		fail "sweep of configs/$name.cfg failed"
		continue
	fi
	/usr/bin/python3 "$(dirname "$0")/check_roundtrip.py" "$DSE" "$out" \
		"$cfg" 10 && ok || fail "round trip of configs/$name.cfg"
done
finish
