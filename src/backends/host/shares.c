/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Shares of a team by weight: largest remainders, at least one thread each. */
#include "backends/host/shares.h"

#include <stdlib.h>

#include "backends/services.h"

void px__host_shares(int total, int n, const double *weights, int *share)
{
    if (n >= total) {
        for (int i = 0; i < n; ++i) share[i] = 1;
        return;
    }
    int given = 0;
    for (int i = 0; i < n; ++i) {
        share[i] = (int)(weights[i] * total);
        if (share[i] < 1) share[i] = 1;
        given += share[i];
    }
    /* Too many (the minimum of one): take from the largest; too few: give to the largest
       remainders. */
    while (given > total) {
        int big = 0;
        for (int i = 1; i < n; ++i)
            if (share[i] > share[big]) big = i;
        share[big]--;
        given--;
    }
    while (given < total) {
        int best = 0;
        double most = -1;
        for (int i = 0; i < n; ++i) {
            const double rem = weights[i] * total - share[i];
            if (rem > most) {
                most = rem;
                best = i;
            }
        }
        share[best]++;
        given++;
    }
}

px_status px__host_partition(px__queue *parent, int total, const px__partition_request *req,
                             px__host_part_new part_new,
                             px_status (*queue_destroy)(px__queue *q, bool *released),
                             px__queue **children)
{
    const int n = req->n;
    int *share = px__calloc((size_t)n, sizeof *share);
    if (!share) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory");
    px__host_shares(total, n, req->weights, share);
    px_status st = PX_OK;
    int first = 0;
    for (int i = 0; i < n && st == PX_OK; ++i) {
        st = part_new(parent, share[i], first % total, &children[i]);
        first += share[i];
    }
    if (st != PX_OK)
        for (int i = 0; i < n; ++i) {
            bool released;
            if (children[i]) (void)queue_destroy(children[i], &released);
            children[i] = NULL;
        }
    free(share);
    return st;
}
