/* protobuf_depth.h - how deeply a protobuf message nests, read from the
 * wire format alone, before protobuf-c unpacks it: protobuf-c recurses once
 * per level, so a file of 100,000 nested messages overflowed the stack.
 * Used by the ONNX reader. */
#ifndef DMO_PROTOBUF_DEPTH_H
#define DMO_PROTOBUF_DEPTH_H

#include <stddef.h>
#include <stdint.h>

/* Levels of nested messages an ONNX file may have: a model, its graph, a
 * node, an attribute, a subgraph... (real models reach about 10). */
#define DMO_PROTOBUF_MAX_DEPTH 100

/* Whether DATA (LEN bytes, a message) nests at most MAX_DEPTH levels deep.
 * Without the schema a length-delimited field may be a string or a
 * message: every one that reads as a message counts as one, so the answer
 * errs towards "too deep", never the other way.  Returns 1 when within,
 * 0 when deeper.  Time: at most LEN times MAX_DEPTH steps; stack: at most
 * MAX_DEPTH small frames. */
int dmo_protobuf_depth_within(const uint8_t *data, size_t len, int max_depth);

#endif
