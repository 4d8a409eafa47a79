#!/usr/bin/env node
// tensor_bytes.js - the raw little-endian element bytes of serialized ONNX
// TensorProto files (the input_N.pb / output_N.pb of ONNX's test cases),
// back to back on stdout, in the order given: the input and expected-output
// files of run.js from ONNX's own test data.
//
//   node tests/ort/tensor_bytes.js FILE.pb...
//
// Reads raw_data (field 9) or, without it, packed float_data (field 4);
// other element encodings exit 1 naming the file.
'use strict';

const fs = require('fs');

function varint(buf, pos) {
  let value = 0n;
  let shift = 0n;
  for (;;) {
    if (pos >= buf.length) throw new Error('truncated varint');
    const b = buf[pos++];
    value |= BigInt(b & 0x7f) << shift;
    if (!(b & 0x80)) return [value, pos];
    shift += 7n;
  }
}

function elementBytes(buf) {
  let pos = 0;
  let floats = null;
  while (pos < buf.length) {
    let key;
    [key, pos] = varint(buf, pos);
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      [, pos] = varint(buf, pos);
    } else if (wire === 2) {
      let len;
      [len, pos] = varint(buf, pos);
      const end = pos + Number(len);
      if (end > buf.length) throw new Error('truncated field');
      if (field === 9) return buf.subarray(pos, end);
      if (field === 4) floats = buf.subarray(pos, end);
      pos = end;
    } else if (wire === 5) {
      pos += 4;
    } else if (wire === 1) {
      pos += 8;
    } else {
      throw new Error(`wire type ${wire}`);
    }
  }
  if (floats) return floats;
  throw new Error('neither raw_data nor packed float_data');
}

const parts = [];
for (const file of process.argv.slice(2)) {
  try {
    parts.push(elementBytes(fs.readFileSync(file)));
  } catch (e) {
    process.stderr.write(`tensor_bytes: ${file}: ${e.message}\n`);
    process.exit(1);
  }
}
process.stdout.write(Buffer.concat(parts));
