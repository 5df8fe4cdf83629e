// lp_open_pseudo_terminal: a pseudo-terminal for a child's stdout. See LaunchMeasureShims.h.

#define _GNU_SOURCE
#include "LaunchMeasureShims.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

int lp_open_pseudo_terminal(int *master, int *slave) {
    int main_side = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (main_side < 0) return errno;
    char name[128];
    if (grantpt(main_side) != 0 || unlockpt(main_side) != 0 || ptsname_r(main_side, name, sizeof name) != 0) {
        int error = errno;
        close(main_side);
        return error;
    }
    int child_side = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (child_side < 0) {
        int error = errno;
        close(main_side);
        return error;
    }
    struct termios settings;
    if (tcgetattr(child_side, &settings) == 0) {
        settings.c_oflag &= ~(tcflag_t)OPOST;                 // no \r before \n
        settings.c_lflag &= ~(tcflag_t)(ECHO | ICANON | ISIG);
        tcsetattr(child_side, TCSANOW, &settings);
    }
    struct winsize size = {.ws_row = 24, .ws_col = 80};
    ioctl(child_side, TIOCSWINSZ, &size);
    *master = main_side;
    *slave = child_side;
    return 0;
}
