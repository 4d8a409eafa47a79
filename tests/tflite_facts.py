#!/usr/bin/env python3
"""tflite_facts.py FILE - facts about a .tflite file from a separate, minimal
FlatBuffers walk (not dmo's reader): tensor and operator counts, the shapes
of the subgraph's inputs and outputs, and the no-overlap live peak (the
largest sum of bytes of non-constant tensors live at one operator, operators
in file order; a tensor lives from its writer, or operator 0, to its last
reader, or to the end when it is a subgraph output or state).
Prints one line: tensors=N ops=N inputs=SHAPE;... outputs=SHAPE;... peak=N"""
import sys

from tflite_walk import Walk

SIZES = {0: 4, 1: 2, 2: 4, 3: 1, 4: 8, 6: 1, 7: 2, 9: 1, 10: 8, 15: 4, 16: 2}


def main(path):
    buf = open(path, "rb").read()
    w = Walk(buf)
    u32, field, vec, ints, tables = w.u32, w.field, w.vec, w.ints, w.tables

    root = u32(0)
    buffers = tables(root, 4)
    (g,) = tables(root, 2)
    tensors = tables(g, 0)
    ops = tables(g, 3)
    shape = {}
    nbytes = {}
    const = set()
    variable = set()
    for t, tab in enumerate(tensors):
        dims = ints(tab, 0)
        p = field(tab, 1)
        ttype = buf[p] if p is not None else 0
        n = 1
        for d in dims:
            n *= d
        shape[t] = "x".join(map(str, dims))
        nbytes[t] = n * SIZES.get(ttype, 0)
        p = field(tab, 2)
        b = u32(p) if p is not None else 0
        if b and vec(buffers[b], 0, 1):
            const.add(t)
        p = field(tab, 5)
        if p is not None and buf[p]:
            variable.add(t)
    inputs, outputs = ints(g, 1), ints(g, 2)
    first, last = {}, {}
    for k, op in enumerate(ops):
        for t in ints(op, 1):
            if t >= 0 and t not in const:
                first.setdefault(t, 0)
                last[t] = k
        for t in ints(op, 2):
            first[t] = k
            last.setdefault(t, k)
    end = len(ops) - 1
    for t in list(first):
        if t in outputs or t in variable:
            last[t] = end
        if t in variable:
            first[t] = 0
    peak = max(sum(nbytes[t] for t in first if first[t] <= k <= last[t])
               for k in range(len(ops)))
    print("tensors=%d ops=%d inputs=%s outputs=%s peak=%d" % (
        len(tensors), len(ops), ";".join(shape[t] for t in inputs),
        ";".join(shape[t] for t in outputs), peak))


main(sys.argv[1])
