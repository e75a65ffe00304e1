/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The live-object registry: one list per kind under one mutex. Objects are few (views
 * and instances, not elements), so a lock per create/release costs nothing measurable. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/registry.h"

#include "portex/export.h"

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static px__live live_heads[PX__OBJ_KIND_COUNT];
static size_t live_counts[PX__OBJ_KIND_COUNT];

static const char *const kind_names[PX__OBJ_KIND_COUNT][2] = {
    [PX__OBJ_VIEW] = {"view", "views"},
    [PX__OBJ_INSTANCE] = {"instance", "instances"},
    [PX__OBJ_EVENT] = {"event", "events"},
    [PX__OBJ_GRAPH] = {"graph", "graphs"},
    [PX__OBJ_GRAPH_EXEC] = {"executable graph", "executable graphs"},
};

void px__live_add(px__live *node, px__object_kind kind, const char *label)
{
    pthread_mutex_lock(&live_lock);
    px__live *head = &live_heads[kind];
    if (!head->next) head->next = head->prev = head;
    node->kind = kind;
    node->label = label;
    node->prev = head->prev;
    node->next = head;
    head->prev->next = node;
    head->prev = node;
    live_counts[kind]++;
    pthread_mutex_unlock(&live_lock);
}

void px__live_remove(px__live *node)
{
    pthread_mutex_lock(&live_lock);
    if (!node->next) { /* never added, or removed already */
        pthread_mutex_unlock(&live_lock);
        return;
    }
    node->prev->next = node->next;
    node->next->prev = node->prev;
    node->next = node->prev = NULL;
    live_counts[node->kind]--;
    pthread_mutex_unlock(&live_lock);
}

/* Appends printf output at *pos without running past size. */
PX_PRINTF(4, 5) static void append(char *buf, size_t size, size_t *pos, const char *fmt, ...)
{
    if (*pos >= size) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *pos, size - *pos, fmt, ap);
    va_end(ap);
    if (w > 0) *pos += (size_t)w;
    if (*pos > size) *pos = size;
}

size_t px__live_describe(char *buf, size_t size)
{
    enum { NAMES_SHOWN = 4 };
    size_t pos = 0, total = 0;
    if (size) buf[0] = '\0';
    pthread_mutex_lock(&live_lock);
    for (int k = 0; k < PX__OBJ_KIND_COUNT; ++k) {
        size_t n = live_counts[k];
        if (!n) continue;
        append(buf, size, &pos, "%s%zu %s (", total ? ", " : "", n, kind_names[k][n != 1]);
        size_t shown = 0;
        for (px__live *it = live_heads[k].next; it != &live_heads[k] && shown < NAMES_SHOWN;
             it = it->next, ++shown)
            append(buf, size, &pos, "%s'%s'", shown ? ", " : "", it->label ? it->label : "");
        append(buf, size, &pos, "%s)", n > NAMES_SHOWN ? ", ..." : "");
        total += n;
    }
    pthread_mutex_unlock(&live_lock);
    return total;
}
