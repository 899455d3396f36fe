/*
 * gpio-chatter PULLFILE COUNT [FIRST]
 *
 * Simulates a bouncing button on a gpio-sim line: writes "pull-up" and "pull-down" alternately
 * to PULLFILE (a gpio-sim sim_gpioN/pull attribute) COUNT times as fast as possible, starting
 * with FIRST (default "pull-up"). COUNT is rounded up to an even number so that the last write
 * is the opposite of the first and the line ends where it started. Prints the number of writes
 * and the elapsed time in microseconds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int write_pull(const char *path, const char *value)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -1;
    size_t len = strlen(value);
    ssize_t w;
    do {
        w = write(fd, value, len);
    } while (w < 0 && errno == EINTR);
    int saved = errno;
    close(fd);
    errno = saved;
    return w == (ssize_t)len ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: gpio-chatter PULLFILE COUNT [pull-up|pull-down]\n");
        return 2;
    }
    const char *path = argv[1];
    long count = strtol(argv[2], NULL, 10);
    const char *first = argc == 4 ? argv[3] : "pull-up";
    if (count <= 0) {
        fprintf(stderr, "gpio-chatter: COUNT must be positive\n");
        return 2;
    }
    if (strcmp(first, "pull-up") != 0 && strcmp(first, "pull-down") != 0) {
        fprintf(stderr, "gpio-chatter: FIRST must be pull-up or pull-down\n");
        return 2;
    }
    const char *second = strcmp(first, "pull-up") == 0 ? "pull-down" : "pull-up";
    if (count % 2)
        count++;

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < count; i++) {
        if (write_pull(path, i % 2 == 0 ? first : second) != 0) {
            fprintf(stderr, "gpio-chatter: write to %s: %s\n", path, strerror(errno));
            return 1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long long us = (long long)(t1.tv_sec - t0.tv_sec) * 1000000LL + (t1.tv_nsec - t0.tv_nsec) / 1000;
    printf("gpio-chatter: %ld writes in %lld us\n", count, us);
    return 0;
}
