/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The timeline (observability/timeline.h): records of every dispatch, copy, fill, fence, graph
 * launch and region, written as Chrome trace JSON at the last px_finalize.
 *
 * Times. Every time is the host's CLOCK_MONOTONIC in nanoseconds. A backend whose work
 * runs in the call (runs_on_host: serial, OpenMP) is timed by that clock at begin and at
 * end. Others (CUDA) get two timing events recorded on the instance's queue, one before the
 * operation is issued and one after, which give where the queue really ran it: once
 * they have completed, their distance from a reference event of the same (backend,
 * device), whose host time is known, places them on the host clock. The reference is
 * recorded on the queue of the first instance of that device to be recorded, waited for,
 * and the clock read at once (that first record therefore waits for the work queued on
 * its queue before the timeline saw it: none, normally, since recording starts at
 * px_init). Elapsed times come as float milliseconds, exact to one part in 2^24 of their
 * size, so the reference moves forward: a resolved end event more than 100 ms after it
 * becomes the new one, and no record is ever placed from more than about 100 ms away
 * (a few nanoseconds of rounding). A duration is the distance of the record's own two
 * events.
 *
 * Resolving. A record's events are read once its end event has completed. When the
 * records waiting (two events each) reach TL_MAX_PENDING, the thread that adds the last one
 * waits for the end events of the oldest TL_BATCH of them (earlier work on their queues:
 * the wait is bounded by that work, unless that work waits itself for something the host
 * does later), reads them and recycles their events; a thread that adds one while that
 * goes on waits its turn, so that no more are waiting. px__timeline_finish resolves the
 * rest (px_finalize has fenced every instance).
 *
 * Failures. Recording never makes the caller's operation fail and never prints: a record
 * whose event cannot be made or recorded is dropped and counted (the thread's last error
 * is restored), one whose events cannot be read at the end is left out and counted as
 * unresolved. Work recorded into a graph (an instance being captured) does not run at the
 * call and is not recorded.
 *
 * Threads. One mutex (tl_lock) guards the tables and is never held across a wait for an
 * event; a second one (tl_slow), taken first when both are needed, serialises the waits
 * (resolving, making a reference), so that the reference of a device changes under one
 * thread only. A record belongs to the thread that began it until its end puts it in the
 * queue of records to resolve (or marks it done), so its fields are written outside the
 * lock in between: records live in chunks that never move, so an index (the mark) and a
 * pointer to a record stay valid while the table grows.
 *
 * The records, and the trace written from them, are timeline_trace.h's.
 *
 * Memory (every allocation through px__malloc and friends; all freed by finish):
 *   - records: 40 bytes each, in chunks of 4096 (160 KiB) made as needed, at most
 *     PX_TIMELINE_MAX (default 1,000,000: about 40 MB) plus the chunk table;
 *   - the distinct label and kind strings, once each (interned), with a hash index;
 *   - one lane per instance and per host thread (its names), with a hash index;
 *   - per (backend, device) used: the reference event and at most TL_POOL_MAX idle events
 *     kept for reuse. CUDA events alive at once: 2 * TL_MAX_PENDING waiting (4096), two
 *     more per thread adding one while the oldest are resolved, two per record in
 *     progress, the pools and the references;
 *   - fixed: the queue of records to resolve (2 * TL_MAX_PENDING indices) and the batch
 *     being resolved, and a 1 MiB buffer for writing the file. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "observability/timeline.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/backend.h"
#include "base/error.h"
#include "base/limits.h"
#include "base/util.h"
#include "observability/profiling.h"
#include "observability/timeline_trace.h"

/* Records kept by default, and the most PX_TIMELINE_MAX may ask for. */
#define TL_DEFAULT_MAX 1000000
#define TL_MAX_LIMIT ((int64_t)1 << 31)
/* Records waiting for their events (2 each: 4096 events), and how many a wait resolves. */
#define TL_MAX_PENDING 2048
#define TL_BATCH (TL_MAX_PENDING / 2)
/* Room in the queue of waiting records for threads that add while another resolves. */
#define TL_FIFO_CAP (2 * TL_MAX_PENDING)
/* Idle events kept per device for reuse. */
#define TL_POOL_MAX 256
/* A resolved end event this far after the reference becomes the new reference. */
#define TL_REBASE_MS 100.0f
/* A (backend, device) whose queues run off the host. */
typedef struct tl_dev {
    const px__backend *be;
    int device;
    bool ready; /* ref and t_ref hold: written under both locks */
    void *ref;  /* used under tl_slow only */
    int64_t t_ref;
    void **pool; /* idle events (TL_POOL_MAX), under tl_lock */
    int npool;
} tl_dev;

/* A record being resolved, copied out of the table. */
typedef struct tl_claim {
    px__tl_rec *rec;
    int dev;
    void *ev0, *ev1;
    int64_t t0, t1;
    bool ok;
    bool keep_ev1; /* ev1 became the reference */
} tl_claim;

/* tl_lock guards the tables; tl_slow, taken before tl_lock when both are held, is held
   across waits for events; tl_on is read without either. */
static pthread_mutex_t tl_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t tl_slow = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool tl_on;

static struct {
    bool active; /* between start and finish (under lock) */
    unsigned generation;
    char *path;
    FILE *file;
    int64_t max;

    px__tl_rec **chunks;
    int64_t nchunks, chunk_cap;
    int64_t n; /* records reserved */
    uint64_t dropped;

    char **str; /* interned strings */
    uint32_t nstr, str_cap;
    uint32_t *str_slot; /* hash index: string index + 1, 0 empty */
    uint32_t str_slots;

    px__tl_lane *lanes;
    int nlanes, lane_cap, host_threads;
    int32_t *lane_slot; /* hash of instances: lane + 1, 0 empty */
    int lane_slots;

    tl_dev dev[PX_EXEC_COUNT * PX__MAX_DEVICES];

    int64_t *fifo; /* TL_FIFO_CAP record indices, oldest at fifo_head */
    int fifo_head, fifo_count;
    int claimed;     /* taken from the fifo, being resolved: waiting still */
    tl_claim *claim; /* TL_BATCH, used under tl_slow */
} tl;

/* The lane of the calling thread's spans, valid for one generation of the timeline. */
static _Thread_local struct {
    unsigned generation;
    int lane;
} tl_thread;

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; ++s) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static uint64_t hash_ptr(const void *p)
{
    uint64_t h = (uint64_t)(uintptr_t)p;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

static px__tl_rec *rec_at(int64_t i) { return px__tl_rec_at(tl.chunks, i); }

/* ---- Interned strings (under lock) ------------------------------------------------------ */

static bool str_rehash(uint32_t slots)
{
    uint32_t *s = px__calloc(slots, sizeof *s);
    if (!s) return false;
    for (uint32_t i = 0; i < tl.nstr; ++i) {
        uint32_t j = (uint32_t)hash_str(tl.str[i]) & (slots - 1);
        while (s[j]) j = (j + 1) & (slots - 1);
        s[j] = i + 1;
    }
    free(tl.str_slot);
    tl.str_slot = s;
    tl.str_slots = slots;
    return true;
}

/* The index of s (NULL reads ""), added when new; false when memory runs out. */
static bool intern(const char *s, uint64_t h, uint32_t *out)
{
    if (!s) s = "";
    /* At most half full, so that a probe ends; when the index cannot grow, it fills up. */
    if ((uint64_t)(tl.nstr + 1) * 2 > tl.str_slots &&
        (tl.str_slots >= (1u << 31) || !str_rehash(tl.str_slots * 2)) &&
        tl.nstr + 1 >= tl.str_slots)
        return false;
    uint32_t j = (uint32_t)h & (tl.str_slots - 1);
    for (; tl.str_slot[j]; j = (j + 1) & (tl.str_slots - 1)) {
        const uint32_t i = tl.str_slot[j] - 1;
        if (strcmp(tl.str[i], s) == 0) {
            *out = i;
            return true;
        }
    }
    if (tl.nstr == UINT32_MAX - 1) return false;
    if (tl.nstr == tl.str_cap) {
        const uint32_t cap = tl.str_cap ? 2 * tl.str_cap : 64;
        char **a = px__realloc(tl.str, (size_t)cap * sizeof *a);
        if (!a) return false;
        tl.str = a;
        tl.str_cap = cap;
    }
    char *copy = px__strdup(s);
    if (!copy) return false;
    tl.str[tl.nstr] = copy;
    tl.str_slot[j] = tl.nstr + 1;
    *out = tl.nstr++;
    return true;
}

/* ---- Lanes (under lock) ------------------------------------------------------------------- */

static bool lane_map_put(const px__observed *on, int lane)
{
    if ((tl.nlanes + 1) * 2 > tl.lane_slots) {
        const int slots = tl.lane_slots ? 2 * tl.lane_slots : 64;
        int32_t *s = px__calloc((size_t)slots, sizeof *s);
        if (!s) return false;
        for (int i = 0; i < tl.lane_slots; ++i) {
            if (!tl.lane_slot[i]) continue;
            const px__tl_lane *l = &tl.lanes[tl.lane_slot[i] - 1];
            int j = (int)(hash_ptr(l->key) & (uint64_t)(slots - 1));
            while (s[j]) j = (j + 1) & (slots - 1);
            s[j] = tl.lane_slot[i];
        }
        free(tl.lane_slot);
        tl.lane_slot = s;
        tl.lane_slots = slots;
    }
    int j = (int)(hash_ptr(on->key) & (uint64_t)(tl.lane_slots - 1));
    for (; tl.lane_slot[j]; j = (j + 1) & (tl.lane_slots - 1)) {
        if (tl.lanes[tl.lane_slot[j] - 1].key == on->key)
            break; /* a new instance at an old address */
    }
    tl.lane_slot[j] = lane + 1;
    return true;
}

static void lane_free(px__tl_lane *l)
{
    free(l->name);
    free(l->instance);
    free(l->space);
}

/* "cuda:0" for a backend off the host, "openmp" or "serial" for one on it. */
static void space_name(const px__observed *on, char *buf, size_t size)
{
    const char *e = px_exec_space_string(on->exec);
    size_t k = 0;
    for (; e[k] && k + 1 < size; ++k)
        buf[k] = (char)(e[k] >= 'A' && e[k] <= 'Z' ? e[k] - 'A' + 'a' : e[k]);
    buf[k] = '\0';
    if (!on->be->runs_on_host) snprintf(buf + k, size - k, ":%d", on->device);
}

static bool starts_with_ci(const char *s, const char *prefix)
{
    for (; *prefix; ++s, ++prefix) {
        const char a = (char)(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
        if (a != *prefix) return false;
    }
    return true;
}

/* The lane of the instance `on`, or of the calling thread (on NULL); -1 when memory runs
   out. */
static int lane_of(const px__observed *on)
{
    if (!on) {
        if (tl_thread.generation == tl.generation) return tl_thread.lane;
    } else if (tl.lane_slots) {
        int j = (int)(hash_ptr(on->key) & (uint64_t)(tl.lane_slots - 1));
        for (; tl.lane_slot[j]; j = (j + 1) & (tl.lane_slots - 1)) {
            const int lane = tl.lane_slot[j] - 1;
            const px__tl_lane *l = &tl.lanes[lane];
            if (l->key != on->key) continue;
            if (l->number == on->number) return lane;
            break; /* a new instance at the address of a destroyed one */
        }
    }
    px__tl_lane *a = px__grow(tl.lanes, tl.nlanes, &tl.lane_cap, 16, sizeof *a);
    if (!a) return -1;
    tl.lanes = a;
    px__tl_lane l = {0};
    char space[32], name[64];
    if (!on) {
        snprintf(name, sizeof name, "host thread %d", tl.host_threads + 1);
        l.name = px__strdup(name);
        l.space = px__strdup("host");
        l.host = true;
        if (!l.name || !l.space) goto oom;
    } else {
        space_name(on, space, sizeof space);
        l.key = on->key;
        l.number = on->number;
        l.instance = px__strdup(on->label);
        l.space = px__strdup(space);
        /* The default label is "<EXEC>:<device>" already. */
        char *suffix = px__concat(" (", space);
        char *tail = suffix ? px__concat(suffix, ")") : NULL;
        l.name = tail && !starts_with_ci(on->label, space) ? px__concat(on->label, tail)
                                                           : px__strdup(on->label);
        free(suffix);
        free(tail);
        if (!l.instance || !l.space || !l.name) goto oom;
        if (!lane_map_put(on, tl.nlanes)) goto oom;
    }
    const int lane = tl.nlanes++;
    tl.lanes[lane] = l;
    if (!on) {
        tl.host_threads++;
        tl_thread.generation = tl.generation;
        tl_thread.lane = lane;
    }
    return lane;
oom:
    lane_free(&l);
    return -1;
}

/* ---- Events (pool under lock) ---------------------------------------------------------------- */

/* An idle event of device d, or NULL. */
static void *pool_pop(tl_dev *d) { return d->npool ? d->pool[--d->npool] : NULL; }

/* Keeps ev for reuse, or says to destroy it (false). */
static bool pool_push(tl_dev *d, void *ev)
{
    if (!ev) return true;
    if (!d->pool) d->pool = px__malloc(TL_POOL_MAX * sizeof *d->pool);
    if (!d->pool || d->npool == TL_POOL_MAX) return false;
    d->pool[d->npool++] = ev;
    return true;
}

/* Under lock: gives ev back to d's pool, or destroys it. */
static void recycle(tl_dev *d, void *ev)
{
    if (!pool_push(d, ev)) d->be->event_destroy(ev);
}

/* Gives a GPU record's events back and counts it dropped (tl_lock held). */
static void drop_gpu_record(tl_dev *d, px__tl_rec *r)
{
    recycle(d, r->u.ev.ev0);
    recycle(d, r->u.ev.ev1);
    r->u.ev.ev0 = r->u.ev.ev1 = NULL;
    r->state = PX__TL_DROPPED;
    tl.dropped++;
}

/* The device entry of the instance `on`, set up on first use; NULL when out of range. */
static tl_dev *dev_of(const px__observed *on, int *index)
{
    if ((int)on->exec < 0 || on->exec >= PX_EXEC_COUNT || on->device < 0 ||
        on->device >= PX__MAX_DEVICES)
        return NULL;
    *index = (int)on->exec * PX__MAX_DEVICES + on->device;
    tl_dev *d = &tl.dev[*index];
    if (!d->be) {
        d->be = on->be;
        d->device = on->device;
    }
    return d->be == on->be ? d : NULL;
}

/* Makes device d's reference on the queue of `on` unless another thread did; false on
   failure. */
static bool make_reference(int d, const px__observed *on)
{
    pthread_mutex_lock(&tl_slow);
    pthread_mutex_lock(&tl_lock);
    const bool ready = tl.dev[d].ready;
    pthread_mutex_unlock(&tl_lock);
    bool ok = ready;
    if (!ready) {
        const px__backend *be = on->be;
        void *ref = NULL;
        ok = be->event_create(on->device, PX_EVENT_TIMING, &ref) == PX_OK;
        if (ok) ok = be->event_record(ref, on->queue) == PX_OK;
        if (ok) ok = be->event_synchronize(ref) == PX_OK;
        const int64_t t = now_ns();
        if (ok) {
            pthread_mutex_lock(&tl_lock);
            tl.dev[d].ref = ref;
            tl.dev[d].t_ref = t;
            tl.dev[d].ready = true;
            pthread_mutex_unlock(&tl_lock);
        } else if (ref) {
            be->event_destroy(ref);
        }
    }
    pthread_mutex_unlock(&tl_slow);
    return ok;
}

/* ---- Resolving ------------------------------------------------------------------------------ */

/* Reads the times of up to TL_BATCH of the oldest waiting records: all of them when `all`,
   else only if the queue is (still) at its cap. Takes tl_slow, then tl_lock; never holds
   tl_lock while it waits. Returns how many it resolved. */
static int resolve_oldest(bool all)
{
    pthread_mutex_lock(&tl_slow);
    pthread_mutex_lock(&tl_lock);
    int k = 0;
    if (all || tl.fifo_count + tl.claimed >= TL_MAX_PENDING) {
        k = tl.fifo_count < TL_BATCH ? tl.fifo_count : TL_BATCH;
        for (int i = 0; i < k; ++i) {
            px__tl_rec *r = rec_at(tl.fifo[tl.fifo_head]);
            tl.fifo_head = (tl.fifo_head + 1) % TL_FIFO_CAP;
            tl_claim *c = &tl.claim[i];
            c->rec = r;
            c->dev = r->dev;
            c->ev0 = r->u.ev.ev0;
            c->ev1 = r->u.ev.ev1;
            c->ok = false;
            c->keep_ev1 = false;
        }
        tl.fifo_count -= k;
        tl.claimed = k;
    }
    pthread_mutex_unlock(&tl_lock);

    /* The references change under tl_slow only, which this thread holds. */
    void *old_refs[TL_BATCH];
    int nold = 0;
    for (int i = 0; i < k; ++i) {
        tl_claim *c = &tl.claim[i];
        tl_dev *d = &tl.dev[c->dev];
        const px__backend *be = d->be;
        float a = 0.0f, dur = 0.0f;
        c->ok = be->event_synchronize(c->ev1) == PX_OK &&
                be->event_elapsed(d->ref, c->ev0, &a) == PX_OK &&
                be->event_elapsed(c->ev0, c->ev1, &dur) == PX_OK;
        if (!c->ok) continue;
        if (dur < 0.0f) dur = 0.0f;
        c->t0 = d->t_ref + (int64_t)((double)a * 1e6);
        c->t1 = c->t0 + (int64_t)((double)dur * 1e6);
        if (a + dur > TL_REBASE_MS) {
            old_refs[nold++] = d->ref; /* recycled below, once nothing reads it */
            d->ref = c->ev1;
            d->t_ref = c->t1;
            c->keep_ev1 = true;
        }
    }

    pthread_mutex_lock(&tl_lock);
    for (int i = 0; i < k; ++i) {
        tl_claim *c = &tl.claim[i];
        tl_dev *d = &tl.dev[c->dev];
        if (c->ok) {
            c->rec->u.t.t0 = c->t0;
            c->rec->u.t.t1 = c->t1;
            c->rec->state = PX__TL_DONE;
        } else {
            c->rec->state = PX__TL_UNRESOLVED;
        }
        recycle(d, c->ev0);
        if (!c->keep_ev1) recycle(d, c->ev1);
    }
    tl.claimed = 0;
    /* A replaced reference belongs to the device whose record replaced it. */
    for (int i = 0, o = 0; i < k && o < nold; ++i)
        if (tl.claim[i].keep_ev1) recycle(&tl.dev[tl.claim[i].dev], old_refs[o++]);
    pthread_mutex_unlock(&tl_lock);
    pthread_mutex_unlock(&tl_slow);
    return k;
}

/* ---- Recording -------------------------------------------------------------------------------- */

void px__timeline_begin(px__tl_mark *m, const px__observed *on, const char *kind, const char *label)
{
    m->rec = -1;
    if (!atomic_load_explicit(&tl_on, memory_order_acquire)) return;
    if (on && on->captured) return; /* recorded into a graph, not run now */
    const px__backend *be = on ? on->be : NULL;
    const bool gpu = be && !be->runs_on_host;
    const uint64_t hl = hash_str(label ? label : ""), hk = hash_str(kind ? kind : "");

    pthread_mutex_lock(&tl_lock);
    if (!tl.active) {
        pthread_mutex_unlock(&tl_lock);
        return;
    }
    uint32_t il, ik;
    int dix = -1;
    tl_dev *d = NULL;
    bool ok = tl.n < tl.max;
    if (ok && gpu) {
        ok = on->queue && be->event_create && be->event_destroy && be->event_record &&
             be->event_synchronize && be->event_elapsed;
        if (ok) ok = (d = dev_of(on, &dix)) != NULL;
    }
    const int lane = ok ? lane_of(on) : -1;
    ok = ok && lane >= 0 && intern(label, hl, &il) && intern(kind, hk, &ik);
    const int64_t idx = tl.n;
    if (ok && (idx & (PX__TL_CHUNK - 1)) == 0 && (idx >> PX__TL_CHUNK_SHIFT) >= tl.nchunks) {
        if (tl.nchunks == tl.chunk_cap) {
            const int64_t cap = tl.chunk_cap ? 2 * tl.chunk_cap : 16;
            px__tl_rec **a = px__realloc(tl.chunks, (size_t)cap * sizeof *a);
            if (a) {
                tl.chunks = a;
                tl.chunk_cap = cap;
            }
        }
        px__tl_rec *c =
            tl.nchunks < tl.chunk_cap ? px__malloc((size_t)PX__TL_CHUNK * sizeof *c) : NULL;
        if (c) tl.chunks[tl.nchunks++] = c;
        ok = c != NULL;
    }
    if (!ok) {
        tl.dropped++;
        pthread_mutex_unlock(&tl_lock);
        return;
    }
    tl.n++;
    px__tl_rec *r = rec_at(idx);
    memset(r, 0, sizeof *r);
    r->label = il;
    r->kind = ik;
    r->lane = lane;
    r->dev = (int16_t)dix;
    r->path = PX_COPY_NONE;
    r->state = gpu ? PX__TL_OPEN_GPU : PX__TL_OPEN_HOST;
    bool ready = false;
    if (gpu) {
        ready = d->ready;
        r->u.ev.ev0 = pool_pop(d);
        r->u.ev.ev1 = pool_pop(d);
    }
    pthread_mutex_unlock(&tl_lock);

    if (!gpu) {
        r->u.t.t0 = now_ns();
        m->rec = idx;
        return;
    }
    /* The backend records its failures as the thread's last error: the caller's stays. */
    px__saved_error saved;
    px__error_save(&saved);
    ok = ready || make_reference(dix, on);
    if (ok && !r->u.ev.ev0)
        ok = be->event_create(on->device, PX_EVENT_TIMING, &r->u.ev.ev0) == PX_OK;
    if (ok && !r->u.ev.ev1)
        ok = be->event_create(on->device, PX_EVENT_TIMING, &r->u.ev.ev1) == PX_OK;
    if (ok) ok = be->event_record(r->u.ev.ev0, on->queue) == PX_OK;
    if (ok) {
        m->rec = idx;
        return;
    }
    px__error_restore(&saved);
    pthread_mutex_lock(&tl_lock);
    drop_gpu_record(d, r);
    pthread_mutex_unlock(&tl_lock);
}

void px__timeline_end(px__tl_mark *m, const px__observed *on, px_copy_path path, uint64_t bytes)
{
    if (!m || m->rec < 0) return;
    const int64_t t1 = now_ns();
    const int64_t idx = m->rec;
    m->rec = -1;
    pthread_mutex_lock(&tl_lock);
    if (!tl.active || idx >= tl.n) {
        pthread_mutex_unlock(&tl_lock);
        return;
    }
    px__tl_rec *r = rec_at(idx);
    r->path = (uint8_t)((int)path >= 0 && path < PX_COPY_PATH_COUNT ? path : PX_COPY_NONE);
    r->bytes = bytes;
    if (r->state == PX__TL_OPEN_HOST) {
        r->u.t.t1 = t1;
        r->state = PX__TL_DONE;
        pthread_mutex_unlock(&tl_lock);
        return;
    }
    if (r->state != PX__TL_OPEN_GPU) {
        pthread_mutex_unlock(&tl_lock);
        return;
    }
    tl_dev *d = &tl.dev[r->dev];
    pthread_mutex_unlock(&tl_lock);

    /* The end event goes on the queue the operation went to (not into a graph). */
    bool ok = on && on->be == d->be && on->device == d->device && on->queue && !on->captured;
    if (ok) {
        px__saved_error saved;
        px__error_save(&saved);
        ok = d->be->event_record(r->u.ev.ev1, on->queue) == PX_OK;
        if (!ok) px__error_restore(&saved);
    }
    bool resolve = false;
    pthread_mutex_lock(&tl_lock);
    if (ok && tl.fifo_count < TL_FIFO_CAP) {
        r->state = PX__TL_PENDING;
        tl.fifo[(tl.fifo_head + tl.fifo_count) % TL_FIFO_CAP] = idx;
        tl.fifo_count++;
        resolve = tl.fifo_count + tl.claimed >= TL_MAX_PENDING;
    } else {
        /* A recorded event may be reused or destroyed before it completes. */
        drop_gpu_record(d, r);
    }
    pthread_mutex_unlock(&tl_lock);
    if (resolve) {
        px__saved_error saved;
        px__error_save(&saved);
        (void)resolve_oldest(false);
        px__error_restore(&saved);
    }
}

/* ---- Start -------------------------------------------------------------------------------------- */

static void free_all(void)
{
    for (int64_t i = 0; i < tl.nchunks; ++i) free(tl.chunks[i]);
    free(tl.chunks);
    for (uint32_t i = 0; i < tl.nstr; ++i) free(tl.str[i]);
    free(tl.str);
    free(tl.str_slot);
    for (int i = 0; i < tl.nlanes; ++i) lane_free(&tl.lanes[i]);
    free(tl.lanes);
    free(tl.lane_slot);
    for (int i = 0; i < PX_EXEC_COUNT * PX__MAX_DEVICES; ++i) {
        tl_dev *d = &tl.dev[i];
        for (int k = 0; k < d->npool; ++k) d->be->event_destroy(d->pool[k]);
        if (d->ref) d->be->event_destroy(d->ref);
        free(d->pool);
    }
    free(tl.fifo);
    free(tl.claim);
    free(tl.path);
    if (tl.file) fclose(tl.file);
    const unsigned generation = tl.generation;
    memset(&tl, 0, sizeof tl);
    tl.generation = generation;
}

px_status px__timeline_start(const char *path)
{
    if (!path || !*path) return px__error(PX_ERR_INVALID_ARGUMENT, "the timeline's path is empty");
    pthread_mutex_lock(&tl_lock);
    const bool active = tl.active;
    pthread_mutex_unlock(&tl_lock);
    if (active)
        return px__error(PX_ERR_BUSY, "a timeline is being recorded already (to '%s')", tl.path);

    int64_t max = TL_DEFAULT_MAX;
    const char *env = getenv("PX_TIMELINE_MAX");
    if (env && *env) {
        char *end = NULL;
        errno = 0;
        const long long v = strtoll(env, &end, 10);
        if (errno || end == env || *end || v < 0)
            return px__error(
                PX_ERR_INVALID_ARGUMENT,
                "PX_TIMELINE_MAX='%s' is not a record count (a whole number, 0 or more)", env);
        max = v > TL_MAX_LIMIT ? TL_MAX_LIMIT : (int64_t)v;
    }

    /* Opened now, so that a path that cannot be written fails here, not after the run. */
    FILE *f = fopen(path, "w");
    if (!f) {
        const int e = errno;
        return px__error(PX_ERR_SYSTEM, "cannot open the timeline file '%s': %s", path,
                         strerror(e));
    }
    pthread_mutex_lock(&tl_lock);
    tl.file = f;
    tl.path = px__strdup(path);
    tl.fifo = px__malloc(TL_FIFO_CAP * sizeof *tl.fifo);
    tl.claim = px__malloc(TL_BATCH * sizeof *tl.claim);
    const bool ok = tl.path && tl.fifo && tl.claim && str_rehash(256);
    if (!ok) {
        free_all();
        pthread_mutex_unlock(&tl_lock);
        (void)remove(path);
        return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the timeline");
    }
    tl.max = max;
    tl.generation++;
    if (tl.generation == 0) tl.generation = 1; /* 0 is every new thread's */
    tl.active = true;
    atomic_store_explicit(&tl_on, true, memory_order_release);
    px__prof_mask |= PX__PROF_TIMELINE;
    pthread_mutex_unlock(&tl_lock);
    return PX_OK;
}

const char *px__timeline_path(void)
{
    pthread_mutex_lock(&tl_lock);
    const char *p = tl.active ? tl.path : NULL;
    pthread_mutex_unlock(&tl_lock);
    return p;
}

px_status px__timeline_finish(void)
{
    pthread_mutex_lock(&tl_lock);
    const bool active = tl.active;
    pthread_mutex_unlock(&tl_lock);
    if (!active) return PX_OK;
    px__prof_mask &= ~(unsigned)PX__PROF_TIMELINE;
    atomic_store_explicit(&tl_on, false, memory_order_release);

    px__saved_error saved;
    px__error_save(&saved);
    while (resolve_oldest(true) > 0) {}
    px__error_restore(&saved);

    pthread_mutex_lock(&tl_lock);
    tl.active = false;
    uint64_t written = 0, unresolved = 0;
    for (int64_t i = 0; i < tl.n; ++i) {
        px__tl_rec *r = rec_at(i);
        if (r->state == PX__TL_OPEN_GPU) { /* its end never came */
            tl_dev *d = &tl.dev[r->dev];
            recycle(d, r->u.ev.ev0);
            recycle(d, r->u.ev.ev1);
            r->state = PX__TL_UNRESOLVED;
        } else if (r->state == PX__TL_OPEN_HOST || r->state == PX__TL_FREE) {
            r->state = PX__TL_UNRESOLVED;
        }
        written += r->state == PX__TL_DONE;
        unresolved += r->state == PX__TL_UNRESOLVED;
    }

    FILE *f = tl.file;
    tl.file = NULL;
    char *buf = px__malloc((size_t)1 << 20);
    if (buf) setvbuf(f, buf, _IOFBF, (size_t)1 << 20);
    const px__tl_trace trace = {.chunks = tl.chunks,
                                .n = tl.n,
                                .str = tl.str,
                                .lanes = tl.lanes,
                                .nlanes = tl.nlanes,
                                .written = written,
                                .dropped = tl.dropped,
                                .unresolved = unresolved,
                                .max = tl.max};
    px__timeline_write(f, &trace);
    int err = ferror(f) ? (errno ? errno : EIO) : 0;
    if (fclose(f) != 0 && !err) err = errno ? errno : EIO;
    free(buf);
    char *path = tl.path;
    tl.path = NULL;
    free_all();
    pthread_mutex_unlock(&tl_lock);

    px_status st = PX_OK;
    if (err)
        st = px__error(PX_ERR_SYSTEM, "writing the timeline file '%s' failed: %s", path,
                       strerror(err));
    free(path);
    return st;
}
