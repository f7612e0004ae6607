/* Handing control back to Python by time: one rule for every compiled engine.

   A search loop counts nodes; when ``handback_due`` says so it calls ``handback_look``, which reads
   the clock, runs Python's signal handlers (so Ctrl-C and SIGTERM act) and checks the deadline.
   The number of nodes between looks adapts so that a look comes about every HANDBACK_SECONDS,
   whatever a node costs on this board: a fixed node count is 50 microseconds on one board and
   seconds on another.

   Every engine reports how a run ended with the same codes and, to Python, the same names
   (``handback_name``): "done" (the search space is exhausted), "limit" (the caller's solution
   limit or callback stopped it), "time" (the deadline passed), "nodes" (the node budget is spent).
   -1 means a Python exception is set (an interrupt, or an error in a callback).

   A look may also show a watcher the partial solution the search stands on (``HandbackWatch``):
   at most once every ``every`` seconds of wall time, the engine's ``show`` copies its rows or its
   board into a new Python object and the watcher's callable gets it.  That happens at looks only,
   so the search loop pays nothing for it, and a look pays one test when no one watches. */
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

/* A watcher of the search, kept by the engine from one run to the next (so that a search called
   in short runs is shown at the same pace as a long one). */
typedef struct {
    PyObject *callback;                  /* callback(snapshot); NULL: no one watches */
    double every;                        /* seconds of wall time between snapshots */
    double next;                         /* CLOCK_MONOTONIC of the next one (0: at the next look) */
} HandbackWatch;

/* The engine's snapshot of where its search stands (a new reference), or NULL with an exception. */
typedef PyObject *(*HandbackShow)(void *engine);

typedef struct {
    clockid_t clock;                     /* CLOCK_MONOTONIC, or the process's CPU time */
    double deadline;                     /* on ``clock``; 0: none */
    double last;                         /* the clock at the last look */
    unsigned long long every;            /* nodes between looks (adapted) */
    unsigned long long next;             /* the node count of the next look */
    HandbackWatch *watch;                /* NULL: no one watches */
    HandbackShow show;
    void *engine;                        /* what ``show`` is given */
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
    h->watch = NULL;
}

/* Let ``watch`` (when its callback is set) see the search at the looks of this run. */
static inline void handback_watch(Handback *h, HandbackWatch *watch, HandbackShow show, void *engine) {
    h->watch = watch && watch->callback ? watch : NULL;
    h->show = show;
    h->engine = engine;
}

/* Set or clear (callback None) an engine's watcher from Python; -1 with an exception if the
   arguments are wrong. */
static inline int handback_set_watch(HandbackWatch *w, PyObject *callback, double every) {
    if (callback != Py_None && !PyCallable_Check(callback)) {
        PyErr_SetString(PyExc_TypeError, "watch(): the callback must be callable, or None");
        return -1;
    }
    if (!(every >= 0.0)) {
        PyErr_SetString(PyExc_ValueError, "watch(): seconds between snapshots are >= 0");
        return -1;
    }
    Py_XDECREF(w->callback);
    w->callback = NULL;
    if (callback != Py_None) {
        Py_INCREF(callback);
        w->callback = callback;
    }
    w->every = every;
    w->next = 0.0;
    return 0;
}

/* A snapshot to the watcher if one is due (``t``: the look's reading of ``h->clock``); -1 with
   an exception if the callback raised. */
static inline int handback_show(Handback *h, double t) {
    HandbackWatch *w = h->watch;
    double now = h->clock == CLOCK_MONOTONIC ? t : handback_now(CLOCK_MONOTONIC);
    if (now < w->next) return 0;
    w->next = now + w->every;
    PyObject *snap = h->show(h->engine);
    if (!snap) return -1;
    PyObject *r = PyObject_CallOneArg(w->callback, snap);
    Py_DECREF(snap);
    if (!r) return -1;
    Py_DECREF(r);
    return 0;
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
    if (h->watch && handback_show(h, t) < 0) return ENGINE_ERROR;
    if (h->deadline > 0 && t >= h->deadline) return ENGINE_TIME;
    return 0;
}

#endif
