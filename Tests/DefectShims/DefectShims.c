#define _GNU_SOURCE
#include "DefectShims.h"
#ifdef __linux__
#include <errno.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

int defects_open_direct(const char *path) { return open(path, O_RDONLY | O_CLOEXEC | O_DIRECT); }

int defects_eventfd(void) { return eventfd(0, EFD_CLOEXEC); }

int defects_epoll_watching(int fd) {
    int epoll = epoll_create1(EPOLL_CLOEXEC);
    if (epoll < 0) return -1;
    struct epoll_event event = { .events = EPOLLIN, .data = { .fd = fd } };
    return epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0 ? epoll : -1;
}

int defects_epoll_wait_one(int epoll) {
    struct epoll_event event;
    int ready;
    do { ready = epoll_wait(epoll, &event, 1, -1); } while (ready < 0 && errno == EINTR);
    return ready;
}
#endif
