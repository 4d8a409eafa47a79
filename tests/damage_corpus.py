#!/usr/bin/env python3
"""damage_corpus.py MODEL OUTDIR [FLIPS] - hostile variants of a real model
(.tflite or .onnx) for the sanitizer run (tests/sanitize.sh), in OUTDIR:

  flip-K.EXT      one bit flipped, at FLIPS (default 64) positions spread
                  evenly over the file (bit K % 8 of byte K * size / FLIPS);
  quant-T-V.tflite  (.tflite only) quantised tensor T's parameters set to
                  an extreme V:
                  scales tiny, subnormal or huge (finite and positive, so
                  the readers' checks let them through to the kernels),
                  zero points at the limits of the tensor's type.

Positions come from a separate minimal FlatBuffers walk (tflite_walk.py),
not from dmo's reader."""
import os
import struct
import sys

from tflite_walk import Walk

SCALES = {"tiny": 1e-30, "subnormal": 1e-44, "huge": 1e30, "max": 3.4e38}
# TFLite type codes: INT8 9, UINT8 3, INT16 7, INT32 2.
ZERO_LIMITS = {9: (-128, 127), 3: (0, 255), 7: (-32768, 32767), 2: (-2**31, 2**31 - 1)}


def quant_fields(buf):
    """(tensor, type, [scale offsets], [zero point offsets]) of each
    quantised tensor of subgraph 0."""
    w = Walk(buf)
    graph = w.tables(w.u32(0), 2)[0]
    found = []
    for t, tensor in enumerate(w.tables(graph, 0)):
        q = w.ref(tensor, 4)
        p = w.field(tensor, 1)
        if q is None:
            continue
        found.append((t, buf[p] if p is not None else 0, w.vec(q, 2, 4), w.vec(q, 3, 8)))
    return found


def write(outdir, name, data):
    with open(os.path.join(outdir, name), "wb") as out:
        out.write(data)


def main(model, outdir, flips="64"):
    buf = bytearray(open(model, "rb").read())
    os.makedirs(outdir, exist_ok=True)
    flips = int(flips)
    ext = os.path.splitext(model)[1]
    for k in range(flips):
        at = k * len(buf) // flips
        damaged = bytearray(buf)
        damaged[at] ^= 1 << (k % 8)
        write(outdir, "flip-%d%s" % (k, ext), damaged)
    for t, ttype, scales, zeros in quant_fields(buf) if ext == ".tflite" else []:
        variants = {name: (scale, None) for name, scale in SCALES.items()}
        low, high = ZERO_LIMITS.get(ttype, (None, None))
        if zeros and low is not None:
            variants["zmin"] = (None, low)
            variants["zmax"] = (None, high)
        for name, (scale, zero) in variants.items():
            damaged = bytearray(buf)
            for p in scales if scale is not None else []:
                struct.pack_into("<f", damaged, p, scale)
            for p in zeros if zero is not None else []:
                struct.pack_into("<q", damaged, p, zero)
            write(outdir, "quant-%d-%s.tflite" % (t, name), damaged)


if __name__ == "__main__":
    main(*sys.argv[1:])
