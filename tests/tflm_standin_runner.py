#!/usr/bin/python3
# tflm_standin_runner.py - a stand-in for dmo-tflm-run-KERNELS (the
# runner of TensorFlow Lite Micro, tflm_run.h) that speaks its interface,
# so that dmo's side of it (dmo plan --verify for TFLM's kernels:
# tflm_run.c) is tested before the real runner is built.  It proves
# nothing about TFLM: the outputs come from `dmo infer` without overlaps
# (they do not depend on any plan), and arena_used_bytes is a fixed
# persistent part plus the head: the offline plan's extent (offsets plus
# sizes rounded up to 16, read by tests/tflite_plan_walk.py's walk) when
# the model carries one, else $STANDIN_HEAD (TFLM's own plan).
#   STANDIN_FLIP=1: a planned model's output gets one byte changed;
#   STANDIN_EXTRA=N: a planned model's head is N bytes larger.
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tflite_plan_walk as walk  # noqa: E402 (the test's own FlatBuffers walk)

PERSISTENT = 4096


def offline_head(path):
    """The extent of the model's offline plan, or None."""
    fb = walk.FB(open(path, "rb").read())
    m = fb.root()
    bufs = fb.tables(m, walk.M_BUFFERS)
    plan = None
    for md in fb.tables(m, walk.M_METADATA):
        if fb.string(md, 0) == "OfflineMemoryAllocation":
            data = fb.bytes_(bufs[fb.scalar(md, 1, "I")], 0)
            plan = [int.from_bytes(data[i:i + 4], "little", signed=True) for i in range(0, len(data), 4)][3:]
    if plan is None:
        return None
    g = fb.tables(m, walk.M_SUBGRAPHS)[0]
    head = 0
    for t, off in zip(fb.tables(g, 0), plan):
        if off < 0:
            continue
        elems = 1
        for d in fb.ints(t, walk.T_SHAPE):
            elems *= d
        size = elems * walk.ELEM[fb.scalar(t, walk.T_TYPE, "B")]
        head = max(head, off + (size + 15) // 16 * 16)
    return head


def main():
    args = sys.argv[1:]
    inp = out = None
    while len(args) > 1:
        if args[0] == "--input":
            inp = args[1]
        elif args[0] == "--output":
            out = args[1]
        else:
            return 2
        args = args[2:]
    if len(args) != 1 or inp is None or out is None:
        return 2
    model = args[0]
    dmo = os.environ["STANDIN_DMO"]
    r = subprocess.run([dmo, "infer", "-q", "--arena", "plain", "--input", inp, "--output", out, model],
                       stdout=subprocess.DEVNULL)
    if r.returncode != 0:
        return 1
    head = offline_head(model)
    planned = head is not None
    if planned:
        head += int(os.environ.get("STANDIN_EXTRA", "0"))
        if os.environ.get("STANDIN_FLIP"):
            data = bytearray(open(out, "rb").read())
            data[0] ^= 1
            open(out, "wb").write(data)
    else:
        head = int(os.environ["STANDIN_HEAD"])
    print("kernels tflm")
    print("tflm stand-in")
    print("offline_plan %s" % ("yes" if planned else "no"))
    print("arena_used_bytes %d" % (PERSISTENT + head))
    return 0


sys.exit(main())
