/*
 * pcm-record DEVICE RATE SAMPLES TIMES
 *
 * Records 16-bit mono samples at RATE from an ALSA capture device node (/dev/snd/pcmC0D1c: the
 * other end of snd-aloop's loop) through the kernel's PCM interface, without libasound, until
 * SIGTERM or SIGINT. SAMPLES receives the samples as they come; TIMES a line per block read,
 * "FRAMES SECONDS.NANOSECONDS": how many frames the device had captured when the kernel took
 * its CLOCK_MONOTONIC timestamp, so sample n was captured at that time less (FRAMES - n) / RATE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sound/asound.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* 5 ms periods; a 320 ms buffer. snd-aloop, when the playback side stops, can hand the capture
 * side a few milliseconds of the capture buffer's old content: with an 80 ms buffer that was a
 * chunk of the booth's last sound heard again, with this one it is the silence between sounds. */
#define PERIOD 240
#define PERIODS 64

static volatile sig_atomic_t stopping;

static void stop(int sig)
{
    (void)sig;
    stopping = 1;
}

static void die(const char *what)
{
    fprintf(stderr, "pcm-record: %s: %s\n", what, strerror(errno));
    exit(1);
}

static struct snd_mask *mask(struct snd_pcm_hw_params *p, int param)
{
    return &p->masks[param - SNDRV_PCM_HW_PARAM_FIRST_MASK];
}

static struct snd_interval *interval(struct snd_pcm_hw_params *p, int param)
{
    return &p->intervals[param - SNDRV_PCM_HW_PARAM_FIRST_INTERVAL];
}

static void set_mask(struct snd_pcm_hw_params *p, int param, unsigned int bit)
{
    struct snd_mask *m = mask(p, param);
    memset(m, 0, sizeof(*m));
    m->bits[bit >> 5] |= 1u << (bit & 31);
}

static void set_interval(struct snd_pcm_hw_params *p, int param, unsigned int value)
{
    struct snd_interval *i = interval(p, param);
    i->min = value;
    i->max = value;
    i->integer = 1;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: pcm-record DEVICE RATE SAMPLES TIMES\n");
        return 2;
    }
    unsigned int rate = (unsigned int)atoi(argv[2]);
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0)
        die(argv[1]);

    /* Every parameter open, then the ones that matter fixed: the kernel chooses the rest. */
    struct snd_pcm_hw_params hw;
    memset(&hw, 0, sizeof(hw));
    for (int n = SNDRV_PCM_HW_PARAM_FIRST_MASK; n <= SNDRV_PCM_HW_PARAM_LAST_MASK; n++)
        memset(mask(&hw, n), 0xff, sizeof(struct snd_mask));
    for (int n = SNDRV_PCM_HW_PARAM_FIRST_INTERVAL; n <= SNDRV_PCM_HW_PARAM_LAST_INTERVAL; n++) {
        interval(&hw, n)->min = 0;
        interval(&hw, n)->max = UINT_MAX;
    }
    hw.rmask = ~0u;
    hw.info = ~0u;
    set_mask(&hw, SNDRV_PCM_HW_PARAM_ACCESS, SNDRV_PCM_ACCESS_RW_INTERLEAVED);
    set_mask(&hw, SNDRV_PCM_HW_PARAM_FORMAT, SNDRV_PCM_FORMAT_S16_LE);
    set_mask(&hw, SNDRV_PCM_HW_PARAM_SUBFORMAT, SNDRV_PCM_SUBFORMAT_STD);
    set_interval(&hw, SNDRV_PCM_HW_PARAM_CHANNELS, 1);
    set_interval(&hw, SNDRV_PCM_HW_PARAM_RATE, rate);
    set_interval(&hw, SNDRV_PCM_HW_PARAM_SAMPLE_BITS, 16);
    set_interval(&hw, SNDRV_PCM_HW_PARAM_FRAME_BITS, 16);
    set_interval(&hw, SNDRV_PCM_HW_PARAM_PERIOD_SIZE, PERIOD);
    set_interval(&hw, SNDRV_PCM_HW_PARAM_PERIODS, PERIODS);
    if (ioctl(fd, SNDRV_PCM_IOCTL_HW_PARAMS, &hw) < 0)
        die("SNDRV_PCM_IOCTL_HW_PARAMS (16-bit mono)");

    int monotonic = SNDRV_PCM_TSTAMP_TYPE_MONOTONIC;
    if (ioctl(fd, SNDRV_PCM_IOCTL_TTSTAMP, &monotonic) < 0)
        die("SNDRV_PCM_IOCTL_TTSTAMP");
    struct snd_pcm_sw_params sw;
    memset(&sw, 0, sizeof(sw));
    sw.tstamp_mode = SNDRV_PCM_TSTAMP_ENABLE;
    sw.tstamp_type = SNDRV_PCM_TSTAMP_TYPE_MONOTONIC;
    sw.period_step = 1;
    sw.avail_min = PERIOD;
    sw.start_threshold = 1;
    sw.stop_threshold = PERIOD * PERIODS;
    sw.boundary = PERIOD * PERIODS;
    while (sw.boundary * 2 <= LONG_MAX - PERIOD * PERIODS)
        sw.boundary *= 2;
    if (ioctl(fd, SNDRV_PCM_IOCTL_SW_PARAMS, &sw) < 0)
        die("SNDRV_PCM_IOCTL_SW_PARAMS");
    if (ioctl(fd, SNDRV_PCM_IOCTL_PREPARE) < 0)
        die("SNDRV_PCM_IOCTL_PREPARE");

    FILE *samples = fopen(argv[3], "wb");
    FILE *times = fopen(argv[4], "w");
    if (!samples || !times)
        die("the output files");
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = stop;
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    if (ioctl(fd, SNDRV_PCM_IOCTL_START) < 0)
        die("SNDRV_PCM_IOCTL_START");
    fprintf(stderr, "pcm-record: recording %s at %u Hz\n", argv[1], rate);

    short buffer[PERIOD];
    while (!stopping) {
        struct snd_xferi transfer = {.buf = buffer, .frames = PERIOD};
        if (ioctl(fd, SNDRV_PCM_IOCTL_READI_FRAMES, &transfer) < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EPIPE)
                fprintf(stderr, "pcm-record: overrun: the recording has a gap\n");
            die("SNDRV_PCM_IOCTL_READI_FRAMES");
        }
        fwrite(buffer, sizeof(short), (size_t)transfer.result, samples);
        struct snd_pcm_status status;
        memset(&status, 0, sizeof(status));
        if (ioctl(fd, SNDRV_PCM_IOCTL_STATUS, &status) < 0)
            die("SNDRV_PCM_IOCTL_STATUS");
        fprintf(times, "%lu %lld.%09ld\n", (unsigned long)status.hw_ptr, (long long)status.tstamp.tv_sec, status.tstamp.tv_nsec);
    }
    fclose(samples);
    fclose(times);
    close(fd);
    return 0;
}
