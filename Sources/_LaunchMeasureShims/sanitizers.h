// LP_UNDER_THREAD_SANITIZER: defined in a ThreadSanitizer build (clang's
// __has_feature, GCC's __SANITIZE_THREAD__). Its runtime cannot follow a child
// that shares launchprof's memory (clone with CLONE_VM) or a fork from a
// multi-threaded process: a CHECK fails in the child. spawn.c and
// group_watcher.c then start their processes with posix_spawn instead.

#ifndef LP_SANITIZERS_H
#define LP_SANITIZERS_H

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LP_UNDER_THREAD_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) && !defined(LP_UNDER_THREAD_SANITIZER)
#define LP_UNDER_THREAD_SANITIZER 1
#endif

#endif
