/* Lanes: what staging keeps per instance (the gate's flags, tickets, jobs in flight), and
 * the hook that wraps the instance's destroy so that no job outlives its instance. */
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/cuda_hooks.h"
#include "backends/cuda/cuda_queue.h"
#include "backends/cuda/cuda_staging.h"

/* Flags live in blocks of mapped pinned memory, one per 64-byte line (a worker's store
   and the GPU's polling of another lane never share a line). */
#define FLAG_BLOCK_BYTES 4096u
#define FLAG_STRIDE 16u   /* uint32_t words: 64 bytes */
#define FLAGS_PER_BLOCK (FLAG_BLOCK_BYTES / (FLAG_STRIDE * 4u))
#define FLAG_BLOCKS_MAX 1024

/* (setup) */
static uint32_t *g_blocks[FLAG_BLOCKS_MAX];
static int g_nblocks;
static int *g_free_slots;
static int g_nfree_slots, g_cap_slots;

/* (lock) */
static px__stg_lane *lane_find(const void *key)
{
    for (px__stg_lane *l = px__stg.lanes; l != NULL; l = l->next)
        if (l->key == key) return l;
    return NULL;
}

/* A free flag slot, adding a block when none is left. */
static px_status slot_take(int *out, const char *func)
{
    if (g_nfree_slots == 0) {
        if (g_nblocks == FLAG_BLOCKS_MAX)
            return px__error(PX_ERR_OUT_OF_MEMORY, func, "more than %d instances use staged copies",
                             FLAG_BLOCKS_MAX * (int)FLAGS_PER_BLOCK);
        if (g_cap_slots < (g_nblocks + 1) * (int)FLAGS_PER_BLOCK) {
            const int cap = (g_nblocks + 1) * (int)FLAGS_PER_BLOCK;
            int *s = realloc(g_free_slots, (size_t)cap * sizeof *s);
            if (s == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, func, "no memory for staging flags");
            g_free_slots = s;
            g_cap_slots = cap;
        }
        const px__cuda_ctx ctx = px__cuda_ctx_alloc(px_host_pinned(), FLAG_BLOCK_BYTES);
        void *p = NULL;
        /* Mapped: the GPU polls the flags. Portable: instances of every device use them. */
        PX__TRY(px__cuda_check(cudaHostAlloc(&p, FLAG_BLOCK_BYTES, cudaHostAllocPortable | cudaHostAllocMapped),
                               func, "cudaHostAlloc(staging flags, cudaHostAllocPortable | cudaHostAllocMapped)",
                               &ctx));
        memset(p, 0, FLAG_BLOCK_BYTES);
        px__memory_account_library(px_host_pinned(), FLAG_BLOCK_BYTES, true);
        const int base = g_nblocks * (int)FLAGS_PER_BLOCK;
        g_blocks[g_nblocks++] = p;
        for (int i = (int)FLAGS_PER_BLOCK - 1; i >= 0; --i) g_free_slots[g_nfree_slots++] = base + i;
    }
    *out = g_free_slots[--g_nfree_slots];
    return PX_OK;
}

px_status px__stg_lane_get(const void *key, px__stg_lane **out, const char *func)
{
    pthread_mutex_lock(&px__stg.lock);
    px__stg_lane *l = lane_find(key);
    pthread_mutex_unlock(&px__stg.lock);
    if (l != NULL) {
        *out = l;
        return PX_OK;
    }
    l = calloc(1, sizeof *l);
    if (l == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, func, "no memory for a staging lane");
    px_status st = slot_take(&l->slot, func);
    if (st != PX_OK) {
        free(l);
        return st;
    }
    l->key = key;
    l->flag = g_blocks[l->slot / (int)FLAGS_PER_BLOCK] + (size_t)(l->slot % (int)FLAGS_PER_BLOCK) * FLAG_STRIDE;
    *l->flag = 0;   /* tickets start at 1: the first gate waits */
    void *dptr = NULL;
    /* With unified addressing this is the host address itself; asked all the same. */
    st = px__cuda_check(cudaHostGetDevicePointer(&dptr, (void *)(uintptr_t)l->flag, 0), func,
                        "cudaHostGetDevicePointer(staging flag)", NULL);
    if (st != PX_OK) {
        g_free_slots[g_nfree_slots++] = l->slot;
        free(l);
        return st;
    }
    l->flag_dev = (CUdeviceptr)(uintptr_t)dptr;
    /* The v2 start flag: the second half of the lane's line, written only by its stream. */
    l->start = l->flag + FLAG_STRIDE / 2;
    *l->start = 0;
    l->start_dev = l->flag_dev + FLAG_STRIDE / 2 * sizeof(uint32_t);
    pthread_mutex_lock(&px__stg.lock);
    l->next = px__stg.lanes;
    px__stg.lanes = l;
    pthread_mutex_unlock(&px__stg.lock);
    *out = l;
    return PX_OK;
}

/* Removes a lane once its jobs are done (the instance is going). */
static void lane_remove(const void *key)
{
    pthread_mutex_lock(&px__stg.setup);
    pthread_mutex_lock(&px__stg.lock);
    px__stg_lane **pp = &px__stg.lanes;
    while (*pp != NULL && (*pp)->key != key) pp = &(*pp)->next;
    px__stg_lane *l = *pp;
    if (l != NULL) *pp = l->next;
    pthread_mutex_unlock(&px__stg.lock);
    if (l != NULL) {
        g_free_slots[g_nfree_slots++] = l->slot;
        free(l);
    }
    pthread_mutex_unlock(&px__stg.setup);
}

void px__stg_lanes_release(void)
{
    pthread_mutex_lock(&px__stg.lock);
    px__stg_lane *l = px__stg.lanes;
    px__stg.lanes = NULL;
    pthread_mutex_unlock(&px__stg.lock);
    while (l != NULL) {
        px__stg_lane *next = l->next;
        free(l);
        l = next;
    }
    for (int b = 0; b < g_nblocks; ++b) {
        (void)PX__CU(cudaFreeHost(g_blocks[b]));
        px__memory_account_library(px_host_pinned(), FLAG_BLOCK_BYTES, false);
        g_blocks[b] = NULL;
    }
    g_nblocks = 0;
    free(g_free_slots);
    g_free_slots = NULL;
    g_nfree_slots = g_cap_slots = 0;
}

/* ---- Hooks around the instance's own ------------------------------------------------------ */

/* Waits for the instance's staged jobs to finish (their workers may still be releasing
   them after the gate opened), then destroys it and forgets its lane. */
px_status px__cuda_staging_instance_destroy(struct px_instance *inst)
{
    const void *key = inst->impl;
    if (key != NULL) {
        pthread_mutex_lock(&px__stg.lock);
        px__stg_lane *l = lane_find(key);
        while (l != NULL && l->in_flight > 0) pthread_cond_wait(&px__stg.done, &px__stg.lock);
        pthread_mutex_unlock(&px__stg.lock);
    }
    const px_status st = px__cuda_instance_destroy(inst);
    if (key != NULL) lane_remove(key);
    return st;
}
