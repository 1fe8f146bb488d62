#!/usr/bin/env bash
# `mpirun -np 2 dse configs/mm-small.cfg` and the file read back with
# Debian's h5py, which belongs to /usr/bin/python3.
. "$(dirname "$0")/common.sh"

mpi 2 1 -q -o "$TMP/small.h5" "$SRC/configs/mm-small.cfg" && ok ||
	fail "mpirun -np 2 dse configs/mm-small.cfg failed"
# The U250's 12,288 DSP and 5,376 BRAM18K; the config allows half of each.
/usr/bin/python3 "$(dirname "$0")/check_front.py" "$TMP/small.h5" 12288 5376 &&
	ok || fail "h5py check of the front"
finish
