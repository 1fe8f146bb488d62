#!/usr/bin/env bash
# Every example in configs/ runs under mpirun -np 2 and writes its file
# (to a scratch path, so the tests never touch results/), with the front
# and the analysis's candidates and I/O groups, and no design on its front
# over the board.
. "$(dirname "$0")/common.sh"

for cfg in "$SRC"/configs/*.cfg; do
	name=$(basename "$cfg" .cfg)
	out="$TMP/$name.h5"
	if mpi 2 1 -q -o "$out" "$cfg" && [ -s "$out" ]; then
		ok
	else
		fail "configs/$name.cfg did not produce $out"
	fi
	h5dump -H "$out" >/dev/null 2>&1 && ok || fail "h5dump cannot read $out"
	# Board fit: no design on the front uses more than the board has.
	/usr/bin/python3 "$SRC/tests/integration/check_board_fit.py" "$out" &&
		ok || fail "$name: a design over the board in $out"
	tables=$(h5ls -r "$out" 2>/dev/null)
	if grep -q '^\[workload\]' "$cfg"; then
		# A GNN workload has no kernel analysis: its front spells
		# the family's knobs out in a "design" column.
		grep -qE '^/[^/]+/front +Dataset \{[1-9]' <<<"$tables" &&
			h5dump -H "$out" | grep -q '"design"' && ok ||
			fail "$name: no front with a design column in $out"
	else
		# The analysis goes with the front: candidates, I/O groups.
		grep -qE '^/[^/]+/candidates +Dataset \{[1-9]' \
			<<<"$tables" &&
			grep -qE '^/[^/]+/io_groups +Dataset' <<<"$tables" &&
			ok || fail "$name: no candidates or io_groups table in $out"
	fi
	ls "$TMP" | grep -q '\.tmp\.' && fail "temporary file left by $name" || ok
done
# The built-in default sweep, with no config at all.
(cd "$TMP" && "$DSE" -q) && [ -s "$TMP/results/mm.h5" ] && ok ||
	fail "the default sweep did not write results/mm.h5"
/usr/bin/python3 "$SRC/tests/integration/check_board_fit.py" \
	"$TMP/results/mm.h5" && ok ||
	fail "the default sweep: a design over the board in results/mm.h5"
finish
