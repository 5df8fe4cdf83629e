// lp_punch_hole: freeing the head of a launch's output file. See LaunchMeasureShims.h.

#define _GNU_SOURCE
#include "LaunchMeasureShims.h"

#include <errno.h>
#include <fcntl.h>

int lp_punch_hole(int fd, int64_t offset, int64_t length) {
    return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)length) == 0 ? 0 : errno;
}
