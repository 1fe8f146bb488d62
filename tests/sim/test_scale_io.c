/* Tests of sim/scale_io.c (SCALE-Sim's config, topology and report files)
 * and of "dse scalesim -c ... -t ...".  Run as "test_scale_io <group>";
 * the groups are listed in main().
 *
 * The golden group holds the files SCALE-Sim v2 itself wrote
 * (tests/sim/scalesim_golden: scale-sim-v2 at commit 22f88b1, run by
 * bench/scalesim_compare.py --save-golden on a 4x4 array with 1 KiB SRAMs,
 * each dataflow in CALC mode and in USER mode at 10 and at 1 word a
 * cycle): dse's reports of the same config and topology must be the same
 * text.  The expected float texts of the pyfloat group are Python's repr
 * of the same doubles.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/support/groups.h"

#include "core/util.h"
#include "sim/scale_io.h"

int dse_scale_main(int argc, char **argv);

#define GOLDEN DSE_SOURCE_DIR "/tests/sim/scalesim_golden"

/* ------------------------------------------------------------------ */

static const struct {
	double v;
	const char *text;
} floats[] = {
	{ 0.0, "0.0" },
	{ -0.0, "-0.0" },
	{ 1.0, "1.0" },
	{ 0.1, "0.1" },
	{ 21442.0, "21442.0" },
	{ 75.42250570324504, "75.42250570324504" },
	{ 1e+16, "1e+16" },
	{ 1000000000000000.0, "1000000000000000.0" },
	{ 1.2345678901234568e+17, "1.2345678901234568e+17" },
	{ 1e-05, "1e-05" },
	{ 0.0001, "0.0001" },
	{ 0.00012345, "0.00012345" },
	{ -983.0, "-983.0" },
	{ 2.5e-07, "2.5e-07" },
	{ 1.0 / 3, "0.3333333333333333" },
	{ 100.0, "100.0" },
	{ 78.125, "78.125" },
	{ 9.570701932858595, "9.570701932858595" },
	{ 1e+22, "1e+22" },
	{ 5e-324, "5e-324" },
	{ 1.7976931348623157e+308, "1.7976931348623157e+308" },
	{ -1.5e-10, "-1.5e-10" },
	{ 123.456, "123.456" },
};

static void test_pyfloat(void **state)
{
	char buf[64];
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(floats); i++) {
		sim_scale_pyfloat(buf, sizeof(buf), floats[i].v);
		assert_string_equal(buf, floats[i].text);
	}
}

/* ------------------------------------------------------------------ */
/* scale.cfg */

static const char good_cfg[] =
	"[general]\n"
	"run_name = my_run\n"
	"\n"
	"; a comment\n"
	"[architecture_presets]\n"
	"ArrayHeight:    12\n"
	"arraywidth = 14   # inline comment\n"
	"IfmapSramSzkB:   36\n"
	"FilterSramSzkB:  37\n"
	"OfmapSramSzkB:   38\n"
	"IfmapOffset:    0\n"
	"FilterOffset:   10000000\n"
	"OfmapOffset:    -5\n"
	"Bandwidth : 16, 32\n"
	"Dataflow : ws\n"
	"MemoryBanks:   4\n"
	"\n"
	"[run_presets]\n"
	"InterfaceBandwidth: USER \r\n"
	"[network_presets]\n"
	"TopologyCsvLoc = \"topologies/x.csv\"\n";

static void test_config(void **state)
{
	sim_scale_config c;
	dse_error err;

	(void) state;
	dse_error_clear(&err);
	assert_int_equal(sim_scale_parse_config(good_cfg, strlen(good_cfg),
		"s.cfg", &c, &err), dse_stat_ok);
	assert_string_equal(c.run_name, "my_run");
	assert_int_equal(c.arch.rows, 12);
	assert_int_equal(c.arch.cols, 14);
	assert_int_equal(c.arch.sram_kb[0], 36);
	assert_int_equal(c.arch.sram_kb[1], 37);
	assert_int_equal(c.arch.sram_kb[2], 38);
	assert_int_equal(c.offsets[1], 10000000);
	assert_int_equal(c.offsets[2], -5);
	assert_int_equal(c.arch.dataflow, SIM_SCALE_WS);
	assert_int_equal(c.arch.bw_mode, SIM_SCALE_USER);
	assert_int_equal(c.arch.bandwidth, 16);
	assert_int_equal(c.n_bandwidths, 2);
	assert_int_equal(c.banks, 4);
	assert_string_equal(c.topology, "topologies/x.csv");
	assert_int_equal(c.topology_line, 21);
}

/* A bad config: the line to replace in good_cfg (by its start), its
 * replacement, and the error's line, column and message.
 */
static const struct {
	const char *from, *to;
	int line, col;
	const char *msg;
} bad_cfgs[] = {
	{ "ArrayHeight:    12\n", "", 5, 1, "has no ArrayHeight" },
	{ "ArrayHeight:    12\n", "ArrayHeight: 0\n", 6, 14,
	  "'0' is not a positive integer" },
	{ "ArrayHeight:    12\n", "ArrayHeight: 12x\n", 6, 14,
	  "not a positive integer" },
	{ "Dataflow : ws\n", "Dataflow : rs\n", 15, 12, "no dataflow" },
	{ "InterfaceBandwidth: USER \r\n", "InterfaceBandwidth: FAST\n", 19,
	  21, "neither CALC nor USER" },
	{ "Bandwidth : 16, 32\n", "Bandwidth : 16, x\n", 14, 17,
	  "'x' is not a positive integer" },
	{ "Bandwidth : 16, 32\n", "", 5, 1, "USER mode needs the bandwidth" },
	{ "MemoryBanks:   4\n", "MemoryBanks: 0\n", 16, 14,
	  "not a positive integer" },
	{ "MemoryBanks:   4\n", "Banks: 4\n", 16, 1, "unknown key 'Banks'" },
	{ "[run_presets]\n", "[sparsity]\n", 18, 2,
	  "unknown section 'sparsity'" },
	{ "[run_presets]\n", "[run_presets\n", 18, 1, "a section header" },
	{ "MemoryBanks:   4\n", "Dataflow: os\n", 16, 1, "given twice" },
	{ "MemoryBanks:   4\n", "just words\n", 16, 1, "expected 'key = value'" },
	{ "run_name = my_run\n", "run_name = a/b\n", 2, 12, "no '/'" },
	{ "[general]\n", "x = 1\n[general]\n", 1, 1, "before the first" },
	{ "[network_presets]\n", "[general]\n", 20, 2, "given twice" },
};

static void test_config_bad(void **state)
{
	char text[2048];
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(bad_cfgs); i++) {
		const char *at = strstr(good_cfg, bad_cfgs[i].from);
		sim_scale_config c;
		dse_error err;

		assert_non_null(at);
		snprintf(text, sizeof(text), "%.*s%s%s", (int) (at - good_cfg),
			good_cfg, bad_cfgs[i].to, at + strlen(bad_cfgs[i].from));
		print_message("bad config %zu: %s\n", i, bad_cfgs[i].msg);
		dse_error_clear(&err);
		assert_int_equal(sim_scale_parse_config(text, strlen(text),
			"s.cfg", &c, &err), dse_stat_error);
		assert_int_equal(err.code, DSE_E_INPUT);
		assert_string_equal(err.file, "s.cfg");
		assert_int_equal(err.line, bad_cfgs[i].line);
		assert_int_equal(err.col, bad_cfgs[i].col);
		assert_non_null(strstr(err.msg, bad_cfgs[i].msg));
	}
}

/* ------------------------------------------------------------------ */
/* Topologies */

static void test_topology(void **state)
{
	static const char conv[] =
		"Layer name, IFMAP Height, IFMAP Width, Filter Height, "
		"Filter Width, Channels, Num Filter, Strides,\n"
		"Conv1, 224, 224, 7, 7, 3, 64, 2,\n"
		"\n"
		" , , , , , , , ,\n"		/* a spreadsheet's empty row */
		"Wide,10,12,3,3,8,16,2,3,\n"	/* stride 2 down, 3 across */
		"NoComma,5,5,1,1,2,3,1\r\n"
		"convDP,9,9,3,3,3,1,1,\n";	/* depthwise, 3 channels */
	static const char gemm[] = "Layer, M, N, K,\nfc, 4, 1000, 512,\n";
	/* SCALE-Sim's own files carry more: a tab-separated file
	 * (UNet_maestro.csv), title rows (MLPERF.csv), a spreadsheet's
	 * columns after the stride (Resnet50.csv), a note after the last
	 * comma (mobilnet_4k.csv).
	 */
	static const char tabs[] = "Layer name\t IFMAP Height\t Strides\t\n"
		"C1\t12\t10\t3\t3\t1\t64\t1\t\n";
	static const char sheet[] =
		"Layer name, IFMAP Height, Strides,,,Eh,Ew,e2\n"
		",,,,,,,,,,,,\n"
		"Net A,\n"
		"Conv1,224,224,7,7,3,64,2,,,110,110,12100\n"
		"C2_dw, 112, 112, 3, 3, 1, 1, 1,#dw\n";
	const sim_scale_topo_layer *l;
	sim_scale_topology *t;
	dse_error err;

	(void) state;
	dse_error_clear(&err);
	t = sim_scale_parse_topology(conv, strlen(conv), "t.csv", 0, &err);
	assert_non_null(t);
	assert_int_equal(sim_scale_topology_n_layers(t), 6);
	l = sim_scale_topology_layer(t, 0);
	assert_string_equal(l->name, "Conv1");
	assert_int_equal(l->line, 2);
	assert_int_equal(l->layer.h, 224);
	assert_int_equal(l->layer.k, 64);
	assert_int_equal(l->layer.stride_h, 2);
	assert_int_equal(l->layer.stride_w, 2);
	l = sim_scale_topology_layer(t, 1);
	assert_int_equal(l->layer.stride_h, 2);
	assert_int_equal(l->layer.stride_w, 3);
	assert_int_equal(sim_scale_topology_layer(t, 2)->layer.k, 3);
	l = sim_scale_topology_layer(t, 5);
	assert_string_equal(l->name, "convDPChannel_2");
	assert_int_equal(l->layer.c, 1);
	assert_int_equal(l->layer.k, 1);
	assert_int_equal(l->line, 7);
	assert_null(sim_scale_topology_layer(t, 6));
	sim_scale_topology_free(t);
	t = sim_scale_parse_topology(gemm, strlen(gemm), "g.csv", 1, &err);
	assert_non_null(t);
	l = sim_scale_topology_layer(t, 0);
	/* SCALE-Sim's GEMM: IFMAP M x K under a 1 x K filter, N filters. */
	assert_int_equal(l->layer.h, 4);
	assert_int_equal(l->layer.w, 512);
	assert_int_equal(l->layer.r, 1);
	assert_int_equal(l->layer.s, 512);
	assert_int_equal(l->layer.c, 1);
	assert_int_equal(l->layer.k, 1000);
	sim_scale_topology_free(t);
	t = sim_scale_parse_topology(tabs, strlen(tabs), "u.csv", 0, &err);
	assert_non_null(t);
	assert_int_equal(sim_scale_topology_n_layers(t), 1);
	l = sim_scale_topology_layer(t, 0);
	assert_string_equal(l->name, "C1");
	assert_int_equal(l->layer.w, 10);
	assert_int_equal(l->layer.k, 64);
	assert_int_equal(l->layer.stride_w, 1);
	sim_scale_topology_free(t);
	t = sim_scale_parse_topology(sheet, strlen(sheet), "r.csv", 0, &err);
	assert_non_null(t);
	assert_int_equal(sim_scale_topology_n_layers(t), 2);
	l = sim_scale_topology_layer(t, 0);
	assert_string_equal(l->name, "Conv1");
	assert_int_equal(l->line, 4);
	assert_int_equal(l->layer.k, 64);
	assert_int_equal(l->layer.stride_h, 2);
	assert_int_equal(l->layer.stride_w, 2);
	l = sim_scale_topology_layer(t, 1);
	assert_int_equal(l->layer.c, 1);
	assert_int_equal(l->layer.stride_w, 1);
	sim_scale_topology_free(t);
}

/* Every topology SCALE-Sim ships (tests/sim/scalesim_topologies, its
 * files unchanged), against expect.tsv: the layers and MACs SCALE-Sim's
 * own reader makes of each, or where dse stops on the five that no
 * reading can take.
 */
#define SHIPPED DSE_SOURCE_DIR "/tests/sim/scalesim_topologies"

static char *slurp(const char *path, size_t *len);

/* The MACs of a layer, SCALE-Sim's output size (ceil((H - R + s) / s)). */
static int64_t layer_macs(const sim_scale_layer *l)
{
	int64_t oh = (l->h - l->r + 2 * l->stride_h - 1) / l->stride_h;
	int64_t ow = (l->w - l->s + 2 * l->stride_w - 1) / l->stride_w;

	return oh * ow * l->r * l->s * l->c * l->k;
}

static void shipped_one(const char *row)
{
	char file[256], form[8], what[16], msg[256], path[512];
	long long n = 0, macs = 0, sum = 0;
	int line = 0, col = 0, i;
	sim_scale_topology *t;
	size_t len;
	char *text;
	dse_error err;

	assert_true(sscanf(row, "%255[^\t]\t%7[^\t]\t%15[^\t]", file, form,
		what) == 3);
	if (!strcmp(what, "refused"))
		assert_int_equal(sscanf(row, "%*[^\t]\t%*[^\t]\t%*[^\t]\t%d\t"
			"%d\t%255[^\n]", &line, &col, msg), 3);
	else
		assert_int_equal(sscanf(row, "%*[^\t]\t%*[^\t]\t%lld\t%lld",
			&n, &macs), 2);
	print_message("%s\n", file);
	snprintf(path, sizeof(path), "%s/%s", SHIPPED, file);
	text = slurp(path, &len);
	dse_error_clear(&err);
	t = sim_scale_parse_topology(text, len, file, !strcmp(form, "gemm"),
		&err);
	free(text);
	if (line) {
		assert_null(t);
		assert_int_equal(err.line, line);
		assert_int_equal(err.col, col);
		assert_non_null(strstr(err.msg, msg));
		return;
	}
	assert_non_null(t);
	assert_int_equal(sim_scale_topology_n_layers(t), n);
	for (i = 0; i < sim_scale_topology_n_layers(t); i++)
		sum += layer_macs(&sim_scale_topology_layer(t, i)->layer);
	assert_int_equal(sum, macs);
	sim_scale_topology_free(t);
}

static void test_shipped(void **state)
{
	FILE *f = fopen(SHIPPED "/expect.tsv", "r");
	char row[1024];
	int files = 0;

	(void) state;
	assert_non_null(f);
	while (fgets(row, sizeof(row), f))
		if (row[0] != '#') {
			shipped_one(row);
			files++;
		}
	fclose(f);
	/* SCALE-Sim v2 ships 117 topology CSVs. */
	assert_int_equal(files, 117);
}

static const struct {
	const char *text;
	int gemm, line, col;
	const char *msg;
} bad_topos[] = {
	{ "h\nL,5,5,1,1,2,3,\n", 0, 2, 1, "this one has 7 fields" },
	{ "h\nL,5,5,1,1,2,3,1,1,1,\n", 0, 2, 19, "has 10 fields" },
	{ "h\nL,5,5,1,x,2,3,1,\n", 0, 2, 9, "filter width must be a positive" },
	{ "h\nL,5,5,1,1,2,0,1,\n", 0, 2, 13, "filters must be a positive" },
	{ "h\nL,3,5,4,1,2,3,1,\n", 0, 2, 7, "larger than the IFMAP" },
	{ "h\n,5,5,1,1,2,3,1,\n", 0, 2, 1, "no name" },
	{ "h\nok,5,5,1,1,2,3,1,\n42,\n", 0, 3, 1, "has 1 field" },
	{ "h\nL\t5\t5\t1\t1\t2\t3\t1\n", 0, 2, 1, "has 1 field" },
	{ "h\tx\nL\t5\t5\t1\t\t2\t3\t1\n", 0, 2, 9, "filter width" },
	{ "h\nL,5,5,1,1,2,3,#,1,\n", 0, 2, 1, "has 7 fields" },
	{ "h\n\n", 0, 2, 1, "no layers" },
	{ "only a header\n", 0, 1, 1, "no layers" },
	{ "h\nfc,4,1000,\n", 1, 2, 1, "has 3 fields" },
	{ "h\nfc,4,1000,512,7,\n", 1, 2, 15, "has 5 fields" },
	{ "h\nfc,4,-1000,512,\n", 1, 2, 6, "the N must be a positive" },
};

static void test_topology_bad(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(bad_topos); i++) {
		dse_error err;

		print_message("bad topology %zu: %s\n", i, bad_topos[i].msg);
		dse_error_clear(&err);
		assert_null(sim_scale_parse_topology(bad_topos[i].text,
			strlen(bad_topos[i].text), "t.csv", bad_topos[i].gemm,
			&err));
		assert_int_equal(err.code, DSE_E_INPUT);
		assert_int_equal(err.line, bad_topos[i].line);
		assert_int_equal(err.col, bad_topos[i].col);
		assert_non_null(strstr(err.msg, bad_topos[i].msg));
	}
}

/* ------------------------------------------------------------------ */
/* SCALE-Sim's own reports */

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 20);

	assert_non_null(f);
	assert_non_null(buf);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = 0;
	fclose(f);
	return buf;
}

/* Runs the golden case in folder "dir" through the library and compares
 * each report with SCALE-Sim's.
 */
static void golden_case(const char *dir, int gemm)
{
	char path[2048], *text, *want, *got;
	sim_scale_config cfg;
	sim_scale_topology *t;
	size_t len, glen;
	dse_error err;
	int k, i;
	sim_scale_result *res;

	dse_error_clear(&err);
	snprintf(path, sizeof(path), "%s/scale.cfg", dir);
	text = slurp(path, &len);
	assert_int_equal(sim_scale_parse_config(text, len, path, &cfg, &err),
		dse_stat_ok);
	free(text);
	snprintf(path, sizeof(path), "%s/topology.csv", dir);
	text = slurp(path, &len);
	t = sim_scale_parse_topology(text, len, path, gemm, &err);
	free(text);
	assert_non_null(t);
	res = calloc((size_t) sim_scale_topology_n_layers(t), sizeof(*res));
	for (i = 0; i < sim_scale_topology_n_layers(t); i++)
		assert_int_equal(sim_scale_run(&cfg.arch,
			&sim_scale_topology_layer(t, i)->layer, &res[i], &err),
			dse_stat_ok);
	for (k = 0; k < SIM_SCALE_N_REPORTS; k++) {
		FILE *f = open_memstream(&got, &glen);

		assert_int_equal(sim_scale_report_header(f, k), 0);
		for (i = 0; i < sim_scale_topology_n_layers(t); i++)
			assert_int_equal(sim_scale_report_line(f, k, i,
				&res[i].report), 0);
		fclose(f);
		snprintf(path, sizeof(path), "%s/%s", dir,
			sim_scale_report_file(k));
		want = slurp(path, &len);
		print_message("%s\n", path);
		assert_string_equal(got, want);
		free(want);
		free(got);
	}
	free(res);
	sim_scale_topology_free(t);
}

static void test_golden(void **state)
{
	DIR *d = opendir(GOLDEN);
	struct dirent *e;
	char dir[1536];
	int n = 0;

	(void) state;
	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(dir, sizeof(dir), "%s/%s", GOLDEN, e->d_name);
			golden_case(dir, strstr(e->d_name, "_gemm") != NULL);
			n++;
		}
	closedir(d);
	/* Three modes x three dataflows x conv and GEMM. */
	assert_int_equal(n, 18);
}

/* ------------------------------------------------------------------ */
/* The command */

/* Runs "dse scalesim" with "args" (split at blanks), its output to
 * /dev/null.  Returns the exit status.
 */
static int run_cli(const char *args)
{
	char buf[2048], *argv[32], *tok, *save = NULL;
	int argc = 0, status, out = dup(1), err = dup(2);
	FILE *null = fopen("/dev/null", "w");

	snprintf(buf, sizeof(buf), "scalesim %s", args);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 31;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	dup2(fileno(null), 1);
	dup2(fileno(null), 2);
	status = dse_scale_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(out, 1);
	dup2(err, 2);
	close(out);
	close(err);
	fclose(null);
	return status;
}

/* Whether two files hold the same bytes. */
static int same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *x = slurp(a, &la), *y = slurp(b, &lb);
	int same = la == lb && !memcmp(x, y, la);

	free(x);
	free(y);
	return same;
}

static void test_net(void **state)
{
	char tmp[] = "/tmp/test_scale_io_XXXXXX", args[2048], a[1024],
		b[1024];
	const char *src = GOLDEN "/user1_ws_conv";
	struct stat st;
	int k;

	(void) state;
	assert_non_null(mkdtemp(tmp));
	/* A bad config writes nothing, not even the folder. */
	snprintf(args, sizeof(args), "-c %s/topology.csv -t %s/topology.csv "
		"-p %s/out", src, src, tmp);
	assert_int_equal(run_cli(args), 2);
	snprintf(a, sizeof(a), "%s/out", tmp);
	assert_int_equal(stat(a, &st), -1);
	/* A bad topology neither. */
	snprintf(args, sizeof(args), "-c %s/scale.cfg -t %s/scale.cfg -p %s/out",
		src, src, tmp);
	assert_int_equal(run_cli(args), 2);
	assert_int_equal(stat(a, &st), -1);
	/* The whole run: SCALE-Sim's three files, the same text, and the
	 * network's totals.
	 */
	snprintf(args, sizeof(args), "-q -c %s/scale.cfg -t %s/topology.csv "
		"-p %s/out", src, src, tmp);
	assert_int_equal(run_cli(args), 0);
	for (k = 0; k < SIM_SCALE_N_REPORTS; k++) {
		snprintf(a, sizeof(a), "%s/out/user1_ws_conv/%s", tmp,
			sim_scale_report_file(k));
		snprintf(b, sizeof(b), "%s/%s", src, sim_scale_report_file(k));
		assert_true(same_file(a, b));
		unlink(a);
	}
	snprintf(a, sizeof(a), "%s/out/user1_ws_conv/NETWORK_REPORT.csv", tmp);
	assert_int_equal(stat(a, &st), 0);
	unlink(a);
	snprintf(a, sizeof(a), "%s/out/user1_ws_conv", tmp);
	assert_int_equal(rmdir(a), 0);
	snprintf(a, sizeof(a), "%s/out", tmp);
	assert_int_equal(rmdir(a), 0);
	assert_int_equal(rmdir(tmp), 0);
}

int main(int argc, char **argv)
{
	const test_group groups[] = {
		{ "pyfloat", cmocka_unit_test(test_pyfloat) },
		{ "config", cmocka_unit_test(test_config) },
		{ "config_bad", cmocka_unit_test(test_config_bad) },
		{ "topology", cmocka_unit_test(test_topology) },
		{ "topology_bad", cmocka_unit_test(test_topology_bad) },
		{ "shipped", cmocka_unit_test(test_shipped) },
		{ "golden", cmocka_unit_test(test_golden) },
		{ "net", cmocka_unit_test(test_net) },
	};

	return test_run_groups(argc < 2 ? NULL : argv[1], groups,
		DSE_N_OF(groups));
}
