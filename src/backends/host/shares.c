/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Shares of a team by weight: largest remainders, at least one thread each. */
#include "backends/host/shares.h"

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
