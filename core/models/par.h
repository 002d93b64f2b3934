/*
 * par.h: independent jobs on a few threads. A model whose runs share
 * nothing (one seed each, its own generator and scratch) hands them out
 * here; each job writes only its own result, so the figures are those of
 * running the jobs one by one, whatever the number of threads or their
 * timing. Pure C and pthreads; the only state kept between calls is a
 * list of spare job records (par.c). Safe to call from several threads.
 */
#ifndef INFRAGATE_MODELS_PAR_H
#define INFRAGATE_MODELS_PAR_H

#include <stddef.h>

/* Run job(ctx, i) for i = 0..n-1 on up to min(n, online CPUs, 8) threads
 * (the caller's among them). With one CPU, or when no thread can start,
 * every job runs on the calling thread, in order. */
void par_for(size_t n, void (*job)(void *ctx, size_t i), void *ctx);

#endif
