// Summarises a .cpuprofile: busy time per second (to find the burst), then for the window --from=<s> --to=<s>
// self time by package and by function (name, file, line), and the share of busy samples whose stack holds a
// frame matching each extra argument (a regular expression over "url function").
//   node tools/scripts/cpu-profile.mjs /tmp/prof/scheduler.123.cpuprofile --from=9 --to=19 'undici/lib/web|webstreams' typeorm
import { readFileSync } from 'node:fs';

const [file, ...rest] = process.argv.slice(2);
const option = (name, fallback) => Number(rest.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const from = option('from', 0);
const to = option('to', Infinity);
const top = option('top', 25);
const patterns = rest.filter((arg) => !arg.startsWith('--')).map((pattern) => new RegExp(pattern));
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map(profile.nodes.flatMap((node) => (node.children ?? []).map((child) => [child, node.id])));
const short = (url) => url.replace(/^file:\/\/.*?\/node_modules\//, '').replace(/^file:\/\/\/[^ ]*?\/((apps|libs|tools)\/)/, '$1');
const packageOf = (url) =>
  /^((@[^/]+\/)?[^/]+)/.exec(short(url))?.[1].replace(/^(apps|libs|tools)$/, (dir) => `${dir}/${short(url).split('/')[1]}`) ?? '(native)';
const add = (map, key, value) => map.set(key, (map.get(key) ?? 0) + value);

const perSecond = new Map();
const byFunction = new Map();
const byPackage = new Map();
const matched = patterns.map(() => 0);
let busy = 0;
let at = 0;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i];
  const micros = profile.timeDeltas[i + 1] ?? 0;
  const frame = nodes.get(id).callFrame;
  if (frame.functionName === '(idle)') return;
  add(perSecond, Math.floor(at / 1e6), micros);
  if (at / 1e6 < from || at / 1e6 > to) return;
  busy += micros;
  add(byFunction, `${frame.functionName || '(anonymous)'}  ${short(frame.url)}:${frame.lineNumber + 1}`, micros);
  add(byPackage, frame.url.startsWith('node:') ? 'node:' : packageOf(frame.url), micros);
  const stack = [];
  for (let node = id; node !== undefined; node = parents.get(node)) stack.push(`${nodes.get(node).callFrame.url} ${nodes.get(node).callFrame.functionName}`);
  patterns.forEach((pattern, k) => stack.some((line) => pattern.test(line)) && (matched[k] += micros));
});
const ms = (micros) => (micros / 1000).toFixed(0).padStart(7);
const share = (micros) => `${((100 * micros) / busy).toFixed(1).padStart(5)} %`;
const table = (title, map) => [
  `-- ${title}`,
  ...[...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, micros]) => `${ms(micros)} ms ${share(micros)}  ${key}`),
];
console.log(
  [
    `busy ms per second: ${[...perSecond].map(([second, micros]) => `${second}:${(micros / 1000).toFixed(0)}`).join(' ')}`,
    `${file}: ${ms(busy).trim()} ms busy in ${from}–${to} s`,
    ...table('self time by package', byPackage),
    ...table('self time by function', byFunction),
    ...(patterns.length ? ['-- stacks holding', ...patterns.map((pattern, k) => `${ms(matched[k])} ms ${share(matched[k])}  ${pattern}`)] : []),
  ].join('\n'),
);
