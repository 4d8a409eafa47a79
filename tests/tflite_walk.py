"""tflite_walk.py - a minimal FlatBuffers walk over a .tflite file, written
apart from dmo's reader so that the tests using it (tflite_facts.py,
damage_corpus.py) check dmo against an independent reading.

Offsets are byte positions in the file; a table's field i is the i-th
entry of its vtable (the schema's field order)."""
import struct


class Walk:
    def __init__(self, buf):
        self.buf = buf

    def u32(self, o):
        return struct.unpack_from("<I", self.buf, o)[0]

    def i32(self, o):
        return struct.unpack_from("<i", self.buf, o)[0]

    def field(self, table, i):
        """Offset of field i's value, or None when absent."""
        vt = table - self.i32(table)
        if 4 + 2 * i >= struct.unpack_from("<H", self.buf, vt)[0]:
            return None
        off = struct.unpack_from("<H", self.buf, vt + 4 + 2 * i)[0]
        return table + off if off else None

    def ref(self, table, i):
        """Offset of the table or vector field i points to, or None."""
        p = self.field(table, i)
        return None if p is None else p + self.u32(p)

    def vec(self, table, i, size=4):
        """Offsets of the elements (each SIZE bytes) of vector field i."""
        v = self.ref(table, i)
        return [] if v is None else [v + 4 + size * k for k in range(self.u32(v))]

    def ints(self, table, i):
        return [self.i32(p) for p in self.vec(table, i)]

    def tables(self, table, i):
        return [p + self.u32(p) for p in self.vec(table, i)]
