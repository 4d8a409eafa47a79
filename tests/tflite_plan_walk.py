#!/usr/bin/python3
# tflite_plan_walk.py - an independent check of a .tflite written by `dmo
# plan --emit-tflite`, by its own FlatBuffers walk written from the format
# ("FlatBuffers internals") and TFLite's schema.fbs field ids, sharing no
# code with dmo's reader (opspec/flatbuf.c).
#
#   tflite_plan_walk.py ORIGINAL EMITTED PLAN_CSV ARENA KERNELS [OFFSETS]
#
# ORIGINAL the model given to dmo plan, EMITTED its output, PLAN_CSV that
# run's `dmo plan --csv` (only its os_bytes per layer are used: the O_s
# the plan was made with), ARENA the arena dmo printed, KERNELS the name
# the dmo_kernels entry must give, OFFSETS (optional) one offset a line, by
# tensor index, as the emitted C header lists them.  Checks:
# - the original file is inside the emitted one, byte for byte, at a
#   multiple of 16, and the new Model's fields but buffers and metadata
#   point to the original's objects; a walk of both models (operator codes,
#   every tensor, operator, option table, buffer) gives the same dump;
# - metadata OfflineMemoryAllocation: int32 [version, subgraph, N, N
#   offsets], N the number of tensors, -1 exactly for constants, every
#   other offset a multiple of 16;
# - lifetimes computed here from the operators: two tensors live at once
#   share bytes only as a layer's dying first input over its output, at
#   most O_s bytes, the input above (no forbidden overlap); a model output
#   is never overlapped;
# - the arena, with TFLM's rounding of sizes to 16, is ARENA;
# - metadata dmo_kernels names KERNELS; the original's other metadata
#   entries kept, ours there once.
# Exit 0 when all hold, 1 with a message per failure.
import csv
import struct
import sys

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


class FB:
    def __init__(self, data):
        self.d = data

    def u8(self, p):
        return self.d[p]

    def u16(self, p):
        return struct.unpack_from("<H", self.d, p)[0]

    def u32(self, p):
        return struct.unpack_from("<I", self.d, p)[0]

    def i32(self, p):
        return struct.unpack_from("<i", self.d, p)[0]

    def root(self):
        return self.u32(0)

    def field(self, table, fid):
        """Absolute position of field FID of TABLE, or None."""
        vt = table - self.i32(table)
        vsize = self.u16(vt)
        entry = 4 + 2 * fid
        if entry + 2 > vsize:
            return None
        off = self.u16(vt + entry)
        return table + off if off else None

    def ref(self, table, fid):
        p = self.field(table, fid)
        return None if p is None else p + self.u32(p)

    def scalar(self, table, fid, fmt, default=0):
        p = self.field(table, fid)
        return default if p is None else struct.unpack_from("<" + fmt, self.d, p)[0]

    def vector(self, table, fid):
        """(count, position of element 0) of a vector field; (0, None)."""
        v = self.ref(table, fid)
        return (0, None) if v is None else (self.u32(v), v + 4)

    def tables(self, table, fid):
        n, at = self.vector(table, fid)
        return [at + 4 * i + self.u32(at + 4 * i) for i in range(n)]

    def ints(self, table, fid, fmt="i", size=4):
        n, at = self.vector(table, fid)
        return [struct.unpack_from("<" + fmt, self.d, at + size * i)[0] for i in range(n)]

    def bytes_(self, table, fid):
        n, at = self.vector(table, fid)
        return b"" if at is None else bytes(self.d[at:at + n])

    def string(self, table, fid):
        return self.bytes_(table, fid).decode("utf-8", "replace")

    def inline(self, table):
        """A table's inline bytes (after its soffset): scalars, and offsets
        that stay valid when the whole file moves."""
        vt = table - self.i32(table)
        return (bytes(self.d[vt:vt + self.u16(vt)]), bytes(self.d[table + 4:table + self.u16(vt + 2)]))


# schema.fbs field ids
M_VERSION, M_OPCODES, M_SUBGRAPHS, M_DESCRIPTION, M_BUFFERS, M_METADATA_BUFFER, M_METADATA, M_SIGDEFS = range(8)
T_SHAPE, T_TYPE, T_BUFFER, T_NAME, T_QUANT, T_IS_VARIABLE = range(6)
ELEM = {0: 4, 1: 2, 2: 4, 3: 1, 4: 8, 6: 1, 7: 2, 9: 1, 10: 8}


def dump(fb):
    """Everything of the model that is not buffers' list or metadata."""
    m = fb.root()
    out = [("version", fb.scalar(m, M_VERSION, "I")), ("description", fb.string(m, M_DESCRIPTION))]
    for c in fb.tables(m, M_OPCODES):
        out.append(("opcode", fb.scalar(c, 0, "b"), fb.string(c, 1), fb.scalar(c, 2, "i", 1), fb.scalar(c, 3, "i")))
    bufs = fb.tables(m, M_BUFFERS)
    for g in fb.tables(m, M_SUBGRAPHS):
        out.append(("subgraph", fb.string(g, 4), fb.ints(g, 1), fb.ints(g, 2)))
        for t in fb.tables(g, 0):
            q = fb.ref(t, T_QUANT)
            quant = None if q is None else (fb.ints(q, 2, "f"), fb.ints(q, 3, "q", 8), fb.scalar(q, 6, "i"))
            b = fb.scalar(t, T_BUFFER, "I")
            out.append(("tensor", fb.string(t, T_NAME), fb.ints(t, T_SHAPE), fb.scalar(t, T_TYPE, "B"),
                        b, fb.bytes_(bufs[b], 0) if b < len(bufs) else None, quant,
                        fb.scalar(t, T_IS_VARIABLE, "B")))
        for o in fb.tables(g, 3):
            opts = fb.ref(o, 4)
            out.append(("operator", fb.scalar(o, 0, "I"), fb.ints(o, 1), fb.ints(o, 2), fb.scalar(o, 3, "B"),
                        None if opts is None else fb.inline(opts), fb.bytes_(o, 5)))
    for b in bufs:
        out.append(("buffer", fb.bytes_(b, 0)))
    return out


def main():
    orig_path, emit_path, plan_csv, arena, kernels = sys.argv[1:6]
    orig = open(orig_path, "rb").read()
    emit = open(emit_path, "rb").read()
    a, e = FB(orig), FB(emit)

    # The old file whole, at a multiple of 16.
    shift = len(emit) - len(orig)
    check(shift > 0 and shift % 16 == 0, "the old bytes moved by %d, not a multiple of 16" % shift)
    check(emit[shift:] == orig, "the original file is not at the end of the emitted one, byte for byte")
    check(emit[4:8] == b"TFL3", "no TFL3 identifier")
    for fid in (M_VERSION, M_OPCODES, M_SUBGRAPHS, M_DESCRIPTION, M_METADATA_BUFFER, M_SIGDEFS):
        old, new = a.ref(a.root(), fid), e.ref(e.root(), fid)
        if fid == M_VERSION:
            check(a.scalar(a.root(), fid, "I") == e.scalar(e.root(), fid, "I"), "Model.version changed")
        else:
            check((old is None and new is None) or (old is not None and new == old + shift),
                  "Model field %d does not point to the original's object" % fid)
    da, de = dump(a), dump(e)
    n_old_buffers = len(a.tables(a.root(), M_BUFFERS))
    # The emitted model has the old buffers, then two more.
    de_buffers = [x for x in de if x[0] == "buffer"]
    check(len(de_buffers) == n_old_buffers + 2, "buffers: %d, expected %d + 2" % (len(de_buffers), n_old_buffers))
    check([x for x in de if x[0] != "buffer"] == [x for x in da if x[0] != "buffer"],
          "a field of the model differs between the original and the emitted file")
    check(de_buffers[:n_old_buffers] == [x for x in da if x[0] == "buffer"], "an original buffer differs")

    # The metadata.
    entries = {}
    bufs = e.tables(e.root(), M_BUFFERS)
    for md in e.tables(e.root(), M_METADATA):
        entries[e.string(md, 0)] = e.bytes_(bufs[e.scalar(md, 1, "I")], 0)
    check("OfflineMemoryAllocation" in entries and "dmo_kernels" in entries,
          "metadata entries: %s" % sorted(entries))
    # The original's other metadata kept, ours once (replaced if it had them).
    obufs = a.tables(a.root(), M_BUFFERS)
    old = [(a.string(md, 0), a.bytes_(obufs[a.scalar(md, 1, "I")], 0)) for md in a.tables(a.root(), M_METADATA)]
    old = [x for x in old if x[0] not in ("OfflineMemoryAllocation", "dmo_kernels")]
    new = [(e.string(md, 0), e.bytes_(bufs[e.scalar(md, 1, "I")], 0)) for md in e.tables(e.root(), M_METADATA)]
    check(new[:len(old)] == old and len(new) == len(old) + 2,
          "metadata: %s, the original's %s" % ([x[0] for x in new], [x[0] for x in old]))
    words = struct.unpack("<%di" % (len(entries["OfflineMemoryAllocation"]) // 4), entries["OfflineMemoryAllocation"])
    g = a.tables(a.root(), M_SUBGRAPHS)[0]
    tensors = a.tables(g, 0)
    n = len(tensors)
    check(words[2] == n and len(words) == 3 + n, "plan words: N %d for %d tensors, %d words" % (words[2], n, len(words)))
    offsets = list(words[3:])
    kern = dict(line.split("=", 1) for line in entries["dmo_kernels"].decode().splitlines() if "=" in line)
    check(kern.get("kernels") == kernels, "dmo_kernels names %r, not %r" % (kern.get("kernels"), kernels))
    check("dmo" in kern, "dmo_kernels does not give dmo's version")

    # Tensors: sizes, constants, lifetimes from the operators.
    size, const, first, last = [], [], [], []
    for t in tensors:
        elems = 1
        for d in a.ints(t, T_SHAPE):
            elems *= d
        size.append(elems * ELEM[a.scalar(t, T_TYPE, "B")])
        b = a.scalar(t, T_BUFFER, "I")
        const.append(b != 0 and len(a.bytes_(obufs[b], 0)) > 0)
    ops = a.tables(g, 3)
    end = len(ops) - 1
    inputs, outputs = set(a.ints(g, 1)), set(a.ints(g, 2))
    first = [None] * n
    last = [None] * n
    readers = [[] for _ in range(n)]
    for i, o in enumerate(ops):
        for t in a.ints(o, 1):
            if t >= 0 and not const[t]:
                readers[t].append(i)
                last[t] = i if last[t] is None else max(last[t], i)
        for t in a.ints(o, 2):
            first[t] = i
    for t in range(n):
        if const[t]:
            check(offsets[t] == -1, "constant tensor %d has offset %d, not -1" % (t, offsets[t]))
            continue
        check(offsets[t] >= 0 and offsets[t] % 16 == 0, "tensor %d: offset %d" % (t, offsets[t]))
        if first[t] is None or a.scalar(tensors[t], T_IS_VARIABLE, "B"):
            first[t] = 0
        if t in outputs or not readers[t] or a.scalar(tensors[t], T_IS_VARIABLE, "B") or last[t] is None:
            last[t] = end
    if len(sys.argv) > 6:
        listed = [int(x) for x in open(sys.argv[6]).read().split()]
        check(listed == offsets, "the C header's offsets differ from the .tflite's")

    # O_s per operator, from dmo plan --csv (the rest is recomputed here).
    os_of = {}
    for row in csv.DictReader(open(plan_csv)):
        if row["layer"] != "-":
            os_of[int(row["layer"]) - 1] = int(row["os_bytes"])
    diagonal = {}
    for i, o in enumerate(ops):
        acts = [t for t in a.ints(o, 1) if t >= 0 and not const[t]]
        outs = a.ints(o, 2)
        if acts and len(outs) == 1 and last[acts[0]] == i and acts[0] not in outputs and acts.count(acts[0]) == 1:
            diagonal[(acts[0], outs[0])] = os_of.get(i, 0)
    acts = [t for t in range(n) if not const[t]]
    for x in acts:
        for y in acts:
            if x >= y or last[x] < first[y] or last[y] < first[x]:
                continue
            if offsets[x] >= offsets[y] + size[y] or offsets[y] >= offsets[x] + size[x]:
                continue
            pair = (x, y) if (x, y) in diagonal else (y, x)
            if pair not in diagonal:
                check(False, "tensors %d and %d are live together and overlap" % (x, y))
                continue
            i, o = pair
            check(offsets[i] + diagonal[pair] >= offsets[o] + size[o],
                  "input %d overlaps output %d by more than O_s %d" % (i, o, diagonal[pair]))
    top = max(offsets[t] + (size[t] + 15) // 16 * 16 for t in acts)
    check(top == int(arena), "arena with TFLM's rounding %d, dmo said %s" % (top, arena))
    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print("ok: %d tensors, %d planned, arena %d, old bytes moved by %d, kernels %s" %
              (n, len(acts), top, shift, kernels))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
