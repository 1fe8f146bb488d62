/* Tests of the cycle simulator and the sampled cycle model (sim/cycle.h).
 * Run as "test_cycle <group>"; the groups are listed in main().
 *
 * The tiny designs are a hand-built matrix multiply template (space i, j;
 * latency i, j; simd k; A[i][k] moving along j, B[k][j] along i, C kept
 * in the PEs and copied out), as the polyhedral front end builds it, on a
 * made-up board whose figures keep the arithmetic easy: 100 MHz, 3.2 GB/s
 * (32 bytes a cycle), 256-bit ports (8 words of 32 bits), a DRAM latency
 * of 10 cycles, a 32-bit type with a 4-cycle accumulation.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/util.h"
#include "sim/cycle.h"
#include "sim/cycle_internal.h"
#include "tests/support/mm_kernel.h"


static const arch_board easy_board = {
	"easy", "none", 1000, 1000, 0, 100000, 200000, 3.2, 100.0, 256, 10
};
/* The same board starved: 0.16 GB/s, 1.6 bytes a cycle. */
static const arch_board starved_board = {
	"starved", "none", 1000, 1000, 0, 100000, 200000, 0.16, 100.0, 256, 10
};
static const arch_dtype t32 = { "t32", 32, 5.0, 4, 1, 3, 2, 1 };

/* Sets access "a" of t to array[name] with dims over loops (0 i, 1 j,
 * 2 k).
 */
static void set_access(poly_template *t, int a, const char *name,
	int l0, int l1)
{
	poly_access *acc = &t->access[a];

	snprintf(acc->array, sizeof(acc->array), "%s", name);
	snprintf(acc->text, sizeof(acc->text), "%s[%s][%s]", name,
		t->loop[l0], t->loop[l1]);
	acc->n_dims = 2;
	acc->exact[0] = acc->exact[1] = 1;
	acc->coef[0][l0] = 1;
	acc->coef[1][l1] = 1;
	acc->extent[0] = t->extent[l0];
	acc->extent[1] = t->extent[l1];
}

static void set_group(poly_template *t, int g, int acc, int kind, int type,
	int d0, int d1, int in, int out, int pruned, int level)
{
	poly_group *gr = &t->group[g];

	/* g is below POLY_MAX_GROUPS: the modulo only tells the compiler
	 * that the name fits.
	 */
	snprintf(gr->name, sizeof(gr->name), "g%u",
		(unsigned) (g + 1) % 1000u);
	gr->access = acc;
	memcpy(gr->array, t->access[acc].array, sizeof(gr->array));
	gr->kind = kind;
	gr->type = type;
	gr->dir[0] = d0;
	gr->dir[1] = d1;
	gr->dir_known = 1;
	gr->copy_in = in;
	gr->copy_out = out;
	gr->pruned = pruned;
	gr->embedded = type == POLY_IO_EXTERIOR;
	gr->levels = pruned ? 0 : 3;
	gr->buffer_level = level;
}

/* C[i][j] += A[i][k] * B[k][j] over M x N x K, space_time[3]. */
static poly_template mm_by_hand(int64_t m, int64_t n, int64_t k)
{
	poly_template t;
	const char *names[] = { "i", "j", "k" };
	int l;

	memset(&t, 0, sizeof(t));
	snprintf(t.kernel, sizeof(t.kernel), "mm");
	snprintf(t.statement, sizeof(t.statement), "S0");
	t.n_loops = t.band = 3;
	t.extent[0] = m;
	t.extent[1] = n;
	t.extent[2] = k;
	for (l = 0; l < 3; l++)
		snprintf(t.loop[l], POLY_NAME_LEN, "%s", names[l]);
	t.points = (uint64_t) (m * n * k);
	t.n_space = 2;
	t.space_loop[0] = 0;
	t.space_loop[1] = 1;
	t.n_latency = 2;
	t.latency_loop[0] = 0;
	t.latency_loop[1] = 1;
	t.simd_loop = 2;
	t.reduction = 2;
	t.space_time = 3;
	t.ops_per_point = 2;
	t.n_accesses = 3;
	set_access(&t, 0, "A", 0, 2);
	set_access(&t, 1, "B", 2, 1);
	set_access(&t, 2, "C", 0, 1);
	t.n_groups = 4;
	set_group(&t, 0, 0, POLY_DEP_READ, POLY_IO_EXTERIOR, 0, 1, 1, 0, 0,
		POLY_L2);
	set_group(&t, 1, 1, POLY_DEP_READ, POLY_IO_EXTERIOR, 1, 0, 1, 0, 0,
		POLY_L2);
	set_group(&t, 2, 2, POLY_DEP_FLOW, POLY_IO_INTERIOR, 0, 0, 0, 0, 1,
		POLY_L1);
	set_group(&t, 3, 2, POLY_DEP_OUTPUT, POLY_IO_INTERIOR, 0, 0, 0, 1, 0,
		POLY_L1);
	return t;
}

/* A model with the io_network and double_buffer knobs: the knobs are
 * array_part i, j, k, latency i, j, simd k, io_network, double_buffer.
 */
static sim_model *hand_model(int64_t m, int64_t n, int64_t k,
	const arch_board *board)
{
	poly_template t = mm_by_hand(m, n, k);
	sim_options opt = { 0, 1, 1, 0, 0, { 0, 0, 0 } };
	dse_error err;
	sim_model *model;

	dse_error_clear(&err);
	model = sim_model_alloc(&t, board, &t32, &opt, &err);
	if (!model)
		fail_msg("sim_model_alloc: %s", err.msg);
	return model;
}

static void run(const sim_model *m, const int32_t *knobs, int kind,
	const sim_cycle_opts *o, sim_cycle_report *r)
{
	dse_error err;

	dse_error_clear(&err);
	if (sim_simulate(m, knobs, kind, o, r, &err) != dse_stat_ok)
		fail_msg("sim_simulate: %s", err.msg);
	if (r->metrics.status != SIM_OK)
		fail_msg("design is %s", sim_status_name(r->metrics.status));
}

/* One tiny design and its cycles worked out by hand. */
struct hand_case {
	const char *what;
	int64_t m, n, k;
	const arch_board *board;
	int32_t knobs[8];
	uint64_t cycles;
};

/* The 4x4x4 mm on 2 x 2 PEs (array_part 2,2,4, latency 1,1, simd 1):
 * 4 tiles, each its own output tile.  Per PE and tile: 1x1x4 iterations
 * at II = 4 (the 4-cycle adder, one accumulator): compute 16; feed 4.
 * A: 2 lines of 4 words, run 4 -> 2 beats (one per line), 32 bytes.
 * B: 2 lines of 4 words, run 1 -> 8 beats (4 per line), 32 bytes.
 * C: 4 words, run 2 -> 2 beats, 16 bytes.  Skew 2, pipeline 4, 2 rows.
 * A burst holds a whole tile of a group, so a load is one burst each.
 *
 * Double-buffered: tile 0: A granted at 0 (to 1.0), B at 1 (to 2.0); A's
 * beats arrive at 10.5 -> 11 and 11, so L3 11, 12; L2 line 0 12, line 1
 * 13, 14: A at 14; B's beats at 12..19, line 0 13..16, line 1 17..20 then
 * 18..21: loaded at 21, computed 21..37.  Tile 1's loads start when the
 * L3 modules are free: A at 12, B at 19 (granted 12, 19): A 23, 24, 26;
 * B's beats 30..37 -> 39; computed 39..55.  Tile 0's drain asks at 37+2+4
 * = 43.  Tile 2: A and B at 37 (granted 37, 38): A 51, B 58; computed
 * 58..74; tile 0's drain is granted at 43+2+2 = 47 for 0.5 cycle: done
 * 48.  Tile 3: A at 55, B at 56: B 76; computed 76..92; tile 1's drain
 * (61) ends 66, tile 2's (80) 85, tile 3's asks at 98: 98+2+2 = 102,
 * +0.5 -> 103.
 *
 * Without double buffering a load starts when the previous tile is
 * computed and a tile waits for the previous output tile's drain: tile 0
 * as above (21..37), then each step is load 21 (grant, 10 latency, 1
 * for the 0.125-cycle beat, 8 beats, 2 hops) + compute 16 = 37: tile 3
 * is computed at 21+16+3*37 = 148, its drain asks at 154, bursts at 158,
 * done 159.
 *
 * Starved DRAM (1.6 bytes a cycle: a tile's 32 bytes of A or B take 20
 * cycles): tile 0: A granted 0..20, its beats at 20, 30 -> 32; B granted
 * 20..40, beats every 2.5 from 32.5 -> 52: computed 52..68.  Tile 1: A
 * granted 40..60 -> 72, B 60..80 -> 92: computed 92..108.  Tile 2: A
 * 80..100, B 100..120 -> 132; computed 132..148 (tile 0's drain is
 * granted after them, 120..130).  Tile 3: A 130..150, B 150..170 -> 182;
 * computed 182..198.  Drains: tile 1's 170..180, tile 2's 184..194, tile
 * 3's asks at 204, bursts at 208, 10 cycles: 218.
 *
 * The 8x8x4 mm on 4 x 4 PEs (array_part 4,4,4, latency 1,1, simd 1): 4
 * tiles, each its own output tile; per PE and tile 1x1x4 iterations at II
 * 4: compute 16, feed 4.  A: 4 lines of 4 words, run 4 -> 4 beats (one
 * per line), 64 bytes.  B: 4 lines of 4 words, run 1 -> 16 beats (4 per
 * line), 64 bytes.  C: 16 words, run 4 -> 4 beats, 64 bytes.  Skew
 * 4+4-2 = 6, pipeline 4, so a tile's drain asks 10 cycles after it is
 * computed and its burst is ready 4 rows + 4 beats after it starts.  A
 * burst still holds a whole tile of a group.  On the easy board a load
 * burst takes 2 cycles; A's beats arrive every 0.5 cycle and B's every
 * 0.125, so the port sends one a cycle; A's beat k (line k) is kept by
 * L2 module k+1 after k+1 hops, B's line 3 after 4 hops.
 *
 * Double-buffered: tile 0: A granted 0..2, beats at 10.5, 11, 11.5, 12
 * -> port 11, 12, 13, 14, last line buffer 14+4 = 18; B granted 2..4,
 * beats 12.125..14 -> port 13..28, its last beat kept at 28+4 = 32:
 * computed 32..48.  Tile 1: the L3 modules are free at 14 (A) and 28
 * (B): A granted 14..16, beats 24.5..26 -> port 25..28 -> 32; B granted
 * 28..30 -> port 39..54 -> 58: computed 58..74; tile 0's drain asks at
 * 48+10 = 58, ready at 66.  Tile 2 (its buffers free when tile 0 is
 * done, at 48): A granted 48..50 -> 66; B (free at 54) granted 54..56 ->
 * port 65..80 -> 84; tile 0's drain is granted at 66..68 (done 68), tile
 * 1's asks at 84 (ready 92); computed 84..100 (its output buffer was
 * free at 68).  Tile 3 (buffers free at 74): A granted 74..76 -> 92; B
 * (free at 80) granted 80..82 -> 110; tile 1's drain is granted 92..94;
 * computed 110..126 (its output buffer free at 94).  Tile 2's drain asks
 * at 110, granted 118..120; tile 3's asks at 136, ready at 144, granted
 * 144..146: 146.
 *
 * Without double buffering each load starts when the tile before it is
 * computed and each tile waits for the drain of the one before: tile 0
 * computed 32..48; tile 1: A granted 48..50 -> 66, B granted 50..52 ->
 * port 61..76 -> 80; tile 0's drain (asks 58, ready 66) granted 66..68;
 * computed 80..96.  Every further tile repeats this 48 cycles later:
 * tile 2 computed 128..144, tile 3 176..192; its drain asks at 202, is
 * ready at 210, granted 210..212: 212.
 *
 * Starved DRAM (1.6 bytes a cycle): a 64-byte burst takes 40 cycles, A's
 * beats arrive every 10 cycles and B's every 2.5, so the chain never
 * waits for itself and a tile is loaded 4 hops after its last beat
 * arrives.  Double-buffered: tile 0: A granted 0..40 (beats 20..50), B
 * 40..80 (last beat 90) -> 94: computed 94..110.  Tile 1: A (free at 50)
 * granted 80..120, B (free at 90) 120..160 -> last beat 170 -> 174:
 * computed 174..190; tile 0's drain asks at 120.  Tile 2: A granted
 * 160..200, B 200..240 -> 254; tile 0's drain is granted 240..280, so
 * tile 2 (whose output buffer was tile 0's) computes 280..296; tile 1's
 * drain asks at 200.  Tile 3: A 280..320, B 320..360 -> 374; tile 1's
 * drain 360..400: computed 400..416.  Tile 2's drain 408..448, tile 3's
 * (asks 426, ready 456) 456..496: 496.  Without double buffering: tile 0
 * computed 94..110; tile 1: A 110..150, B 150..190 -> 204, tile 0's
 * drain 190..230: computed 230..246; tile 2: A 246..286, B 286..326 ->
 * 340, tile 1's drain 326..366: computed 366..382; tile 3: A 382..422, B
 * 422..462 -> 476, tile 2's drain 462..502: computed 502..518; tile 3's
 * drain asks at 528, ready 536: 536..576.
 */
static const struct hand_case hand_cases[] = {
	{ "2x2 db", 4, 4, 4, &easy_board, { 2, 2, 4, 1, 1, 1, 0, 1 }, 103 },
	{ "2x2 nodb", 4, 4, 4, &easy_board, { 2, 2, 4, 1, 1, 1, 0, 0 }, 159 },
	{ "2x2 starved", 4, 4, 4, &starved_board, { 2, 2, 4, 1, 1, 1, 0, 1 }, 218 },
	{ "4x4 db", 8, 8, 4, &easy_board, { 4, 4, 4, 1, 1, 1, 0, 1 }, 146 },
	{ "4x4 nodb", 8, 8, 4, &easy_board, { 4, 4, 4, 1, 1, 1, 0, 0 }, 212 },
	{ "4x4 starved", 8, 8, 4, &starved_board,
	  { 4, 4, 4, 1, 1, 1, 0, 1 }, 496 },
	{ "4x4 starved nodb", 8, 8, 4, &starved_board,
	  { 4, 4, 4, 1, 1, 1, 0, 0 }, 576 },
};

static void test_hand(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(hand_cases); i++) {
		const struct hand_case *c = &hand_cases[i];
		sim_model *m = hand_model(c->m, c->n, c->k, c->board);
		sim_cycle_report r;

		run(m, c->knobs, SIM_MODEL_FULL, NULL, &r);
		if (r.metrics.cycles != c->cycles)
			fail_msg("%s: %llu cycles, expected %llu", c->what,
				(unsigned long long) r.metrics.cycles,
				(unsigned long long) c->cycles);
		assert_int_equal(r.model, SIM_MODEL_FULL);
		assert_int_equal(r.tiles_simulated, r.tiles);
		sim_model_free(m);
	}
}

/* Designs of the hand template, of the real mm template and of the ttmc
 * example kernel (parameters I, J, K, L, M in "par", space_time[4]).
 */
struct design {
	const char *what;
	int64_t m, n, k;
	int real;		/* 1: mm, 2: ttmc, through the front end */
	int no_interval;	/* left out of the interval table */
	const arch_board *board;	/* NULL: u250 */
	int32_t knobs[10];
	int64_t par[5];
};

static const struct design designs[] = {
	{ "hand 2x2", 4, 4, 4, 0, 0, &easy_board, { 2, 2, 4, 1, 1, 1, 0, 1 },
	  { 0 } },
	{ "hand padded", 10, 12, 9, 0, 0, &easy_board,
	  { 4, 4, 4, 2, 2, 2, 0, 1 }, { 0 } },
	/* Every fourth tile starts an output tile and, without double
	 * buffering, waits for the drain of the one before (204 cycles
	 * instead of 138): a class of its own.
	 */
	{ "hand starved mc", 16, 16, 16, 0, 0, &starved_board,
	  { 4, 8, 4, 2, 2, 4, 1, 0 }, { 0 } },
	{ "mm 64", 64, 64, 64, 1, 0, NULL, { 16, 16, 8, 4, 4, 2, 0, 1 },
	  { 0 } },
	{ "mm padded", 60, 50, 40, 1, 0, NULL, { 16, 16, 16, 4, 4, 4, 1, 1 },
	  { 0 } },
	{ "mm nodb", 64, 48, 32, 1, 0, NULL, { 8, 16, 8, 4, 4, 2, 0, 0 },
	  { 0 } },
	/* Double-buffered tiles alternate between 160 and 128 cycles, in
	 * the phase the run started in (bench_cycle's ttmc design).
	 */
	{ "ttmc 32,8,8,2", 0, 0, 0, 2, 0, NULL,
	  { 32, 8, 8, 2, 1, 2, 4, 4, 0, 1 }, { 64, 32, 32, 16, 16 } },
	/* The same on a board whose DRAM channel is busier than the PEs. */
	{ "mm nodb starved", 64, 48, 32, 1, 0, &starved_board,
	  { 8, 16, 8, 4, 4, 2, 0, 0 }, { 0 } },
};

/* The ttmc template of space_time[4] through the front end. */
static poly_template ttmc_template(const int64_t *par)
{
	const example_kernel *k = example_kernel_find("ttmc");
	poly_kernel_desc desc;
	poly_template t;
	dse_error err;

	assert_non_null(k);
	desc = example_kernel_desc(k, par);
	dse_error_clear(&err);
	if (poly_template_build(&desc, 4, &t, &err) != dse_stat_ok)
		fail_msg("poly_template_build: %s", err.msg);
	return t;
}

static sim_model *design_model(const struct design *d)
{
	sim_options opt = { 0, 1, 1, 0, 0, { 0, 0, 0 } };
	const arch_board *b = d->board ? d->board : arch_board_find("u250");
	poly_template t;
	dse_error err;
	sim_model *m;

	if (!d->real)
		return hand_model(d->m, d->n, d->k, b);
	t = d->real == 2 ? ttmc_template(d->par) :
		mm_kernel_template(d->m, d->n, d->k);
	dse_error_clear(&err);
	m = sim_model_alloc(&t, b, arch_dtype_find("fp32"), &opt, &err);
	if (!m)
		fail_msg("sim_model_alloc: %s", err.msg);
	return m;
}

/* With as many samples as the largest class has tiles, every tile is
 * sampled and the estimate is the full simulation, with no interval.
 */
static void test_sampled(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(designs); i++) {
		sim_model *m = design_model(&designs[i]);
		sim_cycle_opts o = { 0, 0, 7, 1 << 20, 0 };
		sim_cycle_report f, s;

		run(m, designs[i].knobs, SIM_MODEL_FULL, &o, &f);
		run(m, designs[i].knobs, SIM_MODEL_SAMPLED, &o, &s);
		if (s.metrics.cycles != f.metrics.cycles)
			fail_msg("%s: sampled %llu, full %llu",
				designs[i].what,
				(unsigned long long) s.metrics.cycles,
				(unsigned long long) f.metrics.cycles);
		assert_true(s.cycles_low == s.cycles_high);
		/* The sampled model evaluates daisy chains burst by burst,
		 * the full simulation beat by beat; on one window of every
		 * tile the two agree in every module's figures.
		 */
		assert_int_equal(s.n_modules, f.n_modules);
		for (int k = 0; k < f.n_modules; k++) {
			const sim_module_stat *a = &s.module[k];
			const sim_module_stat *b = &f.module[k];

			if (strcmp(a->name, b->name) || a->busy != b->busy ||
			    a->stall_in != b->stall_in ||
			    a->stall_out != b->stall_out)
				fail_msg("%s: module %s busy %llu/%llu in "
					"%llu/%llu out %llu/%llu",
					designs[i].what, b->name,
					(unsigned long long) a->busy,
					(unsigned long long) b->busy,
					(unsigned long long) a->stall_in,
					(unsigned long long) b->stall_in,
					(unsigned long long) a->stall_out,
					(unsigned long long) b->stall_out);
		}
		assert_int_equal(s.tiles_simulated, f.tiles);
		assert_true(s.fraction == 1.0);
		sim_model_free(m);
	}
}

/* The cycles PE (0, 0) advanced on each tile of a window. */
struct deltas {
	uint64_t first;
	int64_t d[64];
};

static void record(void *arg, uint64_t tile, int64_t delta)
{
	struct deltas *r = arg;

	if (tile - r->first < 64)
		r->d[tile - r->first] = delta;
}

/* A window that goes on from the state of another after the tiles
 * sim__cyc_alike says they run alike ends as the same window run from a
 * cold array: the same end, the same cycles on every tile it runs, the
 * same module table; with the beat-by-beat chains and the burst-by-burst
 * ones.  The window pairs are the first tiles and the last ones, and two
 * stretches of the middle; most pairs run some tiles alike.
 */
static void test_resume(void **state)
{
	size_t i;
	int alike = 0;

	(void) state;
	for (i = 0; i < DSE_N_OF(designs); i++) {
		sim_model *m = design_model(&designs[i]);
		sim_metrics met;
		sim__point pt;
		struct cyc c;
		struct cyc_snap snap;
		sim_cycle_report cold, warm;
		struct deltas dc, dw;
		uint64_t n, pairs[2][4], p, k;
		int fast, j;

		sim_eval(m, designs[i].knobs, &met);
		assert_int_equal(sim__read_point(m, designs[i].knobs, &pt),
			SIM_OK);
		assert_true(sim__cyc_init(&c, m, &pt, NULL, met.mhz * 1e6));
		n = c.n_tiles;
		snap.mem = malloc(sizeof(int64_t) * c.n_state);
		assert_non_null(snap.mem);
		pairs[0][0] = 0;
		pairs[0][1] = n > 4 ? 3 : 0;
		pairs[0][2] = n > 8 ? n - 4 : 0;
		pairs[0][3] = n - 1;
		pairs[1][0] = n / 4;
		pairs[1][1] = n / 4 + (n > 16 ? 5 : 0);
		pairs[1][2] = n / 2;
		pairs[1][3] = n / 2 + (n > 16 ? 6 : 0);
		for (fast = 0; fast < 2; fast++)
			for (j = 0; j < 2; j++) {
				uint64_t *w = pairs[j];
				int64_t e_cold, e_warm;

				if (w[2] <= w[1] + 1)
					continue;
				c.fast = fast;
				p = sim__cyc_alike(&c, w[0], w[1], w[2], w[3]);
				if (p == 0)
					continue;
				alike++;
				memset(&cold, 0, sizeof(cold));
				memset(&warm, 0, sizeof(warm));
				dc.first = dw.first = w[2];
				e_cold = sim__cyc_window(&c, w[2], w[3], record,
					&dc);
				sim__cyc_modules(&c, &cold);
				sim__cyc_window_at(&c, w[0], w[1], NULL, &snap,
					p, NULL, NULL);
				e_warm = sim__cyc_window_at(&c, w[2], w[3],
					&snap, NULL, 0, record, &dw);
				sim__cyc_modules(&c, &warm);
				if (e_warm != e_cold)
					fail_msg("%s: %llu..%llu from %llu..%llu "
						"after %llu: %lld, cold %lld",
						designs[i].what,
						(unsigned long long) w[2],
						(unsigned long long) w[3],
						(unsigned long long) w[0],
						(unsigned long long) w[1],
						(unsigned long long) p,
						(long long) e_warm,
						(long long) e_cold);
				for (k = p; k <= w[3] - w[2] && k < 64; k++)
					assert_int_equal(dw.d[k], dc.d[k]);
				assert_int_equal(warm.n_modules,
					cold.n_modules);
				assert_memory_equal(warm.module, cold.module,
					sizeof(cold.module[0]) *
					(size_t) cold.n_modules);
			}
		free(snap.mem);
		sim__cyc_fini(&c);
		sim_model_free(m);
	}
	/* Not vacuous: most designs have windows alike. */
	assert_true(alike >= 8);
}

/* The interval of the default sampling covers the full simulation, and
 * the estimate is within 2% of it (the benchmark's goal), for several
 * seeds of each design; the same seed gives the same estimate.
 */
static void test_interval(void **state)
{
	size_t i;
	uint64_t seed;

	(void) state;
	for (i = 0; i < DSE_N_OF(designs); i++) {
		sim_model *m;
		sim_cycle_report f, s, again;

		if (designs[i].no_interval)
			continue;
		m = design_model(&designs[i]);
		run(m, designs[i].knobs, SIM_MODEL_FULL, NULL, &f);
		for (seed = 1; seed <= 5; seed++) {
			sim_cycle_opts o = { 0, 0, seed, 0, 0 };

			run(m, designs[i].knobs, SIM_MODEL_SAMPLED, &o, &s);
			run(m, designs[i].knobs, SIM_MODEL_SAMPLED, &o, &again);
			assert_int_equal(s.metrics.cycles,
				again.metrics.cycles);
			if ((double) f.metrics.cycles < s.cycles_low ||
			    (double) f.metrics.cycles > s.cycles_high)
				fail_msg("%s seed %llu: full %llu outside "
					"[%.1f, %.1f]", designs[i].what,
					(unsigned long long) seed,
					(unsigned long long) f.metrics.cycles,
					s.cycles_low, s.cycles_high);
			if (fabs((double) s.metrics.cycles -
			    (double) f.metrics.cycles) >
			    0.02 * (double) f.metrics.cycles)
				fail_msg("%s seed %llu: sampled %llu, full "
					"%llu", designs[i].what,
					(unsigned long long) seed,
					(unsigned long long) s.metrics.cycles,
					(unsigned long long) f.metrics.cycles);
		}
		sim_model_free(m);
	}
}

/* Random double-buffered mm designs on a board of 2 GB/s, whose loads
 * keep the DRAM channel busy: a drain waits for a whole output tile and
 * lands on a later one, which the sampled windows must hold.  Each was
 * 3% to 19% off with a warm-up of two tiles; the estimate is within 2%
 * of the full simulation for several seeds.
 */
static void test_starved(void **state)
{
	static const struct {
		int64_t m, n, k;
		int32_t knobs[8];
	} cases[] = {
		{ 48, 96, 48, { 32, 32, 8, 8, 2, 8, 1, 1 } },
		{ 64, 48, 32, { 32, 16, 4, 8, 4, 1, 1, 1 } },
		{ 96, 32, 32, { 32, 16, 8, 2, 2, 2, 0, 1 } },
		{ 128, 96, 48, { 16, 16, 16, 1, 2, 1, 0, 1 } },
		{ 48, 96, 48, { 16, 32, 4, 2, 2, 4, 0, 1 } },
		{ 64, 48, 32, { 16, 32, 4, 2, 2, 2, 0, 1 } },
		{ 128, 96, 64, { 16, 16, 8, 2, 2, 2, 0, 1 } },
		{ 128, 64, 48, { 8, 32, 8, 8, 2, 4, 0, 1 } },
		{ 96, 128, 32, { 8, 16, 8, 8, 4, 4, 1, 1 } },
		{ 64, 128, 128, { 16, 16, 32, 4, 4, 2, 1, 1 } },
	};
	arch_board board = *arch_board_find("u250");
	sim_options opt = { 0, 1, 1, 0, 0, { 0, 0, 0 } };
	size_t i;
	uint64_t seed;

	(void) state;
	board.dram_gbps = 2.0;
	for (i = 0; i < DSE_N_OF(cases); i++) {
		poly_template t = mm_kernel_template(cases[i].m, cases[i].n,
			cases[i].k);
		sim_cycle_report f, s;
		dse_error err;
		sim_model *m;

		dse_error_clear(&err);
		m = sim_model_alloc(&t, &board, arch_dtype_find("fp32"), &opt,
			&err);
		if (!m)
			fail_msg("sim_model_alloc: %s", err.msg);
		run(m, cases[i].knobs, SIM_MODEL_FULL, NULL, &f);
		for (seed = 1; seed <= 3; seed++) {
			sim_cycle_opts o = { 0, 0, seed, 0, 0 };
			double e;

			run(m, cases[i].knobs, SIM_MODEL_SAMPLED, &o, &s);
			e = ((double) s.metrics.cycles -
				(double) f.metrics.cycles) /
				(double) f.metrics.cycles;
			if (fabs(e) > 0.02)
				fail_msg("case %zu seed %llu: sampled %llu, "
					"full %llu (%+.2f%%)", i,
					(unsigned long long) seed,
					(unsigned long long) s.metrics.cycles,
					(unsigned long long) f.metrics.cycles,
					100 * e);
		}
		sim_model_free(m);
	}
}

/* Sequential sampling: on designs whose classes cost the same tile by
 * tile, two equal samples end a class group, so few tiles are simulated
 * (at most "max_tiles"; the sampling with four samples per class and two
 * warm-up tiles before each simulated three times as many) even when
 * "samples" (the option; 0: the default 4) allows more, and the estimate
 * is the full simulation exactly.  The ttmc design alternates between two
 * tile times, which the first samples of both parities show, so its
 * classes are split by parity and stay exact.  On the starved board the
 * DRAM channel is busier than the PEs, the early stop is not trusted and
 * the classes get their "samples": at least "min_tiles" are simulated.
 */
static void test_sequential(void **state)
{
	static const struct {
		size_t design;
		int samples;
		uint64_t min_tiles, max_tiles;
	} cases[] = {
		{ 3, 0, 1, 16 },	/* mm 64 */
		{ 3, 1, 1, 16 },
		{ 3, 2, 1, 16 },
		{ 5, 0, 1, 12 },	/* mm nodb */
		{ 5, 8, 1, 12 },
		{ 6, 0, 1, 20 },	/* ttmc 32,8,8,2 */
		{ 6, 3, 1, 20 },
		{ 7, 0, 1, 20 },	/* mm nodb starved */
		{ 7, 8, 25, 40 },
	};
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(cases); i++) {
		const struct design *d = &designs[cases[i].design];
		sim_model *m = design_model(d);
		sim_cycle_opts o = { 0, 0, 3, cases[i].samples, 0 };
		sim_cycle_report f, s;

		run(m, d->knobs, SIM_MODEL_FULL, NULL, &f);
		run(m, d->knobs, SIM_MODEL_SAMPLED, &o, &s);
		if (s.tiles_simulated < cases[i].min_tiles ||
		    s.tiles_simulated > cases[i].max_tiles)
			fail_msg("%s, %d samples: %llu tiles simulated, "
				"expected %llu..%llu", d->what,
				cases[i].samples,
				(unsigned long long) s.tiles_simulated,
				(unsigned long long) cases[i].min_tiles,
				(unsigned long long) cases[i].max_tiles);
		if (s.metrics.cycles != f.metrics.cycles)
			fail_msg("%s, %d samples: sampled %llu, full %llu",
				d->what, cases[i].samples,
				(unsigned long long) s.metrics.cycles,
				(unsigned long long) f.metrics.cycles);
		assert_true(s.cycles_low <= (double) f.metrics.cycles &&
			(double) f.metrics.cycles <= s.cycles_high);
		sim_model_free(m);
	}
}

/* The analytic mode is sim_eval; the names of the models round-trip. */
static void test_analytic(void **state)
{
	size_t i;
	int k;

	(void) state;
	for (i = 0; i < DSE_N_OF(designs); i++) {
		sim_model *m = design_model(&designs[i]);
		sim_cycle_report r;
		sim_metrics e;

		run(m, designs[i].knobs, SIM_MODEL_ANALYTIC, NULL, &r);
		sim_eval(m, designs[i].knobs, &e);
		assert_memory_equal(&r.metrics, &e, sizeof(e));
		assert_int_equal(r.model, SIM_MODEL_ANALYTIC);
		sim_model_free(m);
	}
	for (k = 0; k < SIM_N_MODEL_KINDS; k++)
		assert_int_equal(sim_model_kind_find(sim_model_kind_name(k)),
			k);
	assert_int_equal(sim_model_kind_find("cycle"), -1);
	assert_null(sim_model_kind_name(SIM_N_MODEL_KINDS));
}

/* Illegal points come back with their status from every model. */
static void test_illegal(void **state)
{
	static const struct {
		int32_t knobs[8];
		int status;
	} cases[] = {
		{ { 0, 2, 4, 1, 1, 1, 0, 1 }, SIM_BAD_TILE },
		{ { 2, 2, 4, 3, 1, 1, 0, 1 }, SIM_BAD_LATENCY },
		{ { 2, 2, 4, 1, 1, 3, 0, 1 }, SIM_BAD_SIMD },
		{ { 2, 2, 4, 1, 1, 1, 2, 1 }, SIM_BAD_KNOB },
	};
	sim_model *m = hand_model(4, 4, 4, &easy_board);
	size_t i;
	int kind;

	(void) state;
	for (i = 0; i < DSE_N_OF(cases); i++)
		for (kind = 0; kind < SIM_N_MODEL_KINDS; kind++) {
			sim_cycle_report r;
			dse_error err;

			dse_error_clear(&err);
			assert_int_equal(sim_simulate(m, cases[i].knobs, kind,
				NULL, &r, &err), dse_stat_ok);
			assert_int_equal(r.metrics.status, cases[i].status);
			assert_int_equal(r.metrics.cycles, 0);
		}
	sim_model_free(m);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest hand[] = {
		cmocka_unit_test(test_hand),
	};
	const struct CMUnitTest sampled[] = {
		cmocka_unit_test(test_sampled),
		cmocka_unit_test(test_resume),
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_starved),
	};
	const struct CMUnitTest interval[] = {
		cmocka_unit_test(test_interval),
	};
	const struct CMUnitTest analytic[] = {
		cmocka_unit_test(test_analytic),
	};
	const struct CMUnitTest illegal[] = {
		cmocka_unit_test(test_illegal),
	};
	const char *group = argc > 1 ? argv[1] : "all";
	int all = strcmp(group, "all") == 0, failed = 0, ran = 0;

#define RUN(g) \
	if (all || strcmp(group, #g) == 0) { \
		failed += cmocka_run_group_tests_name("sim.cycle." #g, g, \
			NULL, NULL); \
		ran = 1; \
	}
	RUN(hand)
	RUN(sampled)
	RUN(interval)
	RUN(analytic)
	RUN(illegal)
#undef RUN
	if (!ran) {
		fprintf(stderr, "test_cycle: unknown group '%s'\n", group);
		return 2;
	}
	return failed ? 1 : 0;
}
