/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_fuzz, the runtime's calls: instances, partitions and events, and dispatches whose
 * policies reach the ends of int64_t (every index once, or refused). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_api.h"

/* ---- Instances, partitions and events --------------------------------------------------------------- */

static int inst_free(void)
{
    for (int i = 0; i < NINST; ++i)
        if (!fz.inst[i]) return i;
    return -1;
}

void destroy_inst(px_instance **in)
{
    op("px_instance_destroy(inst)");
    px_instance *p = *in;
    if (judge("px_instance_destroy", px_instance_destroy(&p), EXP_OK, "") && p)
        found("px_instance_destroy", "left the handle set", "%p", (void *)p);
    *in = NULL;
}

void op_instance(void)
{
    const int r = (int)rnd(0, 9);
    if (r <= 2) { /* create */
        static const px_exec_space odd_exec[] = {PX_EXEC_CUDA, PX_EXEC_COUNT, (px_exec_space)-1,
                                                 (px_exec_space)42};
        static const int odd_dev[] = {1, -1, 63, 64, INT_MAX, INT_MIN};
        px_instance_desc d;
        memset(&d, 0, sizeof d);
        d.exec = chance(85) ? PX_EXEC_SERIAL : PICK(odd_exec);
        d.device = chance(85) ? 0 : PICK(odd_dev);
        d.priority = chance(50) ? 0 : (int)rnd(INT_MIN, INT_MAX);
        char label[300];
        d.label = gen_label(label, sizeof label);
        const bool null_out = chance(3), null_desc = chance(3);
        int exp = EXP_OK;
        const char *why = "";
        if (null_out || null_desc)
            exp = EXP_FAIL, why = "NULL argument";
        else if (!initialized())
            exp = EXP_FAIL, why = "not initialized";
        else if (d.exec == PX_EXEC_CUDA)
            exp = fz.cuda ? EXP_ANY : EXP_FAIL, why = "CUDA not available here";
        else if (d.exec != PX_EXEC_SERIAL)
            exp = EXP_FAIL, why = "exec out of range";
        else if (d.device != 0)
            exp = EXP_FAIL, why = "no such device";
        px_instance *in = (px_instance *)FOREIGN;
        op("px_instance_create(exec %d, device %d, priority %d%s%s)", (int)d.exec, d.device,
           d.priority, null_out ? ", out NULL" : "", null_desc ? ", desc NULL" : "");
        const px_status st = px_instance_create(null_out ? NULL : &in, null_desc ? NULL : &d);
        if (!judge("px_instance_create", st, exp, why)) {
            if (!null_out && in)
                found("px_instance_create", "failed leaving *out set", "%p", (void *)in);
            return;
        }
        if (null_out) return;
        const char *lab = NULL;
        char want[64];
        snprintf(want, sizeof want, "%s:%d", px_exec_space_string(d.exec), d.device);
        if (px_instance_label(in, &lab) != PX_OK || strcmp(lab, d.label ? d.label : want) != 0)
            found("px_instance_create", "gave the wrong label", "'%s'", lab ? lab : "(none)");
        const int s = inst_free();
        if (s < 0 || exp != EXP_OK) {
            destroy_inst(&in);
            return;
        }
        fz.inst[s] = in;
        return;
    }
    if (r == 3) { /* destroy */
        const int s = (int)rnd(0, NINST - 1);
        if (fz.inst[s]) {
            destroy_inst(&fz.inst[s]);
            return;
        }
        px_instance *p = chance(50) && fz.def ? fz.def : chance(50) ? NULL : (px_instance *)FOREIGN;
        const bool null_arg = chance(30);
        op("px_instance_destroy(%s)", null_arg           ? "NULL"
                                      : p == fz.def && p ? "&default"
                                      : p                ? "&foreign"
                                                         : "&NULL");
        judge("px_instance_destroy", px_instance_destroy(null_arg ? NULL : &p), EXP_FAIL,
              "no destroyable instance");
        return;
    }
    if (r == 4) { /* default */
        const px_exec_space e = chance(85) ? PX_EXEC_SERIAL : (px_exec_space)rnd(-1, PX_EXEC_COUNT);
        const int dev = chance(85) ? 0 : (int)rnd(-2, 70);
        const bool null_out = chance(4);
        int exp = EXP_OK;
        const char *why = "";
        if (null_out)
            exp = EXP_FAIL, why = "out is NULL";
        else if (!initialized())
            exp = EXP_FAIL, why = "not initialized";
        else if (e == PX_EXEC_CUDA)
            exp = fz.cuda ? EXP_ANY : EXP_FAIL, why = "CUDA not available here";
        else if (e == PX_EXEC_OPENMP || e == PX_EXEC_THREADS)
            exp = EXP_ANY, why = "OpenMP or threads compiled in or not";
        else if (e != PX_EXEC_SERIAL)
            exp = EXP_FAIL, why = "exec out of range";
        else if (dev != 0)
            exp = EXP_FAIL, why = "no such device";
        px_instance *in = NULL;
        op("px_instance_default(%d, %d%s)", (int)e, dev, null_out ? ", NULL" : "");
        if (judge("px_instance_default", px_instance_default(e, dev, null_out ? NULL : &in), exp,
                  why) &&
            e == PX_EXEC_SERIAL && !null_out) {
            if (fz.def && in != fz.def)
                found("px_instance_default", "gave another instance", "%p, before %p", (void *)in,
                      (void *)fz.def);
            fz.def = in;
        }
        return;
    }
    bool live;
    px_instance *in = inst_arg(&live);
    const bool null_out = chance(5);
    if (r == 5) {
        op("px_instance_fence(%s)", live ? "inst" : in ? "foreign" : "NULL");
        judge("px_instance_fence", px_instance_fence(in), live ? EXP_OK : EXP_FAIL, "no instance");
    } else if (r == 6) {
        px_exec_space e;
        int dev = -1, sm = -1;
        const char *lab;
        op("instance queries(%s%s)",
           live ? "inst"
           : in ? "foreign"
                : "NULL",
           null_out ? ", NULL" : "");
        const int exp = live && !null_out ? EXP_OK : EXP_FAIL;
        if (judge("px_instance_exec_space", px_instance_exec_space(in, null_out ? NULL : &e), exp,
                  "bad argument") &&
            e != PX_EXEC_SERIAL)
            found("px_instance_exec_space", "gave another execution space", "%d", (int)e);
        px_clear_error();
        if (judge("px_instance_device", px_instance_device(in, null_out ? NULL : &dev), exp,
                  "bad argument") &&
            dev != 0)
            found("px_instance_device", "gave another device", "%d", dev);
        px_clear_error();
        judge("px_instance_label", px_instance_label(in, null_out ? NULL : &lab), exp,
              "bad argument");
        px_clear_error();
        if (judge("px_instance_sm_count", px_instance_sm_count(in, null_out ? NULL : &sm), exp,
                  "bad argument") &&
            sm != 1)
            found("px_instance_sm_count", "gave another count for a serial instance", "%d", sm);
    } else {
        op("px_fence_all()");
        judge("px_fence_all", px_fence_all(), initialized() ? EXP_OK : EXP_FAIL, "not initialized");
    }
}

void op_partition(void)
{
    static px_instance *out[MAXPARTS];
    static double w[MAXPARTS];
    static int prio[MAXPARTS];
    static const int odd_n[] = {0, -1, MAXPARTS + 1, INT_MAX, INT_MIN, MAXPARTS};
    static const double odd_w[] = {0.0, -1.0, NAN, INFINITY, -INFINITY, 1e308, 5e-324, -0.0};
    bool live;
    px_instance *parent = inst_arg(&live);
    const int n = chance(90) ? (int)rnd(1, 6) : PICK(odd_n);
    const bool with_w = chance(60), with_opts = chance(50), null_out = chance(4);
    int exp = EXP_OK;
    const char *why = "";
    const int nw = n >= 1 && n <= MAXPARTS ? n : 1;
    for (int i = 0; i < nw; ++i) {
        w[i] = chance(95) ? tk_uniform(fuzz_rng(), 0.01, 10.0) : PICK(odd_w);
        prio[i] = (int)rnd(-5, 5);
        out[i] = (px_instance *)FOREIGN;
    }
    px_partition_options o;
    memset(&o, 0, sizeof o);
    o.sm_partition = chance(50);
    o.priorities = chance(50) ? prio : NULL;
    if (!live)
        exp = EXP_FAIL, why = "no parent";
    else if (null_out)
        exp = EXP_FAIL, why = "out is NULL";
    else if (n < 1 || n > MAXPARTS)
        exp = EXP_FAIL, why = "n out of range";
    for (int i = 0; exp == EXP_OK && with_w && i < n; ++i) {
        if (!(w[i] > 0) || isinf(w[i]))
            exp = EXP_FAIL, why = "weight not a positive number";
        else if (w[i] > 1e300)
            exp = EXP_ANY; /* the sum of such weights overflows */
    }
    const char *func = with_opts ? "px_partition_ex" : "px_partition";
    op("%s(%s, n %d, weights %s%s)", func,
       live     ? "inst"
       : parent ? "foreign"
                : "NULL",
       n, with_w ? "given" : "NULL", null_out ? ", out NULL" : "");
    const px_status st =
        with_opts ? px_partition_ex(parent, n, with_w ? w : NULL, &o, null_out ? NULL : out)
                  : px_partition(parent, n, with_w ? w : NULL, null_out ? NULL : out);
    if (!judge(func, st, exp, why)) {
        for (int i = 0; i < nw && !null_out && n >= 1; ++i)
            if (out[i] != NULL && out[i] != (px_instance *)FOREIGN) {
                found(func, "failed leaving instances in out", "out[%d]", i);
                break;
            }
        return;
    }
    if (exp == EXP_FAIL) return;
    for (int i = 0; i < n; ++i) {
        const char *lab = NULL;
        char want[32];
        px_exec_space e = PX_EXEC_COUNT;
        snprintf(want, sizeof want, "/part%d", i);
        if (px_instance_exec_space(out[i], &e) != PX_OK || e != PX_EXEC_SERIAL ||
            px_instance_label(out[i], &lab) != PX_OK || !strstr(lab, want))
            found(func, "made a wrong partition", "out[%d]: exec %d, label '%s'", i, (int)e,
                  lab ? lab : "");
        const int s = inst_free();
        if (s >= 0 && chance(70))
            fz.inst[s] = out[i];
        else
            destroy_inst(&out[i]);
    }
}

static int event_pick(void)
{
    const int s = (int)rnd(0, NEVENTS - 1);
    return fz.ev[s].ev ? s : -1;
}

void op_event(void)
{
    const int r = (int)rnd(0, 6);
    bool live;
    px_instance *in = inst_arg(&live);
    const char *iname = live ? "inst" : in ? "foreign" : "NULL";
    const int e = event_pick();
    px_event *ev = e >= 0 ? fz.ev[e].ev : chance(50) ? NULL : (px_event *)FOREIGN;
    const bool evl = e >= 0;
    if (r == 0) {
        int s = -1;
        for (int i = 0; i < NEVENTS && s < 0; ++i)
            if (!fz.ev[i].ev) s = i;
        if (s < 0) return;
        static const unsigned odd[] = {2u, 0x80000000u, PX_EVENT_TIMING | 4u, ~0u};
        const unsigned flags = chance(90) ? (unsigned)rnd(0, 1) : PICK(odd);
        const bool null_out = chance(4);
        const int exp =
            live && !null_out && (flags & ~(unsigned)PX_EVENT_TIMING) == 0 ? EXP_OK : EXP_FAIL;
        px_event *out = (px_event *)FOREIGN;
        op("px_event_create(%s, %s, flags %#x)", null_out ? "NULL" : "&out", iname, flags);
        if (judge("px_event_create", px_event_create(null_out ? NULL : &out, in, flags), exp,
                  "no out, no instance or unknown flags")) {
            if (null_out) return;
            fz.ev[s].ev = out;
            fz.ev[s].timing = flags & PX_EVENT_TIMING;
            fz.ev[s].recorded = false;
        } else if (!null_out && out) {
            found("px_event_create", "failed leaving *out set", "%p", (void *)out);
        }
    } else if (r == 1) {
        op("px_event_destroy(%s)", evl ? "&ev" : ev ? "&foreign" : "&NULL");
        px_event *p = ev;
        if (judge("px_event_destroy", px_event_destroy(&p), evl ? EXP_OK : EXP_FAIL, "no event") &&
            evl) {
            if (p) found("px_event_destroy", "left the handle set", "%p", (void *)p);
            fz.ev[e].ev = NULL;
        }
    } else if (r == 2) {
        op("px_event_record(%s, %s)", evl ? "ev" : "bad", iname);
        if (judge("px_event_record", px_event_record(ev, in), evl && live ? EXP_OK : EXP_FAIL,
                  "no event or instance"))
            fz.ev[e].recorded = true;
    } else if (r == 3) {
        op("px_instance_wait_event(%s, %s)", iname, evl ? "ev" : "bad");
        judge("px_instance_wait_event", px_instance_wait_event(in, ev),
              evl && live ? EXP_OK : EXP_FAIL, "no event or instance");
    } else if (r == 4) {
        bool done = false;
        const bool null_done = chance(5);
        op("px_event_query(%s%s)", evl ? "ev" : "bad", null_done ? ", NULL" : "");
        if (judge("px_event_query", px_event_query(ev, null_done ? NULL : &done),
                  evl && !null_done ? EXP_OK : EXP_FAIL, "no event or out") &&
            !done)
            found("px_event_query", "says a serial event is pending", "%s", "");
        op("px_event_synchronize(%s)", evl ? "ev" : "bad");
        judge("px_event_synchronize", px_event_synchronize(ev), evl ? EXP_OK : EXP_FAIL,
              "no event");
    } else {
        const int e2 = event_pick();
        px_event *ev2 = e2 >= 0 ? fz.ev[e2].ev : NULL;
        float ms = NAN;
        const bool null_ms = chance(5);
        const bool valid = evl && e2 >= 0 && !null_ms && fz.ev[e].timing && fz.ev[e2].timing &&
                           fz.ev[e].recorded && fz.ev[e2].recorded;
        op("px_event_elapsed_ms(%s, %s%s)", evl ? "ev" : "bad", e2 >= 0 ? "ev" : "NULL",
           null_ms ? ", NULL" : "");
        if (judge("px_event_elapsed_ms", px_event_elapsed_ms(ev, ev2, null_ms ? NULL : &ms),
                  valid ? EXP_OK : EXP_FAIL, "events not both timed and recorded") &&
            !isfinite(ms))
            found("px_event_elapsed_ms", "gave a time that is no number", "%g", (double)ms);
    }
}

/* ---- Dispatch --------------------------------------------------------------------------------------- */

static int64_t gen_begin(void)
{
    switch (rnd(0, 5)) {
    case 0: return rnd(-5, 5);
    case 1: return INT64_MAX - rnd(0, 8);
    case 2: return INT64_MIN + rnd(0, 8);
    case 3: return rnd(INT64_MIN, INT64_MAX);
    default: return rnd(-100, 100);
    }
}

static int64_t gen_tile(void)
{
    static const int64_t odd[] = {INT64_MAX, INT64_MAX - 1, INT64_MAX - 3, (int64_t)1 << 62,
                                  -1,        INT64_MIN};
    const int r = (int)rnd(0, 9);
    return r < 4 ? 0 : r < 8 ? rnd(1, 5) : PICK(odd);
}

static px_policy gen_policy(int krank)
{
    px_policy p;
    for (int d = 0; d < PX_POLICY_MAX_RANK; ++d) {
        p.begin[d] = gen_begin();
        if (chance(6) && p.begin[d] > INT64_MIN + 3) {
            p.end[d] = p.begin[d] - rnd(1, 3); /* begin after end */
        } else {
            const int64_t w = rnd(0, 5);
            p.end[d] = p.begin[d] <= INT64_MAX - w ? p.begin[d] + w : INT64_MAX;
        }
        p.tile[d] = gen_tile();
    }
    p.rank = chance(90) ? krank : (int32_t)PICK(((const int[]){0, 4, 7, -1, krank % 3 + 1}));
    p.iterate = chance(95) ? (int32_t)rnd(0, 1) : (int32_t)PICK(((const int[]){2, -1, 100}));
    return p;
}

void op_dispatch(void)
{
    static const px_kernel *const fors[3] = {&px_kernel_fz_for1, &px_kernel_fz_for2,
                                             &px_kernel_fz_for3};
    static const px_kernel *const reds[3] = {&px_kernel_fz_reduce1, &px_kernel_fz_reduce2,
                                             &px_kernel_fz_reduce3};
    static const char *const funcs[] = {"px_parallel_for", "px_parallel_reduce",
                                        "px_parallel_reduce_view", "px_parallel_scan"};
    const int kind = (int)rnd(0, 3);
    const int krank = kind == 3 ? 1 : (int)rnd(1, 3);
    const px_kernel *k = kind == 0   ? fors[krank - 1]
                         : kind == 3 ? &px_kernel_fz_scan
                                     : reds[krank - 1];
    px_kernel bad;
    const char *kwhy = NULL;
    switch (rnd(0, 24)) {
    case 0: k = NULL, kwhy = "kernel is NULL"; break;
    case 1: bad = *k, bad.magic = 0, k = &bad, kwhy = "not a kernel"; break;
    case 2: bad = *k, bad.entry_count = 0, k = &bad, kwhy = "no entries"; break;
    case 3:
        k = kind == 0 ? reds[krank - 1] : fors[krank - 1], kwhy = "another kind of kernel";
        break;
    default: break;
    }
    px_policy p = gen_policy(krank);
    bool live;
    px_instance *in = inst_arg(&live);
    const bool null_args = chance(3), null_result = chance(4);
    fz_args a;
    fz.calls = fz.sums = 0;
    a.calls = &fz.calls;
    a.sum = &fz.sums;
    mview *rm = NULL;
    px_view *rv = kind == 2 ? view_arg(&rm) : NULL;

    int exp = EXP_OK;
    const char *why = "";
    if (!live)
        exp = EXP_FAIL, why = "no instance";
    else if (kwhy)
        exp = EXP_FAIL, why = kwhy;
    else if (null_args)
        exp = EXP_FAIL, why = "args is NULL";
    else if (p.rank != k->rank)
        exp = EXP_FAIL, why = "policy rank is not the kernel's";
    else if (p.iterate != PX_ITERATE_RIGHT && p.iterate != PX_ITERATE_LEFT)
        exp = EXP_FAIL, why = "iterate out of range";
    for (int d = 0; exp == EXP_OK && d < p.rank; ++d) {
        if (p.begin[d] > p.end[d])
            exp = EXP_FAIL, why = "begin after end";
        else if (p.tile[d] < 0)
            exp = EXP_FAIL, why = "negative tile";
    }
    bool al = false;
    if (exp == EXP_OK && kind == 1 && null_result) exp = EXP_FAIL, why = "result is NULL";
    if (exp == EXP_OK && kind == 2) {
        if (!rm)
            exp = EXP_FAIL, why = "result is no view";
        else if (rm->size < 1 || !contiguous_of(rm, &al) || rm->es != sizeof(uint64_t))
            exp = EXP_FAIL, why = "result view unfit";
    }
    /* The indices the dispatch must visit, and what the kernels fold over them. */
    uint64_t count = 1, hsum = 0, prefix_sum = 0;
    if (exp == EXP_OK) {
        for (int d = 0; d < p.rank; ++d) {
            const uint64_t w = (uint64_t)p.end[d] - (uint64_t)p.begin[d];
            if (__builtin_mul_overflow(count, w, &count) || count > INDICES_MAX)
                return; /* would run too long */
        }
        const int64_t b1 = p.rank > 1 ? p.begin[1] : 0, e1 = p.rank > 1 ? p.end[1] : 1;
        const int64_t b2 = p.rank > 2 ? p.begin[2] : 0, e2 = p.rank > 2 ? p.end[2] : 1;
        for (int64_t i = p.begin[0]; i < p.end[0]; ++i)
            for (int64_t j = b1; j < e1; ++j)
                for (int64_t l = b2; l < e2; ++l) {
                    prefix_sum += hsum;
                    hsum += fz_hash(i, j, l);
                }
    }
    uint64_t result = 0x5a5a5a5a5a5a5a5aull;
    unsigned char *was = rm && exp == EXP_OK ? snapshot(rm->reg) : NULL;
    op("%s(%s, %s, policy rank %d it %d [%lld,%lld) [%lld,%lld) [%lld,%lld) tiles %lld %lld "
       "%lld%s%s)",
       funcs[kind],
       live ? "inst"
       : in ? "foreign"
            : "NULL",
       k ? k->name : "NULL", (int)p.rank, (int)p.iterate, (long long)p.begin[0],
       (long long)p.end[0], (long long)p.begin[1], (long long)p.end[1], (long long)p.begin[2],
       (long long)p.end[2], (long long)p.tile[0], (long long)p.tile[1], (long long)p.tile[2],
       null_args ? ", args NULL" : "",
       kind == 2                  ? view_name(rv)
       : kind == 1 && null_result ? ", result NULL"
                                  : "");
    const void *args = null_args ? NULL : &a;
    px_status st;
    switch (kind) {
    case 0: st = px_parallel_for(in, chance(50) ? "fuzz" : NULL, p, k, args); break;
    case 1: st = px_parallel_reduce(in, NULL, p, k, args, null_result ? NULL : &result); break;
    case 2: st = px_parallel_reduce_view(in, NULL, p, k, args, rv); break;
    default: st = px_parallel_scan(in, NULL, p, k, args, null_result ? NULL : &result); break;
    }
    if (!judge(funcs[kind], st, exp, why) || exp != EXP_OK) {
        free(was);
        return;
    }
    const char *func = funcs[kind];
    if (kind == 0 && (fz.calls != count || fz.sums != hsum))
        found(func, "visited the wrong indices", "%llu calls, expected %llu",
              (unsigned long long)fz.calls, (unsigned long long)count);
    if (kind == 1 && result != hsum) found(func, "reduced the wrong indices", "%s", "");
    if (kind == 3 &&
        (fz.calls != count || fz.sums != prefix_sum || (!null_result && result != hsum)))
        found(func, "scanned the wrong indices", "%llu final calls, expected %llu",
              (unsigned long long)fz.calls, (unsigned long long)count);
    if (kind == 2) {
        memcpy(was + (rm->data - rm->reg->lo), &hsum, sizeof hsum);
        if (memcmp(was, rm->reg->lo, rm->reg->len) != 0) {
            found(func, "wrote the wrong result or beside it", "%s", "");
            memcpy(rm->reg->lo, was, rm->reg->len);
        }
        free(was);
    }
}
