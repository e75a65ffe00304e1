/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the live objects (views, instances, events, graphs), so that px_finalize can name
 * what is still alive instead of leaking it silently. */
#ifndef PX_BASE_REGISTRY_H
#define PX_BASE_REGISTRY_H

#include <stddef.h>

typedef enum px__object_kind {
    PX__OBJ_VIEW = 0,
    PX__OBJ_INSTANCE,
    PX__OBJ_EVENT,
    PX__OBJ_GRAPH,
    PX__OBJ_GRAPH_EXEC,
    PX__OBJ_KIND_COUNT
} px__object_kind;

/* Embedded in every tracked object: an intrusive doubly-linked list node. */
typedef struct px__live {
    struct px__live *prev, *next;
    px__object_kind kind;
    const char *label;
} px__live;

void px__live_add(px__live *node, px__object_kind kind, const char *label);
/* Harmless on a node that was never added. */
void px__live_remove(px__live *node);
/* Writes "2 views ('x', 'y'), 1 instance ('cuda:0')" into buf; returns the total count. */
size_t px__live_describe(char *buf, size_t size);

#endif /* PX_BASE_REGISTRY_H */
