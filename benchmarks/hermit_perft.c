/* A plain C perft of Hermit, the yardstick of bench_hermit_perft.py: cell (r, c) is bit
 * 8 * r + c of a 64-bit mask per colour (red, yellow, blue), as in the compiled core.
 * Usage: hermit_perft N DEPTH bulk|leaves -> prints "leaves seconds" (best of 5). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t full, not_first_col, not_last_col;
static const int steps[3] = {0, 1, 8};
static uint64_t fits[3];

static uint64_t dilate(uint64_t m) {
    uint64_t row = m | ((m << 1) & not_first_col) | ((m >> 1) & not_last_col);
    return (row | (row << 8) | (row >> 8)) & full;
}

/* bulk: the last ply is counted with popcounts; otherwise every leaf is visited. */
static uint64_t perft(uint64_t m[3], int depth, int bulk) {
    if (depth == 0) return 1;
    uint64_t empty = full & ~(m[0] | m[1] | m[2]), total = 0;
    for (int colour = 0; colour < 3; colour++) {
        uint64_t free_mask = empty & ~dilate(m[colour]);
        for (int shape = 0; shape < 3; shape++) {
            uint64_t starts = free_mask & (free_mask >> steps[shape]) & fits[shape];
            if (bulk && depth == 1) {
                total += (uint64_t)__builtin_popcountll(starts);
                continue;
            }
            while (starts) {
                uint64_t low = starts & (~starts + 1);
                starts ^= low;
                uint64_t block = low | (low << steps[shape]);
                m[colour] |= block;
                total += perft(m, depth - 1, bulk);
                m[colour] &= ~block;
            }
        }
    }
    return total;
}

static void setup(int n) {
    full = 0;
    for (int r = 0; r < n; r++) full |= (((uint64_t)1 << n) - 1) << (8 * r);
    uint64_t first_col = 0;
    for (int r = 0; r < n; r++) first_col |= (uint64_t)1 << (8 * r);
    not_first_col = full & ~first_col;
    not_last_col = full & ~(first_col << (n - 1));
    fits[0] = full;
    fits[1] = full & ~(first_col << (n - 1));
    fits[2] = full & ~((((uint64_t)1 << n) - 1) << (8 * (n - 1)));
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s N DEPTH bulk|leaves\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]), depth = atoi(argv[2]), bulk = strcmp(argv[3], "bulk") == 0;
    if (n < 1 || n > 8) {
        fprintf(stderr, "N is 1 to 8\n");
        return 2;
    }
    setup(n);
    double best = 1e30;
    uint64_t leaves = 0;
    for (int run = 0; run < 5; run++) {
        uint64_t m[3] = {0, 0, 0};
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        leaves = perft(m, depth, bulk);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
        if (seconds < best) best = seconds;
    }
    printf("%llu %.9f\n", (unsigned long long)leaves, best);
    return 0;
}
