#!/usr/bin/env python3
# armnn_layers.py - op by op comparison of dmo's kernels with Arm NN's.
#
#   armnn_layers.py split DEBUG.jsonl DIR
#       Arm NN's --debug dump (dmo-armnn-run --debug: one JSON object a line,
#       one per layer of its optimised network, quantised values raw) into
#       DIR/armnn-NNNN.bin, the output bytes of the model's operator NNNN
#       (the last Arm NN layer named OP:0:NNNN[:ACTIVATION], its fused
#       activation included).  1-byte integer tensors only.
#   armnn_layers.py compare LAYERS.csv TENSORS.csv DIR
#       after `dmo-harness --replay DIR` (each dmo layer run on Arm NN's
#       inputs), one line per layer both wrote: index, name, op, out_bytes,
#       in_bytes, identical bytes, largest difference, the values Arm NN and
#       dmo hold where they differ (a value, or "mixed"), and the output's
#       zero point; LAYERS.csv and TENSORS.csv are `dmo model --csv
#       [--tensors]` of the model.  Ends with "total LAYERS SAME DIFF".
import csv
import json
import os
import re
import sys

NAME = re.compile(r"[A-Za-z0-9]+:0:(\d+)(:[A-Za-z0-9_]+)?$")


def flatten(value, out):
    if isinstance(value, list):
        for v in value:
            flatten(v, out)
    else:
        out.append(value)


def split(debug, folder):
    last = {}
    with open(debug) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            obj = json.loads(line)
            m = NAME.search(obj["layerName"])
            if m:
                last[int(m.group(1))] = obj
    for op, obj in sorted(last.items()):
        values = []
        flatten(obj["data"], values)
        if not all(isinstance(v, int) and -128 <= v <= 255 for v in values):
            continue
        with open(os.path.join(folder, "armnn-%04d.bin" % op), "wb") as f:
            f.write(bytes(v & 0xFF for v in values))


def signed(b):
    return b - 256 if b > 127 else b


def one_value(values):
    values = set(values)
    return str(values.pop()) if len(values) == 1 else "mixed" if values else "-"


def compare(layers_csv, tensors_csv, folder):
    rows = list(csv.DictReader(open(layers_csv)))
    tensors = list(csv.DictReader(open(tensors_csv)))
    total = same_layers = 0
    for i, row in enumerate(rows):
        a = os.path.join(folder, "armnn-%04d.bin" % i)
        d = os.path.join(folder, "dmo-%04d.bin" % i)
        if not (os.path.exists(a) and os.path.exists(d)):
            continue
        arm, dmo = open(a, "rb").read(), open(d, "rb").read()
        if len(arm) != len(dmo):
            print("%d %s %s sizes %d %d" % (i, row["name"], row["op"], len(arm), len(dmo)))
            continue
        pairs = [(signed(x), signed(y)) for x, y in zip(arm, dmo) if x != y]
        diffs = [abs(x - y) for x, y in pairs]
        total += 1
        same_layers += not diffs
        out = tensors[int(row["results"].split(";")[0])]
        print("%d %s %s %d %s %d %d %s %s %s" % (
            i, row["name"], row["op"], len(dmo), row["in_bytes"], len(dmo) - len(diffs),
            max(diffs, default=0), one_value(x for x, _ in pairs), one_value(y for _, y in pairs),
            out["zero_point"]))
    print("total %d %d %d" % (total, same_layers, total - same_layers))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "split":
        split(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit("usage: armnn_layers.py split DEBUG.jsonl DIR | compare LAYERS.csv TENSORS.csv DIR")
