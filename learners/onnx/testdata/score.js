// score.js scores rfkit's exported ONNX models with onnxruntime-node, for
// the runtime test (runtime_test.go). Usage: node score.js MANIFEST, with
// NODE_PATH pointing at the node_modules holding onnxruntime-node. The
// manifest lists {onnx, rows, n, d, outputs}; rows is a file of n×d
// little-endian float64s. For each model it writes every output named in
// outputs to onnx + "." + name + ".bin" (float64s), then prints one JSON
// line per model with the median one-row latency in nanoseconds.
const fs = require('fs');
const ort = require('onnxruntime-node');

async function main() {
  const manifest = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  for (const m of manifest) {
    const opts = { intraOpNumThreads: 1, interOpNumThreads: 1, logSeverityLevel: 3 };
    const sess = await ort.InferenceSession.create(m.onnx, opts);
    const buf = fs.readFileSync(m.rows);
    const X = new Float64Array(buf.buffer, buf.byteOffset, m.n * m.d);
    const out = await sess.run({ X: new ort.Tensor('float64', X, [m.n, m.d]) });
    for (const name of m.outputs) {
      const t = out[name];
      if (!t) throw new Error(m.onnx + ': no output ' + name);
      const v = Float64Array.from(t.data);
      fs.writeFileSync(m.onnx + '.' + name + '.bin', Buffer.from(v.buffer));
    }
    const one = { X: new ort.Tensor('float64', X.slice(0, m.d), [1, m.d]) };
    for (let i = 0; i < 20; i++) await sess.run(one);
    const times = [];
    for (let i = 0; i < 200; i++) {
      const t0 = process.hrtime.bigint();
      await sess.run(one);
      times.push(Number(process.hrtime.bigint() - t0));
    }
    times.sort((a, b) => a - b);
    console.log(JSON.stringify({ onnx: m.onnx, latency_ns: times[times.length >> 1] }));
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
