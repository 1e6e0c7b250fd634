/*
** task.h -- run one function on a thread of its own and wait for it.
**
** Layer: runtime.  For work that needs nothing from what the caller does
** meanwhile (squint compile writes its manifest and its C source while it
** writes its C header).  The function must touch no state the caller
** changes until sq_task_join; squint's lazily built caches count as such
** state (a source's line table: sq_src_index builds it first).  When no
** thread can be started the function runs at once, in the caller: the
** outcome is the same either way, only the time differs.
*/
#ifndef SQ_TASK_H
#define SQ_TASK_H

typedef struct SqTask SqTask;

/* Start fn(arg). */
SqTask *sq_task_start(void (*fn)(void *), void *arg);

/* Wait until fn has returned, and free the task.  NULL is accepted. */
void sq_task_join(SqTask *t);

#endif
