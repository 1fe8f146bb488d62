#!/usr/bin/env bash
# `dse show`: sorting, CSV and the aligned table checked against h5py's
# reading of the file, the cloud table (its size, legal rows, the feasible
# column, the same for 1 and 2 ranks) and the errors (exit status 2).
. "$(dirname "$0")/common.sh"

N=400
cfg="$TMP/small.cfg"
# configs/mm-small.cfg with a small cloud ([output] is its last section)
# and a latency bound: the sweep skips points whose resources break a
# bound unevaluated, so only a bound on a metric that has no cheap lower
# bound puts infeasible points into the cloud.
sed -e "s|^file = .*|file = $TMP/unused.h5\ncloud = $N|" \
	-e "s|^constraints *= .*|constraints = dsp <= 50%, bram18k <= 0.5, latency <= 0.001|" \
	"$SRC/configs/mm-small.cfg" >"$cfg"
grep -q "^cloud = $N" "$cfg" && grep -q "latency <= 0.001" "$cfg" && ok ||
	fail "no cloud key or latency bound in $cfg"

"$DSE" -q -o "$TMP/one.h5" "$cfg" && ok || fail "sweep on one rank failed"
mpi 2 1 -q -o "$TMP/two.h5" "$cfg" && ok || fail "sweep on two ranks failed"

# The U250's 12,288 DSP and 5,376 BRAM18K; the config allows half of each
# and 1 ms.
/usr/bin/python3 "$(dirname "$0")/check_show.py" "$DSE" "$TMP/one.h5" "$N" \
	12288 5376 0.001 && ok || fail "show checked against h5py"

# The cloud, like the front, does not depend on the number of ranks.
run_status 0 "cloud of one rank" show --csv --all --table cloud "$TMP/one.h5"
one=$out
run_status 0 "cloud of two ranks" show --csv --all --table cloud "$TMP/two.h5"
[ -n "$one" ] && [ "$one" = "$out" ] && ok ||
	fail "the clouds of 1 and 2 ranks differ"

# Errors: exit 2 and a message naming the file or option.
run_status 2 "unknown --sort column" show --sort nosuch "$TMP/one.h5"
expect_line "$err" "unknown column 'nosuch' for --sort.*array_part_i.*latency.*sa_sizes" \
	"unknown column lists the columns"
run_status 2 "unknown --columns column" show --columns dsp,bogus "$TMP/one.h5"
expect_line "$err" "unknown column 'bogus' for --columns.*bram18k" \
	"unknown --columns column"
run_status 2 "missing file" show "$TMP/nothere.h5"
expect_line "$err" "nothere.h5" "missing file named"
run_status 2 "not a results file" show "$cfg"
expect_line "$err" "small.cfg' is not a dse results file" "not a results file"
run_status 2 "unknown table" show --table nosuch "$TMP/one.h5"
expect_line "$err" "unknown table 'nosuch'" "unknown table named"
run_status 2 "no file" show
run_status 0 "--help" show --help
expect_line "$out" "^Usage: dse show" "show --help"

# A file without a cloud says why.
sed "s|^cloud = $N|cloud = 0|" "$cfg" >"$TMP/nocloud.cfg"
"$DSE" -q -o "$TMP/nocloud.h5" "$TMP/nocloud.cfg" && ok ||
	fail "sweep with cloud = 0 failed"
run_status 2 "no cloud table" show --table cloud "$TMP/nocloud.h5"
expect_line "$err" "no table /mm/cloud" "missing cloud named"
sed "s|^cloud = $N|cloud = 10000001|" "$cfg" >"$TMP/big.cfg"
line=$(grep -n '^cloud' "$TMP/big.cfg" | cut -d: -f1)
run_status 2 "cloud above the bound" -q -o "$TMP/big.h5" "$TMP/big.cfg"
expect_line "$err" "big.cfg:$line:[0-9]+: error: cloud must be at most 10000000 points, key 'cloud'" \
	"cloud bound error at its key"

# A checkpoint (attribute complete = 0) is shown with a note.
/usr/bin/python3 - "$TMP/one.h5" "$TMP/cp.h5" <<'EOF' && ok || fail "making a checkpoint copy"
import shutil, sys
import h5py
shutil.copy(sys.argv[1], sys.argv[2])
with h5py.File(sys.argv[2], "r+") as f:
    f.attrs["complete"] = 0
EOF
run_status 0 "show a checkpoint" show "$TMP/cp.h5"
expect_line "$out" "^\(partial: checkpoint of a running or interrupted sweep\)" \
	"checkpoint note"
run_status 0 "show a finished file" show "$TMP/one.h5"
grep -q partial <<<"$out" && fail "a finished file is called partial" || ok

# Under mpirun only the first rank prints.
lines=$(mpi 2 1 show "$TMP/one.h5" | wc -l)
run_status 0 "show" show "$TMP/one.h5"
[ "$lines" -eq "$(wc -l <<<"$out")" ] && ok ||
	fail "mpirun -np 2 dse show printed $lines lines"
finish
