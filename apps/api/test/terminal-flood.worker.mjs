// A page that floods its terminal with input frames, in a thread of its own so sending them costs the
// api's event loop nothing. Plain JavaScript: a worker runs untranspiled.
//
// workerData: { url, origin, frames, data }
// It never reads the output. Posts { sent } once every frame is handed to the socket; 'stop' drops the connection (a closing
// handshake would wait behind the frames the api has not read yet) and posts { closed: true }.
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, origin, frames, data } = workerData;
const ws = new WebSocket(url, { headers: { origin } });
ws.on('error', (error) => parentPort.postMessage({ error: error.message }));
ws.once('open', () => {
  // It reads none of the terminal's output either: the api must not buffer it all.
  ws.pause();
  const frame = JSON.stringify({ type: 'input', data });
  for (let i = 0; i < frames; i++) ws.send(frame);
  parentPort.postMessage({ sent: frames });
});
parentPort.on('message', () => {
  ws.once('close', () => parentPort.postMessage({ closed: true }));
  ws.terminate();
});
