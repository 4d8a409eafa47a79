#!/usr/bin/env python3
"""chain_model.py tflite|onnx N FILE - a model of N ReLU ops in a chain (the
output of op k is the input of op k+1), 4x4x4 float32 tensors, written
byte by byte without any model library: a minimal FlatBuffers writer for
.tflite (schema fields by number, as tflite_facts.py reads them) and a
protobuf writer for ONNX.  For the planner's scaling tests."""
import struct
import sys

SHAPE = [1, 4, 4, 4]


class FlatBuffer:
    """Front to back: a table is written with placeholders for its
    offsets, then what they point to after it (offsets point forward)."""

    def __init__(self):
        self.buf = bytearray(8)  # root offset, then padding

    def align(self, n):
        while len(self.buf) % n:
            self.buf.append(0)

    def put(self, value):
        """VALUE: ('u8'|'i32'|'u32', x), ('str', s), ('ints', [..]),
        ('tables', [fields, ...]) or ('table', fields); returns where."""
        kind, x = value
        self.align(4)
        at = len(self.buf)
        if kind == "str":
            data = x.encode()
            self.buf += struct.pack("<I", len(data)) + data + b"\0"
        elif kind == "ints":
            self.buf += struct.pack("<I", len(x)) + b"".join(struct.pack("<i", v) for v in x)
        elif kind == "tables":
            self.buf += struct.pack("<I", len(x)) + bytes(4 * len(x))
            for k, fields in enumerate(x):
                self.patch(at + 4 + 4 * k, self.table(fields))
        elif kind == "table":
            return self.table(x)
        return at

    def patch(self, where, target):
        struct.pack_into("<I", self.buf, where, target - where)

    def table(self, fields):
        """FIELDS: {slot: value}; scalars inline, the rest by offset."""
        slots = max(fields) + 1 if fields else 0
        self.align(4)
        vtable = len(self.buf)
        self.buf += bytes(4 + 2 * slots)
        self.align(4)
        table = len(self.buf)
        self.buf += struct.pack("<i", table - vtable)
        later = []
        for slot in sorted(fields):
            kind, x = fields[slot]
            size = 1 if kind == "u8" else 4
            self.align(size)
            struct.pack_into("<H", self.buf, vtable + 4 + 2 * slot, len(self.buf) - table)
            if kind == "u8":
                self.buf.append(x)
            elif kind in ("i32", "u32"):
                self.buf += struct.pack("<i" if kind == "i32" else "<I", x)
            else:
                later.append((len(self.buf), fields[slot]))
                self.buf += bytes(4)
        self.align(4)
        struct.pack_into("<HH", self.buf, vtable, 4 + 2 * slots, len(self.buf) - table)
        for where, value in later:
            self.patch(where, self.put(value))
        return table


def tflite(n):
    tensors = [{0: ("ints", SHAPE), 1: ("u8", 0), 2: ("u32", 0), 3: ("str", "t%d" % k)}
               for k in range(n + 1)]
    ops = [{0: ("u32", 0), 1: ("ints", [k]), 2: ("ints", [k + 1])} for k in range(n)]
    model = {
        0: ("u32", 3),
        1: ("tables", [{0: ("u8", 19), 2: ("i32", 1), 3: ("i32", 19)}]),  # RELU
        2: ("tables", [{0: ("tables", tensors), 1: ("ints", [0]), 2: ("ints", [n]),
                        3: ("tables", ops), 4: ("str", "chain")}]),
        4: ("tables", [{}]),  # buffer 0: the empty one
    }
    fb = FlatBuffer()
    fb.buf[4:8] = b"TFL3"
    fb.patch(0, fb.table(model))
    return bytes(fb.buf)


def varint(v):
    out = bytearray()
    while True:
        byte = v & 0x7F
        v >>= 7
        if v:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field(number, payload):
    """A length-delimited field, or a varint one when PAYLOAD is an int."""
    if isinstance(payload, int):
        return varint(number << 3) + varint(payload)
    if isinstance(payload, str):
        payload = payload.encode()
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def onnx(n):
    shape = b"".join(field(1, field(1, d)) for d in SHAPE)
    def value_info(name):
        return field(1, name) + field(2, field(1, field(1, 1) + field(2, shape)))  # float
    nodes = b"".join(field(1, field(1, "t%d" % k) + field(2, "t%d" % (k + 1)) +
                           field(3, "relu%d" % k) + field(4, "Relu")) for k in range(n))
    graph = nodes + field(2, "chain") + field(11, value_info("t0")) + \
        field(12, value_info("t%d" % n))
    return field(1, 7) + field(8, field(2, 13)) + field(7, graph)


def main(kind, n, path):
    data = tflite(int(n)) if kind == "tflite" else onnx(int(n))
    with open(path, "wb") as out:
        out.write(data)


if __name__ == "__main__":
    main(*sys.argv[1:])
