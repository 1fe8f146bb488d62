/* sim: the state of the cycle simulator, shared by cycle.c (the
 * simulation and sim_simulate) and cycle_sample.c (the sampled model).
 */
#ifndef SIM_CYCLE_INTERNAL_H
#define SIM_CYCLE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cycle.h"
#include "internal.h"

/* Busy and stall cycles of one module, summed. */
struct cyc_stat {
	uint64_t busy, stall_in, stall_out;
};

/* The DRAM bursts of an input group's tile: how many, and the bytes and
 * channel time of a full one and of the last one.
 */
struct cyc_bursts {
	int64_t nb;
	double full_bytes, full_time, last_bytes, last_time;
};

/* An input group on the design point. */
struct cyc_in {
	int xbar;		/* goes through the crossbar */
	int mc;			/* as multicast (else unicast) */
	int64_t lines;		/* PE lines of the group */
	int64_t chain;		/* L2 modules in its daisy chain */
	int64_t bl;		/* beats per line and tile */
	int64_t beats;		/* beats per tile from the L3 module */
	int64_t bb;		/* beats per DRAM burst */
	int64_t nb;		/* DRAM bursts per tile */
	int64_t feed;		/* cycles of the L1 feed of a PE line */
	double bytes;		/* DRAM bytes of a full tile */
	double fp_full;		/* footprint words of a full tile */
	/* The bursts and the cycles per beat of the DRAM transfer of a
	 * full tile (most tiles), worked out once.
	 */
	struct cyc_bursts whole;
	double share;
};

struct cyc_out {
	int64_t beats, bb;
	double bytes, fp_full;
};

/* A drain waiting for (some of) its DRAM bursts. */
struct cyc_drain {
	int pending;
	int64_t ds;		/* the drain module starts */
	int64_t k;		/* beats granted so far */
	uint64_t oc;		/* its output tile, in the window */
	double bytes;
	int64_t end;
};

/* What changes while a window runs. */
struct cyc_run {
	double ch_free;		/* the DRAM channel is granted from here */
	double ch_busy, bytes;
	int64_t x_free[POLY_MAX_GROUPS];	/* the crossbar's ports */
	int64_t x_last, x_busy;
	int x_mode, x_used;
	int64_t cend[2];	/* PE (0, 0) finished tiles t and t-1 */
	int64_t cend_last;
	int64_t d_free[POLY_MAX_GROUPS];	/* drain modules */
	int64_t d_end[POLY_MAX_GROUPS][2];	/* last two output tiles */
	struct cyc_drain drain[POLY_MAX_GROUPS];
	int64_t end;		/* the last drain done */
	int64_t wend;		/* the window done (drains included) */
};

struct cyc {
	const sim_model *m;
	sim__point p;
	sim_cycle_opts o;
	int64_t depth, lat, levels, sw, skew, pipe, rows, step;
	double bpc;		/* DRAM bytes per cycle */
	uint64_t n_tiles;
	int n_in, n_out;
	struct cyc_in in[POLY_MAX_GROUPS];
	struct cyc_out out[POLY_MAX_GROUPS];
	/* Per input group and stage (L3, then the L2 modules): departure
	 * times of the last depth+1 beats, of the last beat, and stats.
	 */
	size_t stride, n_stage, max_bursts;
	size_t n_state;		/* int64s of ring, last and stat */
	int64_t *ring;		/* (the block that holds the four) */
	int64_t *last;
	struct cyc_stat *stat;
	double *grant;		/* per group, the grant of each burst */
	struct cyc_stat pe;
	struct cyc_stat out_stat[POLY_MAX_GROUPS];
	struct cyc_run run;
	int fast;		/* daisy chains burst by burst (the sampled
				 * model; see chain_tile_fast) */
};

/* Where a window is, besides the simulator's state: the tiles it has
 * run (the next is the first plus "done"), the next tile's index and real
 * sizes, when its inputs are loaded, when the last tile ended, and per
 * output group its output tiles so far and whether the next tile starts
 * one.
 */
struct cyc_cursor {
	uint64_t done;
	int64_t idx[POLY_MAX_LOOPS], clip[POLY_MAX_LOOPS];
	int64_t loaded, prev_end;
	uint64_t oc[POLY_MAX_GROUPS];
	int first_of[POLY_MAX_GROUPS];
};

/* The whole state of a window after some tiles, to go on from. */
struct cyc_snap {
	struct cyc_run run;
	struct cyc_cursor cur;
	struct cyc_stat pe, out_stat[POLY_MAX_GROUPS];
	int64_t *mem;		/* n_state: ring, last and stat */
};

/* Called after each tile of a window with the cycles PE (0, 0) advanced
 * on it (its end minus the previous tile's end, or minus 0 for the
 * window's first).
 */
typedef void (*sim__cyc_hook)(void *arg, uint64_t tile, int64_t delta);

/* Sets up the simulator of a legal point at clock "hz"; returns 0 when
 * out of memory (call sim__cyc_fini anyway).
 */
int sim__cyc_init(struct cyc *c, const sim_model *m, const sim__point *p,
	const sim_cycle_opts *opt, double hz);
void sim__cyc_fini(struct cyc *c);

/* Simulates tiles a..b (b < n_tiles) from a cold array; returns the cycle
 * at which everything of the window is done (drains included).
 */
int64_t sim__cyc_window(struct cyc *c, uint64_t a, uint64_t b,
	sim__cyc_hook hook, void *arg);

/* sim__cyc_window, but when "from" is given starting from its state: that
 * of a window from tile a (or one alike, see sim__cyc_alike) after
 * from->cur.done tiles, whose hooks are not called again; and when "save"
 * is given saving the state into it once "save_at" tiles are done
 * (save_at <= b - a, and not below from->cur.done).  The snapshots'
 * "mem" holds c->n_state int64s.
 */
int64_t sim__cyc_window_at(struct cyc *c, uint64_t a, uint64_t b,
	const struct cyc_snap *from, struct cyc_snap *save, uint64_t save_at,
	sim__cyc_hook hook, void *arg);

/* How many first tiles windows a1..b1 and a2..b2 run alike: the largest p
 * such that, after p tiles, both are in the same state.  That holds when
 * both go on past their first p tiles, those and the tile after them have
 * the same real sizes pairwise, and they start the same output tiles:
 * nothing else of a tile's number enters the simulation.
 */
uint64_t sim__cyc_alike(const struct cyc *c, uint64_t a1, uint64_t b1,
	uint64_t a2, uint64_t b2);

/* The real size of a tile along each band loop (0: all padding), and
 * along band loop l alone for tile index i along it.
 */
void sim__cyc_clip(const struct cyc *c, const int64_t *idx, int64_t *clip);
int64_t sim__cyc_clip1(const struct cyc *c, int l, int64_t i);

/* Adds the module classes of the last window to a report. */
void sim__cyc_modules(const struct cyc *c, sim_cycle_report *out);

/* The sampled model on a set-up simulator; fills the cycles, interval and
 * fractions of "out".  Returns 0 when out of memory.
 */
int sim__cyc_sampled(struct cyc *c, sim_cycle_report *out);

#endif
