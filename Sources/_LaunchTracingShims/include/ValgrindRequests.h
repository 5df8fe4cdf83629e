#ifndef LAUNCHPROF_VALGRIND_REQUESTS_H
#define LAUNCHPROF_VALGRIND_REQUESTS_H

// Valgrind client requests, written by hand (valgrind's own headers need not be
// installed where an app builds). Each is a few no-op instructions when the
// program does not run under valgrind.

/// 1 when this process runs under valgrind (RUNNING_ON_VALGRIND), else 0.
int lp_running_on_valgrind(void);

/// 1 when launchprof asked for instruction counts (LAUNCHPROF_COUNT_INSTRUCTIONS=1)
/// and the process runs under valgrind; read once, at start.
int lp_instruction_marks_enabled(void);

/// Has callgrind write the instructions counted since the last dump, under
/// `name` (CALLGRIND_DUMP_STATS_AT), and start counting from zero. Only when
/// instruction marks are enabled.
void lp_callgrind_dump_at(const char *name);

#endif
