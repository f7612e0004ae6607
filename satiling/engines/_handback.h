/* Handing control back to Python by time: one rule for every compiled engine.

   A search loop counts nodes; when ``handback_due`` says so it calls ``handback_look``, which reads
   the clock, runs Python's signal handlers (so Ctrl-C and SIGTERM act) and checks the deadline.
   The number of nodes between looks adapts so that a look comes about every HANDBACK_SECONDS,
   whatever a node costs on this board: a fixed node count is 50 microseconds on one board and
   seconds on another.

   Every engine reports how a run ended with the same codes and, to Python, the same names
   (``handback_name``): "done" (the search space is exhausted), "limit" (the caller's solution
   limit or callback stopped it), "time" (the deadline passed), "nodes" (the node budget is spent).
   -1 means a Python exception is set (an interrupt, or an error in a callback). */
#ifndef SATILING_HANDBACK_H
#define SATILING_HANDBACK_H

#include <Python.h>
#include <time.h>

#define HANDBACK_SECONDS 0.005           /* between looks: well under the 50 ms a user notices */

enum { ENGINE_ERROR = -1, ENGINE_DONE = 0, ENGINE_LIMIT = 1, ENGINE_TIME = 2, ENGINE_NODES = 3 };

static inline const char *handback_name(int status) {
    static const char *names[] = {"done", "limit", "time", "nodes"};
    return status >= 0 && status <= 3 ? names[status] : "error";
}

typedef struct {
    clockid_t clock;                     /* CLOCK_MONOTONIC, or the process's CPU time */
    double deadline;                     /* on ``clock``; 0: none */
    double last;                         /* the clock at the last look */
    unsigned long long every;            /* nodes between looks (adapted) */
    unsigned long long next;             /* the node count of the next look */
} Handback;

static inline double handback_now(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Start timing at ``nodes`` nodes; ``seconds`` <= 0 means no deadline. */
static inline void handback_start(Handback *h, double seconds, int cpu_time, unsigned long long nodes) {
    h->clock = cpu_time ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC;
    h->last = handback_now(h->clock);
    h->deadline = seconds > 0 ? h->last + seconds : 0.0;
    h->every = 1;                        /* the first looks come at once and set the pace (4x a look) */
    h->next = nodes + h->every;
}

/* Start at the pace an earlier run of the same search reached (``every`` nodes between looks; 0:
   none yet): a search called in short runs would otherwise guess again each time, and on a board
   whose nodes cost a millisecond the first guess alone is a second without a look.  A run shorter
   than HANDBACK_SECONDS looks that much more often, so that it ends on time. */
static inline void handback_keep_pace(Handback *h, unsigned long long every, double seconds) {
    if (seconds > 0 && seconds < HANDBACK_SECONDS)
        every = (unsigned long long)((double)every * seconds / HANDBACK_SECONDS) + 1;
    if (every) {
        h->next = h->next - h->every + every;
        h->every = every;
    }
}

static inline int handback_due(const Handback *h, unsigned long long nodes) {
    return nodes >= h->next;
}

/* A look: ENGINE_ERROR (an exception is set), ENGINE_TIME, or 0 to go on. */
static inline int handback_look(Handback *h, unsigned long long nodes) {
    double t = handback_now(h->clock), spent = t - h->last;
    h->last = t;
    /* aim the next look HANDBACK_SECONDS ahead, changing the pace at most fourfold per look */
    if (spent < HANDBACK_SECONDS / 4) h->every *= 4;
    else if (spent > HANDBACK_SECONDS * 4) h->every = h->every / 4 + 1;
    else h->every = (unsigned long long)((double)h->every * (HANDBACK_SECONDS / spent)) + 1;
    if (h->every > (1ULL << 40)) h->every = 1ULL << 40;
    h->next = nodes + h->every;
    /* a moment without the GIL: a Python thread waiting for it runs now (the timer of a time
       limit, a progress bar), not when the search next returns to Python */
    Py_BEGIN_ALLOW_THREADS
    Py_END_ALLOW_THREADS
    if (PyErr_CheckSignals() < 0) return ENGINE_ERROR;
    if (h->deadline > 0 && t >= h->deadline) return ENGINE_TIME;
    return 0;
}

#endif
