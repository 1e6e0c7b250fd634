/*
** querygraph.h -- the schema graph of a catalog and the join query graph
** of a query (see querygraph.c for what each holds).
**
** Layer: ir.  Both graphs live in the arena passed in.
*/
#ifndef SQ_QUERYGRAPH_H
#define SQ_QUERYGRAPH_H

#include "ir/graph/graph.h"
#include "ir/ir.h"

/* Tables as nodes (views left out), PK-FK and FK-FK edges. */
SqGraph *sq_schema_graph(SqArena *a, const Catalog *cat);

/* The join query graph of q, or NULL when q is not one SELECT over tables;
** *why then says what is in the way ("a subquery expression", ...). */
SqGraph *sq_query_graph(SqArena *a, IrQuery *q, const char **why);

#endif
