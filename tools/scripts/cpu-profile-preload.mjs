// Profiles the Antidote app or tool a process runs (its script path names apps/<app>/ or tools/<tool>/): `NODE_OPTIONS="--import
// <this file>"` (node refuses --cpu-prof in NODE_OPTIONS, and antictl up passes its environment to the apps).
// Samples every millisecond with the in-process inspector and writes <app>.<pid>.cpuprofile into
// $CPU_PROFILE_DIR (default /tmp/prof) when the process exits. Read them with cpu-profile.mjs.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const script = process.argv[1] ?? '';
const app = /(?:apps|tools)\/([\w-]+)\//.exec(script)?.[1];
if (app && !script.includes('vitest')) {
  const session = new Session();
  session.connect();
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.enable');
  session.post('Profiler.start');
  process.on('exit', () =>
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(`${process.env.CPU_PROFILE_DIR ?? '/tmp/prof'}/${app}.${process.pid}.cpuprofile`, JSON.stringify(result.profile));
    }),
  );
}
