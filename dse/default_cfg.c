#include "ctx.h"

/* The built-in sweep: the fp32 1024^3 matrix multiply on an Alveo U250,
 * through the output-stationary array, with the knob ranges AutoSA's tuner
 * explores.  It is a config like any other, so `dse --print-default` shows
 * users a complete example to start from.
 */
static const char default_config[] =
"# Built-in default sweep: fp32 matrix multiply 1024x1024x1024 on an\n"
"# Alveo U250, output-stationary systolic array (AutoSA space_time[3]).\n"
"[kernel]\n"
"name      = mm\n"
"domain    = [M,N,K] -> { S0[i,j,k] : 0 <= i < M and 0 <= j < N and 0 <= k < K }\n"
"reads     = [M,N,K] -> { S0[i,j,k] -> A[i,k]; S0[i,j,k] -> B[k,j]; S0[i,j,k] -> C[i,j] }\n"
"writes    = [M,N,K] -> { S0[i,j,k] -> C[i,j] }\n"
"params    = M=1024, N=1024, K=1024\n"
"reduction = k\n"
"dtype     = fp32\n"
"\n"
"[platform]\n"
"board = u250\n"
"\n"
"[space]\n"
"space_time = 3\n"
"array_part = 1..1024 divisors\n"
"latency    = 1..64 pow2\n"
"simd       = 1, 2, 4, 8\n"
"\n"
"[search]\n"
"strategy    = exhaustive   # or random, genetic, anneal with a budget\n"
"objectives  = latency, dsp\n"
"constraints = dsp <= 0.75, bram18k <= 0.7\n"
"seed        = 1\n"
"checkpoint  = 60           # seconds; 'dse --resume' continues a stopped sweep\n"
"\n"
"[output]\n"
"file = results/mm.h5\n";

const char *dse_default_config(void)
{
	return default_config;
}
