#!/usr/bin/env node
// run.js - ONNX Runtime (onnxruntime-node, its default CPU execution
// provider) as the independent oracle for dmo's ONNX inference: runs an
// .onnx model on given input bytes and writes its output bytes, so that
// `dmo infer` can be compared with a runtime nobody on dmo wrote.
//
// Interface (stable: other tests and engineers call it as it is):
//
//   node tests/ort/run.js [--opt=LEVEL] MODEL.onnx INPUT.bin OUTPUT.bin
//
// INPUT.bin holds the raw little-endian bytes of every graph input that is
// not an initializer, in the graph's input order, back to back; OUTPUT.bin
// receives every graph output the same way, in the graph's output order.
// A symbolic (named or unknown) dimension of an input is taken as 1.
// A summary goes to stderr, one line a tensor:
//   input  NAME [1x3x5x5] float32 300 bytes
//   output NAME [1x2x3x3] float32 72 bytes
// --opt is ONNX Runtime's graph optimisation level: disabled (the default,
// so every node runs in its own kernel as the graph states it: a QDQ pair
// stays DequantizeLinear, float op, QuantizeLinear), basic, extended or all
// (ONNX Runtime fuses, e.g. QDQ into QLinearConv, whose integer
// requantisation rounds differently).  One intra-op thread.
// Exit status: 0 done, 1 bad input file or I/O error, 2 usage, 3 ONNX
// Runtime refused the model or failed to run it (its message is shown).
// Needs onnxruntime-node installed beside this file
// (cd tests/ort && npm ci --ignore-scripts).
'use strict';

const fs = require('fs');
const prog = 'ort-run';

// Bytes per element of the tensor types dmo's ONNX models use.
const elementBytes = {
  float32: 4, float64: 8, int8: 1, uint8: 1, int16: 2, uint16: 2,
  int32: 4, uint32: 4, int64: 8, uint64: 8, bool: 1, float16: 2,
};
const arrayTypes = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array,
  int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array,
  int64: BigInt64Array, uint64: BigUint64Array, bool: Uint8Array, float16: Uint16Array,
};

function usage() {
  process.stderr.write(`usage: node run.js [--opt=disabled|basic|extended|all] MODEL.onnx INPUT.bin OUTPUT.bin\n`);
  process.exit(2);
}

function die(status, message) {
  process.stderr.write(`${prog}: ${message}\n`);
  process.exit(status);
}

function describe(name, dims, type, bytes) {
  return `${name} [${dims.length ? dims.join('x') : 'scalar'}] ${type} ${bytes} bytes`;
}

async function main(argv) {
  let opt = 'disabled';
  const files = [];
  for (const a of argv) {
    if (a.startsWith('--opt=')) {
      opt = a.slice(6);
      if (!['disabled', 'basic', 'extended', 'all'].includes(opt)) usage();
    } else if (a.startsWith('-')) {
      usage();
    } else {
      files.push(a);
    }
  }
  if (files.length !== 3) usage();
  const [modelPath, inputPath, outputPath] = files;

  let ort;
  try {
    ort = require('onnxruntime-node');
  } catch (e) {
    die(1, `onnxruntime-node is not installed beside run.js: ${e.message}`);
  }
  if (!fs.existsSync(modelPath)) die(1, `${modelPath}: no such file`);
  let session;
  try {
    session = await ort.InferenceSession.create(modelPath, {
      graphOptimizationLevel: opt, intraOpNumThreads: 1, interOpNumThreads: 1,
      executionProviders: ['cpu'], logSeverityLevel: 3,
    });
  } catch (e) {
    die(3, `ONNX Runtime refuses the model: ${e.message}`);
  }

  let input;
  try {
    input = fs.readFileSync(inputPath);
  } catch (e) {
    die(1, `${inputPath}: ${e.message}`);
  }
  const feeds = {};
  let offset = 0;
  for (const meta of session.inputMetadata) {
    if (!meta.isTensor || !(meta.type in elementBytes))
      die(3, `input ${meta.name}: type ${meta.type} is not a tensor type run.js feeds`);
    const dims = meta.shape.map((d) => (typeof d === 'number' && d >= 0 ? d : 1));
    const count = dims.reduce((a, b) => a * b, 1);
    const bytes = count * elementBytes[meta.type];
    if (offset + bytes > input.length)
      die(1, `${inputPath}: too short for input ${meta.name} [${dims.join('x')}]`);
    // A copy: the tensor's typed array must start on its element alignment.
    const raw = new Uint8Array(bytes);
    raw.set(input.subarray(offset, offset + bytes));
    offset += bytes;
    const values = new arrayTypes[meta.type](raw.buffer);
    feeds[meta.name] = new ort.Tensor(meta.type, values, dims);
    process.stderr.write(`input  ${describe(meta.name, dims, meta.type, bytes)}\n`);
  }
  if (offset !== input.length) die(1, `${inputPath}: longer than the model's inputs`);

  let results;
  try {
    results = await session.run(feeds);
  } catch (e) {
    die(3, `ONNX Runtime failed to run the model: ${e.message}`);
  }
  const parts = [];
  for (const name of session.outputNames) {
    const t = results[name];
    const data = t.data;
    const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    parts.push(bytes);
    process.stderr.write(`output ${describe(name, t.dims, t.type, bytes.length)}\n`);
  }
  try {
    fs.writeFileSync(outputPath, Buffer.concat(parts));
  } catch (e) {
    die(1, `${outputPath}: ${e.message}`);
  }
}

main(process.argv.slice(2)).catch((e) => die(1, e.message));
