// The few Linux calls the defect app needs that Swift's Glibc module does not
// export (O_DIRECT, eventfd, epoll).
#ifndef DEFECT_SHIMS_H
#define DEFECT_SHIMS_H

/// open(path, O_RDONLY | O_CLOEXEC | O_DIRECT): reads that go past the page cache.
int defects_open_direct(const char *path);
/// eventfd(0, EFD_CLOEXEC).
int defects_eventfd(void);
/// An epoll instance watching `fd` for input; -1 on failure.
int defects_epoll_watching(int fd);
/// epoll_wait(epoll, one event, forever), retried on EINTR.
int defects_epoll_wait_one(int epoll);

#endif
