/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Seeing a graph: Graphviz DOT of what it holds, and a profiling launch written as JSON. */
#include <inttypes.h>
#include <stdlib.h>

#include "base/error.h"
#include "base/util.h"
#include "graphs/graph.h"
#include "runtime/instance.h"

/* s as the inside of a quoted DOT or JSON string. */
static void put_escaped(FILE *out, const char *s)
{
    for (; *s; ++s) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            fputc('\\', out);
            fputc(c, out);
        } else if (c == '\n') {
            fputs("\\n", out);
        } else if (c < 0x20) {
            fprintf(out, "\\u%04x", c);
        } else {
            fputc(c, out);
        }
    }
}

/* ---- DOT ------------------------------------------------------------------------------------ */

static void put_range(FILE *out, const px_policy *p)
{
    for (int d = 0; d < p->rank; ++d)
        fprintf(out, "%s[%" PRId64 ", %" PRId64 ")", d ? " x " : "", p->begin[d], p->end[d]);
}

static void put_side(FILE *out, const px__gnode_side *side)
{
    put_escaped(out, side->label ? side->label : "?");
    fprintf(out, " (%s", px_space_kind_string(side->space.kind));
    if (side->space.kind != PX_SPACE_HOST) fprintf(out, " %d", side->space.device);
    fputc(')', out);
}

static const char *shape_of(const px_graph_node *n)
{
    switch (n->kind) {
    case PX__GNODE_KERNEL: return "box";
    case PX__GNODE_COPY:
    case PX__GNODE_FILL: return "parallelogram";
    case PX__GNODE_HOST: return "hexagon";
    case PX__GNODE_EMPTY: return "circle";
    case PX__GNODE_CHILD: return "box3d";
    case PX__GNODE_WHILE:
    case PX__GNODE_IF: return "diamond";
    default: return "box";
    }
}

/* The node's DOT label: its label, its kind, and what it does. */
static void put_node_label(FILE *out, const px_graph_node *n)
{
    put_escaped(out, n->label);
    /* A copy's or fill's label says its kind and path already. */
    if (n->kind != PX__GNODE_COPY && n->kind != PX__GNODE_FILL)
        fprintf(out, "\\n%s", px__graph_node_kind_name(n));
    if (n->kind == PX__GNODE_KERNEL) {
        fprintf(out, " '");
        put_escaped(out, n->kernel->name);
        fprintf(out, "' ");
        put_range(out, &n->dispatch.policy);
    } else if (n->kind == PX__GNODE_COPY) {
        fprintf(out, "\\n%zu bytes\\n", n->op.bytes);
        put_side(out, &n->src);
        fputs(" -> ", out);
        put_side(out, &n->dst);
    } else if (n->kind == PX__GNODE_FILL) {
        fprintf(out, "\\n%zu bytes of ", n->op.bytes);
        put_side(out, &n->dst);
    } else if (n->kind == PX__GNODE_WHILE || n->kind == PX__GNODE_IF) {
        fprintf(out, " (starts %u)", n->initial);
    }
}

/* Writes g's nodes and edges, node ids "n<id>_<index>"; bodies and children as clusters,
   each with the next id from *next. */
static void put_graph(FILE *out, const px_graph *g, int count, int id, int *next, int depth)
{
    const int indent = 2 * depth;
    for (int i = 0; i < count; ++i) {
        const px_graph_node *n = g->nodes[i];
        fprintf(out, "%*sn%d_%d [shape=%s, label=\"", indent, "", id, i, shape_of(n));
        put_node_label(out, n);
        fputs("\"];\n", out);
        for (int d = 0; d < n->ndeps; ++d)
            fprintf(out, "%*sn%d_%d -> n%d_%d;\n", indent, "", id, n->deps[d], id, i);
        const px_graph *sub = n->body ? n->body : n->child;
        if (sub == NULL) continue;
        const int subn = n->body ? sub->n : n->child_n; /* a child as it was copied */
        const int sid = (*next)++;
        fprintf(out, "%*ssubgraph cluster_%d {\n%*slabel=\"", indent, "", sid, indent + 2, "");
        put_escaped(out, sub->label);
        fprintf(out, "%s\";\n%*sstyle=%s;\n",
                n->body ? (n->kind == PX__GNODE_WHILE ? " (while)" : " (if)") : " (child)",
                indent + 2, "", n->body ? "rounded" : "dashed");
        put_graph(out, sub, subn, sid, next, depth + 1);
        fprintf(out, "%*s}\n", indent, "");
        /* The node leads into its body or child: an edge to each of its first nodes. */
        for (int j = 0; j < subn; ++j)
            if (sub->nodes[j]->ndeps == 0)
                fprintf(out, "%*sn%d_%d -> n%d_%d [style=dashed];\n", indent, "", id, i, sid, j);
    }
}

px_status px_graph_dot(const px_graph *graph, FILE *out)
{
    PX__ENTER;
    PX__TRY(px__graph_check(graph, "graph"));
    PX__ARG(out, "out must not be NULL");
    fputs("digraph \"", out);
    put_escaped(out, graph->label);
    fprintf(out, "\" {\n  label=\"");
    put_escaped(out, graph->label);
    fprintf(out, " (%s:%d%s)\";\n  node [fontname=\"Helvetica\", fontsize=10];\n",
            px_exec_space_string(graph->exec), graph->device,
            graph->native ? ", captured: also holds what other libraries issued on the stream"
                          : "");
    int next = 1;
    put_graph(out, graph, graph->n, 0, &next, 1);
    fputs("}\n", out);
    if (ferror(out))
        return PX__FAIL(PX_ERR_INVALID_ARGUMENT, "writing the DOT text failed (a full disk?)");
    return PX_OK;
}

/* ---- Profiling ---------------------------------------------------------------------------- */

px_status px_graph_profile(px_graph_exec *exec, px_instance *inst, FILE *json)
{
    PX__ENTER;
    PX__ARG(exec && exec->magic == PX__GEXEC_MAGIC, "exec is not a live executable graph");
    PX__ARG(json, "json must not be NULL");
    PX__TRY(px__instance_check(inst));
    const px_graph *g = exec->graph;
    PX__ARG(inst->be == g->be && inst->device == g->device,
            "graph '%s' belongs to %s:%d but instance '%s' to %s:%d", g->label,
            px_exec_space_string(g->exec), g->device, inst->label, px_exec_space_string(inst->exec),
            inst->device);
    PX__TRY(px__instance_refuse_capturing(inst, "a profiling launch (it waits)"));
    double *us = px__calloc(exec->n > 0 ? (size_t)exec->n : 1, sizeof *us);
    if (us == NULL) return PX__FAIL(PX_ERR_OUT_OF_MEMORY, "out of host memory");
    for (int i = 0; i < exec->n; ++i) us[i] = -1;
    double total = 0;
    const px_status st = g->be->graph->profile(exec->bexec, inst->queue, us, exec->n, &total);
    if (st != PX_OK) {
        free(us);
        return st;
    }
    fputs("{\"graph\": \"", json);
    put_escaped(json, g->label);
    fprintf(json, "\", \"backend\": \"%s\", \"total_us\": %.3f, \"nodes\": [", g->be->name, total);
    for (int i = 0; i < exec->n; ++i) {
        const px_graph_node *n = g->nodes[i];
        fprintf(json, "%s\n  {\"index\": %d, \"label\": \"", i ? "," : "", i);
        put_escaped(json, n->label);
        fprintf(json, "\", \"kind\": \"%s\", \"us\": ", px__graph_node_kind_name(n));
        if (us[i] >= 0)
            fprintf(json, "%.3f}", us[i]);
        else
            fputs("null}", json);
    }
    fputs("\n]}\n", json);
    free(us);
    if (ferror(json))
        return PX__FAIL(PX_ERR_INVALID_ARGUMENT, "writing the JSON failed (a full disk?)");
    return PX_OK;
}
