"""tflm_offline_plan.py - the test's own writer of TFLM's offline memory plan,
independent of dmo: a .tflite plus the metadata TFLM's micro_allocation_info
reads (Model.metadata entry "OfflineMemoryAllocation" naming a buffer of
little-endian int32 [version 1, subgraph 0, N, offset of tensor 0..N-1],
-1 for a tensor TFLM plans itself).

    tflm_offline_plan.py IN.tflite OFFSETS.csv SHIFT OUT.tflite

OFFSETS.csv (tensor,offset,bytes: dmo-tflm-run --tensor-offsets) gives
the arena offset of every planned tensor; SHIFT bytes are added to each.
Every other tensor gets -1.

The writer keeps the old file whole and puts a new Model table (with a
metadata field the old one may lack), a new buffer vector and the plan
ahead of it: FlatBuffers offsets point forwards and are relative, so the
old bytes, moved by a multiple of 16, stay valid and aligned."""
import struct
import sys

MODEL_BUFFERS, MODEL_METADATA, MODEL_FIELDS = 4, 6, 8
OFFSET_FIELDS = {1, 2, 3, 4, 5, 6, 7}  # operator_codes .. signature_defs


def u32(b, at):
    return struct.unpack_from("<I", b, at)[0]


def table_fields(b, table):
    """{field id: absolute position of the field} of the table at TABLE."""
    vtable = table - struct.unpack_from("<i", b, table)[0]
    vt_len = struct.unpack_from("<H", b, vtable)[0]
    fields = {}
    for f in range((vt_len - 4) // 2):
        rel = struct.unpack_from("<H", b, vtable + 4 + 2 * f)[0]
        if rel:
            fields[f] = table + rel
    return fields


def count_tensors(b, fields):
    subgraphs = fields[2] + u32(b, fields[2])
    total = 0
    for i in range(u32(b, subgraphs)):
        entry = subgraphs + 4 + 4 * i
        sg = table_fields(b, entry + u32(b, entry))
        total += u32(b, sg[0] + u32(b, sg[0])) if 0 in sg else 0
    return total


class Writer:
    """Bytes laid out front to back; offsets patched once targets are known."""

    def __init__(self):
        self.out = bytearray()

    def align(self, n, rest=0):
        while len(self.out) % n != rest:
            self.out += b"\0"

    def put(self, fmt, *values):
        at = len(self.out)
        self.out += struct.pack("<" + fmt, *values)
        return at

    def uoffset(self, at, target):
        assert target > at
        struct.pack_into("<I", self.out, at, target - at)


def main():
    src, offsets_csv, shift, dst = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    old = open(src, "rb").read()
    model = u32(old, 0)
    fields = table_fields(old, model)
    n = count_tensors(old, fields)
    plan = [-1] * n
    for line in open(offsets_csv).read().split("\n")[1:]:
        if line:
            tensor, offset, _ = (int(x) for x in line.split(","))
            plan[tensor] = offset + shift
    old_buffers = fields[MODEL_BUFFERS] + u32(old, fields[MODEL_BUFFERS])
    n_buffers = u32(old, old_buffers)

    w = Writer()
    root = w.put("I", 0)
    w.out += b"TFL3"
    # Model's vtable: every field the old table has, plus metadata.
    w.align(2)
    vtable = len(w.out)
    slots = sorted(set(fields) | {MODEL_METADATA})
    w.put("HH", 4 + 2 * MODEL_FIELDS, 4 + 4 * len(slots))
    for f in range(MODEL_FIELDS):
        w.put("H", 4 + 4 * slots.index(f) if f in slots else 0)
    w.align(4)
    table = w.put("i", 0)
    struct.pack_into("<i", w.out, table, table - vtable)
    struct.pack_into("<I", w.out, root, table)
    slot_at = {f: w.put("I", 0) for f in slots}
    # New buffers vector: the old buffers, then the plan's buffer.
    w.align(4)
    buffers = w.put("I", n_buffers + 1)
    buffer_slots = [w.put("I", 0) for _ in range(n_buffers + 1)]
    metadata = w.put("I", 1)
    metadata_slot = w.put("I", 0)
    # Metadata { name, buffer }.
    w.align(2)
    md_vtable = w.put("HHHH", 8, 12, 4, 8)
    w.align(4)
    md_table = w.put("i", 0)
    struct.pack_into("<i", w.out, md_table, md_table - md_vtable)
    md_name = w.put("I", 0)
    w.put("I", n_buffers)
    w.uoffset(metadata_slot, md_table)
    name = w.put("I", len("OfflineMemoryAllocation"))
    w.out += b"OfflineMemoryAllocation\0"
    w.uoffset(md_name, name)
    # Buffer { data }.
    w.align(2)
    buf_vtable = w.put("HHH", 6, 8, 4)
    w.align(4)
    buf_table = w.put("i", 0)
    struct.pack_into("<i", w.out, buf_table, buf_table - buf_vtable)
    buf_data = w.put("I", 0)
    w.uoffset(buffer_slots[n_buffers], buf_table)
    words = [1, 0, n] + plan
    w.align(16, 12)
    data = w.put("I", 4 * len(words))
    w.put("%di" % len(words), *words)
    w.uoffset(buf_data, data)
    w.align(16)
    base = len(w.out)  # where the old file starts
    w.out += old
    # Old fields: scalars copied, offsets re-aimed at the moved targets.
    for f in fields:
        if f == MODEL_BUFFERS:
            w.uoffset(slot_at[f], buffers)
        elif f in OFFSET_FIELDS and f != MODEL_METADATA:
            w.uoffset(slot_at[f], base + fields[f] + u32(old, fields[f]))
        else:
            w.out[slot_at[f]:slot_at[f] + 4] = old[fields[f]:fields[f] + 4]
    w.uoffset(slot_at[MODEL_METADATA], metadata)
    for i in range(n_buffers):
        entry = old_buffers + 4 + 4 * i
        w.uoffset(buffer_slots[i], base + entry + u32(old, entry))
    open(dst, "wb").write(w.out)


if __name__ == "__main__":
    main()
